/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_SYSCALL_NAMES_H
#define AOTPERF_PROFILE_SYSCALL_NAMES_H
/*
 * System call names by number, as the recording's architecture numbers
 * them (raw_syscalls:sys_enter's `id`). The tables are generated at build
 * time from the installed kernel headers (scripts/gen-syscalls.sh).
 */
#include <stdint.h>

enum sc_arch { SC_ARCH_NONE = 0, SC_ARCH_X86_64, SC_ARCH_AARCH64 };

/* perf's HEADER_ARCH string (uname -m: "x86_64", "aarch64"); NONE when other. */
enum sc_arch sc_arch__from_uname(const char *machine);
/* The name of system call nr ("nanosleep"), or NULL when the table has none. */
const char *sc_arch__name(enum sc_arch arch, int64_t nr);
/* The number of the system call called name, or -1 when the table has none. */
int64_t sc_arch__nr(enum sc_arch arch, const char *name);

#endif
