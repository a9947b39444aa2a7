/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_FILTER_H
#define AOTPERF_ATTR_FILTER_H
/*
 * Which samples a reading keeps, in perf report's words: --pid, --tid,
 * --comm (the thread's command at the sample, as perf names it), --cpu
 * (perf's list: 0-2,5) and --time (perf's seconds.nanoseconds ranges, or
 * percent slices of the recording's first..last sample time). The
 * categories given must all hold; a list holds when any entry does.
 *
 * attr__run() applies it where samples are read, so every view built from
 * that reading (tables, call graphs, exports, diff) sees the same
 * samples: sample_filter__begin() per file read (percentages are of that
 * file), __note() for each COMM/FORK record of the sample pass (the
 * threads' commands), __keep() per sample or switch record, __end() after.
 */
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "../session/session.h"
#include "../util/err.h"

struct sample_filter;

struct sample_filter *sample_filter__new(void);
void sample_filter__delete(struct sample_filter *f);

/*
 * Add to a category from one option's value, a comma-separated list (the
 * option may be given again): pids and tids are whole numbers, comms names.
 * 0, or -1 with err saying what is wrong with the value (no option name:
 * the front end puts it in front).
 */
int sample_filter__add_pids(struct sample_filter *f, const char *list, struct ap_err *err);
int sample_filter__add_tids(struct sample_filter *f, const char *list, struct ap_err *err);
int sample_filter__add_comms(struct sample_filter *f, const char *list, struct ap_err *err);
/* perf's CPU list: "0", "0,2", "0-3,6"; repeatable. */
int sample_filter__add_cpus(struct sample_filter *f, const char *list, struct ap_err *err);
/*
 * perf report --time: "START,END" in seconds[.fraction] (either end may be
 * left out), several separated by spaces; or percent slices of the
 * recording: "10%/2" (the 2nd tenth), "10%/1,10%/3", "0%-10%,30%-40%",
 * "25%" (the first quarter). Given once.
 */
int sample_filter__set_time(struct sample_filter *f, const char *spec, struct ap_err *err);

/* The pids of --pid (for the front end's messages); *n of them. */
const uint32_t *sample_filter__pids(const struct sample_filter *f, uint32_t *n);
/* Anything to filter at all. NULL is an empty filter. */
int sample_filter__active(const struct sample_filter *f);
/* Anything but --pid to filter. */
int sample_filter__beyond_pids(const struct sample_filter *f);
/* "--comm a,b --cpu 0-1": what it keeps, as options; "" when nothing. */
void sample_filter__describe(const struct sample_filter *f, char *buf, size_t n);

/*
 * A reading of s starts (again): its threads forgotten (with --comm, or
 * the commands tracked, a file whose records carry their time gives its
 * threads' commands over time first: a pass of the session of its own,
 * once per file, attr/threadcomms.h), percent slices made absolute from
 * its first and last sample time. 0, or -1 with err
 * ("FILE: --time 10%/2: ...").
 */
int sample_filter__begin(struct sample_filter *f, struct session *s, struct ap_err *err);
/* A COMM or FORK record (others are ignored); -1 when out of memory. */
int sample_filter__note(struct sample_filter *f, const struct pd_event *ev);
/* Follow the threads' commands even when no --comm asks (for sample_filter__comm). */
void sample_filter__track_comms(struct sample_filter *f);
/* The sample's thread's command at its time, as perf names it; "" when the recording never said. */
const char *sample_filter__comm(struct sample_filter *f, const struct pd_sample_id *sid);
/* Keep a sample (or a switch record) of this id? */
int sample_filter__keep(struct sample_filter *f, const struct pd_sample_id *sid);
/* After the read: -1 with err when a sample lacked a field a filter needs (--cpu, --time). */
int sample_filter__end(const struct sample_filter *f, const char *path, struct ap_err *err);

#endif
