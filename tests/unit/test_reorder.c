// SPDX-License-Identifier: MIT
/*
 * attr/reorder.h: records queued out of time order come out sorted once a
 * round makes them final (up to the previous round's newest time), the
 * rest at the end; a sample's pointers follow its record's copy; over the
 * byte limit the oldest half goes out.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "attr/reorder.h"

struct got {
	uint64_t t[4096];
	size_t n;
	int bad_ptr;
};

static int take(void *ctx, const struct pd_event *ev)
{
	struct got *g = ctx;
	const uint64_t *body = (const uint64_t *)(const void *)(ev->hdr + 1);

	/* the record's own time, and its raw pointer into the same copy */
	if (ev->sample.raw != (const uint8_t *)(body + 1) || body[1] != body[0] + 1)
		g->bad_ptr++;
	if (g->n < 4096)
		g->t[g->n++] = body[0];
	return 0;
}

/* A sample record at time t: [header][t][t + 1], raw pointing at the second. */
static void push(struct reorder *q, uint64_t t, uint64_t seq, size_t size)
{
	static uint64_t rec[8192];
	struct pd_event ev;

	memset(&ev, 0, sizeof(ev));
	memset(rec, 0, size);
	rec[0] = (uint64_t)PERF_RECORD_SAMPLE | (uint64_t)size << 48;
	rec[1] = t;
	rec[2] = t + 1;
	ev.hdr = (const struct perf_event_header *)(const void *)rec;
	ev.ev = (const union perf_event *)(const void *)rec;
	ev.seq = seq;
	ev.sample.raw = (const uint8_t *)&rec[2];
	CHECK(reorder__push(q, &ev, t) == 0);
	memset(rec, 0xff, size);	/* the reader's window moves on */
}

int main(void)
{
	struct reorder q = { 0 };
	static struct got g;
	uint64_t seq = 0;
	size_t i;

	/* round 1: two CPUs one after the other */
	push(&q, 30, seq++, 24);
	push(&q, 10, seq++, 24);
	push(&q, 20, seq++, 24);
	CHECK(reorder__round(&q, take, &g) == 0);
	CHECK_EQ_U64(g.n, 0);		/* nothing final after the first round */
	push(&q, 25, seq++, 24);
	push(&q, 40, seq++, 24);
	CHECK(reorder__round(&q, take, &g) == 0);	/* final: up to 30 */
	CHECK_EQ_U64(g.n, 4);
	CHECK(g.t[0] == 10 && g.t[1] == 20 && g.t[2] == 25 && g.t[3] == 30);
	CHECK(reorder__drain(&q, take, &g) == 0);
	CHECK_EQ_U64(g.n, 5);
	CHECK_EQ_U64(g.t[4], 40);
	CHECK_EQ_U64(g.bad_ptr, 0);
	CHECK_EQ_U64(q.n, 0);

	/* past the limit: the oldest half goes out, in order */
	g.n = 0;
	for (i = 0; i < (REORDER_MAX_BYTES / 65528) + 1; i++) {
		push(&q, 1000000 - i, seq++, 65528);
		CHECK(reorder__trim(&q, take, &g) == 0);
	}
	CHECK(g.n > 0 && q.len < REORDER_MAX_BYTES);
	for (i = 1; i < g.n; i++)
		CHECK(g.t[i - 1] < g.t[i]);
	CHECK(reorder__drain(&q, take, &g) == 0);
	CHECK_EQ_U64(g.bad_ptr, 0);
	reorder__exit(&q);
	CHECK_DONE();
}
