// SPDX-License-Identifier: MIT
/*
 * Names: record types for diagnostics, built-in event names, and the event
 * names perf stores in HEADER_EVENT_DESC and PERF_RECORD_EVENT_UPDATE.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const char *const record_names[] = {
	[PERF_RECORD_MMAP]			= "mmap",
	[PERF_RECORD_LOST]			= "lost",
	[PERF_RECORD_COMM]			= "comm",
	[PERF_RECORD_EXIT]			= "exit",
	[PERF_RECORD_THROTTLE]			= "throttle",
	[PERF_RECORD_UNTHROTTLE]		= "unthrottle",
	[PERF_RECORD_FORK]			= "fork",
	[PERF_RECORD_READ]			= "read",
	[PERF_RECORD_SAMPLE]			= "sample",
	[PERF_RECORD_MMAP2]			= "mmap2",
	[PERF_RECORD_AUX]			= "aux",
	[PERF_RECORD_ITRACE_START]		= "itrace_start",
	[PERF_RECORD_LOST_SAMPLES]		= "lost_samples",
	[PERF_RECORD_SWITCH]			= "switch",
	[PERF_RECORD_SWITCH_CPU_WIDE]		= "switch_cpu_wide",
	[PERF_RECORD_NAMESPACES]		= "namespaces",
	[PERF_RECORD_KSYMBOL]			= "ksymbol",
	[PERF_RECORD_BPF_EVENT]			= "bpf_event",
	[PERF_RECORD_CGROUP]			= "cgroup",
	[PERF_RECORD_TEXT_POKE]			= "text_poke",
	[PERF_RECORD_AUX_OUTPUT_HW_ID]		= "aux_output_hw_id",
	[PERF_RECORD_HEADER_ATTR]		= "attr",
	[PERF_RECORD_HEADER_EVENT_TYPE]		= "event_type",
	[PERF_RECORD_HEADER_TRACING_DATA]	= "tracing_data",
	[PERF_RECORD_HEADER_BUILD_ID]		= "build_id",
	[PERF_RECORD_FINISHED_ROUND]		= "finished_round",
	[PERF_RECORD_ID_INDEX]			= "id_index",
	[PERF_RECORD_AUXTRACE_INFO]		= "auxtrace_info",
	[PERF_RECORD_AUXTRACE]			= "auxtrace",
	[PERF_RECORD_AUXTRACE_ERROR]		= "auxtrace_error",
	[PERF_RECORD_THREAD_MAP]		= "thread_map",
	[PERF_RECORD_CPU_MAP]			= "cpu_map",
	[PERF_RECORD_STAT_CONFIG]		= "stat_config",
	[PERF_RECORD_STAT]			= "stat",
	[PERF_RECORD_STAT_ROUND]		= "stat_round",
	[PERF_RECORD_EVENT_UPDATE]		= "event_update",
	[PERF_RECORD_TIME_CONV]			= "time_conv",
	[PERF_RECORD_HEADER_FEATURE]		= "feature",
	[PERF_RECORD_COMPRESSED]		= "compressed",
	[PERF_RECORD_FINISHED_INIT]		= "finished_init",
};

const char *perfdata__record_name(uint32_t type)
{
	const size_t n = sizeof(record_names) / sizeof(record_names[0]);

	if (type < n && record_names[type])
		return record_names[type];
	return "unknown";
}

static const char *const hw_names[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branches",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= "ref-cycles",
};

static const char *const sw_names[] = {
	[PERF_COUNT_SW_CPU_CLOCK]		= "cpu-clock",
	[PERF_COUNT_SW_TASK_CLOCK]		= "task-clock",
	[PERF_COUNT_SW_PAGE_FAULTS]		= "page-faults",
	[PERF_COUNT_SW_CONTEXT_SWITCHES]	= "context-switches",
	[PERF_COUNT_SW_CPU_MIGRATIONS]		= "cpu-migrations",
	[PERF_COUNT_SW_PAGE_FAULTS_MIN]		= "minor-faults",
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ]		= "major-faults",
	[PERF_COUNT_SW_ALIGNMENT_FAULTS]	= "alignment-faults",
	[PERF_COUNT_SW_EMULATION_FAULTS]	= "emulation-faults",
	[PERF_COUNT_SW_DUMMY]			= "dummy",
	[PERF_COUNT_SW_BPF_OUTPUT]		= "bpf-output",
	[PERF_COUNT_SW_CGROUP_SWITCHES]		= "cgroup-switches",
};

/* The name perf would give a plain hardware/software event; "unknown" else. */
const char *pd__builtin_name(const struct perf_event_attr *attr)
{
	const char *const *tab = NULL;
	size_t n = 0;

	if (attr->type == PERF_TYPE_HARDWARE) {
		tab = hw_names;
		n = sizeof(hw_names) / sizeof(hw_names[0]);
	} else if (attr->type == PERF_TYPE_SOFTWARE) {
		tab = sw_names;
		n = sizeof(sw_names) / sizeof(sw_names[0]);
	}
	if (tab && attr->config < n && tab[attr->config])
		return tab[attr->config];
	return "unknown";
}

