// SPDX-License-Identifier: MIT
/*
 * The report as GitHub-flavoured Markdown, to paste into an issue: the
 * run, each core's top functions (--top), the samples outside wasm, and
 * each classified function's class table, verdict, hottest instructions and
 * hot loops with the what-if per lever (loops-md.c).
 * The same numbers as the text report, as tables (render/markdown.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "markdown.h"
#include "report-export.h"
#include "../profile/host.h"
#include "../util/outfile.h"
#include "../util/pct.h"

/* Rows of the outside-wasm table; the rest is one "other" row. */
#define MD_HOST_ROWS 10
/* Wasm names longer than this are shortened in the middle. */
#define MD_NAME_CHARS 60

struct md_out {
	FILE *f;
	const char *name;
	struct ap_err *err;
	int failed;
};

/* A line of text: fmt's %s arguments are written as given (escape them first). */
static void line(struct md_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(struct md_out *o, const char *fmt, ...)
{
	va_list ap;

	if (o->failed)
		return;
	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0 || fputc('\n', o->f) == EOF)
		o->failed = ap_errk(o->err, AP_ERR_IO, "%s: write failed", o->name);
	va_end(ap);
}

/* text escaped for Markdown prose (code: as an inline code span); NULL: out of memory */
static char *esc(struct md_out *o, const char *text, int code)
{
	char *s = md__escape_cell(text ? text : "", code, 0);

	if (!s && !o->failed)
		o->failed = ap_err_nomem(o->err);
	return s;
}

/* A table of these columns (render/markdown.h); the caller then fills rows. */
static struct md_table *table(struct md_out *o, const struct md_coldef *cols, unsigned n)
{
	struct md_table *t = o->failed ? NULL : md_table__new_cols(cols, n, o->err);

	if (!t)
		o->failed = -1;
	return t;
}

/* The table written, then a blank line. */
static void table_end(struct md_out *o, struct md_table *t)
{
	if (o->failed)
		md_table__delete(t);
	else if (md_table__flush(t, o->f, o->name, o->err))
		o->failed = -1;
}

