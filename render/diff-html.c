// SPDX-License-Identifier: MIT
/*
 * aotperf diff as the HTML report: the page whose data document is the
 * diff's JSON document (diff-json.c) with the listings of the after
 * build's functions the view lists (diff-listings.c); the viewer draws
 * the before/after page from it (docs/html-data.md "diff").
 */
#include "diff.h"
#include "html.h"
#include "../util/json_out.h"

struct page {
	const struct view_diff *v;
	const struct attr_hist *hist;
	const char *roles;
};

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct page *p = arg;
	char title[300];

	snprintf(title, sizeof(title), "%s: before / after", p->v->side[1].cs->mods[0]->path);
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, p->v->in.tool);
	json_key(j, "title");
	json_str(j, title);
	render__diff_json_body(j, p->v);
	if (render__diff_listings(j, p->v, p->hist, p->roles, err))
		return -1;
	json_end_obj(j);
	return 0;
}

int render__diff_html_file(const char *path, const struct view_diff *v,
			   const struct attr_hist *hist_after, const char *roles,
			   struct ap_err *err)
{
	struct page p = { v, hist_after, roles };

	return html__write_emit(path, emit, &p, err);
}
