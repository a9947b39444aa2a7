// SPDX-License-Identifier: MIT
/* aotperf report: per-function self samples of the cores in a perf.data. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attr-args.h"
#include "../frames/frames.h"
#include "captures.h"
#include "filter-args.h"
#include "levers-args.h"
#include "report-perf.h"
#include "report-events.h"
#include "../render/callgraph.h"
#include "../render/levers.h"
#include "../render/loops.h"
#include "../render/offcpu.h"
#include "../render/offcpu_callgraph.h"
#include "../classify/classify.h"
#include "../render/report.h"
#include "../render/report-export.h"
#include "../render/report-events.h"
#include "../util/outset.h"
#include "../util/term.h"

#define REPORT_MAX_FUNCS 32
#define REPORT_MAX_EDGES 16	/* --callers / --callees, each */
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
	int have_input;			/* -i given; without it --func is static */
	const char *frame_meta;		/* --frame-metadata FILE */
	int validate_frames;		/* --validate-frame-metadata */
	/* call graph: --children, --callers F, --callees F, --folded FILE */
	int children;
	const char *callers[REPORT_MAX_EDGES], *callees[REPORT_MAX_EDGES];
	uint32_t ncallers, ncallees;
	/* each event's call-graph view (view/callgraph.h), built once for every format */
	struct view_callgraph *cg[REPORT_MAX_EVENTS];
	const char *folded;
	int cpu_state;			/* --cpu-state: enum view_cpu_state */
	const char *html, *markdown, *pprof;	/* FILE, or "-": stdout */
	int wide;			/* --wide: no 80-column limit */
	int all_classes;		/* --all-classes: class rows without samples or instructions too */
	int require_consistent;		/* --require-consistent */
	struct attr_args a;
	struct report_perf perf;	/* --percent-limit, -n, --stdio, --sort */
	struct report_events ev;	/* one profile per sampling event; a.p is the first */
	struct levers_args lv;		/* --levers */
	struct view_report *views[REPORT_MAX_EVENTS];	/* one view per event, built once */
	struct outset outs;		/* the output files, renamed into place together */
};

