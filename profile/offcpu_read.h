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
#include "../session/session.h"

struct offcpu_reader;
struct hostmaps;
struct hostsyms;

/*
 * Does the recording s reads carry off-CPU data (switch records, or
 * offcpu-time samples)? Its header says: 1 and *on_event (malloc'ed: the
 * first event that is neither a tracepoint nor offcpu-time, NULL when
 * none), else 0; -1 with err when it does but its tracing data is
 * damaged. Standard input: 0, its stream says (offcpu_reader__begin).
 */
int offcpu__probe(struct session *s, char **on_event, struct ap_err *err);

struct offcpu_reader *offcpu_reader__new(struct profile *p, struct session *s,
					 struct hostmaps *maps, struct hostsyms *syms,
					 struct ap_err *err);
/*
 * Standard input's reader (it is read once), once its header records are read
 * (attr's on_begin): 1 and *out when it carries off-CPU data, 0 when not,
 * -1 with err (as offcpu__probe).
 */
int offcpu_reader__begin(struct profile *p, struct session *s, struct hostmaps *maps,
			 struct hostsyms *syms, struct offcpu_reader **out, struct ap_err *err);
/* The on-CPU event offcpu__probe names (NULL: none); the reader owns it. */
const char *offcpu_reader__on_event(const struct offcpu_reader *r);
/*
 * A selected sample: on-CPU time, to the innermost wasm function of its
 * callchain (without one: core's local function func when core >= 0).
 */
void offcpu_reader__sample(struct offcpu_reader *r, const struct pd_sample *s, int core,
			   uint32_t func, struct attr_lookup *lk);
/* attr's on_other: the switch samples and records, offcpu-time samples. */
/*
 * Context switch records straight from the reader, a run at a time
 * (session.h, session__set_switch_fn): what offcpu_reader__other() does
 * with each, for a reading whose attribution would only pass them on (no
 * --pid or filter, one event, read once). takes_switches: the view reads
 * them at all.
 */
void offcpu_reader__switches(struct offcpu_reader *r, const struct pd_switch *sw, size_t n);
int offcpu_reader__takes_switches(const struct offcpu_reader *r);
void offcpu_reader__other(struct offcpu_reader *r, const struct pd_event *ev,
			  struct attr_lookup *lk);
void offcpu_reader__restart(struct offcpu_reader *r);
int offcpu_reader__end(struct offcpu_reader *r, struct ap_err *err);
void offcpu_reader__delete(struct offcpu_reader *r);

#endif
