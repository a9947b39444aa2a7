// SPDX-License-Identifier: MIT
/*
 * The off-CPU part of aotperf diff (compare/offcpu_diff.h) in every form the
 * diff has: text and Markdown tables, the JSON members, the HTML data.
 * Times in ns in JSON, ms elsewhere; a side of several recordings has the
 * mean per recording.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include "diff.h"
#include "markdown.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"
#include "../util/term.h"

#define TEST_WORDS "Welch's t-test of the mean wait (one off-CPU interval) over the intervals"

/* The diff's label of an off-CPU row (render__diff_func_label takes a cmp_func). */
static const char *label(const struct render_diff *r, const struct cmp_oc_func *f, char *buf,
			 size_t len)
{
	struct cmp_func cf = {
		.pair = f->pair, .wasm_index = f->wasm_index, .local_before = f->local_before,
		.local_after = f->local_after, .name_before = f->name_before,
		.name_after = f->name_after,
	};

	return render__diff_func_label(r, &cf, buf, len);
}

static const char *p_words(const struct cmp_oc_func *f, char *buf, size_t len)
{
	struct cmp_change ch = { .test = f->tested ? CMP_TEST_WELCH : CMP_TEST_NONE,
				 .p = f->p, .p_adj = f->p_adj };

	return render__diff_p(&ch, buf, len);
}

static const char *rel_words(const struct cmp_oc_func *f, char *buf, size_t len)
{
	if (!f->has_rel)
		snprintf(buf, len, "%s", f->after.off_ns > 0 ? "new" : "-");
	else
		snprintf(buf, len, "%+.0f%%", f->rel_pct);
	return buf;
}

static uint32_t shown(const struct render_diff *r)
{
	return r->top && r->top < r->oc->nfuncs ? (uint32_t)r->top : r->oc->nfuncs;
}

static double ms(double ns)
{
	return ns / 1e6;
}

/* ---- text ---- */

static void run_line(FILE *out, const char *word, const struct cmp_oc_run *s)
{
	fprintf(out, "  %-7s on-CPU %.1f ms + off-CPU %.1f ms = wall %.1f ms (%" PRIu64
		" intervals)\n", word, ms(s->on_ns), ms(s->off_ns), ms(s->wall_ns), s->intervals);
}

void render__diff_offcpu_text(FILE *out, const struct render_diff *r)
{
	const struct cmp_offcpu *oc = r->oc;
	uint32_t n;

	if (!oc) {
		if (r->oc_note)
			fprintf(out, "\n%s\n", r->oc_note);
		return;
	}
	n = shown(r);
	fprintf(out, "\nOff-CPU time (ms per recording; wall = on-CPU samples x period + off-CPU):\n");
	run_line(out, "before", &oc->before);
	run_line(out, "after", &oc->after);
	fprintf(out, "\nOff-CPU time per wasm function, self, by the size of the change:\n");
	fprintf(out, "  %-18s %8s %8s %9s %6s %13s %7s\n", "function", "before", "after", "change",
		"rel", "mean wait", "p(adj)");
	for (uint32_t i = 0; i < n; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char name[300], cut[64], rel[16], p[16], wait[32];

		if (f->before.intervals || f->after.intervals)
			snprintf(wait, sizeof(wait), "%.2f>%.2f", ms(f->before.mean_interval_ns),
				 ms(f->after.mean_interval_ns));
		else
			snprintf(wait, sizeof(wait), "-");
		fprintf(out, "  %-18s %8.2f %8.2f %+9.2f %6s %13s %7s%s\n",
			ap_term__fit(cut, sizeof(cut), label(r, f, name, sizeof(name)), 18),
			ms(f->before.off_ns), ms(f->after.off_ns), ms(f->change_ns),
			rel_words(f, rel, sizeof(rel)), wait, p_words(f, p, sizeof(p)),
			f->significant ? " *" : "");
	}
	if (!oc->nfuncs)
		fprintf(out, "  (no wasm function waited on either side)\n");
	fprintf(out, "  mean wait: ms per off-CPU interval, before>after\n"
		"  * it differs at %.0f%%: Welch's t-test over the intervals, %s-adjusted over\n"
		"    %u tested; the change of the totals is not tested (docs/offcpu-diff.md)\n",
		100.0 * oc->level, render__diff_adjust_words(oc->adjust), oc->ntested);
	fprintf(out, "\nOff-CPU inclusive and wall time (on-CPU + off-CPU, self) per function, ms:\n");
	fprintf(out, "  %-18s %8s %8s %9s %8s %8s %9s\n", "function", "incl bef", "incl aft",
		"change", "wall bef", "wall aft", "change");
	for (uint32_t i = 0; i < n; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char name[300], cut[64];

		fprintf(out, "  %-18s %8.2f %8.2f %+9.2f %8.2f %8.2f %+9.2f\n",
			ap_term__fit(cut, sizeof(cut), label(r, f, name, sizeof(name)), 18),
			ms(f->before.off_incl_ns), ms(f->after.off_incl_ns), ms(f->change_incl_ns),
			ms(f->before.wall_ns), ms(f->after.wall_ns), ms(f->wall_change_ns));
	}
	if (n < oc->nfuncs)
		fprintf(out, "  %u more functions with off-CPU time (--top 0 lists all)\n",
			oc->nfuncs - n);
}

