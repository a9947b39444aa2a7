// SPDX-License-Identifier: MIT
/* The report as text: per-core function tables and classified functions. */
#include <inttypes.h>
#include <string.h>
#include "consistency.h"
#include "frames.h"
#include "loops.h"
#include "report.h"
#include "../util/pct.h"
#include "../util/term.h"

uint32_t render__shown(const struct render_opts *o, uint32_t nranked)
{
	return o->top && o->top < nranked ? (uint32_t)o->top : nranked;
}

void render__report_coverage(FILE *out, const struct profile *p)
{
	fprintf(out, "  in wasm code      %8" PRIu64 "  (%.2f%% of run)\n",
		p->attr.attributed_samples,
		ap_pct(p->attr.attributed_samples, p->attr.total_samples));
}

void render__report_cut(FILE *out, const struct profile *p, size_t cols)
{
	char words[200], line[240];

	if (!p->attr.truncated)
		return;
	profile__cut_words(p->attr.bytes_read, p->attr.bytes_expected, words, sizeof(words));
	snprintf(line, sizeof(line), "  CUT SHORT: %s", words);
	ap_term__wrap(out, line, cols ? cols : AP_TERM_DEFAULT_COLUMNS, 4);
}

void render__report_core(FILE *out, const struct profile *p, uint32_t core,
			 const struct render_opts *o)
{
	const struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	const char *noun = p->source == PROFILE_SAMPLES ? "region" : "mapping";
	const char *name = core_set__core_name(m);
	uint64_t total = p->attr.total_samples;
	size_t cols = o->columns ? o->columns : AP_TERM_DEFAULT_COLUMNS, width;
	char fn[32], how[96], head[64], wname[CWASM_NAME_MAX + 3], target[160];

	/* a lone core's name is its path: say it once */
	snprintf(head, sizeof(head), ": %u functions, text %u bytes", m->nfuncs, m->text_size);
	width = 5 + strlen(name) + (name != m->path ? strlen(m->path) + 3 : 0) + strlen(head);
	fprintf(out, "\ncore %s", name);
	if (name != m->path)
		fprintf(out, " (%s)", m->path);
	if (width <= cols)
		fprintf(out, "%s\n", head);
	else
		fprintf(out, "\n  %u functions, text %u bytes\n", m->nfuncs, m->text_size);
	cwasm_target__describe(&m->target, target, sizeof(target));
	fprintf(out, "  target      %s\n", target);
	if (m->target.overridden)
		fprintf(out, "  decoded as  %s (overridden)\n", cwasm_arch__name(m->target.arch));
	if (p->source == PROFILE_STATIC)
		return;
	if (c->nmappings) {
		fprintf(out, "  mapping     0x%" PRIx64 " +0x%" PRIx64 " (%s, %u %s%s)\n",
			c->first_base, c->first_len,
			render__mapping_word(c, o->pin_word, how, sizeof(how)), c->nmappings,
			noun, c->nmappings == 1 ? "" : "s");
		if (c->base_override && c->first_len != attr__page_round(m->text_size))
			fprintf(out, "  NOT authoritative: the core's text takes 0x%" PRIx64
				" bytes; the wrong .cwasm?\n", attr__page_round(m->text_size));
	} else {
		fprintf(out, "  mapping     none found\n");
	}
	render__consistency_text(out, c, cols);
	fprintf(out, "  samples     %" PRIu64 "  (%.2f%% of run)\n", c->samples,
		ap_pct(c->samples, total));
	render__report_procs_text(out, p, core);
	if (!c->nranked)
		return;
	fprintf(out, "\n  %4s  %-18s %8s %8s %8s  %s\n", "rank", "function", "samples", "%run",
		"bytes", "wasm name");
	for (uint32_t i = 0; i < render__shown(o, c->nranked); i++) {
		const struct attr_ranked *r = &c->ranked[i];
		const struct cwasm_func *f = &m->funcs[r->func];
		int n;

		n = fprintf(out, "  %4u  %-18s %8" PRIu64 " %7.2f%% %8u  ", i + 1,
			    cwasm__local_name(r->func, fn, sizeof(fn)), r->samples,
			    ap_pct(r->samples, total), f->size);
		/* the name takes what is left of the line */
		fprintf(out, "%s\n", ap_term__fit(wname, sizeof(wname), f->name ? f->name : "",
						   n > 0 && (size_t)n + 8 < cols ? cols - (size_t)n : 8));
	}
}

void render__report_func(FILE *out, const struct profile *p, const struct profile_func *f,
			 const struct render_opts *o)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;
	const struct cwasm_func *fn = &m->funcs[f->func];
	uint64_t total = p->attr.total_samples;
	size_t cols = o->columns ? o->columns : AP_TERM_DEFAULT_COLUMNS;
	char line[CWASM_NAME_MAX + 160], samples[64] = "";

	if (!f->classified)
		return;
	if (p->source != PROFILE_STATIC)
		snprintf(samples, sizeof(samples), "%" PRIu64 " samples (%.2f%% of run), ", f->samples,
			 ap_pct(f->samples, total));
	snprintf(line, sizeof(line), "function local_func_%u%s%s%s: %s%u instructions, %u bytes",
		 f->func, fn->name ? " (" : "", fn->name ? fn->name : "", fn->name ? ")" : "",
		 samples, cls__insn_count(&f->cls.f), fn->size);
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 2);
	if (p->attr.ncores > 1)
		fprintf(out, "  core %s\n", core_set__core_name(m));
	if (f->cls.t.no_verdict) {	/* above the table: its counts are not to be read as this code's */
		snprintf(line, sizeof(line), "  NOT authoritative: %s; the classes below count"
			 " the samples where they fell, and no lever verdict is drawn", f->cls.t.no_verdict);
		ap_term__wrap(out, line, cols, 4);
	}
	cls__print_roles(out, &f->cls.f.roles);
	cls__print_table_rows(out, &f->cls.t, total, o->all_classes);
	if (f->sc)
		render__frames_text(out, f->sc, f->samples, o->fa_listed);
	if (f->samples) {
		fprintf(out, "\n  hottest instructions\n");
		cls__print_hottest(out, &f->cls.f, f->cls.insn_samples, o->hottest, &f->cls.t,
				   total);
	}
	render__loops_text(out, f, cols);
}

void render__report_body(FILE *out, const struct profile *p, const struct render_opts *o)
{
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		render__report_core(out, p, i, o);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		render__report_func(out, p, &p->funcs[i], o);
}
