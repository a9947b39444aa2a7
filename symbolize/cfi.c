// SPDX-License-Identifier: MIT
/*
 * symcfi: unwinding data for symbolize's ELF images and jitdumps (see
 * cfi.h). The rules come from capstone's instruction starts, so x86 tail
 * jumps get their rule (unwind/rules_x86.c).
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cfi.h"
#include "../attr/attr.h"
#include "../decode/unwind_table.h"
#include "../perfdata/perfdata.h"
#include "../session/session.h"
#include "../unwind/ehframe.h"

struct unwind_table **symcfi__tables(const struct attr_result *res, struct ap_err *err)
{
	struct unwind_table **t = calloc(res->ncores + 1, sizeof(*t));

	if (!t) {
		ap_err_nomem(err);
		return NULL;
	}
	for (uint32_t c = 0; c < res->ncores; c++) {
		const struct cwasm_module *m = res->cores[c].mod;
		enum unwind_arch arch;

		if (!res->cores[c].nmappings)
			continue;
		t[c] = dc__unwind_table(m, err);
		if (!t[c] && m->nfuncs && dc__unwind_arch(m, &arch)) {
			symcfi__tables_delete(t, res->ncores);
			return NULL;
		}
	}
	return t;
}

void symcfi__tables_delete(struct unwind_table **t, uint32_t n)
{
	for (uint32_t c = 0; t && c < n; c++)
		unwind_table__delete(t[c]);
	free(t);
}

struct range {
	uint64_t lo, hi;
};

struct symcfi_maps {
	struct range *v;
	size_t n, cap;
};

/* The maps always live in a tool of their own (session.h hands the tool back). */
struct maps_tool {
	struct session_tool tool;
	struct symcfi_maps maps;
};

static struct maps_tool *maps_tool_of(struct symcfi_maps *maps)
{
	return (struct maps_tool *)((char *)maps - offsetof(struct maps_tool, maps));
}

void symcfi__maps_delete(struct symcfi_maps *maps)
{
	if (!maps)
		return;
	free(maps->v);
	free(maps_tool_of(maps));
}

static int maps_push(struct symcfi_maps *maps, uint64_t start, uint64_t len)
{
	if (maps->n == maps->cap) {
		size_t cap = maps->cap ? 2 * maps->cap : 256;
		struct range *v = realloc(maps->v, cap * sizeof(*v));

		if (!v)
			return -1;
		maps->v = v;
		maps->cap = cap;
	}
	maps->v[maps->n].lo = start;
	maps->v[maps->n].hi = start + len < start ? UINT64_MAX : start + len;
	maps->n++;
	return 0;
}

static int maps_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct symcfi_maps *maps = &((struct maps_tool *)t)->maps;
	int bad = 0;

	if (ev->hdr->type == PERF_RECORD_MMAP)
		bad = maps_push(maps, ev->ev->mmap.start, ev->ev->mmap.len);
	else if (ev->hdr->type == PERF_RECORD_MMAP2)
		bad = maps_push(maps, ev->ev->mmap2.start, ev->ev->mmap2.len);
	return bad ? ap_err_nomem(err) : 0;
}

struct symcfi_maps *symcfi_maps__new(void)
{
	struct maps_tool *mt = calloc(1, sizeof(*mt));

	if (!mt)
		return NULL;
	mt->tool.record = maps_record;
	return &mt->maps;
}

struct session_tool *symcfi_maps__tool(struct symcfi_maps *maps)
{
	return &maps_tool_of(maps)->tool;
}

int symcfi__maps_read(struct session *s, struct symcfi_maps **out, struct ap_err *err)
{
	struct symcfi_maps *maps = symcfi_maps__new();
	struct session_tool *t;

	*out = NULL;
	if (!maps)
		return ap_err_nomem(err);
	t = symcfi_maps__tool(maps);
	if (session__process(s, &t, 1, err)) {
		symcfi__maps_delete(maps);
		return -1;
	}
	*out = maps;
	return 0;
}

int symcfi__range_free(const struct symcfi_maps *maps, uint64_t lo, uint64_t hi)
{
	for (size_t i = 0; i < maps->n; i++)
		if (maps->v[i].lo < hi && lo < maps->v[i].hi)
			return 0;
	return 1;
}

