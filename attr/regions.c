// SPDX-License-Identifier: MIT
/*
 * Region discovery from samples (see regions.h). A process has few
 * regions, so they live in a short array per process; processes are kept
 * sorted by pid. Every lookup first tries the last hit: samples come in
 * long runs from one region.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "attr.h"
#include "regions.h"
#include "../util/array.h"

#define RG_MAX_PIECES 64

int rg__init(struct rg_table *t, const struct attr_core *cores, uint32_t ncores)
{
	memset(t, 0, sizeof(*t));
	t->cores = cores;
	t->ncores = ncores;
	t->core_regions = calloc(ncores + 1, sizeof(*t->core_regions));
	t->core_first = calloc(ncores + 1, sizeof(*t->core_first));
	t->core_first_len = calloc(ncores + 1, sizeof(*t->core_first_len));
	if (!t->core_regions || !t->core_first || !t->core_first_len ||
	    size_groups__of_cores(&t->groups, &t->ngroups, cores, ncores)) {
		rg__exit(t);
		return -1;
	}
	return 0;
}

void rg__exit(struct rg_table *t)
{
	for (uint32_t i = 0; i < t->nprocs; i++) {
		free(t->procs[i].r);
		free(t->procs[i].len_seen);
	}
	free(t->procs);
	size_groups__delete(t->groups, t->ngroups);
	free(t->core_regions);
	free(t->core_first);
	free(t->core_first_len);
	memset(t, 0, sizeof(*t));
}

static struct rg_proc *proc_find(struct rg_table *t, int32_t pid, uint32_t *pos)
{
	uint32_t lo = 0, hi = t->nprocs;

	if (t->last < t->nprocs && t->procs[t->last].pid == pid) {
		if (pos)
			*pos = t->last;
		return &t->procs[t->last];
	}
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (pos)
		*pos = lo;
	if (lo < t->nprocs && t->procs[lo].pid == pid) {
		t->last = lo;
		return &t->procs[lo];
	}
	return NULL;
}

static struct rg_proc *proc_get(struct rg_table *t, int32_t pid)
{
	uint32_t pos;
	struct rg_proc *p = proc_find(t, pid, &pos);
	uint32_t *seen = NULL;

	if (p)
		return p;
	if (t->ngroups) {
		seen = calloc(t->ngroups, sizeof(*seen));
		if (!seen)
			return NULL;
	}
	if (ap_grow(&t->procs, &t->cap, (size_t)t->nprocs + 1, sizeof(*t->procs))) {
		free(seen);
		return NULL;
	}
	memmove(&t->procs[pos + 1], &t->procs[pos], (t->nprocs - pos) * sizeof(*p));
	t->nprocs++;
	t->last = pos;
	p = &t->procs[pos];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->len_seen = seen;
	return p;
}

static int region_push(struct rg_table *t, struct rg_proc *p, uint64_t start, uint64_t end,
		       int core, int split)
{
	if (ap_grow(&p->r, &p->cap, (size_t)p->n + 1, sizeof(*p->r)))
		return -1;
	p->r[p->n++] = (struct rg_region){ .start = start, .end = end, .core = core,
					   .split = split };
	if (core >= 0 && !t->core_regions[core]++) {
		t->core_first[core] = start;
		t->core_first_len[core] = end - start;
	}
	return 0;
}

static void region_del(struct rg_proc *p, uint32_t i)
{
	memmove(&p->r[i], &p->r[i + 1], (p->n - i - 1) * sizeof(*p->r));
	p->n--;
	p->last = 0;
}

static int proc_lookup(struct rg_proc *p, uint64_t ip, struct rg_region *out)
{
	if (p->last < p->n && ip >= p->r[p->last].start && ip < p->r[p->last].end) {
		*out = p->r[p->last];
		return 1;
	}
	for (uint32_t i = 0; i < p->n; i++) {
		if (ip >= p->r[i].start && ip < p->r[i].end) {
			p->last = i;
			*out = p->r[i];
			return 1;
		}
	}
	return 0;
}

int rg__find(struct rg_table *t, int32_t pid, uint64_t ip, struct rg_region *out)
{
	struct rg_proc *p = proc_find(t, pid, NULL);

	return p ? proc_lookup(p, ip, out) : 0;
}

void rg__forget(struct rg_table *t, int32_t pid, uint64_t ip)
{
	struct rg_proc *p = proc_find(t, pid, NULL);
	struct rg_region r;

	if (p && proc_lookup(p, ip, &r))
		region_del(p, p->last);
}

static int pinned_core(const struct rg_table *t, uint64_t start)
{
	for (uint32_t i = 0; i < t->ncores; i++)
		if (t->cores[i].base_override && t->cores[i].base_override == start)
			return (int)i;
	return -1;
}

/*
 * The same region already attributed in another process: a forked child
 * runs its parent's mappings, which `aotperf report` gives the parent's core.
 */
static int inherited_core(const struct rg_table *t, int32_t pid, uint64_t s, uint64_t e)
{
	for (uint32_t i = 0; i < t->nprocs; i++) {
		const struct rg_proc *q = &t->procs[i];

		if (q->pid == pid)
			continue;
		for (uint32_t k = 0; k < q->n; k++)
			if (q->r[k].start == s && q->r[k].end == e && q->r[k].core >= 0)
				return q->r[k].core;
	}
	return -1;
}

static int group_of(const struct rg_table *t, uint64_t len)
{
	for (uint32_t g = 0; g < t->ngroups; g++)
		if (t->groups[g].len == len)
			return (int)g;
	return -1;
}

