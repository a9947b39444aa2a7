/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_TRACING_H
#define AOTPERF_PERFDATA_TRACING_H
/*
 * Tracepoint payloads (a sample's PERF_SAMPLE_RAW bytes) decoded as perf
 * decodes them: the format of every tracepoint comes from the recording's
 * tracing data (the HEADER_TRACING_DATA feature section: the kernel's
 * tracefs "format" files, as perf record copied them); aotperf reads the
 * formats it decodes into validated fields (tracing_format.h) and
 * libtraceevent parses the text generated from those; fields are read by
 * name, never at fixed offsets.
 *
 * The section: "\x17\x08Dtracing", a NUL-terminated version ("0.5",
 * "0.6"), the file's endianness (1 byte, 1 = big), long size (1 byte),
 * page size (u32), "header_page\0" + u64 size + text (checked, not
 * used), "header_event\0" +
 * u64 size + text, the ftrace formats (u32 count, each u64 size + text),
 * the event formats (u32 systems, each a NUL-terminated name, u32 count,
 * each u64 size + text), then kallsyms, printk formats and (0.6) saved
 * command lines, which are not needed here. Numbers are in the file's
 * endianness.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

struct perfdata;
struct pd_tracing;
struct tracing_format;
/* A field of one tracepoint (libtraceevent's; opaque here). */
struct pd_tp_field;

/*
 * Parse a tracing-data section (name: the file, for messages). 0 and
 * *out, or -1 with err "NAME: tracing data: ...": cut short, a header_page
 * or the format of a tracepoint aotperf decodes off the kernel's layout,
 * two of those with one id.
 */
int pd_tracing__parse(const void *buf, size_t len, const char *name, struct pd_tracing **out,
		      struct ap_err *err);
void pd_tracing__delete(struct pd_tracing *t);

/*
 * The recording's tracing data: 0 and *out (NULL when it has none), or -1
 * with err. A file's comes from its header section; a pipe-mode stream's
 * from its HEADER_TRACING_DATA record, once perfdata__next() has passed
 * it (perf writes it before the first kernel record; a pipe-mode file has
 * it at open): -1 too when that record's bytes were cut short or are more
 * than a section may hold.
 */
int perfdata__tracing(struct perfdata *pd, struct pd_tracing **out, struct ap_err *err);

/* The idx-th tracepoint described (idx < nevents): its id. */
uint64_t pd_tracing__event_id(const struct pd_tracing *t, size_t idx);
/* Tracepoints described, and whether the tracepoint with this id (attr.config) is. */
size_t pd_tracing__nevents(const struct pd_tracing *t);
int pd_tracing__has_event(const struct pd_tracing *t, uint64_t id);
/* "sched:sched_switch" of tracepoint id into buf; 0, or -1 when unknown. */
int pd_tracing__event_name(const struct pd_tracing *t, uint64_t id, char *buf, size_t size);

/* The validated format of tracepoint id (its fields' offsets and sizes); NULL when unknown. */
const struct tracing_format *pd_tracing__format(const struct pd_tracing *t, uint64_t id);

/* Whether the payloads' numbers are big-endian (the recording's byte order). */
int pd_tracing__big_endian(const struct pd_tracing *t);

/* Field `name` of tracepoint id, libtraceevent's; NULL when either is unknown. */
const struct pd_tp_field *pd_tracing__field(const struct pd_tracing *t, uint64_t id,
					    const char *name);
/*
 * A numeric field's value from a raw payload of raw_size bytes (signed
 * fields sign-extended): 0, or -1 when the field is not a number of 1, 2,
 * 4 or 8 bytes or lies past the payload.
 */
int pd_tp_field__read(const struct pd_tracing *t, const struct pd_tp_field *f,
		      const void *raw, size_t raw_size, int64_t *val);

/*
 * The same field resolved once from the validated format (tracing_format.h),
 * for a reader that reads it in every sample (the off-CPU view: sched_switch,
 * sys_enter): its place, width and sign, then plain loads, where
 * pd_tp_field__read() goes through libtraceevent's field each time.
 */
struct pd_tp_num {
	uint32_t offset;
	uint8_t size;		/* 1, 2, 4 or 8; 0: no such number (every read fails) */
	uint8_t is_signed;
	uint8_t big_endian;	/* the recording's numbers are */
};

/* Event field name of tracepoint id (a number of 1, 2, 4 or 8 bytes) into *out; 0, or -1 (out->size 0). */
int pd_tracing__num(const struct pd_tracing *t, uint64_t id, const char *name,
		    struct pd_tp_num *out);

/* As pd_tp_field__read() with the field resolved: 0 and *val, or -1. */
static inline int pd_tp_num__read(const struct pd_tp_num *f, const void *raw, size_t raw_size,
				  int64_t *val)
{
	const uint8_t *p;
	uint64_t v = 0;

	if (!f->size || !raw || f->offset > raw_size || f->size > raw_size - f->offset)
		return -1;
	p = (const uint8_t *)raw + f->offset;
	for (unsigned i = 0; i < f->size; i++)	/* byte by byte: any machine's order */
		v |= (uint64_t)p[f->big_endian ? f->size - 1 - i : i] << (8 * i);
	if (f->is_signed && f->size < 8 && (v & (1ULL << (f->size * 8 - 1))))
		v |= ~0ULL << (f->size * 8);
	*val = (int64_t)v;
	return 0;
}

#endif
