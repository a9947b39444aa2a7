// SPDX-License-Identifier: MIT
/* aotperf report: per-function self samples of the cores in a perf.data. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attr-args.h"
#include "../render/report.h"
#include "../render/report-export.h"

#define REPORT_MAX_FUNCS 32
/* HTML and Markdown show this many hottest functions closely when --func/--hot name none */
#define REPORT_EXPORT_HOT 3

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
	const char *html, *markdown, *pprof;	/* FILE, or "-": stdout */
	struct attr_args a;
};

static const char report_usage[] =
	"usage: aotperf report [-i perf.data] (--cwasm FILE | --manifest M.cwasm.json)...\n"
	"                      [--top N] [--json FILE] [--pid PID] [--event NAME]\n"
	"                      [--base HEX]... [--min-samples N] [--require-size-match]\n"
	"                      [--html FILE] [--markdown FILE] [--pprof FILE]\n"
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
	"      --html FILE         also write a self-contained HTML report (- : stdout)\n"
	"      --markdown FILE     also write the report as GitHub Markdown (- : stdout)\n"
	"      --pprof FILE        also write a gzip pprof profile for go tool pprof,\n"
	"                          Pyroscope, Parca (- : stdout, not a terminal)\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 bad usage or input.\n";

/* Outputs: none is an input or another output; one at most on stdout, pprof not to a terminal. */
static int check_outputs(struct report_opts *o, struct ap_err *err)
{
	const char *outs[] = { o->json, o->html, o->markdown, o->pprof };
	const char *opts[] = { "--json", "--html", "--markdown", "--pprof" };
	int nstdout = 0;

	for (int i = 0; i < 4; i++) {
		if (!outs[i])
			continue;
		if (i && !strcmp(outs[i], "-")) {	/* --json has no stdout form */
			if (++nstdout > 1)
				return ap_errf(err, "%s -: only one output can go to stdout", opts[i]);
			if (i == 3 && isatty(STDOUT_FILENO))
				return ap_errf(err, "--pprof -: stdout is a terminal; give a file"
					       " or redirect");
			continue;
		}
		for (int k = 0; k < i; k++)
			if (outs[k] && !strcmp(outs[k], outs[i]))
				return ap_errf(err, "%s and %s name the same file %s", opts[k],
					       opts[i], outs[i]);
		if (attr_args__check_output(&o->a, outs[i], err))
			return ap_err_prefix(err, "%s: ", opts[i]);
	}
	o->a.opts.host = o->html || o->markdown || o->pprof;
	return 0;
}

static int parse_args(int argc, char **argv, struct report_opts *o, struct ap_err *err)
{
	enum { O_TOP = 256, O_JSON, O_MIN, O_FUNC, O_HOT, O_ROLES, O_FRAME_ATTR, O_HTML,
	       O_MARKDOWN, O_PPROF };
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
		{ "html", required_argument, NULL, O_HTML },
		{ "markdown", required_argument, NULL, O_MARKDOWN },
		{ "pprof", required_argument, NULL, O_PPROF },
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
		case O_HTML: o->html = optarg; break;
		case O_MARKDOWN: o->markdown = optarg; break;
		case O_PPROF: o->pprof = optarg; break;
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
	return check_outputs(o, err);
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

typedef int (*export_file_fn)(const char *path, const struct profile *p,
			      const struct render_opts *o, struct ap_err *err);
typedef int (*export_stream_fn)(FILE *f, const char *name, const struct profile *p,
				const struct render_opts *o, struct ap_err *err);

/* One export, "-" to stdout; the option's name in front of an error. */
static int export(const char *opt, const char *out, export_file_fn to_file,
		  export_stream_fn to_stream, const struct profile *p, const struct render_opts *ro,
		  struct ap_err *err)
{
	int rc;

	if (!out)
		return 0;
	rc = strcmp(out, "-") ? to_file(out, p, ro, err) : to_stream(stdout, "stdout", p, ro, err);
	return rc ? ap_err_prefix(err, "%s: ", opt) : 0;
}

/*
 * HTML, Markdown, pprof. Without --func/--hot the pages still show the
 * hottest functions closely: classified here, after the JSON and apart
 * from the text report, which print what was asked.
 */
static int exports(struct report_opts *o, const struct render_opts *ro, struct ap_err *err)
{
	struct profile *p = o->a.p;

	if ((o->html || o->markdown) && !p->nfuncs &&
	    (profile__add_hot(p, REPORT_EXPORT_HOT, err) || profile__classify(p, o->roles, err)))
		return -1;
	if (export("--html", o->html, render__report_html_file, render__report_html, p, ro, err) ||
	    export("--markdown", o->markdown, render__report_md_file, render__report_md, p, ro,
		   err) ||
	    export("--pprof", o->pprof, render__report_pprof_file, render__report_pprof, p, ro, err))
		return -1;
	return 0;
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
	uint32_t nasked;
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
	nasked = p->nfuncs;
	/* files first: on failure nothing has been promised on stdout. */
	if ((o.json && render__report_json_file(o.json, p, &ro, &err)) ||
	    exports(&o, &ro, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	/* an export on stdout is the output */
	if ((o.html && !strcmp(o.html, "-")) || (o.markdown && !strcmp(o.markdown, "-")) ||
	    (o.pprof && !strcmp(o.pprof, "-")))
		goto out;
	printf("aotperf report: %s\n", o.a.input);
	printf("  total samples       %" PRIu64 "%s%s\n", p->attr.total_samples,
	       p->event ? "  event " : "", p->event ? p->event : "");
	render__report_coverage(stdout, p);
	for (uint32_t i = 0; i < p->attr.ncores; i++)
		render__report_core(stdout, p, i, &ro);
	for (uint32_t i = 0; i < nasked; i++)
		render__report_func(stdout, p, &p->funcs[i], &ro);
out:
	attr_args__exit(&o.a);
	return ret;
}
