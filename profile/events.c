// SPDX-License-Identifier: MIT
/* The sampling events of a recording (see events.h). */
#include <stdlib.h>
#include <string.h>
#include "events.h"
#include "../perfdata/perfdata.h"
#include "../session/session.h"

/* perf's tracking event ("dummy:u", "dummy:HG"): mappings and comms, no samples. */
static int is_dummy(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY;
}

/*
 * The events the off-CPU view reads (profile/offcpu*.c): sched_switch
 * tracepoint samples and BPF's offcpu-time, and in a recording with switch
 * records the system call tracepoints it splits off-CPU time by. Their
 * samples count switches or system calls, not time on CPU: with another
 * sampling event in the recording they are its off-CPU part, not a table
 * of their own.
 */
static int serves_offcpu(const char *name, int switches)
{
	return !strcmp(name, "sched:sched_switch") || !strcmp(name, "offcpu-time") ||
	       (switches && (!strcmp(name, "raw_syscalls:sys_enter") ||
			     !strcmp(name, "raw_syscalls:sys_exit") ||
			     !strncmp(name, "syscalls:sys_enter_", 19) ||
			     !strncmp(name, "syscalls:sys_exit_", 18)));
}

static int listed(const struct profile_events *ev, const char *name)
{
	for (uint32_t i = 0; i < ev->n; i++)
		if (!strcmp(ev->names[i], name))
			return 1;
	return 0;
}

static void drop_offcpu_events(struct profile_events *ev, int switches)
{
	uint32_t keep = 0;

	for (uint32_t i = 0; i < ev->n; i++)
		keep += !serves_offcpu(ev->names[i], switches);
	if (!keep || keep == ev->n)
		return;
	keep = 0;
	for (uint32_t i = 0; i < ev->n; i++) {
		if (serves_offcpu(ev->names[i], switches))
			free(ev->names[i]);
		else
			ev->names[keep++] = ev->names[i];
	}
	ev->n = keep;
}

int profile_events__of(struct session *s, struct profile_events *ev, struct ap_err *err)
{
	struct perfdata *pd = session__data(s);
	int switches = 0;
	size_t n;

	memset(ev, 0, sizeof(*ev));
	if (session__stdin(s))
		return 0;
	n = perfdata__nevsels(pd);
	ev->names = calloc(n ? n : 1, sizeof(*ev->names));
	if (!ev->names)
		return ap_err_nomem(err);
	for (size_t i = 0; i < n; i++) {
		const struct pd_evsel *e = perfdata__evsel(pd, i);

		switches |= !!e->attr.context_switch;
		if (is_dummy(&e->attr) || listed(ev, e->name ? e->name : "unknown"))
			continue;	/* one name, one event: --event NAME picks its first */
		ev->names[ev->n] = strdup(e->name ? e->name : "unknown");
		if (!ev->names[ev->n++]) {
			profile_events__exit(ev);
			return ap_err_nomem(err);
		}
	}
	drop_offcpu_events(ev, switches);
	return 0;
}

void profile_events__exit(struct profile_events *ev)
{
	for (uint32_t i = 0; i < ev->n; i++)
		free(ev->names[i]);
	free(ev->names);
	memset(ev, 0, sizeof(*ev));
}
