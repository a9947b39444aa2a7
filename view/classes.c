// SPDX-License-Identifier: MIT
/* A class table and its hottest instructions, as a view (classes.h). */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/pct.h"

/* the text's layout (docs/commands/report.md, --func): class 15, samples 9, shares 8, static 7 */
enum { C_CLASS, C_SAMPLES, C_FUNC, C_RUN, C_STATIC, C_FUNC_JSON, C_SHOW };
/* without a recording: class, the JSON's null samples and %run, static, %static */
enum { S_CLASS, S_SAMPLES, S_RUN, S_STATIC, S_FUNC, S_SHOW };

/* the last column, for no format: non-zero in the rows text and Markdown show */
static void show_col(struct vcols *s)
{
	vcols__add(s, NULL, NULL, VT_COUNT, VT_NO_TEXT | VT_NO_MD);
}

static struct vt_table *sampled_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "class", VT_TEXT, 0);
	s.c[C_CLASS].width = 15;
	vcols__add(&s, "samples", "samples", VT_COUNT, 0);
	s.c[C_SAMPLES].width = 9;
	s.c[C_SAMPLES].absent = "-";
	vcols__add(&s, NULL, "%func", VT_PERCENT, VT_PCT);
	vcols__add(&s, "percent_of_run", "%run", VT_PERCENT, VT_PCT);
	vcols__add(&s, "static_instructions", "static", VT_COUNT, 0);
	s.c[C_STATIC].width = 7;
	vcols__add(&s, "percent_of_function", NULL, VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	show_col(&s);
	for (uint32_t c = C_FUNC; c <= C_RUN; c++) {
		s.c[c].width = 8;
		s.c[c].absent = "-";
	}
	return vt_table__new(s.c, s.n);
}

static struct vt_table *static_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "class", VT_TEXT, 0);
	s.c[S_CLASS].width = 15;
	vcols__add(&s, "samples", NULL, VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "percent_of_run", NULL, VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "static_instructions", "static", VT_COUNT, 0);
	s.c[S_STATIC].width = 7;
	vcols__add(&s, "percent_of_function", "%static", VT_PERCENT, VT_PCT);
	s.c[S_FUNC].width = 8;
	show_col(&s);
	return vt_table__new(s.c, s.n);
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

static int is_frame(enum cls_class c)
{
	return c == CLS_FRAME_LOAD || c == CLS_FRAME_STORE;
}

static int is_vmctx_slot(enum cls_class c)
{
	return c == CLS_VMCTX_SAVE || c == CLS_VMCTX_RELOAD;
}

static int is_insn(enum cls_class c)
{
	return c != CLS_DATA;
}

/* an amount's share of the function: of its samples, or without a recording of its instructions */
static double amount_pct(const struct view_classes *v, const struct cls_table *t, uint64_t samples,
			 uint32_t nstatic)
{
	return v->static_only ? ap_pct(nstatic, v->static_total) : ap_pct(samples, t->total);
}

static int rows_sampled(struct view_classes *v, const struct cls_table *t, uint64_t run_total,
			int all)
{
	int run = run_total && !t->percent_only;

	for (int c = 0; c < CLS__COUNT; c++) {
		if (vt_table__add_row(v->rows))
			return -1;
		vt_table__str(v->rows, C_CLASS, cls__name((enum cls_class)c));
		if (!t->percent_only)
			vt_table__u64(v->rows, C_SAMPLES, t->samples[c]);
		if (t->total)
			vt_table__dbl(v->rows, C_FUNC, ap_pct(t->samples[c], t->total));
		if (run)
			vt_table__dbl(v->rows, C_RUN, ap_pct(t->samples[c], run_total));
		vt_table__u64(v->rows, C_STATIC, t->static_count[c]);
		vt_table__dbl(v->rows, C_FUNC_JSON, ap_pct(t->samples[c], t->total));
		vt_table__u64(v->rows, C_SHOW, all || t->samples[c] || t->static_count[c]);
	}
	return 0;
}

static int total_sampled(struct view_classes *v, const struct cls_table *t, uint64_t run_total)
{
	if (vt_table__add_footer(v->rows, 0))
		return -1;
	vt_table__str(v->rows, C_CLASS, "total");
	if (!t->percent_only)
		vt_table__u64(v->rows, C_SAMPLES, t->total);
	if (t->total)
		vt_table__dbl(v->rows, C_FUNC, 100.0);
	if (run_total && !t->percent_only)
		vt_table__dbl(v->rows, C_RUN, ap_pct(t->total, run_total));
	vt_table__u64(v->rows, C_STATIC, v->static_total);
	return 0;
}

static int rows_static(struct view_classes *v, const struct cls_table *t, int all)
{
	for (int c = 0; c < CLS__COUNT; c++) {
		if (vt_table__add_row(v->rows))
			return -1;
		vt_table__str(v->rows, S_CLASS, cls__name((enum cls_class)c));
		vt_table__u64(v->rows, S_STATIC, t->static_count[c]);
		vt_table__dbl(v->rows, S_FUNC, c == CLS_DATA ? 0.0 :
			      ap_pct(t->static_count[c], v->static_total));
		if (c == CLS_DATA)	/* words, not instructions: no share of them */
			vt_table__word(v->rows, S_FUNC, "-");
		vt_table__u64(v->rows, S_SHOW, all || t->static_count[c]);
	}
	return 0;
}

static int total_static(struct view_classes *v)
{
	if (vt_table__add_footer(v->rows, 0))
		return -1;
	vt_table__str(v->rows, S_CLASS, "total");
	vt_table__u64(v->rows, S_STATIC, v->static_total);
	vt_table__word(v->rows, S_FUNC, "");
	return 0;
}

