// SPDX-License-Identifier: MIT
/*
 * What was read from perf annotate (classify/annotate.h), per symbol: how
 * it was decoded and placed, then its class table and hottest
 * instructions, the views every class table is (view/classes.h).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "classes.h"
#include "table.h"
#include "../classify/annotate.h"
#include "../util/json_out.h"
#include "../util/outfile.h"

static const char *arch_name(enum cwasm_arch arch)
{
	return arch == CWASM_ARCH_AARCH64 ? "aarch64" : "x86-64";
}

static uint32_t spans(const struct cls_annot_func *fn, int resolved)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < fn->nspans; i++)
		n += !fn->spans[i].resolved == !resolved;
	return n;
}

/* How the listing's lines became instructions' samples, where it is not one line each. */
static void print_placement(FILE *out, const struct cls_annot_func *fn)
{
	uint32_t n;

	if (fn->realigned)
		fprintf(out, "  realigned  %" PRIu64 " samples on %u line%s objdump began inside data "
			"or an\n             instruction: on the one instruction that starts inside "
			"the line\n", fn->realigned, fn->nrealigned, fn->nrealigned == 1 ? "" : "s");
	if (fn->resolved) {
		n = spans(fn, 1);
		fprintf(out, "  by address %" PRIu64 " samples on %u line%s over several "
			"instructions: placed\n             from the recording's own samples\n",
			fn->resolved, n, n == 1 ? "" : "s");
	}
	if (fn->ambiguous) {
		n = spans(fn, 0);
		fprintf(out, "  ambiguous  %" PRIu64 " samples on %u line%s over several "
			"instructions (perf\n             annotate counts a line's bytes together): "
			"not in the table;\n             `aotperf annotate` places them from the "
			"recording\n", fn->ambiguous, n, n == 1 ? "" : "s");
	}
	if (fn->table.samples[CLS_DATA] && !fn->table.percent_only)
		fprintf(out, "  on data    %" PRIu64 " samples at data addresses "
			"(inline_data_or_sample_skid)\n", fn->table.samples[CLS_DATA]);
}

static void print_func(FILE *out, const struct cls_annot_func *fn, uint32_t top,
		       const struct view_classes *cls, const struct vt_table *hottest)
{
	fprintf(out, "\nsymbol %s  (%s, %s", fn->symbol, fn->dso[0] ? fn->dso : "?",
		fn->event[0] ? fn->event : "?");
	if (fn->header_samples)
		fprintf(out, ", %" PRIu64 " samples", fn->header_samples);
	fprintf(out, ")\n");
	fprintf(out, "  decoded    %s, %s, %u instructions",
		fn->raw ? "raw bytes (capstone)" : fn->arch == CWASM_ARCH_AARCH64 ? "text" :
		fn->att ? "text (AT&T)" : "text (Intel)",
		arch_name(fn->arch), cls__insn_count(&fn->func));
	if (fn->func.static_count[CLS_DATA])
		fprintf(out, ", %u data entries", fn->func.static_count[CLS_DATA]);
	fputc('\n', out);
	if (fn->func.ninsns) {
		char roles[320];

		cls__roles_describe(&fn->func.roles, roles, sizeof(roles));
		render__roles_text(out, roles);
	}
	if (!fn->weights)
		fprintf(out, "  values     sample counts (-n)\n");
	else if (fn->header_samples)
		fprintf(out, "  values     percentages: samples estimated as share x %" PRIu64 "\n",
			fn->header_samples);
	else
		fprintf(out, "  values     percentages only (no total in the header)\n");
	if (fn->approx)
		fprintf(out, "  approximate: text without raw bytes hides where a jump table or\n"
			"             undecodable bytes end; `aotperf annotate` (perf annotate\n"
			"             --asm-raw) or `aotperf report --func` give the exact table\n");
	if (fn->unplaced)
		fprintf(out, "  unplaced   %" PRIu64 " samples on lines no instruction covers\n",
			fn->unplaced);
	print_placement(out, fn);
	if (!fn->func.ninsns) {
		fprintf(out, "  no instructions (perf could not disassemble this symbol?)\n");
		return;
	}
	fprintf(out, "\n");
	render__classes_text(out, cls);
	if (top && fn->table.total) {
		fprintf(out, "\n");
		render__hottest_text(out, hottest, 80);
	}
}

