/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_ANNOTATE_SYM_H
#define AOTPERF_CLI_ANNOTATE_SYM_H
/*
 * aotperf annotate's inputs said as report says them: the recording that
 * names the wasm code (perf.jit.data) and the function spelled N,
 * local_func_N, local_func_N:name or a wasm name.
 */
#include <stddef.h>
#include "../cwasm/coreset.h"
#include "../util/err.h"

/*
 * The recording to annotate: the one given, else perf.jit.data when it
 * exists (what `aotperf inject` writes next to perf.data), else perf.data.
 * *switched is set when perf.jit.data was taken.
 */
const char *annotate_sym__input(const char *given, int *switched);

/*
 * The symbol perf knows for spec in the recording input (its symbols as
 * `perf report --sort sym` lists them): spec itself, local_func_N for N,
 * local_func_N:name for local_func_N or a wasm name (through the cores
 * when given). A recording with no local_func_ symbol at all is not
 * symbolized: -1 with a message saying what to run.
 */
int annotate_sym__resolve(const char *perf, const char *input, const char *spec,
			  const struct core_set *cs, char *out, size_t len, struct ap_err *err);

#endif
