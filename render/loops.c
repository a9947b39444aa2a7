// SPDX-License-Identifier: MIT
/*
 * Hot loops and what each lever would buy (loops/loops.h), as text and
 * JSON members of a classified function. payoff = 1 - cycles with the
 * lever / cycles as compiled: the share of the loop's time it would save.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "../loops/mca.h"
#include "../util/pct.h"
#include "../util/term.h"

#define LOOPS_LISTED 5
#define LOOP_INSNS_LISTED 64

/* The classes a lever touches, for its share of the loop's samples. */
uint64_t render__loop_lever_samples(const struct lp_loop *l, int lv)
{
	switch (lv) {
	case LP_ZEXT_MOVE:
		return l->cls_samples[CLS_ZEXT_MOVE];
	case LP_FRAME:
		return l->cls_samples[CLS_FRAME_LOAD] + l->cls_samples[CLS_FRAME_STORE];
	case LP_BOUNDS_CHECK:
		return l->cls_samples[CLS_BOUNDS_CHECK];
	case LP_VMCTX_RELOAD:
		return l->cls_samples[CLS_VMCTX_RELOAD];
	default:	/* its instructions are no one class: those the model touched */
		return l->lever[lv].touched_samples;
	}
}

const char *render__lever_words(int lv)
{
	static const char *const w[LP__NLEVERS] = { "zero-extends", "frame loads/stores",
						    "bounds checks", "vmctx reloads",
						    "dispatch" };
	return lv >= 0 && lv < LP__NLEVERS ? w[lv] : "?";
}

/* Lever lv touches loop l and its saving is modelled. */
int render__loop_lever_modelled(const struct lp_loop *l, int lv)
{
	return l->lever[lv].removed && !l->lever[lv].not_modelled;
}

