// SPDX-License-Identifier: MIT
/* The helper's text on stdout (docs/helper-interface.md, "Text output"), line for line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "helper.h"

void render__helper_text_head(FILE *out, const struct helper_report *r)
{
	const struct attr_result *a = &r->p->attr;
	const struct cwasm_module *m = a->cores[0].mod;

	fprintf(out, "core text base=0x%" PRIx64 " size=%u (%.1f MB), func_count=%u, total self "
		"samples=%" PRIu64 "\n", r->base, m->text_size, m->text_size / 1048576.0, m->nfuncs,
		a->total_samples);
	if (r->truncated)
		fprintf(out, "CUT SHORT: read %" PRIu64 " of %" PRIu64 " data bytes (%.2f%%); not "
			"authoritative\n", r->bytes_read, r->bytes_expected,
			ap_pct(r->bytes_read, r->bytes_expected));
	fprintf(out, "samples in this core: %" PRIu64 " (%.1f%% of run)\n\n", a->cores[0].samples,
		ap_pct(a->cores[0].samples, a->total_samples));
}

void render__helper_text_top(FILE *out, const struct helper_report *r)
{
	const struct attr_core *c = &r->p->attr.cores[0];
	uint64_t total = r->p->attr.total_samples;
	uint64_t n = r->top < c->nranked ? r->top : c->nranked;

	fprintf(out, "=== top %" PRIu64 " functions by self samples ===\n", r->top);
	for (uint64_t i = 0; i < n; i++) {
		const struct attr_ranked *k = &c->ranked[i];

		fprintf(out, "  local_func=%-6u samples=%-6" PRIu64 " (%.2f%% of run)  code_bytes=%u\n",
			k->func, k->samples, ap_pct(k->samples, total),
			c->mod->funcs[k->func].size);
	}
}

static int class_rank(const void *a, const void *b)
{
	const struct hv_class *x = *(const struct hv_class *const *)a;
	const struct hv_class *y = *(const struct hv_class *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
}

struct origin_line {
	const char *name;
	uint32_t insns;
	uint64_t samples;
};

static int origin_rank(const void *a, const void *b)
{
	const struct origin_line *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return strcmp(x->name, y->name);
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

static void frame_summary(FILE *out, const struct frames_summary *s, uint64_t total, uint64_t top)
{
	struct origin_line lines[FRAMES__NORIGINS] = { { 0 } };
	uint32_t nl = 0, unknown = s->frame_instructions - s->proven_origin_frame_instructions;
	uint64_t nc;

	fprintf(out, "\n=== frame-origin attribution ===\n");
	fprintf(out, "  metadata mapping: %u/%u static frame instructions (%.1f%%); %" PRIu64 "/%"
		PRIu64 " frame samples (%.1f%%)\n", s->attributed_frame_instructions,
		s->frame_instructions,
		ap_pct(s->attributed_frame_instructions, s->frame_instructions),
		s->attributed_frame_samples, s->frame_samples,
		ap_pct(s->attributed_frame_samples, s->frame_samples));
	fprintf(out, "  proven origins: %u/%u static frame instructions (%.1f%%); %" PRIu64 "/%"
		PRIu64 " frame samples (%.1f%%)\n", s->proven_origin_frame_instructions,
		s->frame_instructions,
		ap_pct(s->proven_origin_frame_instructions, s->frame_instructions),
		s->proven_origin_frame_samples, s->frame_samples,
		ap_pct(s->proven_origin_frame_samples, s->frame_samples));
	fprintf(out, "  reconciliation: emitted allocator ld/st=%u/%u == WAMR_AOT_SPILL_METRIC %u/%u "
		"(match)\n", s->emitted_allocator_loads, s->emitted_allocator_stores,
		s->metric_loads, s->metric_stores);
	for (int o = 0; o < FRAMES__NORIGINS; o++) {
		struct origin_line l = { frames__origin_name(o), 0, 0 };

		for (int k = 0; k < 2; k++) {
			l.insns += s->origin[o][k].insns;
			l.samples += s->origin[o][k].samples;
			if (o == FRAMES_UNKNOWN) {
				l.insns += s->uncovered[k].insns;
				l.samples += s->uncovered[k].samples;
			}
		}
		if (l.insns)
			lines[nl++] = l;
	}
	qsort(lines, nl, sizeof(lines[0]), origin_rank);
	for (uint32_t i = 0; i < nl; i++)
		fprintf(out, "  %-27s static=%-6u samples=%-7" PRIu64 " (%.2f%% of run)\n",
			lines[i].name, lines[i].insns, lines[i].samples,
			ap_pct(lines[i].samples, total));
	nc = top < s->ncontrib ? top : s->ncontrib;
	if (nc) {
		fprintf(out, "\n=== top %" PRIu64 " allocator slot/source contributors ===\n", nc);
		for (uint64_t i = 0; i < nc; i++)
			contributor_line(out, &s->contrib[i]);
	}
	if (unknown)
		fprintf(out, "\n  unknown frame instructions: %u (%" PRIu64 " samples)\n", unknown,
			s->frame_samples - s->proven_origin_frame_samples);
}

void render__helper_text_func(FILE *out, const struct helper_report *r)
{
	const struct profile_func *f = r->f;
	const struct helper_view *hv = f->hv;
	const struct profile_sidecar *sc = f->sc && f->sc->fr ? f->sc : NULL;
	uint64_t total = r->p->attr.total_samples;
	const struct hv_class *order[HV_MAX_CLASSES] = { 0 };

	if (r->perf)
		fprintf(out, "\n=== local_func=%u instruction-class mix (self=%" PRIu64 ", %.1f%% of run)"
			" ===\n", f->func, hv->samples, ap_pct(hv->samples, total));
	else
		fprintf(out, "\n=== local_func=%u instruction-class mix (static validation) ===\n",
			f->func);
	for (uint32_t i = 0; i < hv->nclasses; i++)
		order[i] = &hv->classes[i];
	qsort(order, hv->nclasses, sizeof(order[0]), class_rank);
	for (uint32_t i = 0; i < hv->nclasses; i++)
		fprintf(out, "  %-36s %7" PRIu64 " (%.2f%% of run)\n", order[i]->name,
			order[i]->samples, ap_pct(order[i]->samples, total));
	if (!sc && hv->unattributed_frame)
		fprintf(out, "  note: %u frame instructions remain unattributed; pass --frame-metadata"
			" to distinguish spills from locals/fixed state\n", hv->unattributed_frame);
	if (sc)
		frame_summary(out, sc->sum, total, r->top);
	if (!r->perf)
		return;
	fprintf(out, "\n=== top 20 hottest instructions in local_func=%u ===\n", f->func);
	for (uint32_t i = 0; i < hv->nhot; i++)
		fprintf(out, "  %5" PRIu64 " (%.2f%%)  %" PRIx64 ": %s\n", hv->hot[i].samples,
			ap_pct(hv->hot[i].samples, total), hv->hot[i].addr, hv->hot[i].text);
}
