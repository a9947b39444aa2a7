// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=8192
/*
 * Fuzz target: a thread's switches and system call entries and exits as a
 * recording hands them to profile/offcpu_pair.h, in any order and at any
 * times, with drains (FINISHED_ROUND: final up to a time; a full queue:
 * forced) between them. Input: 8-byte records, u32 time, u8 op (0 switch-in,
 * 1 switch-out, 2 sys_enter, 3 sys_exit, 4 drain up to time, 5 forced
 * drain), u8 pad, u16 key (the switch-out's stack, the syscall number).
 * Checked: every interval is one a switch-out fed said, with a system call
 * that was entered or none, no longer than the times fed span; what a
 * drain leaves held is in time order, equal times in arrival order; at
 * the end at most the last switch-out is left held.
 */
#include <string.h>
#include "profile/offcpu_pair.h"
#include "fuzz.h"

struct seen {
	uint8_t key[65536 / 8], nr[65536 / 8];
	uint64_t lo, hi;
};

static int on_interval(void *ctx, uint32_t key, int64_t sc, uint64_t ns)
{
	const struct seen *s = ctx;

	FUZZ_ASSERT(key < 65536 && (s->key[key / 8] >> (key % 8) & 1));
	FUZZ_ASSERT(sc == OC_HELD_NO_SC || (sc >= 0 && sc < 65536 && (s->nr[sc / 8] >> (sc % 8) & 1)));
	FUZZ_ASSERT(ns <= s->hi - s->lo);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct seen s;
	struct oc_held h = { 0 };
	uint64_t unpaired = 0;

	memset(&s, 0, sizeof(s));
	s.lo = UINT64_MAX;
	for (size_t i = 0; i + 8 <= size; i += 8) {
		uint32_t t;
		uint16_t key;
		uint8_t op = data[i + 4] % 6;

		memcpy(&t, data + i, sizeof(t));
		memcpy(&key, data + i + 6, sizeof(key));
		if (op <= 3) {
			s.lo = t < s.lo ? t : s.lo;
			s.hi = t > s.hi ? t : s.hi;
		}
		if (op == 1)
			s.key[key / 8] |= (uint8_t)(1u << (key % 8));
		if (op == 2)
			s.nr[key / 8] |= (uint8_t)(1u << (key % 8));
		if (op <= 1)
			FUZZ_ASSERT(!oc_held__add(&h, t, key, op == 1));
		else if (op <= 3)
			FUZZ_ASSERT(!oc_held__add_sc(&h, t, key, op == 2));
		else {
			FUZZ_ASSERT(!oc_held__drain(&h, t, op == 5, on_interval, &s, &unpaired));
			for (size_t j = h.head + 1; j < h.n; j++)
				FUZZ_ASSERT(h.sw[j - 1].time < h.sw[j].time ||
					    (h.sw[j - 1].time == h.sw[j].time &&
					     h.sw[j - 1].seq < h.sw[j].seq));
		}
	}
	FUZZ_ASSERT(!oc_held__drain(&h, UINT64_MAX, 0, on_interval, &s, &unpaired));
	FUZZ_ASSERT(oc_held__count(&h) <= 1 &&
		    (!oc_held__count(&h) || h.sw[h.head].kind == OC_SWITCH_OUT));
	oc_held__exit(&h);
	return 0;
}

static void put(uint8_t *b, size_t *n, uint32_t t, uint8_t op, uint16_t key)
{
	memcpy(b + *n, &t, sizeof(t));
	b[*n + 4] = op;
	b[*n + 5] = 0;
	memcpy(b + *n + 6, &key, sizeof(key));
	*n += 8;
}

/* A thread blocking in syscalls, migrating: one CPU's records, then the other's, rounds between. */
int fuzz_write_seeds(const char *dir)
{
	uint8_t b[8 * 64];
	size_t n = 0;

	put(b, &n, 100, 2, 35);		/* CPU 0: enter nanosleep, out */
	put(b, &n, 110, 1, 1);
	put(b, &n, 400, 2, 7);		/* CPU 0 again later: enter poll, out */
	put(b, &n, 410, 1, 2);
	put(b, &n, 300, 4, 0);		/* a round: final up to 300 */
	put(b, &n, 200, 0, 0);		/* CPU 1: in, exit nanosleep */
	put(b, &n, 210, 3, 0);
	put(b, &n, 900, 0, 0);		/* in, exit poll */
	put(b, &n, 910, 3, 0);
	put(b, &n, 0, 5, 0);		/* forced */
	fuzz_write(dir, "migrating-syscalls", b, n);
	return 0;
}
