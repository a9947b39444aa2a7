/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SYMBOLIZE_ELFIMAGE_H
#define AOTPERF_SYMBOLIZE_ELFIMAGE_H
/*
 * One ELF image per core, for the direct path (docs/formats-perf.md): a
 * copy of perf.data whose //anon MMAP2 of the core names this file with
 * pgoff ELFIMAGE_TEXT_OFFSET makes stock perf report/annotate name and
 * disassemble every function, with no -k mono and no perf inject.
 *
 * Layout: ET_DYN, ELFCLASS64, little-endian, e_machine as given.
 *   0x0    ELF header, two program headers: PT_LOAD R+X, offset == vaddr
 *          == 0x1000, exactly the text; PT_NOTE over the build id
 *   0xb0   .note.gnu.build-id   NT_GNU_BUILD_ID, 20 bytes (perf and readelf
 *          find it by section name, other tools through PT_NOTE)
 *   0x1000 .text                the core's text
 *   then   .symtab .strtab .shstrtab, section headers
 * One STT_FUNC GLOBAL symbol per function of non-zero size, at
 * 0x1000 + offset, sized to the next offset (the last to the end of text).
 * eu-elflint --gnu-ld finds nothing to report.
 *
 * The build-id is SHA-256 (truncated to 20 bytes) over the text, the
 * symbol table, the CFI and e_machine: perf caches DSOs by build-id, so a
 * core with the same code but other names gets another id, and the same
 * core, names and placement always the same one (docs/formats-perf.md
 * "Build ids").
 *
 * With unwinding data (elfimage__write_cfi, docs/unwinding.md) the image
 * gets five program headers: PT_LOAD R at 0 (the ELF and program headers
 * and the note, then allocated), the text's PT_LOAD, a PT_LOAD R holding
 * .eh_frame and then .eh_frame_hdr, PT_NOTE, and PT_GNU_EH_FRAME over
 * .eh_frame_hdr. The CFI sits in
 * the file right after the text (elfimage__cfi_offset) but at the
 * address the caller chose (same offset within its page): perf reads it
 * through a mapping of the image at that address, which must be free in
 * the recording.
 */
#include <stdint.h>
#include "../util/err.h"

#define ELFIMAGE_TEXT_OFFSET 0x1000u
#define ELFIMAGE_BUILD_ID_SIZE 20

/*
 * Write the image to PATH atomically (temporary file in the same folder,
 * renamed when complete). names: NULL, or nfuncs entries where NULL or ""
 * means local_func_<i>; names are sanitized. Offsets must be ascending and
 * inside the text. Returns 0, or -1 with err filled.
 */
int elfimage__write(const char *path, uint16_t e_machine, const uint8_t *text,
		    uint32_t text_size, const uint32_t *offsets, uint32_t nfuncs,
		    const char *const *names, struct ap_err *err);

/*
 * Unwinding data for an image: .eh_frame (eh_frame_size bytes) followed
 * by .eh_frame_hdr, encoded for .eh_frame at address vaddr and the text
 * at ELFIMAGE_TEXT_OFFSET (unwind/ehframe.h builds it). vaddr must be at
 * or above the text's end and congruent to elfimage__cfi_offset() modulo
 * the page size; 0 means elfimage__cfi_offset() itself.
 */
struct elfimage_cfi {
	const uint8_t *data;
	size_t eh_frame_size, hdr_size;
	uint64_t vaddr;
};

#define ELFIMAGE_PAGE 0x1000u

/* The file offset of .eh_frame for a text of TEXT_SIZE bytes: right
 * after the text, 8-aligned. */
uint64_t elfimage__cfi_offset(uint32_t text_size);

/* The same; build_id (if not NULL) receives the id written. */
int elfimage__write_id(const char *path, uint16_t e_machine,
		       const uint8_t *text, uint32_t text_size,
		       const uint32_t *offsets, uint32_t nfuncs,
		       const char *const *names,
		       uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE],
		       struct ap_err *err);

/* The same with unwinding data (cfi NULL: exactly elfimage__write_id). */
int elfimage__write_cfi(const char *path, uint16_t e_machine, const uint8_t *text,
			uint32_t text_size, const uint32_t *offsets, uint32_t nfuncs,
			const char *const *names, const struct elfimage_cfi *cfi,
			uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE], struct ap_err *err);

#endif
