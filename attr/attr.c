// SPDX-License-Identifier: MIT
/*
 * Attribution driver. Records in perf.data are only ordered within flush
 * rounds, so a sample can come before the mapping that holds it. A file is
 * read once: samples that find no core wait for the end, a new thread's
 * introducing records are taken ahead of their place (session/lookahead.h),
 * and a mapping record that still arrives too late to be applied in order
 * (maptable__late) makes the driver fall back to two passes: pass 1
 * collects the records that shape the address space (MMAP/MMAP2, exec,
 * fork) and orders them by time, pass 2 streams the samples. The one pass that falls back is the
 * first of the two (it has collected those records from its start). A
 * stream that cannot be rewound (a pipe) is read once, and the report
 * says so: in time order round by round when its records carry times
 * (reorder.h), else in stream order. The reading is a tool of the session
 * (session/session.h): the session reads, the passes are asked for.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "maptable.h"
#include "reorder.h"
#include "../session/lookahead.h"
#include "../session/session.h"
#include "../util/array.h"

struct ev_list {
	struct mt_event *ev;
	size_t n, cap;
};

static int ev_cmp(const void *a, const void *b)
{
	const struct mt_event *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Time key of a record: its sample time when every record carries one. */
static uint64_t key_of(const struct pd_event *ev, const struct pd_sample_id *sid, int use_time)
{
	if (use_time && sid->has_time)
		return sid->time;
	return use_time ? 0 : ev->seq;
}

/*
 * pid -1 (the kernel's maps) and 0 (idle) are no process a core runs in:
 * the maptable never sees them, the on_map hook does (host frames).
 */
static int no_core_pid(const struct mt_event *me)
{
	return (int32_t)me->pid <= 0;
}

