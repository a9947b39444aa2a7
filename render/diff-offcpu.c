// SPDX-License-Identifier: MIT
/*
 * The off-CPU part of aotperf diff (docs/offcpu-diff.md), from its view:
 * each side's run line, the tables of waits and of inclusive and wall
 * time (text, Markdown), and the JSON's "off_cpu" member.
 */
#include <inttypes.h>
#include <math.h>
#include "diff.h"
#include "markdown.h"
#include "table.h"
#include "../util/json_out.h"
#include "../util/term.h"

#define TEST_WORDS "Welch's t-test of the mean wait (one off-CPU interval) over the intervals"

static double ms(double ns)
{
	return ns / 1e6;
}

static void run_line(FILE *out, const char *word, const struct cmp_oc_run *s)
{
	fprintf(out, "  %-7s on-CPU %.1f ms + off-CPU %.1f ms = wall %.1f ms (%" PRIu64
		" intervals)\n", word, ms(s->on_ns), ms(s->off_ns), ms(s->wall_ns), s->intervals);
}

void render__diff_offcpu_text(FILE *out, const struct view_diff *v, unsigned columns)
{
	const struct cmp_offcpu *oc = v->in.oc;
	uint32_t n;

	if (!oc) {
		if (v->in.oc_note)
			fprintf(out, "\n%s\n", v->in.oc_note);
		return;
	}
	fprintf(out, "\nOff-CPU time (ms per recording; wall = on-CPU samples x period + off-CPU):\n");
	run_line(out, "before", &oc->before);
	run_line(out, "after", &oc->after);
	fprintf(out, "\nOff-CPU time per wasm function, self, by the size of the change:\n");
	render__table_text(out, v->oc_self, columns, 2, 0);
	if (!oc->nfuncs)
		fprintf(out, "  (no wasm function waited on either side)\n");
	fprintf(out, "  wait: ms per off-CPU interval (the mean wait)\n"
		"  * it differs at %.0f%%: Welch's t-test over the intervals, %s-adjusted over\n"
		"    %u tested; the change of the totals is not tested (docs/offcpu-diff.md)\n",
		100.0 * oc->level, v->adjust_words, oc->ntested);
	fprintf(out, "\nOff-CPU inclusive and wall time (on-CPU + off-CPU, self) per function, ms:\n");
	render__table_text(out, v->oc_wall, columns, 2, 0);
	n = vt_table__shown(v->oc_self);
	if (n < vt_table__nrows(v->oc_self))
		fprintf(out, "  %u more functions with off-CPU time (--top 0 lists all)\n",
			vt_table__nrows(v->oc_self) - n);
}

int render__diff_offcpu_markdown(FILE *f, const char *path, const struct view_diff *v,
				 struct ap_err *err)
{
	const struct cmp_offcpu *oc = v->in.oc;
	uint32_t n;

	if (!oc) {
		if (v->in.oc_note) {
			fprintf(f, "## Off-CPU time\n\n");
			md__fputs(f, v->in.oc_note);
			fprintf(f, "\n\n");
		}
		return 0;
	}
	fprintf(f, "## Off-CPU time by function\n\n");
	fprintf(f, "Before: on-CPU %.1f ms + off-CPU %.1f ms = wall %.1f ms. After: on-CPU %.1f ms"
		" + off-CPU %.1f ms = wall %.1f ms (per recording).\n\n", ms(oc->before.on_ns),
		ms(oc->before.off_ns), ms(oc->before.wall_ns), ms(oc->after.on_ns),
		ms(oc->after.off_ns), ms(oc->after.wall_ns));
	if (render__table_md(f, path, v->oc_self, err))
		return -1;
	fprintf(f, "Off-CPU time self (the function the innermost wasm frame) and inclusive, "
		"wall = on-CPU samples × period + off-CPU self, ms per recording, sorted by the "
		"size of the change. p: %s, %s-adjusted over %u functions, significant at %.0f%%; "
		"the change of the totals is not tested.", TEST_WORDS, v->adjust_words,
		oc->ntested, 100.0 * oc->level);
	n = vt_table__shown(v->oc_self);
	if (n < vt_table__nrows(v->oc_self))
		fprintf(f, " %u of %u functions with off-CPU time listed.", n,
			vt_table__nrows(v->oc_self));
	fprintf(f, "\n\n");
	return 0;
}

static void ns(struct json_out *j, const char *key, double v)
{
	json_key(j, key);
	json_i64(j, (int64_t)llround(v));
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

void render__diff_offcpu_json(struct json_out *j, const struct view_diff *v)
{
	const struct cmp_offcpu *oc = v->in.oc;

	if (!oc && !v->in.oc_note)
		return;
	json_key(j, "off_cpu");
	json_begin_obj(j);
	json_key(j, "compared");
	json_bool(j, oc != NULL);
	if (!oc) {
		json_key(j, "note");
		json_str(j, v->in.oc_note);
		json_end_obj(j);
		return;
	}
	json_key(j, "per");
	json_str(j, "recording");
	run_json(j, "before", &oc->before);
	run_json(j, "after", &oc->after);
	json_key(j, "test");
	json_str(j, TEST_WORDS);
	json_key(j, "level");
	json_dbl(j, oc->level, 4);
	json_key(j, "tested_functions");
	json_u64(j, oc->ntested);
	json_key(j, "functions");
	render__table_json_rows(j, v->oc_json);
	json_end_obj(j);
}