static int build_cfi(const struct cwasm_module *m, const struct unwind_table *t,
		     uint64_t vaddr, struct unwind_ehframe *eh, struct ap_err *err)
{
	int e = unwind_ehframe__build(t, 0, unwind_table__nfuncs(t), ELFIMAGE_TEXT_OFFSET,
				      vaddr, eh);

	if (e)
		return ap_errk(err, e == -ENOMEM ? AP_ERR_NOMEM : AP_ERR_INPUT,
			       "%s: cannot encode unwinding data", m->path);
	return 0;
}

static uint64_t page_up(uint64_t v)
{
	return (v + ELFIMAGE_PAGE - 1) & ~(uint64_t)(ELFIMAGE_PAGE - 1);
}

/* pc-relative CFI encodings reach 2 GiB; stay well inside */
#define CFI_REACH 0x70000000ull

static int room_at(const struct symcfi_maps *maps, const uint64_t *starts, uint32_t nstarts,
		   uint64_t off, uint64_t len)
{
	for (uint32_t i = 0; i < nstarts; i++)
		if (starts[i] + off < starts[i] ||
		    !symcfi__range_free(maps, starts[i] + off, starts[i] + off + len))
			return 0;
	return 1;
}

/*
 * The lowest page offset from the text's start, past the text, where LEN
 * bytes are free in every mapping of the core; 0 if none within reach.
 * Candidates: right after the text, and right after each recorded range.
 */
static uint64_t find_room(const struct symcfi_maps *maps, const uint64_t *starts,
			  uint32_t nstarts, uint32_t text_size, uint64_t len)
{
	uint64_t best = 0, lo = page_up(text_size);

	if (room_at(maps, starts, nstarts, lo, len))
		return lo;
	for (size_t r = 0; r < maps->n; r++) {
		for (uint32_t i = 0; i < nstarts; i++) {
			uint64_t off;

			if (maps->v[r].hi <= starts[i] + lo)
				continue;
			off = page_up(maps->v[r].hi - starts[i]);
			if (off + len > CFI_REACH || (best && off >= best))
				continue;
			if (room_at(maps, starts, nstarts, off, len))
				best = off;
		}
	}
	return best;
}

int symcfi__write_image(const char *path, const struct cwasm_module *m, uint16_t e_machine,
			const uint32_t *offsets, const char *const *names,
			struct symcfi_maps *maps, const uint64_t *starts, uint32_t nstarts,
			struct symcfi_place *place, uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE],
			struct ap_err *err)
{
	struct unwind_ehframe eh = { 0 };
	struct elfimage_cfi cfi = { 0 };
	struct unwind_table *t;
	uint64_t file_off = elfimage__cfi_offset(m->text_size), in_page, room;
	int ret;

	memset(place, 0, sizeof(*place));
	t = dc__unwind_table(m, err);
	if (!t) {
		enum unwind_arch arch;

		if (m->nfuncs && dc__unwind_arch(m, &arch))
			return -1;	/* the rules failed, err says why */
		return elfimage__write_id(path, e_machine, m->text, m->text_size, offsets,
					  m->nfuncs, names, build_id, err);
	}
	/* the size first (it does not depend on where the CFI goes), then
	 * the room for it, then the bytes for that address */
	ret = build_cfi(m, t, file_off, &eh, err);
	in_page = file_off % ELFIMAGE_PAGE;
	if (!ret && maps) {
		room = find_room(maps, starts, nstarts, m->text_size,
				 page_up(in_page + eh.eh_frame_size + eh.hdr_size));
		if (room) {
			cfi.vaddr = ELFIMAGE_TEXT_OFFSET + room + in_page;
			unwind_ehframe__exit(&eh);
			ret = build_cfi(m, t, cfi.vaddr, &eh, err);
			place->map_off = room;
			place->pgoff = file_off - in_page;
			place->len = page_up(in_page + eh.eh_frame_size + eh.hdr_size);
			/* taken: another core's CFI must not land there too */
			for (uint32_t i = 0; i < nstarts && !ret; i++)
				if (maps_push(maps, starts[i] + room, place->len))
					ret = ap_err_nomem(err);
		}
	}
	unwind_table__delete(t);
	if (!ret) {
		cfi.data = eh.data;
		cfi.eh_frame_size = eh.eh_frame_size;
		cfi.hdr_size = eh.hdr_size;
		ret = elfimage__write_cfi(path, e_machine, m->text, m->text_size, offsets,
					  m->nfuncs, names, &cfi, build_id, err);
	}
	if (ret)
		memset(place, 0, sizeof(*place));
	unwind_ehframe__exit(&eh);
	return ret;
}
