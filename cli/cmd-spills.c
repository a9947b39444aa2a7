// SPDX-License-Identifier: MIT
/*
 * aotperf spills: rank the compile-time spill metric (wamrc's
 * `[aot-spill-metric]` lines), join it with a recording's runtime self
 * samples, cross-check it against the frame reloads decoded from the .cwasm,
 * and diff two logs (the seed's Steps 3, 5 and 6 and its keyvault lesson:
 * the biggest compile-time spiller may never run).
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "../spills/spills-log.h"
#include "../classify/classify.h"
#include "../util/json_out.h"
#include "../util/outfile.h"

static const char spills_usage[] =
	"usage: aotperf spills LOG|- [--sort FIELD] [--top N] [--vs OTHER.log] [--json FILE]\n"
	"                      [-i perf.data (--cwasm FILE | --manifest M.cwasm.json)...]\n"
	"                      [--mod N]... [--lenient] [--cold-pct P] [--hot-pct P]\n"
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
	"                          slots_scalar, slots_v128, spill_st, remat, callee_saved,\n"
	"                          or any other numeric key of the log\n"
	"      --top N             functions to list (default 15, 0 = all); also the\n"
	"                          \"heavy spiller\" cut: the top N by spill_ld\n"
	"      --vs OTHER.log      per-function diff of FIELD, LOG before, OTHER after\n"
	"                          (sorted by |delta|, or by runtime heat with -i)\n"
	"      --json FILE         also write the result as JSON (schema in README)\n"
	"      --lenient           skip malformed metric lines with a warning\n"
	"                          (default: exit 2 naming LOG:LINE)\n"
	"      --mod N             the log's mod of the i-th lone --cwasm (default 0);\n"
	"                          a manifest's cores carry their own idx\n"
	"      --cold-pct P        under P% of the run counts as runtime-cold (default 0.1)\n"
	"      --hot-pct P         P% of the run or more counts as hot (default 5)\n"
	"      --roles SPEC        register roles for the frame-reload decode\n"
	ATTR_USAGE
	"\n"
	"Without -i, --cwasm/--manifest only add the static cross-check.\n"
	"Exit status: 0 ok, 1 a gate failed (--require-size-match), 2 bad usage or input.\n";

#define SPILLS_MAX_MODS ATTR_MAX_BASES

struct spills_opts {
	const char *log_path, *vs_path, *json, *sort, *roles;
	uint64_t top;
	int lenient, have_input;
	double cold_pct, hot_pct;
	uint64_t mods[SPILLS_MAX_MODS];
	uint32_t nmods;
	struct attr_args a;
};

/* The result, shared by the text and JSON outputs. */
struct hot_fn {
	int core;
	uint32_t func;
	uint64_t samples;
	const struct spill_rec *rec;	/* NULL: not in the log */
	uint32_t spill_rank;		/* 0 when not in the log */
	int few_spills;
};

struct diff_ent {
	uint32_t mod, func;
	const struct spill_rec *a, *b;
	int has_a, has_b;
	uint64_t va, vb;
	int64_t samples;		/* -1 unknown */
};

struct spills {
	struct spills_opts *o;
	struct spill_log log, other;
	int field, spill_field;		/* sort field id; spill_ld's id */
	uint32_t ntop;			/* rows to list (top N, capped) */
	uint32_t *order;		/* by the sort field */
	uint32_t *sp_order;		/* by spill_ld */
	uint32_t *spill_rank;		/* per rec, 1-based */
	uint32_t *core_mod;		/* per core: its mod in the log */
	int *rec_core;			/* per rec: core index or -1 */
	int64_t *static_ld;		/* per rec: decoded frame reloads, -1 unknown */
	int joined;			/* a recording was read */
	int multi;			/* several modules: label functions with mod */
	struct hot_fn *hot;
	uint32_t nhot;
	struct hot_fn hottest;		/* samples 0 when nothing ran */
	char lesson[768];
	struct diff_ent *diff;
	uint32_t ndiff;
	uint64_t name_mismatch;
	char first_mismatch[256];
	char mod_warning[256];		/* no logged function is in a given core */
};

static int parse_pct(const char *s, double *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	*out = strtod(s, &end);
	return *end || !(*out >= 0.0 && *out <= 100.0) ? -1 : 0;
}