/* Translate an address-space record into a maptable event; 0 if not one. */
static int to_mt_event(const struct pd_event *ev, int use_time, struct mt_event *out)
{
	const union perf_event *e = ev->ev;
	const struct pd_sample_id *sid = &ev->sid;
	const char *name;

	memset(out, 0, sizeof(*out));
	out->seq = ev->seq;
	out->file_offset = ev->file_offset;
	out->in_compressed = ev->in_compressed;
	out->rec_size = ev->hdr->size;
	out->time = key_of(ev, sid, use_time);
	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
		if (ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0;
		out->kind = MT_MMAP;
		out->pid = e->mmap.pid;
		out->tid = e->mmap.tid;
		out->start = e->mmap.start;
		out->len = e->mmap.len;
		out->pgoff = e->mmap.pgoff;
		name = e->mmap.filename;
		break;
	case PERF_RECORD_MMAP2:
		if (!(e->mmap2.prot & PROT_EXEC))
			return 0;
		out->kind = MT_MMAP;
		out->is_mmap2 = 1;
		out->pid = e->mmap2.pid;
		out->tid = e->mmap2.tid;
		out->start = e->mmap2.start;
		out->len = e->mmap2.len;
		out->pgoff = e->mmap2.pgoff;
		name = e->mmap2.filename;
		break;
	case PERF_RECORD_COMM:
		if (!(ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;
		out->kind = MT_EXEC;
		out->pid = e->comm.pid;
		return 1;
	case PERF_RECORD_FORK:
		if (e->fork.pid == e->fork.ppid)
			return 0; /* a new thread shares its process's maps */
		out->kind = MT_FORK;
		out->pid = e->fork.pid;
		out->ppid = e->fork.ppid;
		return 1;
	default:
		return 0;
	}
	out->anon = strncmp(name, "//anon", 6) == 0;
	out->injected = attr__injected_name(name);
	return 1;
}

enum { EVENT_ALL = -2, EVENT_PENDING = -3 };

/* Where the reading is: the pass the session feeds it next. */
enum run_pass {
	RUN_STREAM,	/* a pipe read once: mappings as they come */
	RUN_ONE,	/* a file read once (falls back to RUN_MAPS, RUN_SAMPLES) */
	RUN_MAPS,	/* pass 1: the address-space records, ordered at its end */
	RUN_SAMPLES,	/* pass 2: the samples */
};

struct run {
	struct session_tool tool;	/* first: the session hands it back */
	struct session *s;
	enum run_pass pass;
	struct ev_list list;	/* RUN_MAPS: the records collected */
	const char *path;
	struct attr_core *cores;
	uint32_t ncores;
	const struct attr_opts *opts;
	struct attr_result *res;
	struct maptable mt;
	int event_attr;    /* EVENT_ALL, EVENT_PENDING or the attr index kept */
	const char *event; /* the event to keep: opts->event, or on_begin's */
	int begun;         /* on_begin was called */
	int ordered;       /* a pipe with times: records put in time order (reorder.h) */
	struct reorder rq;
	struct perfdata *pd;
	struct ap_err event_err;
	int use_time;
	int single_pass;   /* a pipe: mappings as they come (in time order when ordered) */
	int one_pass;      /* a file read once; falls back to two passes when unsure */
	int fallback;      /* the one pass met records it cannot order: start over */
	int mt_ready;      /* mt initialized */
	struct lookahead *la; /* the one pass of a file with times: new threads' records early */
	struct lookahead_seen la_seen;
	struct pending *pend;
	size_t npend, cpend;
	/* the address range every core mapping so far lies in (count_returns) */
	uint32_t span_n;
	uint64_t span_lo, span_hi;
};

/*
 * A user-space sample that found no core during the one pass: its mapping
 * record may come later in the file (perf orders records only within flush
 * rounds), so it is tried again at the end.
 */
struct pending {
	uint32_t pid, tid;
	uint64_t time, ip, period;
	int attr_idx;
};

#define PENDING_MAX (1u << 20) /* 24 MiB; past that, two passes are cheaper */

static int resolve_event(struct run *r, struct perfdata *pd, struct ap_err *err);
static int times_usable(struct perfdata *pd);

static int sample_selected(struct run *r, const struct pd_sample *s)
{
	if (r->opts->pid >= 0 && s->sid.pid != (uint32_t)r->opts->pid)
		return 0;
	/* A pipe names its events in records before the first sample. */
	if (r->event_attr == EVENT_PENDING && resolve_event(r, r->pd, &r->event_err))
		r->event_attr = -1;
	if (r->event_attr != EVENT_ALL && s->attr_idx != r->event_attr)
		return 0;
	return 1;
}

/* Where a sample landed: core -1 when in no core's text. */
struct hit {
	int core;
	uint32_t func;
	uint64_t off;
	uint64_t start, len;	/* the mapping it was found in */
};

uint64_t attr_sample_period(const struct pd_sample *s, const struct perf_event_attr *attr)
{
	if (s->has_period)
		return s->period;
	return attr && !attr->freq ? attr->sample_period : 0;
}

static uint64_t period_of(const struct run *r, const struct pd_sample *s)
{
	const struct perf_event_attr *a = NULL;

	if (!s->has_period && s->attr_idx >= 0 && r->pd &&
	    (size_t)s->attr_idx < perfdata__nevsels(r->pd))
		a = &perfdata__evsel(r->pd, (size_t)s->attr_idx)->attr;
	return attr_sample_period(s, a);
}

/* Count a sample that lies in a core's mapping (period: its weight); 0 if it found none. */
static int attribute(struct run *r, const struct pd_sample *s, uint64_t t, uint64_t period,
		     struct hit *h)
{
	uint32_t midx = 0;
	struct attr_mapping *m;
	struct attr_core *c;
	uint64_t off;
	int64_t fn;
	int core;

	core = maptable__lookup(&r->mt, s->sid.pid, t, s->ip, &midx);
	if (core < 0)
		return 0;
	maptable__note_hit(&r->mt, s->sid.pid, t);
	c = &r->cores[core];
	m = &r->res->mappings[midx];
	off = s->ip - m->start;
	fn = off < c->mod->text_size ? cwasm__func_at(c->mod, off) : -1;
	if (fn < 0) {
		c->outside_text++;
		return 1;
	}
	c->samples++;
	c->func_samples[fn]++;
	c->func_period[fn] += period;
	r->res->attributed_period += period;
	if (r->opts->hist)
		attr_hist__add(r->opts->hist, (uint32_t)core, off);
	m->samples++;
	if (t < m->first_sample_time)
		m->first_sample_time = t;
	r->res->attributed_samples++;
	*h = (struct hit){ core, (uint32_t)fn, off, m->start, m->len };
	return 1;
}

struct attr_lookup {
	struct run *r;
	uint32_t pid;
	uint64_t time;
	uint64_t period;
};

int attr_lookup__core(struct attr_lookup *lk, uint64_t ip, uint64_t *base)
{
	uint32_t midx = 0;
	int core = maptable__lookup(&lk->r->mt, lk->pid, lk->time, ip, &midx);

	if (core >= 0)
		*base = lk->r->res->mappings[midx].start;
	return core;
}

uint64_t attr_lookup__time(const struct attr_lookup *lk)
{
	return lk->time;
}

uint64_t attr_lookup__period(const struct attr_lookup *lk)
{
	return lk->period;
}

static void defer_sample(struct run *r, const struct pd_sample *s, uint64_t t, uint64_t period)
{
	if (r->npend == PENDING_MAX || ap_grow(&r->pend, &r->cpend, r->npend + 1, sizeof(*r->pend))) {
		r->fallback = 1;
		return;
	}
	r->pend[r->npend++] = (struct pending){ s->sid.pid, s->sid.tid, t, s->ip, period,
						s->attr_idx };
}

/* The on_other hook, for a record of the selected pid (or every pid). */
static void other_record(struct run *r, const struct pd_event *ev, const struct pd_sample_id *sid)
{
	struct attr_lookup lk = { r, sid->pid, r->use_time ? sid->time : ev->seq, 0 };

	if (!r->opts->on_other || (r->opts->pid >= 0 && ev->hdr->type != PERF_RECORD_FINISHED_ROUND &&
				   sid->pid != (uint32_t)r->opts->pid))
		return;
	if (ev->hdr->type != PERF_RECORD_FINISHED_ROUND && !sample_filter__keep(r->opts->filter, sid))
		return;
	r->opts->on_other(r->opts->ctx, ev, &lk);
	if (r->mt.miss_oom)
		r->fallback = 1;
}

/* Might a core hold addr? Host code mostly lies outside every core mapping: no lookup. */
static int in_span(struct run *r, uint64_t addr)
{
	for (; r->span_n < r->res->nmappings; r->span_n++) {
		const struct attr_mapping *m = &r->res->mappings[r->span_n];

		if (!r->span_hi || m->start < r->span_lo)
			r->span_lo = m->start;
		if (m->start + m->len > r->span_hi)
			r->span_hi = m->start + m->len;
	}
	return addr >= r->span_lo && addr < r->span_hi;
}

/*
 * The return addresses of a -g callchain's wasm stretch, into ret_hist
 * (profile/consistency.c checks each follows a call): the user entries
 * after the first (the sampled ip itself) up to the first one in no core,
 * so a deep host stack costs one lookup. A return address belongs to the
 * call before it: looked up at ip - 1; one in the sample's own mapping
 * needs no lookup.
 */
static void count_returns(struct run *r, const struct pd_sample *s, uint64_t t,
			  const struct hit *h)
{
	uint64_t ctx = 0, nuser = 0;

	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t v = s->callchain[i];
		uint32_t midx = 0;
		int core;

		if (v >= PERF_CONTEXT_MAX) {
			ctx = v;
			continue;
		}
		if (ctx != PERF_CONTEXT_USER || !nuser++)
			continue;
		/* past the text too: no call can be there, a bad one */
		if (h->core >= 0 && v - 1 - h->start < h->len) {
			attr_hist__add(r->opts->ret_hist, (uint32_t)h->core, v - h->start);
			continue;
		}
		core = in_span(r, v - 1) ? maptable__peek(&r->mt, s->sid.pid, t, v - 1, &midx) : -1;
		if (core < 0)
			return;
		attr_hist__add(r->opts->ret_hist, (uint32_t)core, v - r->res->mappings[midx].start);
	}
}

static void count_sample(struct run *r, const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	uint64_t t = r->use_time ? s->sid.time : ev->seq, period;
	struct hit h = { .core = -1 };
	int found;

	if (!sample_selected(r, s)) {
		other_record(r, ev, &s->sid);
		return;
	}
	if (!sample_filter__keep(r->opts->filter, &s->sid))
		return;	/* as if not recorded: no view counts it */
	period = period_of(r, s);
	r->res->total_samples++;
	r->res->total_period += period;
	found = s->has_ip && attribute(r, s, t, period, &h);
	if (r->opts->ret_hist && s->has_callchain)
		count_returns(r, s, t, &h);
	if (r->opts->on_sample) {
		struct attr_lookup lk = { r, s->sid.pid, t, period };

		r->opts->on_sample(r->opts->ctx, s, h.core, h.func, h.off, &lk);
		if (r->mt.miss_oom)
			r->fallback = 1;	/* a miss went unnoted: read twice */
	}
	if (!s->has_ip || found)
		return;
	if (r->one_pass && s->cpumode == PERF_RECORD_MISC_USER)
		defer_sample(r, s, t, period);
}

/*
 * The on_map hook: an address-space record (me, from ev) of any process,
 * the kernel's included (host frames need them all: a --pid's parent, the
 * kernel's pid -1). 0, or -1 when the hook ran out of memory.
 */
static int note_map(struct run *r, const struct pd_event *ev, const struct mt_event *me)
{
	const union perf_event *e = ev->ev;
	struct attr_map_event m = {
		.kind = me->kind == MT_EXEC ? ATTR_MAP_EXEC : me->kind == MT_FORK ? ATTR_MAP_FORK :
			ATTR_MAP_MMAP,
		.pid = me->pid, .ppid = me->ppid, .start = me->start, .len = me->len,
		.pgoff = me->pgoff, .time = me->time,
	};

	if (!r->opts->on_map)
		return 0;
	if (m.kind == ATTR_MAP_MMAP && ev->hdr->type == PERF_RECORD_MMAP) {
		m.filename = e->mmap.filename;
	} else if (m.kind == ATTR_MAP_MMAP) {
		m.filename = e->mmap2.filename;
		/* the record names device and inode unless it carries a build id instead */
		if (!(ev->hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			m.ino = e->mmap2.ino;
			m.maj = e->mmap2.maj;
			m.min = e->mmap2.min;
		}
	}
	return r->opts->on_map(r->opts->ctx, &m);
}

/* End of the one pass: the deferred samples, now that every mapping is known. */
static void retry_pending(struct run *r)
{
	for (size_t i = 0; i < r->npend; i++) {
		const struct pending *p = &r->pend[i];
		struct pd_sample s = {
			.sid = { .pid = p->pid, .tid = p->tid, .time = p->time, .has_tid = 1,
				 .has_time = 1 },
			.ip = p->ip, .attr_idx = p->attr_idx, .cpumode = PERF_RECORD_MISC_USER,
			.has_ip = 1,
		};

		struct hit h;

		attribute(r, &s, p->time, p->period, &h);
	}
}

/* COMM and FORK records name the processes (comms.h); -1 when out of memory. */
static int note_comm(struct run *r, const struct pd_event *ev)
{
	const union perf_event *e = ev->ev;

	if (ev->hdr->type == PERF_RECORD_COMM)
		return attr_comms__comm(&r->res->comms, e->comm.pid, e->comm.tid, e->comm.comm);
	if (ev->hdr->type == PERF_RECORD_FORK)
		return attr_comms__fork(&r->res->comms, e->fork.pid, e->fork.ppid);
	return 0;
}

/* An address-space record of a process the reading attributes (not the kernel's, --pid's). */
static int map_selected(const struct run *r, const struct mt_event *me)
{
	return !no_core_pid(me) && (r->opts->pid < 0 || me->pid == (uint32_t)r->opts->pid);
}

/* A selected one seen: an inject step's file noted; kept for pass 1's ordering when keep. */
static int collect_map(struct run *r, const struct mt_event *me, int keep)
{
	r->res->injected |= me->injected;
	return keep ? ap_push(&r->list.ev, &r->list.n, &r->list.cap, me, sizeof(*me)) : 0;
}

/* Pass 1: an address-space record collected (the hook sees it now); -1 when out of memory. */
static int maps_record(struct run *r, const struct pd_event *ev)
{
	struct mt_event me;

	if (note_comm(r, ev))
		return -1;
	if (ev->hdr->type == PERF_RECORD_SAMPLE || !to_mt_event(ev, r->use_time, &me))
		return 0;
	if (note_map(r, ev, &me))
		return -1;
	return map_selected(r, &me) ? collect_map(r, &me, 1) : 0;
}

/* The end of pass 1: the records in time order into the maptable. */
static int maps_end(struct run *r, struct ap_err *err)
{
	struct ev_list *list = &r->list;
	int ret = 0;

	if (list->n)	/* never qsort(NULL, 0): glibc declares it nonnull (UBSan) */
		qsort(list->ev, list->n, sizeof(*list->ev), ev_cmp);
	for (size_t i = 0; i < list->n && !ret; i++)
		if (maptable__add(&r->mt, &list->ev[i], r->res))
			ret = ap_err_nomem(err);
	free(list->ev);
	memset(list, 0, sizeof(*list));
	return ret;
}

/*
 * A record of perf's ring buffers, or the end of a round of them: perf
 * writes the records it synthesizes (attrs, features, tracing data, event
 * names, the maps of running processes) before the first.
 */
static int from_ring(uint32_t type)
{
	return type == PERF_RECORD_SAMPLE || type == PERF_RECORD_SWITCH ||
	       type == PERF_RECORD_SWITCH_CPU_WIDE || type == PERF_RECORD_FINISHED_ROUND;
}

/*
 * The attrs, names and tracing data are known: a file's at open, a pipe's
 * at its first sample, switch or round. on_begin may pick the event.
 */
static int begin(struct run *r, struct perfdata *pd, struct ap_err *err)
{
	const char *event = NULL;

	r->begun = 1;
	if (!r->opts->on_begin)
		return 0;
	if (r->opts->on_begin(r->opts->ctx, pd, &event, err))
		return -1;
	if (!r->event && event) {
		r->event = event;
		r->event_attr = EVENT_PENDING;
	}
	return 0;
}

static int take_space(struct run *r, const struct pd_event *ev);

/* A record taken ahead of its place (session/lookahead.h): as take_record; one too late is kept. */
static int take_early(void *ctx, const struct pd_event *ev)
{
	struct run *r = ctx;
	int t = take_space(r, ev);

	return t > 0 ? maps_record(r, ev) : t;
}

/*
 * The first record of a thread nothing has introduced (pid 0 and -1 are
 * no process): its records that come after it in the file, taken now.
 */
static void look_ahead(struct run *r, const struct pd_event *ev, const struct pd_sample_id *sid)
{
	struct ap_err err;

	if (!r->la || r->pass != RUN_ONE || r->fallback || (int32_t)sid->pid <= 0 ||
	    (int32_t)sid->tid <= 0 || !sid->has_time || ev->in_compressed)
		return;
	/* a read error or no memory: read twice, as before (the second read says what failed) */
	if (lookahead__at(r->la, &r->la_seen, sid->tid, ev->file_offset + ev->hdr->size, sid->time,
			  ev->seq, take_early, r, &err))
		r->fallback = 1;
}

static uint32_t introduced_tid(const struct pd_event *ev);

/* One record of pass 2 or of a pipe: 0, 1 to stop (the one pass falls back), -1 out of memory. */
static int take_record(struct run *r, const struct pd_event *ev)
{
	uint32_t tid;

	if (ev->hdr->type == PERF_RECORD_SAMPLE) {
		look_ahead(r, ev, &ev->sample.sid);
		if (!r->fallback)
			count_sample(r, ev);
		return r->fallback;
	}
	if (((ev->hdr->type == PERF_RECORD_SWITCH || ev->hdr->type == PERF_RECORD_SWITCH_CPU_WIDE) &&
	     ev->has_sid) || ev->hdr->type == PERF_RECORD_FINISHED_ROUND) {
		if (ev->hdr->type != PERF_RECORD_FINISHED_ROUND)
			look_ahead(r, ev, &ev->sid);
		if (!r->fallback)
			other_record(r, ev, &ev->sid);
		return r->fallback;
	}
	/*
	 * In its place only: a FORK another thread's walk took ahead leaves
	 * the child's records newer than that walk's sample still ahead, for
	 * the child's own walk to take.
	 */
	if (r->la && (tid = introduced_tid(ev)) && lookahead__introduce(r->la, tid))
		return -1;
	return take_space(r, ev);
}

/* A record that shapes processes: the kinds lookahead.h takes ahead. */
static int shapes_processes(uint32_t type)
{
	return type == PERF_RECORD_COMM || type == PERF_RECORD_FORK || type == PERF_RECORD_MMAP ||
	       type == PERF_RECORD_MMAP2;
}

/* The thread a record that shapes processes is of (0 for any other record). */
static uint32_t record_tid(const struct pd_event *ev)
{
	switch (ev->hdr->type) {
	case PERF_RECORD_COMM:
		return ev->ev->comm.tid;
	case PERF_RECORD_FORK:
		return ev->ev->fork.tid;
	case PERF_RECORD_MMAP:
		return ev->ev->mmap.tid;
	case PERF_RECORD_MMAP2:
		return ev->ev->mmap2.tid;
	}
	return 0;
}

/*
 * The thread a record says exists (session/lookahead.h): a FORK's child,
 * or any thread in the records perf synthesizes for what runs when it
 * starts (time 0). An exec's COMM or a mapping with a time does not: perf
 * can write them before the FORK. Nor does the COMM perf synthesizes for
 * the workload it starts ("perf-exec", the name perf gives its child
 * before the exec): its exec and mappings come later. A thread, not a
 * process: a new thread's first samples can come before its FORK and
 * before the mappings another thread made (docs/formats-perf.md, "One
 * read per run").
 */
static uint32_t introduced_tid(const struct pd_event *ev)
{
	if (ev->hdr->type == PERF_RECORD_FORK)
		return ev->ev->fork.tid;
	if (ev->has_sid && ev->sid.has_time && ev->sid.time)
		return 0;
	if (ev->hdr->type == PERF_RECORD_COMM &&
	    !strcmp(ev->ev->comm.comm, "perf-exec")) /* NUL-terminated: perfdata/check.c */
		return 0;
	return record_tid(ev);
}

/* Any other record of a pass: commands and address space. As take_record. */
static int take_space(struct run *r, const struct pd_event *ev)
{
	struct mt_event me;

	if (note_comm(r, ev) || sample_filter__note(r->opts->filter, ev))
		return -1;
	if ((!r->single_pass && !r->one_pass) || !to_mt_event(ev, r->use_time, &me))
		return 0;
	if (map_selected(r, &me)) {
		if (r->one_pass && maptable__late(&r->mt, &me))
			r->fallback = 1;
		if (r->fallback)
			return 1;
	}
	/* read once: the hook sees the records as they come (else pass 1 did) */
	if (note_map(r, ev, &me))
		return -1;
	if (!map_selected(r, &me))
		return 0;
	/* kept for a fall back: its mappings pass is the rest of this one (run_record) */
	if (collect_map(r, &me, r->one_pass))
		return -1;
	return maptable__add(&r->mt, &me, r->res) ? -1 : 0;
}

static int take_queued(void *ctx, const struct pd_event *ev)
{
	return take_record(ctx, ev) < 0 ? -1 : 0;
}

/*
 * A pipe's record in time order (reorder.h): records with a time wait for
 * the round that makes them final; a FINISHED_ROUND goes after them.
 */
static int take_ordered(struct run *r, const struct pd_event *ev)
{
	int has_time = ev->hdr->type == PERF_RECORD_SAMPLE ? ev->sample.sid.has_time :
		       ev->has_sid && ev->sid.has_time;

	if (ev->hdr->type == PERF_RECORD_FINISHED_ROUND)
		return reorder__round(&r->rq, take_queued, r) ? -1 : take_record(r, ev);
	if (ev->hdr->type >= PERF_RECORD_USER_TYPE_START || !has_time)
		return take_record(r, ev);
	if (reorder__push(&r->rq, ev, ev->hdr->type == PERF_RECORD_SAMPLE ? ev->sample.sid.time :
			  ev->sid.time))
		return -1;
	return reorder__trim(&r->rq, take_queued, r) ? -1 : 0;
}

/*
 * A record of pass 2, of the one pass or of a pipe's only pass: 0, 1 when
 * the one pass falls back (the rest of it is not needed), -1 with err.
 */
static int samples_record(struct run *r, const struct pd_event *ev, struct ap_err *err)
{
	int t;

	if (!r->begun && r->pass == RUN_STREAM && from_ring(ev->hdr->type)) {
		if (begin(r, r->pd, err))
			return -1;
		/* from here on a pipe with times is read in time order */
		r->ordered = r->use_time = times_usable(r->pd);
	}
	t = r->ordered ? take_ordered(r, ev) : take_record(r, ev);
	return t < 0 ? ap_err_nomem(err) : t;
}

/* The end of pass 2 or of a pipe's only pass. */
static int samples_end(struct run *r, struct ap_err *err)
{
	if (r->ordered && reorder__drain(&r->rq, take_queued, r))
		return ap_err_nomem(err);
	/* a stream of header records only (or cut short in them) */
	return !r->begun && r->pass == RUN_STREAM ? begin(r, r->pd, err) : 0;
}

static int resolve_event(struct run *r, struct perfdata *pd, struct ap_err *err)
{
	char names[512] = "";
	size_t n = perfdata__nevsels(pd);

	r->event_attr = EVENT_ALL;
	if (!r->event)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct pd_evsel *a = perfdata__evsel(pd, i);

		if (a->name && strcmp(a->name, r->event) == 0) {
			r->event_attr = (int)i;
			return 0;
		}
		if (a->name && strlen(names) + strlen(a->name) + 3 < sizeof(names)) {
			strcat(names, i ? ", " : "");
			strcat(names, a->name);
		}
	}
	return ap_errf(err, "%s: no event '%s' in this recording (it has: %s)", r->path,
		       r->event, names[0] ? names : "none");
}

/* Forget what the one pass counted, for the two-pass read. */
static int start_over(struct run *r)
{
	struct attr_result *res = r->res;

	for (uint32_t i = 0; i < r->ncores; i++) {
		struct attr_core *c = &r->cores[i];

		memset(c->func_samples, 0, (c->mod->nfuncs + 1) * sizeof(uint64_t));
		memset(c->func_period, 0, (c->mod->nfuncs + 1) * sizeof(uint64_t));
		c->samples = c->outside_text = 0;
	}
	res->total_samples = res->attributed_samples = 0;
	res->total_period = res->attributed_period = 0;
	free(res->mappings);
	res->mappings = NULL;
	res->nmappings = 0;
	res->cap_mappings = 0;
	r->span_n = 0;
	r->span_lo = r->span_hi = 0;
	if (r->opts->hist)
		attr_hist__exit(r->opts->hist);
	if (r->opts->ret_hist)
		attr_hist__exit(r->opts->ret_hist);
	r->npend = 0;
	r->one_pass = 0;
	r->fallback = 0;
	if (r->opts->on_restart)
		r->opts->on_restart(r->opts->ctx);
	maptable__exit(&r->mt);
	if (maptable__init(&r->mt, r->cores, r->ncores))
		return -1;
	return 0;
}

/* Does every record carry a time? Then order by it, as perf does. */
static int times_usable(struct perfdata *pd)
{
	size_t n = perfdata__nevsels(pd);

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = &perfdata__evsel(pd, i)->attr;

		if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all)
			return 0;
	}
	return 1;
}

