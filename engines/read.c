// SPDX-License-Identifier: MIT
/*
 * engines__open: two passes over perf.data, as perf itself orders records.
 * Pass 1 keeps the records that shape each process's address space
 * (executable MMAP/MMAP2, fork, exec) and reads every engine file they
 * name; jitdump records become mappings of their own at their timestamps.
 * Pass 2 gives each sample to the engine mapping that holds its ip at its
 * time: the latest one at or before the sample, unless a later mapping of
 * another file covers that ip (a replacement, as perf's map fixup does).
 * Memory: the mappings and the code objects, never the samples.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "internal.h"
#include "../perfdata/perfdata.h"
#include "../session/session.h"
#include "../util/search.h"

struct emap {
	uint32_t pid;
	uint64_t start, end, pgoff;
	uint64_t time, seq;
	int32_t file;		/* -1: not an engine file */
	int anon;
};

struct eproc {
	uint32_t pid, ppid;
	int has_parent;
	uint64_t fork_time;
	uint64_t *execs;	/* exec times, ascending */
	uint32_t nexecs, cexecs;
	uint32_t first, n;	/* its engine maps: maps[first .. first + n) */
};

/* A later mapping of another file over part of an engine mapping. */
struct override {
	uint32_t map;
	uint64_t start, end, time, seq;
};

struct rd {
	struct eng_profile *p;
	const struct eng_opts *o;
	const char *path;
	int use_time;
	int event_attr;		/* -1: every event */
	struct emap *maps;	/* engine maps, then (after index) sorted */
	uint32_t nmaps, cmaps;
	uint64_t *maxend;	/* per engine map: largest end so far in its process */
	struct emap *others;
	uint32_t nothers, cothers;
	struct eproc *procs;
	uint32_t nprocs, cprocs;
	struct override *ovr;
	uint32_t novr, covr;
	/* path -> file index, open addressing */
	int32_t *slots;
	uint32_t nslots;
	uint32_t nelf;		/* engine ELF files met */
	uint32_t nmissing;
	const char *first_missing;
};

static int grow(void **v, uint32_t *cap, uint32_t n, size_t elem)
{
	uint32_t c;
	void *nv;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 256;
	nv = realloc(*v, (size_t)c * elem);
	if (!nv)
		return -1;
	*v = nv;
	*cap = c;
	return 0;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	return h;
}

