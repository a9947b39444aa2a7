// SPDX-License-Identifier: MIT
/*
 * The event names perf stores in HEADER_EVENT_DESC and
 * PERF_RECORD_EVENT_UPDATE, given to the attrs they name (attrs.c).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Replace attr idx's name with at most max bytes of name (NUL or not). */
int pd__set_name(struct perfdata *pd, size_t idx, const char *name, size_t max)
{
	char *s;

	if (idx >= pd->nattrs)
		return 0;
	s = strndup(name, max);
	if (!s)
		return -1;
	free(pd->attrs[idx].name);
	pd->attrs[idx].name = s;
	return 0;
}

/* Bounded cursor over a feature section. */
struct pd_cur {
	const char *p;
	size_t left;
};

static int cur_take(struct pd_cur *c, void *dst, size_t n)
{
	if (n > c->left)
		return -1;
	if (dst)
		memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
	return 0;
}

static int desc_one(struct perfdata *pd, struct pd_cur *c, uint32_t attr_sz,
		    uint32_t i, uint32_t nre)
{
	uint32_t nids, len;
	const char *name;
	uint64_t id;
	int idx;

	if (cur_take(c, NULL, attr_sz) || cur_take(c, &nids, 4) ||
	    cur_take(c, &len, 4))
		return -1;
	name = c->p;
	if (cur_take(c, NULL, len) || (uint64_t)nids * 8 > c->left)
		return -1;
	/* Match by the first id, as perf does; by position when there are none. */
	if (nids) {
		memcpy(&id, c->p, sizeof(id));
		idx = perfdata__evsel_of_id(pd, id);
	} else {
		idx = nre == pd->nattrs ? (int)i : -1;
	}
	c->p += (size_t)nids * 8;
	c->left -= (size_t)nids * 8;
	if (idx >= 0 && len && pd__set_name(pd, (size_t)idx, name, len))
		return -2;
	return 0;
}

/*
 * Parse a HEADER_EVENT_DESC payload: u32 nr, u32 attr_size, then per event
 * the attr, u32 nr_ids, a string (u32 len + padded bytes) and the ids.
 * A malformed section just leaves names alone; -1 only on ENOMEM.
 */
int pd__event_desc(struct perfdata *pd, const char *buf, size_t len)
{
	struct pd_cur c = { buf, len };
	uint32_t nre, attr_sz, i;

	if (cur_take(&c, &nre, 4) || cur_take(&c, &attr_sz, 4))
		return 0;
	for (i = 0; i < nre; i++) {
		int r = desc_one(pd, &c, attr_sz, i, nre);

		if (r == -2)
			return -1;
		if (r)
			break;
	}
	return 0;
}

/* PERF_RECORD_EVENT_UPDATE: only the NAME kind matters to us. */
int pd__event_update(struct perfdata *pd, const union perf_event *ev)
{
	const struct perf_record_event_update *u = &ev->event_update;
	size_t off = offsetof(struct perf_record_event_update, name);
	int idx;

	if (ev->header.size <= off || u->type != PERF_EVENT_UPDATE__NAME)
		return 0;
	idx = perfdata__evsel_of_id(pd, u->id);
	if (idx < 0)
		return 0;
	return pd__set_name(pd, (size_t)idx, u->name, ev->header.size - off);
}