static int parse_args(int argc, char **argv, struct spills_opts *o, struct ap_err *err)
{
	enum { O_SORT = 256, O_TOP, O_VS, O_JSON, O_LENIENT, O_MOD, O_COLD, O_HOT, O_ROLES };
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		{ "sort", required_argument, NULL, O_SORT },
		{ "top", required_argument, NULL, O_TOP },
		{ "vs", required_argument, NULL, O_VS },
		{ "json", required_argument, NULL, O_JSON },
		{ "lenient", no_argument, NULL, O_LENIENT },
		{ "mod", required_argument, NULL, O_MOD },
		{ "cold-pct", required_argument, NULL, O_COLD },
		{ "hot-pct", required_argument, NULL, O_HOT },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	o->top = 15;
	o->sort = "spill_ld";
	o->cold_pct = 0.1;
	o->hot_pct = 5.0;
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
		case 'h': fputs(spills_usage, stdout); exit(EXIT_OK);
		case O_SORT: o->sort = optarg; break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top) || o->top > UINT32_MAX)
				return ap_errf(err, "--top: '%s' is not a number", optarg);
			break;
		case O_VS: o->vs_path = optarg; break;
		case O_JSON: o->json = optarg; break;
		case O_LENIENT: o->lenient = 1; break;
		case O_MOD:
			if (o->nmods == SPILLS_MAX_MODS)
				return ap_errf(err, "--mod: at most %d", SPILLS_MAX_MODS);
			if (cli_parse_u64(optarg, 10, &o->mods[o->nmods]) ||
			    o->mods[o->nmods] > UINT32_MAX)
				return ap_errf(err, "--mod: '%s' is not a module index", optarg);
			o->nmods++;
			break;
		case O_COLD:
			if (parse_pct(optarg, &o->cold_pct))
				return ap_errf(err, "--cold-pct: '%s' is not a percentage", optarg);
			break;
		case O_HOT:
			if (parse_pct(optarg, &o->hot_pct))
				return ap_errf(err, "--hot-pct: '%s' is not a percentage", optarg);
			break;
		case O_ROLES: o->roles = optarg; break;
		default:
			return ap_errf(err, "unknown or incomplete option '%s'; see --help",
				       argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return ap_errf(err, "no LOG given (the wamrc stderr with [aot-spill-metric] lines,"
			       " or - for stdin); see --help");
	o->log_path = argv[optind++];
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	if (o->vs_path && !strcmp(o->vs_path, "-") && !strcmp(o->log_path, "-"))
		return ap_errf(err, "LOG and --vs cannot both be stdin");
	if (o->have_input)
		return attr_args__check(&o->a, err);
	if (o->a.nbases || o->a.opts.pid >= 0 || o->a.opts.event || o->a.opts.require_size_match)
		return ap_errf(err, "--base, --pid, --event and --require-size-match need -i");
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *fn_label(const struct spills *s, uint32_t mod, uint32_t func, char *buf,
			    size_t len)
{
	if (s->multi)
		snprintf(buf, len, "mod%u local_func_%u", mod, func);
	else
		snprintf(buf, len, "local_func_%u", func);
	return buf;
}

static const struct cwasm_module *core_mod(const struct spills *s, int core)
{
	return core >= 0 ? s->o->a.cs.mods[core] : NULL;
}

static int core_of_mod(const struct spills *s, uint32_t mod)
{
	for (uint32_t i = 0; i < s->o->a.cs.n; i++)
		if (s->core_mod[i] == mod)
			return (int)i;
	return -1;
}

/* Which log module each core is: manifest idx, else --mod in order, else 0. */
static int assign_mods(struct spills *s, struct ap_err *err)
{
	const struct core_set *cs = &s->o->a.cs;
	uint32_t lone = 0;

	s->core_mod = calloc(cs->n + 1, sizeof(*s->core_mod));
	if (!s->core_mod)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < cs->n; i++) {
		const struct cwasm_module *m = cs->mods[i];

		if (m->manifest_idx >= 0)
			s->core_mod[i] = (uint32_t)m->manifest_idx;
		else
			s->core_mod[i] = lone < s->o->nmods ? (uint32_t)s->o->mods[lone] : 0;
		lone += m->manifest_idx < 0;
		for (uint32_t j = 0; j < i; j++)
			if (s->core_mod[j] == s->core_mod[i])
				return ap_errf(err, "%s and %s are both log module %u; give --mod N"
					       " for each lone --cwasm", cs->mods[j]->path, m->path,
					       s->core_mod[i]);
	}
	if (s->o->nmods > lone)
		return ap_errf(err, "%u --mod for %u lone --cwasm", s->o->nmods, lone);
	return 0;
}

/*
 * Every logged function of a given core must exist in it: a log of another
 * build would join numbers that mean nothing. Differing names only warn
 * (a stripped name section is common).
 */
static int check_log_against_cores(struct spills *s, const struct spill_log *log,
				   int *rec_core, struct ap_err *err)
{
	char a[64];

	for (uint32_t i = 0; i < log->n; i++) {
		const struct spill_rec *r = &log->recs[i];
		int c = core_of_mod(s, r->mod);
		const struct cwasm_module *m = core_mod(s, c);
		const char *cname;

		if (rec_core)
			rec_core[i] = c;
		if (!m)
			continue;
		if (r->func >= m->nfuncs)
			return ap_errf(err, "%s:%u: local_func %u, but %s (log module %u) has %u"
				       " functions: the log is not of this build", log->path,
				       r->line, r->func, m->path, r->mod, m->nfuncs);
		cname = m->funcs[r->func].name;
		if (r->name && cname && strcmp(r->name, cname)) {
			if (!s->name_mismatch++)
				snprintf(s->first_mismatch, sizeof(s->first_mismatch),
					 "%s:%u: %s is '%s' in the log but '%s' in %s", log->path,
					 r->line, fn_label(s, r->mod, r->func, a, sizeof(a)),
					 r->name, cname, m->path);
		}
	}
	return 0;
}

static uint64_t rec_samples(const struct spills *s, uint32_t ri)
{
	int c = s->rec_core[ri];

	return s->joined && c >= 0 ? s->o->a.res.cores[c].func_samples[s->log.recs[ri].func] : 0;
}

static int known_samples(const struct spills *s, uint32_t ri)
{
	return s->joined && s->rec_core[ri] >= 0;
}

static uint64_t rec_val(const struct spills *s, const struct spill_rec *r, int field)
{
	uint64_t v = 0;

	spill_log__get(&s->log, r, field, &v);
	return v;
}

