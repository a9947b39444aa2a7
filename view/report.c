// SPDX-License-Identifier: MIT
/*
 * The report's view (report.h): the run card, each core's block and
 * function table, built once; the host rows, --sort's table and the
 * classified functions in report-*.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "report.h"
#include "../cwasm/coreset.h"
#include "../util/pct.h"

/*
 * The functions' columns: rank, the local name (text: 4, 2 spaces, 18),
 * the JSON's keys, samples, %run, bytes (8 each), the wasm name in what
 * is left (the JSON has it as "name" after wasm_func, the text last).
 */
enum { F_RANK, F_FUNC, F_LOCAL, F_WASM, F_NAME_JSON, F_SAMPLES, F_PCT, F_BYTES, F_NAME };

static struct vt_table *funcs_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, NULL, "rank", VT_COUNT, 0);
	s.c[F_RANK].width = 4;
	vcols__add(&s, NULL, "function", VT_TEXT, VT_CODE);
	s.c[F_FUNC].width = 18;
	s.c[F_FUNC].gap = 2;
	vcols__add(&s, "local_func", NULL, VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "wasm_func", NULL, VT_COUNT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "name", NULL, VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "samples", "samples", VT_COUNT, 0);
	vcols__add(&s, "percent_of_run", "%run", VT_PERCENT, VT_PCT);
	vcols__add(&s, "code_bytes", "bytes", VT_COUNT, 0);
	for (uint32_t c = F_SAMPLES; c <= F_BYTES; c++)
		s.c[c].width = 8;
	vcols__add(&s, NULL, "wasm name", VT_TEXT, VT_FLEX);
	s.c[F_NAME].gap = 2;
	s.c[F_NAME].md_max_chars = 60;
	return vt_table__new(s.c, s.n);
}

static int core_funcs(struct view_report *v, struct view_report_core *vc)
{
	const struct attr_core *c = vc->c;
	const struct cwasm_module *m = vc->mod;
	struct vt_cut cut = { .sort_col = -1, .pct_col = F_PCT, .min_pct = v->o.percent_limit,
			      .show_col = -1, .top = v->o.top };
	struct vt_table *t = vc->funcs = funcs_table();
	uint32_t kept;

	for (uint32_t i = 0; t && i < c->nranked; i++) {
		const struct attr_ranked *r = &c->ranked[i];
		const struct cwasm_func *f = &m->funcs[r->func];

		if (vt_table__add_row(t) || vt_table__strf(t, F_FUNC, "local_func_%u", r->func))
			return -1;
		vt_table__u64(t, F_RANK, i + 1);
		vt_table__u64(t, F_LOCAL, r->func);
		vt_table__u64(t, F_WASM, cwasm__wasm_index(m, r->func));
		vt_table__str(t, F_NAME_JSON, f->name);
		vt_table__u64(t, F_SAMPLES, r->samples);
		vt_table__dbl(t, F_PCT, ap_pct(r->samples, v->total));
		vt_table__u64(t, F_BYTES, f->size);
		vt_table__str(t, F_NAME, f->name ? f->name : "");
	}
	if (!t || vt_table__cut(t, &cut))
		return -1;
	kept = vt_table__nrows(t);
	/* Markdown says how many it leaves out */
	if (vt_table__shown(t) < kept &&
	    (vt_table__add_footer(t, VT_NO_TEXT) ||
	     vt_table__wordf(t, F_FUNC, "%u more with samples", kept - vt_table__shown(t))))
		return -1;
	return 0;
}

/* Every function of the core, for the page's table (it sorts and filters them itself). */
static int core_all_funcs(const struct view_report *v, struct view_report_core *vc)
{
	static const struct vt_col cols[] = {
		{ .key = "local_func", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "samples", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "code_bytes", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "name", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "percent_of_run", .kind = VT_PERCENT, .prec = -1, .json_prec = -1 },
	};
	const struct cwasm_module *m = vc->mod;
	const uint64_t *s = vc->c->func_samples;
	struct vt_table *t = vc->all_funcs = vt_table__new(cols, sizeof(cols) / sizeof(cols[0]));

	for (uint32_t i = 0; t && i < m->nfuncs; i++) {
		if (vt_table__add_row(t))
			return -1;
		vt_table__u64(t, 0, i);
		vt_table__u64(t, 1, s ? s[i] : 0);
		vt_table__u64(t, 2, m->funcs[i].size);
		vt_table__str(t, 3, m->funcs[i].name);
		vt_table__dbl(t, 4, ap_pct(s ? s[i] : 0, v->total));
	}
	return t ? 0 : -1;
}