/* What a user types most, one line an option; the rest: docs/commands/report.md. */
static const char report_usage[] =
	"usage: aotperf report [-i perf.data]... (--cwasm FILE | --manifest M)...\n"
	"                      [options]\n"
	"       aotperf report (--cwasm FILE | --manifest M)... --func F...\n"
	"\n"
	"Samples per wasm function, and outside wasm per DSO and symbol as perf report\n"
	"names them; with --func/--hot a function's instruction mix, hot loops and\n"
	"what each lever would buy. Every option, view and rule:\n"
	"docs/commands/report.md; the JSON's keys: docs/json.md.\n"
	"\n"
	"Input:\n"
	"  -i, --input FILE      perf.data (default perf.data; - a pipe); repeat for\n"
	"                        runs of one build: each function's mean and spread\n"
	"      --cwasm FILE      a core (.cwasm); repeat for several\n"
	"      --manifest FILE   a component manifest (.cwasm.json): all its cores\n"
	"      --manifest-any-path  (before --manifest) its cores may lie elsewhere\n"
	"      --base HEX        the i-th one pins the i-th core to the mapping at HEX\n"
	"      --event NAME      one sampling event (default: each, in turn)\n"
	"      --arch ARCH       decode as x86_64 or aarch64, whatever the target says\n"
	"What to show:\n"
	"      --top N           functions per core (default 20, 0 = all)\n"
	"      --func F          classify F (N, local_func_N, a wasm name, modM:N);\n"
	"                        repeatable; without a recording: static\n"
	"      --hot K           classify the K hottest functions\n"
	"      --roles SPEC      registers pinned to roles: vmctx=rcx,membase=none\n"
	"      --frame-attribution PREFIX, --frame-metadata FILE\n"
	"                        the compiler's sidecars: frame traffic by origin\n"
	"      --validate-frame-metadata  check the sidecars of --func, then stop\n"
	"      --all-classes     every class in the class tables\n"
	"      --wide            lines as long as they need (no 80-column limit)\n"
	"      --levers          which lever pays for the run (docs/levers.md)\n"
	"      --levers-share PCT, --levers-max N  its functions (default 90%, 20)\n"
	"      --levers-loop-min PCT, --spill-log LOG  its loops (3%), a spill log\n"
	"  -q, --quiet           nothing but errors and the requested output\n"
	"Call graphs (a recording made with -g or --call-graph=dwarf):\n"
	"      --children        inclusive and self samples per function\n"
	"      --callers F, --callees F  F's callers, callees; repeatable\n"
	"      --folded FILE     collapsed stacks for flame graphs (one event)\n"
	"      --cpu-state on|off|both  count on-CPU samples, off-CPU or wall time\n"
	"      --off-cpu[=yes|no]  the off-CPU view (on by itself when recorded)\n"
	"Outputs besides the text (- : to stdout instead):\n"
	"      --json FILE       the JSON report\n"
	"      --html FILE       one self-contained HTML page\n"
	"      --markdown FILE   GitHub Markdown tables\n"
	"      --pprof FILE      a gzip pprof profile\n"
	"perf report's filters (every view sees only the samples kept) and options:\n"
	"      --pid PID[,..], --tid TID[,..]  these processes', threads' samples\n"
	"  -c, --comm NAME[,..]  threads with this command (--comms too)\n"
	"  -C, --cpu LIST        samples taken on these CPUs: 0-2,5\n"
	"      --time START,END  a time window, or slices of the run: 10%/2\n"
	"      --percent-limit PCT  leave out rows under PCT% of the run\n"
	"  -s, --sort KEY[,KEY..]  one table by function, dso, comm, pid, cpu\n"
	"  -n, --show-nr-samples, --stdio  accepted: always so\n"
	"Gates (exit 1; a recording cut short fails each):\n"
	"      --min-samples N   the selection holds fewer than N samples\n"
	"      --require-size-match  a core's exact-size mapping is not unique\n"
	"      --require-consistent  a core's samples do not fit its code\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed, 2 bad usage or input.\n";

/*
 * --func without -i (and without --hot): classify from the cores alone,
 * unless ./perf.data is there: then it is read, as every other form does.
 */
static int report_static(const struct report_opts *o)
{
	return !o->have_input && (o->nspecs || o->lv.on) && !o->hot && access(o->a.input, F_OK);
}

/* --frame-attribution, --frame-metadata, --validate-frame-metadata: which go together. */
static int check_frame_options(const struct report_opts *o, struct ap_err *err)
{
	if (o->frame_attr && o->frame_meta)
		return ap_errf(err, "--frame-attribution and --frame-metadata: give one");
	if (o->frame_attr && !o->nspecs && !o->hot)
		return ap_errf(err, "--frame-attribution needs --func or --hot");
	if (o->frame_meta && o->nspecs + o->hot != 1)
		return ap_errf(err, "--frame-metadata needs exactly one function (one --func, or"
			       " --hot 1)");
	if (o->validate_frames && (!o->nspecs || o->hot || (!o->frame_attr && !o->frame_meta)))
		return ap_errf(err, "--validate-frame-metadata needs --func and --frame-attribution"
			       " or --frame-metadata (and no --hot)");
	return 0;
}

/* The call-graph views were asked for (the exports read stacks on their own). */
static int callgraph_asked(const struct report_opts *o)
{
	return o->children || o->ncallers || o->ncallees || o->folded;
}

