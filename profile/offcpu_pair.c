// SPDX-License-Identifier: MIT
/* Pairing a thread's held switches into off-CPU intervals (offcpu_pair.h). */
#include <stdlib.h>
#include <string.h>
#include "offcpu_pair.h"
#include "../util/array.h"

static int hold(struct oc_held *h, uint64_t time, uint32_t key, enum oc_kind kind)
{
	struct oc_switch sw;

	if (!h->n)
		h->seq = 0;	/* nothing held: arrival order starts over */
	sw = (struct oc_switch){ time, key, h->seq++, (uint8_t)kind };

	return ap_push(&h->sw, &h->n, &h->cap, &sw, sizeof(sw));
}

int oc_held__add(struct oc_held *h, uint64_t time, uint32_t key, int out)
{
	return hold(h, time, key, out ? OC_SWITCH_OUT : OC_SWITCH_IN);
}

int oc_held__add_sc(struct oc_held *h, uint64_t time, uint32_t nr, int enter)
{
	return hold(h, time, enter ? nr : OC_HELD_NO_KEY, enter ? OC_SC_ENTER : OC_SC_EXIT);
}

static int by_time(const void *a, const void *b)
{
	const struct oc_switch *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * Sorted by time, equal times in arrival order. Usually sorted already, or
 * runs of one CPU's buffer each: a round can hold a whole run's switches,
 * so not an insertion sort.
 */
static void sort_by_time(struct oc_held *h)
{
	for (size_t i = 1; i < h->n; i++) {
		if (by_time(&h->sw[i - 1], &h->sw[i]) > 0) {
			qsort(h->sw, h->n, sizeof(h->sw[0]), by_time);
			return;
		}
	}
}

int oc_held__drain(struct oc_held *h, uint64_t upto, int force, oc_interval_fn fn, void *ctx,
		   uint64_t *unpaired)
{
	size_t i = 0, forced = force ? h->n / 2 : 0;

	sort_by_time(h);
	while (i < h->n && (i < forced || h->sw[i].time <= upto)) {
		const struct oc_switch *o = &h->sw[i];
		int out = o->kind == OC_SWITCH_OUT;

		if (o->kind == OC_SC_ENTER || o->kind == OC_SC_EXIT) {
			h->sc = o->kind == OC_SC_ENTER ? o->key + 1 : 0;
			i++;
			continue;
		}
		if (out && i + 1 < h->n && h->sw[i + 1].kind == OC_SWITCH_IN) {
			if (i + 1 >= forced && h->sw[i + 1].time > upto)
				break;	/* its switch-in is not final yet */
			if (o->key != OC_HELD_NO_KEY &&
			    fn(ctx, o->key, h->sc ? (int64_t)h->sc - 1 : OC_HELD_NO_SC,
			       h->sw[i + 1].time - o->time))
				return -1;
			i += 2;
			continue;
		}
		if (out && i + 1 >= h->n)
			break;	/* still off CPU (or the switch-in is to come) */
		(*unpaired)++;
		i++;
	}
	if (i) {
		memmove(h->sw, h->sw + i, (h->n - i) * sizeof(h->sw[0]));
		h->n -= i;
	}
	return 0;
}

void oc_held__exit(struct oc_held *h)
{
	free(h->sw);
	h->sw = NULL;
	h->n = h->cap = 0;
	h->sc = 0;
}
