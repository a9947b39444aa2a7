// SPDX-License-Identifier: MIT
/*
 * profile/offcpu_pair.c: a thread's switches arriving as perf writes them
 * when it is woken up rarely (one CPU's buffer for the whole run, then the
 * other's, one FINISHED_ROUND at the end) pair into the true intervals,
 * computed here from the synthetic timeline itself; none is paired before
 * the caller says its switch-in is final; forcing pairs only the oldest;
 * system call entries and exits held with them tag each interval.
 */
#include <stdint.h>
#include <stdlib.h>
#include "check.h"
#include "../../profile/offcpu_pair.h"

#define NOFF 400	/* off-CPU intervals: more than any fixed buffer held */

struct ev {
	uint64_t time;
	int cpu, out;
	uint32_t key;
};

static uint64_t got[3], npairs;

static int add(void *ctx, uint32_t key, int64_t sc, uint64_t ns)
{
	(void)ctx;
	(void)sc;
	got[key] += ns;
	npairs++;
	return 0;
}

/*
 * The timeline: the thread runs, switches out (key k % 3) and back in;
 * each switch lands on the CPU it happened on, and the thread migrates
 * every few intervals. want[] gets the true time per key.
 */
static size_t timeline_on(struct ev *e, uint64_t *want, int ncpus)
{
	uint64_t t = 1000000;
	size_t n = 0;
	int cpu = 0;

	for (uint32_t k = 0; k < NOFF; k++) {
		uint64_t on = 50000 + (k * 7919) % 300000, off = 100000 + (k * 104729) % 5000000;

		t += on;
		e[n++] = (struct ev){ t, cpu, 1, k % 3 };
		if (k % 3 == 1)
			cpu = (cpu + 1) % ncpus;	/* back in on another CPU */
		t += off;
		e[n++] = (struct ev){ t, cpu, 0, OC_HELD_NO_KEY };
		want[k % 3] += off;
	}
	return n;
}

static size_t timeline(struct ev *e, uint64_t *want)
{
	return timeline_on(e, want, 2);
}

/* CPU 0's records in time order, then CPU 1's...: the order perf writes them. */
static void feed_on(struct oc_held *h, const struct ev *e, size_t n, int ncpus)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		for (size_t i = 0; i < n; i++)
			if (e[i].cpu == cpu)
				CHECK_EQ_U64(oc_held__add(h, e[i].time, e[i].key, e[i].out), 0);
}

static void feed(struct oc_held *h, const struct ev *e, size_t n)
{
	feed_on(h, e, n, 2);
}

static void reset(void)
{
	got[0] = got[1] = got[2] = npairs = 0;
}

/* All held drained: every interval paired, each key's true time. */
static void check_all(struct oc_held *h, const uint64_t *want)
{
	uint64_t unpaired = 0;

	CHECK_EQ_U64(oc_held__drain(h, UINT64_MAX, 0, add, NULL, &unpaired), 0);
	CHECK_EQ_U64(oc_held__count(h), 0);
	CHECK_EQ_U64(npairs, NOFF);
	CHECK_EQ_U64(unpaired, 0);
	for (int k = 0; k < 3; k++)
		CHECK_EQ_U64(got[k], want[k]);
	oc_held__exit(h);
}

static void test_two_buffers(void)
{
	static struct ev e[2 * NOFF];
	uint64_t want[3] = { 0 }, unpaired = 0;
	struct oc_held h = { 0 };
	size_t n = timeline(e, want);

	reset();
	feed(&h, e, n);
	CHECK_EQ_U64(oc_held__count(&h), n);
	/* nothing final yet (the round's time is before the run): nothing paired */
	CHECK_EQ_U64(oc_held__drain(&h, 999999, 0, add, NULL, &unpaired), 0);
	CHECK_EQ_U64(npairs, 0);
	CHECK_EQ_U64(oc_held__count(&h), n);
	/* final up to the middle: exactly the intervals that end by then */
	uint64_t mid = e[n / 2].time, want_mid = 0, nmid = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		if (e[i + 1].time <= mid) {
			want_mid += e[i + 1].time - e[i].time;
			nmid++;
		}
	CHECK_EQ_U64(oc_held__drain(&h, mid, 0, add, NULL, &unpaired), 0);
	CHECK_EQ_U64(npairs, nmid);
	CHECK_EQ_U64(got[0] + got[1] + got[2], want_mid);
	CHECK_EQ_U64(unpaired, 0);
	/* the rest at the end */
	check_all(&h, want);
}

/*
 * Three and five CPUs' buffers one after the other (as many sorted runs,
 * merged pairwise, an odd one left over each pass): the true intervals.
 */
static void test_many_buffers(void)
{
	static struct ev e[2 * NOFF];

	for (int ncpus = 3; ncpus <= 5; ncpus += 2) {
		uint64_t want[3] = { 0 };
		struct oc_held h = { 0 };
		size_t n = timeline_on(e, want, ncpus);

		reset();
		feed_on(&h, e, n, ncpus);
		check_all(&h, want);
	}
}