/* Outputs: none is an input or another output; one at most on stdout, pprof not to a terminal. */
static int check_outputs(struct report_opts *o, struct ap_err *err)
{
	const char *outs[] = { o->json, o->folded, o->html, o->markdown, o->pprof };
	const char *opts[] = { "--json", "--folded", "--html", "--markdown", "--pprof" };
	int nstdout = 0;

	for (int i = 0; i < 5; i++) {
		if (!outs[i])
			continue;
		if (i != 1 && !strcmp(outs[i], "-")) {	/* --folded has no stdout form */
			if (++nstdout > 1)
				return ap_errf(err, "%s -: only one output can go to stdout", opts[i]);
			if (i == 4 && isatty(STDOUT_FILENO))
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
	o->a.opts.host = 1;	/* the samples outside wasm, named, in every view */
	/* the flame graph and pprof's stacks, when the recording has call chains */
	if ((o->html || o->pprof) && !o->a.opts.stacks)
		o->a.opts.stacks = PROFILE_STACKS_RECORDED;
	return 0;
}

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
	enum { O_TOP = 256, O_JSON, O_MIN, O_FUNC, O_HOT, O_ROLES, O_FRAME_ATTR, O_FRAME_META,
	       O_VALIDATE, O_CHILDREN, O_CALLERS, O_CALLEES, O_FOLDED, O_CPU_STATE, O_HTML, O_MARKDOWN,
	       O_PPROF, O_WIDE, O_OFFCPU, O_REQ_CONS, O_ALL_CLASSES };
	uint64_t v;
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		ATTR_ARCH_LONGOPT,
		FILTER_LONGOPTS,
		RPERF_LONGOPTS,
		LEVERS_LONGOPTS,
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "min-samples", required_argument, NULL, O_MIN },
		{ "func", required_argument, NULL, O_FUNC },
		{ "hot", required_argument, NULL, O_HOT },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "frame-attribution", required_argument, NULL, O_FRAME_ATTR },
		{ "frame-metadata", required_argument, NULL, O_FRAME_META },
		{ "validate-frame-metadata", no_argument, NULL, O_VALIDATE },
		{ "children", no_argument, NULL, O_CHILDREN },
		{ "callers", required_argument, NULL, O_CALLERS },
		{ "callees", required_argument, NULL, O_CALLEES },
		{ "folded", required_argument, NULL, O_FOLDED },
		{ "cpu-state", required_argument, NULL, O_CPU_STATE },
		{ "html", required_argument, NULL, O_HTML },
		{ "markdown", required_argument, NULL, O_MARKDOWN },
		{ "pprof", required_argument, NULL, O_PPROF },
		{ "wide", no_argument, NULL, O_WIDE },
		{ "all-classes", no_argument, NULL, O_ALL_CLASSES },
		{ "off-cpu", optional_argument, NULL, O_OFFCPU },
		{ "require-consistent", no_argument, NULL, O_REQ_CONS },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	o->top = RENDER_TOP_DEFAULT;
	o->a.opts.offcpu = PROFILE_OFFCPU_AUTO;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh" FILTER_SHORTOPTS RPERF_SHORTOPTS, longopts,
				NULL)) != -1) {
		if (c == 'i')
			o->have_input = 1;
		r = filter_args__option(&o->a, c, optarg, err);
		if (!r)
			r = levers_args__option(&o->lv, c, optarg, err);
		if (!r)
			r = report_perf__option(&o->perf, c, optarg, err);
		if (!r)
			r = attr_args__option(&o->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'h': cli_usage(report_usage); exit(EXIT_OK);
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top))
				return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", optarg);
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
		case O_FRAME_META: o->frame_meta = optarg; break;
		case O_VALIDATE: o->validate_frames = 1; break;
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
		case O_CPU_STATE:
			if ((o->cpu_state = render__cpu_state_parse(optarg)) < 0)
				return ap_errf(err, "--cpu-state: '%s' is not on, off or both", optarg);
			break;
		case O_HTML: o->html = optarg; break;
		case O_MARKDOWN: o->markdown = optarg; break;
		case O_PPROF: o->pprof = optarg; break;
		case O_WIDE: o->wide = 1; break;
		case O_ALL_CLASSES: o->all_classes = 1; break;
		case O_OFFCPU:
			if (optarg && strcmp(optarg, "yes") && strcmp(optarg, "no"))
				return ap_errf(err, "--off-cpu: '%s' is not yes or no", optarg);
			o->a.opts.offcpu = optarg && !strcmp(optarg, "no") ? PROFILE_OFFCPU_NO :
					   PROFILE_OFFCPU_YES;
			break;
		case O_REQ_CONS: o->require_consistent = 1; break;
		default:
			return cli_bad_option(err, argv, optind, "i:qh" FILTER_SHORTOPTS RPERF_SHORTOPTS,
					      longopts);
		}
	}
	if (optind < argc)
		return cli_bad_argument(err, argv[optind]);
	filter_args__finish(&o->a);
	/* --sort comm,pid,...: the samples by those keys too, their commands followed */
	if (report_perf__sorted(&o->perf) &&
	    ((o->a.opts.sorted = 1), filter_args__track_comms(&o->a, err)))
		return -1;
	if (check_frame_options(o, err))
		return -1;
	/* the HTML and Markdown classify the hottest functions when none is named */
	if (o->roles && !o->nspecs && !o->hot && !o->html && !o->markdown)
		return ap_errf(err, "--roles needs --func or --hot (or --html, --markdown)");
	if (attr_args__check(&o->a, err) || check_roles(o, err))
		return -1;
	if (report_static(o) && sample_filter__active(o->a.opts.filter))
		return ap_errf(err, "--pid, --tid, --comm, --cpu and --time need a recording:"
			       " -i perf.data");
	if (report_static(o) && (o->min_samples || o->a.pins.n || o->a.opts.pid >= 0 ||
				 o->a.opts.event || o->a.opts.require_size_match ||
				 o->require_consistent))
		return ap_errf(err, "--min-samples, --base, --pid, --event, --require-size-match and"
			       " --require-consistent need a recording: -i perf.data");
	if (report_static(o) && callgraph_asked(o))
		return ap_errf(err, "--children, --callers, --callees and --folded need a recording"
			       " made with -g or --call-graph=dwarf: -i perf.data");
	if (report_static(o) && (o->html || o->markdown || o->pprof))
		return ap_errf(err, "--html, --markdown and --pprof need a recording: -i perf.data");
	o->a.opts.stacks = callgraph_asked(o) ? PROFILE_STACKS_YES : PROFILE_STACKS_NO;
	return check_outputs(o, err);
}

