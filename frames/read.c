// SPDX-License-Identifier: MIT
/*
 * Sidecar JSON into struct frames: every key the compiler writes, with its
 * type and null rule (docs/sidecar.md, "Keys"). Consistency between the
 * values, and with the container, is check.c's and native.c's job.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../cwasm/json_read.h"

/* A sidecar of a very large function is a few tens of MB. */
#define SIDECAR_MAX (512u << 20)

struct rd {
	struct frames *fr;
	struct ap_err *err;
	char ctx[96];		/* "accesses[3]", "frame_layout", ... */
	const struct frames_access *acc;	/* named by offset once known */
};

static int bad(struct rd *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "PATH: [access at +0xN: ]CTX.KEY: what" */
static int bad(struct rd *r, const char *key, const char *fmt, ...)
{
	char what[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (!*r->ctx && !key)
		return fr_err(r->err, r->fr, r->acc, "%s", what);
	return fr_err(r->err, r->fr, r->acc, "%s%s%s: %s", r->ctx, *r->ctx && key ? "." : "",
		      key ? key : "", what);
}

/* Member key of obj; -1 when repeated, or missing and required. */
static int member(struct rd *r, const struct jr_node *obj, const char *key, int required,
		  const struct jr_node **out)
{
	size_t count;

	*out = jr__get(obj, key, &count);
	if (count > 1)
		return bad(r, key, "repeated key");
	if (!*out && required)
		return bad(r, key, "missing");
	return 0;
}

static int get_int(struct rd *r, const struct jr_node *obj, const char *key, int nullable,
		   int64_t lo, int64_t hi, int64_t *out)
{
	const struct jr_node *n;

	if (member(r, obj, key, 1, &n))
		return -1;
	if (n->type == JR_NULL && nullable) {
		*out = FRAMES_NULL;
		return 0;
	}
	if (n->type != JR_NUMBER || !n->is_int)
		return bad(r, key, "must be an integer%s, not %s", nullable ? " or null" : "",
			   n->type == JR_NUMBER ? "a fraction or a huge number" :
			   jr__type_name(n->type));
	if (n->integer < lo || n->integer > hi)
		return bad(r, key, "%lld is out of range (%lld to %lld)", (long long)n->integer,
			   (long long)lo, (long long)hi);
	*out = n->integer;
	return 0;
}

static int get_u32(struct rd *r, const struct jr_node *o, const char *key, uint32_t *out)
{
	int64_t v;

	if (get_int(r, o, key, 0, 0, UINT32_MAX, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int get_i32(struct rd *r, const struct jr_node *o, const char *key, int32_t *out)
{
	int64_t v;

	if (get_int(r, o, key, 0, INT32_MIN, INT32_MAX, &v))
		return -1;
	*out = (int32_t)v;
	return 0;
}

static int get_u8(struct rd *r, const struct jr_node *o, const char *key, uint8_t *out)
{
	int64_t v;

	if (get_int(r, o, key, 0, 0, 255, &v))
		return -1;
	*out = (uint8_t)v;
	return 0;
}

/* A u32 or null. */
static int get_opt_u32(struct rd *r, const struct jr_node *o, const char *key, int64_t *out)
{
	return get_int(r, o, key, 1, 0, UINT32_MAX, out);
}

/* -1 null, 0, 1 */
static int get_bool(struct rd *r, const struct jr_node *obj, const char *key, int nullable,
		    int8_t *out)
{
	const struct jr_node *n;

	if (member(r, obj, key, 1, &n))
		return -1;
	if (n->type == JR_NULL && nullable) {
		*out = -1;
		return 0;
	}
	if (n->type != JR_BOOL)
		return bad(r, key, "must be true or false%s, not %s", nullable ? " or null" : "",
			   jr__type_name(n->type));
	*out = (int8_t)(n->boolean != 0);
	return 0;
}

/* A string (NULL for null when nullable), interned. */
static int get_str(struct rd *r, const struct jr_node *obj, const char *key, int nullable,
		   const char **out)
{
	const struct jr_node *n;

	if (member(r, obj, key, 1, &n))
		return -1;
	if (n->type == JR_NULL && nullable) {
		*out = NULL;
		return 0;
	}
	if (n->type != JR_STRING)
		return bad(r, key, "must be a string%s, not %s", nullable ? " or null" : "",
			   jr__type_name(n->type));
	if (strlen(n->str) != n->str_len)
		return bad(r, key, "holds a NUL character");
	*out = fr_pool__intern(r->fr->pool, n->str, n->str_len);
	return *out ? 0 : ap_err_nomem(r->err);
}

/* A string that must be one of names[0..n); its index in *out. */
static int get_enum(struct rd *r, const struct jr_node *obj, const char *key,
		    const char *const *names, unsigned int n, unsigned int first, uint8_t *out)
{
	const char *s;

	if (get_str(r, obj, key, 0, &s))
		return -1;
	for (unsigned int i = first; i < n; i++)
		if (!strcmp(s, names[i])) {
			*out = (uint8_t)i;
			return 0;
		}
	return bad(r, key, "\"%s\" is not a known value", s);
}

/* An array member: its node, NULL when absent and optional. */
static int get_arr(struct rd *r, const struct jr_node *obj, const char *key, int required,
		   const struct jr_node **out)
{
	if (member(r, obj, key, required, out))
		return -1;
	if (*out && (*out)->type != JR_ARRAY)
		return bad(r, key, "must be an array, not %s", jr__type_name((*out)->type));
	return 0;
}

static int get_obj(struct rd *r, const struct jr_node *obj, const char *key,
		   const struct jr_node **out)
{
	if (member(r, obj, key, 1, out))
		return -1;
	if ((*out)->type != JR_OBJECT)
		return bad(r, key, "must be an object, not %s", jr__type_name((*out)->type));
	return 0;
}

static int entry_obj(struct rd *r, const struct jr_node *e)
{
	if (e->type != JR_OBJECT)
		return bad(r, NULL, "must be an object, not %s", jr__type_name(e->type));
	return 0;
}

static int get_hash(struct rd *r, const struct jr_node *o, const char *key, char out[65])
{
	const char *s;

	if (get_str(r, o, key, 0, &s))
		return -1;
	if (strlen(s) != 64 || strspn(s, "0123456789abcdef") != 64)
		return bad(r, key, "must be 64 lowercase hex digits");
	memcpy(out, s, 65);
	return 0;
}

static int get_arch(struct rd *r, const struct jr_node *o)
{
	static const char *const names[] = { "x86_64", "aarch64" };
	uint8_t i = 0;

	if (get_enum(r, o, "architecture", names, 2, 0, &i))
		return -1;
	r->fr->arch = i == 0 ? CWASM_ARCH_X86_64 : CWASM_ARCH_AARCH64;
	if (r->fr->schema_version == 1 && r->fr->arch != CWASM_ARCH_X86_64)
		return bad(r, "architecture", "schema_version 1 is x86_64 only");
	return 0;
}

static int get_abi(struct rd *r, const struct jr_node *o)
{
	static const char *const names[] = { "sysv", "win64", "aapcs64" };
	int x86 = r->fr->arch == CWASM_ARCH_X86_64;
	uint8_t i = 0;

	if (get_enum(r, o, "abi", names, x86 ? 2 : 3, x86 ? 0 : 2, &i))
		return -1;
	r->fr->abi = i == 0 ? CWASM_ABI_SYSV : i == 1 ? CWASM_ABI_WIN64 : CWASM_ABI_AAPCS64;
	return 0;
}

static int read_rel32(struct rd *r, const struct jr_node *root)
{
	const struct jr_node *a;
	struct frames *fr = r->fr;

	if (get_arr(r, root, "direct_call_rel32_offsets", 1, &a))
		return -1;
	fr->rel32 = calloc(a->n ? a->n : 1, sizeof(*fr->rel32));
	if (!fr->rel32)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];

		if (e->type != JR_NUMBER || !e->is_int || e->integer < 0 || e->integer > UINT32_MAX)
			return bad(r, "direct_call_rel32_offsets", "entry %zu must be an integer "
				   "from 0 to 4294967295", i);
		fr->rel32[fr->nrel32++] = (uint32_t)e->integer;
	}
	return 0;
}

static int read_relocs(struct rd *r, const struct jr_node *root)
{
	struct frames *fr = r->fr;
	const struct jr_node *a;

	if (get_arr(r, root, "normalized_relocations", fr->schema_version >= 2, &a))
		return -1;
	if (!a)
		return 0;
	fr->relocs = calloc(a->n ? a->n : 1, sizeof(*fr->relocs));
	if (!fr->relocs)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];
		struct frames_reloc *x = &fr->relocs[i];

		snprintf(r->ctx, sizeof(r->ctx), "normalized_relocations[%zu]", i);
		if (entry_obj(r, e) || get_u32(r, e, "native_start", &x->native_start) ||
		    get_u32(r, e, "native_end", &x->native_end) ||
		    get_enum(r, e, "kind", fr_reloc_names, 3, 0, &x->kind))
			return -1;
		fr->nrelocs++;
	}
	*r->ctx = '\0';
	return 0;
}

static int read_data(struct rd *r, const struct jr_node *root)
{
	struct frames *fr = r->fr;
	const struct jr_node *a;

	if (get_arr(r, root, "inline_data_ranges", 1, &a))
		return -1;
	fr->data = calloc(a->n ? a->n : 1, sizeof(*fr->data));
	if (!fr->data)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];
		struct frames_range *x = &fr->data[i];

		snprintf(r->ctx, sizeof(r->ctx), "inline_data_ranges[%zu]", i);
		if (entry_obj(r, e) || get_u32(r, e, "native_start", &x->native_start) ||
		    get_u32(r, e, "native_end", &x->native_end) ||
		    get_str(r, e, "kind", 0, &x->kind))
			return -1;
		if (strcmp(x->kind, "br_table"))
			return bad(r, "kind", "\"%s\" is not a known value", x->kind);
		fr->ndata++;
	}
	*r->ctx = '\0';
	return 0;
}