static int slots_grow(struct rd *r)
{
	uint32_t n = r->nslots ? r->nslots * 2 : 1024;
	int32_t *s = malloc(n * sizeof(*s));

	if (!s)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		s[i] = -1;
	for (uint32_t f = 0; f < r->p->nfiles; f++) {
		uint64_t h = hash_str(r->p->files[f].path);

		while (s[h & (n - 1)] >= 0)
			h++;
		s[h & (n - 1)] = (int32_t)f;
	}
	free(r->slots);
	r->slots = s;
	r->nslots = n;
	return 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* The caller's ELF list entry that names this mapped path, or NULL. */
static const char *listed(const struct eng_opts *o, const char *path)
{
	for (uint32_t i = 0; i < o->nelf_files; i++) {
		const char *e = o->elf_files[i];

		if (!strcmp(e, path) || !strcmp(base_name(e), base_name(path)))
			return e;
	}
	return NULL;
}

/* Where to read a mapped file: as mapped, as listed, or in a given folder. */
static char *locate(const struct eng_opts *o, const char *path, const char *entry)
{
	const char *b = base_name(path);

	if (entry && strchr(entry, '/') && !access(entry, R_OK))
		return strdup(entry);
	if (!access(path, R_OK))
		return strdup(path);
	for (uint32_t i = 0; i < o->ndirs; i++) {
		size_t n = strlen(o->dirs[i]) + strlen(b) + 2;
		char *cand = malloc(n);

		if (!cand)
			return NULL;
		snprintf(cand, n, "%s/%s", o->dirs[i], b);
		if (!access(cand, R_OK))
			return cand;
		free(cand);
	}
	return strdup("");
}

/* The file index of an engine file (read on first sight); -1 not one, -2 error. */
static int32_t engine_file(struct rd *r, const char *path, struct ap_err *err)
{
	const char *entry = listed(r->o, path);
	int jitted = eng_elf__is_jitted(path);
	uint64_t h;
	int64_t fi;
	char *where;

	if (!jitted && !entry)
		return -1;
	if ((r->p->nfiles + 1) * 2 > r->nslots && slots_grow(r))
		return ap_err_nomem(err), -2;
	for (h = hash_str(path);; h++) {
		int32_t f = r->slots[h & (r->nslots - 1)];

		if (f < 0)
			break;
		if (!strcmp(r->p->files[f].path, path))
			return f;
	}
	fi = eng_profile__add_file(r->p, path);
	if (fi < 0)
		return ap_err_nomem(err), -2;
	r->slots[h & (r->nslots - 1)] = (int32_t)fi;
	r->nelf++;
	where = locate(r->o, path, entry);
	if (!where)
		return ap_err_nomem(err), -2;
	if (*where && eng_elf__load(r->p, (uint32_t)fi, where, jitted, err)) {
		free(where);
		return -2;
	}
	free(where);
	if (!r->p->files[fi].readable && !r->nmissing++)
		r->first_missing = r->p->files[fi].path;
	return (int32_t)fi;
}

static struct eproc *proc_get(struct rd *r, uint32_t pid)
{
	for (uint32_t i = r->nprocs; i-- > 0;)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	if (grow((void **)&r->procs, &r->cprocs, r->nprocs, sizeof(*r->procs)))
		return NULL;
	memset(&r->procs[r->nprocs], 0, sizeof(*r->procs));
	r->procs[r->nprocs].pid = pid;
	return &r->procs[r->nprocs++];
}

static uint64_t key_of(const struct rd *r, const struct pd_event *ev)
{
	if (!r->use_time)
		return ev->seq;
	return ev->hdr->type == PERF_RECORD_SAMPLE ? ev->sample.sid.time : ev->sid.time;
}

static int add_map(struct rd *r, const struct emap *m, struct ap_err *err)
{
	if (m->file >= 0) {
		if (grow((void **)&r->maps, &r->cmaps, r->nmaps, sizeof(*r->maps)))
			return ap_err_nomem(err);
		r->maps[r->nmaps++] = *m;
	} else {
		if (grow((void **)&r->others, &r->cothers, r->nothers, sizeof(*r->others)))
			return ap_err_nomem(err);
		r->others[r->nothers++] = *m;
	}
	return 0;
}

static int on_mmap(struct rd *r, const struct pd_event *ev, struct ap_err *err)
{
	const union perf_event *e = ev->ev;
	const char *name;
	struct emap m = { 0 };
	int32_t fi;

	if (ev->hdr->type == PERF_RECORD_MMAP) {
		if (ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0;
		m.pid = e->mmap.pid;
		m.start = e->mmap.start;
		m.end = e->mmap.start + e->mmap.len;
		m.pgoff = e->mmap.pgoff;
		name = e->mmap.filename;
	} else {
		if (!(e->mmap2.prot & PROT_EXEC))
			return 0;
		m.pid = e->mmap2.pid;
		m.start = e->mmap2.start;
		m.end = e->mmap2.start + e->mmap2.len;
		m.pgoff = e->mmap2.pgoff;
		name = e->mmap2.filename;
	}
	if (m.pid == UINT32_MAX || (r->o->pid >= 0 && m.pid != (uint32_t)r->o->pid))
		return 0;
	m.time = key_of(r, ev);
	m.seq = ev->seq;
	m.anon = !strncmp(name, "//anon", 6);
	fi = m.anon ? -1 : engine_file(r, name, err);
	if (fi == -2)
		return -1;
	m.file = fi;
	return add_map(r, &m, err);
}

static int on_other(struct rd *r, const struct pd_event *ev, struct ap_err *err)
{
	const union perf_event *e = ev->ev;
	struct eproc *pr;

	if (ev->hdr->type == PERF_RECORD_FORK) {
		if (e->fork.pid == e->fork.ppid)
			return 0; /* a thread shares its process's maps */
		pr = proc_get(r, e->fork.pid);
		if (!pr)
			return ap_err_nomem(err);
		pr->ppid = e->fork.ppid;
		pr->has_parent = 1;
		pr->fork_time = key_of(r, ev);
		return 0;
	}
	if (ev->hdr->type == PERF_RECORD_COMM && (ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC)) {
		pr = proc_get(r, e->comm.pid);
		if (!pr || grow((void **)&pr->execs, &pr->cexecs, pr->nexecs, sizeof(uint64_t)))
			return ap_err_nomem(err);
		pr->execs[pr->nexecs++] = key_of(r, ev);
	}
	return 0;
}

/* Pass 1: the mappings, the processes. */
static int maps_record(struct rd *r, const struct pd_event *ev, struct ap_err *err)
{
	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return on_mmap(r, ev, err);
	case PERF_RECORD_FORK:
	case PERF_RECORD_COMM:
		return on_other(r, ev, err);
	default:
		return 0;
	}
}

/* ---- the jitdumps: one synthetic file per code placement ---- */

static int add_jit_maps(struct rd *r, uint32_t dfi, const struct eng_jit_loads *jl,
			struct ap_err *err)
{
	for (uint32_t i = 0; i < jl->n; i++) {
		const struct eng_jit_load *l = &jl->v[i];
		int64_t fi = eng_profile__add_file(r->p, r->p->files[dfi].path);
		struct eng_file *f;
		struct emap m;

		if (fi < 0)
			return ap_err_nomem(err);
		f = &r->p->files[fi];
		f->loads = malloc(sizeof(*f->loads));
		f->syms = malloc(sizeof(*f->syms));
		if (!f->loads || !f->syms)
			return ap_err_nomem(err);
		f->loads[0] = (struct elf_load){ 0, l->addr, l->size };
		f->syms[0] = (struct eng_sym){ l->addr, l->size, l->code };
		f->nloads = f->nsyms = 1;
		f->readable = 1;
		f->e_machine = jl->e_machine;
		m = (struct emap){ l->pid, l->addr, l->addr + l->size, 0, l->time, i,
				   (int32_t)fi, 0 };
		if ((r->o->pid < 0 || l->pid == (uint32_t)r->o->pid) && add_map(r, &m, err))
			return -1;
	}
	return 0;
}

static int read_jitdumps(struct rd *r, struct ap_err *err)
{
	for (uint32_t d = 0; d < r->o->njitdumps; d++) {
		struct eng_jit_loads jl = { 0 };
		int64_t dfi = eng_profile__add_file(r->p, r->o->jitdumps[d]);
		int ret;

		if (dfi < 0)
			return ap_err_nomem(err);
		r->p->files[dfi].readable = 1;
		ret = eng_jitdump__read(r->p, r->p->files[dfi].path, &jl, err);
		if (!ret && r->path && jl.arch_timestamps)
			ret = ap_errf(err, "%s: its timestamps are the CPU's time-stamp counter, "
				      "which %s cannot be matched with", r->o->jitdumps[d],
				      r->path);
		if (!ret)
			ret = add_jit_maps(r, (uint32_t)dfi, &jl, err);
		free(jl.v);
		if (ret)
			return -1;
	}
	return 0;
}

/* ---- lookup ---- */

static int map_cmp(const void *a, const void *b)
{
	const struct emap *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int proc_cmp(const void *a, const void *b)
{
	const struct eproc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int u64_cmp(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int ovr_cmp(const void *a, const void *b)
{
	const struct override *x = a, *y = b;

	return x->map < y->map ? -1 : x->map > y->map;
}

static struct eproc *proc_find(struct rd *r, uint32_t pid)
{
	struct eproc key = { .pid = pid };

	if (!r->nprocs)
		return NULL;
	return bsearch(&key, r->procs, r->nprocs, sizeof(*r->procs), proc_cmp);
}

static int later(uint64_t t1, uint64_t s1, uint64_t t2, uint64_t s2)
{
	return t1 != t2 ? t1 > t2 : s1 > s2;
}

/* Engine maps of pr overlapping [lo, hi) that o replaces from its time on. */
static int find_overrides(struct rd *r, const struct eproc *pr, const struct emap *o,
			  struct ap_err *err)
{
	/* the first map starting at or past o->end (pr->n: there is one) */
	uint32_t lo = (uint32_t)ap_search__lower(r->maps + pr->first, pr->n,
						 AP_SEARCH_FIELD(r->maps, start), o->end);

	while (lo-- > 0 && r->maxend[pr->first + lo] > o->start) {
		const struct emap *m = &r->maps[pr->first + lo];

		if (m->end <= o->start || !later(o->time, o->seq, m->time, m->seq))
			continue;
		if (grow((void **)&r->ovr, &r->covr, r->novr, sizeof(*r->ovr)))
			return ap_err_nomem(err);
		r->ovr[r->novr++] = (struct override){ pr->first + lo, o->start, o->end,
						       o->time, o->seq };
	}
	return 0;
}

static int build_index(struct rd *r, struct ap_err *err)
{
	if (r->nmaps)
		qsort(r->maps, r->nmaps, sizeof(*r->maps), map_cmp);
	r->maxend = malloc((r->nmaps ? r->nmaps : 1) * sizeof(uint64_t));
	if (!r->maxend)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < r->nmaps; i++)
		if (!proc_get(r, r->maps[i].pid))
			return ap_err_nomem(err);
	if (r->nprocs)
		qsort(r->procs, r->nprocs, sizeof(*r->procs), proc_cmp);
	for (uint32_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].nexecs)
			qsort(r->procs[i].execs, r->procs[i].nexecs, sizeof(uint64_t), u64_cmp);
	for (uint32_t i = 0; i < r->nmaps;) {
		struct eproc *pr = proc_find(r, r->maps[i].pid);
		uint32_t j = i;
		uint64_t mx = 0;

		for (; j < r->nmaps && r->maps[j].pid == r->maps[i].pid; j++) {
			mx = r->maps[j].end > mx ? r->maps[j].end : mx;
			r->maxend[j] = mx;
		}
		pr->first = i;
		pr->n = j - i;
		i = j;
	}
	for (uint32_t i = 0; i < r->nothers; i++) {
		const struct emap *o = &r->others[i];
		struct eproc *pr;

		/* perf inject drops the engine's //anon maps once its dump is known */
		if (o->anon && r->o->njitdumps)
			continue;
		pr = proc_find(r, o->pid);
		if (pr && pr->n && find_overrides(r, pr, o, err))
			return -1;
	}
	if (r->novr)
		qsort(r->ovr, r->novr, sizeof(*r->ovr), ovr_cmp);
	free(r->others);
	r->others = NULL;
	return 0;
}

/* Was the map's process image replaced by an exec between its time and t? */
static int execed(const struct eproc *pr, uint64_t mt, uint64_t t)
{
	for (uint32_t i = 0; i < pr->nexecs; i++)
		if (pr->execs[i] > mt && pr->execs[i] <= t)
			return 1;
	return 0;
}

static int overridden(const struct rd *r, uint32_t mi, uint64_t t, uint64_t ip)
{
	size_t lo = ap_search__lower(r->ovr, r->novr, AP_SEARCH_FIELD(r->ovr, map), mi);

	for (; lo < r->novr && r->ovr[lo].map == mi; lo++)
		if (r->ovr[lo].time <= t && ip >= r->ovr[lo].start && ip < r->ovr[lo].end)
			return 1;
	return 0;
}

/* The engine map of pr that holds ip at time t, or -1. */
static int64_t lookup_proc(const struct rd *r, const struct eproc *pr, uint64_t t, uint64_t ip)
{
	/* the first map starting past ip */
	uint32_t lo = pr->n ? (uint32_t)ap_search__upper(r->maps + pr->first, pr->n,
							 AP_SEARCH_FIELD(r->maps, start), ip) : 0;
	int64_t best = -1;

	while (lo-- > 0 && r->maxend[pr->first + lo] > ip) {
		const struct emap *m = &r->maps[pr->first + lo];

		if (ip >= m->end || m->time > t || execed(pr, m->time, t))
			continue;
		if (best < 0 || later(m->time, m->seq, r->maps[best].time, r->maps[best].seq))
			best = pr->first + lo;
	}
	if (best >= 0 && overridden(r, (uint32_t)best, t, ip))
		return -1;
	return best;
}

static int64_t lookup(struct rd *r, uint32_t pid, uint64_t t, uint64_t ip)
{
	for (int depth = 0; depth < 64; depth++) {
		struct eproc *pr = proc_find(r, pid);
		int64_t m;

		if (!pr)
			return -1;
		m = lookup_proc(r, pr, t, ip);
		if (m >= 0 || !pr->has_parent || pr->ppid == pid)
			return m;
		/* a forked child sees what its parent had mapped before the fork */
		t = t < pr->fork_time ? t : pr->fork_time;
		pid = pr->ppid;
	}
	return -1;
}

/* ---- samples ---- */

static int count_sample(struct rd *r, const struct pd_event *ev, struct ap_err *err)
{
	const struct pd_sample *s = &ev->sample;
	const struct eng_file *f;
	const struct eng_sym *sym;
	struct eng_code_rec *c;
	uint64_t vaddr, off;
	int64_t mi;

	if (r->o->pid >= 0 && s->sid.pid != (uint32_t)r->o->pid)
		return 0;
	if (r->event_attr >= 0 && s->attr_idx != r->event_attr)
		return 0;
	r->p->sum.total_samples++;
	if (!s->has_ip || s->cpumode != PERF_RECORD_MISC_USER || !r->nmaps)
		return 0;
	mi = lookup(r, s->sid.pid, key_of(r, ev), s->ip);
	if (mi < 0)
		return 0;
	r->p->sum.engine_samples++;
	f = &r->p->files[r->maps[mi].file];
	sym = f->readable ? eng_file__sym_at(f, s->ip - r->maps[mi].start + r->maps[mi].pgoff,
					     &vaddr) : NULL;
	if (!sym) {
		r->p->sum.unresolved_samples++;
		return 0;
	}
	c = &r->p->codes[sym->code];
	c->pub.samples++;
	off = vaddr - sym->value;
	if (!c->offs && c->pub.size <= (64u << 20)) {
		c->offs = calloc(c->pub.size, sizeof(uint64_t));
		if (!c->offs)
			return ap_err_nomem(err);
		c->pub.offset_samples = c->offs;
	}
	if (c->offs && off < c->pub.size)
		c->offs[off]++;
	return 0;
}

/*
 * The recording's two passes as one tool of its session: the mappings,
 * then (the jitdumps read and the code indexed) the samples.
 */
struct rd_tool {
	struct session_tool tool;	/* first: the session hands it back */
	struct rd *r;
};

static int rd_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct rd_tool *rt = (struct rd_tool *)t;

	if (!t->pass)
		return maps_record(rt->r, ev, err);
	return ev->hdr->type == PERF_RECORD_SAMPLE ? count_sample(rt->r, ev, err) : 0;
}

static int read_jitdumps(struct rd *r, struct ap_err *err);
static int build_index(struct rd *r, struct ap_err *err);

static int rd_pass_end(struct session_tool *t, struct ap_err *err)
{
	struct rd_tool *rt = (struct rd_tool *)t;

	if (t->pass)
		return 0;
	return read_jitdumps(rt->r, err) || build_index(rt->r, err) ? -1 : 1;
}

/* Each code object's address, process and time: those of its first mapping. */
static void place_codes(struct rd *r)
{
	for (uint32_t i = 0; i < r->nmaps; i++) {
		const struct emap *m = &r->maps[i];
		const struct eng_file *f = &r->p->files[m->file];

		for (uint32_t k = 0; k < f->nsyms; k++) {
			struct eng_code *c = &r->p->codes[f->syms[k].code].pub;
			uint64_t off = f->syms[k].value;

			if (c->addr && c->load_time <= m->time)
				continue;
			for (size_t l = 0; l < f->nloads; l++)
				if (f->syms[k].value - f->loads[l].vaddr < f->loads[l].size)
					off = f->loads[l].off + (f->syms[k].value - f->loads[l].vaddr);
			c->addr = m->start + off - m->pgoff;
			c->pid = m->pid;
			c->load_time = m->time;
		}
	}
}

static int resolve_event(struct rd *r, struct perfdata *pd, struct ap_err *err)
{
	char names[256] = "";
	size_t n = perfdata__nevsels(pd), used = 0;

	r->event_attr = -1;
	if (!r->o->event)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct pd_evsel *a = perfdata__evsel(pd, i);

		if (a->name && !strcmp(a->name, r->o->event)) {
			r->event_attr = (int)i;
			return 0;
		}
		if (a->name && used + strlen(a->name) + 3 < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 i ? ", " : "", a->name);
	}
	return ap_errf(err, "%s: no event '%s' in this recording (it has: %s)", r->path,
		       r->o->event, names[0] ? names : "none");
}

