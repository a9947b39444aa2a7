// SPDX-License-Identifier: MIT
/*
 * Attrs and the sample id -> attr map (perf's id_pos / is_pos rules).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static void idmap_insert(struct pd_idmap *m, uint64_t id, uint32_t val)
{
	size_t i;

	for (i = pd__idmap_slot(id, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == id)
			return;		/* first owner wins */
	}
	m->keys[i] = id;
	m->vals[i] = val;
	m->n++;
}

static int idmap_grow(struct pd_idmap *m, size_t want)
{
	struct pd_idmap n = { 0 };
	size_t i;

	if (want * 2 <= m->cap)
		return 0;
	n.cap = m->cap ? m->cap : 16;
	while (n.cap < want * 2)
		n.cap *= 2;
	n.keys = calloc(n.cap, sizeof(*n.keys));
	n.vals = calloc(n.cap, sizeof(*n.vals));
	if (!n.keys || !n.vals) {
		free(n.keys);
		free(n.vals);
		return -1;
	}
	for (i = 0; i < m->cap; i++) {
		if (m->vals[i])
			idmap_insert(&n, m->keys[i], m->vals[i]);
	}
	free(m->keys);
	free(m->vals);
	*m = n;
	return 0;
}

static void idmap_free(struct pd_idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* Where the id sits in a sample (from the start), as perf computes it. */
static int calc_id_pos(uint64_t t)
{
	int pos = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(t & PERF_SAMPLE_ID))
		return -1;
	pos += !!(t & PERF_SAMPLE_IP);
	pos += !!(t & PERF_SAMPLE_TID);
	pos += !!(t & PERF_SAMPLE_TIME);
	pos += !!(t & PERF_SAMPLE_ADDR);
	return pos;
}

/* Where the id sits in a sample_id trailer, counted from its end (1 = last). */
static int calc_is_pos(uint64_t t)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(t & PERF_SAMPLE_ID))
		return 0;
	return 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
}

static void update_id_pos(struct perfdata *pd)
{
	uint64_t t = pd->nattrs ? pd->attrs[0].attr.sample_type : 0;

	/* perf takes the positions from the first event; so do we. */
	pd->id_pos = calc_id_pos(t);
	pd->is_pos = calc_is_pos(t);
	pd->last_idx = -2;	/* the attrs changed: look ids up again */
}

/*
 * Add an attr: attr_size bytes of an on-disk perf_event_attr (copied up to
 * our size, the rest zeroed) and its ids (copied). Returns the index, -1 on
 * allocation failure.
 */
int pd__add_attr(struct perfdata *pd, const void *attr, size_t attr_size,
		 const uint64_t *ids, size_t nids)
{
	struct pd_evsel *a;
	size_t i;

	if (nids > UINT32_MAX || pd->nattrs >= PD_MAX_ATTRS)
		return -1;
	if (pd->nattrs == pd->cattrs) {
		size_t n = pd->cattrs ? pd->cattrs * 2 : 4;
		struct pd_evsel *na = realloc(pd->attrs, n * sizeof(*na));
		struct pd_sid_layout *nl;

		if (!na)
			return -1;
		pd->attrs = na;
		nl = realloc(pd->sidl, n * sizeof(*nl));
		if (!nl)
			return -1;
		pd->sidl = nl;
		pd->cattrs = n;
	}
	a = &pd->attrs[pd->nattrs];
	memset(a, 0, sizeof(*a));
	memcpy(&a->attr, attr, pd__min(attr_size, sizeof(a->attr)));
	if (nids) {
		a->ids = malloc(nids * sizeof(*a->ids));
		if (!a->ids)
			return -1;
		memcpy(a->ids, ids, nids * sizeof(*a->ids));
	}
	a->nids = (uint32_t)nids;
	a->name = strdup(pd__builtin_name(&a->attr));
	if (!a->name || idmap_grow(&pd->ids, pd->ids.n + nids)) {
		free(a->ids);
		free(a->name);
		return -1;
	}
	for (i = 0; i < nids; i++)
		idmap_insert(&pd->ids, a->ids[i], (uint32_t)pd->nattrs + 1);
	pd__sid_layout(a->attr.sample_type, a->attr.sample_id_all, &pd->sidl[pd->nattrs]);
	pd->nattrs++;
	update_id_pos(pd);
	return (int)pd->nattrs - 1;
}

/* Forget attrs past the first keep (pipe-mode attrs before a rewind). */
void pd__drop_attrs(struct perfdata *pd, size_t keep)
{
	size_t i, j;

	if (keep >= pd->nattrs)
		return;
	for (i = keep; i < pd->nattrs; i++) {
		free(pd->attrs[i].ids);
		free(pd->attrs[i].name);
	}
	pd->nattrs = keep;
	idmap_free(&pd->ids);
	for (i = 0; i < keep; i++) {
		const struct pd_evsel *a = &pd->attrs[i];

		/* Shrinking cannot need more room than before. */
		if (idmap_grow(&pd->ids, pd->ids.n + a->nids))
			break;
		for (j = 0; j < a->nids; j++)
			idmap_insert(&pd->ids, a->ids[j], (uint32_t)i + 1);
	}
	update_id_pos(pd);
}

void pd__free_attrs(struct perfdata *pd)
{
	pd__drop_attrs(pd, 0);
	free(pd->attrs);
	free(pd->sidl);
	pd->attrs = NULL;
	pd->sidl = NULL;
	pd->cattrs = 0;
}

int perfdata__evsel_of_id(const struct perfdata *pd, uint64_t id)
{
	if (pd->nattrs == 1)
		return 0;
	return pd__idmap_get(&pd->ids, id);
}
