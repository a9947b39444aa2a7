// SPDX-License-Identifier: MIT
/*
 * The "slower by more than PCT" gate over a diff (docs/compare.md "The
 * gate"): a judged time per run (or, by_share, share of the run) grew by
 * more than pct percent of its before value and the growth is significant.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int64_t local_in(const struct cmp_agg *ag, int core, uint32_t wasm)
{
	const struct cwasm_module *m;

	if (core < 0)
		return -1;
	m = ag->cores[core].mod;
	if (wasm < m->import_func_count || wasm - m->import_func_count >= m->nfuncs)
		return -1;
	return wasm - m->import_func_count;
}

static int target_check(const struct cmp_diff *d, const struct cmp_gate_target *t,
			struct cmp_gate_check *c, struct ap_err *err)
{
	const struct cmp_pair *p;
	int64_t lb, la;

	if (t->pair >= d->npairs)
		return ap_errf(err, "%s: no core %" PRIu32 " to judge",
			       d->label_after ? d->label_after : "after", t->pair);
	p = &d->pairs[t->pair];
	lb = local_in(d->before, p->before, t->wasm_index);
	la = local_in(d->after, p->after, t->wasm_index);
	if (lb < 0 || la < 0)
		return ap_errf(err, "%s: wasm function %" PRIu32 " is not in both builds",
			       cmp__core_label(p->before >= 0 ? d->before->cores[p->before].mod
							      : d->after->cores[p->after].mod),
			       t->wasm_index);
	c->pair = t->pair;
	c->wasm_index = t->wasm_index;
	c->func = cmp_diff__find(d, t->pair, t->wasm_index);
	if (c->func >= 0) {
		c->m = d->funcs[c->func].self;
		c->t = d->funcs[c->func].self_time;
		return 0;
	}
	/* matched, no samples on either side: its (zero) shares and times, tested all the same */
	c->m.valid = 1;
	c->m.before = d->before->cores[p->before].self[lb];
	c->m.after = d->after->cores[p->after].self[la];
	cmp__change(&c->m.before, &c->m.after, d->level, &c->m.ch);
	if (d->has_time) {
		c->t.valid = 1;
		c->t.before = d->before->cores[p->before].self_time[lb];
		c->t.after = d->after->cores[p->after].self_time[la];
		cmp__change_time(&c->t.before, &c->t.after, d->level, &c->t.ch);
	}
	return 0;
}

/* the function with the largest self share before, in both builds; -1 if none ran */
static int64_t hottest_before(const struct cmp_diff *d)
{
	int64_t best = -1;

	for (uint32_t i = 0; i < d->nfuncs; i++) {
		const struct cmp_func *f = &d->funcs[i];

		if (f->local_before < 0 || f->local_after < 0 || f->self.before.samples == 0)
			continue;
		if (best < 0 || f->self.before.mean > d->funcs[best].self.before.mean ||
		    (f->self.before.mean == d->funcs[best].self.before.mean &&
		     (f->pair < d->funcs[best].pair ||
		      (f->pair == d->funcs[best].pair &&
		       f->wasm_index < d->funcs[best].wasm_index))))
			best = i;
	}
	return best;
}

static void describe(const struct cmp_diff *d, const struct cmp_gate_check *c, char *buf,
		     size_t len)
{
	const struct cmp_func *f;
	char local[32];

	if (c->func < 0) {
		snprintf(buf, len, "%s wasm function %" PRIu32,
			 cmp__core_label(d->after->cores[d->pairs[c->pair].after].mod),
			 c->wasm_index);
		return;
	}
	f = &d->funcs[c->func];
	cwasm__local_name((uint32_t)f->local_after, local, sizeof(local));
	snprintf(buf, len, "%s %s%s%s", cmp__core_label(d->after->cores[d->pairs[f->pair].after].mod),
		 local, f->name_after ? " " : "", f->name_after ? f->name_after : "");
}

int cmp_diff__gate(const struct cmp_diff *d, const struct cmp_gate_opts *o,
		   struct cmp_gate *g, struct ap_err *err)
{
	uint32_t n = o->whole_wasm ? 1 : o->ntargets ? o->ntargets : 1;
	struct cmp_change **chs = NULL;
	int64_t first = -1;

