/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_H
#define AOTPERF_PROFILE_H
/*
 * The analysis result: one recording attributed to cores, functions and
 * text offsets, and the functions looked at closely. Every output is a
 * renderer of this structure (render/); a new output format is a new file
 * there, never a new pass over perf.data.
 *
 * Two producers fill it the same way:
 *   profile__read()    aotperf: reads perf.data through its session
 *                      (session/session.h; MMAP records give the mappings,
 *                      attr/attr.h has the mapping rule); one profile per
 *                      sampling event from one read: profile__read_events();
 *   profile__new() +   the dlfilter: perf hands it samples one by one and
 *   profile__sample()  no MMAP records (regions found by probing,
 *                      attr/regions.h), then profile__set_mapping().
 * Both end with profile__finish() (rankings), and optionally
 * profile__add_func() / profile__add_hot() + profile__classify() for the
 * functions to classify.
 *
 * What it holds:
 *   attr       per core: self samples per local function (func_samples),
 *              ranked (hottest first), mapping (first base/length, count,
 *              authoritative, pin); in all: total and attributed samples,
 *              the mapping records (perf.data only: symbolize/ rewrites
 *              them), passes, truncation, warnings.
 *   hist       samples per (core, text offset): per-instruction counts.
 *   funcs      functions looked at closely: decoded, classified, weighted
 *              (classify/funcclass.h), their upstream helper's view
 *              (profile/sidecar.h), with the compiler's frame-attribution
 *              sidecar and its origins (frames/) when asked.
 *   stacks     call stacks (profile/stacks.h), when profile_opts.stacks
 *              asks (perf.data only): a tree of (core, function | host
 *              symbol | kernel | "[caller unknown]") nodes from the
 *              outermost caller down, self and total samples per node;
 *              per symbol self, inclusive (once per sample) and
 *              caller-unknown samples; caller -> callee edges; with host
 *              too, where each stack's samples were taken (its leaves).
 *              Filled from attr's sample hook as the file streams by.
 *   host       (perf.data, when asked: profile_opts.host) the samples no
 *              core holds, by DSO and ip, named as perf names them
 *              (profile/host.h); NULL otherwise. Stacks and host name host
 *              frames from one timeline and one symbol reader (read.c).
 *
 *   levers     (report --levers) the run's lever table (profile/levers.h):
 *              its own classified functions and modelled loops; NULL
 *              otherwise.
 *
 *   offcpu     (perf.data with context switches or offcpu-time samples, when
 *              profile_opts.offcpu allows) off-CPU time per wasm function
 *              and per process beside the on-CPU time (profile/offcpu.h);
 *              NULL otherwise.
 *
 * Extending (call stacks, comparisons, other engines): add a member here
 * with its own producer step (e.g. profile__add_stacks() filled from the
 * sample hook of attr_opts) and document it in this comment; renderers
 * that do not know a member ignore it, so nothing else changes. A
 * comparison takes two profiles; it does not merge them into one.
 *
 * Lifetime: the profile borrows the core set (cwasm/coreset.h) and the
 * input/event strings; they must outlive it.
 */
#include <stdint.h>
#include "../attr/attr.h"
#include "../attr/hist.h"
#include "../classify/funcclass.h"
#include "../cwasm/coreset.h"
#include "../session/session.h"
#include "../util/err.h"
#include "stacks.h"

enum profile_source {
	PROFILE_RECORDS,	/* perf.data: mappings from its MMAP records */
	PROFILE_SAMPLES,	/* fed sample by sample: regions found from the samples */
	PROFILE_STATIC,		/* no recording: functions classified from the code alone */
};

struct profile_sidecar;
struct helper_view;

/* A function looked at closely (report --func/--hot, the dlfilter's func= or hottest). */
struct profile_func {
	uint32_t core, func;
	const char *spec;	/* as the user named it; NULL when picked by heat */
	uint64_t samples;	/* its self samples */
	int classified;		/* cls is valid */
	struct cls_result cls;	/* decoded, per-instruction samples, class table */
	/* the frame-attribution sidecar (profile/sidecar.h); NULL when not asked */
	struct profile_sidecar *sc;
	/* the upstream helper's classes and hottest instructions; set by classify */
	struct helper_view *hv;
	/* blocks, loops and their model (loops/loops.h); NULL unless asked */
	struct lp_func *loops;
};

struct profile_host;
struct profile_offcpu;
struct progress;
struct lp_func;
struct lp_levers;

