// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <string.h>
#include "symname.h"

int symname__parse_mode(const char *s, enum symname_mode *mode)
{
	if (!strcmp(s, "local"))
		*mode = SYMNAME_LOCAL;
	else if (!strcmp(s, "wasm"))
		*mode = SYMNAME_WASM;
	else if (!strcmp(s, "wasmtime"))
		*mode = SYMNAME_WASMTIME;
	else
		return -1;
	return 0;
}

const char *symname__format(char *buf, size_t len, const struct cwasm_module *m, uint32_t n,
			    enum symname_mode mode, int prefix_core)
{
	const char *name = n < m->nfuncs ? m->funcs[n].name : NULL;
	int midx = m->manifest_idx >= 0 ? m->manifest_idx : 0;
	char prefix[24] = "";

	if (prefix_core)
		snprintf(prefix, sizeof(prefix), "mod%d:", midx);
	switch (mode) {
	case SYMNAME_WASMTIME:
		if (name)
			snprintf(buf, len, "wasm[%d]::function[%u]::%s", midx,
				 cwasm__wasm_index(m, n), name);
		else
			snprintf(buf, len, "wasm[%d]::function[%u]", midx, cwasm__wasm_index(m, n));
		break;
	case SYMNAME_WASM:
		if (name) {
			snprintf(buf, len, "%slocal_func_%u:%s", prefix, n, name);
			break;
		}
		/* fall through */
	case SYMNAME_LOCAL:
	default:
		snprintf(buf, len, "%slocal_func_%u", prefix, n);
		break;
	}
	return buf;
}
