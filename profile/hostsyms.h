/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_HOSTSYMS_H
#define AOTPERF_PROFILE_HOSTSYMS_H
/*
 * Inside profile/: names for host frames, as perf gives them without
 * debug info: the executable mappings of files recorded in perf.data
 * (MMAP/MMAP2), and the function symbols of those files read with libelf
 * (.symtab, else .dynsym) from the paths the records name, on this
 * machine. A file is read the first time one of its addresses is asked
 * for. No build-id check: a file replaced since the recording names
 * wrongly, as it does in perf without a build-id cache.
 */
#include <stdint.h>

struct hostsyms;

struct hostsyms *hostsyms__new(void);
void hostsyms__delete(struct hostsyms *h);
/* Forget every mapping (a read that starts over); loaded files stay. */
void hostsyms__reset(struct hostsyms *h);

/* An executable file mapping of pid. 0, or -1 when out of memory. */
int hostsyms__add_map(struct hostsyms *h, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *filename);

/*
 * The function holding IP in pid (a mapping of another process when pid
 * has none there, as a forked child inherits its parent's): *name is its
 * symbol; without one "[dso]" (the file's base name in brackets, as
 * perf's folding tools write it), or "[unknown]" outside every mapping.
 * *dso is the file's path, or NULL. Both live as long as h. 0, or -1
 * when out of memory.
 */
int hostsyms__lookup(struct hostsyms *h, uint32_t pid, uint64_t ip, const char **name,
		     const char **dso);

/* How many mappings were added: a change says the address space grew. */
size_t hostsyms__nmaps(const struct hostsyms *h);

/*
 * The mapping holding IP in pid (or in another process, as above): 1 and
 * its start, pgoff and file path (valid as long as h), else 0.
 */
int hostsyms__map_at(const struct hostsyms *h, uint32_t pid, uint64_t ip, uint64_t *start,
		     uint64_t *pgoff, const char **path);

#endif
