// SPDX-License-Identifier: MIT
/*
 * aotperf diff as the HTML report: a data document (docs/html-data.md)
 * whose cores are the after build's, with every function's samples summed
 * over its recordings, and the "diff" block: per function the summed self
 * samples of each side (the page ranks by the change of samples / all
 * samples, the pooled share) with its test, the class samples of the
 * --func functions, and the listings (diff-listings.c).
 */
#include <stdlib.h>
#include "diff.h"
#include "html.h"
#include "html_data.h"
#include "loops.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

/* core c's self samples per function, summed over the side's recordings */
static uint64_t *summed(const struct cmp_side *s, uint32_t c)
{
	uint32_t nf = s->mods[c]->nfuncs;
	uint64_t *v = calloc(nf ? nf : 1, sizeof(*v));

	for (uint32_t k = 0; v && k < s->ncaptures; k++)
		for (uint32_t f = 0; f < nf; f++)
			v[f] += s->captures[k].self[c][f];
	return v;
}

int render__html_core_block(struct json_out *j, const struct cmp_side *s, uint32_t c, int top,
			    struct ap_err *err)
{
	const struct cwasm_module *m = s->mods[c];
	uint64_t *v = summed(s, c), in = 0, total = 0;

	if (!v)
		return ap_err_nomem(err);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		in += v[f];
	for (uint32_t k = 0; k < s->ncaptures; k++)
		total += s->captures[k].total;
	if (!top)
		json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core_set__core_name(m));
	json_key(j, "cwasm");
	json_str(j, m->path);
	json_key(j, "function_count");
	json_u64(j, m->nfuncs);
	json_key(j, "import_function_count");
	json_u64(j, m->import_func_count);
	json_key(j, "target");
	html_data__target(j, m);
	if (!top) {
		json_key(j, "total_samples");
		json_u64(j, total);
	}
	json_key(j, "attributed_samples");
	json_u64(j, in);
	json_key(j, "functions");
	html_data__functions(j, m, v);
	if (!top)
		json_end_obj(j);
	free(v);
	return 0;
}

static void side_label(struct json_out *j, const char *key, const struct cmp_side *s,
		       const struct cmp_share *wasm)
{
	char buf[600];

	snprintf(buf, sizeof(buf), "%s (%u recording%s)", s->mods[0]->path, s->ncaptures,
		 s->ncaptures == 1 ? "" : "s");
	json_key(j, key);
	json_begin_obj(j);
	json_key(j, "label");
	json_str(j, buf);
	json_key(j, "total_samples");
	json_u64(j, wasm->total);
	json_end_obj(j);
}

static void class_samples(struct json_out *j, const char *key, const struct cls_table *t)
{
	json_key(j, key);
	json_begin_obj(j);
	for (int c = 0; c < CLS__COUNT; c++) {
		json_key(j, cls__name((enum cls_class)c));
		json_u64(j, t->samples[c]);
	}
	json_end_obj(j);
}

static void diff_block(struct json_out *j, const struct render_diff *r)
{
	const struct cmp_diff *d = r->d;

	json_key(j, "diff");
	json_begin_obj(j);
	side_label(j, "before", r->before, &d->wasm.before);
	side_label(j, "after", r->after, &d->wasm.after);
	/* what the text's '*' says: the level and the adjustment over the tested */
	json_key(j, "level");
	json_dbl(j, d->level, 4);
	json_key(j, "adjust");
	json_str(j, render__diff_adjust_words(d->adjust));
	json_key(j, "tested_functions");
	json_u64(j, d->ntested_self);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < d->nfuncs; i++) {
		const struct cmp_func *f = &d->funcs[i];
		const struct cmp_pair *p = &d->pairs[f->pair];
		int after = f->local_after >= 0;
		const struct cwasm_module *m = after ? r->after->mods[p->after]
						     : r->before->mods[p->before];
		struct html_diff_func h = {
			.core = core_set__core_name(m),
			.local_func = (uint32_t)(after ? f->local_after : f->local_before),
			.name = f->name_after ? f->name_after : f->name_before,
			.before = f->self.before.samples, .after = f->self.after.samples,
			.tested = f->self.ch.test != CMP_TEST_NONE,
			.significant = f->self.ch.significant,
			.points = f->self.ch.points, .p_adjusted = f->self.ch.p_adj,
		};

		html_data__diff_func(j, &h);
	}
	json_end_arr(j);
	json_key(j, "classes");
	json_begin_arr(j);
	for (uint32_t i = 0; i < r->nfuncs; i++) {
		const struct render_diff_func *f = &r->funcs[i];
		const struct cmp_pair *p = f->pair >= 0 ? &d->pairs[f->pair] : NULL;

		if (!p || p->after < 0 || f->local_after < 0)
			continue;
		json_begin_obj(j);
		json_key(j, "core");
		json_str(j, core_set__core_name(r->after->mods[p->after]));
		json_key(j, "local_func");
		json_i64(j, f->local_after);
		json_key(j, "name");
		json_str(j, f->name);
		class_samples(j, "before", f->before);
		class_samples(j, "after", f->after);
		if (f->loops) {
			json_key(j, "hottest_loop");
			render__loop_pair_json(j, f->loops);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
	render__diff_offcpu_html(j, r);
	json_end_obj(j);
}

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct render_diff *r = arg;
	const struct cmp_side *a = r->after;
	char title[300];

	snprintf(title, sizeof(title), "%s: before / after", a->mods[0]->path);
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, r->tool);
	json_key(j, "title");
	json_str(j, title);
	json_key(j, "event");
	json_str(j, r->event);
	json_key(j, "total_samples");
	json_u64(j, r->d->wasm.after.total);
	if (a->ncores == 1) {
		if (render__html_core_block(j, a, 0, 1, err))
			return -1;
	} else {
		json_key(j, "attributed_samples");
		json_u64(j, r->d->wasm.after.samples);
		json_key(j, "cores");
		json_begin_arr(j);
		for (uint32_t c = 0; c < a->ncores; c++)
			if (render__html_core_block(j, a, c, 0, err))
				return -1;
		json_end_arr(j);
	}
	if (render__diff_listings(j, r, err))
		return -1;
	diff_block(j, r);
	json_end_obj(j);
	return 0;
}

int render__diff_html_file(const char *path, const struct render_diff *r, struct ap_err *err)
{
	return html__write_emit(path, emit, (void *)r, err);
}
