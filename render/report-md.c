// SPDX-License-Identifier: MIT
/*
 * The report's view as GitHub-flavoured Markdown, to paste into an issue:
 * the run, each core's top functions, the samples outside wasm, and each
 * classified function's class table, verdict, hottest instructions and
 * hot loops with the what-if per lever (loops-md.c). The same rows and
 * numbers as the text report, as tables (render/table.h).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "classes.h"
#include "levers.h"
#include "loops.h"
#include "markdown.h"
#include "offcpu.h"
#include "report-export.h"
#include "table.h"
#include "../util/outfile.h"

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

static void table(struct md_out *o, const struct vt_table *t)
{
	if (!o->failed && render__table_md(o->f, o->name, t, o->err))
		o->failed = -1;
}

/* A table of two columns, "run" and its values, each a row. */
static void run_row(struct md_out *o, struct md_table *t, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void run_row(struct md_out *o, struct md_table *t, const char *key, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	if (!t || o->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (md_table__cell(t, key, o->err) || md_table__cell(t, buf, o->err) ||
	    md_table__end_row(t, o->err))
		o->failed = -1;
}

static void run_summary(struct md_out *o, const struct view_report *v)
{
	static const struct md_coldef cols[] = { { "run", MD_LEFT, 0 }, { "", MD_RIGHT, 0 } };
	const struct profile *p = v->p;
	char *in = esc(o, p->input ? p->input : "samples fed", 1);
	struct md_table *t;

	line(o, "### aotperf report: %s\n", in ? in : "");
	free(in);
	if (v->truncated)
		line(o, "**CUT SHORT**: %s.\n", v->cut_words);
	t = o->failed ? NULL : md_table__new_cols(cols, 2, o->err);
	if (!t && !o->failed)
		o->failed = -1;
	run_row(o, t, "samples", "%" PRIu64, v->total);
	if (v->event)
		run_row(o, t, "event", "%s", v->event);
	run_row(o, t, "in wasm code", "%" PRIu64 " (%.2f%%)", v->in_wasm, v->in_wasm_pct);
	run_row(o, t, "outside wasm", "%" PRIu64 " (%.2f%%)", v->outside, v->outside_pct);
	run_row(o, t, "cores", "%u", v->ncores);
	if (o->failed)
		md_table__delete(t);
	else if (md_table__flush(t, o->f, o->name, o->err))
		o->failed = -1;
	for (size_t i = 0; i < p->attr.warnings.n; i++) {
		char *w = esc(o, p->attr.warnings.w[i].msg, 0);

		line(o, "> warning: %s\n", w ? w : "");
		free(w);
	}
}

static void core_block(struct md_out *o, const struct view_report *v, uint32_t core)
{
	const struct view_report_core *vc = &v->cores[core];
	const struct cwasm_module *m = vc->mod;
	char *name = esc(o, vc->name, 1), *path = esc(o, m->path, 1);
	const char *abi = cwasm_abi__name(m->target.abi);
	char target[64];

	if (m->manifest_idx >= 0)
		line(o, "#### core %s (%s): %u functions, %u bytes of text\n", name ? name : "",
		     path ? path : "", m->nfuncs, m->text_size);
	else
		line(o, "#### core %s: %u functions, %u bytes of text\n", path ? path : "",
		     m->nfuncs, m->text_size);
	free(name);
	free(path);
	snprintf(target, sizeof(target), "%s%s%s", cwasm_arch__name(m->target.arch),
		 abi ? " " : "", abi ? abi : "");
	if (vc->c->nmappings)
		line(o, "%s, mapped at `0x%" PRIx64 "` +0x%" PRIx64 " (%s, %u mapping(s));"
		     " %" PRIu64 " samples (%.2f%% of run)\n", target, vc->c->first_base,
		     vc->c->first_len, vc->how, vc->c->nmappings, vc->c->samples, vc->pct);
	else
		line(o, "%s, no mapping found; 0 samples\n", target);
	if (vt_table__nrows(vc->funcs))
		table(o, vc->funcs);
}

static void host_block(struct md_out *o, const struct view_report *v)
{
	if (!v->host || !v->host_samples)
		return;
	line(o, "#### outside wasm: %" PRIu64 " samples (%.2f%% of run)\n", v->host_samples,
	     v->host_pct);
	table(o, v->host);
}

static void func_block(struct md_out *o, const struct view_report_func *f)
{
	char *name = f->name ? esc(o, f->name, 0) : NULL, *rl;

	line(o, "#### `%s`%s%s%s: %" PRIu64 " samples (%.2f%% of run), %u instructions, %u bytes\n",
	     f->label, name ? " (" : "", name ? name : "", name ? ")" : "", f->samples, f->pct,
	     f->ninsns, f->mod->funcs[f->pf->func].size);
	free(name);
	rl = esc(o, f->roles, 0);
	line(o, "roles: %s\n", rl ? rl : "");
	free(rl);
	if (f->cls.no_verdict)
		line(o, "**NOT authoritative**: %s; the classes count the samples where they fell,"
		     " and no lever verdict is drawn.\n", f->cls.no_verdict);
	if (!o->failed && render__classes_md(o->f, o->name, &f->cls, o->err))
		o->failed = -1;
	if (vt_table__nrows(f->hottest))
		table(o, f->hottest);
	if (!o->failed && render__loops_md(o->f, o->name, f->loops, o->err))
		o->failed = -1;
}

int render__report_md(FILE *f, const char *name, const struct view_report *v,
		      const struct render_opts *ro, struct ap_err *err)
{
	struct md_out o = { .f = f, .name = name, .err = err };

	run_summary(&o, v);
	for (uint32_t i = 0; i < v->ncores; i++)
		core_block(&o, v, i);
	host_block(&o, v);
	if (!o.failed && render__offcpu_markdown(f, name, v->p, ro, err))
		o.failed = -1;
	for (uint32_t i = 0; i < v->nfuncs; i++)
		func_block(&o, &v->funcs[i]);
	if (!o.failed && render__levers_md(f, name, v->levers, err))
		o.failed = -1;
	if (o.failed || (ro->md_extra && ro->md_extra(f, name, v->p, ro->ctx, err)))
		return -1;
	if (fflush(f) || ferror(f))
		return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
	return 0;
}

int render__report_md_file(const char *path, const struct view_report *v,
			   const struct render_opts *o, struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (render__report_md(out.f, path, v, o, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
