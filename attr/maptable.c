// SPDX-License-Identifier: MIT
/*
 * Mapping timelines. Only mappings that matter are kept per process: the
 * ones given to a core, later ones that overlap those (they replace them
 * from their time on), and exec barriers. A lookup walks that short list
 * backwards from the newest entry not after the sample's time.
 */
#include <stdlib.h>
#include <string.h>
#include "maptable.h"
#include "../util/array.h"
#include "../util/search.h"

#define MT_MAX_FORK_DEPTH 16

static int lookup(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip, uint32_t *midx);

int maptable__init(struct maptable *mt, const struct attr_core *cores, uint32_t ncores)
{
	memset(mt, 0, sizeof(*mt));
	mt->cores = cores;
	mt->ncores = ncores;
	if (size_groups__of_cores(&mt->groups, &mt->ngroups, cores, ncores)) {
		maptable__exit(mt);
		return -1;
	}
	return 0;
}

void maptable__exit(struct maptable *mt)
{
	for (uint32_t i = 0; i < mt->nprocs; i++) {
		free(mt->procs[i].maps);
		free(mt->procs[i].len_seen);
		free(mt->procs[i].miss_page);
		free(mt->procs[i].miss_time);
	}
	free(mt->procs);
	size_groups__delete(mt->groups, mt->ngroups);
	memset(mt, 0, sizeof(*mt));
}

static struct mt_proc *proc_find(const struct maptable *mt, uint32_t pid, uint32_t *pos)
{
	uint32_t lo = (uint32_t)ap_search__lower(mt->procs, mt->nprocs,
						 AP_SEARCH_FIELD(mt->procs, pid), pid);

	if (pos)
		*pos = lo;
	if (lo < mt->nprocs && mt->procs[lo].pid == pid)
		return &mt->procs[lo];
	return NULL;
}

static struct mt_proc *proc_get(struct maptable *mt, uint32_t pid)
{
	uint32_t pos;
	struct mt_proc *p = proc_find(mt, pid, &pos);

	if (p)
		return p;
	if (ap_grow(&mt->procs, &mt->cap, (size_t)mt->nprocs + 1, sizeof(*mt->procs)))
		return NULL;
	memmove(&mt->procs[pos + 1], &mt->procs[pos], (mt->nprocs - pos) * sizeof(*p));
	mt->nprocs++;
	mt->last = NULL; /* the array moved */
	p = &mt->procs[pos];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = pid;
	p->lo = UINT64_MAX;
	if (mt->ngroups) {
		p->len_seen = calloc(mt->ngroups, sizeof(*p->len_seen));
		if (!p->len_seen) {
			memmove(p, p + 1, (mt->nprocs - pos - 1) * sizeof(*p));
			mt->nprocs--;
			return NULL;
		}
	}
	return p;
}

/*
 * Kept in (time, seq) order, which proc_lookup's newest-first scan relies
 * on: a read in one pass may add a mapping after a newer one that it does
 * not overlap (maptable__late lets that through).
 */
static int proc_push(struct mt_proc *p, const struct mt_map *m)
{
	uint32_t i;

	if (ap_grow(&p->maps, &p->cap, (size_t)p->nmaps + 1, sizeof(*p->maps)))
		return -1;
	for (i = p->nmaps; i > 0; i--) {
		const struct mt_map *q = &p->maps[i - 1];

		if (q->time < m->time || (q->time == m->time && q->seq <= m->seq))
			break;
		p->maps[i] = *q;
	}
	p->maps[i] = *m;
	p->nmaps++;
	return 0;
}

static int overlaps_kept(const struct mt_proc *p, uint64_t start, uint64_t end)
{
	if (end <= p->lo || start >= p->hi)
		return 0;
	for (uint32_t i = 0; i < p->nmaps; i++)
		if (p->maps[i].core >= 0 && start < p->maps[i].end && p->maps[i].start < end)
			return 1;
	return 0;
}

/* Which core a new executable mapping belongs to, or -1. */
static int core_for(struct maptable *mt, struct mt_proc *p, const struct mt_event *ev)
{
	for (uint32_t i = 0; i < mt->ncores; i++)
		if (mt->cores[i].base_override && mt->cores[i].base_override == ev->start)
			return (int)i;
	if (!ev->anon)
		return -1;
	for (uint32_t g = 0; g < mt->ngroups; g++) {
		const struct size_group *grp = &mt->groups[g];

		if (grp->len == ev->len)
			return grp->cores[p->len_seen[g]++ % grp->ncores];
	}
	return -1;
}

static int add_mapping(struct mt_proc *p, const struct mt_event *ev, int core,
		       struct attr_result *res)
{
	struct mt_map m = {
		.start = ev->start, .end = ev->start + ev->len,
		.time = ev->time, .seq = ev->seq, .core = core,
	};

