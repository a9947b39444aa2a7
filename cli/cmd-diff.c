// SPDX-License-Identifier: MIT
/*
 * aotperf diff: two builds of one wasm, before and after a codegen change,
 * each side one or several recordings with its own cores. Functions are
 * matched by wasm index (compare/); the change of every function's CPU
 * time per run and share is tested, the class tables of --func functions
 * set side by side, and --fail-if-slower gates CI. Where both sides'
 * recordings carry off-CPU data, each function's off-CPU time is set side
 * by side too (compare/offcpu_diff.h). view/diff.h turns it all into what
 * the formats print (docs/views.md).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "captures.h"
#include "../compare/loops_side.h"
#include "levers-args.h"
#include "../loops/analyze.h"
#include "../render/loops.h"
#include "filter-args.h"
#include "../render/diff.h"
#include "../render/levers.h"
#include "../util/outset.h"
#include "../util/term.h"
#include "../view/diff.h"

#define DIFF_MAX_FUNCS 16
#define DIFF_MAX_CORE_ARGS 64

/* One side of the command line: its recordings, cores, pins and pid. */
struct diff_side {
	const char *word;		/* "before" / "after" */
	struct attr_args a;
	int core_opt[DIFF_MAX_CORE_ARGS];	/* --cwasm / --manifest as given, to lend */
	const char *core_arg[DIFF_MAX_CORE_ARGS];
	uint32_t ncore_args;
	struct capture_func funcs[DIFF_MAX_FUNCS];	/* the --func functions it has */
	int64_t func_of[DIFF_MAX_FUNCS];	/* --func i -> index into funcs, or -1 */
	uint32_t nfuncs;
	struct captures caps;
};

struct diff_opts {
	struct diff_side side[2];
	const char *json, *markdown, *html, *roles;
	const char *specs[DIFF_MAX_FUNCS];
	uint32_t nspecs;
	uint64_t top;
	int gate, gate_wasm, by_share, force, require_consistent;
	double gate_pct;
	struct cmp_opts co;
	struct levers_args lv;		/* --levers: the before build's table */
	struct lp_levers *levers;	/* of its first recording */
};

