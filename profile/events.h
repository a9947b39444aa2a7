/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_EVENTS_H
#define AOTPERF_PROFILE_EVENTS_H
/*
 * The sampling events of a recording, as perf names them ("cpu-clock",
 * "task-clock"), in the recording's order; perf's dummy tracking events
 * (they carry mapping records, never samples) left out. A report of a
 * recording with several makes a profile per event (profile_opts.event),
 * all from one read (profile__read_events), as perf report shows one
 * table per event.
 */
#include <stdint.h>
#include "../session/session.h"
#include "../util/err.h"

struct profile_events {
	char **names;
	uint32_t n;
};

/*
 * From the header s has read. Standard input ("-") names its events inside
 * the stream: none listed here. 0, or -1 with err (out of memory).
 */
int profile_events__of(struct session *s, struct profile_events *ev, struct ap_err *err);
void profile_events__exit(struct profile_events *ev);

#endif