/* Decode the listed functions' code and count frame-slot reads. */
static void decode_static(struct spills *s, uint32_t ri, const struct cls_roles *roles_x86,
			  const struct cls_roles *roles_a64)
{
	const struct spill_rec *r = &s->log.recs[ri];
	const struct cwasm_module *m = core_mod(s, s->rec_core[ri]);
	const struct cwasm_func *fn;
	struct cls_func f;
	struct ap_err err;

	if (!m || s->static_ld[ri] >= 0)
		return;
	fn = &m->funcs[r->func];
	if ((uint64_t)fn->offset + fn->size > m->text_size)
		return;
	if (cls__decode(m->target.arch, m->target.arch == CWASM_ARCH_AARCH64 ? roles_a64 : roles_x86,
			m->text + fn->offset, fn->size, fn->offset, &f, &err)) {
		if (!s->o->a.opts.quiet)
			cli_warn("spills", "%s: local_func_%u: %s", m->path, r->func, err.msg);
		return;
	}
	s->static_ld[ri] = f.static_count[CLS_FRAME_LOAD] + f.static_count[CLS_VMCTX_RELOAD];
	cls_func__exit(&f);
}

static int cross_check(struct spills *s, struct ap_err *err)
{
	struct cls_roles rx, ra;

	cls__roles_default(CWASM_ARCH_X86_64, &rx);
	cls__roles_default(CWASM_ARCH_AARCH64, &ra);
	if (s->o->roles && (cls__roles_parse(&rx, s->o->roles, err) ||
			    cls__roles_parse(&ra, s->o->roles, err)))
		return -1;
	for (uint32_t i = 0; i < s->ntop; i++)
		decode_static(s, s->order[i], &rx, &ra);
	for (uint32_t i = 0; i < s->nhot; i++)
		if (s->hot[i].rec)
			decode_static(s, (uint32_t)(s->hot[i].rec - s->log.recs), &rx, &ra);
	return 0;
}

