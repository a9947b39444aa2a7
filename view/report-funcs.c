// SPDX-License-Identifier: MIT
/*
 * The report's classified functions (report.h): each one's header
 * numbers, class table and verdict (classes.h), hottest instructions and
 * listing (listing.h), built once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../cwasm/coreset.h"
#include "../util/pct.h"

static int func_new(struct view_report *v, struct view_report_func *vf,
		    const struct profile_func *pf, struct ap_err *err)
{
	const struct attr_core *c = &v->p->attr.cores[pf->core];
	const struct cwasm_module *m = c->mod;
	const struct cwasm_func *fn = &m->funcs[pf->func];

	vf->pf = pf;
	vf->mod = m;
	vf->name = fn->name && *fn->name ? fn->name : NULL;
	snprintf(vf->label, sizeof(vf->label), "%s%slocal_func_%u", m->manifest_idx >= 0 ?
		 core_set__core_name(m) : "", m->manifest_idx >= 0 ? ":" : "", pf->func);
	vf->samples = pf->samples;
	vf->pct = ap_pct(pf->samples, v->total);
	vf->ninsns = cls__insn_count(&pf->cls.f);
	vf->address = (c->nmappings ? c->first_base : 0) + fn->offset;
	cls__roles_describe(&pf->cls.f.roles, vf->roles, sizeof(vf->roles));
	if (view_classes__init(&vf->cls, &pf->cls.t, v->total, v->o.all_classes, err))
		return -1;
	vf->hottest = view_classes__hottest(&pf->cls.f, pf->cls.insn_samples, v->o.hottest,
					    &pf->cls.t, v->total, err);
	if (!vf->hottest)
		return -1;
	if (v->o.listings &&
	    view_listing__init(&vf->listing, m, pf->func, &pf->cls.f, pf->cls.insn_samples, err))
		return -1;
	if (pf->loops && !(vf->loops = view_loops__new(pf->loops, &pf->cls.f, pf->cls.insn_samples,
						       pf->cls.t.no_verdict, err)))
		return -1;
	return 0;
}

int view_report__funcs(struct view_report *v, struct ap_err *err)
{
	const struct profile *p = v->p;

	v->funcs = calloc(p->nfuncs ? p->nfuncs : 1, sizeof(*v->funcs));
	if (!v->funcs)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		if (!p->funcs[i].classified)
			continue;
		v->funcs[v->nfuncs].asked = i < v->o.nasked;
		if (func_new(v, &v->funcs[v->nfuncs++], &p->funcs[i], err))
			return -1;
	}
	return 0;
}

void view_report__funcs_exit(struct view_report *v)
{
	for (uint32_t i = 0; v->funcs && i < v->nfuncs; i++) {
		view_classes__exit(&v->funcs[i].cls);
		vt_table__delete(v->funcs[i].hottest);
		view_listing__exit(&v->funcs[i].listing);
		view_loops__delete(v->funcs[i].loops);
	}
	free(v->funcs);
	v->funcs = NULL;
}
