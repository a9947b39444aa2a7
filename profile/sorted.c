// SPDX-License-Identifier: MIT
/* The samples by perf report --sort's keys (see sorted.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sorted.h"
#include "../util/array.h"

static int64_t comm_index(struct profile_sorted *s, const char *comm)
{
	char name[16];

	for (size_t i = s->ncomms; i-- > 0;)	/* few commands: the newest first */
		if (!strncmp(s->comms[i], comm, sizeof(name) - 1))
			return (int64_t)i;
	snprintf(name, sizeof(name), "%s", comm);
	if (ap_push(&s->comms, &s->ncomms, &s->cap_comms, name, sizeof(name)))
		return -1;
	return (int64_t)s->ncomms - 1;
}

static uint64_t row_hash(const struct sorted_row *r)
{
	uint64_t v[] = { (uint64_t)(int64_t)r->core, r->func, (uint64_t)r->frame, r->pid, r->tid,
			 r->cpu, r->comm };
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = (h ^ v[i]) * 0x100000001b3ULL;
	return h;
}

static int same(const struct sorted_row *a, const struct sorted_row *b)
{
	return a->core == b->core && a->func == b->func && a->frame == b->frame &&
	       a->pid == b->pid && a->tid == b->tid && a->cpu == b->cpu && a->comm == b->comm;
}

int profile_sorted__add(struct profile_sorted *s, int core, uint32_t func, int64_t frame,
			const struct pd_sample_id *sid, const char *comm)
{
	int64_t c = comm_index(s, comm ? comm : "");
	struct sorted_row r = {
		.core = core, .func = core >= 0 ? func : 0, .frame = core >= 0 ? -1 : frame,
		.pid = sid->pid, .tid = sid->tid, .cpu = sid->has_cpu ? sid->cpu : UINT32_MAX,
	};
	uint64_t h;
	uint32_t at;

	if (c < 0)
		return -1;
	r.comm = (uint32_t)c;
	h = row_hash(&r);
	if (u64map__get(&s->ix, h, &at) && same(&s->rows[at], &r)) {
		s->rows[at].samples++;
		return 0;
	}
	for (size_t i = 0; i < s->n; i++) {	/* a hash collision: rare, look it up by hand */
		if (same(&s->rows[i], &r)) {
			s->rows[i].samples++;
			return 0;
		}
	}
	r.samples = 1;
	if (ap_push(&s->rows, &s->n, &s->cap, &r, sizeof(r)))
		return -1;
	return u64map__put(&s->ix, h, (uint32_t)(s->n - 1));
}

void profile_sorted__reset(struct profile_sorted *s)
{
	s->n = 0;
	u64map__exit(&s->ix);
}

void profile_sorted__delete(struct profile_sorted *s)
{
	if (!s)
		return;
	free(s->rows);
	free(s->comms);
	u64map__exit(&s->ix);
	free(s);
}