/* Order by time when every record carries one; is the clock CLOCK_MONOTONIC? */
static void clock_of(struct perfdata *pd, int *use_time, int *mono)
{
	size_t n = perfdata__nevsels(pd);

	*use_time = n > 0;
	*mono = n > 0;
	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = &perfdata__evsel(pd, i)->attr;

		if (!(a->sample_type & PERF_SAMPLE_TIME) || !a->sample_id_all)
			*use_time = 0;
		if (!a->use_clockid || a->clockid != CLOCK_MONOTONIC)
			*mono = 0;
	}
}

static int read_perf(struct rd *r, struct ap_err *err)
{
	struct rd_tool rt = { .tool = { .record = rd_record, .pass_end = rd_pass_end }, .r = r };
	struct session_tool *t = &rt.tool;
	struct session *s;
	struct perfdata *pd;
	uint64_t got, want;
	int mono, ret;

	if (session__open(r->path, &s, err))
		return -1;
	pd = session__data(s);
	if (session__stream(s)) {
		session__delete(s);
		return ap_errf(err, "%s: a stream cannot be read twice; an engine profile "
			       "reads the mappings before the samples", r->path);
	}
	clock_of(pd, &r->use_time, &mono);
	ret = resolve_event(r, pd, err);
	if (!ret && r->o->njitdumps && !(r->use_time && mono))
		ret = ap_errf(err, "%s: its samples carry no CLOCK_MONOTONIC time, so the "
			      "jitdump's code cannot be placed in it", r->path);
	if (!ret)
		ret = session__process(s, &t, 1, err);
	if (!ret && perfdata__truncated(pd, &got, &want)) {
		r->p->sum.truncated = 1;
		if (eng_profile__warn(r->p, "%s: cut short (%" PRIu64 " of %" PRIu64
				      " data bytes): counts cover what was read", r->path,
				      got, want))
			ret = ap_err_nomem(err);
	}
	session__delete(s);
	return ret;
}