/* Replace attr idx's name with at most max bytes of name (NUL or not). */
int pd__set_name(struct perfdata *pd, size_t idx, const char *name, size_t max)
{
	char *s;

	if (idx >= pd->nattrs)
		return 0;
	s = strndup(name, max);
	if (!s)
		return -1;
	free(pd->attrs[idx].name);
	pd->attrs[idx].name = s;
	return 0;
}

/* Bounded cursor over a feature section. */
struct pd_cur {
	const char *p;
	size_t left;
};

static int cur_take(struct pd_cur *c, void *dst, size_t n)
{
	if (n > c->left)
		return -1;
	if (dst)
		memcpy(dst, c->p, n);
	c->p += n;
	c->left -= n;
	return 0;
}

static int desc_one(struct perfdata *pd, struct pd_cur *c, uint32_t attr_sz,
		    uint32_t i, uint32_t nre)
{
	uint32_t nids, len;
	const char *name;
	uint64_t id;
	int idx;

	if (cur_take(c, NULL, attr_sz) || cur_take(c, &nids, 4) ||
	    cur_take(c, &len, 4))
		return -1;
	name = c->p;
	if (cur_take(c, NULL, len) || (uint64_t)nids * 8 > c->left)
		return -1;
	/* Match by the first id, as perf does; by position when there are none. */
	if (nids) {
		memcpy(&id, c->p, sizeof(id));
		idx = perfdata__evsel_of_id(pd, id);
	} else {
		idx = nre == pd->nattrs ? (int)i : -1;
	}
	c->p += (size_t)nids * 8;
	c->left -= (size_t)nids * 8;
	if (idx >= 0 && len && pd__set_name(pd, (size_t)idx, name, len))
		return -2;
	return 0;
}

/*
 * Parse a HEADER_EVENT_DESC payload: u32 nr, u32 attr_size, then per event
 * the attr, u32 nr_ids, a string (u32 len + padded bytes) and the ids.
 * A malformed section just leaves names alone; -1 only on ENOMEM.
 */
int pd__event_desc(struct perfdata *pd, const char *buf, size_t len)
{
	struct pd_cur c = { buf, len };
	uint32_t nre, attr_sz, i;

	if (cur_take(&c, &nre, 4) || cur_take(&c, &attr_sz, 4))
		return 0;
	for (i = 0; i < nre; i++) {
		int r = desc_one(pd, &c, attr_sz, i, nre);

		if (r == -2)
			return -1;
		if (r)
			break;
	}
	return 0;
}

/* PERF_RECORD_EVENT_UPDATE: only the NAME kind matters to us. */
int pd__event_update(struct perfdata *pd, const union perf_event *ev)
{
	const struct perf_record_event_update *u = &ev->event_update;
	size_t off = offsetof(struct perf_record_event_update, name);
	int idx;

	if (ev->header.size <= off || u->type != PERF_EVENT_UPDATE__NAME)
		return 0;
	idx = perfdata__evsel_of_id(pd, u->id);
	if (idx < 0)
		return 0;
	return pd__set_name(pd, (size_t)idx, u->name, ev->header.size - off);
}