/* Levers by predicted payoff, most first; those not modelled, then those with nothing to remove last. */
void render__loop_by_payoff(const struct lp_loop *l, int *order)
{
	for (int i = 0; i < LP__NLEVERS; i++)
		order[i] = i;
	for (int i = 1; i < LP__NLEVERS; i++)
		for (int k = i; k > 0; k--) {
			double a = render__loop_lever_modelled(l, order[k]) ? lp_loop__payoff(l, order[k]) :
				   l->lever[order[k]].removed ? -1e8 : -1e9;
			double b = render__loop_lever_modelled(l, order[k - 1]) ?
				   lp_loop__payoff(l, order[k - 1]) : l->lever[order[k - 1]].removed ? -1e8 : -1e9;

			if (a <= b)
				break;
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
}

/* "frame_load 30%, alu 22%, bounds_check 12%": the three largest classes. */
void render__loop_top_classes(const struct lp_loop *l, int by_samples, char *out, size_t n)
{
	uint8_t used[CLS__COUNT] = { 0 };
	uint64_t total = by_samples ? l->samples : l->static_insns;
	size_t len = 0;

	*out = 0;
	for (int k = 0; k < 3; k++) {
		int best = -1;

		for (int c = 0; c < CLS__COUNT; c++) {
			uint64_t v = by_samples ? l->cls_samples[c] : l->cls_static[c];
			uint64_t bv = best < 0 ? 0 : by_samples ? l->cls_samples[best] : l->cls_static[best];

			if (!used[c] && v && (best < 0 || v > bv))
				best = c;
		}
		if (best < 0)
			break;
		used[best] = 1;
		len += (size_t)snprintf(out + len, len < n ? n - len : 0, "%s%s %.0f%%", k ? ", " : "",
					cls__name((enum cls_class)best),
					ap_pct(by_samples ? l->cls_samples[best] : l->cls_static[best],
					       total));
		if (len >= n)
			break;
	}
}

static void print_listing(FILE *out, const struct lp_func *lf, const struct lp_loop *l,
			  const struct cls_func *f, const uint64_t *s, size_t cols)
{
	uint32_t shown = 0, all = 0;

	fprintf(out, "  %7s %7s  %-8s %-13s %s\n", "samples", "%loop", "offset", "class",
		"instruction");
	for (uint32_t k = 0; k < l->nblocks; k++) {
		const struct lp_block *b = &lf->blocks[l->blocks[k]];

		for (uint32_t i = b->first; i < b->end; i++, all++) {
			const struct cls_insn *in = &f->insns[i];
			const char *tag = b->trap ? "  (trap block)" : "";
			char off[16], text[sizeof(in->text) + 4], rel[sizeof(in->text) + 24];
			size_t room;

			if (shown >= LOOP_INSNS_LISTED)
				continue;
			shown++;
			snprintf(off, sizeof(off), "+0x%x", in->offset);
			/* the instruction takes what the columns and the tag leave */
			room = 42 + strlen(tag) + 8 < cols ? cols - 42 - strlen(tag) : 8;
			fprintf(out, "  %7" PRIu64 " %6.2f%%  %-8s %-13s %s%s\n", s ? s[i] : 0,
				ap_pct(s ? s[i] : 0, l->samples), off, cls__name(in->cls),
				ap_term__fit(text, sizeof(text), cls__insn_text(f, i, rel, sizeof(rel)),
					     room), tag);
		}
	}
	if (all > shown)
		fprintf(out, "  ... %u more (the JSON has the blocks)\n", all - shown);
}

static void print_model(FILE *out, const struct lp_func *lf, const struct lp_loop *l, size_t cols)
{
	int order[LP__NLEVERS], best = -1;
	char line[768];

	snprintf(line, sizeof(line), "  throughput model of its executed path (%u instructions): "
		 "%s -mcpu=%s", l->npath, lf->model.tool, lf->model.mcpu);
	fputc('\n', out);
	ap_term__wrap(out, line, cols, 4);
	snprintf(line, sizeof(line), "    cpu: %s", lf->model.why);
	ap_term__wrap(out, line, cols, 6);
	if (!l->base.ok) {
		snprintf(line, sizeof(line), "    no model: %s", *lf->model.note ? lf->model.note :
			 "llvm-mca gave no numbers for it");
		ap_term__wrap(out, line, cols, 6);
		return;
	}
	fprintf(out, "    as compiled: %.2f cycles/iteration\n", l->base.cycles_per_iter);
	snprintf(line, sizeof(line), "    bottleneck: %s", l->bottleneck);
	ap_term__wrap(out, line, cols, 6);
	fprintf(out, "\n    %-14s %8s %12s %8s %9s\n", "what-if", "removed", "cycles/iter", "payoff",
		"%samples");
	render__loop_by_payoff(l, order);
	for (int k = 0; k < LP__NLEVERS; k++) {
		int lv = order[k];
		const struct lp_model_run *r = &l->lever[lv];

		char share[16] = "-";

		if (lf->total)	/* no recording: no share */
			snprintf(share, sizeof(share), "%.1f%%",
				 ap_pct(render__loop_lever_samples(l, lv), l->samples));
		if (!r->removed) {
			fprintf(out, "    %-14s %8s %12s %8s %9s\n", lp_lever__name((enum lp_lever)lv),
				"0", "-", "-", share);
			continue;
		}
		if (r->not_modelled) {
			fprintf(out, "    %-14s %8u %12.2f %8s %9s\n", lp_lever__name((enum lp_lever)lv),
				r->removed, r->cycles_per_iter, "n/m", share);
			continue;
		}
		fprintf(out, "    %-14s %8u %12.2f %7.1f%% %9s\n",
			lp_lever__name((enum lp_lever)lv), r->removed, r->cycles_per_iter,
			lp_loop__payoff(l, lv), share);
		if (best < 0)
			best = lv;	/* the first modelled, in payoff order */
	}
	if (lf->frame_keep)
		fprintf(out, "    frame: allocator spills only (the sidecar's origins; %u frame "
			"accesses of the function stay)\n", lf->frame_kept);
	for (int k = 0; k < LP__NLEVERS; k++)
		if (l->lever[order[k]].not_modelled) {
			snprintf(line, sizeof(line), "    %s: n/m, not modelled: %s",
				 lp_lever__name((enum lp_lever)order[k]), l->lever[order[k]].not_modelled);
			ap_term__wrap(out, line, cols, 6);
		}
	fprintf(out, "    verdict:");
	for (int k = 0; k < LP__NLEVERS; k++) {
		int lv = order[k];

		/* modelled levers come first in order: the first is k 0 */
		if (!render__loop_lever_modelled(l, lv))
			continue;
		if (lf->total)
			fprintf(out, "%s %s: %.0f%% of samples, %.0f%% predicted payoff",
				k ? ";\n     " : "", render__lever_words(lv),
				ap_pct(render__loop_lever_samples(l, lv), l->samples), lp_loop__payoff(l, lv));
		else
			fprintf(out, "%s %s: %.0f%% predicted payoff", k ? ";\n     " : "",
				render__lever_words(lv), lp_loop__payoff(l, lv));
	}
	if (best < 0)
		fprintf(out, " no lever has instructions in this loop\n");
	else if (lp_loop__payoff(l, best) < 2)
		fprintf(out, ".\n      No lever pays here (each under 2%%): the loop is bound by\n      %s\n",
			"what stays (see the bottleneck)");
	else
		fprintf(out, ".\n      Pays most: %s (%.0f%% faster loop predicted)\n", render__lever_words(best),
			lp_loop__payoff(l, best));
	fprintf(out, "    (the model assumes L1 hits and no memory dependences beyond llvm-mca's:\n"
		"     a frame slot stored and reloaded costs no store-to-load latency, as on\n"
		"     cores that rename stack memory; README \"Which lever pays\")\n");
}

void render__loops_text(FILE *out, const struct profile_func *pf, size_t cols)
{
	const struct lp_func *lf = pf->loops;
	const uint64_t *s = pf->cls.insn_samples;
	int sampled;

	if (!lf)
		return;
	sampled = lf->total > 0;
	if (!lf->nloops) {
		fprintf(out, "\n  hot loops: none (no back edge)\n");
		return;
	}
	fprintf(out, "\n  hot loops (%u; %s)\n", lf->nloops, sampled ? "hottest first" : "largest first");
	fprintf(out, "  %4s %-9s %5s %6s %6s %8s %6s  %s\n", "loop", "header", "depth", "blocks",
		"insns", "samples", "%func", sampled ? "top classes by samples" : "top classes");
	for (uint32_t i = 0; i < lf->nloops && i < LOOPS_LISTED; i++) {
		const struct lp_loop *l = &lf->loops[i];
		char hdr[16], cls[96], fit[100];

		snprintf(hdr, sizeof(hdr), "+0x%x", pf->cls.f.insns[lf->blocks[l->header].first].offset);
		render__loop_top_classes(l, sampled, cls, sizeof(cls));
		fprintf(out, "  %4u %-9s %5u %6u %6u %8" PRIu64 " %5.1f%%  %s\n", i + 1, hdr, l->depth,
			l->nblocks, l->static_insns, l->samples, ap_pct(l->samples, lf->total),
			ap_term__fit(fit, sizeof(fit), cls, cols > 62 ? cols - 54 : 8));
	}
	if (lf->nloops > LOOPS_LISTED)
		fprintf(out, "  ... %u more loops\n", lf->nloops - LOOPS_LISTED);
	fprintf(out, "\n  hottest loop, its instructions\n");
	print_listing(out, lf, &lf->loops[0], &pf->cls.f, sampled ? s : NULL, cols);
	if (!lf->model.asked)
		return;
	if (!*lf->model.tool) {
		char line[320];

		snprintf(line, sizeof(line), "  throughput model: %s", lf->model.note);
		fputc('\n', out);
		ap_term__wrap(out, line, cols, 4);
		return;
	}
	print_model(out, lf, &lf->loops[0], cols);
}

static void json_classes(struct json_out *j, const struct lp_loop *l)
{
	json_begin_obj(j);
	for (int c = 0; c < CLS__COUNT; c++) {
		if (!l->cls_static[c])
			continue;
		json_key(j, cls__name((enum cls_class)c));
		json_begin_obj(j);
		json_key(j, "samples"); json_u64(j, l->cls_samples[c]);
		json_key(j, "static_instructions"); json_u64(j, l->cls_static[c]);
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void json_model(struct json_out *j, const struct lp_func *lf, const struct lp_loop *l)
{
	json_key(j, "model");
	if (!l->base.ok) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "tool"); json_str(j, lf->model.tool);
	json_key(j, "mcpu"); json_str(j, lf->model.mcpu);
	json_key(j, "mcpu_reason"); json_str(j, lf->model.why);
	json_key(j, "iterations"); json_u64(j, LP_MCA_ITERATIONS);
	json_key(j, "input"); json_str(j, l->input);
	json_key(j, "path_instructions"); json_u64(j, l->npath);
	json_key(j, "cycles_per_iteration"); json_dbl(j, l->base.cycles_per_iter, 2);
	json_key(j, "bottleneck"); json_str(j, l->bottleneck);
	json_end_obj(j);
	json_key(j, "whatif");
	json_begin_obj(j);
	for (int lv = 0; lv < LP__NLEVERS; lv++) {
		const struct lp_model_run *r = &l->lever[lv];

		json_key(j, lp_lever__name((enum lp_lever)lv));
		json_begin_obj(j);
		json_key(j, "removed"); json_u64(j, r->removed);
		json_key(j, "cycles_per_iteration");
		if (r->ok)
			json_dbl(j, r->cycles_per_iter, 2);
		else
			json_dbl(j, l->base.cycles_per_iter, 2);
		json_key(j, "payoff_pct");
		if (r->not_modelled)
			json_null(j);
		else
			json_dbl(j, lp_loop__payoff(l, lv), 1);
		if (r->not_modelled) {
			json_key(j, "not_modelled"); json_str(j, r->not_modelled);
		}
		if (lv == LP_FRAME) {
			/* with a sidecar only its allocator spills (loops/analyze.c) */
			json_key(j, "scope");
			json_str(j, lf->frame_keep ? "allocator_spills" : "frame_accesses");
			json_key(j, "kept_in_function"); json_u64(j, lf->frame_kept);
		}
		json_key(j, "sample_pct"); json_dbl(j, ap_pct(render__loop_lever_samples(l, lv), l->samples), 1);
		json_end_obj(j);
	}
	json_end_obj(j);
}

void render__loops_json(struct json_out *j, const struct profile_func *pf)
{
	const struct lp_func *lf = pf->loops;
	const struct cls_func *f = &pf->cls.f;

	if (!lf)
		return;
	if (lf->model.asked) {
		json_key(j, "loops_model_note");
		json_str(j, *lf->model.note ? lf->model.note : NULL);
	}
	json_key(j, "loops");
	json_begin_arr(j);
	for (uint32_t i = 0; i < lf->nloops; i++) {
		const struct lp_loop *l = &lf->loops[i];

		json_begin_obj(j);
		json_key(j, "header"); json_u64(j, f->insns[lf->blocks[l->header].first].offset);
		json_key(j, "blocks");
		json_begin_arr(j);
		for (uint32_t k = 0; k < l->nblocks; k++) {
			const struct lp_block *b = &lf->blocks[l->blocks[k]];

			json_begin_arr(j);
			json_u64(j, f->insns[b->first].offset);
			json_u64(j, f->insns[b->end - 1].offset + f->insns[b->end - 1].size);
			json_end_arr(j);
		}
		json_end_arr(j);
		json_key(j, "depth"); json_u64(j, l->depth);
		json_key(j, "parent"); json_i64(j, l->parent);
		json_key(j, "samples"); json_u64(j, l->samples);
		json_key(j, "self_samples"); json_u64(j, l->self_samples);
		json_key(j, "percent_of_function"); json_dbl(j, ap_pct(l->samples, lf->total), 2);
		json_key(j, "static_instructions"); json_u64(j, l->static_insns);
		json_key(j, "classes"); json_classes(j, l);
		if (lf->model.asked && *lf->model.tool && l->input)
			json_model(j, lf, l);
		json_end_obj(j);
	}
	json_end_arr(j);
}
