// SPDX-License-Identifier: MIT
/*
 * aotperf spills: rank the compile-time spill metric (wamrc's
 * `[aot-spill-metric]` lines), join it with a recording's runtime self
 * samples, cross-check it against the frame reloads decoded from the .cwasm,
 * and diff two logs (steps 3, 5 and 6 of docs/workflow.md and its first
 * lesson: the biggest compile-time spiller may never run).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "../render/frames.h"
#include "../classify/classify.h"
#include "../render/spills.h"
#include "../util/term.h"

static const char spills_usage[] =
	"usage: aotperf spills LOG|- [--sort FIELD] [--top N] [--vs OTHER.log]\n"
	"                      [--json FILE]\n"
	"                      [-i perf.data (--cwasm FILE | --manifest M.cwasm.json)...]\n"
	"                      [--mod N]... [--lenient] [--cold-pct P] [--hot-pct P]\n"
	"                      [--heavy N] [--wide]\n"
	"\n"
	"Rank the functions of a wamrc spill metric log (WAMR_AOT_SPILL_METRIC=1, the\n"
	"[aot-spill-metric] lines of its stderr; other lines are skipped) by emitted\n"
	"reloads. With a recording, join each function with its runtime self samples\n"
	"and flag heavy spillers that never ran and hot functions with few spills.\n"
	"With cores, cross-check spill_ld against the frame reloads decoded from the\n"
	"code. With --vs, diff two logs per function.\n"
	"\n"
	"      --sort FIELD        rank by this numeric field (default spill_ld): insts,\n"
	"                          clobbers, slots, spilled_vregs, scalar, v128,\n"
	"                          slots_scalar, slots_v128, spill_st, remat,\n"
	"                          callee_saved,\n"
	"                          or any other numeric key of the log\n"
	"      --top N             functions to list (default 15, 0 = all)\n"
	"      --heavy N           the \"heavy spiller\" cut: the top N by spill_ld\n"
	"                          (default 10, 0 = all), whatever --top lists\n"
	"      --vs OTHER.log      per-function diff of FIELD, LOG before, OTHER after\n"
	"                          (sorted by |delta|, or by runtime heat with -i)\n"
	"      --json FILE         also write the result as JSON (docs/json.md);\n"
	"                          - writes it to stdout instead of the text\n"
	"      --wide              every column (default: what fits 80 columns, the\n"
	"                          terminal's width or $COLUMNS)\n"
	"      --lenient           skip malformed metric lines with a warning\n"
	"                          (default: exit 2 naming LOG:LINE)\n"
	"      --mod N             the log's mod of the i-th lone --cwasm (default 0);\n"
	"                          a manifest's cores carry their own idx\n"
	"      --cold-pct P        under P% of the run counts as runtime-cold\n"
	"                          (default 0.1)\n"
	"      --hot-pct P         P% of the run or more counts as hot (default 5)\n"
	"      --roles SPEC        register roles for the frame-reload decode\n"
	"      --frame-attribution PREFIX\n"
	"                          with cores: each listed function's compiler sidecar\n"
	"                          PREFIX.modM.funcN.json (M its log mod): its allocator\n"
	"                          loads/stores against the log's, its frame traffic by\n"
	"                          proven origin (and samples, with -i)\n"
	ATTR_USAGE
	ATTR_ARCH_USAGE
	"\n"
	"Without -i, --cwasm/--manifest only add the static cross-check.\n"
	"Exit status: 0 ok, 1 a gate failed (--require-size-match), 2 bad usage or input.\n";

#define SPILLS_MAX_MODS ATTR_MAX_BASES

struct spills_args {
	const char *json;
	const char *frame_prefix;	/* --frame-attribution */
	struct profile *frames;		/* the listed functions with their sidecars */
	struct profile *own;		/* that profile when there is no recording */
	int have_input;
	int wide;
	uint64_t mods[SPILLS_MAX_MODS];
	struct spills_opts so;
	struct attr_args a;
};

static int parse_pct(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	*out = strtod(s, &end);
	return *end || !(*out >= 0.0 && *out <= 100.0) ? -1 : 0;
}

/* --roles now, for both architectures: not after perf.data was read. */
static int check_roles(const char *spec, struct ap_err *err)
{
	struct cls_roles r;

	cls__roles_default(CWASM_ARCH_X86_64, &r);
	if (cls__roles_parse(&r, spec, err))
		return -1;
	cls__roles_default(CWASM_ARCH_AARCH64, &r);
	return cls__roles_parse(&r, spec, err);
}