/*
 * A pinned core's mappings against its text: smaller cannot hold it (the
 * wrong .cwasm, or the wrong address); larger may be a kernel merge with a
 * neighbour, so it is only not authoritative. -1 with err when too small.
 */
static int check_pin(struct run *r, struct attr_core *c, uint64_t want, struct ap_err *err)
{
	struct attr_result *res = r->res;

	for (uint32_t m = 0; m < res->nmappings; m++) {
		const struct attr_mapping *am = &res->mappings[m];

		if (am->core != (int)(c - r->cores) || am->len >= want)
			continue;
		return ap_errf(err, "%s: the mapping at 0x%" PRIx64 " is %" PRIu64 " bytes, too small"
			       " for the %" PRIu64 " bytes of %s's text: not that core (wrong .cwasm"
			       " or address?)", r->path, am->start, am->len, want, c->mod->path);
	}
	if (c->nmappings && c->first_len != want &&
	    ap_warnings__add(&res->warnings, AP_HINT_NONE,
			     "%s: pinned mapping is %" PRIu64 " bytes, its text %" PRIu64
			     ": not authoritative", c->mod->path, c->first_len, want))
		return ap_err_nomem(err);
	return 0;
}

/* One short line for a core whose exact-size mapping is not unique. */
static int warn_not_unique(struct run *r, const struct attr_core *c)
{
	struct ap_warnings *ws = &r->res->warnings;

	if (c->sharing == 1)
		/* the same core loaded again: every copy runs its code */
		return ap_warnings__add(ws, AP_HINT_NONE, "%s: mapped %u times; every copy counted",
					c->mod->path, c->nmappings);
	return ap_warnings__add(ws, AP_HINT_PIN_CORE, "%s: %u cores of this size, assigned in"
				" mapping order", c->mod->path, c->sharing);
}

