// SPDX-License-Identifier: MIT
/* The report as text: per-core function tables and classified functions. */
#include <inttypes.h>
#include "frames.h"
#include "report.h"
#include "../util/pct.h"

uint32_t render__shown(const struct render_opts *o, uint32_t nranked)
{
	return o->top && o->top < nranked ? (uint32_t)o->top : nranked;
}

void render__report_coverage(FILE *out, const struct profile *p)
{
	fprintf(out, "  in wasm code        %" PRIu64 "  (%.2f%% of run)\n",
		p->attr.attributed_samples,
		ap_pct(p->attr.attributed_samples, p->attr.total_samples));
}

void render__report_core(FILE *out, const struct profile *p, uint32_t core,
			 const struct render_opts *o)
{
	const struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	const char *noun = p->source == PROFILE_SAMPLES ? "region" : "mapping";
	uint64_t total = p->attr.total_samples;
	char name[32];

	char target[160];

	fprintf(out, "\ncore %s (%s): %u functions, text %u bytes\n", core_set__core_name(m),
		m->path, m->nfuncs, m->text_size);
	cwasm_target__describe(&m->target, target, sizeof(target));
	fprintf(out, "  target      %s\n", target);
	if (m->target.overridden)
		fprintf(out, "  decoded as  %s (overridden)\n", cwasm_arch__name(m->target.arch));
	if (p->source == PROFILE_STATIC)
		return;
	if (c->nmappings)
		fprintf(out, "  mapping     0x%" PRIx64 " +0x%" PRIx64 " (%s%s, %u %s(s))\n",
			c->first_base, c->first_len,
			c->base_override ? (o->pin_word ? o->pin_word : "pinned") : "exact size",
			c->authoritative ? ", unique" : c->base_override ? "" : ", NOT unique",
			c->nmappings, noun);
	else
		fprintf(out, "  mapping     none found\n");
	fprintf(out, "  samples     %" PRIu64 "  (%.2f%% of run)\n", c->samples,
		ap_pct(c->samples, total));
	if (!c->nranked)
		return;
	fprintf(out, "\n  %4s  %-18s %8s %8s %8s  %s\n", "rank", "function", "samples", "%run",
		"bytes", "wasm name");
	for (uint32_t i = 0; i < render__shown(o, c->nranked); i++) {
		const struct attr_ranked *r = &c->ranked[i];
		const struct cwasm_func *f = &m->funcs[r->func];

		fprintf(out, "  %4u  %-18s %8" PRIu64 " %7.2f%% %8u  %s\n", i + 1,
			cwasm__local_name(r->func, name, sizeof(name)), r->samples,
			ap_pct(r->samples, total), f->size, f->name ? f->name : "");
	}
}

void render__report_func(FILE *out, const struct profile *p, const struct profile_func *f,
			 const struct render_opts *o)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;
	const struct cwasm_func *fn = &m->funcs[f->func];
	uint64_t total = p->attr.total_samples;

	if (!f->classified)
		return;
	fprintf(out, "\nfunction local_func_%u%s%s%s: ", f->func, fn->name ? " (" : "",
		fn->name ? fn->name : "", fn->name ? ")" : "");
	if (p->source != PROFILE_STATIC)
		fprintf(out, "%" PRIu64 " samples (%.2f%% of run), ", f->samples,
			ap_pct(f->samples, total));
	fprintf(out, "%u instructions, %u bytes\n", cls__insn_count(&f->cls.f), fn->size);
	if (p->attr.ncores > 1)
		fprintf(out, "  core %s\n", core_set__core_name(m));
	cls__print_roles(out, &f->cls.f.roles);
	cls__print_table(out, &f->cls.t, total);
	if (f->sc)
		render__frames_text(out, f->sc, f->samples, o->fa_listed);
	if (f->samples) {
		fprintf(out, "\n  hottest instructions\n");
		cls__print_hottest(out, &f->cls.f, f->cls.insn_samples, o->hottest, &f->cls.t,
				   total);
	}
}

void render__report_body(FILE *out, const struct profile *p, const struct render_opts *o)
{
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		render__report_core(out, p, i, o);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		render__report_func(out, p, &p->funcs[i], o);
}
