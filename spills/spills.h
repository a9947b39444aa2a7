/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SPILLS_H
#define AOTPERF_SPILLS_H
/*
 * The spill analysis behind `aotperf spills`: the compile-time metric log
 * (spills-log.h) ranked by a field, joined with a recording's runtime self
 * samples (a profile, profile/profile.h), cross-checked against the frame
 * reloads decoded from the cores, and diffed against a second log. The upstream
 * skill's lesson: the biggest compile-time spiller may never run. Nothing
 * here prints; render/spills.h writes the text and the JSON.
 *
 * Which log module a core is: a manifest core's idx, else the i-th lone
 * .cwasm takes mods[i] (default 0).
 */
#include <stdint.h>
#include "spills-log.h"
#include "../cwasm/coreset.h"
#include "../profile/profile.h"
#include "../util/err.h"

struct spills_opts {
	const char *log_path;		/* "-" is stdin */
	const char *vs_path;		/* the log to diff against, NULL: none */
	const char *sort;		/* field to rank by (spill_ld when NULL) */
	uint64_t top;			/* rows to list; 0: all */
	uint64_t heavy;			/* the "heavy spiller" cut: the top N by spill_ld */
	int lenient;			/* skip malformed metric lines (warnings) */
	double cold_pct, hot_pct;	/* under cold_pct% of the run is cold; hot_pct% or more hot */
	const uint64_t *mods;		/* the log module of each lone core, in order */
	uint32_t nmods;
	const char *roles;		/* register roles for the frame-reload decode, NULL default */
};

/* A function with runtime samples, against the log. */
struct spills_hot {
	int core;
	uint32_t func;
	uint64_t samples;
	const struct spill_rec *rec;	/* NULL: not in the log */
	uint32_t spill_rank;		/* 0 when not in the log */
	int few_spills;
};

/* One function of either log in the diff (merged on mod, func). */
struct spills_diff {
	uint32_t mod, func;
	const struct spill_rec *a, *b;	/* before, after; NULL when absent */
	int has_a, has_b;		/* the field is there */
	uint64_t va, vb;
	int64_t samples;		/* -1 unknown */
};

struct spills {
	const struct spills_opts *o;
	const struct core_set *cs;	/* may hold no core */
	const struct profile *p;	/* the joined recording, NULL when none */
	struct spill_log log, other;
	int field, spill_field;		/* sort field id; spill_ld's id */
	const char *sort;		/* the sort field's name */
	uint32_t ntop;			/* rows to list (top N, capped) */
	uint32_t nheavy;		/* heavy spillers (heavy N, capped): independent of top */
	uint32_t *order;		/* by the sort field */
	uint32_t *sp_order;		/* by spill_ld */
	uint32_t *spill_rank;		/* per rec, 1-based */
	uint32_t *core_mod;		/* per core: its mod in the log */
	int *rec_core;			/* per rec: core index or -1 */
	int64_t *static_ld;		/* per rec: decoded frame reloads, -1 unknown */
	int multi;			/* several modules: label functions with mod */
	struct spills_hot *hot;		/* hot_pct% or more, hottest first */
	uint32_t nhot;
	struct spills_hot hottest;	/* samples 0 when nothing ran */
	char lesson[768];
	struct spills_diff *diff;
	uint32_t ndiff;
	uint64_t name_mismatch;
	char first_mismatch[256];
	int no_core_match;		/* cores given, but no logged function is in one */
	struct ap_warnings warnings;	/* decode failures, the above (with hints) */
};

/* Read the log(s), check them against the cores, rank. */
int spills__prepare(struct spills *s, const struct spills_opts *o, const struct core_set *cs,
		    struct ap_err *err);
/* Join with a recording: the hot functions, the hottest, the lesson. */
int spills__join(struct spills *s, const struct profile *p, struct ap_err *err);
/* Decode the listed and hot functions' code and count their frame reloads. */
int spills__cross_check(struct spills *s, struct ap_err *err);
/* Both logs merged on (mod, func), by |delta| (by runtime heat once joined). */
int spills__diff(struct spills *s, struct ap_err *err);
void spills__exit(struct spills *s);

/* For the renderers. */
const char *spills__fn_label(const struct spills *s, uint32_t mod, uint32_t func, char *buf,
			     size_t len);
const struct cwasm_module *spills__core(const struct spills *s, int core);
uint64_t spills__rec_samples(const struct spills *s, uint32_t ri);
int spills__known(const struct spills *s, uint32_t ri);
/* "never-run", "barely-run", "hot" or "" for a record with known samples. */
const char *spills__note(const struct spills *s, uint32_t ri);
/* "0 samples" or "12.3% of run". */
const char *spills__heat(const struct spills *s, uint64_t samples, char *buf, size_t len);
uint64_t spills__field_total(const struct spill_log *log, int field);
const char *spills__diff_name(const struct spills_diff *d);
/* Percent change, NAN when there is no "before". */
double spills__diff_pct(const struct spills_diff *d);
uint64_t spills__total_samples(const struct spills *s);

#endif
