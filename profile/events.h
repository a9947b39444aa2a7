/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_EVENTS_H
#define AOTPERF_PROFILE_EVENTS_H
/*
 * The sampling events of a recording, as perf names them ("cpu-clock",
 * "task-clock"), in the recording's order; perf's dummy tracking events
 * (they carry mapping records, never samples) left out. A report of a
 * recording with several reads it once per event (profile_opts.event),
 * as perf report shows one table per event.
 */
#include <stdint.h>
#include "../util/err.h"

struct profile_events {
	char **names;
	uint32_t n;
};

/*
 * Read perf_path's header. A pipe ("-") names its events inside the stream:
 * none listed here. 0, or -1 with err (a file that is no perf.data).
 */
int profile_events__read(const char *perf_path, struct profile_events *ev, struct ap_err *err);
void profile_events__exit(struct profile_events *ev);

#endif
