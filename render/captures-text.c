// SPDX-License-Identifier: MIT
/* Several recordings of one build as text, 80 columns (captures.h). */
#include <inttypes.h>
#include <string.h>
#include "captures.h"
#include "diff.h"
#include "../cwasm/coreset.h"
#include "../profile/profile.h"
#include "../util/pct.h"
#include "../util/term.h"

static uint32_t shown(const struct render_captures *r, uint32_t n)
{
	return r->top && r->top < n ? (uint32_t)r->top : n;
}

/* "mean 24.31%  sd 1.20  min 22.90  max 25.80" */
static void spread(FILE *out, const struct cmp_share *s)
{
	fprintf(out, "mean %.2f%%  sd %.2f  min %.2f  max %.2f", s->mean, s->sd, s->min, s->max);
}

static void core_block(FILE *out, const struct render_captures *r, uint32_t c)
{
	const struct cmp_agg_core *ac = &r->agg->cores[c];
	const struct cwasm_module *m = ac->mod;
	char name[32], buf[80];

	fprintf(out, "\ncore %s%s%s%s: %u functions\n", m->core_label ? m->core_label : "",
		m->core_label ? " (" : "", render__tail(m->path, 56, buf, sizeof(buf)),
		m->core_label ? ")" : "", m->nfuncs);
	fprintf(out, "  share of run  ");
	spread(out, &ac->core);
	fputc('\n', out);
	if (!ac->nranked)
		return;
	fprintf(out, "\n  %4s  %-16s %6s %6s %6s %6s %9s  %s\n", "rank", "function", "mean%",
		"sd", "min", "max", "samples", "wasm name");
	for (uint32_t i = 0; i < shown(r, ac->nranked); i++) {
		uint32_t f = ac->rank[i];
		const struct cmp_share *s = &ac->self[f];

		char wn[64];

		fprintf(out, "  %4u  %-16s %6.2f %6.2f %6.2f %6.2f %9" PRIu64 "  %s\n", i + 1,
			cwasm__local_name(f, name, sizeof(name)), s->mean, s->sd, s->min, s->max,
			s->samples, ap_term__fit(wn, sizeof(wn), m->funcs[f].name ? m->funcs[f].name : "",
						 15));
	}
	if (shown(r, ac->nranked) < ac->nranked)
		fprintf(out, "  %u more functions with samples (--top 0 lists all)\n",
			ac->nranked - shown(r, ac->nranked));
}

static void func_block(FILE *out, const struct render_captures *r,
		       const struct render_captures_func *f)
{
	const struct cwasm_module *m = r->side->mods[f->core];
	const char *nm = m->funcs[f->func].name;
	uint64_t total = r->agg->wasm.total;

	char cut[96];

	fprintf(out, "\nfunction local_func_%u%s%s%s: %" PRIu64 " samples, %.2f%% of all\n",
		f->func, nm ? " (" : "", nm ? ap_term__fit(cut, sizeof(cut), nm, 24) : "",
		nm ? ")" : "", f->samples,
		ap_pct(f->samples, total));
	if (r->side->ncores > 1)
		fprintf(out, "  core %s\n", core_set__core_name(m));
	cls__print_table(out, f->t, total);
}

void render__captures_text(FILE *out, const struct render_captures *r)
{
	const struct cmp_side *s = r->side;

	fprintf(out, "aotperf report: %u recordings of one build%s%s\n", s->ncaptures,
		r->event ? ", event " : "", r->event ? r->event : "");
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		char buf[80];

		fprintf(out, "  %-42s %9" PRIu64 " samples",
			render__tail(s->captures[k].label, 42, buf, sizeof(buf)), s->captures[k].total);
		if (r->attributed)
			fprintf(out, ", %6.2f%% in wasm",
				ap_pct(r->attributed[k], s->captures[k].total));
		fputc('\n', out);
		if (r->reads && r->reads[k].truncated) {
			char words[200], line[240];

			profile__cut_words(r->reads[k].bytes_read, r->reads[k].bytes_expected, words,
					   sizeof(words));
			snprintf(line, sizeof(line), "    CUT SHORT: %s", words);
			ap_term__wrap(out, line, AP_TERM_DEFAULT_COLUMNS, 6);
		}
	}
	fprintf(out, "  in wasm code  ");
	spread(out, &r->agg->wasm);
	fprintf(out, "\n  shares: %% of each recording's samples; mean, sample sd, range over the %u\n",
		s->ncaptures);
	for (uint32_t c = 0; c < r->agg->ncores; c++)
		core_block(out, r, c);
	for (uint32_t i = 0; i < r->nfuncs; i++)
		func_block(out, r, &r->funcs[i]);
}