static int hot_cmp(const void *x, const void *y)
{
	const struct hot_fn *a = x, *b = y;

	if (a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (a->core != b->core)
		return a->core < b->core ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

static void fill_hot(struct spills *s, struct hot_fn *h)
{
	uint64_t top_ld = rec_val(s, &s->log.recs[s->sp_order[0]], s->spill_field);

	h->rec = spill_log__find(&s->log, s->core_mod[h->core], h->func);
	h->spill_rank = h->rec ? s->spill_rank[h->rec - s->log.recs] : 0;
	/* few: outside the heavy spillers and under a tenth of the #1 */
	h->few_spills = !h->rec || (h->spill_rank > s->ntop &&
				    rec_val(s, h->rec, s->spill_field) * 10 < top_ld);
}

/* The hottest function, and every function at --hot-pct or more (at most top N). */
static int compute_hot(struct spills *s, struct ap_err *err)
{
	const struct attr_result *res = &s->o->a.res;
	uint64_t n = 0;
	struct hot_fn *all;

	for (uint32_t c = 0; c < res->ncores; c++)
		for (uint32_t f = 0; f < res->cores[c].mod->nfuncs; f++)
			n += res->cores[c].func_samples[f] != 0;
	all = calloc(n + 1, sizeof(*all));
	if (!all)
		return ap_err_nomem(err);
	n = 0;
	for (uint32_t c = 0; c < res->ncores; c++)
		for (uint32_t f = 0; f < res->cores[c].mod->nfuncs; f++)
			if (res->cores[c].func_samples[f])
				all[n++] = (struct hot_fn){ .core = (int)c, .func = f,
							    .samples = res->cores[c].func_samples[f] };
	qsort(all, n, sizeof(*all), hot_cmp);
	for (uint64_t i = 0; i < n && i < s->ntop; i++) {
		if (pct(all[i].samples, res->total_samples) < s->o->hot_pct)
			break;
		fill_hot(s, &all[i]);
		s->nhot = (uint32_t)i + 1;
	}
	if (n) {
		fill_hot(s, &all[0]);
		s->hottest = all[0];
	}
	s->hot = all;
	return 0;
}

static const char *heat_str(const struct spills *s, uint64_t samples, char *buf, size_t len)
{
	uint64_t total = s->o->a.res.total_samples;

	if (!samples)
		snprintf(buf, len, "0 samples");
	else
		snprintf(buf, len, "%.1f%% of run", pct(samples, total));
	return buf;
}

/*
 * The seed's lesson as one line: where the #1 compile-time spiller and the
 * hottest function stand against each other.
 */
static void make_lesson(struct spills *s)
{
	uint32_t top = s->sp_order[0];
	const struct spill_rec *r = &s->log.recs[top];
	const struct hot_fn *h = &s->hottest;
	char a[64], b[64], ha[96], hb[48], tail[200];
	uint64_t sa = rec_samples(s, top);
	double pa = pct(sa, s->o->a.res.total_samples);

	fn_label(s, r->mod, r->func, a, sizeof(a));
	if (!h->samples) {
		snprintf(s->lesson, sizeof(s->lesson),
			 "no samples landed in the given cores: nothing to join");
		return;
	}
	fn_label(s, s->core_mod[h->core], h->func, b, sizeof(b));
	heat_str(s, h->samples, hb, sizeof(hb));
	if (h->rec == r) {
		snprintf(s->lesson, sizeof(s->lesson),
			 "the #1 compile-time spiller %s is also the hottest function (%s):"
			 " its spills are the place to start", a, hb);
		return;
	}
	if (!h->rec)
		snprintf(tail, sizeof(tail), "is not in the log (no spills reported):"
			 " the cost is elsewhere");
	else if (h->few_spills)
		snprintf(tail, sizeof(tail), "is spiller #%u with few spills (spill_ld %" PRIu64
			 "): the cost is elsewhere", h->spill_rank, rec_val(s, h->rec, s->spill_field));
	else
		snprintf(tail, sizeof(tail), "is spiller #%u", h->spill_rank);
	if (!known_samples(s, top))
		snprintf(ha, sizeof(ha), "in a module with no core given");
	else if (!sa)
		snprintf(ha, sizeof(ha), "runtime-cold (0 samples)");
	else if (pa < s->o->cold_pct)
		snprintf(ha, sizeof(ha), "runtime-cold (%" PRIu64 " samples, %.2f%% of run)", sa, pa);
	else
		snprintf(ha, sizeof(ha), "at %.1f%% of run", pa);
	snprintf(s->lesson, sizeof(s->lesson), "the #1 compile-time spiller %s is %s;"
		 " the hottest function %s (%s) %s", a, ha, b, hb, tail);
}

static int diff_cmp(const void *x, const void *y, void *ctx)
{
	const struct diff_ent *a = x, *b = y;
	const int *by_heat = ctx;
	uint64_t da = a->va > a->vb ? a->va - a->vb : a->vb - a->va;
	uint64_t db = b->va > b->vb ? b->va - b->vb : b->vb - b->va;

	if (*by_heat && a->samples != b->samples)
		return a->samples > b->samples ? -1 : 1;
	if (da != db)
		return da > db ? -1 : 1;
	if (a->mod != b->mod)
		return a->mod < b->mod ? -1 : 1;
	return a->func < b->func ? -1 : a->func > b->func;
}

static int64_t key_samples(const struct spills *s, uint32_t mod, uint32_t func)
{
	int c = core_of_mod(s, mod);

	if (!s->joined || c < 0)
		return -1;
	return (int64_t)s->o->a.res.cores[c].func_samples[func];
}

/* Both logs merged on (mod, func): a value absent from one side counts as 0. */
static int build_diff(struct spills *s, struct ap_err *err)
{
	const struct spill_log *A = &s->log, *B = &s->other;
	int fb = spill_log__field(B, s->o->sort), by_heat = s->joined;
	uint32_t i = 0, j = 0;

	s->diff = calloc((size_t)A->n + B->n + 1, sizeof(*s->diff));
	if (!s->diff)
		return ap_err_nomem(err);
	while (i < A->n || j < B->n) {
		const struct spill_rec *a = i < A->n ? &A->recs[A->by_key[i]] : NULL;
		const struct spill_rec *b = j < B->n ? &B->recs[B->by_key[j]] : NULL;
		struct diff_ent *d = &s->diff[s->ndiff++];
		int c = !a ? 1 : !b ? -1 : a->mod != b->mod ? (a->mod < b->mod ? -1 : 1)
			: a->func != b->func ? (a->func < b->func ? -1 : 1) : 0;

		d->a = c <= 0 ? a : NULL;
		d->b = c >= 0 ? b : NULL;
		i += c <= 0;
		j += c >= 0;
		d->mod = d->a ? d->a->mod : d->b->mod;
		d->func = d->a ? d->a->func : d->b->func;
		d->has_a = d->a && spill_log__get(A, d->a, s->field, &d->va);
		d->has_b = d->b && spill_log__get(B, d->b, fb, &d->vb);
		d->samples = key_samples(s, d->mod, d->func);
	}
	qsort_r(s->diff, s->ndiff, sizeof(*s->diff), diff_cmp, &by_heat);
	return 0;
}

static const char *diff_name(const struct diff_ent *d)
{
	return d->a && d->a->name ? d->a->name : d->b && d->b->name ? d->b->name : "";
}

/* Percent change, NAN when there is no "before". */
static double diff_pct(const struct diff_ent *d)
{
	if (!d->has_a || !d->has_b || !d->va)
		return NAN;
	return 100.0 * ((double)d->vb - (double)d->va) / (double)d->va;
}

static void print_u64_or_dash(int width, int have, uint64_t v)
{
	if (have)
		printf(" %*" PRIu64, width, v);
	else
		printf(" %*s", width, "-");
}

static const char *note_of(const struct spills *s, uint32_t ri)
{
	uint64_t n = rec_samples(s, ri);
	double p = pct(n, s->o->a.res.total_samples);

	if (!known_samples(s, ri))
		return "";
	if (!n)
		return "never-run";
	if (p < s->o->cold_pct)
		return "barely-run";
	return p >= s->o->hot_pct ? "hot" : "";
}

/* Fields every row shows; the sort field gets a column when it is another. */
static const int shown[] = { SPILL_F_INSTS, SPILL_F_SPILLED_VREGS, SPILL_F_SPILL_LD,
			     SPILL_F_SPILL_ST };
static const char *const shown_hdr[] = { "insts", "sp_vregs", "spill_ld", "spill_st" };

static int sort_is_shown(const struct spills *s)
{
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		if (shown[k] == s->field)
			return 1;
	return s->field == SPILL_F_MOD || s->field == SPILL_F_LOCAL_FUNC;
}

static void print_row(const struct spills *s, uint32_t rank, uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	int cores = s->o->a.cs.n > 0;
	char lbl[64];
	uint64_t v = 0;

	/* mod has its own column */
	snprintf(lbl, sizeof(lbl), "local_func_%u", r->func);
	printf("  %4u %4u  %-18s", rank, r->mod, lbl);
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
		int have = spill_log__get(&s->log, r, shown[k], &v);

		print_u64_or_dash(9, have, v);
	}
	if (!sort_is_shown(s)) {
		int have = spill_log__get(&s->log, r, s->field, &v);

		print_u64_or_dash(12, have, v);
	}
	if (s->joined) {
		if (known_samples(s, ri))
			printf(" %8" PRIu64 " %6.2f%%", rec_samples(s, ri),
			       pct(rec_samples(s, ri), s->o->a.res.total_samples));
		else
			printf(" %8s %7s", "-", "-");
	}
	if (cores) {
		uint64_t ld = r->v[SPILL_F_SPILL_LD];

		if (s->static_ld[ri] < 0)
			printf(" %8s %6s", "-", "-");
		else if (!ld)
			printf(" %8" PRId64 " %6s", s->static_ld[ri], "-");
		else
			printf(" %8" PRId64 " %6.2f", s->static_ld[ri],
			       (double)s->static_ld[ri] / (double)ld);
	}
	if (s->joined)
		printf("  %-10s", note_of(s, ri));
	printf("  %s\n", r->name ? r->name : "");
}

static void print_header(const struct spills *s)
{
	printf("\n  %4s %4s  %-18s", "rank", "mod", "function");
	for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++)
		printf(" %9s", shown_hdr[k]);
	if (!sort_is_shown(s))
		printf(" %12s", s->o->sort);
	if (s->joined)
		printf(" %8s %7s", "samples", "%run");
	if (s->o->a.cs.n)
		printf(" %8s %6s", "frame_ld", "ratio");
	if (s->joined)
		printf("  %-10s", "runtime");
	printf("  %s\n", "name");
}