/* Forcing on a sorted stream (no rounds): the oldest half, still right. */
static void test_force_sorted(void)
{
	static struct ev e[2 * NOFF];
	uint64_t want[3] = { 0 }, unpaired = 0;
	struct oc_held h = { 0 };
	size_t n = timeline(e, want);

	reset();
	for (size_t i = 0; i < n; i++)
		oc_held__add(&h, e[i].time, e[i].key, e[i].out);
	CHECK_EQ_U64(oc_held__drain(&h, 0, 1, add, NULL, &unpaired), 0);
	CHECK_EQ_U64(npairs, NOFF / 2);
	CHECK_EQ_U64(oc_held__count(&h), n / 2);
	CHECK_EQ_U64(unpaired, 0);
	check_all(&h, want);
}

/* A switch-in without its switch-out, a switch-out still off CPU at the end. */
static void test_unpaired(void)
{
	uint64_t unpaired = 0;
	struct oc_held h = { 0 };

	reset();
	oc_held__add(&h, 500, OC_HELD_NO_KEY, 0);
	oc_held__add(&h, 100, OC_HELD_NO_KEY, 0);
	oc_held__add(&h, 200, 1, 1);
	oc_held__add(&h, 900, 2, 1);
	CHECK_EQ_U64(oc_held__drain(&h, UINT64_MAX, 0, add, NULL, &unpaired), 0);
	CHECK_EQ_U64(unpaired, 1);	/* the switch-in at 100 */
	CHECK_EQ_U64(got[1], 300);
	CHECK_EQ_U64(npairs, 1);
	CHECK_EQ_U64(oc_held__count(&h), 1);		/* the switch-out at 900 waits */
	oc_held__exit(&h);
}

/* per system call (10, 11, 12; 13: none) from the callback */
static uint64_t got_sc[4];

static int add_sc(void *ctx, uint32_t key, int64_t sc, uint64_t ns)
{
	(void)ctx;
	(void)key;
	got_sc[sc == OC_HELD_NO_SC ? 3 : sc - 10] += ns;
	return 0;
}

/*
 * System calls held with the switches: entered on one CPU, blocking there,
 * back in and exiting on the other after a migration. Fed one CPU's buffer
 * after the other's, each switch-out still gets the syscall it blocked in;
 * every fourth interval is a preemption outside any.
 */
static void test_syscalls(void)
{
	struct sev { uint64_t time; int cpu, kind; uint32_t nr; } e[4 * NOFF];
	uint64_t want[4] = { 0 }, t = 1000000, unpaired = 0;
	struct oc_held h = { 0 };
	size_t n = 0;
	int cpu = 0;

	for (uint32_t k = 0; k < NOFF; k++) {
		uint64_t off = 100000 + (k * 104729) % 5000000;
		uint32_t nr = 10 + k % 3;
		int in_sc = k % 4 != 3;

		t += 50000 + (k * 7919) % 300000;
		if (in_sc)
			e[n++] = (struct sev){ t, cpu, OC_SC_ENTER, nr };
		t += 1000;
		e[n++] = (struct sev){ t, cpu, OC_SWITCH_OUT, 0 };
		if (k % 2)
			cpu = !cpu;
		t += off;
		e[n++] = (struct sev){ t, cpu, OC_SWITCH_IN, 0 };
		t += 1000;
		if (in_sc)
			e[n++] = (struct sev){ t, cpu, OC_SC_EXIT, 0 };
		want[in_sc ? nr - 10 : 3] += off;
	}
	for (int c = 0; c < 2; c++)
		for (size_t i = 0; i < n; i++) {
			if (e[i].cpu != c)
				continue;
			if (e[i].kind == OC_SC_ENTER || e[i].kind == OC_SC_EXIT)
				CHECK_EQ_U64(oc_held__add_sc(&h, e[i].time, e[i].nr,
							     e[i].kind == OC_SC_ENTER), 0);
			else
				CHECK_EQ_U64(oc_held__add(&h, e[i].time, 0,
							  e[i].kind == OC_SWITCH_OUT), 0);
		}
	/* half final first: the syscall in progress carries over to the rest */
	CHECK_EQ_U64(oc_held__drain(&h, e[n / 2].time, 0, add_sc, NULL, &unpaired), 0);
	CHECK_EQ_U64(oc_held__drain(&h, UINT64_MAX, 0, add_sc, NULL, &unpaired), 0);
	CHECK_EQ_U64(unpaired, 0);
	CHECK_EQ_U64(oc_held__count(&h), 0);
	for (int k = 0; k < 4; k++)
		CHECK_EQ_U64(got_sc[k], want[k]);
	oc_held__exit(&h);
}

int main(void)
{
	test_syscalls();
	test_two_buffers();
	test_many_buffers();
	test_force_sorted();
	test_unpaired();
	CHECK_DONE();
}
