// SPDX-License-Identifier: MIT
/* report --levers: options, the spill log, the table into each profile (levers-args.h). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "levers-args.h"

void levers_args__init(struct levers_args *l)
{
	memset(l, 0, sizeof(*l));
	l->o.share = LP_LEVERS_SHARE_DEFAULT;
	l->o.max_funcs = LP_LEVERS_FUNCS_DEFAULT;
	l->o.loop_min = LP_LEVERS_LOOP_MIN_DEFAULT;
}

static int pct(const char *opt, const char *arg, double *out, struct ap_err *err)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0 && v <= 100))
		return ap_errf(err, "%s: '%s' is not a percentage above 0, at most 100", opt, arg);
	*out = v;
	return 0;
}

int levers_args__option(struct levers_args *l, int c, const char *arg, struct ap_err *err)
{
	uint64_t v;

	switch (c) {
	case LEVERS_OPT_ON:
		break;
	case LEVERS_OPT_SHARE:
		if (pct("--levers-share", arg, &l->o.share, err))
			return -1;
		break;
	case LEVERS_OPT_LOOP_MIN:
		if (pct("--levers-loop-min", arg, &l->o.loop_min, err))
			return -1;
		break;
	case LEVERS_OPT_MAX:
		if (cli_parse_u64(arg, 10, &v) || !v || v > LP_LEVERS_MAX_FUNCS)
			return ap_errf(err, "--levers-max: '%s' is not a number from 1 to %d", arg,
				       LP_LEVERS_MAX_FUNCS);
		l->o.max_funcs = (uint32_t)v;
		break;
	case LEVERS_OPT_SPILLS:
		l->spill_path = arg;
		break;
	default:
		return 0;
	}
	l->on = 1;
	return 1;
}

/* The log's spill_ld of local function func of core (opts.spill_ld). */
static int log_spill_ld(const void *ctx, uint32_t core, uint32_t func, uint64_t *out)
{
	const struct levers_args *l = ctx;
	const struct spill_rec *r = spill_log__find(&l->log, core < LEVERS_MAX_CORES ?
						    (uint32_t)l->mods[core] : 0, func);

	return r && spill_log__get(&l->log, r, SPILL_F_SPILL_LD, out);
}

int levers_args__prepare(struct levers_args *l, const struct core_set *cs, const char *roles,
			 struct ap_err *err)
{
	l->o.roles = roles;
	if (!l->on || !l->spill_path)
		return 0;
	l->log_read = 1;	/* spill_log__read initialises it, and it is to be freed even on failure */
	if (spill_log__read(&l->log, l->spill_path, 0, err))
		return ap_err_prefix(err, "--spill-log: ");
	for (uint32_t i = 0; i < cs->n && i < LEVERS_MAX_CORES; i++)
		l->mods[i] = cs->mods[i]->manifest_idx >= 0 ? (uint64_t)cs->mods[i]->manifest_idx : 0;
	l->o.spill_ld = log_spill_ld;
	l->o.spill_log = l;
	return 0;
}

int levers_args__run(struct levers_args *l, struct profile *p, struct ap_err *err)
{
	if (!l->on || p->levers)
		return 0;
	p->levers = calloc(1, sizeof(*p->levers));
	if (!p->levers)
		return ap_err_nomem(err);
	p->levers_delete = lp_levers__delete;
	return lp_levers__run(p->levers, p, &l->o, err);
}

void levers_args__exit(struct levers_args *l)
{
	if (l->log_read)
		spill_log__exit(&l->log);
}
