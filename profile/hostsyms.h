/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOSTSYMS_H
#define AOTPERF_PROFILE_HOSTSYMS_H
/*
 * Inside profile/: the function symbol holding an address of a host
 * mapping (hostmaps.h), found where perf finds it without debuginfod:
 *
 *  - a file: its symbol table (.symtab); without one, the .symtab of its
 *    detached debug file found by build id under /usr/lib/debug/.build-id/
 *    (Debian's -dbg packages); else its dynamic symbols; and its PLT
 *    entries as perf synthesizes them, NAME@plt (util/elffuncs.h). It is
 *    the file at that path on this machine: when the mapping record names a device
 *    and inode (MMAP2) other than the file's, it is another build and
 *    names nothing here;
 *  - [vdso]: this process's own vdso, when it is as long as the recorded
 *    one (perf keeps a copy of the recording's; aotperf assumes the same
 *    kernel);
 *  - [kernel.kallsyms]: the recording's kallsyms (kallsyms.h: perf's
 *    copy in its build-id cache for the recorded kernel, else
 *    /proc/kallsyms of the same kernel), when its _text.._etext is the
 *    recorded kernel mapping (laid out the same way); modules are not
 *    looked up.
 *
 * Among aliases perf's pick: a sized one, then not weak, then global,
 * then fewer leading underscores, then the longer name, then the earlier
 * entry (kallsyms: the last one listed, as perf sizes them first); a zero
 * size reaches to the next symbol. Names are spelled as the
 * symbol table does (perf demangles C++ and Rust names; aotperf does not).
 * A DSO is read the first time one of its addresses is asked for; its
 * names are kept, its file closed.
 */
#include <stdint.h>
#include "hostmaps.h"
#include "../perfdata/perfdata.h"

struct hostsyms;

/* Symbols for the DSOs of maps (which must outlive it). NULL when out of memory. */
struct hostsyms *hostsyms__new(const struct hostmaps *maps);
/*
 * Whose kernel the kernel addresses are: pd's (kallsyms.h; pd must
 * outlive hs), or the kallsyms text at path. Without either, kernel
 * addresses name nothing.
 */
void hostsyms__set_recording(struct hostsyms *hs, struct perfdata *pd);
void hostsyms__set_kallsyms(struct hostsyms *hs, const char *path);
void hostsyms__delete(struct hostsyms *hs);

/*
 * The symbol holding IP, an address in mapping m: *sym, valid as long as
 * hs, or NULL when none is found (perf's "[unknown]"). 0, or -1 when out
 * of memory.
 */
int hostsyms__find(struct hostsyms *hs, const struct hostmap *m, uint64_t ip,
		   const char **sym);

#endif
