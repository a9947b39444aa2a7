/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_CAPTURES_H
#define AOTPERF_CLI_CAPTURES_H
/*
 * Several recordings of one build (the same cores), read one after the
 * other into what compare/ takes (compare/diff.h struct cmp_capture): per
 * recording, each core's self samples per local function and the run's
 * total. Each profile is dropped once copied, so memory is one profile
 * plus a counter per function per recording. Functions asked for are
 * classified in every recording and their class tables summed (the
 * static counts are the build's, the same in each).
 *
 * Used by `aotperf report -i a -i b ...`, `aotperf diff` (each side) and
 * `aotperf compare` (the WAMR side).
 */
#include "attr-args.h"
#include "../compare/diff.h"
#include "../compare/offcpu_diff.h"
#include "../view/captures.h"

/* A function to classify in every recording. */
struct capture_func {
	const char *spec;		/* as the user named it (NULL: picked) */
	struct core_func cf;		/* core and local function in this build */
	uint64_t samples;		/* its self samples, summed */
	struct cls_table t;		/* class table, samples summed over the recordings */
	uint64_t *insn_samples;		/* per instruction of its decode, summed (for loops/);
					 * freed by captures__exit */
	uint32_t ninsns;
};

struct captures {
	const char *label;		/* the side: "before", "after", or NULL */
	uint32_t n;			/* recordings read */
	const char *paths[ATTR_MAX_INPUTS];
	uint64_t attributed[ATTR_MAX_INPUTS];	/* samples in any core, per recording */
	struct view_read reads[ATTR_MAX_INPUTS];	/* cut short or whole, authoritative */
	struct cmp_capture caps[ATTR_MAX_INPUTS];
	const uint64_t **self;		/* [n * ncores] pointers into store */
	uint64_t *store;		/* every recording's self samples per function */
	const uint64_t **incl;		/* [n * ncores] inclusive samples, NULL until a
					 * profile has call graphs (captures.c) */
	uint64_t *incl_store;
	/* the same weighed by the samples' periods (attr_sample_period): CPU time */
	const uint64_t **self_period, **incl_period;
	uint64_t *period_store, *incl_period_store;
	int period_ns;			/* the first recording's event counts ns (cpu-clock) */
	/* per recording, each core's consistency ([n * ncores]); the cut: reads[] */
	struct attr_consistency *cons;
	struct capture_func *funcs;	/* borrowed from the caller, filled in */
	uint32_t nfuncs;
	const char *event;		/* the first recording's event: event_name, or NULL */
	char cpuid[64], cpudesc[128];	/* the first recording's machine (profile.h) */
	char event_name[128];		/* --event, else the one event perf recorded */
	struct cmp_side side;		/* what compare/ reads: cores and captures */
	struct attr_hist hist;		/* samples per (core, text offset), summed: listings */
	struct cmp_oc_side oc;		/* off-CPU rows summed, when a->opts.offcpu asks */
};

/*
 * Read every -i of a (a->inputs; the default perf.data when none) with a's
 * cores and options, printing each recording's warnings; classify funcs
 * (nfuncs of them, already resolved in a's cores) in each with the roles
 * override. Returns EXIT_OK, or the exit status of an error already
 * printed as "aotperf CMD: ...".
 */
int captures__read(struct captures *c, struct attr_args *a, const char *label,
		   struct capture_func *funcs, uint32_t nfuncs, const char *roles);
/*
 * The same, hook->fn called with each recording's profile (k: its index)
 * before it is dropped: what needs more of a recording than the captures
 * keep (diff --levers: the before build's lever table). hook NULL: none.
 */
struct captures_hook {
	int (*fn)(void *ctx, uint32_t k, struct profile *p, struct ap_err *err);
	void *ctx;
};
int captures__read_hook(struct captures *c, struct attr_args *a, const char *label,
			struct capture_func *funcs, uint32_t nfuncs, const char *roles,
			const struct captures_hook *hook);
void captures__exit(struct captures *c);

/*
 * Several captures of one build: aotperf report's path when -i is repeated
 * (report-captures.c). Options as report's; --hot and --frame-attribution
 * are not taken there.
 */
struct report_captures_opts {
	const char *json;		/* --json FILE or NULL */
	uint64_t top;			/* functions listed per core (0: all) */
	uint64_t min_samples;		/* every recording needs this many */
	const char *const *specs;	/* --func */
	uint32_t nspecs;
	const char *roles;		/* --roles */
};
int report__captures(struct attr_args *a, const struct report_captures_opts *o);

#endif