static const char diff_usage[] =
	"usage: aotperf diff [options] BEFORE... -- AFTER...\n"
	"  each side: [-i] perf.data... (--cwasm FILE | --manifest M.cwasm.json)...\n"
	"             [--base HEX]... [--pid PID[,PID..]] [--tid TID[,TID..]]\n"
	"e.g. aotperf diff -i old1.data -i old2.data --cwasm old.cwasm \\\n"
	"                  -- -i new1.data -i new2.data --cwasm new.cwasm\n"
	"\n"
	"Compare two builds of the same wasm (before/after a codegen change). What\n"
	"comes before '--' is the before build, what follows it the after build:\n"
	"its recordings (-i, or plain file names; repeat for several captures of\n"
	"that build) and its cores. A side without --cwasm/--manifest uses the\n"
	"other side's cores (two runs of one build). Functions are matched by wasm\n"
	"function index (local_func + the core's imports), never by address; names\n"
	"only check. Per function, first its CPU time per run (its samples' periods\n"
	"summed, the mean over a side's recordings), then its self share of the run,\n"
	"before and after, each change and its test (Welch's t-test on the\n"
	"per-recording values with several recordings a side; with one, a normal\n"
	"approximation of the sample counts; p-values Holm-adjusted over the\n"
	"functions); sorted by the size of the time change. The header gives each\n"
	"side's run time and says when the runs' CPU time differs by more than the\n"
	"noise. Each side's recordings are checked against its cores (as report\n"
	"does) and for being cut short.\n"
	"Recordings with off-CPU data on both sides (aotperf record --off-cpu): also\n"
	"each function's off-CPU time before and after, self and inclusive, its wall\n"
	"time (on-CPU samples x period + off-CPU) and each side's; the mean wait is\n"
	"tested (Welch's t-test over the intervals). One side only: on-CPU only.\n"
	"\n"
	"Each side:\n"
	"  -i, --input FILE        a recording of this build; repeatable (captures)\n"
	"      --cwasm FILE        a core (.cwasm) of this build; repeat for several\n"
	"      --manifest FILE     a component manifest (.cwasm.json): all its cores\n"
	"      --base HEX          the i-th --base pins the i-th core of this side\n"
	"      --pid PID[,PID..]   only these processes' samples (this side's recordings)\n"
	"      --tid TID[,TID..]   only these threads' samples in this side's recordings\n"
	"Both sides (anywhere):\n"
	"      --event NAME        only this event's samples (e.g. cpu-clock)\n"
	"  -c, --comm NAME[,..]    only samples of threads with this command (perf's)\n"
	"  -C, --cpu LIST          only samples taken on these CPUs: 0-2,5\n"
	"      --time START,END    only samples in this window (perf report --time's\n"
	"                          forms: seconds, or slices like 10%/2, of each\n"
	"                          recording)\n"
	"      --require-size-match  exit 1 instead of guessing a core's mapping\n"
	"      --top N             functions to list (default 20, 0 = all)\n"
	"      --func F            the class table of F before and after, and its\n"
	"                          hottest loop's cycles per iteration predicted by\n"
	"                          llvm-mca on each side: N, local_func_N, a wasm name,\n"
	"                          modM:N (as in the before build, else the after\n"
	"                          build); repeatable\n"
	"      --roles SPEC        register roles for the classes, e.g. vmctx=rcx\n"
	"      --fail-if-slower PCT  exit 1 when the judged CPU time per run grew by more\n"
	"                          than PCT% of its before value and the growth is\n"
	"                          significant; judged: the --func functions, else the\n"
	"                          function with the largest share before. Also exit 1\n"
	"                          when a side's recordings are cut short or do not fit\n"
	"                          its cores (unless --force)\n"
	"      --by time|share     what --fail-if-slower judges and the rows sort by:\n"
	"                          time per run (default), or share of the run for runs\n"
	"                          that did unequal work\n"
	"      --gate-wasm         --fail-if-slower judges the time in wasm code instead\n"
	"      --force             judge cut or inconsistent recordings all the same\n"
	"      --require-consistent  exit 1 when a side's recordings are cut short or\n"
	"                          their samples do not fit its cores, gate or not\n"
	"      --level PCT         confidence level of the tests (default 95)\n"
	"      --adjust HOW        holm (default), bonferroni or none\n"
	"      --levers            the before build's lever table (report --levers, of\n"
	"                          its first recording) against the change: each\n"
	"                          lever's predicted run payoff next to the run's\n"
	"                          measured saving, per function too (docs/levers.md);\n"
	"                          --levers-share, --levers-max, --levers-loop-min and\n"
	"                          --spill-log as report's\n"
	"      --json FILE         also write the diff as JSON (keys: docs/json.md)\n"
	"      --markdown FILE     also write it as GitHub Markdown tables\n"
	"      --html FILE         also write the HTML report of the diff (with the\n"
	"                          listings of the functions listed and --func's)\n"
	"  -q, --quiet             no warnings\n"
	"\n"
	"Exit status: 0 ok, 1 --fail-if-slower (or a gate) failed, 2 bad usage or input.\n";

enum {
	O_TOP = 256, O_FUNC, O_ROLES, O_FAIL, O_GATE_WASM, O_LEVEL, O_ADJUST, O_JSON, O_MD,
	O_HTML, O_BY, O_FORCE, O_REQ_CONS,
};

