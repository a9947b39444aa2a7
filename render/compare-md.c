// SPDX-License-Identifier: MIT
/* aotperf compare as GitHub Markdown from its view (compare.h, render/markdown.h). */
#include <inttypes.h>
#include "compare.h"
#include "loops.h"
#include "markdown.h"
#include "table.h"
#include "../cwasm/coreset.h"
#include "../util/outfile.h"
#include "../view/compare.h"

static int body(FILE *f, const char *path, const struct view_compare *v, struct ap_err *err)
{
	const struct view_compare_input *in = &v->in;
	const struct cwasm_module *m = in->wamr->mods[in->core];
	const struct eng_headroom *h = in->h;
	const char *name = m->funcs[in->func].name;
	char title[256];

	snprintf(title, sizeof(title), "wasm function %" PRIu32 "%s%s%s, WAMR vs %s",
		 cwasm__wasm_index(m, in->func), name ? " (" : "", name ? name : "",
		 name ? ")" : "", v->engine);
	fprintf(f, "# aotperf compare: ");
	md__fputs(f, title);
	fprintf(f, "\n\n");
	if (render__table_md(f, path, v->sides, err))
		return -1;
	fprintf(f, "## Instruction classes\n\n");
	if (in->oc->unavailable) {
		fprintf(f, "n/a: ");
		md__fputs(f, in->oc->unavailable_why);
		fprintf(f, "\n\n");
	}
	if (render__table_md(f, path, v->classes, err))
		return -1;
	fprintf(f, "## Headroom per lever (an estimate)\n\n"
		"Estimate = WAMR's share of its run (%.2f%%) × the lever's share of the "
		"function × the other engine's reduction of that share (1 − other / WAMR), "
		"from shares of %s. It assumes a lever's cost scales with its share and that "
		"the other engine's share is reachable by WAMR; the engines ran in separate "
		"recordings. n/a: a class the lever needs is unavailable.\n\n", h->hot_pct,
		h->sampled ? "samples" : "static instructions (a side has too few samples)");
	if (render__table_md(f, path, v->levers, err) ||
	    (in->loops && render__loop_pair_md(f, path, in->loops, err)))
		return -1;
	if (vt_table__shown(v->funcs)) {
		fprintf(f, "## Functions both engines ran\n\n");
		if (render__table_md(f, path, v->funcs, err))
			return -1;
	}
	if (engines__nwarnings(in->other)) {
		fprintf(f, "## Warnings\n\n");
		for (uint32_t i = 0; i < engines__nwarnings(in->other); i++) {
			fprintf(f, "* ");
			md__fputs(f, engines__warning(in->other, i));
			fputc('\n', f);
		}
	}
	return 0;
}

int render__compare_markdown_file(const char *path, const struct view_compare *v,
				  struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (body(out.f, path, v, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
