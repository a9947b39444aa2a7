// SPDX-License-Identifier: MIT
/* perf report's sample filters (see filter.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "filter.h"
#include "threadcomms.h"
#include "../util/array.h"

#define FILTER_MAX_CPUS 4096
#define FILTER_MAX_RANGES 16
#define COMM_LEN 16	/* perf's TASK_COMM_LEN */
#define NSEC_PER_SEC 1000000000ULL

struct time_range {
	uint64_t start, end;	/* ns; 0: open */
	double pstart, pend;	/* percent slices: fractions of first..last */
};

struct thread_comm {
	uint32_t tid;
	char comm[COMM_LEN];
};

struct sample_filter {
	uint32_t *pids, *tids;
	size_t npids, cap_pids, ntids, cap_tids;
	char **comms;
	size_t ncomms, cap_comms;
	uint64_t cpus[FILTER_MAX_CPUS / 64];
	int have_cpus;
	struct time_range ranges[FILTER_MAX_RANGES];
	uint32_t nranges;
	int percent;		/* ranges are percent slices, resolved per file */
	char *time_spec;
	/* the threads' commands of the file being read (perf's thread comm) */
	struct thread_comm *threads;
	size_t nthreads, cap_threads;
	size_t last;		/* the thread found last: samples come in runs */
	int no_cpu, no_time;	/* a sample lacked the field a filter needs */
	int track;		/* follow the commands without --comm */
	struct thread_comms *tc;	/* the commands over time, when the file's records say */
	char *tc_path;		/* the file tc was read from */
};

struct sample_filter *sample_filter__new(void)
{
	return calloc(1, sizeof(struct sample_filter));
}

void sample_filter__delete(struct sample_filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->ncomms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->tids);
	free(f->threads);
	free(f->time_spec);
	thread_comms__delete(f->tc);
	free(f->tc_path);
	free(f);
}

/* The next item of a comma list into item (cut to n); the rest after it. */
static const char *next_item(const char *s, char *item, size_t n)
{
	size_t len = strcspn(s, ",");

	snprintf(item, n, "%.*s", (int)len, s);
	return s[len] ? s + len + 1 : s + len;
}

static int parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int add_ids(uint32_t **v, size_t *n, size_t *cap, const char *list, const char *what,
		   struct ap_err *err)
{
	char item[64];
	uint32_t id;

	if (!*list)
		return ap_errf(err, "'' is not a %s", what);
	for (const char *s = list; *s || s == list;) {
		s = next_item(s, item, sizeof(item));
		if (parse_u32(item, INT32_MAX, &id))
			return ap_errf(err, "'%s' is not a %s (in '%s')", item, what, list);
		if (ap_push(v, n, cap, &id, sizeof(id)))
			return ap_err_nomem(err);
		if (!*s)
			break;
	}
	return 0;
}

int sample_filter__add_pids(struct sample_filter *f, const char *list, struct ap_err *err)
{
	return add_ids(&f->pids, &f->npids, &f->cap_pids, list, "pid", err);
}

int sample_filter__add_tids(struct sample_filter *f, const char *list, struct ap_err *err)
{
	return add_ids(&f->tids, &f->ntids, &f->cap_tids, list, "tid", err);
}

int sample_filter__add_comms(struct sample_filter *f, const char *list, struct ap_err *err)
{
	char item[256];

	for (const char *s = list;;) {
		char *dup;

		s = next_item(s, item, sizeof(item));
		if (!item[0])
			return ap_errf(err, "'%s': an empty command name", list);
		dup = strdup(item);
		if (!dup || ap_push(&f->comms, &f->ncomms, &f->cap_comms, &dup, sizeof(dup))) {
			free(dup);
			return ap_err_nomem(err);
		}
		if (!*s)
			return 0;
	}
}

int sample_filter__add_cpus(struct sample_filter *f, const char *list, struct ap_err *err)
{
	char item[64];

	for (const char *s = list;;) {
		uint32_t lo, hi;
		char *dash;

		s = next_item(s, item, sizeof(item));
		dash = strchr(item, '-');
		if (dash)
			*dash = '\0';
		if (parse_u32(item, FILTER_MAX_CPUS - 1, &lo) ||
		    (dash ? parse_u32(dash + 1, FILTER_MAX_CPUS - 1, &hi) : (hi = lo, 0)) || hi < lo)
			return ap_errf(err, "'%s' is not a CPU list (e.g. 0-2,5; CPUs 0 to %d)", list,
				       FILTER_MAX_CPUS - 1);
		for (uint32_t c = lo; c <= hi; c++)
			f->cpus[c / 64] |= 1ULL << (c % 64);
		f->have_cpus = 1;
		if (!*s)
			return 0;
	}
}