static int read_layout(struct rd *r, const struct jr_node *root)
{
	struct frames_layout *l = &r->fr->layout;
	const struct jr_node *o;
	uint8_t fp = 0;

	if (get_obj(r, root, "frame_layout", &o))
		return -1;
	snprintf(r->ctx, sizeof(r->ctx), "frame_layout");
	if (get_enum(r, o, "frame_pointer", fr_base_names, 4, 0, &fp) ||
	    get_u32(r, o, "frame_size", &l->frame_size) ||
	    get_u32(r, o, "local_count", &l->local_count) ||
	    get_u32(r, o, "param_count", &l->param_count) ||
	    get_i32(r, o, "reserved_vmctx_offset", &l->reserved_vmctx_offset) ||
	    get_i32(r, o, "locals_first_offset", &l->locals_first_offset) ||
	    get_i32(r, o, "explicit_storage_first_offset", &l->explicit_storage_first_offset) ||
	    get_u32(r, o, "explicit_storage_slots", &l->explicit_storage_slots) ||
	    get_i32(r, o, "spill_base", &l->spill_base) ||
	    get_i32(r, o, "spill_stride", &l->spill_stride) ||
	    get_u32(r, o, "spill_slots", &l->spill_slots))
		return -1;
	if (fp != (r->fr->arch == CWASM_ARCH_X86_64 ? FRAMES_RBP : FRAMES_X29))
		return bad(r, "frame_pointer", "\"%s\" is not the %s frame pointer",
			   fr_base_names[fp], cwasm_arch__name(r->fr->arch));
	l->frame_pointer = fp;
	*r->ctx = '\0';
	return 0;
}

