// SPDX-License-Identifier: MIT
/*
 * The helper's schema-2 JSON document (docs/helper-interface.md, "JSON"):
 * every object's keys sorted, indent 2, integers as integers, percentages
 * as Python floats, paths absolute.
 */
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include "helper.h"
#include "../util/outfile.h"

uint64_t render__page_size(void)
{
	long n = sysconf(_SC_PAGESIZE);

	return n > 0 ? (uint64_t)n : 4096;
}

void render__helper_target_json(struct json_out *j, const struct cwasm_module *m)
{
	const struct cwasm_target *t = &m->target;

	json_begin_obj(j);
	json_key(j, "abi"); json_str(j, t->verified ? cwasm_abi__name(t->declared_abi) : NULL);
	/* what the file says, not --arch */
	json_key(j, "architecture"); json_str(j, cwasm_arch__name(t->declared_arch));
	json_key(j, "format"); json_str(j, cwasm_format__name(t->format));
	json_key(j, "verified"); json_bool(j, t->verified);
	json_end_obj(j);
}

static int span_cmp(const void *a, const void *b)
{
	const struct attr_span *x = a, *y = b;

	if (x->len != y->len)
		return x->len > y->len ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

void render__helper_candidates_json(struct json_out *j, const struct attr_span *c, uint32_t n)
{
	struct attr_span *s = n ? malloc(n * sizeof(*s)) : NULL;

	json_begin_arr(j);
	if (s) {
		for (uint32_t i = 0; i < n; i++)
			s[i] = c[i];
		qsort(s, n, sizeof(*s), span_cmp);
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct attr_span *x = s ? &s[i] : &c[i];

		json_begin_obj(j);
		json_key(j, "base"); json_u64(j, x->start);
		json_key(j, "size"); json_u64(j, x->len);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(s);
}

static void mapping(struct json_out *j, const struct helper_report *r)
{
	const struct attr_result *a = &r->p->attr;

	if (!r->perf) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "authoritative"); json_bool(j, r->map_authoritative);
	json_key(j, "base"); json_u64(j, r->base);
	json_key(j, "candidates"); render__helper_candidates_json(j, a->anon, a->nanon);
	json_key(j, "expected_size"); json_u64(j, r->expected_size);
	json_key(j, "override"); json_str(j, r->override);
	json_key(j, "page_size"); json_u64(j, r->page_size);
	json_key(j, "size"); json_u64(j, r->size);
	json_key(j, "text_size"); json_u64(j, a->cores[0].mod->text_size);
	json_end_obj(j);
}

static void top_functions(struct json_out *j, const struct helper_report *r)
{
	const struct attr_core *c = &r->p->attr.cores[0];
	uint64_t total = r->p->attr.total_samples;
	uint64_t n = r->perf ? (r->top < c->nranked ? r->top : c->nranked) : 0;

	json_begin_arr(j);
	for (uint64_t i = 0; i < n; i++) {
		const struct attr_ranked *k = &c->ranked[i];

		json_begin_obj(j);
		json_key(j, "code_bytes"); json_u64(j, c->mod->funcs[k->func].size);
		json_key(j, "local_func"); json_u64(j, k->func);
		json_key(j, "percent_of_run"); json_pyfloat(j, ap_pct(k->samples, total));
		json_key(j, "samples"); json_u64(j, k->samples);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void classified(struct json_out *j, const struct helper_report *r)
{
	const struct profile_func *f = r->f;
	const struct cwasm_module *m = r->p->attr.cores[0].mod;
	uint64_t addr0 = r->perf ? r->base + m->funcs[f->func].offset : 0;

	json_begin_obj(j);
	render__helper_func_json(j, f->func, f->hv, f->sc && f->sc->fr ? f->sc : NULL, addr0,
				 r->p->attr.total_samples);
	json_end_obj(j);
}

static void document(struct json_out *j, const struct helper_report *r)
{
	const struct attr_result *a = &r->p->attr;
	const struct cwasm_module *m = a->cores[0].mod;
	char perf[PATH_MAX], cwasm[PATH_MAX];

	json_begin_obj(j);
	json_key(j, "architecture"); json_str(j, r->arch);
	json_key(j, "artifact_target"); render__helper_target_json(j, m);
	json_key(j, "attributed_samples"); json_u64(j, a->cores[0].samples);
	json_key(j, "attribution_coverage_pct");
	json_pyfloat(j, ap_pct(a->cores[0].samples, a->total_samples));
	json_key(j, "authoritative"); json_bool(j, r->authoritative);
	/* keys the helper never writes, only for a cut recording (docs/helper-interface.md) */
	if (r->truncated) {
		json_key(j, "bytes_expected"); json_u64(j, r->bytes_expected);
		json_key(j, "bytes_read"); json_u64(j, r->bytes_read);
	}
	if (r->f && r->f->hv) {
		json_key(j, "classified_function"); classified(j, r);
	}
	json_key(j, "cwasm"); json_str(j, render__abspath(r->cwasm, cwasm, sizeof(cwasm)));
	json_key(j, "function_count"); json_u64(j, m->nfuncs);
	json_key(j, "mapping"); mapping(j, r);
	json_key(j, "minimum_attribution_coverage_pct"); json_pyfloat(j, r->min_pct);
	json_key(j, "perf"); json_str(j, render__abspath(r->perf, perf, sizeof(perf)));
	json_key(j, "schema_version"); json_u64(j, 2);
	json_key(j, "text_base");
	if (r->perf)
		json_u64(j, r->base);
	else
		json_null(j);
	json_key(j, "text_size"); json_u64(j, m->text_size);
	json_key(j, "top_functions"); top_functions(j, r);
	json_key(j, "total_samples"); json_u64(j, a->total_samples);
	if (r->truncated) {
		json_key(j, "truncated"); json_bool(j, 1);
	}
	json_end_obj(j);
	json_finish(j);
}

int render__helper_json_file(const char *path, const struct helper_report *r,
			     struct ap_err *err)
{
	struct outfile of;
	struct json_out j;

	if (outfile__open(&of, path, err))
		return -1;
	json_init(&j, of.f);
	document(&j, r);
	return outfile__commit(&of, err);
}
