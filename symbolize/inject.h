/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_INJECT_H
#define AOTPERF_SYMBOLIZE_INJECT_H
/*
 * The one-step route to a symbolized copy of a recording (aotperf inject,
 * and aotperf record after recording): by default one ELF image per core
 * and a copy whose mappings name them (any clock, stable names, one file
 * per core), the images added to perf's build-id cache; on request, for a -k mono recording, jitdumps plus a marked
 * copy handed to stock `perf inject --jit` (whose dumps and marked copy
 * are removed afterwards; it writes one ELF file per function).
 */
#include <limits.h>
#include "symbolize.h"

struct progress;

struct sym_inject_opts {
	struct sym_opts sym;	/* names, prefix, dir (must exist), force */
	int jitdump;		/* jitdump + perf inject --jit (a -k mono recording, else an error) */
	const char *perf;	/* the perf that runs `perf inject --jit` */
	struct progress *progress; /* perf inject's progress: the ELF files it has written */
};

struct sym_inject_result {
	int mono;		/* every event used CLOCK_MONOTONIC (-k mono) */
	int elf;		/* the ELF route was taken (no jitdump asked) */
	char **images;		/* the ELF route's images: perf report needs them */
	uint32_t nimages;
	uint8_t *ids;		/* their build ids, ELFIMAGE_BUILD_ID_SIZE bytes each */
	/*
	 * After symbolize__cache_images: the images in perf's build-id cache,
	 * so that the copy still names them once moved (docs/formats-perf.md
	 * "Build ids"): cached 1 and cache_dir the cache's folder, or cached
	 * 0 and cache_why saying why not (not asked: empty).
	 */
	int cached;
	char cache_dir[PATH_MAX];
	char cache_why[512];
};

/* Write perf_out from the recording s reads and its attribution res. 0, or -1 with err. */
int symbolize__inject(struct session *s, const struct attr_result *res,
		      const struct sym_inject_opts *o, const char *perf_out,
		      struct sym_inject_result *r, struct ap_err *err);
void sym_inject_result__exit(struct sym_inject_result *r);

/*
 * The ELF route's images into perf's build-id cache through PERF (NULL:
 * not found), each checked there afterwards; call once they are at their
 * final paths, since perf keeps the path it is given. The copy is complete
 * without it (perf reads the images where they are): a failure is only
 * said, in r->cache_why.
 */
void symbolize__cache_images(const char *perf, struct sym_inject_result *r);

/*
 * The folder for dumps and images (and the jitted-*.so files perf inject
 * --jit writes next to the dumps): dir when given, else OUT.d, never the
 * working folder. Created when missing (*created: 1, so a failed run can remove it
 * again). It must belong to this user or root, and be writable by others
 * only when sticky. 0, or -1 with err.
 */
int symbolize__dir(const char *dir, const char *out, char *buf, size_t len, int *created,
		   struct ap_err *err);

#endif
