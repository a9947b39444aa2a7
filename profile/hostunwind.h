/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOSTUNWIND_H
#define AOTPERF_PROFILE_HOSTUNWIND_H
/*
 * Inside profile/: host frames of a --call-graph=dwarf sample, unwound
 * with elfutils' libdwfl from the CFI of the files the recording mapped
 * (hostmaps.h knows which), over the sample's stack copy, as perf's
 * libdw unwinder does. It stops where a return address lands in wasm
 * code (the caller then goes on with the rules, unwind/unwind.h), at the
 * end of the stack, or where no CFI or stack bytes are left.
 */
#include <stdint.h>
#include "hostmaps.h"
#include "../unwind/unwind.h"

struct hostunwind;

/* Unwinding over the files of maps (which must outlive it). */
struct hostunwind *hostunwind__new(const struct hostmaps *maps);
void hostunwind__delete(struct hostunwind *h);
/* Forget the processes' module lists (a read that starts over). */
void hostunwind__reset(struct hostunwind *h);

/* Is IP wasm code? (the caller's core lookup) */
typedef int (*hostunwind_is_wasm_fn)(void *ctx, uint64_t ip);

/* Where the registers of the first host frame come from. */
struct hostunwind_start {
	uint32_t pid;
	uint64_t time;			/* the sample's time key: which mappings hold */
	enum unwind_arch arch;
	struct unwind_regs regs;	/* ip, sp, fp (aarch64: ra when has_ra) */
	const uint64_t *dwarf_regs;	/* all of them, DWARF-numbered, or NULL */
	uint32_t ndwarf_regs;
	int return_addr;		/* regs.ip is a return address */
	const struct unwind_stack *stack;
};

enum hostunwind_stop {
	HOSTUNWIND_END = 0,	/* the outermost frame, or no CFI / stack left */
	HOSTUNWIND_WASM,	/* *wasm is the first wasm frame's registers */
	HOSTUNWIND_MAX,		/* frames[] is full */
	HOSTUNWIND_NOMEM,
};

/*
 * Host frames from S: frames[0] is S's ip (a return address when
 * S->return_addr), each further one a caller's return address. Returns
 * an enum hostunwind_stop; *n the frames written (at least 1 unless
 * MAX or NOMEM).
 */
int hostunwind__walk(struct hostunwind *h, const struct hostunwind_start *s,
		     hostunwind_is_wasm_fn is_wasm, void *ctx, uint64_t *frames,
		     uint32_t max, uint32_t *n, struct unwind_regs *wasm);

/* For tests and measurements: walks asked for, and those libdw made (the rest remembered). */
void hostunwind__stats(const struct hostunwind *h, uint64_t *walks, uint64_t *libdw_walks);

#endif
