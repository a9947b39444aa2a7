// SPDX-License-Identifier: MIT
/*
 * aotperf compare: one wasm function under WAMR (recordings + .cwasm) and
 * under another engine (its recording after perf inject --jit, or its
 * jitdump): both sides' code classified by the same classifier, static
 * counts, sampled shares, the per-class delta and a headroom estimate per
 * lever (engines/, docs/engines.md).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "captures.h"
#include "loops-side.h"
#include "../loops/analyze.h"
#include "../render/loops.h"
#include "../classify/funcclass.h"
#include "../render/compare.h"
#include "../util/outset.h"

#define COMPARE_MAX_LIST 32

struct compare_opts {
	struct attr_args a;		/* the WAMR side */
	const char *spec;		/* --func */
	const char *other;		/* --other perf.data */
	const char *jitdumps[COMPARE_MAX_LIST], *elfs[COMPARE_MAX_LIST], *dirs[COMPARE_MAX_LIST];
	uint32_t njitdumps, nelfs, ndirs;
	int other_pid;
	uint64_t module, min_samples, top;
	const char *roles, *json, *markdown, *html;
};

static const char compare_usage[] =
	"usage: aotperf compare [-i wamr.data]... (--cwasm F | --manifest M)...\n"
	"                       [--func F] --other perf.jit.data [--other-jitdump DUMP]\n"
	"                       [--json FILE] [--markdown FILE] [--html FILE]\n"
	"\n"
	"One wasm function under WAMR and under another engine running the same wasm\n"
	"(Wasmtime, V8 in node), each recorded with perf: the other engine's code is\n"
	"read from its recording after its own jitdump injection (perf inject --jit:\n"
	"wasm[M]::function[N][::name], JS:<name>-<N>-<tier>; the optimized tier is\n"
	"compared when there is one) or from its jitdump, and classified with the same\n"
	"classifier. Prints static class counts and sampled shares on both sides, the\n"
	"per-class delta, and a headroom estimate per lever (an estimate: WAMR's share\n"
	"of its run x the lever's share x the other engine's reduction), and each\n"
	"side's hottest loop modelled by llvm-mca on the WAMR recording's CPU: the gap\n"
	"in cycles per iteration, as compiled and with each of WAMR's levers applied.\n"
	"\n"
	"The WAMR side (-i repeatable: recordings of one build, summed):\n"
	ATTR_USAGE
	"      --func F            the function: N, local_func_N, a wasm name, modM:N\n"
	"                          (default: the hottest WAMR function)\n"
	"      --roles SPEC        register roles for WAMR's classes, e.g. vmctx=rcx\n"
	"The other engine (its wasm index N is local_func + the WAMR core's imports):\n"
	"      --other FILE        its perf.data: after perf inject --jit, or the plain\n"
	"                          recording of the run that wrote --other-jitdump\n"
	"      --other-jitdump DUMP  its jit-<pid>.dump (code without injected files)\n"
	"      --other-elf FILE    another ELF it mapped with wasm symbols (a Wasmtime\n"
	"                          .cwasm); repeatable\n"
	"      --other-dir DIR     where moved jitted-*.so files are now; repeatable\n"
	"      --other-pid PID     only this process of the other recording\n"
	"      --other-module M    Wasmtime's module index wasm[M] (default 0)\n"
	"Output:\n"
	"      --sampled-min N     shares of samples when both functions have at least\n"
	"                          N (default 50), else of static instructions\n"
	"      --top N             functions in the side-by-side list (default 10)\n"
	"      --json FILE         also write the comparison as JSON (docs/json.md)\n"
	"      --markdown FILE     also write it as GitHub Markdown tables\n"
	"      --html FILE         also write the HTML report of it\n"
	"\n"
	"--event applies to both recordings. Exit status: 0 ok, 1 a gate failed\n"
	"(--require-size-match), 2 bad usage or input.\n";

