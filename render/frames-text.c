// SPDX-License-Identifier: MIT
/* The origins section of aotperf's text views (80 columns). */
#include <inttypes.h>
#include <string.h>
#include "frames.h"
#include "../util/term.h"
#include "../view/frames.h"

static void origin_row(FILE *out, const struct vf_origin *o, int func_samples)
{
	fprintf(out, "  %-26s %7u %7u %7u %10" PRIu64, o->name, o->insns, o->loads, o->stores,
		o->samples);
	if (func_samples)
		fprintf(out, " %6.2f%%", o->pct_func);
	fputc('\n', out);
}

static void origins(FILE *out, const struct view_frames *v)
{
	fprintf(out, "  %-26s %7s %7s %7s %10s%s\n", "origin", "static", "loads", "stores", "samples",
		v->has_func_samples ? "   %func" : "");
	for (uint32_t i = 0; i < v->nrows; i++)
		origin_row(out, &v->rows[i], v->has_func_samples);
}

static void coverage(FILE *out, const struct view_frames *v)
{
	const struct frames_summary *s = v->s;
	char rec[160];

	fprintf(out, "  coverage   %u/%u frame instructions listed (%.1f%%), %u proven (%.1f%%)\n",
		s->attributed_frame_instructions, s->frame_instructions, v->static_coverage_pct,
		s->proven_origin_frame_instructions, v->origin_coverage_pct);
	if (s->frame_samples)
		fprintf(out, "             %" PRIu64 "/%" PRIu64 " frame samples listed (%.1f%%), %"
			PRIu64 " proven (%.1f%%)\n", s->attributed_frame_samples, s->frame_samples,
			v->sample_coverage_pct, s->proven_origin_frame_samples,
			v->origin_sample_coverage_pct);
	if (!frames_summary__reconciliation(s, rec, sizeof(rec)))
		fprintf(out, "  reconcile  %s\n", rec);
	if (s->emitted_allocator_loads + s->emitted_allocator_stores)
		fprintf(out, "             allocator samples: %" PRIu64 " on reloads, %" PRIu64
			" on spill stores\n", s->sampled_allocator_loads, s->sampled_allocator_stores);
}

/* "v17", "ambiguous[3,7]" or "pair[3,7]", cut to fit len. */
static void identity(const struct frames_contributor *k, char *buf, size_t len)
{
	size_t n;

	if (!k->paired && k->vreg != FRAMES_NULL) {
		snprintf(buf, len, "v%" PRId64, k->vreg);
		return;
	}
	n = (size_t)snprintf(buf, len, "%s[", k->paired ? "pair" : "ambiguous");
	for (uint32_t i = 0; i < k->ncandidates && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? "," : "", k->candidates[i]);
	if (n < len)
		snprintf(buf + n, len - n, "]");
}

static void contributors(FILE *out, const struct frames_summary *s, uint32_t max)
{
	uint32_t n = s->ncontrib < max ? s->ncontrib : max;

	if (!s->ncontrib)
		return;
	fprintf(out, "\n  allocator contributors (%u of %u, by samples)\n", n, s->ncontrib);
	fprintf(out, "  %8s %5s %7s  %-16s %-25s %7s\n", "samples", "slot", "offset", "vreg",
		"defined by/source", "ld/st");
	for (uint32_t i = 0; i < n; i++) {
		const struct frames_contributor *k = &s->contrib[i];
		char id[64], src[64], ldst[24];

		identity(k, id, sizeof(id));
		snprintf(src, sizeof(src), "%s/%s", k->defining_opcode ? k->defining_opcode : "?",
			 k->source_class ? k->source_class : "?");
		snprintf(ldst, sizeof(ldst), "%u/%u", k->static_loads, k->static_stores);
		char cid[24], csrc[40];

		fprintf(out, "  %8" PRIu64 " %5u %7d  %-16s %-25s %7s\n", k->samples, k->slot,
			k->frame_offset, ap_term__fit(cid, sizeof(cid), id, 16),
			ap_term__fit(csrc, sizeof(csrc), src, 25), ldst);
	}
}

static void unproven(FILE *out, const struct frames_summary *s, uint32_t max)
{
	uint32_t n = s->nunknown < max ? s->nunknown : max;

	if (!s->nunknown)
		return;
	fprintf(out, "\n  frame instructions without a proven origin (%u of %u)\n", n, s->nunknown);
	fprintf(out, "  %8s  %-8s %-40s %s\n", "samples", "offset", "instruction", "why");
	for (uint32_t i = 0; i < n; i++) {
		const struct frames_unknown *u = &s->unknown[i];
		char off[16];

		snprintf(off, sizeof(off), "+0x%x", u->native_offset);
		char text[64], why[32];

		fprintf(out, "  %8" PRIu64 "  %-8s %-40s %s\n", u->samples, off,
			ap_term__fit(text, sizeof(text), u->text, 40),
			ap_term__fit(why, sizeof(why), u->listed ? (u->detail ? u->detail : "listed unknown")
							       : "not listed", 18));
	}
}

void render__frames_text(FILE *out, const struct profile_sidecar *sc, uint64_t func_samples,
			 uint32_t max_listed)
{
	struct view_frames v;
	char comp[64];

	if (!sc->fr) {
		fprintf(out, "\n  frame origins  no sidecar %s\n", sc->path);
		return;
	}
	view_frames__init(&v, sc, func_samples, 0);
	if (!v.s)
		return;
	fprintf(out, "\n  frame origins  sidecar %s\n", sc->path);
	fprintf(out, "                 schema %u, module %u, compiler %s\n",
		sc->fr->schema_version, sc->fr->module,
		ap_term__fit(comp, sizeof(comp),
			     sc->fr->compiler_build_id ? sc->fr->compiler_build_id : "", 40));
	origins(out, &v);
	coverage(out, &v);
	contributors(out, v.s, max_listed);
	unproven(out, v.s, max_listed);
}

void render__frames_brief(FILE *out, const char *label, const struct profile_sidecar *sc,
			  int have_samples, uint64_t func_samples, int have_log, uint64_t log_ld,
			  uint64_t log_st)
{
	static const char *const short_name[FRAMES__NORIGINS] = {
		"alloc", "local", "scratch", "fixed", "unknown",
	};
	struct view_frames v;
	int same;

	view_frames__init(&v, sc, func_samples, 0);
	if (!v.s) {
		fprintf(out, "  %-24s no sidecar %s\n", label, sc->path);
		return;
	}
	same = log_ld == v.s->emitted_allocator_loads && log_st == v.s->emitted_allocator_stores;
	fprintf(out, "  %-24s sidecar ld/st %u/%u", label, v.s->emitted_allocator_loads,
		v.s->emitted_allocator_stores);
	if (have_log)
		fprintf(out, " %s log %" PRIu64 "/%" PRIu64 "%s", same ? "==" : "!=", log_ld, log_st,
			same ? "" : " (another build?)");
	fputc('\n', out);
	for (int pass = 0; pass < 1 + have_samples; pass++) {
		fprintf(out, "    %-8s", pass ? "samples" : "static");
		for (int o = 0; o < FRAMES__NORIGINS; o++)
			fprintf(out, " %s %" PRIu64, short_name[o],
				pass ? v.origin[o].samples : v.origin[o].insns);
		if (pass && func_samples)
			fprintf(out, "  (alloc %.1f%% of function)", v.alloc_pct_func);
		fputc('\n', out);
	}
}