static uint64_t field_total(const struct spill_log *log, int field)
{
	uint64_t t = 0, v;

	for (uint32_t i = 0; i < log->n; i++)
		if (spill_log__get(log, &log->recs[i], field, &v))
			t += v;
	return t;
}

static void print_cores(const struct spills *s)
{
	const struct attr_result *res = &s->o->a.res;

	if (s->joined)
		printf("  recording  %s: %" PRIu64 " samples, %" PRIu64 " in the cores (%.1f%%)\n",
		       s->o->a.input, res->total_samples, res->attributed_samples,
		       pct(res->attributed_samples, res->total_samples));
	for (uint32_t i = 0; i < s->o->a.cs.n; i++)
		printf("  core       %s = log mod %u (%u functions)\n", s->o->a.cs.mods[i]->path,
		       s->core_mod[i], s->o->a.cs.mods[i]->nfuncs);
}

static void print_flags(const struct spills *s)
{
	uint64_t total = s->o->a.res.total_samples;
	char lbl[64], heat[48];
	int any = 0;

	for (uint32_t i = 0; i < s->ntop; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];
		uint64_t n = rec_samples(s, ri);

		if (!known_samples(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    pct(n, total) >= s->o->cold_pct)
			continue;
		if (!any++)
			printf("\nruntime-cold heavy spillers (top %u by spill_ld, under %g%% of run):"
			       " never or barely executed, don't optimize them first\n", s->ntop,
			       s->o->cold_pct);
		printf("  spiller #%-4u %-24s spill_ld %-10" PRIu64 " %s%s%s\n", i + 1,
		       fn_label(s, r->mod, r->func, lbl, sizeof(lbl)), r->v[SPILL_F_SPILL_LD],
		       n ? heat_str(s, n, heat, sizeof(heat)) : "0 samples (never executed)",
		       r->name ? "  " : "", r->name ? r->name : "");
	}
	if (s->nhot)
		printf("\nhot functions (%g%% of run or more):\n", s->o->hot_pct);
	for (uint32_t i = 0; i < s->nhot; i++) {
		const struct hot_fn *h = &s->hot[i];
		const struct cwasm_func *f = &core_mod(s, h->core)->funcs[h->func];

		printf("  %-24s %6.2f%% of run  ",
		       fn_label(s, s->core_mod[h->core], h->func, lbl, sizeof(lbl)),
		       pct(h->samples, total));
		if (!h->rec)
			printf("not in the log (no spills reported): the cost is elsewhere");
		else
			printf("spill_ld %" PRIu64 ", spiller #%u%s", h->rec->v[SPILL_F_SPILL_LD],
			       h->spill_rank, h->few_spills ? ": few spills, the cost is elsewhere" : "");
		printf("%s%s\n", f->name ? "  " : "", f->name ? f->name : "");
	}
	printf("\nlesson: %s\n", s->lesson);
}

static void print_ranking(const struct spills *s)
{
	const struct spill_log *log = &s->log;

	printf("aotperf spills: %s: %u functions from %" PRIu64 " metric lines (%" PRIu64
	       " lines), ranked by %s\n", log->path, log->n, log->metric_lines, log->lines,
	       s->o->sort);
	printf("  totals     spill_ld %" PRIu64 ", spill_st %" PRIu64 "\n",
	       field_total(log, SPILL_F_SPILL_LD), field_total(log, SPILL_F_SPILL_ST));
	print_cores(s);
	print_header(s);
	for (uint32_t i = 0; i < s->ntop; i++)
		print_row(s, i + 1, s->order[i]);
	if (s->ntop < log->n)
		printf("  ... %u more (--top 0 lists all)\n", log->n - s->ntop);
	if (s->o->a.cs.n)
		printf("\n  frame_ld: frame-slot reads decoded from the core's code (classes"
		       "\n  frame_load and vmctx_reload);"
		       "\n  ratio = frame_ld / spill_ld, about 1 when the metric and the code agree\n");
	if (s->joined)
		print_flags(s);
}