/* the lines under the table, and the verdict's words */
static void amounts(struct view_classes *v, const struct cls_table *t)
{
	v->frame_samples = sum_samples(t, is_frame);
	v->frame_static = sum_static(t, is_frame);
	v->frame_loads = t->static_count[CLS_FRAME_LOAD];
	v->frame_stores = t->static_count[CLS_FRAME_STORE];
	v->frame_pct = amount_pct(v, t, v->frame_samples, v->frame_static);
	v->stack_samples = sum_samples(t, cls__is_stack_traffic);
	v->stack_static = sum_static(t, cls__is_stack_traffic);
	v->stack_pct = amount_pct(v, t, v->stack_samples, v->stack_static);
	v->vmctx_samples = sum_samples(t, is_vmctx_slot);
	v->vmctx_static = sum_static(t, is_vmctx_slot);
	cls__levers(t, &v->lv);
	v->basis = t->total ? "samples" : "static";
	v->spills_known = t->spills_known;
	v->no_verdict = t->no_verdict;
	v->verdict = v->lv.verdict;
	if (v->no_verdict)
		v->note = NULL;
	else if (!strcmp(v->verdict, "frame traffic"))
		v->note = "frame traffic is unattributed: the compiler's frame-\n"
			  "attribution sidecar splits it into spills, locals, scratch";
	else if (!strcmp(v->verdict, "vmctx-bound"))
		v->note = "vmctx and its fields are reloaded from memory at each\n"
			  "use; code keeping them in registers does without";
}

int view_classes__init(struct view_classes *v, const struct cls_table *t, uint64_t run_total,
		       int all, struct ap_err *err)
{
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1 };
	int rc;

	memset(v, 0, sizeof(*v));
	v->static_only = t->static_only;
	v->percent_only = t->percent_only;
	v->sampled = t->total != 0;
	v->static_total = sum_static(t, is_insn);
	v->rows = v->static_only ? static_table() : sampled_table();
	if (!v->rows)
		return ap_err_nomem(err);
	cut.show_col = (int)vt_table__ncols(v->rows) - 1;
	rc = v->static_only ? rows_static(v, t, all) : rows_sampled(v, t, run_total, all);
	rc = rc || vt_table__cut(v->rows, &cut) ||
	     (v->static_only ? total_static(v) : total_sampled(v, t, run_total));
	if (rc) {
		view_classes__exit(v);
		return ap_err_nomem(err);
	}
	amounts(v, t);
	return 0;
}

void view_classes__exit(struct view_classes *v)
{
	vt_table__delete(v->rows);
	memset(v, 0, sizeof(*v));
}

/* samples 7, %func 7, then two spaces, offset 8, class 13, the instruction in what is left */
enum { H_SAMPLES, H_FUNC, H_RUN, H_ADDR, H_OFF, H_OFF_TEXT, H_CLASS, H_HELPER, H_TEXT };

static struct vt_table *hottest_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, "samples", "samples", VT_COUNT, 0);
	s.c[H_SAMPLES].width = 7;
	s.c[H_SAMPLES].absent = "-";
	vcols__add(&s, "percent_of_function", "%func", VT_PERCENT, VT_PCT);
	s.c[H_FUNC].width = 7;
	vcols__add(&s, "percent_of_run", NULL, VT_PERCENT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "address", NULL, VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "offset", NULL, VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, NULL, "offset", VT_TEXT, 0);
	s.c[H_OFF_TEXT].width = 8;
	s.c[H_OFF_TEXT].gap = 2;
	vcols__add(&s, "class", "class", VT_TEXT, 0);
	s.c[H_CLASS].width = 13;
	vcols__add(&s, "helper_class", NULL, VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "instruction", "instruction", VT_TEXT, VT_FLEX | VT_CODE);
	return vt_table__new(s.c, s.n);
}

struct vt_table *view_classes__hottest(const struct cls_func *f, const uint64_t *insn_samples,
				       uint32_t n, const struct cls_table *t, uint64_t run_total,
				       struct ap_err *err)
{
	struct vt_table *h = hottest_table();
	uint32_t *idx = n ? calloc(n, sizeof(*idx)) : NULL, k;
	int bad = !h || (n && !idx);

	k = !bad && insn_samples && t->total ? cls__hottest(f, insn_samples, n, idx) : 0;
	for (uint32_t i = 0; i < k && !bad; i++) {
		const struct cls_insn *in = &f->insns[idx[i]];
		uint64_t s = insn_samples[idx[i]];
		char buf[sizeof(in->text) + 24];

		bad = vt_table__add_row(h);
		if (bad)
			break;
		if (!t->percent_only)	/* else hundredths of a percent, not counts */
			vt_table__u64(h, H_SAMPLES, s);
		vt_table__dbl(h, H_FUNC, ap_pct(s, t->total));
		if (run_total)
			vt_table__dbl(h, H_RUN, ap_pct(s, run_total));
		vt_table__u64(h, H_OFF, in->offset);
		vt_table__str(h, H_CLASS, cls__name((enum cls_class)in->cls));
		vt_table__str(h, H_HELPER, cls__helper_class(f, idx[i]));
		bad = vt_table__strf(h, H_ADDR, "0x%llx", (unsigned long long)in->addr) ||
		      vt_table__strf(h, H_OFF_TEXT, "+0x%x", in->offset) ||
		      vt_table__strf(h, H_TEXT, "%s", cls__insn_text(f, idx[i], buf, sizeof(buf)));
		/* samples at a data address: skid, or code read as data; said so */
		if (!bad && in->cls == CLS_DATA)
			bad = vt_table__wordf(h, H_TEXT, "%s: %s", cls__helper_class(f, idx[i]),
					      in->text);
	}
	free(idx);
	if (bad) {
		vt_table__delete(h);
		ap_err_nomem(err);
		return NULL;
	}
	return h;
}