static int add_list(const char **list, uint32_t *n, const char *v, const char *opt,
		    struct ap_err *err)
{
	if (*n == COMPARE_MAX_LIST)
		return ap_errf(err, "%s: at most %d", opt, COMPARE_MAX_LIST);
	list[(*n)++] = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct compare_opts *o, struct ap_err *err)
{
	enum {
		O_FUNC = 256, O_ROLES, O_OTHER, O_JITDUMP, O_ELF, O_DIR, O_PID, O_MODULE, O_MIN,
		O_TOP, O_JSON, O_MD, O_HTML,
	};
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		{ "func", required_argument, NULL, O_FUNC },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "other", required_argument, NULL, O_OTHER },
		{ "other-jitdump", required_argument, NULL, O_JITDUMP },
		{ "other-elf", required_argument, NULL, O_ELF },
		{ "other-dir", required_argument, NULL, O_DIR },
		{ "other-pid", required_argument, NULL, O_PID },
		{ "other-module", required_argument, NULL, O_MODULE },
		{ "sampled-min", required_argument, NULL, O_MIN },
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "markdown", required_argument, NULL, O_MD },
		{ "html", required_argument, NULL, O_HTML },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c, r;

	o->other_pid = -1;
	o->min_samples = 50;
	o->top = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh", longopts, NULL)) != -1) {
		r = attr_args__option(&o->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'h': cli_usage(compare_usage); exit(EXIT_OK);
		case O_FUNC: o->spec = optarg; break;
		case O_ROLES: o->roles = optarg; break;
		case O_OTHER: o->other = optarg; break;
		case O_JITDUMP:
			if (add_list(o->jitdumps, &o->njitdumps, optarg, "--other-jitdump", err))
				return -1;
			break;
		case O_ELF:
			if (add_list(o->elfs, &o->nelfs, optarg, "--other-elf", err))
				return -1;
			break;
		case O_DIR:
			if (add_list(o->dirs, &o->ndirs, optarg, "--other-dir", err))
				return -1;
			break;
		case O_PID:
			if (cli_parse_u64(optarg, 10, &v) || v > INT32_MAX)
				return ap_errf(err, "--other-pid: '%s' is not a pid", optarg);
			o->other_pid = (int)v;
			break;
		case O_MODULE:
			if (cli_parse_u64(optarg, 10, &o->module) || o->module > UINT32_MAX)
				return ap_errf(err, "--other-module: '%s' is not a number", optarg);
			break;
		case O_MIN:
			if (cli_parse_u64(optarg, 10, &o->min_samples))
				return ap_errf(err, "--sampled-min: '%s' is not a number", optarg);
			break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top))
				return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", optarg);
			break;
		case O_JSON: o->json = optarg; break;
		case O_MD: o->markdown = optarg; break;
		case O_HTML: o->html = optarg; break;
		default:
			return cli_bad_option(err, argv, optind, "i:qh", longopts);
		}
	}
	if (optind < argc)
		return cli_bad_argument(err, argv[optind]);
	if (!o->other && !o->njitdumps)
		return ap_errf(err, "no other engine: give --other perf.jit.data (its recording "
			       "after perf inject --jit) or --other-jitdump DUMP");
	return attr_args__check(&o->a, err);
}

/* No output may replace an input of either side. */
static int check_outputs(const struct compare_opts *o, struct ap_err *err)
{
	const char *outs[] = { o->json, o->markdown, o->html };
	struct ap_input in[1 + 2 * COMPARE_MAX_LIST];
	size_t n = 0;

	if (o->other)
		in[n++].name = o->other;
	for (uint32_t i = 0; i < o->njitdumps; i++)
		in[n++].name = o->jitdumps[i];
	for (uint32_t i = 0; i < o->nelfs; i++)
		in[n++].name = o->elfs[i];
	for (size_t i = 0; i < n; i++)
		if (ap_file_id__of(in[i].name, &in[i].id))
			in[i].id.valid = 0;
	for (int i = 0; i < 3; i++)
		if (outs[i] && (attr_args__check_output(&o->a, outs[i], err) ||
				ap_file__check_output(outs[i], in, n, err)))
			return -1;
	return 0;
}