static int parse_args(int argc, char **argv, struct spills_args *o, struct ap_err *err)
{
	enum { O_SORT = 256, O_TOP, O_VS, O_JSON, O_LENIENT, O_MOD, O_COLD, O_HOT, O_ROLES,
	       O_FRAME_ATTR, O_HEAVY, O_WIDE };
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		ATTR_ARCH_LONGOPT,
		{ "sort", required_argument, NULL, O_SORT },
		{ "top", required_argument, NULL, O_TOP },
		{ "vs", required_argument, NULL, O_VS },
		{ "json", required_argument, NULL, O_JSON },
		{ "lenient", no_argument, NULL, O_LENIENT },
		{ "mod", required_argument, NULL, O_MOD },
		{ "cold-pct", required_argument, NULL, O_COLD },
		{ "hot-pct", required_argument, NULL, O_HOT },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "frame-attribution", required_argument, NULL, O_FRAME_ATTR },
		{ "heavy", required_argument, NULL, O_HEAVY },
		{ "wide", no_argument, NULL, O_WIDE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct spills_opts *so = &o->so;
	int c, r;

	so->top = 15;
	so->heavy = 10;
	so->sort = "spill_ld";
	so->cold_pct = 0.1;
	so->hot_pct = 5.0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:qh", longopts, NULL)) != -1) {
		if (c == 'i')
			o->have_input = 1;
		r = attr_args__option(&o->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'h': cli_usage(spills_usage); exit(EXIT_OK);
		case O_SORT: so->sort = optarg; break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &so->top) || so->top > UINT32_MAX)
				return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", optarg);
			break;
		case O_VS: so->vs_path = optarg; break;
		case O_JSON: o->json = optarg; break;
		case O_LENIENT: so->lenient = 1; break;
		case O_MOD:
			if (so->nmods == SPILLS_MAX_MODS)
				return ap_errf(err, "--mod: at most %d", SPILLS_MAX_MODS);
			if (cli_parse_u64(optarg, 10, &o->mods[so->nmods]) ||
			    o->mods[so->nmods] > UINT32_MAX)
				return ap_errf(err, "--mod: '%s' is not a module index", optarg);
			so->nmods++;
			break;
		case O_COLD:
			if (parse_pct(optarg, &so->cold_pct))
				return ap_errf(err, "--cold-pct: '%s' is not a percentage", optarg);
			break;
		case O_HOT:
			if (parse_pct(optarg, &so->hot_pct))
				return ap_errf(err, "--hot-pct: '%s' is not a percentage", optarg);
			break;
		case O_ROLES: so->roles = optarg; break;
		case O_FRAME_ATTR: o->frame_prefix = optarg; break;
		case O_HEAVY:
			if (cli_parse_u64(optarg, 10, &so->heavy) || so->heavy > UINT32_MAX)
				return ap_errf(err, "--heavy: '%s' is not a number", optarg);
			break;
		case O_WIDE: o->wide = 1; break;
		default:
			return cli_bad_option(err, argv, optind, "i:qh", longopts);
		}
	}
	if (optind >= argc)
		return ap_errf(err, "no LOG given (the wamrc stderr with [aot-spill-metric] lines,"
			       " or - for stdin); see --help");
	so->log_path = argv[optind++];
	if (optind < argc)
		return cli_bad_argument(err, argv[optind]);
	if (so->vs_path && !strcmp(so->vs_path, "-") && !strcmp(so->log_path, "-"))
		return ap_errf(err, "LOG and --vs cannot both be stdin");
	so->mods = o->mods;
	if (o->frame_prefix && !o->a.cs.n)
		return ap_errf(err, "--frame-attribution needs the cores: --cwasm or --manifest");
	if (so->roles && check_roles(so->roles, err))
		return -1;
	if (o->have_input)
		return attr_args__check(&o->a, err);
	if (o->a.pins.n || o->a.opts.pid >= 0 || o->a.opts.event || o->a.opts.require_size_match)
		return ap_errf(err, "--base, --pid, --event and --require-size-match need -i");
	core_set__set_arch(&o->a.cs, o->a.arch);
	return 0;
}

/* --json must replace none of what was read: the logs, the cores, perf.data. */
static int check_output(const struct spills_args *o, const struct spills *s,
			struct ap_err *err)
{
	const struct ap_input in[] = { { s->log.id, s->log.path }, { s->other.id, s->other.path } };

	if (!o->json)
		return 0;
	if (ap_file__check_output(o->json, in, s->other.path ? 2 : 1, err))
		return -1;
	return o->have_input ? attr_args__check_output(&o->a, o->json, err)
			     : ap_file__check_output(o->json, o->a.cs.inputs, o->a.cs.ninputs, err);
}

static void print_warnings(const struct spills_args *o, const struct spills *s)
{
	const struct spill_log *logs[] = { &s->log, &s->other };

	if (o->a.quiet)
		return;
	for (int k = 0; k < 2; k++) {
		for (uint32_t i = 0; i < logs[k]->nwarnings; i++)
			cli_warn("spills", "%s", logs[k]->warnings[i]);
		if (logs[k]->skipped > logs[k]->nwarnings)
			cli_warn("spills", "%s: %" PRIu64 " malformed lines skipped in all",
				 logs[k]->path, logs[k]->skipped);
		if (logs[k]->ignored_keys)
			cli_warn("spills", "%s: %" PRIu64 " values of keys past the first %d ignored",
				 logs[k]->path, logs[k]->ignored_keys, SPILL_MAX_FIELDS);
	}
	if (s->name_mismatch)
		cli_warn("spills", "%s (%" PRIu64 " name(s) differ: is the log of this build?)",
			 s->first_mismatch, s->name_mismatch);
	cli_warnings("spills", &s->warnings);
}

