// SPDX-License-Identifier: MIT
/*
 * The listings of aotperf diff's HTML page: the after build's functions
 * the view lists (the text's --top rows and the --func ones), decoded and
 * weighed by the after recordings' samples summed, as report --html lists
 * its functions (docs/html-data.md "listings").
 */
#include "diff.h"
#include "html_data.h"
#include "../classify/funcclass.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"
#include "../view/listing.h"

int render__diff_listings(struct json_out *j, const struct view_diff *v,
			  const struct attr_hist *hist_after, const char *roles,
			  struct ap_err *err)
{
	json_key(j, "listings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->nlisted; i++) {
		const struct cwasm_module *m = v->side[1].cs->mods[v->listed[i][0]];
		uint32_t func = v->listed[i][1];
		struct cls_result res;
		struct view_listing l;
		int rc;

		if (func >= m->nfuncs)
			continue;
		if (cls_result__classify(&res, m, func, CWASM_ARCH_UNKNOWN, roles, hist_after,
					 v->listed[i][0], 0, err))
			return -1;
		rc = view_listing__init(&l, m, func, &res.f, res.insn_samples, err);
		if (!rc)
			html_data__listing(j, core_set__core_name(m), func, m->funcs[func].name,
					   m->funcs[func].size, &l);
		view_listing__exit(&l);
		cls_result__exit(&res);
		if (rc)
			return -1;
	}
	json_end_arr(j);
	return 0;
}