/* Which event's profile p is (0 when none: the static report). */
static uint32_t event_of(const struct report_opts *o, const struct profile *p)
{
	for (uint32_t i = 0; i < o->ev.n; i++)
		if (o->ev.p[i] == p)
			return i;
	return 0;
}

/* The call-graph view's JSON members (of each event's object). */
static void callgraph_json(struct json_out *j, const struct profile *p, void *ctx)
{
	const struct report_opts *o = ctx;
	uint32_t e = event_of(o, p);

	if (o->cg[e])
		render__callgraph_json(j, o->cg[e]);
}

/* ... and its Markdown sections. */
static int callgraph_md(FILE *f, const char *name, const struct profile *p, void *ctx,
			struct ap_err *err)
{
	const struct report_opts *o = ctx;
	uint32_t e = event_of(o, p);

	return o->cg[e] ? render__callgraph_markdown(f, name, o->cg[e], o->children, err) : 0;
}

/*
 * --folded with several events: a folded line ("a;b;c COUNT") has no
 * event, and flamegraph.pl adds up every line, so one file would sum
 * cpu-clock and task-clock samples into one graph (stackcollapse-perf.pl
 * keeps one event for the same reason). One event per file: --event.
 */
static int check_folded(const struct report_opts *o, struct ap_err *err)
{
	char names[256] = "";

	if (!o->folded || o->ev.n < 2)
		return 0;
	for (uint32_t i = 0; i < o->ev.n; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 i ? ", " : "", o->ev.p[i]->attr.event_name);
	return ap_errf(err, "--folded: %s has %u sampling events (%s) and a folded line carries"
		       " no event: choose one with --event", o->a.input, o->ev.n, names);
}

