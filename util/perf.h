/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_PERF_H
#define AOTPERF_UTIL_PERF_H
/*
 * Finding and probing stock perf, the same way for every command that
 * runs it (record, inject, annotate, doctor).
 */
#include <stddef.h>
#include "err.h"

/*
 * The perf to run: override when given (doctor --perf), else $PERF, else
 * the first executable regular file "perf" on PATH. The path into buf;
 * 0, or -1 with err ("perf not found (...)", AP_ERR_INPUT).
 */
int ap_perf__find(const char *override, char *buf, size_t len, struct ap_err *err);

/* Where ap_perf__find looked, for messages: "no executable at X", "looked for 'perf' on PATH". */
void ap_perf__where(const char *override, char *buf, size_t len);

/*
 * An executable regular file: name itself when it holds a '/', else the
 * first one on PATH (an empty PATH entry is the current folder). 0 or -1.
 */
int ap_find_exe(const char *name, char *buf, size_t len);

enum ap_cycles {
	AP_CYCLES_FAILED = -1,	/* perf stat itself failed: *why says how */
	AP_CYCLES_NO = 0,	/* perf ran; the count is "<not supported>" or missing */
	AP_CYCLES_YES = 1,	/* hardware cycles count here */
};

/*
 * Do hardware cycles count here? Runs `PERF stat -e cycles -x, -- true`
 * (in dir when not NULL, killed after timeout_ms when > 0): the event
 * counts when the CSV line of "cycles" starts with a number; on VMs perf
 * exits 0 and prints "<not supported>" there. field gets that first CSV
 * field, why (on AP_CYCLES_FAILED) how the run ended. Returns enum ap_cycles.
 */
int ap_perf__cycles(const char *perf, const char *dir, int timeout_ms, char *field,
		    size_t field_len, char *why, size_t why_len);

#endif
