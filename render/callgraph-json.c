// SPDX-License-Identifier: MIT
/* The call-graph view as JSON members (callgraph.h; docs/json.md). */
#include "callgraph.h"
#include "table.h"
#include "../view/callgraph.h"

/* "callers": [{the function's members, "callers": [the other ends]}] */
static void edges(struct json_out *j, const struct view_cg_edges *e, uint32_t n,
		  const char *prefix, int callers)
{
	char key[32];

	snprintf(key, sizeof(key), "%s%s", prefix, callers ? "callers" : "callees");
	json_key(j, key);
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		if (e[i].callers != callers || !e[i].head)
			continue;
		json_begin_obj(j);
		render__table_json_members(j, e[i].head, 0);
		json_key(j, callers ? "callers" : "callees");
		render__table_json_rows(j, e[i].rows);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void render__callgraph_json(struct json_out *j, const struct view_callgraph *v)
{
	uint32_t n = view_callgraph__nedges(v);

	json_key(j, "call_graph");
	json_begin_obj(j);
	render__table_json_members(j, v->summary, 0);
	json_end_obj(j);
	json_key(j, "children");
	render__table_json_shown(j, v->children);
	edges(j, v->edges, n, "", 1);
	edges(j, v->edges, n, "", 0);
	if (v->in.state == VIEW_CPU_ON || !v->children_time)
		return;
	json_key(j, "cpu_state");
	json_str(j, v->in.state == VIEW_CPU_BOTH ? "both" : "off");
	json_key(j, "children_time");
	render__table_json_shown(j, v->children_time);
	edges(j, v->time_edges, n, "off_cpu_", 1);
	edges(j, v->time_edges, n, "off_cpu_", 0);
}
