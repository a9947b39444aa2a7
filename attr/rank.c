// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "rank.h"
#include "../cwasm/cwasm.h"
#include "../util/json_out.h"
#include "../util/sha256.h"
#include "attr.h"

static int rank_cmp(const void *a, const void *b)
{
	const struct attr_ranked *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

struct attr_ranked *attr__rank(const uint64_t *func_samples, uint32_t nfuncs, uint32_t *n)
{
	struct attr_ranked *r = malloc(((size_t)nfuncs + 1) * sizeof(*r));
	uint32_t k = 0;

	if (!r)
		return NULL;
	for (uint32_t i = 0; i < nfuncs; i++)
		if (func_samples[i])
			r[k++] = (struct attr_ranked){ i, func_samples[i] };
	qsort(r, k, sizeof(*r), rank_cmp);
	*n = k;
	return r;
}

void attr__json_top_functions(struct json_out *j, const struct cwasm_module *m,
			      const struct attr_ranked *r, uint32_t n, uint64_t top,
			      uint64_t run_total)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < n && i < top; i++) {
		const struct cwasm_func *f = &m->funcs[r[i].func];

		json_begin_obj(j);
		json_key(j, "local_func"); json_u64(j, r[i].func);
		json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, r[i].func));
		json_key(j, "name"); json_str(j, f->name);
		json_key(j, "samples"); json_u64(j, r[i].samples);
		json_key(j, "percent_of_run");
		json_dbl(j, run_total ? 100.0 * (double)r[i].samples / (double)run_total : 0.0, 4);
		json_key(j, "code_bytes"); json_u64(j, f->size);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void attr__json_core(struct json_out *j, const struct attr_json_core *c)
{
	const struct cwasm_module *m = c->mod;
	char hex[65];

	json_key(j, "cwasm"); json_str(j, m->path);
	json_key(j, "core"); json_str(j, m->core_label ? m->core_label : m->path);
	if (m->manifest_idx >= 0) {
		json_key(j, "module_idx"); json_i64(j, m->manifest_idx);
	}
	ap_sha256_hex(m->sha256, hex);
	json_key(j, "cwasm_sha256"); json_str(j, hex);
	json_key(j, "text_base");
	if (c->nmappings)
		json_hex(j, c->first_base);
	else
		json_null(j);
	json_key(j, "text_size"); json_u64(j, m->text_size);
	json_key(j, "function_count"); json_u64(j, m->nfuncs);
	json_key(j, "import_function_count"); json_u64(j, m->import_func_count);
	json_key(j, "total_samples"); json_u64(j, c->run_total);
	json_key(j, "attributed_samples"); json_u64(j, c->samples);
	json_key(j, "attribution_coverage_pct");
	json_dbl(j, c->run_total ? 100.0 * (double)c->samples / (double)c->run_total : 0.0, 4);
	json_key(j, "mapping");
	json_begin_obj(j);
	json_key(j, "authoritative"); json_bool(j, c->authoritative);
	json_key(j, "override");
	if (c->override)
		json_hex(j, c->override);
	else
		json_null(j);
	json_key(j, "size");
	if (c->nmappings)
		json_u64(j, c->first_len);
	else
		json_null(j);
	json_key(j, "expected_size"); json_u64(j, attr__page_round(m->text_size));
	json_key(j, "count"); json_u64(j, c->nmappings);
	json_end_obj(j);
	json_key(j, "top_functions");
	attr__json_top_functions(j, m, c->ranked, c->nranked, c->top, c->run_total);
}
