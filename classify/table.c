// SPDX-License-Identifier: MIT
/* The class table: totals, the lever verdict, text and JSON output. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"
#include "../util/json_out.h"
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

static uint64_t sum_samples(const struct cls_table *t, int (*pick)(enum cls_class))
{
	uint64_t n = 0;

	for (int c = 0; c < CLS__COUNT; c++)
		if (pick((enum cls_class)c))
			n += t->samples[c];
	return n;
}

static uint32_t sum_static(const struct cls_table *t, int (*pick)(enum cls_class))
{
	uint32_t n = 0;

	for (int c = 0; c < CLS__COUNT; c++)
		if (pick((enum cls_class)c))
			n += t->static_count[c];
	return n;
}

static int is_unattributed(enum cls_class c)
{
	return c == CLS_FRAME_LOAD || c == CLS_FRAME_STORE;
}

static int is_vmctx_slot(enum cls_class c)
{
	return c == CLS_VMCTX_SAVE || c == CLS_VMCTX_RELOAD;
}

static void col_pct(FILE *out, int known, double v)
{
	if (known)
		fprintf(out, " %7.2f%%", v);
	else
		fprintf(out, " %8s", "-");
}

static void print_row(FILE *out, const char *name, uint64_t samples, uint32_t nstatic,
		      const struct cls_table *t, uint64_t run_total)
{
	fprintf(out, "  %-15s", name);
	if (t->percent_only)
		fprintf(out, " %9s", "-");
	else
		fprintf(out, " %9" PRIu64, samples);
	col_pct(out, t->total != 0, ap_pct(samples, t->total));
	col_pct(out, run_total && !t->percent_only, ap_pct(samples, run_total));
	fprintf(out, " %7u\n", nstatic);
}

static void print_amount(FILE *out, const struct cls_table *t, uint64_t n)
{
	if (t->percent_only)
		fprintf(out, "%.2f%% of function", ap_pct(n, t->total));
	else if (t->total)
		fprintf(out, "%" PRIu64 " samples, %.2f%% of function", n, ap_pct(n, t->total));
	else
		fprintf(out, "no samples");
}

/* Without a recording: the static count and its share of the instructions. */
static void print_static_rows(FILE *out, const struct cls_table *t, int all)
{
	uint32_t n = static_total(t);

	fprintf(out, "  %-15s %7s %8s\n", "class", "static", "%static");
	for (int c = 0; c < CLS__COUNT; c++) {
		if (!all && !t->static_count[c])
			continue;
		fprintf(out, "  %-15s %7u", cls__name(c), t->static_count[c]);
		col_pct(out, c != CLS_DATA, ap_pct(t->static_count[c], n));
		fputc('\n', out);
	}
	fprintf(out, "  %-15s %7u\n", "total", n);
	fprintf(out, "  frame traffic   frame_load + frame_store: %u static (%u loads, %u stores)\n",
		sum_static(t, is_unattributed), t->static_count[CLS_FRAME_LOAD],
		t->static_count[CLS_FRAME_STORE]);
}

void cls__print_table(FILE *out, const struct cls_table *t, uint64_t run_total)
{
	cls__print_table_rows(out, t, run_total, 0);
}