static const struct option diff_longopts[] = {
	ATTR_LONGOPTS,
	FILTER_LONGOPTS,
	LEVERS_LONGOPTS,
	{ "top", required_argument, NULL, O_TOP },
	{ "func", required_argument, NULL, O_FUNC },
	{ "roles", required_argument, NULL, O_ROLES },
	{ "fail-if-slower", required_argument, NULL, O_FAIL },
	{ "gate-wasm", no_argument, NULL, O_GATE_WASM },
	{ "by", required_argument, NULL, O_BY },
	{ "force", no_argument, NULL, O_FORCE },
	{ "require-consistent", no_argument, NULL, O_REQ_CONS },
	{ "level", required_argument, NULL, O_LEVEL },
	{ "adjust", required_argument, NULL, O_ADJUST },
	{ "json", required_argument, NULL, O_JSON },
	{ "markdown", required_argument, NULL, O_MD },
	{ "html", required_argument, NULL, O_HTML },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_pct(const char *s, double lo, double hi, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	*out = strtod(s, &end);
	return *end || !(*out >= lo && *out <= hi) ? -1 : 0;
}

static int global_option(struct diff_opts *o, int c, const char *arg, char *const *argv,
			 struct ap_err *err)
{
	double v;
	int r = levers_args__option(&o->lv, c, arg, err);

	if (r)
		return r < 0 ? -1 : 0;
	switch (c) {
	case 'h': cli_usage(diff_usage); exit(EXIT_OK);
	case O_TOP:
		if (cli_parse_u64(arg, 10, &o->top))
			return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", arg);
		return 0;
	case O_FUNC:
		if (o->nspecs == DIFF_MAX_FUNCS)
			return ap_errf(err, "--func: at most %d", DIFF_MAX_FUNCS);
		o->specs[o->nspecs++] = arg;
		return 0;
	case O_ROLES: o->roles = arg; return 0;
	case O_FAIL:
		if (parse_pct(arg, 0.0, 1e9, &o->gate_pct))
			return ap_errf(err, "--fail-if-slower: '%s' is not a percentage of 0 or more",
				       arg);
		o->gate = 1;
		return 0;
	case O_GATE_WASM: o->gate_wasm = 1; return 0;
	case O_BY:
		if (!strcmp(arg, "share"))
			o->by_share = 1;
		else if (strcmp(arg, "time"))
			return ap_errf(err, "--by: '%s' is not time or share", arg);
		return 0;
	case O_FORCE: o->force = 1; return 0;
	case O_REQ_CONS: o->require_consistent = 1; return 0;
	case O_LEVEL:
		if (parse_pct(arg, 50.0, 99.9999, &v))
			return ap_errf(err, "--level: '%s' is not a percentage from 50 to 99.9999", arg);
		o->co.level = v / 100.0;
		return 0;
	case O_ADJUST:
		if (!strcmp(arg, "holm"))
			o->co.adjust = CMP_ADJ_HOLM;
		else if (!strcmp(arg, "bonferroni"))
			o->co.adjust = CMP_ADJ_BONFERRONI;
		else if (!strcmp(arg, "none"))
			o->co.adjust = CMP_ADJ_NONE;
		else
			return ap_errf(err, "--adjust: '%s' is not holm, bonferroni or none", arg);
		return 0;
	case O_JSON: o->json = arg; return 0;
	case O_MD: o->markdown = arg; return 0;
	case O_HTML: o->html = arg; return 0;
	}
	return cli_bad_option(err, argv, optind, "i:qh" FILTER_SHORTOPTS, diff_longopts);
}

/* One side's words: its own options, and the global ones wherever they are. */
static int parse_side(struct diff_opts *o, struct diff_side *s, int argc, char **argv,
		      struct ap_err *err)
{
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh" FILTER_SHORTOPTS, diff_longopts, NULL)) != -1) {
		if (c == ATTR_OPT_CWASM || c == ATTR_OPT_MANIFEST) {
			if (s->ncore_args == DIFF_MAX_CORE_ARGS)
				return ap_errf(err, "at most %d --cwasm/--manifest a side",
					       DIFF_MAX_CORE_ARGS);
			s->core_opt[s->ncore_args] = c;
			s->core_arg[s->ncore_args++] = optarg;
		}
		/* --comm, --cpu, --time hold for both sides; --pid, --tid for this one */
		r = filter_args__option(filter_args__shared(c) ? &o->side[0].a : &s->a, c, optarg,
					err);
		if (r > 0 && filter_args__shared(c))
			r = filter_args__option(&o->side[1].a, c, optarg, err);
		if (!r)
			r = attr_args__option(&s->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (!r && global_option(o, c, optarg, argv, err))
			return -1;
	}
	/* plain file names are recordings too: diff BEFORE.data ... -- AFTER.data ... */
	for (; optind < argc; optind++)
		if (attr_args__option(&s->a, 'i', argv[optind], err) < 0)
			return -1;
	return 0;
}

/* --event, --require-size-match, -q: one value for both sides */
static int share_globals(struct diff_opts *o, struct ap_err *err)
{
	struct attr_args *b = &o->side[0].a, *a = &o->side[1].a;

	if (b->opts.event && a->opts.event && strcmp(b->opts.event, a->opts.event))
		return ap_errf(err, "--event: one event for both sides ('%s', '%s')",
			       b->opts.event, a->opts.event);
	if (!b->opts.event)
		b->opts.event = a->opts.event;
	a->opts.event = b->opts.event;
	b->opts.require_size_match = a->opts.require_size_match =
		b->opts.require_size_match | a->opts.require_size_match;
	b->opts.two_pass = a->opts.two_pass = b->opts.two_pass | a->opts.two_pass;
	b->quiet = a->quiet = b->quiet | a->quiet;
	return 0;
}

/* A side without cores uses the other side's (the same files, loaded again). */
static int lend_cores(struct diff_side *to, const struct diff_side *from, struct ap_err *err)
{
	for (uint32_t i = 0; i < from->ncore_args; i++)
		if (attr_args__option(&to->a, from->core_opt[i], from->core_arg[i], err) < 0)
			return -1;
	return 0;
}

static int parse_args(int argc, char **argv, struct diff_opts *o, struct ap_err *err)
{
	int sep = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			cli_usage(diff_usage);
			exit(EXIT_OK);
		}
		if (!strcmp(argv[i], "--") && sep < 0)
			sep = i;
	}
	o->top = 20;
	if (sep < 0)
		return ap_errf(err, "give the before build, '--', then the after build; see --help");
	{
		/* getopt wants argv[0]: the sides get "diff" in front */
		char *left[sep + 1], *right[argc - sep + 1];

		memcpy(left, argv, sizeof(char *) * (size_t)sep);
		left[sep] = NULL;
		right[0] = argv[0];
		memcpy(right + 1, argv + sep + 1, sizeof(char *) * (size_t)(argc - sep - 1));
		right[argc - sep] = NULL;
		if (parse_side(o, &o->side[0], sep, left, err) ||
		    parse_side(o, &o->side[1], argc - sep, right, err))
			return -1;
	}
	if (share_globals(o, err))
		return -1;
	filter_args__finish(&o->side[0].a);
	filter_args__finish(&o->side[1].a);
	for (int k = 0; k < 2; k++) {
		struct diff_side *s = &o->side[k];

		if (!s->a.ninputs)
			return ap_errf(err, "no recording of the %s build: give -i FILE %s '--'",
				       s->word, k ? "after" : "before");
		if (!s->ncore_args && lend_cores(s, &o->side[!k], err))
			return -1;
		if (attr_args__check(&s->a, err))
			return ap_err_prefix(err, k ? "after '--': " : "before '--': ");
	}
	if (o->gate_wasm && !o->gate)
		return ap_errf(err, "--gate-wasm needs --fail-if-slower PCT");
	for (int k = 0; k < 2; k++) {
		const char *outs[] = { o->json, o->markdown, o->html };

		for (int i = 0; i < 3; i++)
			if (outs[i] && attr_args__check_output(&o->side[k].a, outs[i], err))
				return -1;
	}
	return 0;
}