/* ---- Markdown ---- */

int render__diff_offcpu_markdown(FILE *f, const char *path, const struct render_diff *r,
				 struct ap_err *err)
{
	static const struct md_coldef cols[] = {
		{ "wasm", MD_RIGHT, 0 }, { "function", MD_LEFT, 48 },
		{ "off-CPU before ms", MD_RIGHT, 0 }, { "after ms", MD_RIGHT, 0 },
		{ "change ms", MD_RIGHT, 0 }, { "relative", MD_RIGHT, 0 },
		{ "inclusive before ms", MD_RIGHT, 0 }, { "after ms", MD_RIGHT, 0 },
		{ "wall before ms", MD_RIGHT, 0 }, { "after ms", MD_RIGHT, 0 },
		{ "mean wait ms", MD_RIGHT, 0 }, { "p (adj.)", MD_RIGHT, 0 },
		{ "significant", MD_CENTER, 0 },
	};
	const struct cmp_offcpu *oc = r->oc;
	struct md_table *t;
	uint32_t n;

	if (!oc) {
		if (r->oc_note) {
			fprintf(f, "## Off-CPU time\n\n");
			md__fputs(f, r->oc_note);
			fprintf(f, "\n\n");
		}
		return 0;
	}
	if (!(t = md_table__new_cols(cols, 13, err)))
		return -1;
	n = shown(r);
	for (uint32_t i = 0; i < n; i++) {
		const struct cmp_oc_func *x = &oc->funcs[i];
		char name[300], rel[16], p[16];

		if (md_table__cellf(t, err, "%" PRIu32, x->wasm_index) ||
		    md_table__cell_code(t, label(r, x, name, sizeof(name)), err) ||
		    md_table__cellf(t, err, "%.2f", ms(x->before.off_ns)) ||
		    md_table__cellf(t, err, "%.2f", ms(x->after.off_ns)) ||
		    md_table__cellf(t, err, "%+.2f", ms(x->change_ns)) ||
		    md_table__cell(t, rel_words(x, rel, sizeof(rel)), err) ||
		    md_table__cellf(t, err, "%.2f", ms(x->before.off_incl_ns)) ||
		    md_table__cellf(t, err, "%.2f", ms(x->after.off_incl_ns)) ||
		    md_table__cellf(t, err, "%.2f", ms(x->before.wall_ns)) ||
		    md_table__cellf(t, err, "%.2f", ms(x->after.wall_ns)) ||
		    md_table__cellf(t, err, "%.2f → %.2f", ms(x->before.mean_interval_ns),
				    ms(x->after.mean_interval_ns)) ||
		    md_table__cell(t, p_words(x, p, sizeof(p)), err) ||
		    md_table__cell(t, x->significant ? "yes" : "", err) ||
		    md_table__end_row(t, err)) {
			md_table__delete(t);
			return -1;
		}
	}
	fprintf(f, "## Off-CPU time by function\n\n");
	fprintf(f, "Before: on-CPU %.1f ms + off-CPU %.1f ms = wall %.1f ms. After: on-CPU %.1f ms"
		" + off-CPU %.1f ms = wall %.1f ms (per recording).\n\n", ms(oc->before.on_ns),
		ms(oc->before.off_ns), ms(oc->before.wall_ns), ms(oc->after.on_ns),
		ms(oc->after.off_ns), ms(oc->after.wall_ns));
	if (md_table__flush(t, f, path, err))
		return -1;
	fprintf(f, "Off-CPU time self (the function the innermost wasm frame) and inclusive, "
		"wall = on-CPU samples × period + off-CPU self, ms per recording, sorted by the "
		"size of the change. p: %s, %s-adjusted over %u functions, significant at %.0f%%; "
		"the change of the totals is not tested.", TEST_WORDS,
		render__diff_adjust_words(oc->adjust), oc->ntested, 100.0 * oc->level);
	if (n < oc->nfuncs)
		fprintf(f, " %u of %u functions with off-CPU time listed.", n, oc->nfuncs);
	fprintf(f, "\n\n");
	return 0;
}

/* ---- JSON ---- */

static void ns(struct json_out *j, const char *key, double v)
{
	json_key(j, key);
	json_i64(j, (int64_t)llround(v));
}

static void side_json(struct json_out *j, const char *key, const struct cmp_oc_val *v)
{
	json_key(j, key);
	json_begin_obj(j);
	ns(j, "on_cpu_ns", v->on_ns);
	ns(j, "on_cpu_incl_ns", v->on_incl_ns);
	ns(j, "off_cpu_ns", v->off_ns);
	ns(j, "off_cpu_incl_ns", v->off_incl_ns);
	ns(j, "wall_ns", v->wall_ns);
	json_key(j, "intervals");
	json_u64(j, v->intervals);
	ns(j, "mean_interval_ns", v->mean_interval_ns);
	json_end_obj(j);
}