static int read_regions(struct rd *r, const struct jr_node *root)
{
	struct frames *fr = r->fr;
	const struct jr_node *a;

	if (get_arr(r, root, "frame_regions", fr->schema_version >= 2, &a))
		return -1;
	if (!a)
		return 0;
	fr->regions = calloc(a->n ? a->n : 1, sizeof(*fr->regions));
	if (!fr->regions)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];
		struct frames_region *x = &fr->regions[i];

		snprintf(r->ctx, sizeof(r->ctx), "frame_regions[%zu]", i);
		if (entry_obj(r, e) || get_i32(r, e, "start", &x->start) ||
		    get_i32(r, e, "end", &x->end) ||
		    get_enum(r, e, "origin", fr_origin_names, FRAMES__NORIGINS, 0, &x->origin) ||
		    get_str(r, e, "detail", 0, &x->detail))
			return -1;
		fr->nregions++;
	}
	*r->ctx = '\0';
	return 0;
}

static int read_metric(struct rd *r, const struct jr_node *root)
{
	struct frames_spill_metric *m = &r->fr->metric;
	const struct jr_node *o;

	if (get_obj(r, root, "spill_metric", &o))
		return -1;
	snprintf(r->ctx, sizeof(r->ctx), "spill_metric");
	if (get_u32(r, o, "slots", &m->slots) || get_u32(r, o, "spilled_vregs", &m->spilled_vregs) ||
	    get_u32(r, o, "scalar", &m->scalar) || get_u32(r, o, "v128", &m->v128) ||
	    get_u32(r, o, "slots_scalar", &m->slots_scalar) ||
	    get_u32(r, o, "slots_v128", &m->slots_v128) ||
	    get_u32(r, o, "spill_ld", &m->spill_ld) || get_u32(r, o, "spill_st", &m->spill_st) ||
	    get_u32(r, o, "remat", &m->remat) || get_u32(r, o, "callee_saved", &m->callee_saved))
		return -1;
	*r->ctx = '\0';
	return 0;
}