static void rd_exit(struct rd *r)
{
	for (uint32_t i = 0; i < r->nprocs; i++)
		free(r->procs[i].execs);
	free(r->procs);
	free(r->maps);
	free(r->maxend);
	free(r->others);
	free(r->ovr);
	free(r->slots);
}

static int finish(struct rd *r, struct ap_err *err)
{
	struct eng_profile *p = r->p;

	place_codes(r);
	p->sum.nmissing = r->nmissing;
	p->sum.nfiles = r->nelf + r->o->njitdumps;
	if (r->nmissing && eng_profile__warn(p, "%u engine files mapped in %s could not be "
					     "read (the first: %s): their samples stay "
					     "unresolved", r->nmissing, r->path, r->first_missing))
		return ap_err_nomem(err);
	if (eng_profile__build_funcs(p, err))
		return -1;
	eng_profile__summarize(p);
	if (!p->nfuncs) {
		const char *what = r->path ? r->path : r->o->jitdumps[0];

		if (r->nmissing && r->nmissing == r->nelf && !r->o->njitdumps)
			return ap_errf(err, "%s: none of the %u engine files it maps could be read "
				       "(the first: %s); were they moved? look in their folder",
				       what, r->nmissing, r->first_missing);
		if (!p->sum.nfiles)
			return ap_errf(err, "%s: no code of another engine: no jitted-<pid>-<k>.so "
				       "mappings (perf inject --jit output) and no listed ELF file",
				       what);
		return ap_errf(err, "%s: none of the %u symbols of another engine's code names "
			       "a wasm function", what, p->ncodes);
	}
	return 0;
}

int engines__open(const char *perf_path, const struct eng_opts *o, struct eng_profile **out,
		  struct ap_err *err)
{
	struct eng_profile *p = calloc(1, sizeof(*p));
	struct rd r = { .p = p, .o = o, .path = perf_path, .event_attr = -1 };
	int ret;

	*out = NULL;
	if (!p)
		return ap_err_nomem(err);
	p->wamr = o->wamr;
	p->sum.import_func_count = o->wamr ? (int64_t)o->wamr->import_func_count :
					     o->import_func_count;
	if (perf_path) {
		p->perf_path = strdup(perf_path);
		if (!p->perf_path) {
			engines__delete(p);
			return ap_err_nomem(err);
		}
		p->sum.perf_path = p->perf_path;
		ret = read_perf(&r, err);
	} else if (!o->njitdumps) {
		ret = ap_errf(err, "engine profile: neither a recording nor a jitdump to read");
	} else {
		ret = read_jitdumps(&r, err);
	}
	if (!ret)
		ret = finish(&r, err);
	rd_exit(&r);
	if (ret) {
		engines__delete(p);
		return -1;
	}
	*out = p;
	return 0;
}