static int summarize(struct run *r, struct ap_err *err)
{
	struct attr_result *res = r->res;
	int any = 0;

	for (uint32_t i = 0; i < r->ncores; i++) {
		struct attr_core *c = &r->cores[i];
		uint64_t want = attr__page_round(c->mod->text_size);
		uint32_t sharing = attr__sharing(r->cores, r->ncores, i);
		uint32_t pids = 0, last_pid = UINT32_MAX;

		for (uint32_t m = 0; m < res->nmappings; m++) {
			const struct attr_mapping *am = &res->mappings[m];

			if (am->core != (int)i)
				continue;
			if (!c->nmappings++) {
				c->first_base = am->start;
				c->first_len = am->len;
			}
			if (am->pid != last_pid)
				pids++;
			last_pid = am->pid;
		}
		c->candidates = c->nmappings;
		c->sharing = sharing;
		c->authoritative = !c->base_override && c->nmappings >= 1 && sharing == 1 &&
				   c->nmappings == pids;
		c->mapping_unique = c->authoritative;	/* profile/consistency.c may take it back */
		if (c->nmappings)
			any = 1;
		if (c->base_override && check_pin(r, c, want, err))
			return -1;
		if (!c->nmappings && c->base_override) {
			if (ap_warnings__add(&res->warnings, AP_HINT_NONE,
					     "%s: no executable mapping starts at 0x%" PRIx64 " in %s",
					     c->mod->path, c->base_override, r->path))
				return ap_err_nomem(err);
		} else if (!c->nmappings) {
			if (ap_warnings__add(&res->warnings, AP_HINT_NONE,
					     "%s: no //anon r-x mapping of %" PRIu64
					     " bytes (its page-rounded text) in %s",
					     c->mod->path, want, r->path))
				return ap_err_nomem(err);
		} else if (!c->base_override && !c->authoritative) {
			if (warn_not_unique(r, c))
				return ap_err_nomem(err);
		}
		if (r->opts->require_size_match && !c->base_override && !c->authoritative) {
			ap_errk(err, AP_ERR_GATE, "%s: %u exact-size mapping(s) of %" PRIu64
				" bytes for %s (%u core(s) of that size), need exactly one",
				r->path, c->nmappings, want, c->mod->path, sharing);
			return ap_err_hint(err, AP_HINT_PIN_CORE);
		}
	}
	/* one --pid alone keeps its words ("of the selected pid") */
	if (res->total_samples == 0 && !r->event && sample_filter__active(r->opts->filter) &&
	    (r->opts->pid < 0 || sample_filter__beyond_pids(r->opts->filter))) {
		char what[512];

		sample_filter__describe(r->opts->filter, what, sizeof(what));
		return ap_errf(err, "%s: no samples pass %s", r->path, what);
	}
	if (res->total_samples == 0) {
		ap_errf(err, "%s: no samples%s%s", r->path,
			r->event || r->opts->pid >= 0 ? " of the selected " : "",
			r->event ? "event" : r->opts->pid >= 0 ? "pid" : "");
		return ap_err_hint(err, !r->event && r->opts->pid >= 0 ?
				   AP_HINT_PID_SAMPLES : AP_HINT_NONE);
	}
	if (res->injected && !res->attributed_samples) {
		/* its samples now point into the files the inject step wrote */
		ap_errf(err, "%s: written by %s, its samples point into the %s: use the original"
			" perf.data", r->path, res->injected & ATTR_INJECTED_JIT ?
			"perf inject --jit" : "aotperf inject", res->injected & ATTR_INJECTED_JIT ?
			"jitted-*.so files" : "ELF images");
		return ap_err_hint(err, AP_HINT_INJECTED);
	}
	if (!any) {
		ap_errf(err, "%s: no //anon r-x mapping of the cores' text size (%" PRIu64
			" bytes for %s)", r->path, attr__page_round(r->cores[0].mod->text_size),
			r->cores[0].mod->path);
		return ap_err_hint(err, AP_HINT_NO_CORE_MAP);
	}
	return 0;
}