/* Each event's view: --callers/--callees found in its stacks, the cut of --children. */
static int callgraph_views(struct report_opts *o, struct ap_err *err)
{
	for (uint32_t i = 0; i < o->ev.n; i++) {
		const struct profile *p = o->ev.p[i];
		struct view_callgraph_input in = {
			.p = p, .state = (enum view_cpu_state)o->cpu_state, .top = o->top,
			.percent_limit = o->perf.percent_limit, .callers = o->callers,
			.callees = o->callees, .ncallers = o->ncallers, .ncallees = o->ncallees,
		};

		if (!p->stacks)
			continue;
		if (p->stacks->mode == STACKS_NONE)
			return ap_errf(err, "%s: no call chains: record with perf record -g or"
				       " --call-graph=dwarf", o->a.input);
		if (o->cpu_state != VIEW_CPU_ON && !p->offcpu)
			return ap_errf(err, "%s: --cpu-state %s needs off-CPU data: record with"
				       " aotperf record --off-cpu", o->a.input,
				       o->cpu_state == VIEW_CPU_OFF ? "off" : "both");
		if (view_callgraph__new(&in, &o->cg[i], err))
			return o->ev.n > 1 ? ap_err_prefix(err, "event %s: ", p->attr.event_name) : -1;
	}
	return 0;
}

static int callgraph_prepare(struct report_opts *o, struct ap_err *err)
{
	const char *folded;

	if (!callgraph_asked(o))
		return 0;
	if (check_folded(o, err) || callgraph_views(o, err))
		return -1;
	if (!o->ev.p[0]->stacks || !o->folded)
		return 0;
	folded = outset__add(&o->outs, o->folded, err);
	return folded ? render__folded_state_file(folded, o->ev.p[0], o->cpu_state, err) : -1;
}

static void callgraph_print(const struct report_opts *o, const struct profile *p,
			    unsigned columns)
{
	uint32_t e = event_of(o, p);

	if (o->cg[e])
		render__callgraph_text(stdout, o->cg[e], o->children, columns);
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
	if (o->frame_meta && profile__set_sidecar(p, 0, o->frame_meta, err))
		return -1;
	/* loops, and their llvm-mca model only for what --func/--hot named; --levers' table */
	return profile__classify(p, o->roles, err) || profile__loops(p, 1, err) ||
	       levers_args__run(&o->lv, p, err) ? -1 : 0;
}

typedef int (*export_file_fn)(const char *path, const struct view_report *const *vs, uint32_t n,
			      const struct render_opts *o, struct ap_err *err);
typedef int (*export_stream_fn)(FILE *f, const char *name, const struct view_report *const *vs,
				uint32_t n, const struct render_opts *o, struct ap_err *err);

/* The views of the events, in order (report-events.h). */
static const struct view_report *const *event_views(const struct report_opts *o)
{
	return (const struct view_report *const *)o->views;
}

/* One export, "-" to stdout; the option's name in front of an error. */
static int export(const char *opt, const char *out, export_file_fn to_file,
		  export_stream_fn to_stream, struct report_opts *o,
		  const struct render_opts *ro, struct ap_err *err)
{
	const struct view_report *const *vs = event_views(o);
	const char *tmp;
	int rc;

	if (!out)
		return 0;
	if (!strcmp(out, "-"))
		rc = to_stream(stdout, "stdout", vs, o->ev.n, ro, err);
	else
		rc = !(tmp = outset__add(&o->outs, out, err)) ||
		     to_file(tmp, vs, o->ev.n, ro, err);
	return rc ? ap_err_prefix(err, "%s: ", opt) : 0;
}