static int read_values(struct rd *r, const struct jr_node *root)
{
	struct frames *fr = r->fr;
	const struct jr_node *a;

	if (get_arr(r, root, "allocator_values", 1, &a))
		return -1;
	fr->values = calloc(a->n ? a->n : 1, sizeof(*fr->values));
	if (!fr->values)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];
		struct frames_value *v = &fr->values[i];
		int8_t remat = 0, reused = 0;

		snprintf(r->ctx, sizeof(r->ctx), "allocator_values[%zu]", i);
		if (entry_obj(r, e) || get_u32(r, e, "vreg", &v->vreg) ||
		    get_i32(r, e, "frame_offset", &v->frame_offset) ||
		    get_u32(r, e, "slot", &v->slot) || get_u8(r, e, "slot_count", &v->slot_count) ||
		    get_str(r, e, "value_type", 1, &v->value_type) ||
		    get_opt_u32(r, e, "live_start", &v->live_start) ||
		    get_opt_u32(r, e, "live_end", &v->live_end) ||
		    get_str(r, e, "defining_opcode", 1, &v->defining_opcode) ||
		    get_str(r, e, "source_class", 1, &v->source_class) ||
		    get_u32(r, e, "ir_use_count", &v->ir_use_count) ||
		    get_u32(r, e, "ir_def_count", &v->ir_def_count) ||
		    get_u32(r, e, "reload_count", &v->reload_count) ||
		    get_u32(r, e, "store_count", &v->store_count) ||
		    get_bool(r, e, "rematerialization_eligible", 0, &remat) ||
		    get_bool(r, e, "reused", 0, &reused))
			return -1;
		v->remat = (uint8_t)remat;
		v->reused = (uint8_t)reused;
		fr->nvalues++;
	}
	*r->ctx = '\0';
	return 0;
}