/* The event the selected samples are of, for the renderers; -1 when out of memory. */
static int keep_event(struct run *r, struct perfdata *pd)
{
	const struct pd_evsel *e = NULL;

	if (r->event_attr >= 0)
		e = perfdata__evsel(pd, (size_t)r->event_attr);
	else if (perfdata__nevsels(pd) == 1)
		e = perfdata__evsel(pd, 0);
	if (!e)
		return 0;
	r->res->event_name = strdup(e->name ? e->name : "unknown");
	if (!r->res->event_name)
		return -1;
	r->res->event_attr = e->attr;
	r->res->have_event = 1;
	return 0;
}

/* What a sample pass reads of a sample: the -g return addresses, and what the hooks ask. */
static unsigned sample_needs(const struct attr_opts *opts)
{
	return (opts->ret_hist ? SESSION_NEED_CALLCHAIN : 0) | opts->needs;
}

/* A record the one pass took already, ahead of its place (look_ahead). */
static int taken_ahead(const struct run *r, const struct pd_event *ev)
{
	return r->la && !ev->in_compressed && shapes_processes(ev->hdr->type) &&
	       lookahead__taken(r->la, &r->la_seen, ev->file_offset);
}

/*
 * A record of the pass under way. When the one pass falls back, the rest
 * of it is its mappings pass: the address-space records before the one
 * that came too late are collected already (take_record), the hook has
 * seen them (on_map), and so the samples are read once more, not twice.
 */