/* The listed functions that are in a core, with their sidecars, joined with the samples. */
static int load_frames(struct spills_args *o, const struct spills *s, struct ap_err *err)
{
	struct profile *p = o->a.p;

	if (!o->frame_prefix)
		return 0;
	if (!p) {
		if (profile__new(&o->a.cs, NULL, 0, NULL, &o->own, err) ||
		    profile__finish(o->own, err))
			return -1;
		p = o->own;
	}
	for (uint32_t i = 0; i < s->ntop; i++) {
		const struct spill_rec *r = &s->log.recs[s->order[i]];
		int core = s->rec_core[s->order[i]];

		if (core < 0)
			continue;
		if (profile__add_func(p, NULL, (uint32_t)core, r->func, err) ||
		    profile__find_sidecar(p, p->nfuncs - 1, o->frame_prefix, r->mod, err))
			return -1;
	}
	o->frames = p;
	return profile__classify(p, o->so.roles, err);
}

static const struct spill_rec *frames_rec(const struct spills *s, const struct profile_func *f)
{
	for (uint32_t i = 0; i < s->ntop; i++)
		if (s->rec_core[s->order[i]] == (int)f->core &&
		    s->log.recs[s->order[i]].func == f->func)
			return &s->log.recs[s->order[i]];
	return NULL;
}

static void print_frames(const struct spills_args *o, const struct spills *s)
{
	const struct profile *p = o->frames;

	if (!p || !p->nfuncs)
		return;
	printf("\nframe origins (compiler sidecars %s.modM.funcN.json)\n", o->frame_prefix);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct profile_func *f = &p->funcs[i];
		const struct spill_rec *r = frames_rec(s, f);
		char label[64];

		spills__fn_label(s, r ? r->mod : 0, f->func, label, sizeof(label));
		render__frames_brief(stdout, label, f->sc, o->have_input, f->samples,
				     r && (r->have >> SPILL_F_SPILL_LD & 1) &&
					     (r->have >> SPILL_F_SPILL_ST & 1),
				     r ? r->v[SPILL_F_SPILL_LD] : 0, r ? r->v[SPILL_F_SPILL_ST] : 0);
	}
}

/* JSON "frame_origins": per listed function in a core, the sidecar's helper keys. */
static void json_frames(struct json_out *j, void *ctx)
{
	const struct spills_args *o = ctx;
	const struct profile *p = o->frames;

	json_key(j, "frame_origins");
	if (!p) {
		json_null(j);
		return;
	}
	json_begin_arr(j);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct profile_func *f = &p->funcs[i];
		const struct attr_core *c = &p->attr.cores[f->core];
		const struct cwasm_module *m = c->mod;

		json_begin_obj(j);
		json_key(j, "core"); json_str(j, core_set__core_name(m));
		json_key(j, "local_func"); json_u64(j, f->func);
		json_key(j, "samples"); json_u64(j, f->samples);
		if (f->sc && f->sc->fr) {
			render__frames_json(j, f->sc, (c->nmappings ? c->first_base : 0) +
							      m->funcs[f->func].offset, 1);
		} else {
			json_key(j, "frame_metadata"); json_str(j, f->sc ? f->sc->path : NULL);
			json_key(j, "frame_metadata_present"); json_bool(j, 0);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

int cmd_spills(int argc, char **argv)
{
	struct spills_args o = { 0 };
	struct spills s = { 0 };
	struct ap_err err = { 0 };
	int ret = EXIT_BAD;

	attr_args__init(&o.a, "spills");
	if (parse_args(argc, argv, &o, &err) || spills__prepare(&s, &o.so, &o.a.cs, &err) ||
	    check_output(&o, &s, &err)) {
		ret = cli_fail("spills", &err);
		goto out;
	}
	if (o.have_input) {
		ret = attr_args__read(&o.a);
		if (ret != EXIT_OK)
			goto out;
		if (spills__join(&s, o.a.p, &err)) {
			ret = cli_fail("spills", &err);
			goto out;
		}
	}
	if ((o.a.cs.n && spills__cross_check(&s, &err)) || (o.so.vs_path && spills__diff(&s, &err)) ||
	    load_frames(&o, &s, &err) ||
	    (o.json && render__spills_json_file(o.json, &s, cli_hint,
						o.frame_prefix ? json_frames : NULL, &o, &err))) {
		ret = cli_fail("spills", &err);
		goto out;
	}
	print_warnings(&o, &s);
	if (!o.json || strcmp(o.json, "-")) {	/* else stdout holds the JSON */
		render__spills_text(stdout, &s, ap_term__columns(stdout, o.wide));
		print_frames(&o, &s);
	}
	ret = EXIT_OK;
out:
	profile__delete(o.own);
	spills__exit(&s);
	attr_args__exit(&o.a);
	return ret;
}