struct profile {
	enum profile_source source;
	char *input;			/* perf.data as given (owned); NULL for fed samples */
	const char *event;		/* samples of this event only; NULL: all */
	const struct core_set *cs;	/* the cores; attr.cores[i].mod == cs->mods[i] */
	struct attr_result attr;	/* see attr/attr.h and above */
	struct attr_hist hist;		/* samples per (core, text offset) */
	struct profile_func *funcs;	/* in the order asked */
	uint32_t nfuncs;
	size_t cap_funcs;
	int finished;			/* profile__finish ran */
	struct profile_stacks *stacks;	/* NULL unless asked (profile/stacks.h) */
	struct profile_host *host;	/* see above; NULL unless asked */
	struct profile_offcpu *offcpu;	/* see above; NULL unless there and asked */
	/* the samples by perf report --sort's keys (profile/sorted.h); NULL unless asked */
	struct profile_sorted *sorted;
	struct lp_levers *levers;	/* see above; NULL unless asked */
	/* its destructor, set with it (the dlfilter links no profile/levers.o) */
	void (*levers_delete)(struct lp_levers *lv);
	/*
	 * The recording machine (perf's HEADER_CPUID, HEADER_CPUDESC; "" when
	 * it holds none), for llvm-mca's -mcpu (loops/mca.h).
	 */
	char cpuid[64], cpudesc[128];
};

/* Pins (aotperf's --base, the dlfilter's base=): the i-th pins the i-th core. */
#define PROFILE_MAX_PINS 64

struct profile_pins {
	uint64_t base[PROFILE_MAX_PINS];
	uint32_t n;
};

/*
 * Append a pin written in hex ("7f3a0000", "0x7f3a0000"). 0, or -1 with
 * err "'X' is not a hex address" or "at most 64" (the front end names its
 * option in front).
 */
int profile_pins__add(struct profile_pins *p, const char *hex, struct ap_err *err);

enum profile_stacks_opt {
	PROFILE_STACKS_NO = 0,
	PROFILE_STACKS_YES,		/* always (p->stacks->mode says whether there were any) */
	PROFILE_STACKS_RECORDED,	/* when the recording has them: else p->stacks stays NULL */
};

enum profile_offcpu_opt {
	PROFILE_OFFCPU_NO = 0,
	PROFILE_OFFCPU_AUTO,		/* when the recording has off-CPU data (report) */
	PROFILE_OFFCPU_YES,		/* asked: a recording without any fails */
};

struct profile_opts {
	const char *event;		/* NULL: every event */
	int pid;			/* -1: every process */
	struct sample_filter *filter;	/* perf report's filters (attr/filter.h); NULL: none */
	const uint64_t *pins;		/* pins[i]: core i's pinned base (0 none); NULL: none */
	uint32_t npins;
	int require_size_match;		/* AP_ERR_GATE unless each core's mapping is unique */
	int two_pass;			/* read the mappings first, always (tests) */
	int stacks;			/* enum profile_stacks_opt: aggregate call stacks (p->stacks) */
	int host;			/* also name the samples no core holds (p->host) */
	/* also count the samples by --sort's keys (p->sorted); needs host and a filter
	 * following the commands (attr/filter.h) */
	int sorted;
	/*
	 * enum profile_offcpu_opt: the off-CPU view (p->offcpu). With it and
	 * no event named, the samples counted are the first event that is
	 * not a tracepoint (cpu-clock), not the switches.
	 */
	int offcpu;
	struct progress *progress;	/* a progress line while reading (util/progress.h), or NULL */
	/* a command's own consumers of the same pass (session/session.h), or none */
	struct session_tool *const *tools;
	uint32_t ntools;
};

/*
 * Read the recording of s (session/session.h; "-": standard input) and
 * attribute its samples to the cores of cs. 0 and *out (finished), or -1
 * with err.
 */
int profile__read(struct session *s, const struct core_set *cs,
		  const struct profile_opts *o, struct profile **out, struct ap_err *err);
/*
 * The same for n events at once (events[i] in place of o->event; NULL:
 * o->event for the one), every profile fed by the same pass of s: out[i],
 * or NULL with errs[i] saying why that event has none ("no samples of the
 * selected event", ...). 0, or -1 with err when the read itself failed
 * (then every out[i] is NULL).
 */
int profile__read_events(struct session *s, const struct core_set *cs,
			 const struct profile_opts *o, const char *const *events, uint32_t n,
			 struct profile **out, struct ap_err *errs, struct ap_err *err);