static int run_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct run *r = (struct run *)t;
	int ret;

	if (r->pass == RUN_ONE && taken_ahead(r, ev))
		return 0;
	if (r->pass == RUN_MAPS || (r->pass == RUN_ONE && r->fallback))
		return maps_record(r, ev) ? ap_err_nomem(err) : 0;
	ret = samples_record(r, ev, err);
	if (ret > 0 && r->pass == RUN_ONE)	/* the record that came too late, into the list */
		return maps_record(r, ev) ? ap_err_nomem(err) : 0;
	return ret;
}

/* The one pass met a record it cannot order: forget its samples, order its mappings. */
static int fall_back(struct run *r, struct ap_err *err)
{
	if (start_over(r))
		return ap_err_nomem(err);
	if (sample_filter__begin(r->opts->filter, r->s, err) || maps_end(r, err))
		return -1;
	r->pass = RUN_SAMPLES;
	r->tool.phase = "reading perf.data: samples";
	r->tool.needs = sample_needs(r->opts);
	return 1;
}

/* The end of a pass: 1 when the reading needs another (session.h). */
static int run_pass_end(struct session_tool *t, struct ap_err *err)
{
	struct run *r = (struct run *)t;

	switch (r->pass) {
	case RUN_MAPS:
		r->pass = RUN_SAMPLES;
		t->phase = "reading perf.data: samples";
		t->needs = sample_needs(r->opts);
		return maps_end(r, err) ? -1 : 1;
	case RUN_ONE:
		r->res->passes = r->fallback ? 2 : 1;
		if (r->la)
			lookahead__stats(r->la, &r->res->read_ahead, &r->res->read_ahead_bytes);
		if (r->fallback)
			return fall_back(r, err);
		if (maptable__order_mappings(&r->mt, r->res))
			return ap_err_nomem(err);
		retry_pending(r);
		return 0;
	case RUN_STREAM:
		r->res->passes = 1;
		return samples_end(r, err);
	case RUN_SAMPLES:
		if (!r->res->passes)
			r->res->passes = 2;
		return samples_end(r, err);
	}
	return 0;
}

