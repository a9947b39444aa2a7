/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_REPORT_EVENTS_H
#define AOTPERF_CLI_REPORT_EVENTS_H
/*
 * report on a recording with several sampling events (perf record -e
 * cpu-clock,task-clock): one profile per event, as perf report shows one
 * table per event; --event NAME, or a recording of one event, gives one.
 */
#include "attr-args.h"
#include "../profile/events.h"

#define REPORT_MAX_EVENTS 16

struct report_events {
	struct profile *p[REPORT_MAX_EVENTS];	/* p[0] is also a->p (owned there) */
	uint32_t n;		/* events with samples; one of several without is left out */
	struct profile_events names;	/* the recording's sampling events (profiles borrow them) */
};

/*
 * A profile per sampling event of a->input (profile/events.h; one for a
 * recording of one, with perf's tracking events left out) unless --event
 * names one, all from one read of its session (a->s); a pipe must hold
 * one event or name it with --event. Prints the warnings once. EXIT_OK,
 * or the exit status of the error, printed.
 */
int report_events__read(struct report_events *ev, struct attr_args *a);
/* The profiles past the first (a->p frees that one). */
void report_events__exit(struct report_events *ev);

#endif
