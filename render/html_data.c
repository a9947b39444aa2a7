// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include "html_data.h"
#include "table.h"
#include "../view/listing.h"
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

void html_data__listing(struct json_out *j, const char *core, uint32_t func, const char *name,
			uint64_t code_bytes, const struct view_listing *l)
{
	json_begin_obj(j);
	json_key(j, "core"); json_str(j, core);
	json_key(j, "local_func"); json_u64(j, func);
	json_key(j, "name"); json_str(j, name);
	json_key(j, "samples"); json_u64(j, l->samples);
	json_key(j, "code_bytes"); json_u64(j, code_bytes);
	json_key(j, "instruction_count"); json_u64(j, l->ninsns);
	if (l->have_address) {
		json_key(j, "address"); json_hex(j, l->address);
	}
	json_key(j, "insns"); render__table_json_rows(j, l->insns);
	json_key(j, "data_ranges"); render__table_json_rows(j, l->data_ranges);
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
