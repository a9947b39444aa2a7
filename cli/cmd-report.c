// SPDX-License-Identifier: MIT
/* aotperf report: per-function self samples of the cores in a perf.data. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "../render/callgraph.h"
#include "../render/report.h"

#define REPORT_MAX_FUNCS 32
#define REPORT_MAX_EDGES 16	/* --callers / --callees, each */

struct report_opts {
	const char *json;
	uint64_t top;
	uint64_t min_samples;
	const char *specs[REPORT_MAX_FUNCS];	/* --func, as given */
	struct core_func funcs[REPORT_MAX_FUNCS];
	uint32_t nspecs;
	uint32_t hot;			/* --hot K */
	const char *roles;		/* --roles SPEC */
	const char *frame_attr;		/* --frame-attribution PREFIX */
	/* call graph: --children, --callers F, --callees F, --folded FILE */
	int children;
	const char *callers[REPORT_MAX_EDGES], *callees[REPORT_MAX_EDGES];
	uint32_t ncallers, ncallees;
	uint32_t caller_syms[REPORT_MAX_EDGES], callee_syms[REPORT_MAX_EDGES];
	const char *folded;
	struct attr_args a;
};

static const char report_usage[] =
	"usage: aotperf report [-i perf.data] (--cwasm FILE | --manifest M.cwasm.json)...\n"
	"                      [--top N] [--json FILE] [--pid PID] [--event NAME]\n"
	"                      [--base HEX]... [--min-samples N] [--require-size-match]\n"
	"                      [--children] [--callers F] [--callees F] [--folded FILE]\n"
	"\n"
	"Attribute the samples of a precompiled WAMR run to its wasm functions.\n"
	"\n"
	ATTR_USAGE
	"      --top N             functions to list per core (default 20, 0 = all)\n"
	"      --json FILE         also write the JSON report (schema in README)\n"
	"      --min-samples N     exit 1 unless the selection holds at least N samples\n"
	"      --func F            classify function F's instructions: N, local_func_N, a wasm\n"
	"                          name, or modM:N in a manifest; repeatable\n"
	"      --hot K             classify the K hottest functions\n"
	"      --roles SPEC        register roles for classes, e.g. vmctx=rcx,membase=none\n"
	"      --frame-attribution PREFIX\n"
	"                          with --func/--hot: the compiler's PREFIX.modM.funcN.json\n"
	"                          frame-access origins, and where the classes disagree\n"
	"Call graph (a recording made with -g or --call-graph=dwarf):\n"
	"      --children          inclusive and self samples per function (perf report\n"
	"                          --children's columns), instead of the self tables\n"
	"      --callers F         F's callers with their samples; repeatable\n"
	"      --callees F         F's callees with their samples; repeatable\n"
	"                          (F: a function spec as for --func, or a host symbol)\n"
	"      --folded FILE       collapsed stacks (flamegraph.pl, inferno, speedscope)\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 bad usage or input.\n";