/* One symbol's views: its class table and hottest instructions; 0, or -1 with err. */
static int views(const struct cls_annot_func *fn, uint32_t top, struct view_classes *cls,
		 struct vt_table **hottest, struct ap_err *err)
{
	if (view_classes__init(cls, &fn->table, 0, 0, err))
		return -1;
	*hottest = view_classes__hottest(&fn->func, fn->samples, top, &fn->table, 0, err);
	if (!*hottest) {
		view_classes__exit(cls);
		return -1;
	}
	return 0;
}

int render__annot_print(FILE *out, const struct cls_annot *a, uint32_t top, struct ap_err *err)
{
	for (uint32_t i = 0; i < a->n; i++) {
		struct view_classes cls;
		struct vt_table *hottest;

		if (views(&a->funcs[i], top, &cls, &hottest, err))
			return -1;
		print_func(out, &a->funcs[i], top, &cls, hottest);
		view_classes__exit(&cls);
		vt_table__delete(hottest);
	}
	return 0;
}

int render__annot_json(struct json_out *j, const struct cls_annot *a, uint32_t top,
		       struct ap_err *err)
{
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < a->n; i++) {
		const struct cls_annot_func *fn = &a->funcs[i];
		struct view_classes cls;
		struct vt_table *hottest;

		if (views(fn, top, &cls, &hottest, err))
			return -1;
		json_begin_obj(j);
		json_key(j, "symbol"); json_str(j, fn->symbol);
		json_key(j, "dso"); json_str(j, fn->dso);
		json_key(j, "event"); json_str(j, fn->event);
		json_key(j, "arch"); json_str(j, arch_name(fn->arch));
		json_key(j, "decoded_from"); json_str(j, fn->raw ? "raw" : "text");
		json_key(j, "syntax"); json_str(j, fn->raw || fn->arch == CWASM_ARCH_AARCH64 ? NULL :
				 fn->att ? "att" : "intel");
		json_key(j, "values"); json_str(j, fn->weights ? "percent" : "samples");
		json_key(j, "header_samples"); json_u64(j, fn->header_samples);
		json_key(j, "samples");
		if (fn->table.percent_only)
			json_null(j);
		else
			json_u64(j, fn->table.total);
		json_key(j, "unplaced_samples"); json_u64(j, fn->unplaced);
		/* how lines objdump began inside data or an instruction were placed (annot_place.h) */
		json_key(j, "realigned_samples"); json_u64(j, fn->realigned);
		json_key(j, "by_address_samples"); json_u64(j, fn->resolved);
		json_key(j, "ambiguous_samples"); json_u64(j, fn->ambiguous);
		json_key(j, "ambiguous_lines");
		json_begin_arr(j);
		for (uint32_t k = 0; k < fn->nspans; k++) {
			if (fn->spans[k].resolved)
				continue;
			json_begin_obj(j);
			json_key(j, "address"); json_hex(j, fn->spans[k].addr);
			json_key(j, "end"); json_hex(j, fn->spans[k].end);
			json_key(j, "samples"); json_u64(j, fn->spans[k].samples);
			json_end_obj(j);
		}
		json_end_arr(j);
		json_key(j, "data_entries"); json_u64(j, fn->func.static_count[CLS_DATA]);
		json_key(j, "approximate"); json_bool(j, fn->approx);
		json_key(j, "instruction_count"); json_u64(j, cls__insn_count(&fn->func));
		json_key(j, "roles"); render__roles_json(j, &fn->func.roles);
		json_key(j, "classes"); render__classes_json(j, &cls);
		render__classes_json_levers(j, &cls);
		json_key(j, "hottest_instructions"); render__hottest_json(j, hottest);
		json_end_obj(j);
		view_classes__exit(&cls);
		vt_table__delete(hottest);
	}
	json_end_arr(j);
	return 0;
}

int render__annot_write_json(const char *path, const char *tool, const char *input,
			     const struct cls_annot *a, uint32_t top, struct ap_err *err)
{
	struct outfile out;
	struct json_out j;

	if (outfile__open(&out, path, err))
		return -1;
	json_init(&j, out.f);
	json_begin_obj(&j);
	json_key(&j, "schema_version"); json_u64(&j, 1);
	json_key(&j, "tool"); json_str(&j, tool);
	json_key(&j, "input"); json_str(&j, input);
	if (render__annot_json(&j, a, top, err)) {
		outfile__abort(&out);
		return -1;
	}
	json_end_obj(&j);
	json_finish(&j);
	return outfile__commit(&out, err);
}
