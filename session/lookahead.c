// SPDX-License-Identifier: MIT
/* The records that introduce a thread, taken ahead of their place (lookahead.h). */
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include "lookahead.h"
#include "../util/array.h"
#include "../util/search.h"

#define RECORD_FINISHED_ROUND 68
#define RECORD_COMPRESSED 81
/*
 * The walks' bytes together: an eighth of the file, and 16 MiB or the file
 * once more if smaller (a second read costs all of it).
 */
#define LOOKAHEAD_BUDGET (16u << 20)

struct found {
	uint64_t time, off;	/* off: the copy's place in bytes */
	struct pd_event ev;
};

struct taken {
	uint64_t off;
	uint32_t walk;
};

struct lookahead {
	struct pd_peek *pk;
	uint64_t budget;
	/* the threads known: open addressing, tid + 1 as the key */
	uint64_t *tids;
	uint32_t ntids, cap_tids;
	uint32_t last;		/* the tid asked last, known */
	int has_last;
	/* records handed out ahead: file offset and walk, sorted by offset */
	struct taken *taken;
	size_t ntaken, cap_taken;
	/* the last walk's finds, their records copied into bytes: kept for its replays */
	struct found *found;
	size_t nfound, cap_found;
	char *bytes;
	size_t nbytes, cap_bytes;
	uint32_t nwalks;	/* walks so far; the last is nwalks - 1 */
	uint64_t last_from;	/* where the last walk started */
	uint64_t handed;
};

int lookahead__new(struct perfdata *pd, struct lookahead **out)
{
	struct lookahead *la;
	struct pd_layout l;
	int r;

	*out = NULL;
	la = calloc(1, sizeof(*la));
	if (!la)
		return -1;
	r = perfdata__peek_new(pd, &la->pk);
	if (r <= 0) {
		free(la);
		return r;
	}
	la->budget = LOOKAHEAD_BUDGET;
	if (!perfdata__layout(pd, &l))
		la->budget = l.file_size / 8 + (l.file_size < la->budget ? l.file_size : la->budget);
	*out = la;
	return 0;
}

void lookahead__delete(struct lookahead *la)
{
	if (!la)
		return;
	perfdata__peek_delete(la->pk);
	free(la->tids);
	free(la->taken);
	free(la->found);
	free(la->bytes);
	free(la);
}

static uint32_t tid_slot(const struct lookahead *la, uint32_t tid)
{
	uint32_t i = (uint32_t)(((uint64_t)tid * 0x9e3779b97f4a7c15ULL) >> 32) & (la->cap_tids - 1);

	while (la->tids[i] && la->tids[i] != (uint64_t)tid + 1)
		i = (i + 1) & (la->cap_tids - 1);
	return i;
}

int lookahead__known(struct lookahead *la, uint32_t tid)
{
	if (la->has_last && la->last == tid)
		return 1;
	if (!la->cap_tids || !la->tids[tid_slot(la, tid)])
		return 0;
	la->last = tid;
	la->has_last = 1;
	return 1;
}

static int tids_grow(struct lookahead *la)
{
	uint32_t cap = la->cap_tids ? la->cap_tids * 2 : 64, old_cap = la->cap_tids;
	uint64_t *old = la->tids;

	la->tids = calloc(cap, sizeof(*la->tids));
	if (!la->tids) {
		la->tids = old;
		return -1;
	}
	la->cap_tids = cap;
	for (uint32_t i = 0; i < old_cap; i++)
		if (old[i])
			la->tids[tid_slot(la, (uint32_t)(old[i] - 1))] = old[i];
	free(old);
	return 0;
}

int lookahead__introduce(struct lookahead *la, uint32_t tid)
{
	uint32_t i;

	if (lookahead__known(la, tid))
		return 0;
	if ((la->ntids + 1) * 2 > la->cap_tids && tids_grow(la))
		return -1;
	i = tid_slot(la, tid);
	la->tids[i] = (uint64_t)tid + 1;
	la->ntids++;
	return 0;
}

/*
 * A record that shapes processes (command, fork, executable mapping) with
 * a time to order it by. Any of them older than the sample is taken, not
 * only the new process's: a child inherits its parent's mappings, and a
 * parent's exec and mappings can come as late as the child's fork.
 */
static int shapes_processes(const struct pd_event *ev)
{
	if (!ev->has_sid || !ev->sid.has_time)
		return 0;
	switch (ev->hdr->type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return 1;
	}
	return 0;
}

static int keep_found(struct lookahead *la, const struct pd_event *ev)
{
	size_t size = (ev->hdr->size + 7u) & ~(size_t)7;
	struct found *f;

	if (ap_grow(&la->found, &la->cap_found, la->nfound + 1, sizeof(*la->found)) ||
	    ap_grow(&la->bytes, &la->cap_bytes, la->nbytes + size, 1))
		return -1;
	f = &la->found[la->nfound++];
	f->time = ev->sid.time;
	f->off = la->nbytes;
	f->ev = *ev;
	memcpy(la->bytes + la->nbytes, ev->hdr, ev->hdr->size);
	la->nbytes += size;
	return 0;
}

