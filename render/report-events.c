// SPDX-License-Identifier: MIT
/*
 * The report of a recording with several sampling events, one view per
 * event (cli/report-events.h): the JSON keeps the first event's keys at
 * the top level (for readers of a one-event report) and lists every event
 * in "events", each entry with a one-event report's keys; the Markdown
 * has a block per event.
 */
#include "report-events.h"
#include "../util/outfile.h"

int render__report_events_json_file(const char *path, const struct view_report *const *vs,
				    uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	struct json_doc d;

	if (json_doc__open(&d, path, o->tool, err))
		return -1;
	render__report_json_members(&d.j, vs[0], o);
	if (n > 1) {
		json_key(&d.j, "events");
		json_begin_arr(&d.j);
		for (uint32_t i = 0; i < n; i++) {
			json_begin_obj(&d.j);
			render__report_json_members(&d.j, vs[i], o);
			json_end_obj(&d.j);
		}
		json_end_arr(&d.j);
	}
	return json_doc__commit(&d, err);
}

int render__report_events_md(FILE *f, const char *name, const struct view_report *const *vs,
			     uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	for (uint32_t i = 0; i < n; i++) {
		if (n > 1 && fprintf(f, "%s## event `%s`\n\n", i ? "\n" : "",
				     vs[i]->event) < 0)
			return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
		if (render__report_md(f, name, vs[i], o, err))
			return -1;
	}
	return 0;
}

int render__report_events_md_file(const char *path, const struct view_report *const *vs,
				  uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	struct outfile out;

	if (outfile__open(&out, path, err))
		return -1;
	if (render__report_events_md(out.f, path, vs, n, o, err)) {
		outfile__abort(&out);
		return -1;
	}
	return outfile__commit(&out, err);
}
