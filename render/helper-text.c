// SPDX-License-Identifier: MIT
/* The helper's text on stdout (docs/helper-interface.md, "Text output"), line for line. */
#include <inttypes.h>
#include "helper.h"
#include "../view/frames.h"

void render__helper_text_head(FILE *out, const struct view_helper *v)
{
	const struct view_helper_input *r = &v->in;
	const struct attr_result *a = &r->p->attr;
	const struct cwasm_module *m = a->cores[0].mod;

	fprintf(out, "core text base=0x%" PRIx64 " size=%u (%.1f MB), func_count=%u, total self "
		"samples=%" PRIu64 "\n", r->base, m->text_size, v->text_mb, m->nfuncs,
		a->total_samples);
	if (r->truncated)
		fprintf(out, "CUT SHORT: read %" PRIu64 " of %" PRIu64 " data bytes (%.2f%%); not "
			"authoritative\n", r->bytes_read, r->bytes_expected, v->read_pct);
	fprintf(out, "samples in this core: %" PRIu64 " (%.1f%% of run)\n\n", a->cores[0].samples,
		v->coverage_pct);
}

void render__helper_text_top(FILE *out, const struct view_helper *v)
{
	fprintf(out, "=== top %" PRIu64 " functions by self samples ===\n", v->in.top);
	for (uint32_t i = 0; i < v->ntop; i++)
		fprintf(out, "  local_func=%-6u samples=%-6" PRIu64 " (%.2f%% of run)  code_bytes=%u\n",
			v->top[i].func, v->top[i].samples, v->top[i].pct_run, v->top[i].code_bytes);
}

/* Python's "None" for a value the sidecar does not give. */
static void opt_count(char *buf, size_t len, const struct frames_value *v, int use)
{
	if (!v)
		snprintf(buf, len, "None");
	else
		snprintf(buf, len, "%u", use ? v->ir_use_count : v->ir_def_count);
}

static void contributor_line(FILE *out, const struct frames_contributor *k)
{
	char id[96], use[16], def[16];
	size_t n;

	if (!k->paired && k->vreg != FRAMES_NULL) {
		snprintf(id, sizeof(id), "v%" PRId64, k->vreg);
	} else {	/* Python's list repr: ambiguous[3, 7] */
		n = (size_t)snprintf(id, sizeof(id), "ambiguous[");
		for (uint32_t i = 0; i < k->ncandidates && n < sizeof(id); i++)
			n += (size_t)snprintf(id + n, sizeof(id) - n, "%s%u", i ? ", " : "",
					      k->candidates[i]);
		if (n < sizeof(id))
			snprintf(id + n, sizeof(id) - n, "]");
	}
	opt_count(use, sizeof(use), k->value, 1);
	opt_count(def, sizeof(def), k->value, 0);
	fprintf(out, "  samples=%-6" PRIu64 " slot=%-5u off=%-7d %-20s src=%s/%s static_ld/st=%u/%u "
		"ir_use/def=%s/%s\n", k->samples, k->slot, k->frame_offset, id,
		k->defining_opcode ? k->defining_opcode : "?", k->source_class ? k->source_class : "?",
		k->static_loads, k->static_stores, use, def);
}

static void frame_summary(FILE *out, const struct view_frames *v, uint64_t top)
{
	const struct frames_summary *s = v->s;
	uint64_t nc;

	if (!s)
		return;
	fprintf(out, "\n=== frame-origin attribution ===\n");
	fprintf(out, "  metadata mapping: %u/%u static frame instructions (%.1f%%); %" PRIu64 "/%"
		PRIu64 " frame samples (%.1f%%)\n", s->attributed_frame_instructions,
		s->frame_instructions, v->static_coverage_pct, s->attributed_frame_samples,
		s->frame_samples, v->sample_coverage_pct);
	fprintf(out, "  proven origins: %u/%u static frame instructions (%.1f%%); %" PRIu64 "/%"
		PRIu64 " frame samples (%.1f%%)\n", s->proven_origin_frame_instructions,
		s->frame_instructions, v->origin_coverage_pct, s->proven_origin_frame_samples,
		s->frame_samples, v->origin_sample_coverage_pct);
	fprintf(out, "  reconciliation: emitted allocator ld/st=%u/%u == WAMR_AOT_SPILL_METRIC %u/%u "
		"(match)\n", s->emitted_allocator_loads, s->emitted_allocator_stores,
		s->metric_loads, s->metric_stores);
	for (uint32_t i = 0; i < v->nby_samples; i++) {
		const struct vf_origin *o = &v->origin[v->by_samples[i]];

		fprintf(out, "  %-27s static=%-6u samples=%-7" PRIu64 " (%.2f%% of run)\n", o->name,
			o->insns, o->samples, o->pct_run);
	}
	nc = top < s->ncontrib ? top : s->ncontrib;
	if (nc) {
		fprintf(out, "\n=== top %" PRIu64 " allocator slot/source contributors ===\n", nc);
		for (uint64_t i = 0; i < nc; i++)
			contributor_line(out, &s->contrib[i]);
	}
	if (v->unknown_insns)
		fprintf(out, "\n  unknown frame instructions: %u (%" PRIu64 " samples)\n",
			v->unknown_insns, v->unknown_samples);
}

void render__helper_text_func(FILE *out, const struct view_helper *v)
{
	const struct view_helper_func *fv = &v->func;
	const struct helper_view *hv = fv->hv;

	if (!v->has_func)
		return;
	if (v->in.perf)
		fprintf(out, "\n=== local_func=%u instruction-class mix (self=%" PRIu64 ", %.1f%% of run)"
			" ===\n", fv->func, hv->samples, fv->pct_run);
	else
		fprintf(out, "\n=== local_func=%u instruction-class mix (static validation) ===\n",
			fv->func);
	for (uint32_t i = 0; i < hv->nclasses; i++) {
		uint32_t k = fv->class_by_samples[i];

		fprintf(out, "  %-36s %7" PRIu64 " (%.2f%% of run)\n", hv->classes[k].name,
			hv->classes[k].samples, fv->class_pct[k]);
	}
	if (!v->has_frames && hv->unattributed_frame)
		fprintf(out, "  note: %u frame instructions remain unattributed; pass --frame-metadata"
			" to distinguish spills from locals/fixed state\n", hv->unattributed_frame);
	if (v->has_frames)
		frame_summary(out, &v->frames, v->in.top);
	if (!v->in.perf)
		return;
	fprintf(out, "\n=== top 20 hottest instructions in local_func=%u ===\n", fv->func);
	for (uint32_t i = 0; i < hv->nhot; i++)
		fprintf(out, "  %5" PRIu64 " (%.2f%%)  %" PRIx64 ": %s\n", hv->hot[i].samples,
			fv->hot_pct[i], hv->hot[i].addr, hv->hot[i].text);
}
