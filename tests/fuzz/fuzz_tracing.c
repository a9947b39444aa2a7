// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=65536
/*
 * Fuzz target: the tracing-data section (perfdata/tracing.h) as a
 * recording's HEADER_TRACING_DATA holds it, parsed into libtraceevent
 * from bytes in memory; then every described tracepoint's off-CPU fields
 * read by name from a payload made of the input's own bytes (a short one
 * and a long one), as the off-CPU reader reads sched_switch and
 * raw_syscalls samples, and every validated field's value read by name
 * through libtraceevent checked against the bytes at its offset. Seeds: a
 * real section of perf 6.1 (sched_switch, raw_syscalls) and one cut
 * short. No leak or crash of libtraceevent is excused: only formats
 * generated from validated fields reach it (tracing_format.h), which
 * tep_guard.c asserts at its door.
 */
#include <string.h>
#include "perfdata/tracing.h"
#include "perfdata/tracing_format.h"
#include "fuzz.h"

static volatile uint64_t sink;	/* sums wrap: unsigned */

static const char *const fields[] = {
	"prev_state", "prev_pid", "next_pid", "id", "__syscall_nr", "common_type", "prev_comm",
	"args",
};

/* The number of size bytes at p, in the recording's byte order, sign-extended when signed. */
static int64_t number_at(const uint8_t *p, uint32_t size, int big, int is_signed)
{
	uint64_t v = 0;

	for (uint32_t i = 0; i < size; i++)
		v |= (uint64_t)p[big ? size - 1 - i : i] << (8 * i);
	if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ULL << (size * 8);
	return (int64_t)v;
}

/* libtraceevent reads each of the event's validated fields where the fields say. */
static void check_fields(const struct pd_tracing *t, uint64_t id, const uint8_t *raw,
			 size_t size)
{
	const struct tracing_format *f = pd_tracing__format(t, id);

	FUZZ_ASSERT(f && tracing_format__id(f) == id);
	for (size_t i = 0; i < tracing_format__nfields(f); i++) {
		const struct tracing_field *vf = tracing_format__field_at(f, i);
		const struct pd_tp_field *fl = pd_tracing__field(t, id, vf->name);
		int inside = vf->offset + vf->size <= size;
		struct pd_tp_num num;
		int64_t v, w = 0;
		int r;

		if (vf->common)
			continue;	/* libtraceevent's lookup by name is of the event's own */
		FUZZ_ASSERT(fl && tracing_format__field(f, vf->name) == vf);
		/* resolved once (the off-CPU view's reads): what libtraceevent reads */
		pd_tracing__num(t, id, vf->name, &num);
		r = pd_tp_num__read(&num, raw, size, &w);
		if (pd_tp_field__read(t, fl, raw, size, &v)) {
			FUZZ_ASSERT(r == -1);
			FUZZ_ASSERT(vf->array_len || !inside);
			continue;
		}
		FUZZ_ASSERT(r == 0 && w == v);
		FUZZ_ASSERT(!vf->array_len && inside);
		FUZZ_ASSERT(v == number_at(raw + vf->offset, vf->size, pd_tracing__big_endian(t),
					   vf->is_signed));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ap_err err = { 0 };
	struct pd_tracing *t = NULL;
	char name[128];

	if (pd_tracing__parse(data, size, "fuzz", &t, &err)) {
		FUZZ_ASSERT(!t && err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		return 0;
	}
	FUZZ_ASSERT(t);
	for (size_t i = 0; i < pd_tracing__nevents(t); i++) {
		uint64_t id = pd_tracing__event_id(t, i);

		FUZZ_ASSERT(id != UINT64_MAX && pd_tracing__has_event(t, id));
		FUZZ_ASSERT(!pd_tracing__event_name(t, id, name, sizeof(name)));
		sink += strlen(name);
		check_fields(t, id, data, size);
		for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
			const struct pd_tp_field *fl = pd_tracing__field(t, id, fields[f]);
			int64_t v;

			/* a payload shorter than the field: refused, never read past */
			if (!pd_tp_field__read(t, fl, data, size < 12 ? size : 12, &v))
				sink += (uint64_t)v;
			if (!pd_tp_field__read(t, fl, data, size, &v))
				sink += (uint64_t)v;
		}
	}
	FUZZ_ASSERT(!pd_tracing__field(t, UINT32_MAX + 1ULL, "prev_state"));
	pd_tracing__delete(t);
	return 0;
}
