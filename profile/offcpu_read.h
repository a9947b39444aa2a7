/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_OFFCPU_READ_H
#define AOTPERF_PROFILE_OFFCPU_READ_H
/*
 * Inside profile/: the off-CPU producer (offcpu.h) for profile__read, fed
 * by read.c's hooks; host frames named from read.c's mapping timeline and
 * symbols. offcpu_reader__end moves the result into p->offcpu.
 */
#include "internal.h"
#include "offcpu.h"

struct offcpu_reader;
struct hostmaps;
struct hostsyms;

/*
 * Does the recording at path carry off-CPU data (switch records, or
 * offcpu-time samples)? 1 and *on_event (malloc'ed: the first event that
 * is neither a tracepoint nor offcpu-time, NULL when none), else 0. A pipe: 0.
 */
int offcpu__probe(const char *path, char **on_event);

struct offcpu_reader *offcpu_reader__new(struct profile *p, const char *path,
					 struct hostmaps *maps, struct hostsyms *syms,
					 struct ap_err *err);
/*
 * A selected sample: on-CPU time, to the innermost wasm function of its
 * callchain (without one: core's local function func when core >= 0).
 */
void offcpu_reader__sample(struct offcpu_reader *r, const struct pd_sample *s, int core,
			   uint32_t func, struct attr_lookup *lk);
/* attr's on_other: the switch samples and records, offcpu-time samples. */
void offcpu_reader__other(struct offcpu_reader *r, const struct pd_event *ev,
			  struct attr_lookup *lk);
void offcpu_reader__restart(struct offcpu_reader *r);
int offcpu_reader__end(struct offcpu_reader *r, struct ap_err *err);
void offcpu_reader__delete(struct offcpu_reader *r);

#endif