/* perf's seconds[.fraction] (9 digits at most) as ns; "" is 0 (open). */
static int parse_secs(const char *s, uint64_t *ns)
{
	char frac[10] = "000000000", *end;
	const char *dot = strchr(s, '.');
	unsigned long long sec;
	size_t flen;

	*ns = 0;
	if (!*s)
		return 0;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	sec = strtoull(s, &end, 10);
	if (errno || (*end && *end != '.') || sec > UINT64_MAX / NSEC_PER_SEC - 1)
		return -1;
	if (dot) {
		flen = strlen(dot + 1);
		if (flen > 9 || strspn(dot + 1, "0123456789") != flen)
			return -1;
		memcpy(frac, dot + 1, flen);
	}
	*ns = sec * NSEC_PER_SEC + strtoull(frac, NULL, 10);
	return 0;
}

/* "START,END START,END ..." (perf_time__parse_strs): ordered, not overlapping. */
static int parse_absolute(struct sample_filter *f, const char *spec)
{
	char buf[256];
	char *save = NULL;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char *comma = strchr(tok, ',');
		struct time_range *r = &f->ranges[f->nranges];

		if (!comma || strchr(comma + 1, ',') || f->nranges == FILTER_MAX_RANGES)
			return -1;
		*comma = '\0';
		if (parse_secs(tok, &r->start) || parse_secs(comma + 1, &r->end) ||
		    (r->end && r->end < r->start))
			return -1;
		if (f->nranges && (!f->ranges[f->nranges - 1].end ||
				   f->ranges[f->nranges - 1].end >= r->start))
			return -1;
		f->nranges++;
	}
	return f->nranges ? 0 : -1;
}

/* "12.5%" into a fraction 0..1. */
static int parse_pct(const char *s, const char *stop, double *out)
{
	char buf[64], *end;

	if (stop - s < 2 || stop - s >= (long)sizeof(buf) || stop[-1] != '%')
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)(stop - s - 1), s);
	*out = strtod(buf, &end) / 100.0;
	return *end || end == buf || !(*out >= 0.0 && *out <= 1.0) ? -1 : 0;
}

/* One percent item: "P%/N", "A%-B%" or "P%" (the first slice). */
static int parse_pct_item(const char *s, struct time_range *r)
{
	const char *slash = strchr(s, '/'), *dash = strchr(s, '-'), *stop = s + strlen(s);
	double pct;
	uint32_t nth = 1;

	if (dash && !slash)
		return parse_pct(s, dash, &r->pstart) || parse_pct(dash + 1, stop, &r->pend) ||
		       r->pend < r->pstart ? -1 : 0;
	if (slash && (parse_u32(slash + 1, 1000000, &nth) || !nth))
		return -1;
	if (parse_pct(s, slash ? slash : stop, &pct) || pct <= 0.0)
		return -1;
	r->pstart = pct * (nth - 1);
	r->pend = pct * nth;
	return r->pend > 1.0 + 1e-9 ? -1 : 0;
}

static int parse_percent(struct sample_filter *f, const char *spec)
{
	char item[64];

	/* perf takes one kind per string: all slashes, all dashes, or one "P%" */
	if (strchr(spec, '/') && strchr(spec, '-'))
		return -1;
	for (const char *s = spec;;) {
		if (f->nranges == FILTER_MAX_RANGES)
			return -1;
		s = next_item(s, item, sizeof(item));
		if (parse_pct_item(item, &f->ranges[f->nranges++]))
			return -1;
		if (!*s)
			break;
	}
	return !strchr(spec, '/') && !strchr(spec, '-') && f->nranges > 1 ? -1 : 0;
}

