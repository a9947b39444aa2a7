// SPDX-License-Identifier: MIT
/* aotperf spills as text, from its view: the ranking with its runtime flags, or the diff. */
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include "frames.h"
#include "spills.h"
#include "table.h"
#include "../util/term.h"
#include "../view/spills.h"

static void wrapped(FILE *out, size_t columns, unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void wrapped(FILE *out, size_t columns, unsigned indent, const char *fmt, ...)
{
	char line[2 * PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ap_term__wrap(out, line, columns, indent);
}

/* Cell c of row i of t in words. */
static const char *cell(const struct vt_table *t, uint32_t i, uint32_t c, char *buf, size_t len)
{
	return render__cell(vt_table__col(t, c), vt_table__cell(t, i, c), buf, len);
}

static void print_cores(FILE *out, const struct view_spills *v, size_t columns)
{
	const struct spills *s = v->s;
	char a[32], b[32], p[32];

	if (s->p)
		wrapped(out, columns, 13, "  recording  %s: %s samples, %s in the cores (%s)",
			s->p->input, cell(v->run, 0, 1, a, sizeof(a)), cell(v->run, 0, 2, b, sizeof(b)),
			cell(v->run, 0, 3, p, sizeof(p)));
	for (uint32_t i = 0; i < s->cs->n; i++)
		wrapped(out, columns, 13, "  core       %s = log mod %u (%u functions)",
			s->cs->mods[i]->path, s->core_mod[i], s->cs->mods[i]->nfuncs);
}

static void print_flags(FILE *out, const struct view_spills *v, size_t columns)
{
	const struct spills *s = v->s;

	if (vt_table__nrows(v->cold)) {
		fputc('\n', out);
		wrapped(out, columns, 2, "runtime-cold heavy spillers (the top %u by spill_ld, under"
			" %g%% of run): never or barely executed, don't optimize them first",
			s->nheavy, s->o->cold_pct);
		render__table_text(out, v->cold, (unsigned)columns, 2, 0);
	}
	if (vt_table__nrows(v->hot)) {
		fprintf(out, "\nhot functions (%g%% of run or more):\n", s->o->hot_pct);
		render__table_text(out, v->hot, (unsigned)columns, 2, 0);
		wrapped(out, columns, 2, "  spiller: its rank by spill_ld; not in the log (no spills"
			" reported), few spills: the cost is elsewhere");
	}
	fputc('\n', out);
	wrapped(out, columns, 8, "lesson: %s", s->lesson);
}

static void print_ranking(FILE *out, const struct view_spills *v, size_t columns)
{
	const struct spills *s = v->s;
	const struct spill_log *log = &s->log;

	wrapped(out, columns, 2, "aotperf spills: %s: %u functions from %" PRIu64 " metric lines"
		" (%" PRIu64 " lines), ranked by %s", log->path, log->n, log->metric_lines,
		log->lines, s->sort);
	fprintf(out, "  totals     spill_ld %" PRIu64 ", spill_st %" PRIu64 "\n",
		spills__field_total(log, SPILL_F_SPILL_LD), spills__field_total(log, SPILL_F_SPILL_ST));
	print_cores(out, v, columns);
	fputc('\n', out);
	render__table_text(out, v->rank, (unsigned)columns, 2, 0);
	if (s->ntop < log->n)
		fprintf(out, "  ... %u more (--top 0 lists all)\n", log->n - s->ntop);
	if (s->cs->n)
		fprintf(out, "\n  frame_ld: unattributed frame-slot reads decoded from the core's code"
			"\n  (class frame_load: spill reloads and other frame reads; vmctx reloads"
			"\n  excluded); ratio = frame_ld / spill_ld, about 1 when the metric and the"
			"\n  code agree (narrow terminals leave them out: --wide, or the JSON)\n");
	if (s->p)
		print_flags(out, v, columns);
}

static void print_diff(FILE *out, const struct view_spills *v, size_t columns)
{
	const struct spills *s = v->s;
	uint32_t n = vt_table__nrows(v->diff), shown = vt_table__shown(v->diff);

	wrapped(out, columns, 2, "aotperf spills: %s vs %s: %s per function (sorted by %s)",
		s->log.path, s->other.path, s->sort, s->p ? "runtime heat" : "|delta|");
	wrapped(out, columns, 2, "  total %s %" PRIu64 " -> %" PRIu64 " (%s); %u functions in"
		" both, %u only in %s, %u only in %s", s->sort, v->diff_total_before,
		v->diff_total_after, v->diff_total_change, v->diff_both, v->diff_only_before,
		s->log.path, v->diff_only_after, s->other.path);
	print_cores(out, v, columns);
	fputc('\n', out);
	render__table_text(out, v->diff, (unsigned)columns, 2, 0);
	if (shown < n)
		fprintf(out, "  ... %u more (--top 0 lists all)\n", n - shown);
	if (v->hottest_change[0]) {
		char lbl[64], heat[48];
		const struct spills_hot *h = &s->hottest;

		fprintf(out, "\nhottest function %s (%s): %s %s\n",
			spills__fn_label(s, s->core_mod[h->core], h->func, lbl, sizeof(lbl)),
			spills__heat(s, h->samples, heat, sizeof(heat)), s->sort, v->hottest_change);
	}
}

/* --frame-attribution: each listed function's sidecar against its log, in two lines */
static void print_frames(FILE *out, const struct view_spills *v)
{
	if (!v->nframes)
		return;
	fprintf(out, "\nframe origins (compiler sidecars %s.modM.funcN.json)\n", v->frame_prefix);
	for (uint32_t i = 0; i < v->nframes; i++) {
		const struct view_spills_frame *x = &v->frames[i];

		render__frames_brief(out, x->label, x->f->sc, v->s->p != NULL, x->f->samples,
				     x->have_log, x->log_ld, x->log_st);
	}
}

void render__spills_text(FILE *out, const struct view_spills *v, unsigned columns)
{
	size_t cols = columns ? columns : AP_TERM_DEFAULT_COLUMNS;

	if (v->s->o->vs_path)
		print_diff(out, v, cols);
	else
		print_ranking(out, v, cols);
	print_frames(out, v);
}