/* Where --func i is in side k: local function, or -1 when not in that build. */
static int64_t local_in(const struct diff_side *s, uint32_t core, uint32_t wasm)
{
	const struct cwasm_module *m = s->a.cs.mods[core];

	if (wasm < m->import_func_count || wasm - m->import_func_count >= m->nfuncs)
		return -1;
	return wasm - m->import_func_count;
}

struct func_where {
	int found_side;			/* the side the spec named it in */
	int64_t core[2], local[2];	/* -1: not there */
	uint32_t wasm;
};

/*
 * Name --func i in the before build, else in the after build; its wasm
 * index then names it in the other (cores paired as the diff pairs them).
 */
static int resolve_func(struct diff_opts *o, uint32_t i, struct func_where *w,
			struct ap_err *err)
{
	struct ap_err first = { 0 };
	struct core_func cf;
	int k;

	for (k = 0; k < 2; k++) {
		if (!core_set__resolve(&o->side[k].a.cs, o->specs[i], &cf, k ? err : &first))
			break;
	}
	if (k == 2) {
		*err = first;
		return -1;
	}
	w->found_side = k;
	w->core[k] = cf.core;
	w->local[k] = cf.func;
	w->wasm = cwasm__wasm_index(o->side[k].a.cs.mods[cf.core], cf.func);
	w->core[!k] = cmp_core__paired(
		(const struct cwasm_module *const *)o->side[k].a.cs.mods, o->side[k].a.cs.n,
		(const struct cwasm_module *const *)o->side[!k].a.cs.mods, o->side[!k].a.cs.n,
		cf.core);
	w->local[!k] = w->core[!k] < 0 ? -1 : local_in(&o->side[!k], (uint32_t)w->core[!k], w->wasm);
	return 0;
}