/* The reading's start: a file's attrs and names are known now, a pipe's as they come. */
static int run_start(struct run *r, struct ap_err *err)
{
	struct perfdata *pd = session__data(r->s);
	const struct attr_opts *opts = r->opts;

	r->pd = pd;
	r->tool.record = run_record;
	r->tool.pass_end = run_pass_end;
	r->tool.needs = sample_needs(opts);
	if (sample_filter__begin(opts->filter, r->s, err))
		return -1;
	if (session__stream(r->s)) {
		/* Attrs of a pipe arrive in its first records: take names as they come. */
		r->pass = RUN_STREAM;
		r->single_pass = 1;
		r->use_time = 0;
		r->event_attr = opts->event ? EVENT_PENDING : EVENT_ALL;
		return ap_warnings__add(&r->res->warnings, AP_HINT_NONE, "%s: not seekable, read once",
					r->path) ? ap_err_nomem(err) : 0;
	}
	r->use_time = times_usable(pd);
	if (begin(r, pd, err) || resolve_event(r, pd, err))
		return -1;
	r->one_pass = !opts->two_pass;
	r->pass = r->one_pass ? RUN_ONE : RUN_MAPS;
	if (!r->one_pass) {
		r->tool.phase = "reading perf.data: mappings";
		r->tool.needs = 0;
	}
	/* a hooked one pass: what the hooks were told must stay true */
	r->mt.track_misses = r->one_pass && (opts->on_sample || opts->on_other);
	r->mt.track_files = r->mt.track_misses && opts->on_map;
	/* and then a new thread's first samples must find it (session/lookahead.h) */
	if (r->mt.track_misses && r->use_time) {
		if (session__lookahead(r->s, &r->la, err))
			return -1;
		if (r->la)
			lookahead__join(r->la, &r->la_seen);
	}
	return 0;
}

