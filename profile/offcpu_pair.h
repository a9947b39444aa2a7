/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_OFFCPU_PAIR_H
#define AOTPERF_PROFILE_OFFCPU_PAIR_H
/*
 * One thread's context switches held until they are final, then paired
 * (a switch-out, then the next switch-in) into off-CPU intervals. perf
 * writes each CPU's buffer in order but the buffers one after the other,
 * so a thread's switches arrive out of order across CPUs; sorting what is
 * held by time before pairing puts them back in order. Which time is final
 * (perf's FINISHED_ROUND rule) is the caller's to say.
 *
 * The thread's system call entries and exits (raw_syscalls:sys_enter and
 * sys_exit) are held with them: a syscall entered on one CPU can block
 * after a migration, and exit on a third, so only in time order do they
 * say which system call a switch-out happened in.
 */
#include <stddef.h>
#include <stdint.h>

#define OC_HELD_NO_KEY UINT32_MAX

/* No system call in progress (the interval callback's sc). */
#define OC_HELD_NO_SC (-1)

enum oc_kind { OC_SWITCH_IN = 0, OC_SWITCH_OUT, OC_SC_ENTER, OC_SC_EXIT };

struct oc_switch {
	uint64_t time;
	uint32_t key;		/* out: its stack; enter: the syscall nr; else OC_HELD_NO_KEY */
	uint32_t seq;		/* arrival order: keeps equal times as they came */
	uint8_t kind;		/* enum oc_kind */
};

struct oc_held {
	struct oc_switch *sw;	/* sw[head..n) are held */
	size_t head, n, cap;
	struct oc_switch *tmp;	/* the merge's other half, tmp_cap long */
	size_t tmp_cap;
	uint32_t seq;
	uint32_t sc;		/* the syscall in progress as paired so far: nr + 1, 0 none */
	int unsorted;		/* one came earlier than the one before it */
};

/*
 * An interval of ns off CPU for the switch-out's key, in system call sc
 * (OC_HELD_NO_SC: none seen entered); 0, or -1 to stop.
 */
typedef int (*oc_interval_fn)(void *ctx, uint32_t key, int64_t sc, uint64_t ns);

/* Switches and system call records held. */
static inline size_t oc_held__count(const struct oc_held *h)
{
	return h->n - h->head;
}

/* Room for one more held (internal to oc_held__hold); 0, or -1 when out of memory. */
int oc_held__grow(struct oc_held *h);

/* One more held, in arrival order (inline: a switch comes once a record). */
static inline int oc_held__hold(struct oc_held *h, uint64_t time, uint32_t key,
				enum oc_kind kind)
{
	struct oc_switch *sw;

	if (h->n == h->head) {
		/* nothing held: arrival order starts over */
		h->head = h->n = 0;
		h->seq = 0;
		h->unsorted = 0;
	}
	if (h->n == h->cap && oc_held__grow(h))
		return -1;
	sw = &h->sw[h->n];
	*sw = (struct oc_switch){ time, key, h->seq++, (uint8_t)kind };
	if (h->n > h->head && sw[-1].time > time)
		h->unsorted = 1;
	h->n++;
	return 0;
}

/* Hold one switch (any order); 0, or -1 when out of memory. */
static inline int oc_held__add(struct oc_held *h, uint64_t time, uint32_t key, int out)
{
	return oc_held__hold(h, time, key, out ? OC_SWITCH_OUT : OC_SWITCH_IN);
}
/* Hold a system call's entry (nr) or exit (enter 0, nr unused); 0, or -1. */
int oc_held__add_sc(struct oc_held *h, uint64_t time, uint32_t nr, int enter);
/*
 * Pair the held switches up to time upto (UINT64_MAX: all of them); with
 * force, also the oldest half whatever their time. Switches that pair with
 * nothing are counted in *unpaired. 0, or fn's -1.
 */
int oc_held__drain(struct oc_held *h, uint64_t upto, int force, oc_interval_fn fn, void *ctx,
		   uint64_t *unpaired);
void oc_held__exit(struct oc_held *h);

#endif
