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
	struct render_captures_func rf[CAPTURES_MAX_FUNCS];
	struct render_captures r = { .tool = "aotperf report" };
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
		rf[i] = (struct render_captures_func){ o->specs[i], funcs[i].cf.core,
						       funcs[i].cf.func, funcs[i].samples,
						       &funcs[i].t };
	r.side = &c.side;
	r.agg = agg;
	r.attributed = c.attributed;
	r.reads = c.reads;
	r.event = c.event;
	r.top = o->top;
	r.nfuncs = o->nspecs;
	r.funcs = rf;
	if (o->json && render__captures_json_file(o->json, &r, &err)) {
		ret = cli_fail(a->cmd, &err);
		goto out;
	}
	render__captures_text(stdout, &r);
	ret = EXIT_OK;
out:
	cmp_agg__delete(agg);
	captures__exit(&c);
	return ret;
}
