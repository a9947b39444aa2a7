// SPDX-License-Identifier: MIT
/* aotperf report: per-function self samples of the cores in a perf.data. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "func-report.h"
#include "../attr/attr.h"
#include "../attr/rank.h"
#include "../util/json_out.h"
#include "../util/outfile.h"
#include "../util/sha256.h"

struct report_opts {
	const char *json;
	uint64_t top;
	uint64_t min_samples;
	struct attr_args a;
	struct func_report fr;
};

static const char report_usage[] =
	"usage: aotperf report [-i perf.data] (--cwasm FILE | --manifest M.cwasm.json)...\n"
	"                      [--top N] [--json FILE] [--pid PID] [--event NAME]\n"
	"                      [--base HEX]... [--min-samples N] [--require-size-match]\n"
	"\n"
	"Attribute the samples of a precompiled WAMR run to its wasm functions.\n"
	"\n"
	ATTR_USAGE
	"      --top N             functions to list per core (default 20)\n"
	"      --json FILE         also write the JSON report (schema in README)\n"
	"      --min-samples N     exit 1 unless the selection holds at least N samples\n"
	"      --func F            classify function F's instructions: N, local_func_N, a wasm\n"
	"                          name, or modM:N in a manifest; repeatable\n"
	"      --hot K             classify the K hottest functions\n"
	"      --roles SPEC        register roles for classes, e.g. vmctx=rcx,membase=none\n"
	"      --frame-attribution PREFIX\n"
	"                          with --func/--hot: the compiler's PREFIX.modM.funcN.json\n"
	"                          frame-access origins, and where the classes disagree\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 bad usage or input.\n";

static int parse_args(int argc, char **argv, struct report_opts *o, struct ap_err *err)
{
	enum { O_TOP = 256, O_JSON, O_MIN, O_FUNC, O_HOT, O_ROLES, O_FRAME_ATTR };
	uint64_t v;
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "min-samples", required_argument, NULL, O_MIN },
		{ "func", required_argument, NULL, O_FUNC },
		{ "hot", required_argument, NULL, O_HOT },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "frame-attribution", required_argument, NULL, O_FRAME_ATTR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	o->top = 20;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh", longopts, NULL)) != -1) {
		r = attr_args__option(&o->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'h': fputs(report_usage, stdout); exit(EXIT_OK);
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top))
				return ap_errf(err, "--top: '%s' is not a number", optarg);
			break;
		case O_JSON: o->json = optarg; break;
		case O_MIN:
			if (cli_parse_u64(optarg, 10, &o->min_samples))
				return ap_errf(err, "--min-samples: '%s' is not a number", optarg);
			break;
		case O_FUNC:
			if (func_report__add_spec(&o->fr, optarg, err))
				return -1;
			break;
		case O_HOT:
			if (cli_parse_u64(optarg, 10, &v) || !v || v > FUNC_MAX_PICKS)
				return ap_errf(err, "--hot: '%s' is not a number from 1 to %d", optarg,
					       FUNC_MAX_PICKS);
			o->fr.hot = (uint32_t)v;
			break;
		case O_ROLES: o->fr.roles = optarg; break;
		case O_FRAME_ATTR: o->fr.frame_attr = optarg; break;
		default:
			return ap_errf(err, "unknown or incomplete option '%s'; see --help",
				       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	return attr_args__check(&o->a, err);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *core_name(const struct cwasm_module *m)
{
	return m->core_label ? m->core_label : m->path;
}

static void print_core(const struct attr_result *res, const struct attr_core *c,
		       const struct attr_ranked *r, uint32_t nr, uint64_t top)
{
	const struct cwasm_module *m = c->mod;
	char name[32];

	printf("\ncore %s (%s): %u functions, text %u bytes\n", core_name(m), m->path,
	       m->nfuncs, m->text_size);
	if (c->nmappings)
		printf("  mapping     0x%" PRIx64 " +0x%" PRIx64 " (%s%s, %u mapping(s))\n",
		       c->first_base, c->first_len,
		       c->base_override ? "--base" : "exact size",
		       c->authoritative ? ", unique" : c->base_override ? "" : ", NOT unique",
		       c->nmappings);
	else
		printf("  mapping     none found\n");
	printf("  samples     %" PRIu64 "  (%.2f%% of run)\n", c->samples,
	       pct(c->samples, res->total_samples));
	if (!nr)
		return;
	printf("\n  %4s  %-18s %8s %8s %8s  %s\n", "rank", "function", "samples", "%run",
	       "bytes", "wasm name");
	for (uint32_t i = 0; i < nr && i < top; i++) {
		const struct cwasm_func *f = &m->funcs[r[i].func];

		printf("  %4u  %-18s %8" PRIu64 " %7.2f%% %8u  %s\n", i + 1,
		       cwasm__local_name(r[i].func, name, sizeof(name)), r[i].samples,
		       pct(r[i].samples, res->total_samples), f->size, f->name ? f->name : "");
	}
}

static void json_core(struct json_out *j, const struct report_opts *o,
		      const struct attr_result *res, const struct attr_core *c, uint32_t idx,
		      const struct attr_ranked *r, uint32_t nr)
{
	struct attr_json_core jc = {
		.mod = c->mod, .run_total = res->total_samples, .samples = c->samples,
		.nmappings = c->nmappings, .first_base = c->first_base,
		.first_len = c->first_len, .authoritative = c->authoritative,
		.override = idx < o->a.nbases ? o->a.bases[idx] : 0,
		.ranked = r, .nranked = nr, .top = o->top,
	};

	attr__json_core(j, &jc);
}

/*
 * One core: its block at the top level (the seed helper's schema). Several
 * cores (a manifest): the same block per core under "cores".
 */