/* Time order; the file's order among equal times. */
static int by_time(const void *a, const void *b)
{
	const struct found *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->ev.file_offset < y->ev.file_offset ? -1 : x->ev.file_offset > y->ev.file_offset;
}

static int by_offset(const void *a, const void *b)
{
	uint64_t x = ((const struct taken *)a)->off, y = ((const struct taken *)b)->off;

	return x < y ? -1 : x > y;
}

/* The entry for file offset off, or NULL. */
static const struct taken *taken_at(const struct lookahead *la, uint64_t off)
{
	size_t i = ap_search__lower(la->taken, la->ntaken, AP_SEARCH_FIELD(la->taken, off), off);

	return i < la->ntaken && la->taken[i].off == off ? &la->taken[i] : NULL;
}

/* Walk from `from` to the end of the next round (or the budget): the records up to t. */
static int walk(struct lookahead *la, uint64_t from, uint64_t t, struct ap_err *err)
{
	uint64_t at = from, start = perfdata__peek_bytes(la->pk), used;
	struct pd_event ev;
	int rounds = 0, r = 0;

	while (rounds < 2 && perfdata__peek_bytes(la->pk) - start <= la->budget &&
	       (r = perfdata__peek(la->pk, &at, &ev, err)) > 0) {
		if (ev.hdr->type == RECORD_FINISHED_ROUND)
			rounds++;
		else if (ev.hdr->type == RECORD_COMPRESSED)
			break;	/* records inside it are not walked: the one pass checks as before */
		/* one an earlier walk took is not taken twice */
		else if (shapes_processes(&ev) && ev.sid.time <= t &&
			 !taken_at(la, ev.file_offset) && keep_found(la, &ev))
			return ap_err_nomem(err);
	}
	if (r < 0)
		return -1;
	used = perfdata__peek_bytes(la->pk) - start;
	la->budget = used >= la->budget ? 0 : la->budget - used;
	return 0;
}

/* The last walk's finds to fn, in time order, each with stream position seq. */
static int hand_out(const struct lookahead *la, uint64_t seq, lookahead_fn fn, void *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < la->nfound && !ret; i++) {
		struct pd_event ev = la->found[i].ev;

		ev.hdr = (const void *)(la->bytes + la->found[i].off);
		ev.ev = (const void *)ev.hdr;
		ev.seq = seq;
		ret = fn(ctx, &ev);
	}
	return ret;
}

/* A walk for tid from `from`: its finds kept, marked taken, handed to fn. */
static int walk_for(struct lookahead *la, struct lookahead_seen *seen, uint64_t from, uint64_t t,
		    uint64_t seq, lookahead_fn fn, void *ctx, struct ap_err *err)
{
	uint32_t id = la->nwalks;

	la->nfound = la->nbytes = 0;
	la->nwalks++;
	la->last_from = from;
	seen->hi = la->nwalks;
	if (walk(la, from, t, err) ||
	    (la->nfound && ap_grow(&la->taken, &la->cap_taken, la->ntaken + la->nfound,
				   sizeof(*la->taken)) && ap_err_nomem(err))) {
		/* a failed walk hands nothing, nor does its replay: none is marked taken */
		la->nfound = 0;
		return -1;
	}
	if (la->nfound > 1)
		qsort(la->found, la->nfound, sizeof(*la->found), by_time);
	for (size_t i = 0; i < la->nfound; i++)
		la->taken[la->ntaken++] = (struct taken){ la->found[i].ev.file_offset, id };
	la->handed += la->nfound;
	if (la->nfound)
		qsort(la->taken, la->ntaken, sizeof(*la->taken), by_offset);
	return hand_out(la, seq, fn, ctx);
}

void lookahead__join(const struct lookahead *la, struct lookahead_seen *seen)
{
	seen->lo = seen->hi = la->nwalks;
}

int lookahead__at(struct lookahead *la, struct lookahead_seen *seen, uint32_t tid, uint64_t from,
		  uint64_t t, uint64_t seq, lookahead_fn fn, void *ctx, struct ap_err *err)
{
	/* another reader walked at this record: the same finds, no second walk */
	if (la->nwalks && la->last_from == from && seen->hi + 1 == la->nwalks) {
		seen->hi = la->nwalks;
		return hand_out(la, seq, fn, ctx);
	}
	if (lookahead__known(la, tid))
		return 0;
	if (lookahead__introduce(la, tid))
		return ap_err_nomem(err);
	if (!la->budget)
		return 0;
	/* a walk this reader did not get: its records would be skipped unseen */
	if (seen->hi != la->nwalks)
		return ap_errf(err, "a walk ahead was missed");
	return walk_for(la, seen, from, t, seq, fn, ctx, err);
}

int lookahead__taken(const struct lookahead *la, const struct lookahead_seen *seen, uint64_t off)
{
	const struct taken *tk = taken_at(la, off);

	return tk && tk->walk >= seen->lo && tk->walk < seen->hi;
}

void lookahead__stats(const struct lookahead *la, uint64_t *taken, uint64_t *bytes)
{
	if (taken)
		*taken = la->handed;
	if (bytes)
		*bytes = perfdata__peek_bytes(la->pk);
}