/* HTML, Markdown, pprof. */
static int exports(struct report_opts *o, const struct render_opts *ro, struct ap_err *err)
{
	if (export("--html", o->html, render__report_events_html_file,
		   render__report_events_html, o, ro, err) ||
	    export("--markdown", o->markdown, render__report_events_md_file,
		   render__report_events_md, o, ro, err) ||
	    export("--pprof", o->pprof, render__report_events_pprof_file,
		   render__report_events_pprof, o, ro, err))
		return -1;
	return 0;
}

/*
 * --min-samples N: every event reported holds N samples (a sum of
 * cpu-clock and task-clock samples would pass with half the data); an
 * event of the recording left out for having none fails it too.
 */
static int check_min_samples(const struct report_opts *o)
{
	const struct profile_events *names = &o->ev.names;

	if (!o->min_samples)
		return 0;
	for (uint32_t i = 0; i < o->ev.n; i++) {
		const struct profile *p = o->ev.p[i];

		if (p->attr.total_samples >= o->min_samples)
			continue;
		fprintf(stderr, "aotperf report: %s: --min-samples: %" PRIu64 " samples%s%s, need %"
			PRIu64 "\n", o->a.input, p->attr.total_samples, o->ev.n > 1 ? " of " : "",
			o->ev.n > 1 ? p->attr.event_name : "", o->min_samples);
		return -1;
	}
	for (uint32_t i = 0; names->n > 1 && i < names->n; i++) {
		uint32_t k = 0;

		while (k < o->ev.n && strcmp(o->ev.p[k]->attr.event_name, names->names[i]))
			k++;
		if (k == o->ev.n) {
			fprintf(stderr, "aotperf report: %s: --min-samples: 0 samples of %s, need %"
				PRIu64 "\n", o->a.input, names->names[i], o->min_samples);
			return -1;
		}
	}
	return 0;
}

/* The first gate asked for, as its option names it; NULL: none (docs/damaged-recordings.md). */
static const char *gate_asked(const struct report_opts *o)
{
	return o->require_consistent ? "--require-consistent:" :
	       o->a.opts.require_size_match ? "--require-size-match:" :
	       o->min_samples ? "--min-samples:" : NULL;
}

/*
 * --func, --hot, ...: the same functions for every event (the hottest:
 * each event's). Without --func/--hot the HTML and Markdown still show
 * the hottest functions closely: classified after those asked, which the
 * text and JSON print (view_report_func.asked).
 */
static int classify_events(struct report_opts *o, uint32_t *nasked, struct ap_err *err)
{
	int rc = 0;

	for (uint32_t i = 0; i < o->ev.n && !rc; i++) {
		struct profile *p = o->a.p = o->ev.p[i];

		rc = classify(o, err);
		nasked[i] = p->nfuncs;
		if (!rc && (o->html || o->markdown) && !p->nfuncs)
			rc = profile__add_hot(p, REPORT_EXPORT_HOT, err) ||
			     profile__classify(p, o->roles, err);
	}
	o->a.p = o->ev.p[0];
	return rc;
}

/* Each event's view, built once for every format. */
static int build_views(struct report_opts *o, const uint32_t *nasked, struct ap_err *err)
{
	for (uint32_t i = 0; i < o->ev.n; i++) {
		struct view_report_opts vo = {
			.top = o->top, .percent_limit = o->perf.percent_limit,
			.hottest = RENDER_HOTTEST_DEFAULT, .pin_word = "--base",
			.all_classes = o->all_classes, .listings = o->html != NULL,
			.nasked = nasked[i],
		};

		if (report_perf__sorted(&o->perf)) {
			vo.sort_keys = o->perf.keys;
			vo.nsort_keys = o->perf.nkeys;
		}
		if (view_report__new(o->ev.p[i], &vo, &o->views[i], err))
			return -1;
	}
	return 0;
}

