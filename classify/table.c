// SPDX-License-Identifier: MIT
/* The class table: totals per class, the lever verdict, the hottest entries. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"
#include "../util/pct.h"

void cls__tabulate(const struct cls_func *f, const uint64_t *insn_samples, struct cls_table *t)
{
	memset(t, 0, sizeof(*t));
	t->static_only = !insn_samples;
	for (uint32_t i = 0; i < f->ninsns; i++) {
		unsigned c = f->insns[i].cls < CLS__COUNT ? f->insns[i].cls : CLS_OTHER;

		t->static_count[c]++;
		if (insn_samples) {
			t->samples[c] += insn_samples[i];
			t->total += insn_samples[i];
		}
	}
}

static uint32_t static_total(const struct cls_table *t)
{
	uint32_t n = 0;

	for (int c = 0; c < CLS__COUNT; c++)
		if (c != CLS_DATA)
			n += t->static_count[c];
	return n;
}

/* Percent of the function: by samples, or by static count without samples. */
static double share(const struct cls_table *t, int c)
{
	if (t->total)
		return ap_pct(t->samples[c], t->total);
	return c == CLS_DATA ? 0.0 : ap_pct(t->static_count[c], static_total(t));
}

void cls_table__set_spills(struct cls_table *t, uint64_t samples, uint32_t static_insns)
{
	t->spills_known = 1;
	t->spill_samples = samples;
	t->spill_static = static_insns;
}

static double spill_share(const struct cls_table *t)
{
	if (!t->spills_known)
		return 0.0;
	if (t->total)
		return ap_pct(t->spill_samples, t->total);
	return ap_pct(t->spill_static, static_total(t));
}

void cls__levers(const struct cls_table *t, struct cls_levers *l)
{
	static const char *const verdicts[] = { "frame traffic", "move-bound", "bounds-check-bound",
						"dispatch-bound", "vmctx-bound" };
	double g[5];
	int best = 0, second = -1;

	g[0] = l->frame = share(t, CLS_FRAME_LOAD) + share(t, CLS_FRAME_STORE);
	g[1] = l->moves = share(t, CLS_REG_MOVE) + share(t, CLS_ZEXT_MOVE);
	g[2] = l->bounds = share(t, CLS_BOUNDS_CHECK);
	g[3] = l->dispatch = share(t, CLS_DISPATCH);
	g[4] = l->vmctx = share(t, CLS_VMCTX_RELOAD) + share(t, CLS_VMCTX_FIELD);
	l->spills = spill_share(t);
	for (int i = 1; i < 5; i++)
		if (g[i] > g[best])
			best = i;
	for (int i = 0; i < 5; i++)
		if (i != best && (second < 0 || g[i] > g[second]))
			second = i;
	/* one lever must carry a tenth of the function and clearly lead */
	if (t->no_verdict)
		l->verdict = "none";
	else if (g[best] < 10.0)
		l->verdict = "no lever dominates";
	else if (g[best] < 1.5 * g[second])
		l->verdict = "mixed";
	else if (best == 0 && t->spills_known && l->spills >= 0.5 * l->frame)
		l->verdict = "spill-bound"; /* proven by the compiler, not guessed */
	else
		l->verdict = verdicts[best];
}

/* Indices of the n hottest entries, hottest first (ties: lower address). */
uint32_t cls__hottest(const struct cls_func *f, const uint64_t *s, uint32_t n, uint32_t *idx)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < f->ninsns; i++) {
		uint32_t j;

		if (!s[i])
			continue;
		if (k == n && s[i] <= s[idx[k - 1]])
			continue;
		j = k < n ? k++ : k - 1;
		while (j > 0 && s[idx[j - 1]] < s[i]) {
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = i;
	}
	return k;
}

