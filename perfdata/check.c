// SPDX-License-Identifier: MIT
/*
 * Every record is checked against its type before anything reads a field
 * of it: the fixed fields must be inside the record, strings NUL-terminated
 * inside it, counts must not run past it, and a kernel record must leave
 * room for the sample_id trailer its attr asks for (the trailer comes
 * after the fixed fields and the name). Layouts are libperf's
 * <perf/event.h> and the kernel's <linux/perf_event.h>; the sizes below
 * are the smallest a perf 4.x-6.x writer produces (TIME_CONV and
 * AUXTRACE_ERROR grew later, so their older, shorter forms pass).
 *
 * A record that fails is malformed: counted, not handed out. Three cases
 * leave no way on and fail the read: a pipe-mode HEADER_ATTR that does not
 * hold its attr (the samples of that event could not be read, or would be
 * read with another event's layout), and AUXTRACE / TRACING_DATA records
 * too short to say how many payload bytes follow them.
 */
#include <stddef.h>
#include <string.h>
#include "internal.h"

#define BODY(type, member)	(offsetof(type, member) - sizeof(struct perf_event_header))
#define BODY_SIZE(type)		(sizeof(type) - sizeof(struct perf_event_header))

/* A NUL-terminated string starting at body offset at, ending inside the body. */
static int str_in(const uint8_t *b, size_t body, size_t at)
{
	return body > at && memchr(b + at, 0, body - at) != NULL;
}

/* A u64 count at body offset at, followed by count entries of size bytes. */
static int array_in(const uint8_t *b, size_t body, size_t at, size_t size)
{
	uint64_t nr;

	if (body < at + 8)
		return 0;
	memcpy(&nr, b + at, sizeof(nr));
	return nr <= (body - at - 8) / size;
}

/* The fixed part of a kernel record, body = bytes between header and trailer. */
static int kernel_body_ok(const struct perf_event_header *h, const uint8_t *b, size_t body,
			  const struct perf_event_attr *attr)
{
	switch (h->type) {
	case PERF_RECORD_MMAP:
		return str_in(b, body, BODY(struct perf_record_mmap, filename));
	case PERF_RECORD_MMAP2: {
		uint8_t bid;

		if (!str_in(b, body, BODY(struct perf_record_mmap2, filename)))
			return 0;
		memcpy(&bid, b + BODY(struct perf_record_mmap2, build_id_size), 1);
		return !(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) || bid <= 20;
	}
	case PERF_RECORD_COMM:
		return str_in(b, body, BODY(struct perf_record_comm, comm));
	case PERF_RECORD_LOST:
		return body >= BODY_SIZE(struct perf_record_lost);
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		return body >= BODY_SIZE(struct perf_record_fork);
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		return body >= BODY_SIZE(struct perf_record_throttle);
	case PERF_RECORD_READ:
		/* pid, tid, then a struct read_format of the owning attr */
		return body >= 8 && attr && pd__read_format_ok(b + 8, body - 8, attr->read_format);
	case PERF_RECORD_AUX:
		return body >= BODY_SIZE(struct perf_record_aux);
	case PERF_RECORD_ITRACE_START:
		return body >= BODY_SIZE(struct perf_record_itrace_start);
	case PERF_RECORD_LOST_SAMPLES:
		return body >= BODY_SIZE(struct perf_record_lost_samples);
	case PERF_RECORD_SWITCH:
		return 1;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return body >= BODY_SIZE(struct perf_record_switch);
	case PERF_RECORD_NAMESPACES:
		return array_in(b, body, BODY(struct perf_record_namespaces, nr_namespaces),
				sizeof(struct perf_ns_link_info));
	case PERF_RECORD_KSYMBOL:
		return str_in(b, body, BODY(struct perf_record_ksymbol, name));
	case PERF_RECORD_BPF_EVENT:
		return body >= BODY_SIZE(struct perf_record_bpf_event);
	case PERF_RECORD_CGROUP:
		return str_in(b, body, BODY(struct perf_record_cgroup, path));
	case PERF_RECORD_TEXT_POKE: {
		uint16_t lens[2];
		size_t at = BODY(struct perf_record_text_poke_event, old_len);

		if (body < at + sizeof(lens))
			return 0;
		memcpy(lens, b + at, sizeof(lens));
		return (size_t)lens[0] + lens[1] <= body - at - sizeof(lens);
	}
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		return body >= BODY_SIZE(struct perf_record_aux_output_hw_id);
	default:
		return 1;	/* a newer type: nobody here reads it */
	}
}

/* EVENT_UPDATE: type and id, then what the type says. */
static int event_update_ok(const uint8_t *b, size_t body)
{
	size_t at = BODY(struct perf_record_event_update, name);
	uint64_t type;

	if (body < at)
		return 0;
	memcpy(&type, b, sizeof(type));
	switch (type) {
	case PERF_EVENT_UPDATE__UNIT:
	case PERF_EVENT_UPDATE__NAME:
		return str_in(b, body, at);
	case PERF_EVENT_UPDATE__SCALE:
		return body >= at + sizeof(struct perf_record_event_update_scale);
	case PERF_EVENT_UPDATE__CPUS:
		return body >= at + sizeof(uint16_t) * 2;	/* map type, first field */
	default:
		return 1;
	}
}