/* The WAMR function with the most samples over the recordings; 0, or -1 if none ran. */
static int hottest(const struct captures *c, const struct core_set *cs, struct core_func *out)
{
	uint64_t best = 0;

	for (uint32_t m = 0; m < cs->n; m++)
		for (uint32_t f = 0; f < cs->mods[m]->nfuncs; f++) {
			uint64_t s = 0;

			for (uint32_t k = 0; k < c->n; k++)
				s += c->caps[k].self[m][f];
			if (s > best) {
				best = s;
				*out = (struct core_func){ m, f };
			}
		}
	return best ? 0 : -1;
}

/* The WAMR side: its recordings, the function classified in each. */
static int read_wamr(struct compare_opts *o, struct captures *c, struct capture_func *fn,
		     int *picked)
{
	struct ap_err err = { 0 };
	int ret;

	fn->spec = o->spec;
	if (o->spec) {
		if (core_set__resolve(&o->a.cs, o->spec, &fn->cf, &err))
			return cli_fail_opt("compare", "--func", &err);
		return captures__read(c, &o->a, NULL, fn, 1, o->roles);
	}
	/* no --func: the hottest, then read again to classify it */
	ret = captures__read(c, &o->a, NULL, NULL, 0, o->roles);
	if (ret != EXIT_OK)
		return ret;
	if (hottest(c, &o->a.cs, &fn->cf)) {
		ap_errf(&err, "%s: no samples in any WAMR function", c->paths[0]);
		return cli_fail("compare", &err);
	}
	*picked = 1;
	captures__exit(c);
	return captures__read(c, &o->a, NULL, fn, 1, o->roles);
}

static int open_other(const struct compare_opts *o, const struct cwasm_module *m,
		      struct eng_profile **p, struct ap_err *err)
{
	struct eng_opts eo;

	eng_opts__init(&eo);
	eo.pid = o->other_pid;
	eo.event = o->a.opts.event;
	eo.dirs = o->dirs;
	eo.ndirs = o->ndirs;
	eo.elf_files = o->elfs;
	eo.nelf_files = o->nelfs;
	eo.jitdumps = o->jitdumps;
	eo.njitdumps = o->njitdumps;
	eo.wamr = m;
	return engines__open(o->other, &eo, p, err);
}

/*
 * Both hottest loops, modelled with the same -mcpu (the WAMR recording's
 * CPU): the gap is the code's. A side whose loops cannot be built is
 * warned about and left out (pair->lf NULL): the comparison stands.
 */
static int compare_loops(const struct compare_opts *o, const struct captures *c,
			 const struct cwasm_module *m,
			 const struct capture_func *fn, const struct eng_classes *oc,
			 struct loops_side *ws, struct lp_func *olf, struct render_loop_pair *pair,
			 const char *engine, struct ap_err *err)
{
	struct lp_func *lfs[2];
	const struct cls_func *fs[2];
	struct ap_err e = { 0 };
	uint32_t n = 0;
	char what[200];

	*pair = (struct render_loop_pair){ .word = { "wamr", engine },
					   .gap_word = "gap (WAMR - other)", .levers = 1 };
	snprintf(what, sizeof(what), "%s: %.120s", o->other ? o->other : o->jitdumps[0],
		 oc->code->raw_name);
	if (!loops_side__build(ws, m, fn, o->roles, &e)) {
		pair->lf[0] = lfs[n] = &ws->lf;
		pair->f[0] = fs[n++] = &ws->cls.f;
	} else if (!o->a.quiet) {
		cli_warn("compare", "WAMR's loops not modelled: %s", e.msg);
	}
	if (!lp_func__build_code(olf, oc->code->bytes, oc->code_used, oc->code->addr, what, &oc->f,
				 oc->insn_samples, &e)) {
		pair->lf[1] = lfs[n] = olf;
		pair->f[1] = fs[n++] = &oc->f;
	} else if (!o->a.quiet) {
		cli_warn("compare", "%s's loops not modelled: %s", engine, e.msg);
	}
	return lp__model(lfs, fs, n, c->cpuid, c->cpudesc, err);
}

/* --json, --markdown, --html: all of them or none (util/outset.h). */
static int write_outputs(const struct compare_opts *o, const struct render_compare *r,
			 struct ap_err *err)
{
	struct outset set = OUTSET_INIT;
	const char *t;

