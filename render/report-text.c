// SPDX-License-Identifier: MIT
/* The report's view as text: the run, per-core function tables, classified functions. */
#include <inttypes.h>
#include <string.h>
#include "classes.h"
#include "consistency.h"
#include "frames.h"
#include "loops.h"
#include "report.h"
#include "table.h"
#include "../util/term.h"

uint32_t render__shown(const struct render_opts *o, uint32_t n)
{
	return o->top && o->top < n ? (uint32_t)o->top : n;
}

static size_t width(unsigned columns)
{
	return columns ? columns : AP_TERM_DEFAULT_COLUMNS;
}

void render__report_coverage(FILE *out, const struct view_report *v)
{
	fprintf(out, "  in wasm code      %8" PRIu64 "  (%.2f%% of run)\n", v->in_wasm,
		v->in_wasm_pct);
}

void render__report_run(FILE *out, const struct view_report *v)
{
	fprintf(out, "  total samples     %8" PRIu64 "%s%s\n", v->total, v->event ? "  event " : "",
		v->event ? v->event : "");
	render__report_coverage(out, v);
}

void render__report_cut(FILE *out, const struct view_report *v, size_t cols)
{
	char line[240];

	if (!v->truncated)
		return;
	snprintf(line, sizeof(line), "  CUT SHORT: %s", v->cut_words);
	ap_term__wrap(out, line, cols ? cols : AP_TERM_DEFAULT_COLUMNS, 4);
}

void render__report_host_text(FILE *out, const struct view_report *v, unsigned columns)
{
	if (!v->host)
		return;
	fprintf(out, "  outside wasm      %8" PRIu64 "  (%.2f%% of run)\n", v->host_samples,
		v->host_pct);
	render__table_text(out, v->host, columns, 4, RT_NO_HEAD);
}

void render__report_sorted_text(FILE *out, const struct view_report *v, unsigned columns)
{
	if (!v->sorted)
		return;
	fputc('\n', out);
	render__table_text(out, v->sorted, columns, 2, 0);
	if (v->sorted_left)
		fprintf(out, "  (%u more rows)\n", v->sorted_left);
}

/* "  process     PID COMM: 0xBASE +0xLEN, N samples (P% of run)": only with several */
static void procs_text(FILE *out, const struct view_report_core *c)
{
	for (uint32_t i = 0; c->nprocs > 1 && i < c->nprocs; i++) {
		const struct view_report_proc *pr = &c->procs[i];

		fprintf(out, "  process     %" PRIu32 " %s: 0x%" PRIx64 " +0x%" PRIx64 "%s, %"
			PRIu64 " samples (%.2f%% of run)\n", pr->pid, pr->command, pr->base, pr->len,
			pr->more ? " and more" : "", pr->samples, pr->pct);
	}
}

void render__report_core(FILE *out, const struct view_report *v, uint32_t core,
			 const struct render_opts *o)
{
	const struct view_report_core *vc = &v->cores[core];
	const struct attr_core *c = vc->c;
	const struct cwasm_module *m = vc->mod;
	size_t cols = width(o->columns), w;
	char head[64];

	/* a lone core's name is its path: say it once */
	snprintf(head, sizeof(head), ": %u functions, text %u bytes", m->nfuncs, m->text_size);
	w = 5 + strlen(vc->name) + (vc->name != m->path ? strlen(m->path) + 3 : 0) + strlen(head);
	fprintf(out, "\ncore %s", vc->name);
	if (vc->name != m->path)
		fprintf(out, " (%s)", m->path);
	if (w <= cols)
		fprintf(out, "%s\n", head);
	else
		fprintf(out, "\n  %u functions, text %u bytes\n", m->nfuncs, m->text_size);
	fprintf(out, "  target      %s\n", vc->target);
	if (m->target.overridden)
		fprintf(out, "  decoded as  %s (overridden)\n", cwasm_arch__name(m->target.arch));
	if (v->p->source == PROFILE_STATIC)
		return;
	if (c->nmappings) {
		fprintf(out, "  mapping     0x%" PRIx64 " +0x%" PRIx64 " (%s, %u %s%s)\n",
			c->first_base, c->first_len, vc->how, c->nmappings, vc->noun,
			c->nmappings == 1 ? "" : "s");
		if (vc->pin_not_text)
			fprintf(out, "  NOT authoritative: the core's text takes 0x%" PRIx64
				" bytes; the wrong .cwasm?\n", vc->expected_size);
	} else {
		fprintf(out, "  mapping     none found\n");
	}
	render__consistency_text(out, c, cols);
	fprintf(out, "  samples     %" PRIu64 "  (%.2f%% of run)\n", c->samples, vc->pct);
	procs_text(out, vc);
	if (!vt_table__nrows(vc->funcs))
		return;
	fputc('\n', out);
	render__table_text(out, vc->funcs, (unsigned)cols, 2, 0);
}

void render__report_func(FILE *out, const struct view_report *v,
			 const struct view_report_func *f, const struct render_opts *o)
{
	size_t cols = width(o->columns);
	char line[CWASM_NAME_MAX + 160], samples[64] = "";

	if (v->p->source != PROFILE_STATIC)
		snprintf(samples, sizeof(samples), "%" PRIu64 " samples (%.2f%% of run), ", f->samples,
			 f->pct);
	snprintf(line, sizeof(line), "function local_func_%u%s%s%s: %s%u instructions, %u bytes",
		 f->pf->func, f->name ? " (" : "", f->name ? f->name : "", f->name ? ")" : "",
		 samples, f->ninsns, f->mod->funcs[f->pf->func].size);
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 2);
	if (v->ncores > 1)
		fprintf(out, "  core %s\n", core_set__core_name(f->mod));
	if (f->cls.no_verdict) {	/* above the table: its counts are not to be read as this code's */
		snprintf(line, sizeof(line), "  NOT authoritative: %s; the classes below count"
			 " the samples where they fell, and no lever verdict is drawn", f->cls.no_verdict);
		ap_term__wrap(out, line, cols, 4);
	}
	render__roles_text(out, f->roles);
	render__classes_text(out, &f->cls);
	if (f->pf->sc)
		render__frames_text(out, f->pf->sc, f->samples, o->fa_listed);
	if (f->samples) {
		fprintf(out, "\n  hottest instructions\n");
		render__hottest_text(out, f->hottest, o->columns);
	}
	render__loops_text(out, f->loops, cols);
}

void render__report_body(FILE *out, const struct view_report *v, const struct render_opts *o)
{
	for (uint32_t i = 0; i < v->ncores; i++)
		render__report_core(out, v, i, o);
	for (uint32_t i = 0; i < v->nfuncs; i++)
		if (v->funcs[i].asked)
			render__report_func(out, v, &v->funcs[i], o);
}
