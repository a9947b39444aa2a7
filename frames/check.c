// SPDX-License-Identifier: MIT
/*
 * The consistency rules of docs/sidecar.md that need no decoding: the
 * sidecar against its container (target, version, function, hashes), its
 * ranges, its frame layout, its allocator values and the semantic fields
 * of every access. Each failure is one line naming the file, the access
 * by native offset where there is one, and the rule.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/sha256.h"

const uint8_t *fr__code(const struct frames *fr, const struct cwasm_module *mod)
{
	return mod->text + fr->function_offset;
}

static const char *abi_str(enum cwasm_abi abi)
{
	const char *s = cwasm_abi__name(abi);

	return s ? s : "unspecified";
}

static int check_target(const struct frames *fr, const struct cwasm_module *mod,
			struct ap_err *err)
{
	if (!mod->has_target_info)
		return fr_err(err, fr, NULL, "the container %s has no target info: it cannot "
			      "vouch for a frame sidecar", mod->path);
	if (fr->arch != mod->target.arch)
		return fr_err(err, fr, NULL, "architecture %s does not match the container's "
			      "target %s (%s)", cwasm_arch__name(fr->arch),
			      cwasm_arch__name(mod->target.arch) ? cwasm_arch__name(mod->target.arch)
								 : "unknown", mod->path);
	if (!mod->target.verified)
		return fr_err(err, fr, NULL, "the container %s has legacy target info (no ABI "
			      "recorded): it cannot vouch for a frame sidecar", mod->path);
	if (fr->abi != mod->target.abi)
		return fr_err(err, fr, NULL, "abi %s does not match the container's %s (%s)",
			      abi_str(fr->abi), abi_str(mod->target.abi), mod->path);
	return 0;
}

static int check_identity(const struct frames *fr, const struct cwasm_module *mod,
			  uint32_t local_func, struct ap_err *err)
{
	const struct cwasm_func *f;
	uint8_t d[32];
	char hex[65];

	if (fr->cwasm_aot_version != mod->version)
		return fr_err(err, fr, NULL, "cwasm_aot_version %u does not match the container's "
			      "version %u (%s)", fr->cwasm_aot_version, mod->version, mod->path);
	if (mod->manifest_idx >= 0 && fr->module != (uint32_t)mod->manifest_idx)
		return fr_err(err, fr, NULL, "module %u is not the core's manifest idx %d (%s)",
			      fr->module, mod->manifest_idx, mod->path);
	if (local_func >= mod->nfuncs)
		return fr_err(err, fr, NULL, "local_func %u: the container has %u functions (%s)",
			      local_func, mod->nfuncs, mod->path);
	if (fr->local_func != local_func)
		return fr_err(err, fr, NULL, "local_func %u is not the function asked for (%u)",
			      fr->local_func, local_func);
	if (fr->module_text_size != mod->text_size)
		return fr_err(err, fr, NULL, "module_text_size %u does not match the container's "
			      "text size %u (%s)", fr->module_text_size, mod->text_size, mod->path);
	ap_sha256(mod->text, mod->text_size, d);
	ap_sha256_hex(d, hex);
	if (strcmp(hex, fr->module_text_sha256))
		return fr_err(err, fr, NULL, "module_text_sha256 %.12s... is not the container's "
			      "text hash %.12s...: the sidecar belongs to another core",
			      fr->module_text_sha256, hex);
	f = &mod->funcs[local_func];
	if (fr->function_offset != f->offset)
		return fr_err(err, fr, NULL, "function_offset %u does not match the container's "
			      "offset %u of local_func %u", fr->function_offset, f->offset,
			      local_func);
	if (fr->code_size != f->size)
		return fr_err(err, fr, NULL, "code_size %u does not match the container's size %u "
			      "of local_func %u", fr->code_size, f->size, local_func);
	return 0;
}

/* direct_call_rel32_offsets: sorted, apart, inside, each right after an E8. */
static int check_rel32(const struct frames *fr, const uint8_t *code, struct ap_err *err)
{
	uint64_t prior_end = 0;

	if (fr->arch != CWASM_ARCH_X86_64 && fr->nrel32)
		return fr_err(err, fr, NULL, "direct_call_rel32_offsets: must be empty on %s",
			      cwasm_arch__name(fr->arch));
	for (uint32_t i = 0; i < fr->nrel32; i++) {
		uint32_t o = fr->rel32[i];

		if (o < prior_end)
			return fr_err(err, fr, NULL, "direct_call_rel32_offsets: %u is not after "
				      "the previous field's end %llu (unsorted or overlapping)", o,
				      (unsigned long long)prior_end);
		if (o == 0 || (uint64_t)o + 4 > fr->code_size)
			return fr_err(err, fr, NULL, "direct_call_rel32_offsets: %u is outside the "
				      "function's calls (code_size %u)", o, fr->code_size);
		if (code[o - 1] != 0xe8)
			return fr_err(err, fr, NULL, "direct_call_rel32_offsets: %u does not follow "
				      "a CALL rel32 opcode (0xe8), the byte is 0x%02x", o, code[o - 1]);
		prior_end = (uint64_t)o + 4;
	}
	return 0;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* normalized_relocations: sorted, 4 bytes, inside, on the opcode their kind names. */
static int check_relocs(const struct frames *fr, const uint8_t *code, struct ap_err *err)
{
	uint64_t prior_end = 0;

	for (uint32_t i = 0; i < fr->nrelocs; i++) {
		const struct frames_reloc *x = &fr->relocs[i];
		const char *kn = frames__reloc_name(x->kind);

		if (x->native_start < prior_end)
			return fr_err(err, fr, NULL, "normalized_relocations: [%u,%u) starts before "
				      "the previous one ends (unsorted or overlapping)",
				      x->native_start, x->native_end);
		if ((uint64_t)x->native_start + 4 != x->native_end || x->native_end > fr->code_size)
			return fr_err(err, fr, NULL, "normalized_relocations: [%u,%u) is not a "
				      "4-byte field inside the function (code_size %u)",
				      x->native_start, x->native_end, fr->code_size);
		if (fr->arch == CWASM_ARCH_X86_64) {
			if (x->kind != FRAMES_RELOC_X86_64_CALL_REL32)
				return fr_err(err, fr, NULL, "normalized_relocations: %s at %u on "
					      "x86_64", kn, x->native_start);
			if (x->native_start == 0 || code[x->native_start - 1] != 0xe8)
				return fr_err(err, fr, NULL, "normalized_relocations: %u does not "
					      "follow a CALL rel32 opcode (0xe8)", x->native_start);
		} else {
			uint32_t want = x->kind == FRAMES_RELOC_AARCH64_CALL_IMM26 ? 0x94000000u :
					x->kind == FRAMES_RELOC_AARCH64_TAIL_CALL_IMM26 ? 0x14000000u : 0;

			if (!want)
				return fr_err(err, fr, NULL, "normalized_relocations: %s at %u on "
					      "aarch64", kn, x->native_start);
			if (x->native_start % 4)
				return fr_err(err, fr, NULL, "normalized_relocations: %u is not "
					      "4-byte aligned", x->native_start);
			if ((le32(code + x->native_start) & 0xfc000000u) != want)
				return fr_err(err, fr, NULL, "normalized_relocations: the word at %u "
					      "(0x%08x) is not the %s opcode", x->native_start,
					      le32(code + x->native_start), kn);
		}
		prior_end = x->native_end;
	}
	return 0;
}

/* When a sidecar carries both lists, they name the same fields. */
static int check_reloc_lists(const struct frames *fr, struct ap_err *err)
{
	if (!fr->nrel32 || !fr->nrelocs)
		return 0;
	if (fr->nrel32 != fr->nrelocs)
		return fr_err(err, fr, NULL, "direct_call_rel32_offsets (%u) and "
			      "normalized_relocations (%u) list different calls", fr->nrel32,
			      fr->nrelocs);
	for (uint32_t i = 0; i < fr->nrel32; i++)
		if (fr->rel32[i] != fr->relocs[i].native_start)
			return fr_err(err, fr, NULL, "direct_call_rel32_offsets[%u] = %u but "
				      "normalized_relocations[%u] starts at %u", i, fr->rel32[i], i,
				      fr->relocs[i].native_start);
	return 0;
}

/* The function's bytes with every relocation field zeroed (aarch64: opcode bits kept). */
static int check_code_hash(const struct frames *fr, const uint8_t *code, struct ap_err *err)
{
	uint8_t *norm = malloc(fr->code_size ? fr->code_size : 1), d[32];
	char hex[65];

	if (!norm)
		return ap_err_nomem(err);
	memcpy(norm, code, fr->code_size);
	if (fr->schema_version == 1) {
		for (uint32_t i = 0; i < fr->nrel32; i++)
			memset(norm + fr->rel32[i], 0, 4);
	} else {
		for (uint32_t i = 0; i < fr->nrelocs; i++) {
			uint8_t *p = norm + fr->relocs[i].native_start;

			if (fr->arch == CWASM_ARCH_X86_64) {
				memset(p, 0, 4);
			} else {
				p[0] = p[1] = p[2] = 0;
				p[3] &= 0xfc;
			}
		}
	}
	ap_sha256(norm, fr->code_size, d);
	free(norm);
	ap_sha256_hex(d, hex);
	if (strcmp(hex, fr->normalized_code_sha256))
		return fr_err(err, fr, NULL, "normalized_code_sha256 %.12s... is not the hash of "
			      "the function's code with its %s zeroed (%.12s...): the sidecar "
			      "belongs to other code", fr->normalized_code_sha256,
			      fr->schema_version == 1 ? "direct_call_rel32_offsets" :
			      "normalized_relocations", hex);
	return 0;
}

static int check_data(const struct frames *fr, struct ap_err *err)
{
	uint64_t prior_end = 0;

	for (uint32_t i = 0; i < fr->ndata; i++) {
		const struct frames_range *x = &fr->data[i];

		if (x->native_start < prior_end || x->native_end <= x->native_start ||
		    x->native_end > fr->code_size)
			return fr_err(err, fr, NULL, "inline_data_ranges: [%u,%u) is empty, "
				      "unsorted, overlapping or outside the function (code_size %u)",
				      x->native_start, x->native_end, fr->code_size);
		prior_end = x->native_end;
	}
	return 0;
}

static int check_layout(const struct frames *fr, struct ap_err *err)
{
	const struct frames_layout *l = &fr->layout;

	if (l->frame_size == 0 || l->spill_stride == 0)
		return fr_err(err, fr, NULL, "frame_layout: frame_size %u and spill_stride %d must "
			      "not be 0", l->frame_size, l->spill_stride);
	return 0;
}

/* frame_regions: sorted, non-overlapping, non-empty, aarch64: inside the frame. */
static int check_regions(const struct frames *fr, struct ap_err *err)
{
	int64_t prior_end = INT64_MIN;

	for (uint32_t i = 0; i < fr->nregions; i++) {
		const struct frames_region *x = &fr->regions[i];

		if (x->end <= x->start || x->start < prior_end ||
		    (fr->arch == CWASM_ARCH_AARCH64 &&
		     (x->start < 0 || (int64_t)x->end > fr->layout.frame_size)))
			return fr_err(err, fr, NULL, "frame_regions: [%d,%d) is empty, unsorted, "
				      "overlapping or outside the frame (frame_size %u)", x->start,
				      x->end, fr->layout.frame_size);
		prior_end = x->end;
	}
	return 0;
}

static int expected_offset(const struct frames *fr, uint64_t slot, int64_t *off)
{
	*off = (int64_t)fr->layout.spill_base + (int64_t)slot * fr->layout.spill_stride;
	return *off >= INT32_MIN && *off <= INT32_MAX;
}

struct vreg_idx {
	uint32_t vreg, idx;
};

static int vreg_idx_cmp(const void *a, const void *b)
{
	const struct vreg_idx *x = a, *y = b;

	return x->vreg < y->vreg ? -1 : x->vreg > y->vreg;
}

/* The vreg and slot indexes of frames__value() and frames__slot_values(). */
static int index_values(struct frames *fr, struct ap_err *err)
{
	uint32_t n = fr->nvalues, top = 0, *fill;

	struct vreg_idx *t = malloc((n ? n : 1) * sizeof(*t));

	fr->by_vreg = malloc((n ? n : 1) * sizeof(*fr->by_vreg));
	if (!fr->by_vreg || !t) {
		free(t);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++) {
		t[i].vreg = fr->values[i].vreg;
		t[i].idx = i;
		if (fr->values[i].slot + fr->values[i].slot_count > top)
			top = fr->values[i].slot + fr->values[i].slot_count;
	}
	qsort(t, n, sizeof(*t), vreg_idx_cmp);
	for (uint32_t i = 0; i < n; i++)
		fr->by_vreg[i] = t[i].idx;
	free(t);
	fr->nslot_index = top;
	fr->slot_first = calloc((size_t)top + 1, sizeof(*fr->slot_first));
	fill = calloc((size_t)top + 1, sizeof(*fill));
	if (!fr->slot_first || !fill) {
		free(fill);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t s = fr->values[i].slot; s < fr->values[i].slot + fr->values[i].slot_count; s++)
			fr->slot_first[s + 1]++;
	for (uint32_t s = 0; s < top; s++)
		fr->slot_first[s + 1] += fr->slot_first[s];
	fr->slot_vals = malloc((fr->slot_first[top] ? fr->slot_first[top] : 1) * sizeof(uint32_t));
	if (!fr->slot_vals) {
		free(fill);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < n; i++)
		for (uint32_t s = fr->values[i].slot; s < fr->values[i].slot + fr->values[i].slot_count; s++)
			fr->slot_vals[fr->slot_first[s] + fill[s]++] = i;
	free(fill);
	return 0;
}

/* allocator_values: one entry per vreg, on the layout's slots, v128 two slots, reuse flagged. */
static int check_values(struct frames *fr, struct ap_err *err)
{
	for (uint32_t i = 0; i < fr->nvalues; i++) {
		const struct frames_value *v = &fr->values[i];
		int v128 = v->value_type && !strcmp(v->value_type, "v128");
		int64_t off;

		if (v->slot_count == 0 || (uint64_t)v->slot + v->slot_count > fr->layout.spill_slots)
			return fr_err(err, fr, NULL, "allocator_values: vreg %u: slots %u..%u are "
				      "outside the %u spill slots", v->vreg, v->slot,
				      v->slot + v->slot_count, fr->layout.spill_slots);
		if (!expected_offset(fr, v->slot, &off) || v->frame_offset != off)
			return fr_err(err, fr, NULL, "allocator_values: vreg %u: frame_offset %d is "
				      "not spill_base + slot * spill_stride = %lld", v->vreg,
				      v->frame_offset, (long long)off);
		if (v->slot_count != (v128 ? 2 : 1))
			return fr_err(err, fr, NULL, "allocator_values: vreg %u: slot_count %u for "
				      "value_type %s (v128 takes 2 slots, others 1)", v->vreg,
				      v->slot_count, v->value_type ? v->value_type : "null");
	}
	if (index_values(fr, err))
		return -1;
	for (uint32_t i = 1; i < fr->nvalues; i++)
		if (fr->values[fr->by_vreg[i]].vreg == fr->values[fr->by_vreg[i - 1]].vreg)
			return fr_err(err, fr, NULL, "allocator_values: vreg %u is listed twice",
				      fr->values[fr->by_vreg[i]].vreg);
	for (uint32_t i = 0; i < fr->nvalues; i++) {
		const struct frames_value *v = &fr->values[i];
		int shared = 0;

		for (uint32_t s = v->slot; s < v->slot + v->slot_count; s++)
			shared |= fr->slot_first[s + 1] - fr->slot_first[s] > 1;
		if (v->reused != shared)
			return fr_err(err, fr, NULL, "allocator_values: vreg %u: reused is %s but "
				      "its slots are %s", v->vreg, v->reused ? "true" : "false",
				      shared ? "shared with another value" : "its own");
	}
	return 0;
}

/* The details schema-2 aarch64 files may give each origin. */
static int detail_allowed(enum frames_origin o, const char *d)
{
	static const char *const allowed[FRAMES__NORIGINS][10] = {
		[FRAMES_ALLOCATOR_SPILL] = { "allocator_slot" },
		[FRAMES_WASM_LOCAL_OR_PHI] = { "wasm_local_or_lowered_phi" },
		[FRAMES_EXPLICIT_FRAME_STORAGE] = { "hidden_return_pointer", "call_result_scratch" },
		[FRAMES_FIXED_RUNTIME_FRAME_STATE] = {
			"saved_frame_pointer", "return_address", "reserved_vmctx",
			"caller_saved_register", "callee_saved_register", "incoming_abi_argument",
			"prologue_saved_fp_lr", "epilogue_restored_fp_lr", "outgoing_abi_frame" },
		[FRAMES_UNKNOWN] = { "unclassified_frame_access" },
	};

	for (size_t i = 0; i < 10 && allowed[o][i]; i++)
		if (!strcmp(allowed[o][i], d))
			return 1;
	return 0;
}

static const struct frames_region *region_of(const struct frames *fr, int64_t off, int width)
{
	for (uint32_t i = 0; i < fr->nregions; i++)
		if (fr->regions[i].start <= off && off + width <= fr->regions[i].end)
			return &fr->regions[i];
	return NULL;
}

/* The allocator rules of one component: slot, layout, value coverage, vreg identity. */
static int check_allocator(const struct frames *fr, const struct frames_access *x,
			   const struct frames_component *c, struct ap_err *err)
{
	uint32_t stride = (uint32_t)abs(fr->layout.spill_stride), ncand, nfit = 0;
	uint64_t occupied = (c->width + stride - 1) / stride, slot;
	const uint32_t *cand;
	int vreg_fits = 0;
	int64_t off;

	if (c->slot == FRAMES_NULL)
		return fr_err(err, fr, x, "allocator_spill without a slot");
	slot = (uint64_t)c->slot;
	cand = frames__slot_values(fr, (uint32_t)slot, &ncand);
	if (!ncand)
		return fr_err(err, fr, x, "slot %llu holds no allocator value",
			      (unsigned long long)slot);
	if (slot + occupied > fr->layout.spill_slots)
		return fr_err(err, fr, x, "%u bytes at slot %llu run past the %u spill slots",
			      c->width, (unsigned long long)slot, fr->layout.spill_slots);
	for (uint32_t i = 0; i < ncand; i++) {
		const struct frames_value *v = &fr->values[cand[i]];

		if (slot + occupied > (uint64_t)v->slot + v->slot_count)
			continue;
		nfit++;
		if (c->vreg != FRAMES_NULL && v->vreg == (uint64_t)c->vreg)
			vreg_fits = 1;
	}
	if (!nfit)
		return fr_err(err, fr, x, "%u bytes at slot %llu are more than any value there "
			      "covers", c->width, (unsigned long long)slot);
	if (!expected_offset(fr, slot, &off) || c->frame_offset != off)
		return fr_err(err, fr, x, "slot %llu is at frame offset %lld (spill_base + slot * "
			      "spill_stride), not %d", (unsigned long long)slot, (long long)off,
			      c->frame_offset);
	if (c->vreg != FRAMES_NULL && !vreg_fits)
		return fr_err(err, fr, x, "vreg %lld does not occupy slot %llu for %u bytes",
			      (long long)c->vreg, (unsigned long long)slot, c->width);
	if (nfit > 1 && c->vreg == FRAMES_NULL && !c->vreg_ambiguous)
		return fr_err(err, fr, x, "slot %llu is reused: the access needs a vreg or "
			      "vreg_ambiguous true", (unsigned long long)slot);
	if (nfit == 1 && c->vreg == FRAMES_NULL)
		return fr_err(err, fr, x, "slot %llu holds one value only: its vreg must be named",
			      (unsigned long long)slot);
	return 0;
}

/* The rules every component (schema 1: the access itself) obeys. */
static int check_component(const struct frames *fr, const struct frames_access *x,
			   const struct frames_component *c, struct ap_err *err)
{
	const struct frames_layout *l = &fr->layout;
	int a64 = fr->arch == CWASM_ARCH_AARCH64;

	if (c->width == 0)
		return fr_err(err, fr, x, "width 0");
	if (a64 && fr->schema_version >= 2) {
		if (!detail_allowed(c->origin, c->detail))
			return fr_err(err, fr, x, "detail %s is not one %s has", c->detail,
				      frames__origin_name(c->origin));
		if (c->data_register < 0 || c->data_register_class < 0)
			return fr_err(err, fr, x, "a component without data_register and "
				      "data_register_class");
		if (c->base == FRAMES_X29 && c->frame_offset >= 0 &&
		    (int64_t)c->frame_offset < l->frame_size) {
			const struct frames_region *g = region_of(fr, c->frame_offset, c->width);

			if (!g && c->origin != FRAMES_UNKNOWN)
				return fr_err(err, fr, x, "frame bytes [%d,%d) lie in no frame region",
					      c->frame_offset, c->frame_offset + c->width);
			if (g && g->origin != c->origin)
				return fr_err(err, fr, x, "origin %s, but the frame region [%d,%d) "
					      "is %s", frames__origin_name(c->origin), g->start, g->end,
					      frames__origin_name(g->origin));
		}
	}
	if (c->origin == FRAMES_WASM_LOCAL_OR_PHI &&
	    (c->local_index == FRAMES_NULL || c->local_index >= l->local_count))
		return fr_err(err, fr, x, "wasm_local_or_phi needs a local_index below local_count "
			      "%u", l->local_count);
	if (c->origin == FRAMES_EXPLICIT_FRAME_STORAGE) {
		if (c->explicit_slot == FRAMES_NULL || c->explicit_slot >= l->explicit_storage_slots)
			return fr_err(err, fr, x, "explicit_frame_storage needs an explicit_slot "
				      "below explicit_storage_slots %u", l->explicit_storage_slots);
		if (a64 && c->frame_offset != (int64_t)l->explicit_storage_first_offset +
						      c->explicit_slot * 8)
			return fr_err(err, fr, x, "explicit_slot %lld is at frame offset %lld, not %d",
				      (long long)c->explicit_slot,
				      (long long)l->explicit_storage_first_offset + c->explicit_slot * 8,
				      c->frame_offset);
	}
	if (c->vreg != FRAMES_NULL && c->vreg_ambiguous)
		return fr_err(err, fr, x, "a vreg and vreg_ambiguous true together");
	if (c->origin == FRAMES_ALLOCATOR_SPILL)
		return check_allocator(fr, x, c, err);
	return 0;
}

static int same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Schema 2: the top-level fields summarize the components. */
static int check_top(const struct frames *fr, const struct frames_access *x, struct ap_err *err)
{
	const struct frames_component *t = &x->top, *c = x->comp;
	int pair_mode = x->addressing_mode == A64_MODE_SIGNED_PAIR ||
			x->addressing_mode == A64_MODE_PRE_INDEX ||
			x->addressing_mode == A64_MODE_POST_INDEX;
	unsigned int sum = 0;

	for (int i = 0; i < x->ncomp; i++)
		sum += c[i].width;
	if (sum != t->width)
		return fr_err(err, fr, x, "width %u is not the components' %u", t->width, sum);
	if (x->ncomp == 2 && (c[1].base != c[0].base ||
			      (int64_t)c[1].frame_offset != (int64_t)c[0].frame_offset + c[0].width))
		return fr_err(err, fr, x, "the pair's components are not contiguous");
	if (x->ncomp == 2 && c[0].width != c[1].width)
		return fr_err(err, fr, x, "the pair's components differ in width");
	if ((x->ncomp == 2) != pair_mode)
		return fr_err(err, fr, x, "%u components with addressing_mode %s", x->ncomp,
			      a64__mode_name(x->addressing_mode));
	if (t->origin != (x->ncomp == 1 || c[0].origin == c[1].origin ? c[0].origin : FRAMES_UNKNOWN))
		return fr_err(err, fr, x, "origin %s does not summarize the components'",
			      frames__origin_name(t->origin));
	if (strcmp(t->detail, x->ncomp == 1 || !strcmp(c[0].detail, c[1].detail) ?
				      c[0].detail : "mixed_pair_frame_access"))
		return fr_err(err, fr, x, "detail %s does not summarize the components'", t->detail);
	if (t->base != c[0].base || t->frame_offset != c[0].frame_offset)
		return fr_err(err, fr, x, "base/frame_offset %s%+d are not the first component's "
			      "%s%+d", frames__base_name(t->base), t->frame_offset,
			      frames__base_name(c[0].base), c[0].frame_offset);
	if (x->ncomp == 1 &&
	    (t->slot != c->slot || t->local_index != c->local_index ||
	     t->explicit_slot != c->explicit_slot || t->vreg != c->vreg ||
	     t->vreg_ambiguous != c->vreg_ambiguous || t->remat != c->remat ||
	     !same_str(t->defining_opcode, c->defining_opcode) ||
	     !same_str(t->source_class, c->source_class)))
		return fr_err(err, fr, x, "the top-level slot/local/vreg/source fields differ from "
			      "the single component's");
	return 0;
}

static int check_accesses(const struct frames *fr, struct ap_err *err)
{
	uint64_t prior_end = 0;

	for (uint32_t i = 0; i < fr->nacc; i++) {
		const struct frames_access *x = &fr->acc[i];

		if (x->native_start < prior_end)
			return fr_err(err, fr, x, "starts before the previous access ends at +0x%llx "
				      "(unsorted or overlapping)", (unsigned long long)prior_end);
		if (x->native_end <= x->native_start || x->native_end > fr->code_size)
			return fr_err(err, fr, x, "native_end +0x%x is not inside (+0x%x, +0x%x]",
				      x->native_end, x->native_start, fr->code_size);
		for (uint32_t d = 0; d < fr->ndata; d++)
			if (x->native_start < fr->data[d].native_end &&
			    fr->data[d].native_start < x->native_end)
				return fr_err(err, fr, x, "overlaps the inline data [%u,%u)",
					      fr->data[d].native_start, fr->data[d].native_end);
		if (fr->schema_version >= 2 && check_top(fr, x, err))
			return -1;
		for (int c = 0; c < x->ncomp; c++)
			if (check_component(fr, x, &x->comp[c], err))
				return -1;
		prior_end = x->native_end;
	}
	return 0;
}

int fr__check(struct frames *fr, const struct cwasm_module *mod, uint32_t local_func,
	      struct ap_err *err)
{
	const uint8_t *code;

	if (check_target(fr, mod, err) || check_identity(fr, mod, local_func, err))
		return -1;
	code = fr__code(fr, mod);
	if (check_reloc_lists(fr, err) || check_rel32(fr, code, err) ||
	    check_relocs(fr, code, err) || check_code_hash(fr, code, err) || check_data(fr, err) ||
	    check_layout(fr, err) || check_regions(fr, err) || check_values(fr, err) ||
	    check_accesses(fr, err))
		return -1;
	return 0;
}

int fr__check_counts(const struct frames *fr, struct ap_err *err)
{
	uint32_t *ld = calloc(fr->nvalues + 1, sizeof(*ld)), *st = calloc(fr->nvalues + 1, sizeof(*st));
	uint64_t loads = 0, stores = 0;
	int ret = 0;

	if (!ld || !st) {
		free(ld);
		free(st);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < fr->nacc; i++) {
		const struct frames_access *x = &fr->acc[i];

		for (int c = 0; c < x->ncomp; c++) {
			const struct frames_component *k = &x->comp[c];
			const struct frames_value *v;

			if (k->origin != FRAMES_ALLOCATOR_SPILL)
				continue;
			if (x->kind == FRAMES_LOAD)
				loads++;
			else
				stores++;
			v = k->vreg == FRAMES_NULL ? NULL : frames__value(fr, (uint32_t)k->vreg);
			if (v) {
				uint32_t *cnt = x->kind == FRAMES_LOAD ? ld : st;

				cnt[v - fr->values]++;
			}
		}
	}
	for (uint32_t i = 0; i < fr->nvalues && !ret; i++) {
		const struct frames_value *v = &fr->values[i];

		if (v->reload_count != ld[i] || v->store_count != st[i])
			ret = fr_err(err, fr, NULL, "allocator_values: vreg %u: reload_count/"
				     "store_count %u/%u, but the accesses naming it load/store %u/%u",
				     v->vreg, v->reload_count, v->store_count, ld[i], st[i]);
	}
	if (!ret && (fr->emitted_allocator_loads != loads || fr->emitted_allocator_stores != stores))
		ret = fr_err(err, fr, NULL, "emitted_allocator_loads/stores %u/%u, but the "
			     "allocator accesses load/store %llu/%llu", fr->emitted_allocator_loads,
			     fr->emitted_allocator_stores, (unsigned long long)loads,
			     (unsigned long long)stores);
	if (!ret && (fr->metric.spill_ld != loads || fr->metric.spill_st != stores))
		ret = fr_err(err, fr, NULL, "spill_metric spill_ld/spill_st %u/%u do not reconcile "
			     "with the allocator accesses' %llu/%llu", fr->metric.spill_ld,
			     fr->metric.spill_st, (unsigned long long)loads,
			     (unsigned long long)stores);
	free(ld);
	free(st);
	return ret;
}