/* The semantic fields an access and a component share. */
static int read_semantic(struct rd *r, const struct jr_node *e, struct frames_component *c)
{
	int8_t amb = 0;

	if (get_enum(r, e, "origin", fr_origin_names, FRAMES__NORIGINS, 0, &c->origin) ||
	    get_str(r, e, "detail", 0, &c->detail) ||
	    get_opt_u32(r, e, "slot", &c->slot) ||
	    get_opt_u32(r, e, "local_index", &c->local_index) ||
	    get_opt_u32(r, e, "explicit_slot", &c->explicit_slot) ||
	    get_opt_u32(r, e, "vreg", &c->vreg) ||
	    get_bool(r, e, "vreg_ambiguous", 0, &amb) ||
	    get_str(r, e, "defining_opcode", 1, &c->defining_opcode) ||
	    get_str(r, e, "source_class", 1, &c->source_class) ||
	    get_bool(r, e, "rematerialization_eligible", 1, &c->remat) ||
	    get_opt_u32(r, e, "ir_position", &c->ir_position) ||
	    get_str(r, e, "ir_opcode", 1, &c->ir_opcode))
		return -1;
	c->vreg_ambiguous = (uint8_t)amb;
	return 0;
}

static int read_base(struct rd *r, const struct jr_node *e, struct frames_component *c)
{
	unsigned int first = r->fr->arch == CWASM_ARCH_X86_64 ? FRAMES_RBP : FRAMES_X29;

	return get_enum(r, e, "base", fr_base_names, first + 2, first, &c->base);
}

static int read_component(struct rd *r, const struct jr_node *e, struct frames_component *c,
			  size_t idx)
{
	static const char *const classes[] = { "gpr", "simd" };
	char saved[sizeof(r->ctx)];
	const struct jr_node *n;
	int64_t reg;
	int ret = -1;

	memcpy(saved, r->ctx, sizeof(saved));
	snprintf(r->ctx, sizeof(r->ctx), "components[%zu]", idx);
	c->data_register = -1;
	c->data_register_class = -1;
	if (entry_obj(r, e) || read_base(r, e, c) || get_i32(r, e, "frame_offset", &c->frame_offset) ||
	    get_u8(r, e, "width", &c->width))
		goto out;
	/* data_register came with a later schema-2 writer: absent reads as null */
	if (member(r, e, "data_register", 0, &n))
		goto out;
	if (n) {
		uint8_t cls = 0;

		if (get_int(r, e, "data_register", 1, 0, 31, &reg))
			goto out;
		c->data_register = reg == FRAMES_NULL ? -1 : (int16_t)reg;
		if (member(r, e, "data_register_class", 1, &n))
			goto out;
		if (n->type != JR_NULL) {
			if (get_enum(r, e, "data_register_class", classes, 2, 0, &cls))
				goto out;
			c->data_register_class = (int8_t)cls;
		}
	}
	ret = read_semantic(r, e, c);
out:
	if (!ret)
		memcpy(r->ctx, saved, sizeof(saved));
	return ret;
}

