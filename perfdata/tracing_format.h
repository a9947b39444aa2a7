/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_TRACING_FORMAT_H
#define AOTPERF_PERFDATA_TRACING_FORMAT_H
/*
 * One tracepoint format text (tracefs "format" file) checked before
 * libtraceevent sees it. libtraceevent 1.7 crashes and leaks on some
 * malformed texts, mostly in its "print fmt" expression parser, and keeps
 * parser state across calls; aotperf reads only fields, so only the
 * tracepoints it decodes are kept, each checked line by line against the
 * kernel's layout and rebuilt in that layout with an empty print format.
 * libtraceevent then parses only text of a shape it was written for.
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   \tfield:DECL;\toffset:N;\tsize:N;\tsigned:0|1;    (common fields)
 *
 *   \tfield:DECL;\toffset:N;\tsize:N;\tsigned:0|1;    (the event's fields)
 *
 *   print fmt: ...
 */
#include <stddef.h>

enum tracing_format_verdict {
	TRACING_FORMAT_OK = 0,		/* *out holds the rebuilt text */
	TRACING_FORMAT_UNWANTED,	/* a tracepoint aotperf does not decode */
	TRACING_FORMAT_MALFORMED,	/* not the kernel's layout: leave it undecoded */
	TRACING_FORMAT_NOMEM,
};

/* Whether aotperf decodes tracepoint sys:name (sched_switch, raw_syscalls, syscalls). */
int tracing_format__wanted(const char *sys, const char *name, size_t name_len);

/*
 * Check text (n bytes, not NUL-terminated) of a tracepoint in system sys;
 * on OK, *out is the rebuilt NUL-terminated text (free()) of *out_len bytes.
 */
enum tracing_format_verdict tracing_format__clean(const char *sys, const char *text, size_t n,
						  char **out, size_t *out_len);

#endif