uint32_t view_report__func_of(const struct view_report_core *c, uint32_t i)
{
	return (uint32_t)vt_table__cell(c->funcs, i, F_LOCAL)->v.u;
}

double view_report__func_pct(const struct view_report_core *c, uint32_t i)
{
	return vt_table__cell(c->funcs, i, F_PCT)->v.d;
}

int64_t view_report__func_row(const struct view_report_core *c, uint32_t func)
{
	for (uint32_t i = 0; i < vt_table__nrows(c->funcs); i++)
		if (view_report__func_of(c, i) == func)
			return i;
	return -1;
}

/* A core's mappings (JSON): pid, command, base, base_hex, size, samples. */
enum { M_PID, M_COMMAND, M_BASE, M_BASE_HEX, M_SIZE, M_SAMPLES };

static int core_mappings(const struct attr_result *a, struct view_report_core *vc, uint32_t core)
{
	static const struct vt_col cols[] = {
		{ .key = "pid", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "command", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "base", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "base_hex", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "size", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "samples", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
	};
	struct vt_table *t = vc->mappings = vt_table__new(cols, sizeof(cols) / sizeof(cols[0]));

	for (uint32_t i = 0; t && i < a->nmappings; i++) {
		const struct attr_mapping *m = &a->mappings[i];

		if (m->core != (int)core)
			continue;
		if (vt_table__add_row(t) ||
		    vt_table__strf(t, M_BASE_HEX, "0x%llx", (unsigned long long)m->start))
			return -1;
		vt_table__u64(t, M_PID, m->pid);
		vt_table__str(t, M_COMMAND, attr_comms__get(&a->comms, m->pid));
		vt_table__u64(t, M_BASE, m->start);
		vt_table__u64(t, M_SIZE, m->len);
		vt_table__u64(t, M_SAMPLES, m->samples);
	}
	return t ? 0 : -1;
}

/* The processes that mapped the core, each once with its mappings' samples. */
static int core_procs(const struct view_report *v, struct view_report_core *vc, uint32_t core)
{
	const struct attr_result *a = &v->p->attr;

	vc->procs = calloc(a->nmappings ? a->nmappings : 1, sizeof(*vc->procs));
	if (!vc->procs)
		return -1;
	for (uint32_t i = 0; i < a->nmappings; i++) {
		const struct attr_mapping *m = &a->mappings[i];
		struct view_report_proc *pr = NULL;

		if (m->core != (int)core)
			continue;
		for (uint32_t k = 0; k < vc->nprocs && !pr; k++)
			if (vc->procs[k].pid == m->pid)
				pr = &vc->procs[k];
		if (pr) {
			pr->more = 1;
		} else {
			pr = &vc->procs[vc->nprocs++];
			*pr = (struct view_report_proc){ m->pid, attr_comms__get(&a->comms, m->pid),
							 m->start, m->len, 0, 0, 0.0 };
		}
		pr->samples += m->samples;
	}
	for (uint32_t k = 0; k < vc->nprocs; k++)
		vc->procs[k].pct = ap_pct(vc->procs[k].samples, v->total);
	return 0;
}

/*
 * How the core's mapping was found and whether its samples fit its code,
 * the one wording of every format (text, JSON mapping.how, Markdown,
 * HTML): "exact size, unique", "exact size, copies", "NOT unique: N
 * cores", "pinned by PIN" (", larger than its text"), each followed by ",
 * NOT consistent" when the samples do not fit; "none found".
 */
static void mapping_word(const struct view_report *v, struct view_report_core *vc)
{
	const struct attr_core *c = vc->c;
	const char *fit = c->consistency.computed && !attr_consistency__ok(&c->consistency) ?
			  ", NOT consistent" : "";
	const char *pin = v->o.pin_word;

	if (!c->nmappings)
		snprintf(vc->how, sizeof(vc->how), "none found");
	else if (c->base_override)
		snprintf(vc->how, sizeof(vc->how), "pinned by %s%s%s", pin ? pin : "a base address",
			 c->first_len != vc->expected_size ? ", larger than its text" : "", fit);
	else if (c->mapping_unique)
		snprintf(vc->how, sizeof(vc->how), "exact size, unique%s", fit);
	else if (c->sharing > 1)
		snprintf(vc->how, sizeof(vc->how), "NOT unique: %u cores%s", c->sharing, fit);
	else
		snprintf(vc->how, sizeof(vc->how), "exact size, copies%s", fit);
}

static int core_new(struct view_report *v, uint32_t core)
{
	struct view_report_core *vc = &v->cores[core];
	const struct attr_core *c = &v->p->attr.cores[core];

	vc->c = c;
	vc->mod = c->mod;
	vc->name = core_set__core_name(c->mod);
	cwasm_target__describe(&c->mod->target, vc->target, sizeof(vc->target));
	vc->noun = v->p->source == PROFILE_SAMPLES ? "region" : "mapping";
	vc->expected_size = attr__page_round(c->mod->text_size);
	vc->pin_not_text = c->base_override && c->nmappings && c->first_len != vc->expected_size;
	vc->authoritative = c->authoritative && !c->base_override;
	vc->pct = ap_pct(c->samples, v->total);
	vc->consistency_pct = attr_consistency__pct(&c->consistency);
	mapping_word(v, vc);
	return core_funcs(v, vc) || core_mappings(&v->p->attr, vc, core) ||
	       core_procs(v, vc, core) || (v->o.listings && core_all_funcs(v, vc)) ? -1 : 0;
}

static void run_card(struct view_report *v)
{
	const struct profile *p = v->p;
	const struct attr_result *a = &p->attr;
	int all = 1;

	v->event = p->event ? p->event : a->event_name;
	v->total = a->total_samples;
	v->in_wasm = a->attributed_samples;
	v->outside = v->total - v->in_wasm;
	v->in_wasm_pct = ap_pct(v->in_wasm, v->total);
	v->outside_pct = ap_pct(v->outside, v->total);
	v->truncated = a->truncated;
	if (a->truncated)
		profile__cut_words(a->bytes_read, a->bytes_expected, v->cut_words,
				   sizeof(v->cut_words));
	for (uint32_t i = 0; i < a->ncores; i++)
		all &= a->cores[i].authoritative && !a->cores[i].base_override;
	/* every core's: a reader of one verdict gets the weakest */
	v->authoritative = all && p->source != PROFILE_STATIC;
}

int view_report__new(const struct profile *p, const struct view_report_opts *o,
		     struct view_report **out, struct ap_err *err)
{
	struct view_report *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->p = p;
	v->o = *o;
	run_card(v);
	v->ncores = p->attr.ncores;
	v->cores = calloc(v->ncores ? v->ncores : 1, sizeof(*v->cores));
	if (!v->cores)
		goto nomem;
	for (uint32_t i = 0; i < v->ncores; i++)
		if (core_new(v, i))
			goto nomem;
	if (view_report__host(v) || view_report__sorted(v))
		goto nomem;
	if (p->levers && !(v->levers = view_levers__new(p->levers, p, err))) {
		view_report__delete(v);
		return -1;
	}
	if (view_report__funcs(v, err)) {
		view_report__delete(v);
		return -1;
	}
	*out = v;
	return 0;
nomem:
	view_report__delete(v);
	return ap_err_nomem(err);
}

void view_report__delete(struct view_report *v)
{
	if (!v)
		return;
	for (uint32_t i = 0; v->cores && i < v->ncores; i++) {
		vt_table__delete(v->cores[i].funcs);
		vt_table__delete(v->cores[i].all_funcs);
		vt_table__delete(v->cores[i].mappings);
		free(v->cores[i].procs);
	}
	free(v->cores);
	vt_table__delete(v->host);
	vt_table__delete(v->sorted);
	view_report__funcs_exit(v);
	view_levers__delete(v->levers);
	free(v);
}
