// SPDX-License-Identifier: MIT
/* Time order for a stream read once (reorder.h). */
#include <stdlib.h>
#include <string.h>
#include "reorder.h"
#include "../util/array.h"

struct reorder_ent {
	uint64_t time, seq;
	size_t off, size;	/* its record in buf, its size rounded up to 8 */
	struct pd_event ev;	/* its pointers into the record's first place: moved, not read */
};

/* A pointer into the record at old, moved to the copy at new. */
static const void *moved(const void *p, const void *old, const void *new)
{
	return p ? (const char *)new + ((const char *)p - (const char *)old) : NULL;
}

int reorder__push(struct reorder *q, const struct pd_event *ev, uint64_t t)
{
	size_t size = (ev->hdr->size + 7u) & ~(size_t)7;
	struct reorder_ent *e;

	if (ap_grow(&q->ents, &q->cap, q->n + 1, sizeof(*q->ents)) ||
	    ap_grow(&q->buf, &q->bcap, q->len + size, 1))
		return -1;
	e = &q->ents[q->n++];
	e->time = t;
	e->seq = ev->seq;
	e->off = q->len;
	e->size = size;
	e->ev = *ev;
	memcpy(q->buf + q->len, ev->hdr, ev->hdr->size);
	q->len += size;
	if (t > q->newest)
		q->newest = t;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct reorder_ent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Hand out the k oldest (sorted) entries; keep the rest, their bytes moved to the front. */
static int hand_out(struct reorder *q, size_t k, reorder_fn fn, void *ctx)
{
	char *nbuf = NULL;
	size_t nlen = 0;

	for (size_t i = 0; i < k; i++) {
		struct reorder_ent *e = &q->ents[i];
		const void *old = e->ev.hdr, *rec = q->buf + e->off;
		struct pd_event ev = e->ev;
		struct pd_sample *s = &ev.sample;

		ev.hdr = rec;
		ev.ev = rec;
		s->callchain = moved(s->callchain, old, rec);
		s->regs_user = moved(s->regs_user, old, rec);
		s->raw = moved(s->raw, old, rec);
		s->stack_user = moved(s->stack_user, old, rec);
		if (fn(ctx, &ev))
			return -1;
	}
	if (k < q->n) {
		size_t bytes = 0;

		for (size_t i = k; i < q->n; i++)
			bytes += q->ents[i].size;
		nbuf = malloc(bytes);
		if (!nbuf)
			return -1;
		for (size_t i = k; i < q->n; i++) {
			struct reorder_ent *e = &q->ents[i];

			memcpy(nbuf + nlen, q->buf + e->off, e->size);
			e->off = nlen;
			nlen += e->size;
		}
		memmove(q->ents, q->ents + k, (q->n - k) * sizeof(*q->ents));
	}
	free(q->buf);
	q->buf = nbuf;
	q->bcap = nlen;
	q->len = nlen;
	q->n -= k;
	return 0;
}

/* Sort, then hand out every entry up to time upto. */
static int flush(struct reorder *q, uint64_t upto, reorder_fn fn, void *ctx)
{
	size_t k = 0;

	if (q->n > 1)
		qsort(q->ents, q->n, sizeof(*q->ents), by_time);
	while (k < q->n && q->ents[k].time <= upto)
		k++;
	return k ? hand_out(q, k, fn, ctx) : 0;
}

int reorder__round(struct reorder *q, reorder_fn fn, void *ctx)
{
	uint64_t upto = q->round_newest;

	q->round_newest = q->newest;
	return flush(q, upto, fn, ctx);
}

int reorder__trim(struct reorder *q, reorder_fn fn, void *ctx)
{
	if (q->len < REORDER_MAX_BYTES)
		return 0;
	if (q->n > 1)
		qsort(q->ents, q->n, sizeof(*q->ents), by_time);
	return hand_out(q, q->n / 2, fn, ctx);
}

int reorder__drain(struct reorder *q, reorder_fn fn, void *ctx)
{
	return flush(q, UINT64_MAX, fn, ctx);
}

void reorder__exit(struct reorder *q)
{
	free(q->ents);
	free(q->buf);
	memset(q, 0, sizeof(*q));
}
