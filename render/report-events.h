/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_REPORT_EVENTS_H
#define AOTPERF_RENDER_REPORT_EVENTS_H
/*
 * The report of n views of one recording, one per sampling event
 * (cli/report-events.h), in event order; n == 1 is the one-event report.
 *
 *   JSON      vs[0]'s members at the top level, then (n > 1) "events": one
 *             object per event with the members a one-event report has;
 *   Markdown  a block per event ("## event `NAME`", then its report);
 *   pprof     one profile, a sample type per event (render/report-pprof.c);
 *   HTML      one page: the data document (docs/html-data.md) holds vs[0]'s
 *             at the top level and (n > 1) each event's in "events"; the
 *             viewer draws a block per event (render/report-html.c).
 */
#include "report-export.h"

int render__report_events_json_file(const char *path, const struct view_report *const *vs,
				    uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_md(FILE *f, const char *name, const struct view_report *const *vs,
			     uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_md_file(const char *path, const struct view_report *const *vs,
				  uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_pprof(FILE *f, const char *name, const struct view_report *const *vs,
				uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_pprof_file(const char *path, const struct view_report *const *vs,
				     uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_html(FILE *f, const char *name, const struct view_report *const *vs,
			       uint32_t n, const struct render_opts *o, struct ap_err *err);
int render__report_events_html_file(const char *path, const struct view_report *const *vs,
				    uint32_t n, const struct render_opts *o, struct ap_err *err);

#endif
