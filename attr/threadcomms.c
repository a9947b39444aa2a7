// SPDX-License-Identifier: MIT
/* Each thread's command over time (see threadcomms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "threadcomms.h"
#include "../perfdata/perfdata.h"
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

/* COMM and FORK records of path, in file order; 0 with *timed 0 when one has no time. */
static int collect(const char *path, struct rec **recs, size_t *n, int *timed, struct ap_err *err)
{
	struct perfdata *pd;
	struct pd_event ev;
	size_t cap = 0;
	int ret;

	*timed = 1;
	if (perfdata__open(path, 0, &pd, err))
		return -1;
	while ((ret = perfdata__next(pd, &ev, err)) > 0) {
		const union perf_event *e = ev.ev;
		struct rec r = { .seq = ev.seq };

		if (ev.hdr->type != PERF_RECORD_COMM && ev.hdr->type != PERF_RECORD_FORK)
			continue;
		if (!ev.has_sid || !ev.sid.has_time) {
			*timed = 0;
			break;
		}
		r.time = ev.sid.time;
		if (ev.hdr->type == PERF_RECORD_COMM) {
			r.tid = e->comm.tid;
			snprintf(r.comm, sizeof(r.comm), "%s", e->comm.comm);
		} else {
			r.fork = 1;
			r.tid = e->fork.tid;
			r.ptid = e->fork.ptid;
		}
		if (ap_push(recs, n, &cap, &r, sizeof(r))) {
			ret = ap_err_nomem(err);
			break;
		}
	}
	perfdata__close(pd);
	return ret < 0 ? -1 : 0;
}

int thread_comms__read(const char *path, struct thread_comms **out, struct ap_err *err)
{
	struct thread_comms *tc;
	struct rec *recs = NULL;
	size_t n = 0;
	int timed;

	*out = NULL;
	if (collect(path, &recs, &n, &timed, err)) {
		free(recs);
		return -1;
	}
	if (!timed) {
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
