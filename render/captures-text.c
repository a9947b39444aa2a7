// SPDX-License-Identifier: MIT
/* Several recordings of one build as text, 80 columns (captures.h). */
#include <inttypes.h>
#include <string.h>
#include "captures.h"
#include "classes.h"
#include "diff.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/term.h"

/* "mean 24.31%  sd 1.20  min 22.90  max 25.80" */
static void spread(FILE *out, const struct cmp_share *s)
{
	fprintf(out, "mean %.2f%%  sd %.2f  min %.2f  max %.2f", s->mean, s->sd, s->min, s->max);
}

static void core_block(FILE *out, const struct view_captures_core *vc)
{
	const struct cwasm_module *m = vc->ac->mod;
	char buf[80];

	fprintf(out, "\ncore %s%s%s%s: %u functions\n", m->core_label ? m->core_label : "",
		m->core_label ? " (" : "", render__tail(m->path, 56, buf, sizeof(buf)),
		m->core_label ? ")" : "", m->nfuncs);
	fprintf(out, "  share of run  ");
	spread(out, &vc->ac->core);
	fputc('\n', out);
	if (!vt_table__nrows(vc->funcs))
		return;
	fputc('\n', out);
	render__table_text(out, vc->funcs, AP_TERM_DEFAULT_COLUMNS, 2, 0);
	if (vc->more)
		fprintf(out, "  %u more functions with samples (--top 0 lists all)\n", vc->more);
}

static void func_block(FILE *out, const struct view_captures *v, const struct view_captures_func *f)
{
	const struct cwasm_module *m = v->in.side->mods[f->in->core];
	char cut[96];

	fprintf(out, "\nfunction local_func_%u%s%s%s: %" PRIu64 " samples, %.2f%% of all\n",
		f->in->func, f->name ? " (" : "", f->name ? ap_term__fit(cut, sizeof(cut), f->name, 24) : "",
		f->name ? ")" : "", f->in->samples, f->pct);
	if (v->in.side->ncores > 1)
		fprintf(out, "  core %s\n", core_set__core_name(m));
	render__classes_text(out, &f->cls);
}

void render__captures_text(FILE *out, const struct view_captures *v)
{
	const struct cmp_side *s = v->in.side;
	const struct vt_table *t = v->recordings;

	fprintf(out, "aotperf report: %u recordings of one build%s%s\n", s->ncaptures,
		v->in.event ? ", event " : "", v->in.event ? v->in.event : "");
	for (uint32_t k = 0; k < s->ncaptures; k++) {
		const struct vt_cell *pct = vt_table__cell(t, k, 3);
		char buf[80];

		fprintf(out, "  %-42s %9" PRIu64 " samples",
			render__tail(s->captures[k].label, 42, buf, sizeof(buf)),
			vt_table__cell(t, k, 1)->v.u);
		if (pct->present)
			fprintf(out, ", %6.2f%% in wasm", pct->v.d);
		fputc('\n', out);
		if (v->cut_words[k][0]) {
			char line[240];

			snprintf(line, sizeof(line), "    CUT SHORT: %s", v->cut_words[k]);
			ap_term__wrap(out, line, AP_TERM_DEFAULT_COLUMNS, 6);
		}
	}
	fprintf(out, "  in wasm code  ");
	spread(out, &v->in.agg->wasm);
	fprintf(out, "\n  shares: %% of each recording's samples; mean, sample sd, range over the %u\n",
		s->ncaptures);
	for (uint32_t c = 0; c < v->in.agg->ncores; c++)
		core_block(out, &v->cores[c]);
	for (uint32_t i = 0; i < v->in.nfuncs; i++)
		func_block(out, v, &v->funcs[i]);
}
