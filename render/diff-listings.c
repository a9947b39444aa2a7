// SPDX-License-Identifier: MIT
/*
 * The listings of aotperf diff's HTML page: the after build's functions
 * that the text lists (the --top largest self changes) and the --func
 * ones, decoded and weighed by the after recordings' samples summed, as
 * report --html lists its functions (docs/html-data.md "listings").
 */
#include <stdlib.h>
#include "diff.h"
#include "html_data.h"
#include "../classify/funcclass.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

/* one listing of local function func of the after build's core c; 0 or -1 */
static int listing(struct json_out *j, const struct render_diff *r, uint32_t c, uint32_t func,
		   struct ap_err *err)
{
	const struct cwasm_module *m = r->after->mods[c];
	struct cls_result res;

	if (func >= m->nfuncs)
		return 0;
	if (cls_result__classify(&res, m, func, CWASM_ARCH_UNKNOWN, r->roles, r->hist_after, c, 0,
				 err))
		return -1;
	html_data__listing(j, m, core_set__core_name(m), func, &res.f, res.insn_samples);
	cls_result__exit(&res);
	return 0;
}

/* keys of what is listed already: after core << 32 | local function */
static int seen(uint64_t *keys, uint32_t *n, uint64_t key)
{
	for (uint32_t i = 0; i < *n; i++)
		if (keys[i] == key)
			return 1;
	keys[(*n)++] = key;
	return 0;
}

int render__diff_listings(struct json_out *j, const struct render_diff *r, struct ap_err *err)
{
	const struct cmp_diff *d = r->d;
	uint32_t *rows = malloc((d->nfuncs ? d->nfuncs : 1) * sizeof(*rows));
	uint64_t *keys = malloc((d->nfuncs + r->nfuncs + 1) * sizeof(*keys));
	uint32_t n, shown, nkeys = 0;
	int rc = 0;

	if (!rows || !keys) {
		free(rows);
		free(keys);
		return ap_err_nomem(err);
	}
	n = render__diff_rows(r, 0, rows);
	shown = render__diff_shown(r, n);
	json_key(j, "listings");
	json_begin_arr(j);
	for (uint32_t i = 0; !rc && i < r->nfuncs; i++) {
		const struct render_diff_func *f = &r->funcs[i];
		const struct cmp_pair *p = f->pair >= 0 ? &d->pairs[f->pair] : NULL;

		if (p && p->after >= 0 && f->local_after >= 0 &&
		    !seen(keys, &nkeys, (uint64_t)p->after << 32 | (uint64_t)f->local_after))
			rc = listing(j, r, (uint32_t)p->after, (uint32_t)f->local_after, err);
	}
	for (uint32_t i = 0; !rc && i < shown; i++) {
		const struct cmp_func *f = &d->funcs[rows[i]];
		const struct cmp_pair *p = &d->pairs[f->pair];

		if (p->after >= 0 && f->local_after >= 0 &&
		    !seen(keys, &nkeys, (uint64_t)p->after << 32 | (uint64_t)f->local_after))
			rc = listing(j, r, (uint32_t)p->after, (uint32_t)f->local_after, err);
	}
	json_end_arr(j);
	free(rows);
	free(keys);
	return rc;
}
