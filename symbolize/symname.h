/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_SYMNAME_H
#define AOTPERF_SYMBOLIZE_SYMNAME_H
/*
 * The symbol names stock perf shows for wasm functions (--names):
 *   local   local_func_N                       (perf annotate local_func_N works)
 *   wasm    local_func_N:<wasm name>           when a name or export is known
 *   wasmtime wasm[M]::function[F]::<name>      Wasmtime's convention, F = wasm index
 * With several cores, local and wasm names get a "mod<M>:" prefix.
 */
#include <stddef.h>
#include <stdint.h>
#include "../cwasm/cwasm.h"

enum symname_mode {
	SYMNAME_LOCAL,
	SYMNAME_WASM,
	SYMNAME_WASMTIME,
};

/* Parse "local", "wasm" or "wasmtime"; -1 if none. */
int symname__parse_mode(const char *s, enum symname_mode *mode);

/*
 * Name of local function n of m into buf. module_idx is the manifest idx (or
 * 0 for a lone core); prefix_core adds "mod<M>:" to local/wasm names.
 */
const char *symname__format(char *buf, size_t len, const struct cwasm_module *m, uint32_t n,
			    enum symname_mode mode, int prefix_core);

#endif
