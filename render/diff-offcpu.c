// SPDX-License-Identifier: MIT
/*
 * The off-CPU part of aotperf diff (docs/offcpu-diff.md), from its view:
 * each side's run line, the tables of waits and of inclusive and wall
 * time (text, Markdown), and the JSON's "off_cpu" member.
 */
#include <inttypes.h>
#include "diff.h"
#include "markdown.h"
#include "table.h"
#include "../util/json_out.h"
#include "../util/term.h"

#define TEST_WORDS "Welch's t-test of the mean wait (one off-CPU interval) over the intervals"

/* Cell c of side k's run in words. */
static const char *run(const struct view_diff *v, int k, uint32_t c, char *buf, size_t len)
{
	return render__cell(vt_table__col(v->oc_runs, c), vt_table__cell(v->oc_runs, (uint32_t)k, c),
			    buf, len);
}

/* "on-CPU X ms + off-CPU Y ms = wall Z ms" of side k */
static const char *run_words(const struct view_diff *v, int k, char *buf, size_t len)
{
	char on[32], off[32], wall[32];

	snprintf(buf, len, "on-CPU %s ms + off-CPU %s ms = wall %s ms",
		 run(v, k, VD_RUN_ON, on, sizeof(on)), run(v, k, VD_RUN_OFF, off, sizeof(off)),
		 run(v, k, VD_RUN_WALL, wall, sizeof(wall)));
	return buf;
}

static void run_line(FILE *out, const struct view_diff *v, int k)
{
	char words[160], n[32];

	fprintf(out, "  %-7s %s (%s intervals)\n", k ? "after" : "before",
		run_words(v, k, words, sizeof(words)), run(v, k, VD_RUN_INTERVALS, n, sizeof(n)));
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
	run_line(out, v, 0);
	run_line(out, v, 1);
	fprintf(out, "\nOff-CPU time per wasm function, self, by the size of the change:\n");
	render__table_text(out, v->oc_self, columns, 2, 0);
	if (!oc->nfuncs)
		fprintf(out, "  (no wasm function waited on either side)\n");
	fprintf(out, "  wait: ms per off-CPU interval (the mean wait)\n"
		"  * it differs at %.0f%%: Welch's t-test over the intervals, %s-adjusted over\n"
		"    %u tested; the change of the totals is not tested (docs/offcpu-diff.md)\n",
		v->oc_level_pct, v->adjust_words, oc->ntested);
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
	char b[160], a[160];
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
	fprintf(f, "Before: %s. After: %s (per recording).\n\n",
		run_words(v, 0, b, sizeof(b)), run_words(v, 1, a, sizeof(a)));
	if (render__table_md(f, path, v->oc_self, err))
		return -1;
	fprintf(f, "Off-CPU time self (the function the innermost wasm frame) and inclusive, "
		"wall = on-CPU samples × period + off-CPU self, ms per recording, sorted by the "
		"size of the change. p: %s, %s-adjusted over %u functions, significant at %.0f%%; "
		"the change of the totals is not tested.", TEST_WORDS, v->adjust_words,
		oc->ntested, v->oc_level_pct);
	n = vt_table__shown(v->oc_self);
	if (n < vt_table__nrows(v->oc_self))
		fprintf(f, " %u of %u functions with off-CPU time listed.", n,
			vt_table__nrows(v->oc_self));
	fprintf(f, "\n\n");
	return 0;
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
	for (uint32_t k = 0; k < 2; k++) {
		json_key(j, k ? "after" : "before");
		json_begin_obj(j);
		render__table_json_members(j, v->oc_runs, k);
		json_end_obj(j);
	}
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