/* Schema 2's encoded address and components; in schema 1 they are absent or null/[]. */
static int read_encoded(struct rd *r, const struct jr_node *e, struct frames_access *x)
{
	int v2 = r->fr->schema_version >= 2;
	const struct jr_node *n, *comps;
	int64_t off;

	x->encoded_base = -1;
	if (!v2) {
		static const char *const keys[] = { "encoded_base", "encoded_offset",
						    "addressing_mode" };

		for (size_t i = 0; i < 3; i++) {
			if (member(r, e, keys[i], 0, &n))
				return -1;
			if (n && n->type != JR_NULL)
				return bad(r, keys[i], "must be null in schema_version 1");
		}
		if (get_arr(r, e, "components", 0, &comps))
			return -1;
		if (comps && comps->n)
			return bad(r, "components", "must be empty in schema_version 1");
		x->ncomp = 1;
		x->comp[0] = x->top;
		return 0;
	}
	if (member(r, e, "encoded_base", 1, &n))
		return -1;
	if (n->type != JR_STRING)
		return bad(r, "encoded_base", "must be a string, not %s", jr__type_name(n->type));
	if (r->fr->arch == CWASM_ARCH_X86_64) {
		if (strcmp(n->str, "rbp") && strcmp(n->str, "rsp"))
			return bad(r, "encoded_base", "\"%s\" is not rbp or rsp", n->str);
		x->encoded_base = n->str[1] == 'b' ? 5 : 4;
	} else if (!strcmp(n->str, "sp")) {
		x->encoded_base = 31;
	} else {
		char *end;
		long reg = n->str[0] == 'x' && n->str[1] >= '0' && n->str[1] <= '9' ?
				   strtol(n->str + 1, &end, 10) : -1;

		if (reg < 0 || reg > 30 || *end || (n->str[1] == '0' && n->str[2]))
			return bad(r, "encoded_base", "\"%s\" is not sp or x0..x30", n->str);
		x->encoded_base = (int8_t)reg;
	}
	if (get_int(r, e, "encoded_offset", 0, INT32_MIN, INT32_MAX, &off))
		return -1;
	x->encoded_offset = (int32_t)off;
	if (member(r, e, "addressing_mode", 1, &n))
		return -1;
	if (n->type != JR_STRING)
		return bad(r, "addressing_mode", "must be a string, not %s", jr__type_name(n->type));
	x->addressing_mode = (uint8_t)a64__mode_parse(n->str, n->str_len);
	if (!x->addressing_mode)
		return bad(r, "addressing_mode", "\"%s\" is not a known value", n->str);
	if (get_arr(r, e, "components", 1, &comps))
		return -1;
	if (comps->n < 1 || comps->n > 2)
		return bad(r, "components", "has %zu entries, not 1 or 2", comps->n);
	for (size_t i = 0; i < comps->n; i++)
		if (read_component(r, &comps->items[i], &x->comp[i], i))
			return -1;
	x->ncomp = (uint8_t)comps->n;
	return 0;
}

static int read_accesses(struct rd *r, const struct jr_node *root)
{
	static const char *const kinds[] = { "load", "store" };
	struct frames *fr = r->fr;
	const struct jr_node *a;

	if (get_arr(r, root, "accesses", 1, &a))
		return -1;
	fr->acc = calloc(a->n ? a->n : 1, sizeof(*fr->acc));
	if (!fr->acc)
		return ap_err_nomem(r->err);
	for (size_t i = 0; i < a->n; i++) {
		const struct jr_node *e = &a->items[i];
		struct frames_access *x = &fr->acc[i];

		snprintf(r->ctx, sizeof(r->ctx), "accesses[%zu]", i);
		r->acc = NULL;
		if (entry_obj(r, e) || get_u32(r, e, "native_start", &x->native_start))
			return -1;
		/* from here on the message names the access by its offset */
		r->acc = x;
		*r->ctx = '\0';
		x->top.data_register = -1;
		x->top.data_register_class = -1;
		if (get_u32(r, e, "native_end", &x->native_end) ||
		    get_enum(r, e, "kind", kinds, 2, 0, &x->kind) || read_base(r, e, &x->top) ||
		    get_i32(r, e, "frame_offset", &x->top.frame_offset) ||
		    get_u8(r, e, "width", &x->top.width) || read_semantic(r, e, &x->top) ||
		    read_encoded(r, e, x))
			return -1;
		fr->nacc++;
	}
	r->acc = NULL;
	*r->ctx = '\0';
	return 0;
}