static int resolve_funcs(struct diff_opts *o, struct func_where *where, struct ap_err *err)
{
	for (uint32_t i = 0; i < o->nspecs; i++) {
		if (resolve_func(o, i, &where[i], err))
			return -1;
		for (int k = 0; k < 2; k++) {
			struct diff_side *s = &o->side[k];

			s->func_of[i] = -1;
			if (where[i].local[k] < 0)
				continue;
			s->func_of[i] = s->nfuncs;
			s->funcs[s->nfuncs].spec = o->specs[i];
			s->funcs[s->nfuncs].cf.core = (uint32_t)where[i].core[k];
			s->funcs[s->nfuncs].cf.func = (uint32_t)where[i].local[k];
			s->nfuncs++;
		}
	}
	return 0;
}

static const struct cls_table empty_table;

/* The class tables of every --func, side by side. */
static int class_diffs(struct diff_opts *o, const struct cmp_diff *d,
		       const struct func_where *where, struct view_diff_func *rf,
		       struct ap_err *err)
{
	for (uint32_t i = 0; i < o->nspecs; i++) {
		const struct func_where *w = &where[i];
		struct view_diff_func *f = &rf[i];
		int k = w->found_side;

		memset(f, 0, sizeof(*f));
		f->spec = o->specs[i];
		f->wasm_index = w->wasm;
		f->local_before = w->local[0];
		f->local_after = w->local[1];
		f->pair = cmp_diff__pair_of(d, k, (uint32_t)w->core[k]);
		for (int s = 0; s < 2; s++) {
			const struct diff_side *ds = &o->side[s];
			const struct capture_func *cf = ds->func_of[i] >= 0 ? &ds->funcs[ds->func_of[i]]
									    : NULL;
			const struct cwasm_module *m;

			if (s)
				f->after = cf ? &cf->t : &empty_table;
			else
				f->before = cf ? &cf->t : &empty_table;
			if (!cf)
				continue;
			m = ds->a.cs.mods[cf->cf.core];
			if (s)
				f->samples_after = cf->samples;
			else
				f->samples_before = cf->samples;
			if (m->funcs[cf->cf.func].name && (s || !f->name))
				f->name = m->funcs[cf->cf.func].name;
		}
		if (cmp_cls__diff(f->before, f->after, &o->co, &f->cls, err))
			return -1;
	}
	return 0;
}

/*
 * Each --func's hottest loop on both sides, modelled on the CPU of the
 * before side's first recording (one -mcpu for both: the change is the
 * code's), every function in one parallel llvm-mca run (loops/analyze.h).
 */
static int diff_loops(struct diff_opts *o, struct cmp_loops_side ls[][2],
		      struct render_loop_pair *pairs, struct view_diff_func *rf,
		      struct ap_err *err)
{
	struct lp_func *lfs[2 * DIFF_MAX_FUNCS];
	const struct cls_func *fs[2 * DIFF_MAX_FUNCS];
	uint32_t n = 0;

	for (uint32_t i = 0; i < o->nspecs; i++) {
		pairs[i] = (struct render_loop_pair){ .word = { "before", "after" },
						       .gap_word = "change" };
		for (int s = 0; s < 2; s++) {
			const struct diff_side *ds = &o->side[s];
			const struct capture_func *cf;

			if (ds->func_of[i] < 0)
				continue;
			cf = &ds->funcs[ds->func_of[i]];
			if (cmp_loops_side__build(&ls[i][s], ds->a.cs.mods[cf->cf.core], cf->cf.func,
						  cf->insn_samples, cf->ninsns, o->roles, err))
				return -1;
			pairs[i].lf[s] = lfs[n] = &ls[i][s].lf;
			pairs[i].f[s] = fs[n++] = &ls[i][s].cls.f;
		}
		rf[i].loops = &pairs[i];
	}
	return n ? lp__model(lfs, fs, n, o->side[0].caps.cpuid, o->side[0].caps.cpudesc, err) : 0;
}

/* --fail-if-slower: 0 passed, -1 with err (AP_ERR_GATE failed, else bad target) */
static int run_gate(struct diff_opts *o, const struct cmp_diff *d, const struct func_where *where,
		    struct cmp_gate *g, struct view_diff_input *in, struct ap_err *err)
{
	struct cmp_gate_target t[DIFF_MAX_FUNCS];
	struct cmp_gate_opts go = { .pct = o->gate_pct, .whole_wasm = o->gate_wasm,
				    .by_share = o->by_share || !d->has_time,
				    .unit_scale = 1e6, .unit = in->period_ns ? "ms" : NULL };