/* The next cell of the current row, printf-formatted (escaped by the table). */
static void cell(struct md_out *o, struct md_table *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void cell(struct md_out *o, struct md_table *t, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (!t || o->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (md_table__cell(t, buf, o->err))
		o->failed = -1;
}

static void cell_code(struct md_out *o, struct md_table *t, const char *text)
{
	if (t && !o->failed && md_table__cell_code(t, text, o->err))
		o->failed = -1;
}

static void end_row(struct md_out *o, struct md_table *t)
{
	if (t && !o->failed && md_table__end_row(t, o->err))
		o->failed = -1;
}

static void run_summary(struct md_out *o, const struct profile *p)
{
	static const struct md_coldef cols[] = { { "run", MD_LEFT, 0 }, { "", MD_RIGHT, 0 } };
	const struct attr_result *a = &p->attr;
	uint64_t total = a->total_samples;
	char *in = esc(o, p->input ? p->input : "samples fed", 1);
	struct md_table *t;

	line(o, "### aotperf report: %s\n", in ? in : "");
	free(in);
	t = table(o, cols, 2);
	cell(o, t, "samples");
	cell(o, t, "%" PRIu64, total);
	end_row(o, t);
	if (a->have_event || p->event) {
		cell(o, t, "event");
		cell(o, t, "%s", p->event ? p->event : a->event_name);
		end_row(o, t);
	}
	cell(o, t, "in wasm code");
	cell(o, t, "%" PRIu64 " (%.2f%%)", a->attributed_samples,
	     ap_pct(a->attributed_samples, total));
	end_row(o, t);
	cell(o, t, "outside wasm");
	cell(o, t, "%" PRIu64 " (%.2f%%)", total - a->attributed_samples,
	     ap_pct(total - a->attributed_samples, total));
	end_row(o, t);
	cell(o, t, "cores");
	cell(o, t, "%u", a->ncores);
	end_row(o, t);
	table_end(o, t);
	for (size_t i = 0; i < a->warnings.n; i++) {
		char *w = esc(o, a->warnings.w[i].msg, 0);

		line(o, "> warning: %s\n", w ? w : "");
		free(w);
	}
}

static void core_block(struct md_out *o, const struct profile *p, uint32_t core,
		       const struct render_opts *ro)
{
	static const struct md_coldef cols[] = {
		{ "rank", MD_RIGHT, 0 }, { "function", MD_LEFT, 0 }, { "samples", MD_RIGHT, 0 },
		{ "%run", MD_RIGHT, 0 }, { "bytes", MD_RIGHT, 0 },
		{ "wasm name", MD_LEFT, MD_NAME_CHARS },
	};
	const struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	uint64_t total = p->attr.total_samples;
	char *name = esc(o, core_set__core_name(m), 1), *path = esc(o, m->path, 1);
	struct md_table *t;
	char fn[32], target[64];
	const char *abi;

	if (m->manifest_idx >= 0)
		line(o, "#### core %s (%s): %u functions, %u bytes of text\n", name ? name : "",
		     path ? path : "", m->nfuncs, m->text_size);
	else
		line(o, "#### core %s: %u functions, %u bytes of text\n", path ? path : "",
		     m->nfuncs, m->text_size);
	free(name);
	free(path);
	abi = cwasm_abi__name(m->target.abi);
	snprintf(target, sizeof(target), "%s%s%s", cwasm_arch__name(m->target.arch),
		 abi ? " " : "", abi ? abi : "");
	if (c->nmappings)
		line(o, "%s, mapped at `0x%" PRIx64 "` +0x%" PRIx64 " (%s, %u mapping(s));"
		     " %" PRIu64 " samples (%.2f%% of run)\n", target, c->first_base, c->first_len,
		     c->base_override ? "pinned" : c->mapping_unique ? "exact size, unique" :
		     "exact size, NOT unique", c->nmappings, c->samples, ap_pct(c->samples, total));
	else
		line(o, "%s, no mapping found; 0 samples\n", target);
	if (!c->nranked)
		return;
	t = table(o, cols, 6);
	for (uint32_t i = 0; i < render__shown(ro, c->nranked); i++) {
		const struct attr_ranked *r = &c->ranked[i];
		const struct cwasm_func *f = &m->funcs[r->func];

		cell(o, t, "%u", i + 1);
		cell_code(o, t, cwasm__local_name(r->func, fn, sizeof(fn)));
		cell(o, t, "%" PRIu64, r->samples);
		cell(o, t, "%.2f%%", ap_pct(r->samples, total));
		cell(o, t, "%u", f->size);
		cell(o, t, "%s", f->name ? f->name : "");
		end_row(o, t);
	}
	if (render__shown(ro, c->nranked) < c->nranked) {
		cell(o, t, "%s", "");
		cell(o, t, "%u more with samples", c->nranked - render__shown(ro, c->nranked));
		end_row(o, t);
	}
	table_end(o, t);
}

static void host_block(struct md_out *o, const struct profile *p)
{
	static const struct md_coldef cols[] = {
		{ "samples", MD_RIGHT, 0 }, { "%run", MD_RIGHT, 0 },
		{ "symbol", MD_LEFT, MD_NAME_CHARS }, { "dso", MD_LEFT, MD_NAME_CHARS },
	};
	struct render_host_row *rows;
	uint64_t total = p->attr.total_samples, rest = 0;
	struct md_table *t;
	size_t n;

	if (!p->host || !p->host->samples || o->failed)
		return;
	if (render__host_rows(p, &rows, &n)) {
		o->failed = ap_err_nomem(o->err);
		return;
	}
	line(o, "#### outside wasm: %" PRIu64 " samples (%.2f%% of run)\n", p->host->samples,
	     ap_pct(p->host->samples, total));
	t = table(o, cols, 4);
	for (size_t i = 0; i < n; i++) {
		if (i >= MD_HOST_ROWS) {
			rest += rows[i].samples;
			continue;
		}
		cell(o, t, "%" PRIu64, rows[i].samples);
		cell(o, t, "%.2f%%", ap_pct(rows[i].samples, total));
		cell(o, t, "%s", rows[i].sym ? rows[i].sym : "[unknown]");
		cell(o, t, "%s", rows[i].dso);
		end_row(o, t);
	}
	if (rest) {
		cell(o, t, "%" PRIu64, rest);
		cell(o, t, "%.2f%%", ap_pct(rest, total));
		cell(o, t, "%zu more symbols", n - MD_HOST_ROWS);
		end_row(o, t);
	}
	table_end(o, t);
	free(rows);
}

static void class_table(struct md_out *o, const struct cls_table *ct, uint64_t total)
{
	static const struct md_coldef cols[] = {
		{ "class", MD_LEFT, 0 }, { "samples", MD_RIGHT, 0 }, { "%func", MD_RIGHT, 0 },
		{ "%run", MD_RIGHT, 0 }, { "static", MD_RIGHT, 0 },
	};
	struct md_table *t = table(o, cols, 5);
	uint32_t st = 0;

	for (int c = 0; c < CLS__COUNT; c++) {
		st += ct->static_count[c];
		if (!ct->samples[c] && !ct->static_count[c])
			continue;
		cell(o, t, "%s", cls__name(c));
		cell(o, t, "%" PRIu64, ct->samples[c]);
		cell(o, t, "%.2f%%", ap_pct(ct->samples[c], ct->total));
		cell(o, t, "%.2f%%", ap_pct(ct->samples[c], total));
		cell(o, t, "%u", ct->static_count[c]);
		end_row(o, t);
	}
	cell(o, t, "total");
	cell(o, t, "%" PRIu64, ct->total);
	cell(o, t, "%.2f%%", ct->total ? 100.0 : 0.0);
	cell(o, t, "%.2f%%", ap_pct(ct->total, total));
	cell(o, t, "%u", st);
	end_row(o, t);
	table_end(o, t);
}

static void hottest(struct md_out *o, const struct profile_func *f, uint32_t n)
{
	static const struct md_coldef cols[] = {
		{ "samples", MD_RIGHT, 0 }, { "%func", MD_RIGHT, 0 }, { "offset", MD_LEFT, 0 },
		{ "class", MD_LEFT, 0 }, { "instruction", MD_LEFT, 0 },
	};
	const struct cls_func *cf = &f->cls.f;
	struct md_table *t;
	uint32_t *idx, k;

	if (!n || !f->cls.t.total || o->failed)
		return;
	idx = calloc(n, sizeof(*idx));
	if (!idx) {
		o->failed = ap_err_nomem(o->err);
		return;
	}
	k = cls__hottest(cf, f->cls.insn_samples, n, idx);
	t = table(o, cols, 5);
	for (uint32_t i = 0; i < k; i++) {
		const struct cls_insn *in = &cf->insns[idx[i]];
		uint64_t s = f->cls.insn_samples[idx[i]];

		cell(o, t, "%" PRIu64, s);
		cell(o, t, "%.2f%%", ap_pct(s, f->cls.t.total));
		cell(o, t, "+0x%x", in->offset);
		cell(o, t, "%s", cls__name((enum cls_class)in->cls));
		cell_code(o, t, in->text);
		end_row(o, t);
	}
	table_end(o, t);
	free(idx);
}

static void func_block(struct md_out *o, const struct profile *p, const struct profile_func *f,
		       const struct render_opts *ro)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;
	const struct cwasm_func *fn = &m->funcs[f->func];
	uint64_t total = p->attr.total_samples;
	struct cls_levers l;
	char roles[256], sym[64], *name = NULL, *rl;

	if (!f->classified)
		return;
	if (fn->name && *fn->name)
		name = esc(o, fn->name, 0);
	snprintf(sym, sizeof(sym), "%s%slocal_func_%u", m->manifest_idx >= 0 ?
		 core_set__core_name(m) : "", m->manifest_idx >= 0 ? ":" : "", f->func);
	line(o, "#### `%s`%s%s%s: %" PRIu64 " samples (%.2f%% of run), %u instructions, %u bytes\n",
	     sym, name ? " (" : "", name ? name : "", name ? ")" : "", f->samples,
	     ap_pct(f->samples, total), cls__insn_count(&f->cls.f), fn->size);
	free(name);
	cls__roles_describe(&f->cls.f.roles, roles, sizeof(roles));
	rl = esc(o, roles, 0);
	line(o, "roles: %s\n", rl ? rl : "");
	free(rl);
	class_table(o, &f->cls.t, total);
	cls__levers(&f->cls.t, &l);
	line(o, "**verdict: %s** (levers: frame %.1f%%, moves %.1f%%, bounds %.1f%%,"
	     " dispatch %.1f%%)\n", l.verdict, l.frame, l.moves, l.bounds, l.dispatch);
	hottest(o, f, ro->hottest);
	if (!o->failed && render__loops_md(o->f, o->name, f, o->err))
		o->failed = -1;
}

int render__report_md(FILE *f, const char *name, const struct profile *p,
		      const struct render_opts *ro, struct ap_err *err)
{
	struct md_out o = { .f = f, .name = name, .err = err };

	run_summary(&o, p);
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		core_block(&o, p, i, ro);
	host_block(&o, p);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		func_block(&o, p, &p->funcs[i], ro);
	if (!o.failed && render__levers_md(f, name, p, err))
		o.failed = -1;
	if (o.failed)
		return -1;
	if (fflush(f) || ferror(f))
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

int render__report_md_file(const char *path, const struct profile *p,
			   const struct render_opts *o, struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (render__report_md(out.f, path, p, o, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
