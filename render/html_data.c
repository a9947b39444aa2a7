// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include "html_data.h"
#include "../classify/classify.h"
#include "../cwasm/cwasm.h"

void html_data__functions(struct json_out *j, const struct cwasm_module *m,
			  const uint64_t *samples)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		json_begin_arr(j);
		json_u64(j, i);
		json_u64(j, samples ? samples[i] : 0);
		json_u64(j, m->funcs[i].size);
		json_str(j, m->funcs[i].name);
		json_end_arr(j);
	}
	json_end_arr(j);
}

void html_data__target(struct json_out *j, const struct cwasm_module *m)
{
	json_begin_obj(j);
	json_key(j, "arch");
	json_str(j, cwasm_arch__name(m->target.arch));
	json_key(j, "abi");
	json_str(j, cwasm_abi__name(m->target.abi));
	json_key(j, "format");
	json_str(j, cwasm_format__name(m->target.format));
	json_end_obj(j);
}

/* "48 8b 45 f8": at most HTML_DATA_MAX_BYTES of them */
static void hex_bytes(const uint8_t *p, uint32_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	char *o = out;

	if (n > HTML_DATA_MAX_BYTES)
		n = HTML_DATA_MAX_BYTES;
	for (uint32_t i = 0; i < n; i++) {
		if (i)
			*o++ = ' ';
		*o++ = hex[p[i] >> 4];
		*o++ = hex[p[i] & 15];
	}
	*o = 0;
}

static void data_ranges(struct json_out *j, const struct cls_func *f)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < f->ninsns;) {
		uint32_t start, end;

		if (f->insns[i].cls != CLS_DATA) {
			i++;
			continue;
		}
		start = f->insns[i].offset;
		end = start;
		while (i < f->ninsns && f->insns[i].cls == CLS_DATA &&
		       f->insns[i].offset == end) {
			end += f->insns[i].size;
			i++;
		}
		json_begin_obj(j);
		json_key(j, "start");
		json_u64(j, start);
		json_key(j, "end");
		json_u64(j, end);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void html_data__listing(struct json_out *j, const struct cwasm_module *m, const char *core,
			uint32_t func, const struct cls_func *f, const uint64_t *insn_samples)
{
	const struct cwasm_func *fn = &m->funcs[func];
	char bytes[HTML_DATA_MAX_BYTES * 3 + 1];
	uint64_t total = 0;

	for (uint32_t i = 0; insn_samples && i < f->ninsns; i++)
		total += insn_samples[i];
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core);
	json_key(j, "local_func");
	json_u64(j, func);
	json_key(j, "name");
	json_str(j, fn->name);
	json_key(j, "samples");
	json_u64(j, total);
	json_key(j, "code_bytes");
	json_u64(j, fn->size);
	if (f->ninsns) {
		json_key(j, "address");
		json_hex(j, f->insns[0].addr - f->insns[0].offset);
	}
	json_key(j, "insns");
	json_begin_arr(j);
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct cls_insn *in = &f->insns[i];
		uint64_t at = (uint64_t)fn->offset + in->offset;
		uint32_t n = in->size;

		if (at > m->text_size)
			n = 0;
		else if (n > m->text_size - at)
			n = (uint32_t)(m->text_size - at);
		hex_bytes(m->text + (n ? at : 0), n, bytes);
		json_begin_obj(j);
		json_key(j, "offset");
		json_u64(j, in->offset);
		json_key(j, "size");
		json_u64(j, in->size);
		json_key(j, "bytes");
		json_str(j, bytes);
		json_key(j, "text");
		json_str(j, in->text);
		json_key(j, "class");
		json_str(j, cls__name((enum cls_class)in->cls));
		json_key(j, "samples");
		json_u64(j, insn_samples ? insn_samples[i] : 0);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "data_ranges");
	data_ranges(j, f);
	json_end_obj(j);
}

void html_data__stack_node(struct json_out *j, const struct html_stack_node *n)
{
	json_begin_obj(j);
	json_key(j, "parent");
	json_i64(j, n->parent);
	json_key(j, "name");
	json_str(j, n->name);
	json_key(j, "kind");
	json_str(j, n->kind);
	json_key(j, "self");
	json_u64(j, n->self);
	json_key(j, "total");
	json_u64(j, n->total);
	if (n->local_func >= 0) {
		json_key(j, "core");
		json_str(j, n->core);
		json_key(j, "local_func");
		json_i64(j, n->local_func);
	}
	json_end_obj(j);
}

static int total_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

uint64_t html_data__cut(uint64_t *t, uint32_t n, uint64_t *ties)
{
	uint64_t cut;
	uint32_t above = 0;

	*ties = 0;
	if (n <= HTML_STACK_NODES)
		return 0;
	qsort(t, n, sizeof(*t), total_desc);
	cut = t[HTML_STACK_NODES - 1];
	while (above < HTML_STACK_NODES && t[above] > cut)
		above++;
	*ties = HTML_STACK_NODES - above;
	return cut;
}

void html_data__diff_func(struct json_out *j, const struct html_diff_func *d)
{
	json_begin_obj(j);
	if (d->core) {
		json_key(j, "core");
		json_str(j, d->core);
	}
	json_key(j, "local_func");
	json_u64(j, d->local_func);
	json_key(j, "name");
	json_str(j, d->name);
	json_key(j, "before");
	json_u64(j, d->before);
	json_key(j, "after");
	json_u64(j, d->after);
	if (d->tested) {
		json_key(j, "points");
		json_dbl(j, d->points, 4);
		json_key(j, "p_adjusted");
		json_pyfloat(j, d->p_adjusted);
		json_key(j, "significant");
		json_bool(j, d->significant);
	}
	json_end_obj(j);
}
