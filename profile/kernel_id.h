/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_KERNEL_ID_H
#define AOTPERF_PROFILE_KERNEL_ID_H
/*
 * Inside profile/: was the recording made on the running kernel? Kernel
 * frames are named from /proc/kallsyms only then (kallsyms.h, when perf's
 * copy of the recorded kernel's symbols is not there): the kernel build
 * id the recording holds (perfdata.h, HEADER_BUILD_ID) must be the running
 * kernel's (/sys/kernel/notes, its NT_GNU_BUILD_ID note): a name from
 * another kernel would be confidently wrong.
 */
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"

#define KERNEL_ID_NOTES "/sys/kernel/notes"

/* The GNU build id in a run of ELF notes (buf, len) into id: its length, 0 when none fits. */
size_t kernel_id__from_notes(const void *buf, size_t len, uint8_t *id, size_t cap);

/*
 * 1 when pd's kernel is the one running (notes: its notes file, normally
 * KERNEL_ID_NOTES); else 0 and why (one line, cut to n) says why not: no
 * build id recorded, none readable here, or the two ids.
 */
int kernel_id__same(struct perfdata *pd, const char *notes, char *why, size_t n);

#endif