static int write_json(const struct report_opts *o, const struct attr_result *res,
		      struct attr_ranked **r, const uint32_t *nr, struct ap_err *err)
{
	struct outfile out;
	struct json_out j;

	if (outfile__open(&out, o->json, err))
		return -1;
	json_init(&j, out.f);
	json_begin_obj(&j);
	json_key(&j, "schema_version"); json_u64(&j, 1);
	json_key(&j, "tool"); json_str(&j, "aotperf report");
	json_key(&j, "perf"); json_str(&j, o->a.input);
	if (res->ncores == 1) {
		json_core(&j, o, res, &res->cores[0], 0, r[0], nr[0]);
	} else {
		json_key(&j, "total_samples"); json_u64(&j, res->total_samples);
		json_key(&j, "attributed_samples"); json_u64(&j, res->attributed_samples);
		json_key(&j, "attribution_coverage_pct");
		json_dbl(&j, pct(res->attributed_samples, res->total_samples), 4);
		json_key(&j, "cores");
		json_begin_arr(&j);
		for (uint32_t i = 0; i < res->ncores; i++) {
			json_begin_obj(&j);
			json_core(&j, o, res, &res->cores[i], i, r[i], nr[i]);
			json_end_obj(&j);
		}
		json_end_arr(&j);
	}
	if (func_report__json((struct func_report *)&o->fr, res, &j, err)) {
		outfile__abort(&out);
		return -1;
	}
	json_key(&j, "passes"); json_u64(&j, (uint64_t)res->passes);
	json_key(&j, "truncated"); json_bool(&j, res->truncated);
	json_key(&j, "warnings");
	json_begin_arr(&j);
	for (uint32_t i = 0; i < res->nwarnings; i++)
		json_str(&j, res->warnings[i]);
	json_end_arr(&j);
	json_end_obj(&j);
	json_finish(&j);
	return outfile__commit(&out, err);
}

static int print_report(const struct report_opts *o, const struct attr_result *res,
			struct ap_err *err)
{
	struct attr_ranked **r = calloc(res->ncores, sizeof(*r));
	uint32_t *nr = calloc(res->ncores, sizeof(*nr));
	int ret = -1;

	if (!r || !nr) {
		ap_err_nomem(err);
		goto out;
	}
	for (uint32_t i = 0; i < res->ncores; i++) {
		r[i] = attr__rank(res->cores[i].func_samples, res->cores[i].mod->nfuncs, &nr[i]);
		if (!r[i]) {
			ap_err_nomem(err);
			goto out;
		}
	}
	/* JSON first: on failure nothing has been promised on stdout. */
	if (o->json && write_json(o, res, r, nr, err))
		goto out;
	printf("aotperf report: %s\n", o->a.input);
	printf("  total samples       %" PRIu64 "%s%s\n", res->total_samples,
	       o->a.opts.event ? "  event " : "", o->a.opts.event ? o->a.opts.event : "");
	printf("  in wasm code        %" PRIu64 "  (%.2f%% of run)\n", res->attributed_samples,
	       pct(res->attributed_samples, res->total_samples));
	for (uint32_t i = 0; i < res->ncores; i++)
		print_core(res, &res->cores[i], r[i], nr[i], o->top);
	if (func_report__print((struct func_report *)&o->fr, res, stdout, err))
		goto out;
	ret = 0;
out:
	for (uint32_t i = 0; r && i < res->ncores; i++)
		free(r[i]);
	free(r);
	free(nr);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct ap_err err = { 0 };
	int ret;

	attr_args__init(&o.a, "report");
	if (parse_args(argc, argv, &o, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	func_report__hook(&o.fr, &o.a.opts);
	ret = attr_args__run(&o.a);
	if (ret != EXIT_OK)
		goto out;
	if (func_report__resolve(&o.fr, &o.a.res, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (o.a.res.total_samples < o.min_samples) {
		fprintf(stderr, "aotperf report: %s: --min-samples: %" PRIu64 " samples, need %" PRIu64
			"\n", o.a.input, o.a.res.total_samples, o.min_samples);
		ret = EXIT_GATE;
		goto out;
	}
	if (print_report(&o, &o.a.res, &err))
		ret = cli_fail("report", &err);
out:
	func_report__exit(&o.fr);
	attr_args__exit(&o.a);
	return ret;
}
