/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_RECORD_OFFCPU_H
#define AOTPERF_CLI_RECORD_OFFCPU_H
/*
 * record --off-cpu: which way the installed perf records off-CPU time
 * (profile/offcpu.h reads both), and the perf record arguments for it.
 */
#include <stddef.h>

enum rec_offcpu {
	REC_OFFCPU_SWITCH = 1,	/* -e sched:sched_switch -g --switch-events (any perf), raw_syscalls */
	REC_OFFCPU_BPF,		/* --off-cpu: perf built with BPF skeletons */
};

/*
 * Runs `PERF record --off-cpu -q -o TMP -- true` in a scratch folder: BPF
 * when that wrote a recording holding an offcpu-time event (a perf without
 * BPF skeletons warns that it ignores the option, and records none).
 */
enum rec_offcpu rec_offcpu__pick(const char *perf);
/* One line on what is recorded, for the user. */
const char *rec_offcpu__describe(enum rec_offcpu form);
/* perf record's arguments for the form, NULL-terminated (at most 8). */
const char *const *rec_offcpu__args(enum rec_offcpu form);
/*
 * The switch form's on-CPU event with its frequency as a term,
 * "EVENT/freq=HZ,name=EVENT/" into buf, to pass instead of -F HZ: perf
 * applies -F to every event, the sched_switch tracepoint too, which then
 * samples only some switches and leaves the others without a stack. 1 when
 * written; 0 when -F stays (BPF form, -F max, an event that is not a plain
 * name, buf too small).
 */
int rec_offcpu__event(enum rec_offcpu form, const char *event, const char *freq, char *buf,
		      size_t size);

#endif
