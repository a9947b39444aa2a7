// SPDX-License-Identifier: MIT
/*
 * Names: record types for diagnostics and built-in event names
 * (event_names.c reads the names perf stores).
 */
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
