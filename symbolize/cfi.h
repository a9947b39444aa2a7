/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_CFI_H
#define AOTPERF_SYMBOLIZE_CFI_H
/*
 * Unwinding data for what symbolize writes (docs/unwinding.md): the rules
 * of a core from its decoded instructions (unwind/), and the ELF image
 * with .eh_frame and .eh_frame_hdr at an address the recording leaves
 * free, for an extra mapping record through which perf reads them.
 */
#include <stdint.h>
#include "../cwasm/cwasm.h"
#include "../unwind/unwind.h"
#include "../session/session.h"
#include "../util/err.h"
#include "elfimage.h"

/*
 * Rules (decode/unwind_table.h) for every mapped core of RES (NULL entries for the others and for
 * architectures without rules), for the jitdump writer. NULL with err
 * filled on failure. Free with symcfi__tables_delete.
 */
struct attr_result;
struct unwind_table **symcfi__tables(const struct attr_result *res, struct ap_err *err);
void symcfi__tables_delete(struct unwind_table **t, uint32_t n);

/* Every mapping record of a recording, to tell whether an address range
 * is free in all of them. */
struct symcfi_maps;

/* Along the pass of another read: a tool of the session (session.h) filling maps. */
struct symcfi_maps *symcfi_maps__new(void);
struct session_tool *symcfi_maps__tool(struct symcfi_maps *maps);
/* A pass of the session of their own: 0 and *out, or -1 with err. */
int symcfi__maps_read(struct session *s, struct symcfi_maps **out, struct ap_err *err);
void symcfi__maps_delete(struct symcfi_maps *maps);

/* 1 when no MMAP/MMAP2 record of any process touches [lo, hi). */
int symcfi__range_free(const struct symcfi_maps *maps, uint64_t lo, uint64_t hi);

/*
 * Where a core's CFI is mapped: the image's file range [pgoff, pgoff +
 * len) at text start + map_off, in every mapping of the core; map_off 0:
 * not mapped (no CFI, or no free room within reach of the text).
 */
struct symcfi_place {
	uint64_t map_off, pgoff, len;
};

/*
 * Write M's ELF image to PATH, with its unwinding data when its
 * architecture has rules, placed at the lowest offset from the text
 * where every mapping of the core (their start addresses in STARTS)
 * finds the room free in MAPS (NULL: none looked for). The room taken is
 * added to MAPS, so the next core's CFI goes elsewhere. Without room, the
 * CFI is still written, right after the text, but not mapped. build_id
 * receives the image's build id.
 */
int symcfi__write_image(const char *path, const struct cwasm_module *m, uint16_t e_machine,
			const uint32_t *offsets, const char *const *names,
			struct symcfi_maps *maps, const uint64_t *starts, uint32_t nstarts,
			struct symcfi_place *place, uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE],
			struct ap_err *err);

#endif