static int read_root(struct rd *r, const struct jr_node *root)
{
	struct frames *fr = r->fr;
	const char *schema;
	int64_t v;

	if (root->type != JR_OBJECT)
		return bad(r, NULL, "the sidecar must be a JSON object, not %s",
			   jr__type_name(root->type));
	if (get_str(r, root, "schema", 0, &schema))
		return -1;
	if (strcmp(schema, FRAMES_SCHEMA))
		return bad(r, "schema", "\"%s\" is not \"%s\"", schema, FRAMES_SCHEMA);
	if (get_int(r, root, "schema_version", 0, INT64_MIN, INT64_MAX, &v))
		return -1;
	if (v != 1 && v != 2)
		return bad(r, "schema_version", "%lld is not a known version (1 or 2)",
			   (long long)v);
	fr->schema_version = (uint32_t)v;
	if (get_u32(r, root, "cwasm_aot_version", &fr->cwasm_aot_version) ||
	    get_str(r, root, "compiler_build_id", 0, &fr->compiler_build_id) ||
	    get_arch(r, root) || get_abi(r, root) || get_u32(r, root, "module", &fr->module) ||
	    get_u32(r, root, "local_func", &fr->local_func) ||
	    get_str(r, root, "function_name", 0, &fr->function_name) ||
	    get_u32(r, root, "module_text_size", &fr->module_text_size) ||
	    get_hash(r, root, "module_text_sha256", fr->module_text_sha256) ||
	    get_u32(r, root, "function_offset", &fr->function_offset) ||
	    get_u32(r, root, "code_size", &fr->code_size) ||
	    get_hash(r, root, "normalized_code_sha256", fr->normalized_code_sha256) ||
	    read_rel32(r, root) || read_relocs(r, root) || read_data(r, root) ||
	    read_layout(r, root) || read_regions(r, root) || read_metric(r, root) ||
	    get_u32(r, root, "emitted_allocator_loads", &fr->emitted_allocator_loads) ||
	    get_u32(r, root, "emitted_allocator_stores", &fr->emitted_allocator_stores) ||
	    read_values(r, root) || read_accesses(r, root))
		return -1;
	return 0;
}

void frames__delete(struct frames *fr)
{
	if (!fr)
		return;
	free(fr->path);
	free(fr->rel32);
	free(fr->relocs);
	free(fr->data);
	free(fr->regions);
	free(fr->values);
	free(fr->acc);
	free(fr->by_vreg);
	free(fr->slot_first);
	free(fr->slot_vals);
	fr_pool__delete(fr->pool);
	free(fr);
}

static int parse_tree(const struct jr_node *root, const char *name, const struct cwasm_module *mod,
		      uint32_t local_func, struct frames **out, struct ap_err *err)
{
	struct frames *fr = calloc(1, sizeof(*fr));
	struct rd r = { .fr = fr, .err = err };

	*out = NULL;
	if (!fr)
		return ap_err_nomem(err);
	fr->path = strdup(name);
	fr->pool = fr_pool__new();
	if (!fr->path || !fr->pool) {
		frames__delete(fr);
		return ap_err_nomem(err);
	}
	if (read_root(&r, root) || fr__check(fr, mod, local_func, err) ||
	    fr__check_native(fr, mod, err) || fr__check_counts(fr, err)) {
		frames__delete(fr);
		return -1;
	}
	*out = fr;
	return 0;
}

int frames__parse(const char *text, size_t len, const char *name,
		  const struct cwasm_module *mod, uint32_t local_func, struct frames **out,
		  struct ap_err *err)
{
	struct jr_node *root;
	struct ap_err jerr;
	int ret;

	*out = NULL;
	if (jr__parse(text, len, &root, &jerr))
		return ap_errk(err, jerr.kind, "%s: invalid JSON: %s", name, jerr.msg);
	ret = parse_tree(root, name, mod, local_func, out, err);
	jr__delete(root);
	return ret;
}

int frames__read(const char *path, const struct cwasm_module *mod, uint32_t local_func,
		 struct frames **out, struct ap_err *err)
{
	struct jr_node *root;
	int ret;

	*out = NULL;
	if (jr__parse_file(path, SIDECAR_MAX, &root, err))
		return -1;
	ret = parse_tree(root, path, mod, local_func, out, err);
	jr__delete(root);
	return ret;
}
