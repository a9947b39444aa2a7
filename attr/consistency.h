/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_CONSISTENCY_H
#define AOTPERF_ATTR_CONSISTENCY_H
/*
 * Is this core the code that ran? A sample's ip is the first byte of the
 * instruction it interrupted, and a return address of a call chain
 * follows a call: decoded from the function starts, the right core's
 * sampled addresses all land where they may, another build's (offsets
 * shifted by a changed function or alignment) mostly do not, even when
 * its text rounds up to the same pages. profile/consistency.c counts;
 * this is the verdict and its wording, shared by every front end.
 */
#include <stddef.h>
#include <stdint.h>

/*
 * The share of a core's checked addresses that must be consistent, and
 * how many may miss whatever the share (docs/consistency.md).
 * Measured with -e cpu-clock, which samples the interrupted instruction's
 * start exactly: right cores give 100.00% (ips and -g return addresses,
 * plain, -g and dwarf recordings); other builds of the same code whose
 * text rounds to the same pages 20-87% (tests/e2e/consistency.sh; the
 * higher figures where the hot functions up front kept their offsets).
 * 99% and 2 leave room for a trap that was taken (one sample in a trap
 * block), a stray return address of a host frame without a frame
 * pointer, and the skid of a hardware event, which moves an ip to a later
 * instruction's start, never inside one (not measured here: no PMU).
 * aarch64 ips land on a word whatever the build: only traps, padding and
 * return addresses tell builds apart (tests/e2e/arm64.sh: a realigned
 * build 100% on a plain recording, 50% with -g).
 */
#define ATTR_CONSISTENT_MIN_PCT 99.0
#define ATTR_CONSISTENT_SLACK 2

struct attr_consistency {
	int computed;		/* 0: not checked (no recording, or code that cannot be decoded) */
	uint64_t checked;	/* sampled ips in the core's mapping + return addresses into it */
	uint64_t consistent;
	uint64_t mid_instruction;	/* an ip inside an instruction */
	uint64_t in_data;	/* an ip in inline data: a jump table, undecodable bytes */
	uint64_t in_padding;	/* an ip in nops after a function's code, or outside every function */
	uint64_t in_trap;	/* an ip in a trap block (each taken trap adds one at most) */
	uint64_t returns;	/* return addresses checked (part of checked) */
	uint64_t bad_return;	/* a return address not right after a call */
};

/*
 * 1 when not computed, or at most ATTR_CONSISTENT_SLACK addresses or
 * (100 - ATTR_CONSISTENT_MIN_PCT)% of them miss, whichever is more.
 */
int attr_consistency__ok(const struct attr_consistency *c);
/* The consistent share in percent (100 when nothing was checked). */
double attr_consistency__pct(const struct attr_consistency *c);
/*
 * The warning for a core that fails: "PATH: N of M sampled addresses
 * (P%) ... : not the build that was recorded?", with the figures.
 */
void attr_consistency__describe(const struct attr_consistency *c, const char *path, char *buf,
				size_t len);

#endif