static uint64_t min_group_len(const struct rg_table *t)
{
	uint64_t m = UINT64_MAX;

	for (uint32_t g = 0; g < t->ngroups; g++)
		if (t->groups[g].len < m)
			m = t->groups[g].len;
	return m;
}

/*
 * A map longer than any core that consists of several core-sized pieces:
 * the kernel merged touching anonymous r-x regions into one VMA and perf
 * recorded one map. mmap hands out addresses top down, so the top piece was
 * mapped first; at each step take the length whose next core comes first
 * in argument order. Returns 1 when [s, e) was cut, 0 when it cannot be
 * tiled, -1 on allocation failure.
 */
static int tile(struct rg_table *t, struct rg_proc *p, uint64_t s, uint64_t e)
{
	uint64_t top = e, minlen = min_group_len(t);
	int piece_g[RG_MAX_PIECES];
	uint32_t *seen, n = 0;

	if (!t->ngroups)
		return 0;
	seen = malloc(t->ngroups * sizeof(*seen));
	if (!seen)
		return -1;
	memcpy(seen, p->len_seen, t->ngroups * sizeof(*seen));
	while (top > s && n < RG_MAX_PIECES) {
		int best = -1, best_core = INT_MAX;

		for (uint32_t g = 0; g < t->ngroups; g++) {
			const struct size_group *grp = &t->groups[g];
			uint64_t rem;
			int c;

			if (grp->len > top - s)
				continue;
			rem = top - grp->len - s;
			if (rem && rem < minlen)
				continue;
			c = grp->cores[seen[g] % grp->ncores];
			if (c < best_core) {
				best = (int)g;
				best_core = c;
			}
		}
		if (best < 0)
			break;
		seen[best]++;
		piece_g[n++] = best;
		top -= t->groups[best].len;
	}
	free(seen);
	if (top != s || n < 2)
		return 0;
	top = e;
	for (uint32_t i = 0; i < n; i++) {
		const struct size_group *grp = &t->groups[piece_g[i]];
		int core = grp->cores[p->len_seen[piece_g[i]]++ % grp->ncores];

		if (region_push(t, p, top - grp->len, top, core, 1))
			return -1;
		top -= grp->len;
		t->nsplit++;
	}
	return 1;
}

/* One piece of a probed map that no known region covers. */
static int assign_gap(struct rg_table *t, struct rg_proc *p, uint64_t s, uint64_t e)
{
	int core = pinned_core(t, s);
	int g, r;

	if (core < 0) {
		core = inherited_core(t, p->pid, s, e);
		if (core >= 0)
			t->ninherited++;
	}
	if (core >= 0)
		return region_push(t, p, s, e, core, 0);
	g = group_of(t, e - s);
	if (g >= 0) {
		const struct size_group *grp = &t->groups[g];

		core = grp->cores[p->len_seen[g]++ % grp->ncores];
		return region_push(t, p, s, e, core, 0);
	}
	r = tile(t, p, s, e);
	if (r)
		return r < 0 ? -1 : 0;
	return region_push(t, p, s, e, -1, 0);
}

/* Walk from ip's page until the probe fails: the map's [*s, *e). */
static void probe_map(struct rg_table *t, uint64_t ip, rg_probe_fn probe, void *ctx,
		      uint64_t *s, uint64_t *e)
{
	uint64_t lo = ip & ~(RG_PAGE - 1), hi = lo + RG_PAGE;

	for (uint32_t i = 0; i < RG_MAX_PAGES && lo >= RG_PAGE; i++) {
		t->probes++;
		if (!probe(ctx, lo - RG_PAGE))
			break;
		lo -= RG_PAGE;
	}
	for (uint32_t i = 0; i < RG_MAX_PAGES && hi; i++) {
		t->probes++;
		if (!probe(ctx, hi))
			break;
		hi += RG_PAGE;
	}
	*s = lo;
	*e = hi;
}

static int cmp_start_desc(const void *a, const void *b)
{
	const struct rg_region *x = a, *y = b;

	return x->start > y->start ? -1 : x->start < y->start;
}

/*
 * Known regions inside the new map stay (an earlier region the kernel merged
 * a new one into); ones that stick out of it are stale: the map changed.
 * The gaps between the ones that stay are new, taken top down.
 */
static int add_map(struct rg_table *t, struct rg_proc *p, uint64_t s, uint64_t e)
{
	struct rg_region *in;
	uint32_t nin = 0;
	uint64_t top = e;
	int ret = 0;

	for (uint32_t i = p->n; i-- > 0;) {
		const struct rg_region *r = &p->r[i];

		if (r->end > s && r->start < e && (r->start < s || r->end > e))
			region_del(p, i);
	}
	in = malloc((p->n + 1) * sizeof(*in));
	if (!in)
		return -1;
	for (uint32_t i = 0; i < p->n; i++)
		if (p->r[i].start >= s && p->r[i].end <= e)
			in[nin++] = p->r[i];
	qsort(in, nin, sizeof(*in), cmp_start_desc);
	for (uint32_t i = 0; i <= nin && !ret; i++) {
		uint64_t lo = i < nin ? in[i].end : s;

		if (top > lo)
			ret = assign_gap(t, p, lo, top);
		if (i < nin)
			top = in[i].start;
	}
	free(in);
	return ret;
}

int rg__discover(struct rg_table *t, int32_t pid, uint64_t ip, rg_probe_fn probe, void *ctx,
		 struct rg_region *out)
{
	struct rg_proc *p;
	uint64_t s, e;

	probe_map(t, ip, probe, ctx, &s, &e);
	p = proc_get(t, pid);
	if (!p || add_map(t, p, s, e))
		return -1;
	return proc_lookup(p, ip, out);
}
