/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_PERFMAP_H
#define AOTPERF_SYMBOLIZE_PERFMAP_H
/*
 * perf maps: /tmp/perf-<pid>.map, one "START SIZE name" line per symbol
 * (hex, no 0x). `perf report` reads it at report time for the anonymous
 * executable mappings of that pid (docs/formats-perf.md, "perf maps").
 *
 * Ownership. perf 6.1 (dso__load_perf_map) parses EVERY line as
 * "START SIZE name": there is no comment syntax, a "# ..." line would
 * become a symbol. So our first line is a symbol that can never match a
 * sample, PERFMAP_MARKER: address 0, size 0 (perf's lookup only matches
 * a zero-size symbol at exactly its start, and no anonymous code map
 * starts at 0). An existing map counts as ours when it is a regular file
 * owned by our effective uid whose first line is that marker.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

#define PERFMAP_MARKER "0 0 aotperf-perf-map"

struct perfmap_entry {
	uint64_t start;		/* absolute address in the process */
	uint64_t size;
	const char *name;	/* sanitized on output; NULL or "" → "_" */
};

/* "/tmp/perf-<pid>.map" into buf; -1 if it does not fit. */
int perfmap__default_path(char *buf, size_t len, int pid);

/*
 * Write the map for PID at PATH (NULL: the default path), atomically: a
 * fresh temporary file in the same folder (mkstemp, O_EXCL), renamed over
 * the target when complete. rename() replaces a directory entry and never
 * follows a symlink, so a link planted after our check is replaced, not
 * followed.
 *
 * Refused always: a symlink or anything but a regular file at PATH.
 * Refused unless force: an existing map that is not ours (see above).
 * Returns 0, or -1 with err filled ("PATH: why").
 */
int perfmap__write(const char *path, int pid, const struct perfmap_entry *ents,
		   size_t nents, int force, struct ap_err *err);

/*
 * 0 when a map may be (re)placed at PATH, -1 with err as perfmap__write
 * refuses it: for a writer that checks the name first and writes the map
 * under a temporary one (util/outset.h).
 */
int perfmap__check(const char *path, int force, struct ap_err *err);

/* 1 if PATH holds a map written by aotperf, 0 if not, -1 on error. */
int perfmap__is_ours(const char *path, struct ap_err *err);

#endif
