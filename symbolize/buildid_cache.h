/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_BUILDID_CACHE_H
#define AOTPERF_SYMBOLIZE_BUILDID_CACHE_H
/*
 * perf's build-id cache, for the ELF route's images (docs/formats-perf.md
 * "Build ids"): perf report finds an image there by the build id the
 * recording names once the image's own path is gone, and perf archive
 * packs what is there. perf itself adds each image (`perf buildid-cache
 * -a`: its own layout, its own folder), then the entry is checked, since
 * perf exits 0 when it could not add a file.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

/*
 * The folder perf keeps the cache in, as perf works it out: buildid.dir
 * of its config (PERF_CONFIG, else /etc/perfconfig and ~/.perfconfig,
 * read by `perf config`), else $HOME/.debug. perf passes it on to
 * perf-archive as PERF_BUILDID_DIR; it does not read that variable
 * itself, so neither does this. 0, or -1 with err.
 */
int bidcache__dir(const char *perf, char *buf, size_t len, struct ap_err *err);

/*
 * Add IMAGE, whose build id is ID, to the cache in DIR, and check that
 * DIR/.build-id/<id> now leads to its copy. 0, or -1 with err (perf's
 * own words when it gave some).
 */
int bidcache__add(const char *perf, const char *dir, const char *image, const uint8_t *id,
		  size_t id_len, struct ap_err *err);

#endif
