// SPDX-License-Identifier: MIT
/*
 * The words frames/ speaks in: its enums' names as the sidecar spells them
 * (docs/sidecar.md), a sidecar's file name, and the error line naming a
 * sidecar and one of its accesses. Read, checked and printed code all use
 * them.
 */
#include <stdarg.h>
#include <stdio.h>
#include "internal.h"

const char *const fr_origin_names[FRAMES__NORIGINS] = {
	"allocator_spill", "wasm_local_or_phi", "explicit_frame_storage",
	"fixed_runtime_frame_state", "unknown",
};
const char *const fr_base_names[4] = { "rbp", "rsp", "x29", "sp" };
const char *const fr_reloc_names[3] = {
	"x86_64_call_rel32", "aarch64_call_imm26", "aarch64_tail_call_imm26",
};

const char *frames__origin_name(enum frames_origin o)
{
	return (unsigned)o < FRAMES__NORIGINS ? fr_origin_names[o] : NULL;
}

const char *frames__kind_name(enum frames_kind k)
{
	return k == FRAMES_LOAD ? "load" : k == FRAMES_STORE ? "store" : NULL;
}

const char *frames__base_name(enum frames_base b)
{
	return (unsigned)b < 4 ? fr_base_names[b] : NULL;
}

const char *frames__reloc_name(enum frames_reloc_kind k)
{
	return (unsigned)k < 3 ? fr_reloc_names[k] : NULL;
}

int frames__path(char *buf, size_t len, const char *prefix, uint32_t mod, uint32_t func)
{
	int n = snprintf(buf, len, "%s.mod%u.func%u.json", prefix, mod, func);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int fr_err(struct ap_err *err, const struct frames *fr, const struct frames_access *acc,
	   const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (acc)
		return ap_errf(err, "%s: access at +0x%x: %s", fr->path, acc->native_start, what);
	return ap_errf(err, "%s: %s", fr->path, what);
}
