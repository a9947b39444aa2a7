// SPDX-License-Identifier: MIT
/* aotperf compare as text, from its view (compare.h): the tables through render/table-text.c. */
#include <inttypes.h>
#include <string.h>
#include "compare.h"
#include "diff.h"
#include "loops.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/term.h"
#include "../view/compare.h"

/* "  label   text" wrapped at the width, later lines indented under the text */
static void labelled(FILE *out, const char *label, const char *text, unsigned cols)
{
	char line[1024];

	snprintf(line, sizeof(line), "  %-7s %s", label, text);
	ap_term__wrap(out, line, cols, 10);
}

/* Side k's cell c in words. */
static const char *side(const struct view_compare *v, uint32_t k, uint32_t c, char *buf,
			size_t len)
{
	return render__cell(vt_table__col(v->sides, c), vt_table__cell(v->sides, k, c), buf, len);
}

/* "S of T samples (P% of the run)" of side k */
static const char *share_words(const struct view_compare *v, uint32_t k, char *buf, size_t len)
{
	char s[32], t[32], p[32];

	snprintf(buf, len, "%s of %s samples (%s%% of the run)", side(v, k, 3, s, sizeof(s)),
		 side(v, k, 4, t, sizeof(t)), side(v, k, 5, p, sizeof(p)));
	return buf;
}

static void header(FILE *out, const struct view_compare *v, unsigned cols)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];
	const struct eng_classes *oc = in->oc;
	const char *name = m->funcs[in->func].name;
	char buf[160], words[160], line[512], roles[320], cut[96];

	fprintf(out, "aotperf compare: wasm function %" PRIu32 "%s%s%s, WAMR vs %s\n",
		cwasm__wasm_index(m, in->func), name ? " (" : "", name ? name : "", name ? ")" : "",
		v->engine);
	fprintf(out, "  WAMR    local_func_%" PRIu32 " of %s%s\n", in->func,
		render__tail(m->path, 50, buf, sizeof(buf)),
		in->picked ? " (the hottest; --func picks)" : "");
	snprintf(line, sizeof(line), "%s, %u recording%s", share_words(v, VC_WAMR, words,
		 sizeof(words)), in->wamr->ncaptures, in->wamr->ncaptures == 1 ? "" : "s");
	labelled(out, "", line, cols);
	labelled(out, v->engine, ap_term__fit(cut, sizeof(cut), oc->code->raw_name, 60), cols);
	snprintf(line, sizeof(line), "%s tier; %s", v->tier,
		 share_words(v, VC_OTHER, words, sizeof(words)));
	labelled(out, "", line, cols);
	for (int t = 0; t < ENG_TIER__COUNT; t++)
		if (t != (int)oc->code->name.tier && oc->func->tier_samples[t])
			fprintf(out, "          also %" PRIu64 " samples in %s-tier code (not "
				"compared)\n", oc->func->tier_samples[t],
				eng_tier__name((enum eng_tier)t));
	fprintf(out, "          code %" PRIu64 " bytes, %" PRIu64 " reachable and classified\n",
		oc->code_bytes, oc->code_used);
	fprintf(out, "          from %s\n", render__tail(in->other_label, 64, buf, sizeof(buf)));
	cls__roles_describe(in->wamr_roles, roles, sizeof(roles));
	labelled(out, "roles", roles, cols);
	snprintf(buf, sizeof(buf), "%s:", v->engine);
	labelled(out, buf, oc->roles.why, cols);
	if (oc->unavailable)
		labelled(out, "n/a", oc->unavailable_why, cols);
}

static void headroom(FILE *out, const struct view_compare *v, unsigned cols)
{
	const struct eng_headroom *h = v->in.h;
	char line[512];

	fprintf(out, "\nHeadroom per lever: an ESTIMATE, from shares of %s\n",
		h->sampled ? "samples" : "static instructions (a side has too few samples)");
	fprintf(out, "  = WAMR's share of its run (%.2f%%) x the lever's share of the function\n"
		"    x %s's reduction of that share (1 - %s share / WAMR share, 0..1)\n",
		h->hot_pct, v->engine, v->engine);
	render__table_text(out, v->levers, cols, 2, 0);
	snprintf(line, sizeof(line), "  n/a: a class the lever needs is unavailable on the %s side."
		 " Assumes a lever's cost scales with its share and that %s's share is reachable"
		 " by WAMR; the two engines ran in separate recordings.", v->engine, v->engine);
	ap_term__wrap(out, line, cols, 2);
}

void render__compare_text(FILE *out, const struct view_compare *v, unsigned columns)
{
	unsigned cols = columns ? columns : AP_TERM_DEFAULT_COLUMNS;
	uint32_t n = vt_table__nrows(v->funcs), shown = vt_table__shown(v->funcs);

	header(out, v, cols);
	fprintf(out, "\n  static instructions (WAMR, %s, delta), then %% of the function's samples"
		"\n  (WAMR%%, %s%%, points):\n", v->engine, v->engine);
	render__table_text(out, v->classes, cols, 2, 0);
	headroom(out, v, cols);
	if (v->in.loops)
		render__loop_pair_text(out, v->in.loops, cols);
	if (!shown)
		return;
	fprintf(out, "\nFunctions both ran, %% of each run:\n");
	render__table_text(out, v->funcs, cols, 2, 0);
	if (shown < n)
		fprintf(out, "  %u more (--top 0 lists all)\n", n - shown);
}