	if (!o->gate_wasm)
		for (uint32_t i = 0; i < o->nspecs; i++) {
			int k = where[i].found_side;
			int pair = cmp_diff__pair_of(d, k, (uint32_t)where[i].core[k]);

			t[i] = (struct cmp_gate_target){ pair < 0 ? UINT32_MAX : (uint32_t)pair,
							  where[i].wasm };
			go.ntargets++;
		}
	go.targets = t;
	in->gate = g;
	in->gate_wasm = o->gate_wasm;
	in->gate_what = o->gate_wasm ? "the time in wasm code"
		      : o->nspecs ? "the --func functions" : "the function with most samples before";
	if (o->gate_wasm && go.by_share)
		in->gate_what = "the share in wasm code";
	return cmp_diff__gate(d, &go, g, err);
}

/* --json, --markdown, --html: all of them or none (util/outset.h). */
static int write_outputs(const struct diff_opts *o, const struct view_diff *v,
			 const struct attr_hist *hist_after, struct ap_err *err)
{
	const char *paths[] = { o->json, o->markdown, o->html };
	struct outset set = OUTSET_INIT;

	for (int i = 0; i < 3; i++) {
		const char *tmp = paths[i] ? outset__add(&set, paths[i], err) : NULL;
		int rc = 0;

		if (paths[i] && !tmp)
			rc = -1;
		else if (paths[i] && i == 0)
			rc = render__diff_json_file(tmp, v, err);
		else if (paths[i] && i == 1)
			rc = render__diff_markdown_file(tmp, v, err);
		else if (paths[i])
			rc = render__diff_html_file(tmp, v, hist_after, o->roles, err);
		if (rc) {
			outset__abort(&set, err);
			return -1;
		}
	}
	return outset__commit(&set, err);
}

/* Each side's recordings as the view reads them: cut short, consistency per core. */
static void side_recs(const struct diff_side *s, struct view_diff_rec *recs)
{
	const struct captures *c = &s->caps;

	for (uint32_t k = 0; k < c->n; k++)
		recs[k] = (struct view_diff_rec){
			.path = c->paths[k], .truncated = c->reads[k].truncated,
			.bytes_read = c->reads[k].bytes_read,
			.bytes_expected = c->reads[k].bytes_expected,
			.cons = &c->cons[(size_t)k * s->a.cs.n],
		};
}

/*
 * The times of both sides must be of one unit: a side whose event counts
 * ns against one that counts something else cannot be timed together.
 */
static int same_unit(const struct diff_opts *o, struct ap_err *err)
{
	const struct captures *b = &o->side[0].caps, *a = &o->side[1].caps;

	if (b->period_ns == a->period_ns)
		return 0;
	return ap_errf(err, "the before recordings sample %s, the after ones %s: their periods "
		       "are not one unit; record both with one event or pick one with --event",
		       b->event ? b->event : "several events", a->event ? a->event : "several events");
}