int attr_reader__new(struct session *s, struct attr_core *cores, uint32_t ncores,
		     const struct attr_opts *opts, struct attr_result *res,
		     struct attr_reader **out, struct ap_err *err)
{
	struct run *r = calloc(1, sizeof(*r));

	*out = NULL;
	memset(res, 0, sizeof(*res));
	res->cores = cores;
	res->ncores = ncores;
	if (!r)
		return ap_err_nomem(err);
	*r = (struct run){ .s = s, .path = session__path(s), .cores = cores, .ncores = ncores,
			   .opts = opts, .res = res, .event = opts->event };
	*out = (struct attr_reader *)r;
	for (uint32_t i = 0; i < ncores; i++) {
		cores[i].func_samples = calloc(cores[i].mod->nfuncs + 1, sizeof(uint64_t));
		cores[i].func_period = calloc(cores[i].mod->nfuncs + 1, sizeof(uint64_t));
		if (!cores[i].func_samples || !cores[i].func_period)
			return ap_err_nomem(err);
	}
	if (maptable__init(&r->mt, cores, ncores))
		return ap_err_nomem(err);
	r->mt_ready = 1;
	return run_start(r, err);
}

struct session_tool *attr_reader__tool(struct attr_reader *ar)
{
	return &((struct run *)ar)->tool;
}

int attr_reader__dropping(const struct attr_reader *ar)
{
	const struct run *r = (const struct run *)ar;

	return r->pass == RUN_ONE && r->fallback;
}

int attr_reader__finish(struct attr_reader *ar, struct ap_err *err)
{
	struct run *r = (struct run *)ar;
	struct attr_result *res = r->res;

	if (r->event_attr == -1) {
		*err = r->event_err;
		return -1;
	}
	res->truncated = perfdata__truncated(r->pd, &res->bytes_read, &res->bytes_expected);
	if (res->truncated &&
	    ap_warnings__add(&res->warnings, AP_HINT_NONE,
			     "%s: cut short: read %" PRIu64 " of %" PRIu64 " data bytes",
			     r->path, res->bytes_read, res->bytes_expected))
		return ap_err_nomem(err);
	if (keep_event(r, r->pd))
		return ap_err_nomem(err);
	if (sample_filter__end(r->opts->filter, r->path, err))
		return -1;
	return summarize(r, err);
}

void attr_reader__delete(struct attr_reader *ar)
{
	struct run *r = (struct run *)ar;

	if (!r)
		return;
	if (r->mt_ready)
		maptable__exit(&r->mt);
	reorder__exit(&r->rq);
	free(r->list.ev);
	free(r->pend);
	free(r);
}

int attr__run(struct session *s, struct attr_core *cores, uint32_t ncores,
	      const struct attr_opts *opts, struct attr_result *res, struct ap_err *err)
{
	struct attr_reader *r;
	struct session_tool *t;
	int ret = attr_reader__new(s, cores, ncores, opts, res, &r, err);

	t = r ? attr_reader__tool(r) : NULL;
	if (!ret)
		ret = session__process(s, &t, 1, err);
	if (!ret)
		ret = attr_reader__finish(r, err);
	attr_reader__delete(r);
	return ret;
}

struct scan {
	struct session_tool tool;	/* first: the session hands it back */
	struct attr_scan *out;
};

static int scan_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct attr_scan *out = ((struct scan *)t)->out;
	struct mt_event me;

	if (ev->hdr->type == PERF_RECORD_SAMPLE) {
		out->samples++;
		return 0;
	}
	if (to_mt_event(ev, 0, &me) && !no_core_pid(&me) && me.kind == MT_MMAP && me.anon &&
	    attr_spans__add(&out->anon, &out->nanon, &out->cap_anon, me.start, me.len))
		return ap_err_nomem(err);
	return 0;
}

int attr__scan(struct session *s, struct attr_scan *out, struct ap_err *err)
{
	struct scan sc = { .tool = { .record = scan_record }, .out = out };
	struct session_tool *t = &sc.tool;

	memset(out, 0, sizeof(*out));
	if (session__process(s, &t, 1, err)) {
		attr_scan__exit(out);
		return -1;
	}
	/* the helper's verdict on a cut file (cli/attr-compat.h) needs the cut */
	out->truncated = perfdata__truncated(session__data(s), &out->bytes_read,
					     &out->bytes_expected);
	out->pipe = perfdata__is_pipe(session__data(s));
	return 0;
}
