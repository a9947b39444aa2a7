/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_ATTR_COMPAT_H
#define AOTPERF_CLI_ATTR_COMPAT_H
/*
 * What the upstream helper refuses that aotperf reads, so that `aotperf
 * attr` refuses it too (docs/helper-interface.md, "What the drop-in
 * refuses"): a container outside versions 9 to 11, one without target
 * info, the native profile's target info, and a file-mode recording cut
 * short. Each message is the helper's, naming the file; the options the
 * helper lacks (--accept-older, --accept-cut) let aotperf read what it can.
 */
#include <stdint.h>
#include "../attr/attr.h"
#include "../cwasm/cwasm.h"

/* The helper's SUPPORTED_AOT_VERSIONS. */
#define ATTR_HELPER_VERSION_MIN 9
#define ATTR_HELPER_VERSION_MAX 11

/*
 * path's container against the helper's rules: 0, or -1 with err. m is the
 * parsed container, or NULL when aotperf refused it: then only the header's
 * version is looked at (the helper checks it before any section), and 0
 * means "aotperf's own message stands".
 */
int attr_compat__container(const char *path, const struct cwasm_module *m, int accept_older,
			   struct ap_err *err);

/*
 * The recording as the helper's perf report / perf script would take it: a
 * file-mode recording cut short makes perf stop at the cut and the helper
 * fail, so it is refused (-1 with err) unless accept_cut. A pipe-mode
 * stream cut short perf reads up to the cut, and so does the helper: 0.
 */
int attr_compat__recording(const char *path, const struct attr_scan *s, int accept_cut,
			   struct ap_err *err);

#endif
