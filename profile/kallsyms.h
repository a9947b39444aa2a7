/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_KALLSYMS_H
#define AOTPERF_PROFILE_KALLSYMS_H
/*
 * Inside profile/: the kernel's function symbols for a recording, from a
 * kallsyms text, the recording's own evidence first
 * (docs/formats-perf.md, "Kernel symbols"):
 *
 *  1. perf's build-id cache copy for the kernel build id the recording
 *     holds (HEADER_BUILD_ID's "[kernel.kallsyms]" entry), which perf
 *     record writes unless told not to (-N, -B):
 *     DIR/[kernel.kallsyms]/ID/kallsyms, DIR the cache folder as perf
 *     finds it (util/perfconfig.h);
 *  2. /proc/kallsyms when the running kernel is the recorded one (its
 *     build id, kernel_id.h);
 *  3. without a recorded build id (perf record -B, a pipe-mode
 *     recording), /proc/kallsyms when the caller takes it unverified
 *     (perf's last resort).
 *
 * Whichever it is, hostsyms.c names kernel addresses from it only when
 * its _text.._etext is the recorded kernel mapping.
 */
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "../util/elffuncs.h"

#define KALLSYMS_PROC "/proc/kallsyms"

enum kallsyms_from {
	KALLSYMS_NONE,		/* no symbols for this kernel: why says why */
	KALLSYMS_CACHE,		/* perf's copy for the recorded build id */
	KALLSYMS_RUNNING,	/* /proc/kallsyms */
};

enum {
	KALLSYMS_UNVERIFIED = 1u << 0,	/* no recorded build id: /proc/kallsyms all the same */
};

struct kallsyms_where {
	enum kallsyms_from from;
	char path[4096];
	char why[400];		/* KALLSYMS_NONE: one line */
};

/* Where pd's kernel symbols are (above); nothing is read but ids and a stat. */
void kallsyms__where(struct perfdata *pd, unsigned flags, struct kallsyms_where *w);

/*
 * The function symbols of a kallsyms text ("ADDR TYPE NAME" lines,
 * "NAME\t[module]" for a module's), len bytes and a NUL after them (as
 * ap_file__read_all() reads a file): its line ends become NULs and the
 * names point into it. t/T/w/W lines with an address, modules' left out,
 * sorted by address then line, each sized to the next one's address (the
 * last: 0) as perf sizes kallsyms' symbols. _text and _etext into *stext
 * and *etext (0 when absent). 0 and *out (malloc()ed, NULL when none),
 * *n; -1 when out of memory.
 */
int kallsyms__parse(char *text, size_t len, struct elf_func **out, size_t *n, uint64_t *stext,
		    uint64_t *etext);

/*
 * The same text indexed for lookups without reading every symbol: one
 * pass finds its lines and checks they are the kernel's own layout (a
 * 64-bit address of 16 lowercase hex digits, a type, a name, by address;
 * modules' lines left out), then each lookup reads a few lines. 1 and
 * *out (text taken: len bytes and a NUL after them); 0 when the text is
 * not in that layout (kallsyms__parse() then, text left as it was); -1
 * when out of memory.
 */
struct kallsyms;
int kallsyms__index(char *text, size_t len, struct kallsyms **out);
void kallsyms__delete(struct kallsyms *k);
/* _text and _etext (0 when absent). */
void kallsyms__range(const struct kallsyms *k, uint64_t *stext, uint64_t *etext);
/*
 * The function symbol holding addr by kallsyms__parse()'s rules (the last
 * one listed at an address, up to the next one's address), or NULL. The
 * name lives as long as k.
 */
const char *kallsyms__find(struct kallsyms *k, uint64_t addr);

#endif
