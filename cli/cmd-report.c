// SPDX-License-Identifier: MIT
/* aotperf report: per-function self samples of the cores in a perf.data. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "../classify/classify.h"
#include "../render/report.h"
#include "../util/term.h"

#define REPORT_MAX_FUNCS 32

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
	int wide;			/* --wide: no 80-column limit */
	struct attr_args a;
};

static const char report_usage[] =
	"usage: aotperf report [-i perf.data] (--cwasm FILE | --manifest M.cwasm.json)...\n"
	"                      [--top N] [--json FILE] [--pid PID] [--event NAME]\n"
	"                      [--base HEX]... [--min-samples N] [--require-size-match]\n"
	"\n"
	"Attribute the samples of a precompiled WAMR run to its wasm functions.\n"
	"\n"
	ATTR_USAGE
	"      --top N             functions to list per core (default 20, 0 = all)\n"
	"      --json FILE         also write the JSON report (schema in README);\n"
	"                          - writes it to stdout instead of the text\n"
	"      --wide              lines as long as they need (default: 80 columns,\n"
	"                          or the terminal's width, or $COLUMNS)\n"
	"      --min-samples N     exit 1 unless the selection holds at least N samples\n"
	"      --func F            classify function F's instructions: N,\n"
	"                          local_func_N, a wasm name, or modM:N in a\n"
	"                          manifest; repeatable\n"
	"      --hot K             classify the K hottest functions\n"
	"      --roles SPEC        register roles for classes (with --func/--hot),\n"
	"                          e.g. vmctx=rcx,membase=none\n"
	"      --frame-attribution PREFIX\n"
	"                          with --func/--hot: the compiler's\n"
	"                          PREFIX.modM.funcN.json frame-access origins, and\n"
	"                          where the classes disagree\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 bad usage or input.\n";

/* --roles against each core's architecture now, not after the report. */
static int check_roles(const struct report_opts *o, struct ap_err *err)
{
	struct cls_roles r;

	for (uint32_t i = 0; o->roles && i < o->a.cs.n; i++) {
		cls__roles_default(o->a.cs.mods[i]->target.arch, &r);
		if (cls__roles_parse(&r, o->roles, err))
			return -1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct report_opts *o, struct ap_err *err)
{
	enum { O_TOP = 256, O_JSON, O_MIN, O_FUNC, O_HOT, O_ROLES, O_FRAME_ATTR, O_WIDE };
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
		{ "wide", no_argument, NULL, O_WIDE },
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
		case O_WIDE: o->wide = 1; break;
		default:
			return ap_errf(err, "unknown or incomplete option '%s'; see --help",
				       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	if (o->frame_attr && !o->nspecs && !o->hot)
		return ap_errf(err, "--frame-attribution needs --func or --hot");
	if (o->roles && !o->nspecs && !o->hot)
		return ap_errf(err, "--roles needs --func or --hot");
	if (attr_args__check(&o->a, err) || check_roles(o, err))
		return -1;
	return o->json ? attr_args__check_output(&o->a, o->json, err) : 0;
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
	ro.columns = ap_term__columns(stdout, o.wide);
	/* JSON first: on failure nothing has been promised on stdout. */
	if (o.json && render__report_json_file(o.json, p, &ro, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (o.json && !strcmp(o.json, "-"))
		goto out;	/* stdout holds the JSON */
	printf("aotperf report: %s\n", o.a.input);
	printf("  total samples       %" PRIu64 "%s%s\n", p->attr.total_samples,
	       p->event ? "  event " : "", p->event ? p->event : "");
	render__report_coverage(stdout, p);
	render__report_body(stdout, p, &ro);
out:
	attr_args__exit(&o.a);
	return ret;
}