/* A function's "off_cpu" object. */
static void func_json(struct json_out *j, const struct cmp_oc_func *f)
{
	json_begin_obj(j);
	side_json(j, "before", &f->before);
	side_json(j, "after", &f->after);
	ns(j, "change_ns", f->change_ns);
	json_key(j, "change_pct");
	f->has_rel ? json_dbl(j, f->rel_pct, 2) : json_null(j);
	ns(j, "change_incl_ns", f->change_incl_ns);
	ns(j, "wall_change_ns", f->wall_change_ns);
	json_key(j, "mean_interval_test");
	json_begin_obj(j);
	json_key(j, "tested");
	json_bool(j, f->tested);
	json_key(j, "t");
	json_dbl(j, f->stat, 4);
	json_key(j, "df");
	json_dbl(j, f->df, 2);
	json_key(j, "p");
	json_pyfloat(j, f->p);
	json_key(j, "p_adjusted");
	json_pyfloat(j, f->p_adj);
	json_key(j, "significant");
	json_bool(j, f->significant);
	json_end_obj(j);
	json_end_obj(j);
}

void render__diff_offcpu_func_json(struct json_out *j, const struct render_diff *r, uint32_t func)
{
	const struct cmp_oc_func *f = cmp_offcpu__of(r->oc, func);

	if (!r->oc)
		return;
	json_key(j, "off_cpu");
	if (f)
		func_json(j, f);
	else
		json_null(j);
}

static void run_json(struct json_out *j, const char *key, const struct cmp_oc_run *s)
{
	json_key(j, key);
	json_begin_obj(j);
	ns(j, "on_cpu_ns", s->on_ns);
	ns(j, "off_cpu_ns", s->off_ns);
	ns(j, "wall_ns", s->wall_ns);
	json_key(j, "intervals");
	json_u64(j, s->intervals);
	json_end_obj(j);
}

void render__diff_offcpu_json(struct json_out *j, const struct render_diff *r)
{
	const struct cmp_offcpu *oc = r->oc;

	if (!oc && !r->oc_note)
		return;
	json_key(j, "off_cpu");
	json_begin_obj(j);
	json_key(j, "compared");
	json_bool(j, oc != NULL);
	if (!oc) {
		json_key(j, "note");
		json_str(j, r->oc_note);
		json_end_obj(j);
		return;
	}
	json_key(j, "per");
	json_str(j, "recording");
	run_json(j, "before", &oc->before);
	run_json(j, "after", &oc->after);
	json_key(j, "test");
	json_str(j, TEST_WORDS);
	json_key(j, "tested_functions");
	json_u64(j, oc->ntested);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char buf[300];

		json_begin_obj(j);
		json_key(j, "core");
		json_str(j, render__diff_pair_label(r, f->pair, buf, sizeof(buf)));
		json_key(j, "wasm_func");
		json_u64(j, f->wasm_index);
		json_key(j, "local_before");
		f->local_before >= 0 ? json_i64(j, f->local_before) : json_null(j);
		json_key(j, "local_after");
		f->local_after >= 0 ? json_i64(j, f->local_after) : json_null(j);
		json_key(j, "name");
		json_str(j, label(r, f, buf, sizeof(buf)));
		json_key(j, "off_cpu");
		func_json(j, f);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

/* ---- HTML data ---- */

void render__diff_offcpu_html(struct json_out *j, const struct render_diff *r)
{
	const struct cmp_offcpu *oc = r->oc;

	if (!oc && !r->oc_note)
		return;
	json_key(j, "off_cpu");
	json_begin_obj(j);
	if (!oc) {
		json_key(j, "note");
		json_str(j, r->oc_note);
		json_end_obj(j);
		return;
	}
	run_json(j, "before", &oc->before);
	run_json(j, "after", &oc->after);
	json_key(j, "level");
	json_dbl(j, oc->level, 4);
	json_key(j, "tested_functions");
	json_u64(j, oc->ntested);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		char buf[300];

		json_begin_obj(j);
		json_key(j, "name");
		json_str(j, label(r, f, buf, sizeof(buf)));
		ns(j, "before_ns", f->before.off_ns);
		ns(j, "after_ns", f->after.off_ns);
		ns(j, "incl_before_ns", f->before.off_incl_ns);
		ns(j, "incl_after_ns", f->after.off_incl_ns);
		ns(j, "wall_before_ns", f->before.wall_ns);
		ns(j, "wall_after_ns", f->after.wall_ns);
		ns(j, "wait_before_ns", f->before.mean_interval_ns);
		ns(j, "wait_after_ns", f->after.mean_interval_ns);
		json_key(j, "p_adjusted");
		f->tested ? json_pyfloat(j, f->p_adj) : json_null(j);
		json_key(j, "significant");
		json_bool(j, f->significant);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}