	memset(g, 0, sizeof(*g));
	g->pct = o->pct;
	g->by_share = o->by_share;
	if (!(o->pct >= 0.0) || isinf(o->pct))
		return ap_errf(err, "slower-than threshold %g: must be a percentage of 0 or more",
			       o->pct);
	if (!o->by_share && !d->has_time)
		return ap_errf(err, "%s: no sample periods to time the runs by: judge shares "
			       "instead", d->label_after ? d->label_after : "after");
	g->checks = calloc(n, sizeof(*g->checks));
	chs = calloc(n, sizeof(*chs));
	if (!g->checks || !chs) {
		free(chs);
		cmp_gate__exit(g);
		return ap_err_nomem(err);
	}
	if (o->whole_wasm) {
		g->checks[0].func = -1;
		g->checks[0].m = d->wasm;
		g->checks[0].t = d->wasm_time;
		g->nchecks = 1;
	} else if (o->ntargets) {
		for (uint32_t i = 0; i < o->ntargets; i++) {
			if (target_check(d, &o->targets[i], &g->checks[i], err) < 0) {
				free(chs);
				cmp_gate__exit(g);
				return -1;
			}
		}
		g->nchecks = o->ntargets;
	} else {
		int64_t h = hottest_before(d);

		if (h >= 0) {
			g->checks[0].pair = d->funcs[h].pair;
			g->checks[0].wasm_index = d->funcs[h].wasm_index;
			g->checks[0].func = h;
			g->checks[0].m = d->funcs[h].self;
			g->checks[0].t = d->funcs[h].self_time;
			g->nchecks = 1;
		}
	}
	/* several targets are one family; one target is one prespecified test */
	for (uint32_t i = 0; i < g->nchecks; i++) {
		struct cmp_gate_check *c = &g->checks[i];

		c->judged = o->by_share ? &c->m.ch : &c->t.ch;
		chs[i] = o->by_share ? &c->m.ch : &c->t.ch;
	}
	if (cmp__adjust(chs, g->nchecks, d->adjust, d->level) < 0) {
		free(chs);
		cmp_gate__exit(g);
		return ap_err_nomem(err);
	}
	free(chs);
	for (uint32_t i = 0; i < g->nchecks; i++) {
		struct cmp_gate_check *c = &g->checks[i];
		const struct cmp_change *ch = c->judged;

		c->grew = ch->delta > 0.0 && (!ch->has_rel || ch->rel_pct > o->pct);
		c->slower = c->grew && ch->significant;
		if (c->slower && first < 0)
			first = i;
	}
	g->failed = first >= 0;
	if (g->failed) {
		const struct cmp_gate_check *c = &g->checks[first];
		double scale = o->unit_scale > 0 ? o->unit_scale : 1.0;
		char what[256], rel[32] = "new";

		if (o->whole_wasm)
			snprintf(what, sizeof(what), "wasm code");
		else
			describe(d, c, what, sizeof(what));
		if (c->judged->has_rel)
			snprintf(rel, sizeof(rel), "%+.1f%%", c->judged->rel_pct);
		if (o->by_share)
			return ap_errk(err, AP_ERR_GATE, "%s: %s: share %.2f%% -> %.2f%% (%s, p=%.2g): "
				       "slower by more than %g%% by share",
				       d->label_after ? d->label_after : "after", what,
				       c->m.before.mean, c->m.after.mean, rel, c->m.ch.p_adj, o->pct);
		return ap_errk(err, AP_ERR_GATE, "%s: %s: time per run %.2f -> %.2f%s%s (%s, "
			       "p=%.2g): slower by more than %g%%",
			       d->label_after ? d->label_after : "after", what,
			       c->t.before.mean / scale, c->t.after.mean / scale,
			       o->unit ? " " : "", o->unit ? o->unit : "", rel, c->t.ch.p_adj, o->pct);
	}
	return 0;
}

void cmp_gate__exit(struct cmp_gate *g)
{
	free(g->checks);
	g->checks = NULL;
	g->nchecks = 0;
}