static void print_diff(const struct spills *s)
{
	uint64_t ta = field_total(&s->log, s->field);
	uint64_t tb = field_total(&s->other, spill_log__field(&s->other, s->o->sort));
	uint32_t both = 0, only_a = 0, only_b = 0, nrows;
	char lbl[64];

	for (uint32_t i = 0; i < s->ndiff; i++) {
		both += s->diff[i].a && s->diff[i].b;
		only_a += !s->diff[i].b;
		only_b += !s->diff[i].a;
	}
	nrows = s->o->top && s->o->top < s->ndiff ? (uint32_t)s->o->top : s->ndiff;
	printf("aotperf spills: %s vs %s: %s per function (sorted by %s)\n", s->log.path,
	       s->other.path, s->o->sort, s->joined ? "runtime heat" : "|delta|");
	printf("  total %s %" PRIu64 " -> %" PRIu64 " (%+.1f%%); %u functions in both,"
	       " %u only in %s, %u only in %s\n", s->o->sort, ta, tb,
	       ta ? 100.0 * ((double)tb - (double)ta) / (double)ta : 0.0, both, only_a,
	       s->log.path, only_b, s->other.path);
	print_cores(s);
	printf("\n  %4s  %-18s %10s %10s %10s %8s", "mod", "function", "before", "after", "delta",
	       "%");
	if (s->joined)
		printf(" %8s %7s", "samples", "%run");
	printf("  name\n");
	for (uint32_t i = 0; i < nrows; i++) {
		const struct diff_ent *d = &s->diff[i];
		double p = diff_pct(d);

		snprintf(lbl, sizeof(lbl), "local_func_%u", d->func);
		printf("  %4u  %-18s", d->mod, lbl);
		print_u64_or_dash(10, d->has_a, d->va);
		print_u64_or_dash(10, d->has_b, d->vb);
		if (d->a && d->b)
			printf(" %+10" PRId64, (int64_t)(d->vb - d->va));
		else
			printf(" %10s", d->a ? "only-before" : "only-after");
		if (isnan(p))
			printf(" %8s", "-");
		else
			printf(" %+7.1f%%", p);
		if (d->samples >= 0)
			printf(" %8" PRId64 " %6.2f%%", d->samples,
			       pct((uint64_t)d->samples, s->o->a.res.total_samples));
		else if (s->joined)
			printf(" %8s %7s", "-", "-");
		printf("  %s\n", diff_name(d));
	}
	if (nrows < s->ndiff)
		printf("  ... %u more (--top 0 lists all)\n", s->ndiff - nrows);
	if (s->joined && s->hottest.samples) {
		const struct hot_fn *h = &s->hottest;
		const struct spill_rec *b = spill_log__find(&s->other, s->core_mod[h->core], h->func);
		uint64_t va = 0, vb = 0;
		int ha = h->rec && spill_log__get(&s->log, h->rec, s->field, &va);
		int hb = b && spill_log__get(&s->other, b, spill_log__field(&s->other, s->o->sort), &vb);
		char heat[48];

		printf("\nhottest function %s (%s): %s ",
		       fn_label(s, s->core_mod[h->core], h->func, lbl, sizeof(lbl)),
		       heat_str(s, h->samples, heat, sizeof(heat)), s->o->sort);
		if (ha && hb)
			printf("%" PRIu64 " -> %" PRIu64 " (%+.1f%%)\n", va, vb,
			       va ? 100.0 * ((double)vb - (double)va) / (double)va : 0.0);
		else
			printf("%s in %s, %s in %s\n", ha ? "present" : "absent", s->log.path,
			       hb ? "present" : "absent", s->other.path);
	}
}

static void json_opt_u64(struct json_out *j, int have, uint64_t v)
{
	if (have)
		json_u64(j, v);
	else
		json_null(j);
}

static void json_metrics(struct json_out *j, const struct spill_log *log,
			 const struct spill_rec *r)
{
	uint64_t v;

	json_key(j, "metrics");
	json_begin_obj(j);
	for (uint32_t f = 0; f < log->nfields; f++)
		if (spill_log__get(log, r, (int)f, &v)) {
			json_key(j, log->fields[f]);
			json_u64(j, v);
		}
	json_end_obj(j);
}

static void json_heat(struct json_out *j, const struct spills *s, int known, uint64_t n)
{
	json_key(j, "samples");
	json_opt_u64(j, known, n);
	json_key(j, "percent_of_run");
	if (known)
		json_dbl(j, pct(n, s->o->a.res.total_samples), 4);
	else
		json_null(j);
}

static void json_function(struct json_out *j, const struct spills *s, uint32_t rank,
			  uint32_t ri)
{
	const struct spill_rec *r = &s->log.recs[ri];
	uint64_t ld = r->v[SPILL_F_SPILL_LD];

	json_begin_obj(j);
	json_key(j, "rank"); json_u64(j, rank);
	json_key(j, "mod"); json_u64(j, r->mod);
	json_key(j, "local_func"); json_u64(j, r->func);
	json_key(j, "name"); json_str(j, r->name);
	json_key(j, "line"); json_u64(j, r->line);
	json_key(j, "spill_rank"); json_u64(j, s->spill_rank[ri]);
	json_metrics(j, &s->log, r);
	json_heat(j, s, known_samples(s, ri), rec_samples(s, ri));
	json_key(j, "runtime");
	if (known_samples(s, ri))
		json_str(j, note_of(s, ri));
	else
		json_null(j);
	json_key(j, "static_frame_loads");
	json_opt_u64(j, s->static_ld[ri] >= 0, (uint64_t)s->static_ld[ri]);
	json_key(j, "static_to_spill_ld");
	if (s->static_ld[ri] >= 0 && ld)
		json_dbl(j, (double)s->static_ld[ri] / (double)ld, 4);
	else
		json_null(j);
	json_end_obj(j);
}

static void json_hot(struct json_out *j, const struct spills *s, const struct hot_fn *h)
{
	const struct cwasm_func *f = &core_mod(s, h->core)->funcs[h->func];

	json_begin_obj(j);
	json_key(j, "mod"); json_u64(j, s->core_mod[h->core]);
	json_key(j, "local_func"); json_u64(j, h->func);
	json_key(j, "name"); json_str(j, f->name);
	json_heat(j, s, 1, h->samples);
	json_key(j, "in_log"); json_bool(j, h->rec != NULL);
	json_key(j, "spill_ld"); json_opt_u64(j, h->rec != NULL, h->rec ? h->rec->v[SPILL_F_SPILL_LD] : 0);
	json_key(j, "spill_rank"); json_opt_u64(j, h->rec != NULL, h->spill_rank);
	json_key(j, "few_spills"); json_bool(j, h->few_spills);
	json_end_obj(j);
}