int sample_filter__set_time(struct sample_filter *f, const char *spec, struct ap_err *err)
{
	if (f->time_spec)
		return ap_errf(err, "given twice (several ranges go in one value: \"A,B C,D\")");
	f->percent = strchr(spec, '%') != NULL;
	f->nranges = 0;
	if (strlen(spec) >= 256 || (f->percent ? parse_percent(f, spec) : parse_absolute(f, spec)))
		return ap_errf(err, "'%s' is not perf's time form: START,END in seconds (either"
			       " may be left out; several ranges apart by spaces), or percent slices"
			       " (10%%/2, 0%%-10%%,30%%-40%%)", spec);
	f->time_spec = strdup(spec);
	return f->time_spec ? 0 : ap_err_nomem(err);
}

const uint32_t *sample_filter__pids(const struct sample_filter *f, uint32_t *n)
{
	*n = f ? (uint32_t)f->npids : 0;
	return f ? f->pids : NULL;
}

int sample_filter__active(const struct sample_filter *f)
{
	return f && (f->npids || f->ntids || f->ncomms || f->have_cpus || f->nranges);
}

/* " OPT a,b,c" after what buf holds ("OPT a,b,c" when empty). */
int sample_filter__beyond_pids(const struct sample_filter *f)
{
	return f && (f->ntids || f->ncomms || f->have_cpus || f->nranges);
}

static void describe_ids(char *buf, size_t n, const char *opt, const uint32_t *v, size_t nv)
{
	for (size_t i = 0; i < nv; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s%s%" PRIu32,
			 i || !buf[0] ? "" : " ", i ? "" : opt, i ? "," : " ", v[i]);
}

void sample_filter__describe(const struct sample_filter *f, char *buf, size_t n)
{
	buf[0] = '\0';
	if (!f || !n)
		return;
	describe_ids(buf, n, "--pid", f->pids, f->npids);
	describe_ids(buf, n, "--tid", f->tids, f->ntids);
	for (size_t i = 0; i < f->ncomms; i++)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", i ? "," :
			 buf[0] ? " --comm " : "--comm ", f->comms[i]);
	if (f->have_cpus) {
		snprintf(buf + strlen(buf), n - strlen(buf), "%s--cpu ", buf[0] ? " " : "");
		for (uint32_t c = 0, first = 1; c < FILTER_MAX_CPUS; c++) {
			uint32_t hi = c;

			if (!(f->cpus[c / 64] & (1ULL << (c % 64))))
				continue;
			while (hi + 1 < FILTER_MAX_CPUS && (f->cpus[(hi + 1) / 64] & (1ULL << ((hi + 1) % 64))))
				hi++;
			snprintf(buf + strlen(buf), n - strlen(buf), first ? "%u" : ",%u", c);
			if (hi > c)
				snprintf(buf + strlen(buf), n - strlen(buf), "-%u", hi);
			first = 0;
			c = hi;
		}
	}
	if (f->time_spec)
		snprintf(buf + strlen(buf), n - strlen(buf), "%s--time %s", buf[0] ? " " : "",
			 f->time_spec);
}

/* perf's set_percent_time: a slice of first..last, its end one ns short unless the last. */
static void resolve_percent(struct time_range *r, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	r->start = first + (uint64_t)llround(r->pstart * (double)total);
	r->end = first + (uint64_t)llround(r->pend * (double)total);
	if (r->end > r->start && r->end != last)
		r->end--;
}

int sample_filter__begin(struct sample_filter *f, struct session *s, struct ap_err *err)
{
	const char *path = session__path(s);
	uint64_t first, last;

	if (!f)
		return 0;
	f->nthreads = 0;
	f->last = 0;
	f->no_cpu = f->no_time = 0;
	if ((f->ncomms || f->track) && !session__stdin(s) &&
	    (!f->tc_path || strcmp(f->tc_path, path))) {
		thread_comms__delete(f->tc);
		free(f->tc_path);
		f->tc = NULL;
		if (!(f->tc_path = strdup(path)))
			return ap_err_nomem(err);
		if (thread_comms__read(s, &f->tc, err))
			return -1;
	}
	if (!f->percent)
		return 0;
	if (perfdata__sample_time(session__data(s), &first, &last) || (!first && !last) ||
	    last < first)
		return ap_errf(err, "%s: --time %s: the recording holds no first/last sample time"
			       " (a pipe, or perf older than 4.19): give seconds", path, f->time_spec);
	for (uint32_t i = 0; i < f->nranges; i++)
		resolve_percent(&f->ranges[i], first, last);
	return 0;
}

