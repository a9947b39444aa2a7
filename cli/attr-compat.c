// SPDX-License-Identifier: MIT
/*
 * The helper's refusals that aotperf attr keeps (docs/helper-interface.md,
 * "What the drop-in refuses"). The helper reads a container in this
 * order: magic, version, sections (target info checked as it comes), then
 * target info present, text and functions, offsets; the faults aotperf's
 * reader finds itself are the same faults in its own words.
 */
#include <inttypes.h>
#include <stdio.h>
#include "attr-compat.h"
#include "../util/file.h"
#include "../util/pct.h"

static int helper_version(uint32_t v)
{
	return v >= ATTR_HELPER_VERSION_MIN && v <= ATTR_HELPER_VERSION_MAX;
}

/* Versions aotperf reads that the helper does not, and --accept-older lets through. */
static int older_version(uint32_t v)
{
	return v >= CWASM_VERSION_MIN && v < ATTR_HELPER_VERSION_MIN;
}

static int bad_version(const char *path, uint32_t v, int accept_older, struct ap_err *err)
{
	if (helper_version(v) || (accept_older && older_version(v)))
		return 0;
	return ap_errf(err, "%s: incompatible aot_version=%" PRIu32 "; tool supports [9, 10, 11]%s",
		       path, v, older_version(v) ? " (--accept-older reads it, as aotperf report "
		       "does)" : "");
}

/* The header of a container aotperf refused: the helper's version fault comes first. */
static int header_version(const char *path, int accept_older, struct ap_err *err)
{
	struct ap_file f;
	struct ap_err ignore;
	uint8_t h[8];
	uint32_t magic, v;
	int ret = 0;

	if (ap_file__open(&f, path, 0, &ignore))
		return 0;
	if (!ap_file__pread(&f, h, sizeof(h), 0, &ignore)) {
		magic = (uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
			(uint32_t)h[3] << 24;
		v = (uint32_t)h[4] | (uint32_t)h[5] << 8 | (uint32_t)h[6] << 16 |
		    (uint32_t)h[7] << 24;
		if (magic == CWASM_MAGIC)
			ret = bad_version(path, v, accept_older, err);
	}
	ap_file__close(&f);
	return ret;
}

int attr_compat__container(const char *path, const struct cwasm_module *m, int accept_older,
			   struct ap_err *err)
{
	if (!m)
		return header_version(path, accept_older, err);
	if (bad_version(path, m->version, accept_older, err))
		return -1;
	/* the native profile keeps its runtime contract in the field the helper wants 0 */
	if (m->has_target_info && (m->ti.reserved || m->target.profile != CWASM_PROFILE_NONE))
		return ap_errf(err, "%s: target-info reserved field is nonzero", path);
	if (!m->has_target_info && !accept_older)
		return ap_errf(err, "%s: missing target-info section (--accept-older reads it with "
			       "--arch, as aotperf report does)", path);
	return 0;
}

int attr_compat__recording(const char *path, const struct attr_scan *s, int accept_cut,
			   struct ap_err *err)
{
	if (!s->truncated || s->pipe || accept_cut)
		return 0;
	return ap_errf(err, "%s: cut short: read %" PRIu64 " of %" PRIu64 " data bytes (%.2f%%): "
		       "perf stops at the cut, so the helper fails on it (--accept-cut reads the "
		       "records before it)", path, s->bytes_read, s->bytes_expected,
		       ap_pct(s->bytes_read, s->bytes_expected));
}
