// SPDX-License-Identifier: MIT
/* Each thread's command over time (see threadcomms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "threadcomms.h"
#include "../util/array.h"

#define COMM_LEN 16	/* perf's TASK_COMM_LEN */

struct rec {			/* a COMM or FORK record */
	uint64_t time, seq;
	uint32_t tid, ptid;	/* ptid: FORK's parent thread */
	int fork;
	char comm[COMM_LEN];
};

struct entry {			/* tid is named comm from time on */
	uint32_t tid;
	uint64_t time, seq;
	char comm[COMM_LEN];
};

struct thread_comms {
	struct entry *v;
	size_t n, cap;
};

static int rec_cmp(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* While replaying in time order: the newest entry of tid so far (entries are in time order). */
static const char *latest(const struct thread_comms *tc, uint32_t tid)
{
	for (size_t i = tc->n; i-- > 0;)
		if (tc->v[i].tid == tid)
			return tc->v[i].comm;
	return NULL;
}

/* The COMM and FORK records of a pass, in file order; untimed when one has no time. */
struct collect {
	struct session_tool tool;	/* first: the session hands it back */
	struct rec *recs;
	size_t n, cap;
	int untimed;
};

static int collect_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct collect *c = (struct collect *)t;
	const union perf_event *e = ev->ev;
	struct rec r = { .seq = ev->seq };

	if (ev->hdr->type != PERF_RECORD_COMM && ev->hdr->type != PERF_RECORD_FORK)
		return 0;
	if (!ev->has_sid || !ev->sid.has_time) {
		c->untimed = 1;
		return 1;	/* the rest is of no use */
	}
	r.time = ev->sid.time;
	if (ev->hdr->type == PERF_RECORD_COMM) {
		r.tid = e->comm.tid;
		snprintf(r.comm, sizeof(r.comm), "%s", e->comm.comm);
	} else {
		r.fork = 1;
		r.tid = e->fork.tid;
		r.ptid = e->fork.ptid;
	}
	return ap_push(&c->recs, &c->n, &c->cap, &r, sizeof(r)) ? ap_err_nomem(err) : 0;
}

int thread_comms__read(struct session *s, struct thread_comms **out, struct ap_err *err)
{
	struct collect c = { .tool = { .record = collect_record, .needs = 0 } };
	struct session_tool *t = &c.tool;
	struct thread_comms *tc;
	struct rec *recs;
	size_t n;

	*out = NULL;
	if (session__process(s, &t, 1, err)) {
		free(c.recs);
		return -1;
	}
	recs = c.recs;
	n = c.n;
	if (c.untimed) {
		free(recs);
		return 0;
	}
	tc = calloc(1, sizeof(*tc));
	if (!tc) {
		free(recs);
		return ap_err_nomem(err);
	}
	if (n)
		qsort(recs, n, sizeof(*recs), rec_cmp);
	for (size_t i = 0; i < n; i++) {
		const char *comm = recs[i].fork ? latest(tc, recs[i].ptid) : recs[i].comm;
		struct entry e = { recs[i].tid, recs[i].time, recs[i].seq, "" };

		if (!comm)
			continue;	/* a parent never named: the child waits for its own */
		snprintf(e.comm, sizeof(e.comm), "%s", comm);
		if (ap_push(&tc->v, &tc->n, &tc->cap, &e, sizeof(e))) {
			free(recs);
			thread_comms__delete(tc);
			return ap_err_nomem(err);
		}
	}
	free(recs);
	if (tc->n)
		qsort(tc->v, tc->n, sizeof(*tc->v), entry_cmp);
	*out = tc;
	return 0;
}

const char *thread_comms__at(const struct thread_comms *tc, uint32_t tid, uint64_t t)
{
	size_t lo = 0, hi = tc->n;

	/* the first entry after (tid, t); the one before it, if tid's, names the thread */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct entry *e = &tc->v[mid];

		if (e->tid < tid || (e->tid == tid && e->time <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo && tc->v[lo - 1].tid == tid ? tc->v[lo - 1].comm : "";
}

void thread_comms__delete(struct thread_comms *tc)
{
	if (!tc)
		return;
	free(tc->v);
	free(tc);
}