static struct thread_comm *thread_find(struct sample_filter *f, uint32_t tid)
{
	if (f->last < f->nthreads && f->threads[f->last].tid == tid)
		return &f->threads[f->last];
	for (size_t i = f->nthreads; i-- > 0;) {
		if (f->threads[i].tid == tid) {
			f->last = i;
			return &f->threads[i];
		}
	}
	return NULL;
}

static int thread_set(struct sample_filter *f, uint32_t tid, const char *comm)
{
	struct thread_comm *t = thread_find(f, tid), add = { .tid = tid };

	if (!t) {
		if (ap_push(&f->threads, &f->nthreads, &f->cap_threads, &add, sizeof(add)))
			return -1;
		t = &f->threads[f->nthreads - 1];
	}
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	return 0;
}

int sample_filter__note(struct sample_filter *f, const struct pd_event *ev)
{
	const union perf_event *e = ev->ev;
	const struct thread_comm *parent;
	char comm[COMM_LEN];

	if (!f || (!f->ncomms && !f->track) || f->tc)
		return 0;	/* without times: the commands as the stream has them */
	if (ev->hdr->type == PERF_RECORD_COMM)
		return thread_set(f, e->comm.tid, e->comm.comm);
	if (ev->hdr->type != PERF_RECORD_FORK)
		return 0;
	/* a new thread or process starts with its parent thread's command */
	parent = thread_find(f, e->fork.ptid);
	if (!parent)
		return 0;
	memcpy(comm, parent->comm, sizeof(comm));	/* thread_set may move the array */
	return thread_set(f, e->fork.tid, comm);
}

void sample_filter__track_comms(struct sample_filter *f)
{
	f->track = 1;
}

const char *sample_filter__comm(struct sample_filter *f, const struct pd_sample_id *sid)
{
	const struct thread_comm *t;

	if (!f)
		return "";
	if (f->tc && sid->has_time)
		return thread_comms__at(f->tc, sid->tid, sid->time);
	t = thread_find(f, sid->tid);
	return t ? t->comm : "";
}

static int has_id(const uint32_t *v, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == id)
			return 1;
	return 0;
}

/* perf_time__ranges_skip_sample's rule, kept rather than skipped. */
static int time_kept(const struct sample_filter *f, uint64_t t)
{
	if (!t)
		return 1;	/* perf keeps a sample without a time */
	if (f->nranges == 1)
		return !((f->ranges[0].start && t < f->ranges[0].start) ||
			 (f->ranges[0].end && t > f->ranges[0].end));
	for (uint32_t i = 0; i < f->nranges; i++)
		if (t >= f->ranges[i].start && (t <= f->ranges[i].end || !f->ranges[i].end))
			return 1;
	return 0;
}

int sample_filter__keep(struct sample_filter *f, const struct pd_sample_id *sid)
{
	if (!f)
		return 1;
	if (f->npids && !has_id(f->pids, f->npids, sid->pid))
		return 0;
	if (f->ntids && !has_id(f->tids, f->ntids, sid->tid))
		return 0;
	if (f->have_cpus) {
		if (!sid->has_cpu) {
			f->no_cpu = 1;
			return 0;
		}
		if (sid->cpu >= FILTER_MAX_CPUS || !(f->cpus[sid->cpu / 64] & (1ULL << (sid->cpu % 64))))
			return 0;
	}
	if (f->nranges) {
		if (!sid->has_time) {
			f->no_time = 1;
			return 0;
		}
		if (!time_kept(f, sid->time))
			return 0;
	}
	if (f->ncomms) {
		const char *comm = sample_filter__comm(f, sid);

		for (size_t i = 0; i < f->ncomms; i++)
			if (!strcmp(comm, f->comms[i]))
				return 1;
		return 0;
	}
	return 1;
}

int sample_filter__end(const struct sample_filter *f, const char *path, struct ap_err *err)
{
	if (f && f->no_cpu)
		return ap_errf(err, "%s: --cpu: its samples carry no CPU (record with perf record"
			       " --sample-cpu, or -a)", path);
	if (f && f->no_time)
		return ap_errf(err, "%s: --time: its samples carry no time", path);
	return 0;
}