/* The text report of one event's profile (a section of its own among several). */
static void print_event(struct report_opts *o, const struct view_report *v,
			const struct render_opts *ro)
{
	const struct profile *p = v->p;

	if (o->ev.n > 1)
		printf("\n== event %s ==\n", v->event);
	render__report_run(stdout, v);
	if (v->sorted) {	/* the one table asked for */
		render__report_sorted_text(stdout, v, ro->columns);
		return;
	}
	render__report_host_text(stdout, v, ro->columns);
	render__offcpu_text(stdout, p, ro);
	callgraph_print(o, p, ro->columns);
	for (uint32_t i = 0; !o->children && i < v->ncores; i++)
		render__report_core(stdout, v, i, ro);
	for (uint32_t i = 0; i < v->nfuncs; i++)
		if (v->funcs[i].asked)
			render__report_func(stdout, v, &v->funcs[i], ro);
	render__levers_text(stdout, v->levers, ro->columns);
}

/* No recording: the static class tables of the --func functions. */
static int run_static(struct report_opts *o, const struct render_opts *ro)
{
	struct view_report_opts vo = { .top = o->top, .hottest = RENDER_HOTTEST_DEFAULT,
				       .pin_word = "--base", .all_classes = o->all_classes,
				       .nasked = UINT32_MAX };
	struct ap_err err = { 0 };

	if (!o->a.quiet)
		cli_warnings("report", &o->a.cs.warnings);
	if (profile__new_static(&o->a.cs, &o->a.p, &err) || classify(o, &err) ||
	    view_report__new(o->a.p, &vo, &o->views[0], &err) ||
	    (o->json && render__report_json_file(o->json, o->views[0], ro, &err)))
		return cli_fail("report", &err);
	if (o->json && !strcmp(o->json, "-"))
		return EXIT_OK;	/* stdout holds the JSON */
	printf("aotperf report: static classes, no recording (no -i, no ./perf.data)\n");
	render__report_body(stdout, o->views[0], ro);
	render__levers_text(stdout, o->views[0]->levers, ro->columns);
	return EXIT_OK;
}

