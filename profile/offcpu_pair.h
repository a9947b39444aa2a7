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
 */
#include <stddef.h>
#include <stdint.h>

#define OC_HELD_NO_KEY UINT32_MAX

struct oc_switch {
	uint64_t time;
	uint32_t key;		/* out: its stack; in: OC_HELD_NO_KEY */
	uint32_t seq;		/* arrival order: keeps equal times as they came */
	uint8_t out;
};

struct oc_held {
	struct oc_switch *sw;
	size_t n, cap;
	uint32_t seq;
};

/* An interval of ns off CPU for the switch-out's key; 0, or -1 to stop. */
typedef int (*oc_interval_fn)(void *ctx, uint32_t key, uint64_t ns);

/* Hold one switch (any order); 0, or -1 when out of memory. */
int oc_held__add(struct oc_held *h, uint64_t time, uint32_t key, int out);
/*
 * Pair the held switches up to time upto (UINT64_MAX: all of them); with
 * force, also the oldest half whatever their time. Switches that pair with
 * nothing are counted in *unpaired. 0, or fn's -1.
 */
int oc_held__drain(struct oc_held *h, uint64_t upto, int force, oc_interval_fn fn, void *ctx,
		   uint64_t *unpaired);
void oc_held__exit(struct oc_held *h);

#endif