/* HEADER_FEATURE: the feature id; the two payloads we read have a size. */
static int feature_ok(const uint8_t *b, size_t body)
{
	uint64_t id;

	if (body < BODY(struct perf_record_header_feature, data))
		return 0;
	memcpy(&id, b, sizeof(id));
	if (id == PD_FEAT_COMPRESSED)
		return body - sizeof(id) >= 5 * sizeof(uint32_t);
	if (id == PD_FEAT_EVENT_DESC)
		return body - sizeof(id) >= 2 * sizeof(uint32_t);
	return 1;
}

/* HEADER_ATTR: an attr of its own stated size (0: the first version), then u64 ids. */
static int header_attr_ok(const uint8_t *b, size_t body)
{
	uint32_t asz;

	if (body < PERF_ATTR_SIZE_VER0)
		return 0;
	memcpy(&asz, b + offsetof(struct perf_event_attr, size), sizeof(asz));
	if (!asz)
		asz = PERF_ATTR_SIZE_VER0;
	return asz >= PERF_ATTR_SIZE_VER0 && asz <= body && (body - asz) % 8 == 0;
}

/* User (perf-synthesized) records: 1 ok, 0 malformed. */
static int user_body_ok(const struct perf_event_header *h, const uint8_t *b, size_t body)
{
	switch (h->type) {
	case PERF_RECORD_HEADER_ATTR:
		return header_attr_ok(b, body);
	case PERF_RECORD_HEADER_EVENT_TYPE:
		return body >= BODY_SIZE(struct perf_record_header_event_type);
	case PERF_RECORD_HEADER_TRACING_DATA:
		return body >= BODY_SIZE(struct perf_record_header_tracing_data);
	case PERF_RECORD_HEADER_BUILD_ID:
		return str_in(b, body, BODY(struct perf_record_header_build_id, filename));
	case PERF_RECORD_ID_INDEX:
		return array_in(b, body, BODY(struct perf_record_id_index, nr),
				sizeof(struct id_index_entry));
	case PERF_RECORD_AUXTRACE_INFO:
		return body >= BODY(struct perf_record_auxtrace_info, priv);
	case PERF_RECORD_AUXTRACE:
		return body >= BODY_SIZE(struct perf_record_auxtrace);
	case PERF_RECORD_AUXTRACE_ERROR:
		return body >= BODY(struct perf_record_auxtrace_error, machine_pid);
	case PERF_RECORD_THREAD_MAP:
		return array_in(b, body, BODY(struct perf_record_thread_map, nr),
				sizeof(struct perf_record_thread_map_entry));
	case PERF_RECORD_CPU_MAP:
		return body >= sizeof(uint16_t);
	case PERF_RECORD_STAT_CONFIG:
		return array_in(b, body, BODY(struct perf_record_stat_config, nr),
				sizeof(struct perf_record_stat_config_entry));
	case PERF_RECORD_STAT:
		return body >= BODY_SIZE(struct perf_record_stat);
	case PERF_RECORD_STAT_ROUND:
		return body >= BODY_SIZE(struct perf_record_stat_round);
	case PERF_RECORD_EVENT_UPDATE:
		return event_update_ok(b, body);
	case PERF_RECORD_TIME_CONV:
		return body >= BODY(struct perf_record_time_conv, time_cycles);
	case PERF_RECORD_HEADER_FEATURE:
		return feature_ok(b, body);
	default:
		return 1;	/* FINISHED_ROUND, FINISHED_INIT, COMPRESSED, newer types */
	}
}

/* Malformed records that leave the rest of the stream unreadable. */
static int fatal_if_bad(const struct perfdata *pd, uint32_t type, int in_compressed)
{
	switch (type) {
	case PERF_RECORD_HEADER_ATTR:
		return pd->pipe;
	case PERF_RECORD_AUXTRACE:
	case PERF_RECORD_HEADER_TRACING_DATA:
		return !in_compressed;	/* their payload follows in the file */
	default:
		return 0;
	}
}

/*
 * Check a non-sample record (at an 8-byte aligned address) and, for kernel
 * records, find and parse its sample_id trailer into ev. Returns 1 when it
 * may be handed out, 0 when it is malformed, -1 with err set when the
 * stream cannot go on.
 */
int pd__check_record(struct perfdata *pd, const struct perf_event_header *h,
		     int in_compressed, struct pd_event *ev, struct ap_err *err)
{
	const uint8_t *b = (const uint8_t *)(h + 1);
	size_t body = h->size - sizeof(*h);

	ev->sid_off = h->size;
	ev->sid_len = 0;
	if (h->type >= PERF_RECORD_USER_TYPE_START) {
		if (user_body_ok(h, b, body))
			return 1;
		if (fatal_if_bad(pd, h->type, in_compressed))
			return ap_errf(err, "%s: %s record at offset %llu is too short or"
				       " inconsistent (%u bytes); the rest cannot be read",
				       pd->path, perfdata__record_name(h->type),
				       (unsigned long long)ev->file_offset, h->size);
		return 0;
	} else {
		const struct perf_event_attr *attr;
		const struct pd_sid_layout *l = pd__sid_of(pd, h, &attr);
		size_t sid = l ? (size_t)l->words * 8 : 0;

		/* The kernel writes u64 multiples; the trailer is the last u64s. */
		if (h->size % 8 || sid > body)
			return 0;
		if (!kernel_body_ok(h, b, body - sid, attr))
			return 0;
		if (sid) {
			ev->sid_off = (uint16_t)(h->size - sid);
			ev->sid_len = (uint16_t)sid;
			pd__read_sid(l, (const uint8_t *)h + ev->sid_off, &ev->sid);
			ev->has_sid = 1;
		}
		return 1;
	}
}