void cls__print_table_rows(FILE *out, const struct cls_table *t, uint64_t run_total, int all)
{
	uint64_t fs = sum_samples(t, is_unattributed), vs = sum_samples(t, is_vmctx_slot);
	struct cls_levers l;

	if (t->static_only) {
		print_static_rows(out, t, all);
	} else {
		fprintf(out, "  %-15s %9s %8s %8s %7s\n", "class", "samples", "%func", "%run",
			"static");
		for (int c = 0; c < CLS__COUNT; c++)
			if (all || t->samples[c] || t->static_count[c])
				print_row(out, cls__name(c), t->samples[c], t->static_count[c], t,
					  run_total);
		print_row(out, "total", t->total, static_total(t), t, run_total);
		fprintf(out, "  frame traffic   frame_load + frame_store: ");
		print_amount(out, t, fs);
		fprintf(out, "\n                  %u static: %u loads, %u stores\n",
			sum_static(t, is_unattributed), t->static_count[CLS_FRAME_LOAD],
			t->static_count[CLS_FRAME_STORE]);
	}
	fprintf(out, "  vmctx slot      ");
	if (t->total && !t->percent_only)
		fprintf(out, "%" PRIu64 " samples, ", vs);
	fprintf(out, "%u static (runtime state, not spills)\n", sum_static(t, is_vmctx_slot));
	cls__levers(t, &l);
	/* two lines: 80 columns; values at column 18, as the labels above */
	fprintf(out, "  %-15s frame %.1f%%  moves %.1f%%  bounds %.1f%%  dispatch %.1f%%\n",
		t->total ? "levers" : "levers (static)", l.frame, l.moves, l.bounds, l.dispatch);
	fprintf(out, "                  vmctx %.1f%%", l.vmctx);
	if (t->spills_known)
		fprintf(out, "  spills %.1f%% (proven, within frame)", l.spills);
	if (t->no_verdict)	/* no lever claimed from samples that are not this code's */
		fprintf(out, "\n  verdict         none: %s\n", t->no_verdict);
	else
		fprintf(out, "\n  verdict         => %s\n", l.verdict);
	if (!strcmp(l.verdict, "frame traffic"))
		fprintf(out, "                  frame traffic is unattributed: the compiler's frame-\n"
			     "                  attribution sidecar splits it into spills, locals, scratch\n");
	else if (!strcmp(l.verdict, "vmctx-bound"))
		fprintf(out, "                  vmctx and its fields are reloaded from memory at each\n"
			     "                  use; code keeping them in registers does without\n");
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

void cls__print_hottest(FILE *out, const struct cls_func *f, const uint64_t *insn_samples,
			uint32_t n, const struct cls_table *t, uint64_t run_total)
{
	(void)run_total; /* %run per instruction is in the JSON */
	uint32_t *idx, k;

	if (!insn_samples || !n || !t->total)
		return;
	idx = calloc(n, sizeof(*idx));
	if (!idx)
		return;
	k = cls__hottest(f, insn_samples, n, idx);
	/* 80 columns: the instruction text is cut to what is left (JSON has it whole) */
	fprintf(out, "  %7s %7s  %-8s %-13s %s\n", "samples", "%func", "offset", "class",
		"instruction");
	for (uint32_t i = 0; i < k; i++) {
		const struct cls_insn *in = &f->insns[idx[i]];
		uint64_t s = insn_samples[idx[i]];
		char off[16], tbuf[sizeof(in->text) + 24];
		const char *text;
		int room;

		if (t->percent_only)
			fprintf(out, "  %7s", "-");
		else
			fprintf(out, "  %7" PRIu64, s);
		fprintf(out, " %6.2f%%", ap_pct(s, t->total));
		snprintf(off, sizeof(off), "+0x%x", in->offset);
		fprintf(out, "  %-8s %-13s ", off, cls__name(in->cls));
		room = 80 - (2 + 7 + 1 + 7 + 2 + (int)(strlen(off) > 8 ? strlen(off) : 8) + 1 + 13 + 1);
		text = cls__insn_text(f, idx[i], tbuf, sizeof(tbuf));
		if (in->cls == CLS_DATA) {
			/* samples at a data address: skid, or code read as data; said so */
			snprintf(tbuf, sizeof(tbuf), "%s: %s", cls__helper_class(f, idx[i]), in->text);
			text = tbuf;
		}
		if ((int)strlen(text) > room)
			fprintf(out, "%.*s...\n", room - 3, text);
		else
			fprintf(out, "%s\n", text);
	}
	free(idx);
}

void cls__json(struct json_out *j, const struct cls_table *t, uint64_t run_total)
{
	json_begin_obj(j);
	for (int c = 0; c < CLS__COUNT; c++) {
		json_key(j, cls__name(c));
		json_begin_obj(j);
		json_key(j, "samples");
		if (t->percent_only || t->static_only)
			json_null(j);
		else
			json_u64(j, t->samples[c]);
		json_key(j, "percent_of_run");
		if (run_total && !t->percent_only && !t->static_only)
			json_dbl(j, ap_pct(t->samples[c], run_total), 4);
		else
			json_null(j);
		json_key(j, "static_instructions"); json_u64(j, t->static_count[c]);
		/* without a recording, of the static instructions (as the levers) */
		json_key(j, "percent_of_function");
		json_dbl(j, t->static_only ? share(t, c) : ap_pct(t->samples[c], t->total), 4);
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void json_amount(struct json_out *j, const struct cls_table *t,
			int (*pick)(enum cls_class))
{
	uint64_t n = sum_samples(t, pick);

	json_key(j, "samples");
	if (t->percent_only || t->static_only)
		json_null(j);
	else
		json_u64(j, n);
	json_key(j, "percent_of_function");
	json_dbl(j, t->static_only ? ap_pct(sum_static(t, pick), static_total(t)) : ap_pct(n, t->total), 4);
	json_key(j, "static_instructions"); json_u64(j, sum_static(t, pick));
}

void cls__json_levers(struct json_out *j, const struct cls_table *t)
{
	struct cls_levers l;

	cls__levers(t, &l);
	/* every frame-slot load and store that is not a save: the sidecar's view */
	json_key(j, "stack_traffic");
	json_begin_obj(j);
	json_amount(j, t, cls__is_stack_traffic);
	json_end_obj(j);
	json_key(j, "frame_traffic");
	json_begin_obj(j);
	json_amount(j, t, is_unattributed);
	json_key(j, "loads"); json_u64(j, t->static_count[CLS_FRAME_LOAD]);
	json_key(j, "stores"); json_u64(j, t->static_count[CLS_FRAME_STORE]);
	json_end_obj(j);
	json_key(j, "levers");
	json_begin_obj(j);
	json_key(j, "basis"); json_str(j, t->total ? "samples" : "static");
	json_key(j, "frame_pct"); json_dbl(j, l.frame, 4);
	json_key(j, "spills_pct");
	if (t->spills_known)
		json_dbl(j, l.spills, 4);
	else
		json_null(j);
	json_key(j, "moves_pct"); json_dbl(j, l.moves, 4);
	json_key(j, "bounds_pct"); json_dbl(j, l.bounds, 4);
	json_key(j, "dispatch_pct"); json_dbl(j, l.dispatch, 4);
	json_key(j, "vmctx_pct"); json_dbl(j, l.vmctx, 4);
	json_key(j, "verdict"); json_str(j, t->no_verdict ? NULL : l.verdict);
	json_key(j, "no_verdict"); json_str(j, t->no_verdict);
	json_end_obj(j);
}

void cls__json_hottest(struct json_out *j, const struct cls_func *f,
		       const uint64_t *insn_samples, uint32_t n, uint64_t run_total)
{
	uint32_t *idx = n ? calloc(n, sizeof(*idx)) : NULL;
	uint32_t k = idx && insn_samples ? cls__hottest(f, insn_samples, n, idx) : 0;

	json_begin_arr(j);
	for (uint32_t i = 0; i < k; i++) {
		const struct cls_insn *in = &f->insns[idx[i]];

		json_begin_obj(j);
		json_key(j, "samples"); json_u64(j, insn_samples[idx[i]]);
		json_key(j, "percent_of_run");
		if (run_total)
			json_dbl(j, ap_pct(insn_samples[idx[i]], run_total), 4);
		else
			json_null(j);
		json_key(j, "address"); json_hex(j, in->addr);
		json_key(j, "offset"); json_u64(j, in->offset);
		json_key(j, "class"); json_str(j, cls__name(in->cls));
		json_key(j, "helper_class"); json_str(j, cls__helper_class(f, idx[i]));
		json_key(j, "instruction"); json_str(j, in->text);
		json_end_obj(j);
	}
	json_end_arr(j);
	free(idx);
}

void cls__json_function(struct json_out *j, const struct cwasm_module *m, uint32_t func,
			uint64_t samples, uint64_t run_total, const struct cls_func *f,
			const struct cls_table *t, const uint64_t *insn_samples, uint32_t nhot)
{
	json_key(j, "local_func"); json_u64(j, func);
	json_key(j, "wasm_func"); json_u64(j, cwasm__wasm_index(m, func));
	json_key(j, "name"); json_str(j, m->funcs[func].name);
	json_key(j, "core"); json_str(j, m->core_label ? m->core_label : m->path);
	json_key(j, "samples"); json_u64(j, samples);
	json_key(j, "percent_of_run"); json_dbl(j, ap_pct(samples, run_total), 4);
	json_key(j, "instruction_count"); json_u64(j, cls__insn_count(f));
	json_key(j, "code_bytes"); json_u64(j, m->funcs[func].size);
	json_key(j, "roles"); cls__json_roles(j, &f->roles);
	json_key(j, "classes"); cls__json(j, t, run_total);
	cls__json_levers(j, t);
	json_key(j, "hottest_instructions");
	cls__json_hottest(j, f, insn_samples, nhot, run_total);
}
