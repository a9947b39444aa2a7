// SPDX-License-Identifier: MIT
/*
 * aotperf report with -i repeated: several recordings of one build (the
 * users alternate captures), each function's mean share and spread
 * (compare/ aggregates, render/captures-*.c prints).
 */
#include <inttypes.h>
#include <stdlib.h>
#include "captures.h"
#include "../render/captures.h"
#include "../view/captures.h"

#define CAPTURES_MAX_FUNCS 32

static int resolve(struct attr_args *a, const struct report_captures_opts *o,
		   struct capture_func *funcs)
{
	struct ap_err err = { 0 };

	if (o->nspecs > CAPTURES_MAX_FUNCS) {
		ap_errf(&err, "--func: at most %d", CAPTURES_MAX_FUNCS);
		return cli_fail(a->cmd, &err);
	}
	for (uint32_t i = 0; i < o->nspecs; i++) {
		funcs[i].spec = o->specs[i];
		if (core_set__resolve(&a->cs, o->specs[i], &funcs[i].cf, &err))
			return cli_fail_opt(a->cmd, "--func", &err);
	}
	return EXIT_OK;
}

int report__captures(struct attr_args *a, const struct report_captures_opts *o)
{
	struct capture_func funcs[CAPTURES_MAX_FUNCS];
	struct view_captures_func_in vf[CAPTURES_MAX_FUNCS];
	struct view_captures_input in = { .tool = "aotperf report" };
	struct view_captures *v = NULL;
	struct captures c = { 0 };
	struct cmp_agg *agg = NULL;
	struct ap_err err = { 0 };
	int ret;

	ret = resolve(a, o, funcs);
	if (ret != EXIT_OK)
		return ret;
	ret = captures__read(&c, a, NULL, funcs, o->nspecs, o->roles);
	if (ret != EXIT_OK)
		goto out;
	for (uint32_t k = 0; k < c.n; k++) {
		/* a gate vouches for the runs: one cut short fails it (docs/damaged-recordings.md) */
		if (o->min_samples && c.reads[k].truncated) {
			char words[200];

			profile__cut_words(c.reads[k].bytes_read, c.reads[k].bytes_expected, words,
					   sizeof(words));
			fprintf(stderr, "aotperf report: --min-samples: %s: cut short: %s\n",
				c.paths[k], words);
			ret = EXIT_GATE;
			goto out;
		}
		if (c.caps[k].total < o->min_samples) {
			fprintf(stderr, "aotperf report: %s: --min-samples: %" PRIu64 " samples, "
				"need %" PRIu64 "\n", c.paths[k], c.caps[k].total, o->min_samples);
			ret = EXIT_GATE;
			goto out;
		}
	}
	if (cmp_agg__new(&c.side, &agg, &err)) {
		ret = cli_fail(a->cmd, &err);
		goto out;
	}
	for (uint32_t i = 0; i < o->nspecs; i++)
		vf[i] = (struct view_captures_func_in){ o->specs[i], funcs[i].cf.core,
							funcs[i].cf.func, funcs[i].samples,
							&funcs[i].t };
	in.side = &c.side;
	in.agg = agg;
	in.attributed = c.attributed;
	in.reads = c.reads;
	in.event = c.event;
	in.top = o->top;
	in.nfuncs = o->nspecs;
	in.funcs = vf;
	if (view_captures__new(&in, &v, &err) ||
	    (o->json && render__captures_json_file(o->json, v, &err))) {
		ret = cli_fail(a->cmd, &err);
		goto out;
	}
	render__captures_text(stdout, v);
	ret = EXIT_OK;
out:
	view_captures__delete(v);
	cmp_agg__delete(agg);
	captures__exit(&c);
	return ret;
}