/*
 * A profile of cs without a recording (report --func without -i): no
 * samples, finished; profile__classify() then gives static counts only.
 */
int profile__new_static(const struct core_set *cs, struct profile **out, struct ap_err *err);

/* An empty profile of cs, to be fed with profile__sample(). */
int profile__new(const struct core_set *cs, const uint64_t *pins, uint32_t npins,
		 const char *event, struct profile **out, struct ap_err *err);
/*
 * One sample: counted in the run, and when core >= 0 at text offset off of
 * that core. Returns its local function, or -1 (no core, or past the text).
 */
int64_t profile__sample(struct profile *p, int core, uint64_t off);
/* Where core was found: regions given to it, the first one, unique or not. */
void profile__set_mapping(struct profile *p, uint32_t core, uint32_t nmappings,
			  uint64_t first_base, uint64_t first_len, int authoritative);
/*
 * The recording the samples came from: read of its expected data bytes,
 * cut short or not, as profile__read says it; no core of a cut one is
 * authoritative. For a profile fed samples (the dlfilter); call after the
 * mappings.
 */
void profile__set_read(struct profile *p, int cut, uint64_t read, uint64_t expected);
/* Rank every core's functions; call once all samples are in. */
int profile__finish(struct profile *p, struct ap_err *err);

void profile__delete(struct profile *p);

/*
 * The samples against each core's code (attr/consistency.h), from hist and
 * rets (the -g return addresses, NULL: none), into each core's consistency;
 * a core that fails is not authoritative and gets a warning, and so is
 * every core of a recording cut short. profile__read runs it; implemented
 * in profile/consistency.c.
 */
int profile__check_consistency(struct profile *p, const struct attr_hist *rets,
			       struct ap_err *err);
/*
 * 0, or -1 with err (AP_ERR_GATE): the recording is cut short
 * (profile__require_whole), or a core's samples do not fit its code (the
 * first failing core's figures). What every gate and every command that
 * writes a derived recording asks (docs/damaged-recordings.md).
 */
int profile__require_consistent(const struct profile *p, struct ap_err *err);
/*
 * Why core's samples can carry no lever verdict: the recording is cut
 * short, or they do not fit the core's code (another build?); NULL when
 * they can. profile__classify puts it in each class table (no_verdict).
 */
const char *profile__no_verdict(const struct profile *p, uint32_t core);
/* 0, or -1 with err (AP_ERR_GATE, "FILE: cut short: ...") when the recording was cut short. */
int profile__require_whole(const struct profile *p, struct ap_err *err);
/*
 * The one wording of a recording cut short (read of expected data bytes),
 * after each output's "cut short:" label: "read N of M data bytes (P%):
 * the records after the cut are missing; not authoritative".
 */
void profile__cut_words(uint64_t read, uint64_t expected, char *buf, size_t len);

/* Look closely at local function func of core (spec: how the user named it, or NULL). */
int profile__add_func(struct profile *p, const char *spec, uint32_t core, uint32_t func,
		      struct ap_err *err);
/* The k hottest functions over all cores not already added, hottest first. */
int profile__add_hot(struct profile *p, uint32_t k, struct ap_err *err);
/* The hottest function over all cores: 1 and *core, *func; 0 when nothing ran. */
int profile__hottest(const struct profile *p, uint32_t *core, uint32_t *func);
/*
 * Frame-attribution sidecars (frames/frames.h, docs/sidecar.md), read and
 * checked before anything is printed so a bad one fails cleanly:
 * PREFIX.mod<M>.func<N>.json of every added function (M the manifest idx,
 * 0 for a lone core), a missing one only noted; or the one file path for
 * added function i (missing: an error). Implemented in profile/sidecar.c.
 */
int profile__load_sidecars(struct profile *p, const char *prefix, struct ap_err *err);
/* The same for added function i as module mod (a lone core's index in a log, say). */
int profile__find_sidecar(struct profile *p, uint32_t i, const char *prefix, uint32_t mod,
			  struct ap_err *err);
int profile__set_sidecar(struct profile *p, uint32_t i, const char *path, struct ap_err *err);
/*
 * Decode, weight and classify every added function (roles: an override or
 * NULL); with a sidecar also its origins, which the lever verdict then uses.
 */
int profile__classify(struct profile *p, const char *roles, struct ap_err *err);
/*
 * The blocks and loops of every classified function (f->loops) and, with
 * model, their llvm-mca model on the CPU that recorded (profile/loops.c).
 */
int profile__loops(struct profile *p, int model, struct ap_err *err);

#endif
