// SPDX-License-Identifier: MIT
/* Pairing a thread's held switches into off-CPU intervals (offcpu_pair.h). */
#include <stdlib.h>
#include <string.h>
#include "offcpu_pair.h"

/* Room for one more: the paired ones dropped from the front, else twice the room. */
int oc_held__grow(struct oc_held *h)
{
	size_t live = h->n - h->head, cap;
	struct oc_switch *v;

	if (h->head && live < h->cap / 2) {
		memmove(h->sw, h->sw + h->head, live * sizeof(*h->sw));
		h->head = 0;
		h->n = live;
		return 0;
	}
	cap = h->cap ? h->cap * 2 : 64;
	v = realloc(h->sw, cap * sizeof(*v));
	if (!v)
		return -1;
	h->sw = v;
	h->cap = cap;
	return 0;
}

int oc_held__add_sc(struct oc_held *h, uint64_t time, uint32_t nr, int enter)
{
	return oc_held__hold(h, time, enter ? nr : OC_HELD_NO_KEY, enter ? OC_SC_ENTER : OC_SC_EXIT);
}

static int before(const struct oc_switch *x, const struct oc_switch *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static int by_time(const void *a, const void *b)
{
	const struct oc_switch *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x);
}

/* The end of the sorted run that starts at a[i]. */
static size_t run_end(const struct oc_switch *a, size_t i, size_t n)
{
	while (++i < n && !before(&a[i], &a[i - 1]))
		;
	return i;
}

/* Merge every two neighbouring runs of a[0..n) into t; how many runs t holds. */
static size_t merge_pass(const struct oc_switch *a, struct oc_switch *t, size_t n)
{
	size_t i = 0, runs = 0;

	while (i < n) {
		size_t m = run_end(a, i, n), e = m < n ? run_end(a, m, n) : n, x = i, y = m, o = i;

		while (x < m && y < e)
			t[o++] = before(&a[y], &a[x]) ? a[y++] : a[x++];
		memcpy(t + o, a + x, (m - x) * sizeof(*a));
		o += m - x;
		memcpy(t + o, a + y, (e - y) * sizeof(*a));
		i = e;
		runs++;
	}
	return runs;
}

/*
 * Sorted by time, equal times in arrival order. Usually sorted already
 * (hold() says when not), else a few sorted runs, one per CPU buffer of
 * a round that had the thread: merged pairwise, each merge one linear
 * pass (a natural merge sort; a round can hold a whole run's switches).
 */
static void sort_by_time(struct oc_held *h)
{
	size_t n = h->n - h->head;
	struct oc_switch *a, *t;

	if (!h->unsorted)
		return;
	h->unsorted = 0;
	a = h->sw + h->head;	/* held: sw is not NULL */
	if (h->tmp_cap < n) {
		t = realloc(h->tmp, n * sizeof(*t));
		if (!t) {	/* no room for the merge: sort in place */
			qsort(a, n, sizeof(*a), by_time);
			return;
		}
		h->tmp = t;
		h->tmp_cap = n;
	}
	t = h->tmp;
	for (;;) {
		size_t runs = merge_pass(a, t, n);
		struct oc_switch *swap = a;

		a = t;
		t = swap;
		if (runs <= 1)
			break;
	}
	if (a != h->sw + h->head)
		memcpy(h->sw + h->head, a, n * sizeof(*a));
}

int oc_held__drain(struct oc_held *h, uint64_t upto, int force, oc_interval_fn fn, void *ctx,
		   uint64_t *unpaired)
{
	size_t i = h->head, forced = force ? h->head + (h->n - h->head) / 2 : 0;

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
	/* what is left stays where it is: hold() makes room when it must */
	h->head = i;
	if (h->head == h->n)
		h->head = h->n = 0;
	return 0;
}

void oc_held__exit(struct oc_held *h)
{
	free(h->sw);
	free(h->tmp);
	h->sw = h->tmp = NULL;
	h->head = h->n = h->cap = h->tmp_cap = 0;
	h->sc = 0;
	h->unsorted = 0;
}
