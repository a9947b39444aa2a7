// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=65536
/*
 * Fuzz target: the tracing-data section (perfdata/tracing.h) as a
 * recording's HEADER_TRACING_DATA holds it, parsed into libtraceevent
 * from bytes in memory; then every described tracepoint's off-CPU fields
 * read by name from a payload made of the input's own bytes (a short one
 * and a long one), as the off-CPU reader reads sched_switch and
 * raw_syscalls samples. Seeds: a real section of perf 6.1 (sched_switch,
 * raw_syscalls) and one cut short. No leak or crash of libtraceevent is
 * excused: only checked, rebuilt format texts reach it (tracing_format.h).
 */
#include <string.h>
#include "perfdata/tracing.h"
#include "fuzz.h"

static volatile uint64_t sink;	/* sums wrap: unsigned */

static const char *const fields[] = {
	"prev_state", "prev_pid", "next_pid", "id", "__syscall_nr", "common_type", "prev_comm",
	"args",
};

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