	if (core >= 0) {
		if (ap_grow(&res->mappings, &res->cap_mappings, (size_t)res->nmappings + 1,
			    sizeof(*res->mappings)))
			return -1;
		m.mapping_idx = res->nmappings;
		res->mappings[res->nmappings++] = (struct attr_mapping){
			.pid = ev->pid, .tid = ev->tid, .start = ev->start, .len = ev->len,
			.pgoff = ev->pgoff, .time = ev->time, .seq = ev->seq,
			.file_offset = ev->file_offset, .core = core, .is_mmap2 = ev->is_mmap2,
			.in_compressed = ev->in_compressed, .rec_size = ev->rec_size,
			.first_sample_time = UINT64_MAX,
		};
	}
	if (proc_push(p, &m))
		return -1;
	if (m.time > p->last_map_time)
		p->last_map_time = m.time;
	if (core >= 0 && m.time > p->last_cand_time)
		p->last_cand_time = m.time;
	if (m.start < p->lo)
		p->lo = m.start;
	if (m.end > p->hi)
		p->hi = m.end;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The kernel merges adjacent anonymous r-x regions: the mprotect of a core
 * mapped right next to an earlier one is reported as one MMAP2 covering
 * both. When a new anonymous mapping wholly contains core mappings (and only
 * touches others not at all), the pieces it adds around them are the new
 * regions: those are the candidates, and the contained cores stay mapped.
 * Returns 1 when handled, 0 when this is not a merge, -1 on allocation failure.
 */
static int add_merged(struct maptable *mt, struct mt_proc *p, const struct mt_event *ev,
		      struct attr_result *res)
{
	uint64_t s = ev->start, e = ev->start + ev->len, pos;
	uint64_t *inner;
	uint32_t n = 0;