static int parse_args(int argc, char **argv, struct report_opts *o, struct ap_err *err)
{
	enum { O_TOP = 256, O_JSON, O_MIN, O_FUNC, O_HOT, O_ROLES, O_FRAME_ATTR, O_CHILDREN,
	       O_CALLERS, O_CALLEES, O_FOLDED };
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
		{ "children", no_argument, NULL, O_CHILDREN },
		{ "callers", required_argument, NULL, O_CALLERS },
		{ "callees", required_argument, NULL, O_CALLEES },
		{ "folded", required_argument, NULL, O_FOLDED },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	o->top = RENDER_TOP_DEFAULT;
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
			if (o->nspecs == REPORT_MAX_FUNCS)
				return ap_errf(err, "--func: at most %d", REPORT_MAX_FUNCS);
			o->specs[o->nspecs++] = optarg;
			break;
		case O_HOT:
			if (cli_parse_u64(optarg, 10, &v) || !v || v > REPORT_MAX_FUNCS)
				return ap_errf(err, "--hot: '%s' is not a number from 1 to %d", optarg,
					       REPORT_MAX_FUNCS);
			o->hot = (uint32_t)v;
			break;
		case O_ROLES: o->roles = optarg; break;
		case O_FRAME_ATTR: o->frame_attr = optarg; break;
		case O_CHILDREN: o->children = 1; break;
		case O_CALLERS:
		case O_CALLEES:
			if ((c == O_CALLERS ? o->ncallers : o->ncallees) == REPORT_MAX_EDGES)
				return ap_errf(err, "%s: at most %d", c == O_CALLERS ? "--callers" :
					       "--callees", REPORT_MAX_EDGES);
			if (c == O_CALLERS)
				o->callers[o->ncallers++] = optarg;
			else
				o->callees[o->ncallees++] = optarg;
			break;
		case O_FOLDED: o->folded = optarg; break;
		default:
			return ap_errf(err, "unknown or incomplete option '%s'; see --help",
				       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	if (o->frame_attr && !o->nspecs && !o->hot)
		return ap_errf(err, "--frame-attribution needs --func or --hot");
	if (attr_args__check(&o->a, err))
		return -1;
	o->a.opts.stacks = o->children || o->ncallers || o->ncallees || o->folded;
	if (o->folded && attr_args__check_output(&o->a, o->folded, err))
		return -1;
	return o->json ? attr_args__check_output(&o->a, o->json, err) : 0;
}

/* --callers/--callees: each F as a stack symbol; a spec that names no function fails. */
static int find_syms(const struct profile *p, const char *const *specs, uint32_t n,
		     uint32_t *syms, const char *opt, struct ap_err *err)
{
	for (uint32_t i = 0; i < n; i++) {
		int64_t s = render__stack_find(p, specs[i]);

		if (s < 0)
			return ap_errf(err, "%s: '%s' is in no stack of %s", opt, specs[i],
				       p->input);
		syms[i] = (uint32_t)s;
	}
	return 0;
}

/* The call-graph views: JSON members, then the text. */
static void callgraph_json(struct json_out *j, const struct profile *p, void *ctx)
{
	const struct report_opts *o = ctx;

	render__callgraph_json(j, p, o->top);
	render__callgraph_json_edges(j, p, o->caller_syms, o->ncallers, 1);
	render__callgraph_json_edges(j, p, o->callee_syms, o->ncallees, 0);
}

static int callgraph_prepare(struct report_opts *o, struct ap_err *err)
{
	const struct profile *p = o->a.p;

	if (!p->stacks)
		return 0;
	if (p->stacks->mode == STACKS_NONE)
		return ap_errf(err, "%s: no call chains: record with perf record -g or"
			       " --call-graph=dwarf", o->a.input);
	if (find_syms(p, o->callers, o->ncallers, o->caller_syms, "--callers", err) ||
	    find_syms(p, o->callees, o->ncallees, o->callee_syms, "--callees", err))
		return -1;
	return o->folded ? render__folded_file(o->folded, p, err) : 0;
}

static void callgraph_print(const struct report_opts *o)
{
	const struct profile *p = o->a.p;

	if (!p->stacks)
		return;
	render__callgraph_summary(stdout, p);
	if (o->children)
		render__callgraph_children(stdout, p, o->top);
	for (uint32_t i = 0; i < o->ncallers; i++)
		render__callgraph_edges(stdout, p, o->caller_syms[i], 1);
	for (uint32_t i = 0; i < o->ncallees; i++)
		render__callgraph_edges(stdout, p, o->callee_syms[i], 0);
}

/* --func, --hot, --frame-attribution, --roles: the functions to classify. */
static int classify(struct report_opts *o, struct ap_err *err)
{
	struct profile *p = o->a.p;
	uint32_t room;

	for (uint32_t i = 0; i < o->nspecs; i++)
		if (profile__add_func(p, o->specs[i], o->funcs[i].core, o->funcs[i].func, err))
			return -1;
	room = REPORT_MAX_FUNCS - p->nfuncs;
	if (profile__add_hot(p, o->hot < room ? o->hot : room, err))
		return -1;
	if (o->frame_attr && profile__load_sidecars(p, o->frame_attr, err))
		return -1;
	return profile__classify(p, o->roles, err);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct ap_err err = { 0 };
	struct render_opts ro = {
		.hottest = RENDER_HOTTEST_DEFAULT, .fa_listed = RENDER_FA_LISTED_DEFAULT,
		.pin_word = "--base", .tool = "aotperf report", .hint = cli_hint,
	};
	const struct profile *p;
	int ret;

	attr_args__init(&o.a, "report");
	if (parse_args(argc, argv, &o, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	/* a function that is not there fails before perf.data is read */
	for (uint32_t i = 0; i < o.nspecs; i++) {
		if (core_set__resolve(&o.a.cs, o.specs[i], &o.funcs[i], &err)) {
			ret = cli_fail_opt("report", "--func", &err);
			goto out;
		}
	}
	ret = attr_args__read(&o.a);
	if (ret != EXIT_OK)
		goto out;
	p = o.a.p;
	if (classify(&o, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (p->attr.total_samples < o.min_samples) {
		fprintf(stderr, "aotperf report: %s: --min-samples: %" PRIu64 " samples, need %" PRIu64
			"\n", o.a.input, p->attr.total_samples, o.min_samples);
		ret = EXIT_GATE;
		goto out;
	}
	ro.top = o.top;
	if (callgraph_prepare(&o, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (p->stacks) {
		ro.json_extra = callgraph_json;
		ro.ctx = &o;
	}
	/* JSON first: on failure nothing has been promised on stdout. */
	if (o.json && render__report_json_file(o.json, p, &ro, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	printf("aotperf report: %s\n", o.a.input);
	printf("  total samples       %" PRIu64 "%s%s\n", p->attr.total_samples,
	       p->event ? "  event " : "", p->event ? p->event : "");
	render__report_coverage(stdout, p);
	callgraph_print(&o);
	if (o.children)
		for (uint32_t i = 0; i < p->nfuncs; i++)
			render__report_func(stdout, p, &p->funcs[i], &ro);
	else
		render__report_body(stdout, p, &ro);
out:
	attr_args__exit(&o.a);
	return ret;
}
