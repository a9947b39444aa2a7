// SPDX-License-Identifier: MIT
/* The executable //anon mappings and per-process samples of a recording (anonmaps.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "anonmaps.h"
#include "comms.h"
#include "../util/array.h"

static int add_map(struct anon_census *c, const struct pd_event *ev, uint32_t pid,
		   uint64_t start, uint64_t len)
{
	struct anon_map m = { .pid = pid, .start = start, .len = len };

	if (ev->has_sid && ev->sid.has_time)
		m.time = ev->sid.time;
	for (size_t i = 0; i < c->nmaps; i++)
		if (c->maps[i].pid == pid && c->maps[i].start == start && c->maps[i].len == len)
			return 0;
	return ap_push(&c->maps, &c->nmaps, &c->cap_maps, &m, sizeof(m));
}

/*
 * The mapping of pid holding ip when the sample was taken: the newest one
 * mapped by then, else (no times, or a sample older than every mapping)
 * the newest in the file. A fork child runs in its parent's.
 */
static struct anon_map *map_of(struct anon_census *c, const struct attr_comms *comms,
			       uint32_t pid, uint64_t ip, const struct pd_sample_id *sid)
{
	for (int depth = 0; depth < 8 && pid; depth++) {
		const struct attr_comm *e = NULL;
		struct anon_map *any = NULL;

		for (size_t i = c->nmaps; i-- > 0;) {
			struct anon_map *m = &c->maps[i];

			if (m->pid != pid || ip - m->start >= m->len)
				continue;
			if (!sid->has_time || m->time <= sid->time)
				return m;
			if (!any)
				any = m;
		}
		if (any)
			return any;
		for (size_t i = 0; i < comms->n && !e; i++)
			if (comms->v[i].pid == pid)
				e = &comms->v[i];
		pid = e ? e->ppid : 0;
	}
	return NULL;
}

static int count_pid(struct anon_census *c, uint32_t pid)
{
	struct anon_pid add = { .pid = pid, .samples = 1 };

	for (size_t i = 0; i < c->npids; i++)
		if (c->pids[i].pid == pid) {
			c->pids[i].samples++;
			return 0;
		}
	return ap_push(&c->pids, &c->npids, &c->cap_pids, &add, sizeof(add));
}

/* Pass 1: the mappings and the processes' names and parents. */
static int on_map_record(struct anon_census *c, struct attr_comms *comms,
			 const struct pd_event *ev)
{
	const union perf_event *e = ev->ev;

	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
		if ((ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA) ||
		    strncmp(e->mmap.filename, "//anon", 6) || (int32_t)e->mmap.pid <= 0)
			return 0;
		return add_map(c, ev, e->mmap.pid, e->mmap.start, e->mmap.len);
	case PERF_RECORD_MMAP2:
		if (!(e->mmap2.prot & PROT_EXEC) || strncmp(e->mmap2.filename, "//anon", 6) ||
		    (int32_t)e->mmap2.pid <= 0)
			return 0;
		return add_map(c, ev, e->mmap2.pid, e->mmap2.start, e->mmap2.len);
	case PERF_RECORD_COMM:
		return attr_comms__comm(comms, e->comm.pid, e->comm.tid, e->comm.comm);
	case PERF_RECORD_FORK:
		return attr_comms__fork(comms, e->fork.pid, e->fork.ppid);
	}
	return 0;
}

/* Pass 2: each sample to its process and to the mapping it lies in. */
static int on_sample_record(struct anon_census *c, struct attr_comms *comms,
			    const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	struct anon_map *m;

	if (ev->hdr->type != PERF_RECORD_SAMPLE || !s->sid.has_tid)
		return 0;
	c->samples++;
	m = s->has_ip ? map_of(c, comms, s->sid.pid, s->ip, &s->sid) : NULL;
	if (m)
		m->samples++;
	return count_pid(c, s->sid.pid);
}

/* Both passes as one tool of the session: the mappings first, then the samples. */
struct census {
	struct session_tool tool;	/* first: the session hands it back */
	struct anon_census *c;
	struct attr_comms comms;
};

static int census_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct census *cs = (struct census *)t;
	int r = t->pass ? on_sample_record(cs->c, &cs->comms, ev) :
			  on_map_record(cs->c, &cs->comms, ev);

	return r ? ap_err_nomem(err) : 0;
}

static int by_samples_map(const void *a, const void *b)
{
	const struct anon_map *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->pid != y->pid ? (x->pid < y->pid ? -1 : 1) : (x->start > y->start) - (x->start < y->start);
}

static int by_samples_pid(const void *a, const void *b)
{
	const struct anon_pid *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int anon_census__read(struct session *s, struct anon_census *c, struct ap_err *err)
{
	struct census cs = { .tool = { .record = census_record, .pass_end = session_tool__twice },
			     .c = c };
	struct session_tool *t = &cs.tool;
	struct attr_comms comms;
	int r;

	memset(c, 0, sizeof(*c));
	if (session__stream(s))
		return ap_errf(err, "%s: a stream cannot be read twice", session__path(s));
	r = session__process(s, &t, 1, err);
	comms = cs.comms;
	if (!r) {
		for (size_t i = 0; i < c->nmaps; i++)
			snprintf(c->maps[i].comm, sizeof(c->maps[i].comm), "%s",
				 attr_comms__get(&comms, c->maps[i].pid));
		for (size_t i = 0; i < c->npids; i++)
			snprintf(c->pids[i].comm, sizeof(c->pids[i].comm), "%s",
				 attr_comms__get(&comms, c->pids[i].pid));
		if (c->nmaps)
			qsort(c->maps, c->nmaps, sizeof(*c->maps), by_samples_map);
		if (c->npids)
			qsort(c->pids, c->npids, sizeof(*c->pids), by_samples_pid);
	}
	attr_comms__exit(&comms);
	if (r)
		anon_census__exit(c);
	return r;
}

void anon_census__exit(struct anon_census *c)
{
	free(c->maps);
	free(c->pids);
	memset(c, 0, sizeof(*c));
}