	if ((o->json && (!(t = outset__add(&set, o->json, err)) ||
			 render__compare_json_file(t, r, err))) ||
	    (o->markdown && (!(t = outset__add(&set, o->markdown, err)) ||
			     render__compare_markdown_file(t, r, err))) ||
	    (o->html && (!(t = outset__add(&set, o->html, err)) ||
			 render__compare_html_file(t, r, err))) ||
	    outset__commit(&set, err)) {
		outset__abort(&set, err);
		return -1;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	struct compare_opts o = { 0 };
	struct captures c = { 0 };
	struct capture_func fn = { 0 };
	struct eng_profile *p = NULL;
	struct eng_classes oc = { 0 };
	struct cls_result wr = { 0 };
	struct eng_headroom h;
	struct loops_side ws = { 0 };
	struct lp_func olf = { 0 };
	struct render_loop_pair pair;
	struct render_compare r = { .tool = "aotperf compare" };
	const struct eng_func *ef;
	const struct cwasm_module *m;
	struct ap_err err = { 0 };
	int ret;

	attr_args__init(&o.a, "compare");
	if (parse_args(argc, argv, &o, &err) || check_outputs(&o, &err)) {
		ret = cli_fail("compare", &err);
		goto out;
	}
	ret = read_wamr(&o, &c, &fn, &r.picked);
	if (ret != EXIT_OK)
		goto out;
	m = o.a.cs.mods[fn.cf.core];
	ret = EXIT_BAD;
	if (open_other(&o, m, &p, &err)) {
		ret = cli_fail("compare", &err);
		goto out;
	}
	ef = engines__find(p, (uint32_t)o.module, cwasm__wasm_index(m, fn.cf.func));
	if (!ef) {
		char local[32];

		ap_errf(&err, "%s: %s has no code for wasm function %" PRIu32 " (%s%s%s): "
			"not run there, or another module (--other-module)",
			o.other ? o.other : o.jitdumps[0], eng_engine__name(engines__summary(p)->engine),
			cwasm__wasm_index(m, fn.cf.func),
			cwasm__local_name(fn.cf.func, local, sizeof(local)),
			m->funcs[fn.cf.func].name ? " " : "",
			m->funcs[fn.cf.func].name ? m->funcs[fn.cf.func].name : "");
		ret = cli_fail("compare", &err);
		goto out;
	}
	if (engines__classify(p, ef, &oc, &err) ||
	    cls_result__classify(&wr, m, fn.cf.func, CWASM_ARCH_UNKNOWN, o.roles, NULL, 0, 0,
				 &err)) {
		ret = cli_fail("compare", &err);
		goto out;
	}
	r.wamr_run_total = 0;
	for (uint32_t k = 0; k < c.n; k++)
		r.wamr_run_total += c.caps[k].total;
	engines__headroom(&fn.t, r.wamr_run_total, &oc, o.min_samples, &h);
	if (compare_loops(&o, &c, m, &fn, &oc, &ws, &olf, &pair,
			  eng_engine__name(engines__summary(p)->engine), &err)) {
		ret = cli_fail("compare", &err);
		goto out;
	}
	r.loops = &pair;
	if (!o.a.quiet)
		for (uint32_t i = 0; i < engines__nwarnings(p); i++)
			cli_warn("compare", "%s", engines__warning(p, i));
	r.event = o.a.opts.event;
	r.wamr = &c.side;
	r.core = fn.cf.core;
	r.func = fn.cf.func;
	r.wamr_samples = fn.samples;
	r.wamr_table = &fn.t;
	r.wamr_roles = &wr.f.roles;
	r.other_label = o.other ? o.other : o.jitdumps[0];
	r.other = p;
	r.oc = &oc;
	r.h = &h;
	r.min_samples = o.min_samples;
	r.top = o.top > UINT32_MAX ? UINT32_MAX : (uint32_t)o.top;
	if (write_outputs(&o, &r, &err)) {
		ret = cli_fail("compare", &err);
		goto out;
	}
	render__compare_text(stdout, &r);
	ret = EXIT_OK;
out:
	lp_func__exit(&olf);
	loops_side__exit(&ws);
	eng_classes__exit(&oc);
	cls_result__exit(&wr);
	engines__delete(p);
	captures__exit(&c);
	attr_args__exit(&o.a);
	return ret;
}