/* --validate-frame-metadata: each --func's sidecar against its core, no recording. */
static int validate_frames(const struct report_opts *o, struct ap_err *err)
{
	for (uint32_t i = 0; i < o->nspecs; i++) {
		const struct cwasm_module *m = o->a.cs.mods[o->funcs[i].core];
		uint32_t mod = m->manifest_idx >= 0 ? (uint32_t)m->manifest_idx : 0;
		char path[4096];
		struct frames_identity id;

		if (o->frame_meta)
			snprintf(path, sizeof(path), "%s", o->frame_meta);
		else if (frames__path(path, sizeof(path), o->frame_attr, mod, o->funcs[i].func))
			return ap_errf(err, "--frame-attribution: '%s' is too long", o->frame_attr);
		if (frames__validate(m, o->funcs[i].func, path, &id, err))
			return -1;
		printf("%s\n  valid: local_func_%u of %s, schema %u, module %u, compiler %.40s\n",
		       path, o->funcs[i].func, core_set__core_name(m), id.schema_version, id.module,
		       id.compiler_build_id);
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct ap_err err = { 0 };
	struct render_opts ro = {
		.fa_listed = RENDER_FA_LISTED_DEFAULT, .tool = "aotperf report", .hint = cli_hint,
	};
	uint32_t nasked[REPORT_MAX_EVENTS] = { 0 };
	const char *json;
	int ret;

	attr_args__init(&o.a, "report");
	levers_args__init(&o.lv);
	if (parse_args(argc, argv, &o, &err) || levers_args__prepare(&o.lv, &o.a.cs, o.roles, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (o.a.ninputs > 1) {	/* several captures of one build: report-captures.c */
		struct report_captures_opts rc = { o.json, o.top, o.min_samples, o.specs,
						   o.nspecs, o.roles };

		if (o.hot || o.frame_attr || o.frame_meta || o.validate_frames || callgraph_asked(&o) ||
		    o.html || o.markdown || o.pprof || o.require_consistent || o.lv.on) {
			ap_errf(&err, "--hot, frame attribution, call graphs, exports,"
				" --require-consistent and --levers take one -i");
			ret = cli_fail("report", &err);
		} else {
			ret = report__captures(&o.a, &rc);
		}
		goto out;
	}
	/* a function that is not there fails before perf.data is read */
	for (uint32_t i = 0; i < o.nspecs; i++) {
		if (core_set__resolve(&o.a.cs, o.specs[i], &o.funcs[i], &err)) {
			ret = cli_fail_opt("report", "--func", &err);
			goto out;
		}
	}
	if (o.validate_frames) {
		ret = validate_frames(&o, &err) ? cli_fail("report", &err) : EXIT_OK;
		goto out;
	}
	ro.columns = ap_term__columns(stdout, o.wide);
	if (report_static(&o)) {
		ret = run_static(&o, &ro);
		goto out;
	}
	ret = report_events__read(&o.ev, &o.a);
	if (ret != EXIT_OK)
		goto out;
	/* a gate vouches for the run: a recording cut short fails every one */
	if (gate_asked(&o) && profile__require_whole(o.a.p, &err)) {
		ret = cli_fail_opt("report", gate_asked(&o), &err);
		goto out;
	}
	for (uint32_t i = 0; o.require_consistent && i < o.ev.n; i++)
		if (profile__require_consistent(o.ev.p[i], &err)) {
			ret = cli_fail_opt("report", "--require-consistent:", &err);
			goto out;
		}
	if (classify_events(&o, nasked, &err)) {
		ret = cli_fail("report", &err);
		goto out;
	}
	if (check_min_samples(&o)) {
		ret = EXIT_GATE;
		goto out;
	}
	ro.top = o.top;
	ro.percent_limit = o.perf.percent_limit;
	if (build_views(&o, nasked, &err) || callgraph_prepare(&o, &err)) {
		outset__abort(&o.outs, &err);
		ret = cli_fail("report", &err);
		goto out;
	}
	if (callgraph_asked(&o)) {
		ro.json_extra = callgraph_json;
		ro.md_extra = callgraph_md;
		ro.ctx = &o;
	}
	/* files first, all or none: on failure nothing has been promised on stdout. */
	if ((o.json && (!(json = outset__add(&o.outs, o.json, &err)) ||
			render__report_events_json_file(json, event_views(&o), o.ev.n, &ro,
							&err))) ||
	    exports(&o, &ro, &err) || outset__commit(&o.outs, &err)) {
		outset__abort(&o.outs, &err);
		ret = cli_fail("report", &err);
		goto out;
	}
	/* an output on stdout is the output */
	if ((o.json && !strcmp(o.json, "-")) || (o.html && !strcmp(o.html, "-")) ||
	    (o.markdown && !strcmp(o.markdown, "-")) || (o.pprof && !strcmp(o.pprof, "-")))
		goto out;
	printf("aotperf report: %s\n", o.a.input);
	render__report_cut(stdout, o.views[0], ro.columns);
	if (o.ev.n > 1)
		printf("  events              %u, each reported on its own\n", o.ev.n);
	for (uint32_t i = 0; i < o.ev.n; i++)
		print_event(&o, o.views[i], &ro);
out:
	levers_args__exit(&o.lv);
	for (uint32_t i = 0; i < REPORT_MAX_EVENTS; i++) {
		view_report__delete(o.views[i]);
		view_callgraph__delete(o.cg[i]);
	}
	outset__abort(&o.outs, NULL);	/* after a commit, nothing: else no temporary outlives the run */
	report_events__exit(&o.ev);
	attr_args__exit(&o.a);
	filter_args__exit(&o.a);
	return ret;
}