static void json_runtime(struct json_out *j, const struct spills *s)
{
	uint64_t total = s->o->a.res.total_samples;

	json_key(j, "runtime_cold_spillers");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->ntop; i++) {
		uint32_t ri = s->sp_order[i];
		const struct spill_rec *r = &s->log.recs[ri];

		if (!known_samples(s, ri) || !r->v[SPILL_F_SPILL_LD] ||
		    pct(rec_samples(s, ri), total) >= s->o->cold_pct)
			continue;
		json_begin_obj(j);
		json_key(j, "spill_rank"); json_u64(j, i + 1);
		json_key(j, "mod"); json_u64(j, r->mod);
		json_key(j, "local_func"); json_u64(j, r->func);
		json_key(j, "name"); json_str(j, r->name);
		json_key(j, "spill_ld"); json_u64(j, r->v[SPILL_F_SPILL_LD]);
		json_heat(j, s, 1, rec_samples(s, ri));
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "hot_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->nhot; i++)
		json_hot(j, s, &s->hot[i]);
	json_end_arr(j);
	json_key(j, "hottest");
	if (s->hottest.samples)
		json_hot(j, s, &s->hottest);
	else
		json_null(j);
	json_key(j, "lesson"); json_str(j, s->lesson);
}

static void json_diff(struct json_out *j, const struct spills *s)
{
	uint32_t both = 0, only_a = 0, only_b = 0;

	for (uint32_t i = 0; i < s->ndiff; i++) {
		both += s->diff[i].a && s->diff[i].b;
		only_a += !s->diff[i].b;
		only_b += !s->diff[i].a;
	}
	json_begin_obj(j);
	json_key(j, "log"); json_str(j, s->other.path);
	json_key(j, "field"); json_str(j, s->o->sort);
	json_key(j, "total_before"); json_u64(j, field_total(&s->log, s->field));
	json_key(j, "total_after");
	json_u64(j, field_total(&s->other, spill_log__field(&s->other, s->o->sort)));
	json_key(j, "in_both"); json_u64(j, both);
	json_key(j, "only_before"); json_u64(j, only_a);
	json_key(j, "only_after"); json_u64(j, only_b);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->ndiff; i++) {
		const struct diff_ent *d = &s->diff[i];
		double p = diff_pct(d);

		json_begin_obj(j);
		json_key(j, "mod"); json_u64(j, d->mod);
		json_key(j, "local_func"); json_u64(j, d->func);
		json_key(j, "name"); json_str(j, *diff_name(d) ? diff_name(d) : NULL);
		json_key(j, "before"); json_opt_u64(j, d->has_a, d->va);
		json_key(j, "after"); json_opt_u64(j, d->has_b, d->vb);
		json_key(j, "delta");
		if (d->a && d->b)
			json_i64(j, (int64_t)(d->vb - d->va));
		else
			json_null(j);
		json_key(j, "percent");
		if (isnan(p))
			json_null(j);
		else
			json_dbl(j, p, 4);
		json_key(j, "only_in");
		if (d->a && d->b)
			json_null(j);
		else
			json_str(j, d->a ? "before" : "after");
		json_heat(j, s, d->samples >= 0, d->samples >= 0 ? (uint64_t)d->samples : 0);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void json_warnings(struct json_out *j, const struct spills *s)
{
	json_key(j, "name_mismatches"); json_u64(j, s->name_mismatch);
	json_key(j, "warnings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < s->log.nwarnings; i++)
		json_str(j, s->log.warnings[i]);
	for (uint32_t i = 0; i < s->other.nwarnings; i++)
		json_str(j, s->other.warnings[i]);
	if (s->name_mismatch)
		json_str(j, s->first_mismatch);
	if (*s->mod_warning)
		json_str(j, s->mod_warning);
	for (uint32_t i = 0; s->joined && i < s->o->a.res.nwarnings; i++)
		json_str(j, s->o->a.res.warnings[i]);
	json_end_arr(j);
}

static int write_json(const struct spills *s, struct ap_err *err)
{
	const struct attr_result *res = &s->o->a.res;
	struct outfile out;
	struct json_out j;

	if (outfile__open(&out, s->o->json, err))
		return -1;
	json_init(&j, out.f);
	json_begin_obj(&j);
	json_key(&j, "schema_version"); json_u64(&j, 1);
	json_key(&j, "tool"); json_str(&j, "aotperf spills");
	json_key(&j, "log"); json_str(&j, s->log.path);
	json_key(&j, "lines"); json_u64(&j, s->log.lines);
	json_key(&j, "metric_lines"); json_u64(&j, s->log.metric_lines);
	json_key(&j, "skipped_lines"); json_u64(&j, s->log.skipped);
	json_key(&j, "function_count"); json_u64(&j, s->log.n);
	json_key(&j, "sort"); json_str(&j, s->o->sort);
	json_key(&j, "top"); json_u64(&j, s->ntop);
	json_key(&j, "totals");
	json_begin_obj(&j);
	json_key(&j, "spill_ld"); json_u64(&j, field_total(&s->log, SPILL_F_SPILL_LD));
	json_key(&j, "spill_st"); json_u64(&j, field_total(&s->log, SPILL_F_SPILL_ST));
	json_end_obj(&j);
	json_key(&j, "perf");
	json_str(&j, s->joined ? s->o->a.input : NULL);
	json_key(&j, "total_samples"); json_opt_u64(&j, s->joined, res->total_samples);
	json_key(&j, "attributed_samples"); json_opt_u64(&j, s->joined, res->attributed_samples);
	json_key(&j, "cores");
	json_begin_arr(&j);
	for (uint32_t i = 0; i < s->o->a.cs.n; i++) {
		json_begin_obj(&j);
		json_key(&j, "cwasm"); json_str(&j, s->o->a.cs.mods[i]->path);
		json_key(&j, "mod"); json_u64(&j, s->core_mod[i]);
		json_key(&j, "function_count"); json_u64(&j, s->o->a.cs.mods[i]->nfuncs);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_key(&j, "functions");
	json_begin_arr(&j);
	for (uint32_t i = 0; i < s->ntop; i++)
		json_function(&j, s, i + 1, s->order[i]);
	json_end_arr(&j);
	if (s->joined) {
		json_runtime(&j, s);
	} else {
		json_key(&j, "runtime_cold_spillers"); json_null(&j);
		json_key(&j, "hot_functions"); json_null(&j);
		json_key(&j, "hottest"); json_null(&j);
		json_key(&j, "lesson"); json_null(&j);
	}
	json_key(&j, "vs");
	if (s->o->vs_path)
		json_diff(&j, s);
	else
		json_null(&j);
	json_warnings(&j, s);
	json_end_obj(&j);
	json_finish(&j);
	return outfile__commit(&out, err);
}

static void spills_free(struct spills *s)
{
	spill_log__exit(&s->log);
	spill_log__exit(&s->other);
	free(s->order);
	free(s->sp_order);
	free(s->spill_rank);
	free(s->core_mod);
	free(s->rec_core);
	free(s->static_ld);
	free(s->hot);
	free(s->diff);
}

/* Read the logs, check them against the cores, rank. */
static int prepare(struct spills *s, struct ap_err *err)
{
	struct spills_opts *o = s->o;
	int *other_core = NULL, ret;

	if (spill_log__read(&s->log, o->log_path, o->lenient, err))
		return -1;
	if (o->vs_path && spill_log__read(&s->other, o->vs_path, o->lenient, err))
		return -1;
	s->field = spill_log__field(&s->log, o->sort);
	s->spill_field = SPILL_F_SPILL_LD;
	if (s->field < 0)
		return ap_errf(err, "--sort: %s has no numeric field '%s'", s->log.path, o->sort);
	if (assign_mods(s, err))
		return -1;
	s->rec_core = calloc(s->log.n + 1, sizeof(*s->rec_core));
	s->static_ld = malloc((s->log.n + 1) * sizeof(*s->static_ld));
	s->spill_rank = calloc(s->log.n + 1, sizeof(*s->spill_rank));
	s->order = spill_log__rank(&s->log, s->field);
	s->sp_order = spill_log__rank(&s->log, s->spill_field);
	if (o->vs_path)
		other_core = calloc(s->other.n + 1, sizeof(*other_core));
	if (!s->rec_core || !s->static_ld || !s->spill_rank || !s->order || !s->sp_order ||
	    (o->vs_path && !other_core)) {
		free(other_core);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < s->log.n; i++) {
		s->static_ld[i] = -1;
		s->spill_rank[s->sp_order[i]] = i + 1;
		s->multi |= s->log.recs[i].mod != 0;
	}
	s->multi |= o->a.cs.n > 1;
	s->ntop = o->top && o->top < s->log.n ? (uint32_t)o->top : s->log.n;
	ret = check_log_against_cores(s, &s->log, s->rec_core, err);
	if (!ret && o->a.cs.n) {
		uint32_t i = 0;

		while (i < s->log.n && s->rec_core[i] < 0)
			i++;
		if (i == s->log.n)
			snprintf(s->mod_warning, sizeof(s->mod_warning),
				 "no function of %s is in the given cores (its first is mod %u);"
				 " a per-core .cwasm of a component needs --mod N", s->log.path,
				 s->log.recs[0].mod);
	}
	if (!ret && o->vs_path)
		ret = check_log_against_cores(s, &s->other, other_core, err);
	free(other_core);
	return ret;
}

static void print_warnings(const struct spills *s)
{
	const struct spill_log *logs[] = { &s->log, &s->other };

	if (s->o->a.opts.quiet)
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
	if (*s->mod_warning)
		cli_warn("spills", "%s", s->mod_warning);
}

int cmd_spills(int argc, char **argv)
{
	struct spills_opts o = { 0 };
	struct spills s = { 0 };
	struct ap_err err = { 0 };
	int ret = EXIT_BAD;

	attr_args__init(&o.a, "spills");
	s.o = &o;
	if (parse_args(argc, argv, &o, &err) || prepare(&s, &err)) {
		ret = cli_fail("spills", &err);
		goto out;
	}
	if (o.have_input) {
		ret = attr_args__run(&o.a);
		if (ret != EXIT_OK)
			goto out;
		s.joined = 1;
		if (compute_hot(&s, &err)) {
			ret = cli_fail("spills", &err);
			goto out;
		}
		make_lesson(&s);
	}
	if ((o.a.cs.n && cross_check(&s, &err)) || (o.vs_path && build_diff(&s, &err)) ||
	    (o.json && write_json(&s, &err))) {
		ret = cli_fail("spills", &err);
		goto out;
	}
	print_warnings(&s);
	if (o.vs_path)
		print_diff(&s);
	else
		print_ranking(&s);
	ret = EXIT_OK;
out:
	spills_free(&s);
	attr_args__exit(&o.a);
	return ret;
}