/* --levers: the lever table of the before build's first recording (captures.h's hook). */
static int before_levers(void *ctx, uint32_t k, struct profile *p, struct ap_err *err)
{
	struct diff_opts *o = ctx;

	if (k || !o->lv.on)
		return 0;
	o->levers = calloc(1, sizeof(*o->levers));
	if (!o->levers)
		return ap_err_nomem(err);
	return lp_levers__run(o->levers, p, &o->lv.o, err);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { 0 };
	struct func_where where[DIFF_MAX_FUNCS];
	struct view_diff_func rf[DIFF_MAX_FUNCS];
	struct cmp_loops_side ls[DIFF_MAX_FUNCS][2];
	struct render_loop_pair pairs[DIFF_MAX_FUNCS];
	struct view_diff_rec recs[2][ATTR_MAX_INPUTS];
	struct view_diff_input in = { .tool = "aotperf diff" };
	struct view_diff *v = NULL;
	struct view_levers_diff *lvd = NULL;
	struct captures_hook hook = { before_levers, NULL };
	struct cmp_gate g = { 0 };
	struct cmp_diff *d = NULL;
	struct cmp_offcpu *oc = NULL;
	char oc_note[256];
	struct ap_err err = { 0 }, gate_err = { 0 };
	int ret;

	o.side[0].word = "before";
	o.side[1].word = "after";
	memset(ls, 0, sizeof(ls));
	attr_args__init(&o.side[0].a, "diff");
	attr_args__init(&o.side[1].a, "diff");
	/* off-CPU data where there is some: the samples counted are then cpu-clock's */
	o.side[0].a.opts.offcpu = o.side[1].a.opts.offcpu = PROFILE_OFFCPU_AUTO;
	levers_args__init(&o.lv);
	hook.ctx = &o;
	if (parse_args(argc, argv, &o, &err) ||
	    levers_args__prepare(&o.lv, &o.side[0].a.cs, o.roles, &err)) {
		ret = cli_fail("diff", &err);
		goto out;
	}
	if (resolve_funcs(&o, where, &err)) {
		ret = cli_fail_opt("diff", "--func", &err);
		goto out;
	}
	for (int k = 0; k < 2; k++) {
		struct diff_side *s = &o.side[k];

		ret = captures__read_hook(&s->caps, &s->a, s->word, s->funcs, s->nfuncs, o.roles,
					  k ? NULL : &hook);
		if (ret != EXIT_OK)
			goto out;
		side_recs(s, recs[k]);
	}
	if (same_unit(&o, &err) ||
	    cmp_diff__new(&o.side[0].caps.side, &o.side[1].caps.side, &o.co, &d, &err) ||
	    class_diffs(&o, d, where, rf, &err) || diff_loops(&o, ls, pairs, rf, &err) ||
	    (o.side[0].caps.oc.has && o.side[1].caps.oc.has &&
	     cmp_offcpu__new(d, &o.side[0].caps.oc, &o.side[1].caps.oc, &oc, &err)) ||
	    (o.levers && !(lvd = view_levers_diff__new(o.levers, o.side[0].caps.side.mods, d, &err)))) {
		ret = cli_fail("diff", &err);
		goto out;
	}
	in.d = d;
	in.side[0] = &o.side[0].caps.side;
	in.side[1] = &o.side[1].caps.side;
	in.recs[0] = recs[0];
	in.recs[1] = recs[1];
	in.event = o.side[0].caps.event;
	in.period_ns = o.side[0].caps.period_ns;
	in.top = o.top;
	in.nfuncs = o.nspecs;
	in.funcs = rf;
	in.by_share = o.by_share;
	in.force = o.force;
	in.oc = oc;
	in.levers = lvd;
	in.oc_note = cmp_offcpu__one_sided(&o.side[0].caps.oc, &o.side[1].caps.oc, oc_note,
					   sizeof(oc_note));
	if (o.gate) {
		if (run_gate(&o, d, where, &g, &in, &gate_err) && gate_err.kind != AP_ERR_GATE) {
			ret = cli_fail_opt("diff", "--fail-if-slower:", &gate_err);
			goto out;
		}
	}
	if (view_diff__new(&in, &v, &err)) {
		ret = cli_fail("diff", &err);
		goto out;
	}
	if (!o.side[0].a.quiet)
		for (uint32_t i = 0; i < v->warnings.n; i++)
			cli_warn("diff", "%s", v->warnings.w[i].msg);
	if (write_outputs(&o, v, &o.side[1].caps.hist, &err)) {
		ret = cli_fail("diff", &err);
		goto out;
	}
	render__diff_text(stdout, v, ap_term__columns(stdout, 0));
	ret = EXIT_OK;
	if (o.require_consistent && view_diff__require_whole(v, &err)) {
		ret = cli_fail_opt("diff", "--require-consistent:", &err);
	} else if (v->gate_failed) {
		/* one line: a side the gate cannot judge (without --force), else the slower one */
		ap_errk(&gate_err, AP_ERR_GATE, "%s", v->gate_line);
		ret = cli_fail_opt("diff", "--fail-if-slower:", &gate_err);
	}
out:
	view_diff__delete(v);
	view_levers_diff__delete(lvd);
	lp_levers__delete(o.levers);
	levers_args__exit(&o.lv);
	for (uint32_t i = 0; i < DIFF_MAX_FUNCS; i++)
		for (int k = 0; k < 2; k++)
			cmp_loops_side__exit(&ls[i][k]);
	cmp_gate__exit(&g);
	cmp_offcpu__delete(oc);
	cmp_diff__delete(d);
	for (int k = 0; k < 2; k++) {
		captures__exit(&o.side[k].caps);
		attr_args__exit(&o.side[k].a);
		filter_args__exit(&o.side[k].a);
	}
	return ret;
}
