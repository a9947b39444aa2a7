/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_TRACING_FORMAT_H
#define AOTPERF_PERFDATA_TRACING_FORMAT_H
/*
 * A tracepoint's format text (tracefs "format" file) read into validated
 * fields, and the only text libtraceevent is given: one aotperf generates
 * from those fields (docs/offcpu.md, "Tracepoint payloads"). libtraceevent
 * 1.7 crashes and leaks on malformed texts, and checking a text line by
 * line and passing it on kept losing to its parser; so no byte of the
 * recording's text reaches it, only numbers and identifiers aotperf read.
 *
 * The kernel's layout (kernel/trace/trace_events.c prints it):
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   \tfield:TYPE NAME[N];\toffset:N;\tsize:N;\tsigned:0|1;    (common fields)
 *
 *   \tfield:TYPE NAME[N];\toffset:N;\tsize:N;\tsigned:0|1;    (the event's)
 *
 *   print fmt: ...
 *
 * TYPE is words (identifiers, stars, `__attribute__((tag("user")))`); the
 * field's type is not taken from them but from its size, signedness and
 * array length: one of the short list below (a system call argument
 * declared `int` is 8 bytes). The generated text is that layout with the
 * short list's spellings and an empty print format, a function of the
 * fields alone: byte for byte the same for every text that reads into the
 * same fields.
 */
#include <stddef.h>
#include <stdint.h>

#define TRACING_NAME_MAX	63	/* field and tracepoint names; the kernel's are < 40 */

/* A field's type: an integer, or (arrays only) text. */
enum tracing_type {
	TRACING_U8, TRACING_S8, TRACING_U16, TRACING_S16,
	TRACING_U32, TRACING_S32, TRACING_U64, TRACING_S64,
	TRACING_CHAR,		/* an array of 1-byte elements declared char: text */
};

/* One validated field. */
struct tracing_field {
	char name[TRACING_NAME_MAX + 1];	/* an identifier */
	enum tracing_type type;			/* of one element when an array */
	uint32_t offset, size;			/* in the payload; size in all */
	uint32_t array_len;			/* 0: not an array; size = array_len * element */
	int is_signed;				/* the format's signed: flag */
	int common;				/* one of the common fields */
};

/* One tracepoint's validated format (opaque). */
struct tracing_format;

enum tracing_format_verdict {
	TRACING_FORMAT_OK = 0,		/* *out holds the fields */
	TRACING_FORMAT_UNWANTED,	/* no name line of a tracepoint aotperf decodes */
	TRACING_FORMAT_MALFORMED,	/* one aotperf decodes, off the kernel's layout */
	TRACING_FORMAT_NOMEM,
};

/* Whether aotperf decodes tracepoint sys:name (sched_switch, raw_syscalls, syscalls). */
int tracing_format__wanted(const char *sys, const char *name, size_t name_len);

/* Read text (n bytes, not NUL-terminated) of a tracepoint of system sys. */
enum tracing_format_verdict tracing_format__parse(const char *sys, const char *text, size_t n,
						  struct tracing_format **out);
void tracing_format__delete(struct tracing_format *f);
/* The tracepoint name text's first line gives, into buf (TRACING_NAME_MAX + 1); "" when none. */
void tracing_format__name_line(const char *text, size_t n, char *buf);

const char *tracing_format__system(const struct tracing_format *f);
const char *tracing_format__name(const struct tracing_format *f);
uint32_t tracing_format__id(const struct tracing_format *f);
size_t tracing_format__nfields(const struct tracing_format *f);
/* The idx-th field (idx < nfields), common fields first. */
const struct tracing_field *tracing_format__field_at(const struct tracing_format *f, size_t idx);
/* The field called name; NULL when none is. */
const struct tracing_field *tracing_format__field(const struct tracing_format *f,
						  const char *name);

/*
 * The generated format text, NUL-terminated (free()), *len bytes; NULL
 * when out of memory.
 */
char *tracing_format__text(const struct tracing_format *f, size_t *len);

/*
 * The tracing data's header_page text (n bytes) in the kernel's layout
 * (kernel/trace/ring_buffer.c): `\tfield: TYPE NAME;\toffset:N;...` lines
 * for timestamp (8 bytes at 0), commit (4 or 8), optionally overwrite,
 * then data after commit. 0 when it is; -1 when not. aotperf reads no
 * ring-buffer page, so libtraceevent never gets it.
 */
int tracing_format__check_header_page(const char *text, size_t n);

#endif
