// SPDX-License-Identifier: MIT
/* System call names by number (syscall_names.h). */
#include <stddef.h>
#include <string.h>
#include "syscall_names.h"

struct sc_entry {
	uint16_t nr;
	const char *name;
};

/* syscall_table.h: the generated SC_X86_64 / SC_AARCH64 lines, by number */
static const struct sc_entry x86_64[] = {
#define SC_X86_64(nr, name) { nr, name },
#define SC_AARCH64(nr, name)
#include "syscall_table.h"
#undef SC_X86_64
#undef SC_AARCH64
};

static const struct sc_entry aarch64[] = {
#define SC_X86_64(nr, name)
#define SC_AARCH64(nr, name) { nr, name },
#include "syscall_table.h"
#undef SC_X86_64
#undef SC_AARCH64
};

enum sc_arch sc_arch__from_uname(const char *machine)
{
	if (!machine)
		return SC_ARCH_NONE;
	if (!strcmp(machine, "x86_64"))
		return SC_ARCH_X86_64;
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"))
		return SC_ARCH_AARCH64;
	return SC_ARCH_NONE;
}

const char *sc_arch__name(enum sc_arch arch, int64_t nr)
{
	const struct sc_entry *t = arch == SC_ARCH_X86_64 ? x86_64 :
				   arch == SC_ARCH_AARCH64 ? aarch64 : NULL;
	size_t lo = 0, hi = arch == SC_ARCH_X86_64 ? sizeof(x86_64) / sizeof(x86_64[0]) :
			    arch == SC_ARCH_AARCH64 ? sizeof(aarch64) / sizeof(aarch64[0]) : 0;

	if (!t || nr < 0 || nr > UINT16_MAX)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t[mid].nr == nr)
			return t[mid].name;
		if (t[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int64_t sc_arch__nr(enum sc_arch arch, const char *name)
{
	const struct sc_entry *t = arch == SC_ARCH_X86_64 ? x86_64 :
				   arch == SC_ARCH_AARCH64 ? aarch64 : NULL;
	size_t n = arch == SC_ARCH_X86_64 ? sizeof(x86_64) / sizeof(x86_64[0]) :
		   arch == SC_ARCH_AARCH64 ? sizeof(aarch64) / sizeof(aarch64[0]) : 0;

	/* by number only: a linear search, once per distinct name */
	for (size_t i = 0; t && name && i < n; i++)
		if (!strcmp(t[i].name, name))
			return t[i].nr;
	return -1;
}