	if (!ev->anon || e <= p->lo || s >= p->hi)
		return 0;
	inner = malloc(2 * (p->nmaps + 1) * sizeof(*inner));
	if (!inner)
		return -1;
	for (uint32_t i = 0; i < p->nmaps; i++) {
		const struct mt_map *m = &p->maps[i];

		if (m->core < 0 || m->end <= s || m->start >= e)
			continue;
		if (m->start < s || m->end > e || (m->start == s && m->end == e)) {
			free(inner); /* a partial overlap or a remap in place */
			return 0;
		}
		inner[2 * n] = m->start;
		inner[2 * n + 1] = m->end;
		n++;
	}
	if (!n) {
		free(inner);
		return 0;
	}
	qsort(inner, n, 2 * sizeof(*inner), cmp_u64);
	pos = s;
	for (uint32_t i = 0; i <= n; i++) {
		uint64_t gap_end = i < n ? inner[2 * i] : e;

		if (gap_end > pos) {
			struct mt_event piece = *ev;
			int core;

			piece.start = pos;
			piece.len = gap_end - pos;
			core = core_for(mt, p, &piece);
			if (core >= 0 && add_mapping(p, &piece, core, res)) {
				free(inner);
				return -1;
			}
		}
		if (i < n && inner[2 * i + 1] > pos)
			pos = inner[2 * i + 1];
	}
	free(inner);
	return 1;
}

int maptable__add(struct maptable *mt, const struct mt_event *ev, struct attr_result *res)
{
	struct mt_proc *p = proc_get(mt, ev->pid);
	struct mt_map barrier = { .start = 0, .end = UINT64_MAX, .core = -1 };
	int core;

	if (!p)
		return -1;
	switch (ev->kind) {
	case MT_MMAP:
		if (ev->anon && attr_spans__add(&res->anon, &res->nanon, &res->cap_anon, ev->start,
						ev->len))
			return -1;
		core = add_merged(mt, p, ev, res);
		if (core)
			return core < 0 ? -1 : 0;
		core = core_for(mt, p, ev);
		if (core >= 0 || overlaps_kept(p, ev->start, ev->start + ev->len))
			return add_mapping(p, ev, core, res);
		return 0;
	case MT_EXEC:
		/* from the first exec on nothing of the parent's is inherited (lookup) */
		if (!p->has_exec || ev->time < p->exec_time)
			p->exec_time = ev->time;
		p->has_exec = 1;
		/* Everything mapped before an exec is gone; not part of the envelope. */
		if (!p->nmaps)
			return 0;
		barrier.time = ev->time;
		barrier.seq = ev->seq;
		return proc_push(p, &barrier);
	case MT_FORK:
		/* before anything it mapped (maps[] is in time order): read out of order too */
		if (ev->ppid != ev->pid && p->ppid == p->pid &&
		    (!p->nmaps || p->maps[0].time > ev->time)) {
			p->ppid = ev->ppid;
			p->fork_time = ev->time;
		}
		return 0;
	}
	return 0;
}

static int is_candidate(const struct maptable *mt, const struct mt_event *ev)
{
	for (uint32_t i = 0; i < mt->ncores; i++)
		if (mt->cores[i].base_override == ev->start)
			return 1;
	for (uint32_t g = 0; ev->anon && g < mt->ngroups; g++)
		if (mt->groups[g].len == ev->len)
			return 1;
	return 0;
}

/*
 * Does the order in which candidates arrive pick the core? Only when a
 * size group has several cores to take in turn (core_for); a pinned core
 * takes its address, a group of one core every mapping of its length.
 */
static int order_picks_core(const struct maptable *mt, const struct mt_event *ev)
{
	for (uint32_t i = 0; i < mt->ncores; i++)
		if (mt->cores[i].base_override && mt->cores[i].base_override == ev->start)
			return 0;
	for (uint32_t g = 0; ev->anon && g < mt->ngroups; g++)
		if (mt->groups[g].len == ev->len)
			return mt->groups[g].ncores > 1;
	return 0;
}

/* A noted miss of proc q on a page of [lo, hi) newer than t? */
static int missed_after(const struct mt_proc *q, uint64_t lo, uint64_t hi, uint64_t t)
{
	if (q->max_miss_time <= t)
		return 0;
	for (uint32_t i = 0; i < q->cap_miss; i++) {
		uint64_t page = q->miss_page[i];

		if (page && page - 1 >= lo >> 12 && page - 1 <= (hi - 1) >> 12 && q->miss_time[i] > t)
			return 1;
	}
	return 0;
}

/*
 * A hooked sample looked an address up and found no core: a mapping over
 * it that is older than the sample (in its process, or the parent's,
 * which a child inherits) or the child's fork, arriving now, would have
 * changed the answer. Exec only takes mappings away: the hit rule covers it.
 */
static int late_for_misses(const struct maptable *mt, const struct mt_event *ev)
{
	const struct mt_proc *q;

	switch (ev->kind) {
	case MT_MMAP:
		/* a file's code is never a core's, but it names host frames */
		if (!ev->anon && !is_candidate(mt, ev) && !mt->track_files)
			return 0;
		for (uint32_t i = 0; i < mt->nprocs; i++) {
			q = &mt->procs[i];
			if ((q->pid == ev->pid || q->ppid == ev->pid) &&
			    missed_after(q, ev->start, ev->start + ev->len, ev->time))
				return 1;
		}
		return 0;
	case MT_FORK:
		q = proc_find(mt, ev->pid, NULL);
		return q && q->max_miss_time > ev->time;
	case MT_EXEC:
		return 0;
	}
	return 0;
}

int maptable__late(const struct maptable *mt, const struct mt_event *ev)
{
	const struct mt_proc *p = proc_find(mt, ev->pid, NULL);
	int overlaps;

	if (mt->track_misses && late_for_misses(mt, ev))
		return 1;
	if (!p)
		return 0;
	switch (ev->kind) {
	case MT_MMAP:
		overlaps = ev->start < p->hi && ev->start + ev->len > p->lo;
		if (overlaps && (ev->time < p->max_hit_time || ev->time < p->last_map_time))
			return 1;
		return ev->time < p->last_cand_time && order_picks_core(mt, ev);
	case MT_EXEC:
		return ev->time < p->max_hit_time;
	case MT_FORK:
		return 0;
	}
	return 0;
}

void maptable__note_hit(struct maptable *mt, uint32_t pid, uint64_t t)
{
	struct mt_proc *p = (struct mt_proc *)mt->last;

	if (!p || p->pid != pid)
		p = proc_find(mt, pid, NULL);
	if (p && t > p->max_hit_time)
		p->max_hit_time = t;
}

static int proc_lookup(const struct mt_proc *p, uint64_t t, uint64_t ip, uint32_t *midx,
		       int *found)
{
	*found = 0;
	if (ip < p->lo || ip >= p->hi)
		return -1;
	for (uint32_t i = p->nmaps; i-- > 0;) {
		const struct mt_map *m = &p->maps[i];

		if (m->time > t)
			continue;
		if (ip >= m->start && ip < m->end) {
			*found = 1;
			if (m->core >= 0 && midx)
				*midx = m->mapping_idx;
			return m->core;
		}
	}
	return -1;
}

static uint32_t miss_slot(const struct mt_proc *p, uint64_t page)
{
	uint64_t h = page * 0x9e3779b97f4a7c15ULL;
	uint32_t i = (uint32_t)(h >> 32) & (p->cap_miss - 1);

	while (p->miss_page[i] && p->miss_page[i] != page + 1)
		i = (i + 1) & (p->cap_miss - 1);
	return i;
}

static int miss_grow(struct mt_proc *p)
{
	uint32_t cap = p->cap_miss ? p->cap_miss * 2 : 64;
	struct mt_proc n = { .cap_miss = cap };

	n.miss_page = calloc(cap, sizeof(*n.miss_page));
	n.miss_time = calloc(cap, sizeof(*n.miss_time));
	if (!n.miss_page || !n.miss_time) {
		free(n.miss_page);
		free(n.miss_time);
		return -1;
	}
	for (uint32_t i = 0; i < p->cap_miss; i++) {
		if (!p->miss_page[i])
			continue;
		uint32_t j = miss_slot(&n, p->miss_page[i] - 1);

		n.miss_page[j] = p->miss_page[i];
		n.miss_time[j] = p->miss_time[i];
	}
	free(p->miss_page);
	free(p->miss_time);
	p->miss_page = n.miss_page;
	p->miss_time = n.miss_time;
	p->cap_miss = cap;
	return 0;
}

/* track_misses: pid looked ip up at time t and found no core. */
static void note_miss(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip)
{
	struct mt_proc *p = proc_get(mt, pid);
	uint32_t i;

	if (!p || ((p->nmiss + 1) * 2 > p->cap_miss && miss_grow(p))) {
		mt->miss_oom = 1;
		return;
	}
	i = miss_slot(p, ip >> 12);
	if (!p->miss_page[i]) {
		p->miss_page[i] = (ip >> 12) + 1;
		p->nmiss++;
	}
	if (t > p->miss_time[i])
		p->miss_time[i] = t;
	if (t > p->max_miss_time)
		p->max_miss_time = t;
}

int maptable__lookup(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip,
		     uint32_t *midx)
{
	int core = lookup(mt, pid, t, ip, midx);

	if (core < 0 && mt->track_misses)
		note_miss(mt, pid, t, ip);
	return core;
}

int maptable__peek(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip, uint32_t *midx)
{
	return lookup(mt, pid, t, ip, midx);
}

static int lookup(struct maptable *mt, uint32_t pid, uint64_t t, uint64_t ip, uint32_t *midx)
{
	const struct mt_proc *p = mt->last;

	if (!p || p->pid != pid) {
		p = proc_find(mt, pid, NULL);
		if (!p)
			return -1;
		mt->last = p;
	}
	for (int depth = 0; p && depth < MT_MAX_FORK_DEPTH; depth++) {
		int found, core = proc_lookup(p, t, ip, midx, &found);

		/* what it did not map itself: its parent's as of the fork, unless it exec'd since */
		if (found || p->ppid == p->pid || (p->has_exec && p->exec_time <= t))
			return core;
		/* Not mapped by the child itself: inherited from the parent at fork. */
		if (p->fork_time < t)
			t = p->fork_time;
		p = proc_find(mt, p->ppid, NULL);
	}
	return -1;
}

static int mapping_before(const struct attr_mapping *a, const struct attr_mapping *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static const struct attr_mapping *sort_base;

static int by_mapping_time(const void *a, const void *b)
{
	const struct attr_mapping *x = &sort_base[*(const uint32_t *)a];
	const struct attr_mapping *y = &sort_base[*(const uint32_t *)b];

	return mapping_before(x, y) ? -1 : mapping_before(y, x);
}

int maptable__order_mappings(struct maptable *mt, struct attr_result *res)
{
	uint32_t n = res->nmappings, *order, *rank;
	struct attr_mapping *sorted;
	int in_order = 1;

	for (uint32_t i = 1; i < n && in_order; i++)
		in_order = !mapping_before(&res->mappings[i], &res->mappings[i - 1]);
	if (in_order)
		return 0;
	order = malloc((size_t)n * sizeof(*order));
	rank = malloc((size_t)n * sizeof(*rank));
	sorted = malloc((size_t)n * sizeof(*sorted));
	if (!order || !rank || !sorted) {
		free(order);
		free(rank);
		free(sorted);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++)
		order[i] = i;
	sort_base = res->mappings;
	qsort(order, n, sizeof(*order), by_mapping_time);
	for (uint32_t i = 0; i < n; i++) {
		sorted[i] = res->mappings[order[i]];
		rank[order[i]] = i;
	}
	memcpy(res->mappings, sorted, (size_t)n * sizeof(*sorted));
	for (uint32_t p = 0; p < mt->nprocs; p++)
		for (uint32_t i = 0; i < mt->procs[p].nmaps; i++)
			if (mt->procs[p].maps[i].core >= 0)
				mt->procs[p].maps[i].mapping_idx = rank[mt->procs[p].maps[i].mapping_idx];
	free(order);
	free(rank);
	free(sorted);
	return 0;
}
