/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_DIFF_H
#define AOTPERF_VIEW_DIFF_H
/*
 * The view of `aotperf diff` (docs/views.md, docs/compare.md): everything
 * its text, JSON, Markdown and HTML say, computed once from the diff of
 * two builds (compare/diff.h) and each side's recordings: the tables
 * (view/table.h) of the run and wasm totals, the functions (self and
 * inclusive: time per run first, share of the run second, their changes,
 * tests and verdict words), renames, additions, removals, moves, the
 * class tables of --func, the gate's checks; per side its recordings'
 * run time, truncation and the consistency of its cores with them
 * (attr/consistency.h); the words of the header, the warnings and the
 * gate's verdict. The formats (render/diff-*.c) only format it.
 *
 * Time per run is a function's samples weighed by their periods (ns of
 * CPU time for cpu-clock), the mean over a side's recordings; a
 * function's time and its change stay at hand for what builds on a diff
 * (predicted against measured payoffs): the row's cmp_func,
 * d->funcs[view_diff__func_of(v, row)].self_time.
 */
#include <stdint.h>
#include "table.h"
#include "../attr/consistency.h"
#include "../compare/diff.h"
#include "../compare/offcpu_diff.h"
#include "../util/err.h"

struct render_loop_pair;
struct view_levers_diff;

/* One recording of a side, as read (cli/captures.c fills these). */
struct view_diff_rec {
	const char *path;
	int truncated;			/* cut short (attr_result.truncated) */
	uint64_t bytes_read, bytes_expected;
	const struct attr_consistency *cons;	/* [the side's ncores], borrowed */
};

/* A function looked at closely (--func): its class tables before and after. */
struct view_diff_func {
	const char *spec;		/* as the user named it */
	int64_t pair;			/* index into d->pairs, -1 when not found */
	uint32_t wasm_index;
	int64_t local_before, local_after; /* -1: not in that build */
	const char *name;		/* wasm name (after's, else before's) or NULL */
	uint64_t samples_before, samples_after; /* its self samples, summed */
	const struct cls_table *before, *after; /* summed over the captures */
	struct cmp_cls_diff cls;
	const struct render_loop_pair *loops;	/* hottest loops modelled; NULL: not */
};

/* What the view is built from (borrowed; it must outlive the view). */
struct view_diff_input {
	const char *tool;		/* "aotperf diff" */
	const struct cmp_diff *d;
	const struct cmp_side *side[2];	/* before, after: cores and captures */
	const struct view_diff_rec *recs[2];	/* [side[k]->ncaptures] */
	const char *event;		/* the samples' event, or NULL */
	int period_ns;			/* the event's period is ns of CPU time (cpu-clock) */
	uint64_t top;			/* function rows shown (text, Markdown); 0: all */
	uint32_t nfuncs;		/* --func */
	const struct view_diff_func *funcs;
	const struct cmp_gate *gate;	/* NULL: no --fail-if-slower */
	const char *gate_what;		/* what it judged */
	int gate_wasm;
	int by_share;			/* --by share: shares sort and judge */
	int force;			/* --force: judge inconsistent or cut recordings */
	const struct cmp_offcpu *oc;	/* both sides' off-CPU time; NULL: not both */
	const char *oc_note;		/* one side only has it: the line saying so */
	const struct view_levers_diff *levers;	/* --levers (view/levers-diff.h); NULL: none */
};

/* A side's recordings against its cores, and their run time. */
struct view_diff_side {
	const char *word;		/* "before", "after" */
	const struct cmp_side *cs;
	const struct view_diff_rec *recs;
	struct vt_table *recordings;	/* per recording: path, samples, time, truncated, ... */
	struct vt_table *cores;		/* per core: name, file, consistency summed */
	int truncated;			/* a recording was cut short */
	int consistent;			/* every recording fits every core */
	char problem[768];		/* the first cut or inconsistent recording, in words */
};

struct view_diff {
	struct view_diff_input in;
	const struct cmp_diff *d;
	int time;			/* both sides have times: time comes first */
	const char *time_unit;		/* JSON's unit of times: "ns", or the event's name */
	const char *ms_word;		/* headings: "ms", or "M <event>" */
	const char *test_words;		/* the tests used, in words */
	const char *adjust_words;	/* "Holm", "Bonferroni", "no" */
	const char *adjust_key;		/* "holm", "bonferroni", "none" */
	struct view_diff_side side[2];
	/* the runs' CPU time: a line when they differ by more than the noise */
	char run_note[400];
	/* tables */
	struct vt_table *totals;	/* the run, wasm code, each core pair */
	struct vt_table *funcs;		/* self, by the judged change; cut to --top */
	struct vt_table *incl;		/* inclusive; NULL without call graphs on both */
	uint32_t *row_func;		/* funcs' rows (as added) -> d->funcs index */
	uint32_t *incl_row_func;
	struct vt_table *renamed, *removed, *added, *moves;
	struct vt_table **classes;	/* [in.nfuncs]: each --func's class rows */
	/* off-CPU time (in.oc): the JSON's rows, the waits' and the wall table shown */
	struct vt_table *oc_json, *oc_self, *oc_wall;
	/* each side's run: rows before, after; columns enum view_diff_oc_run */
	struct vt_table *oc_runs;
	double oc_level_pct;		/* the tests' level, in percent */
	/* the gate */
	struct vt_table *checks;	/* NULL: no gate */
	const char *gate_by;		/* "time per run" / "share of the run" */
	const char *gate_verdict;	/* "FAILED", "passed", "nothing ran before" */
	int gate_failed;		/* slower, or blocked by a cut/inconsistent side */
	int gate_blocked;		/* the recordings cannot be judged (no --force) */
	char gate_line[1024];		/* why it failed, one line; "" when it passed */
	/* the words of every warning (the diff's, the runs') */
	struct ap_warnings warnings;
	/* the after build's functions the HTML lists: (core, local function) */
	uint32_t nlisted;
	uint32_t (*listed)[2];
};

/* The columns of oc_runs: its JSON keys on_cpu_ns, off_cpu_ns, wall_ns, intervals. */
enum view_diff_oc_run { VD_RUN_WORD, VD_RUN_ON, VD_RUN_OFF, VD_RUN_WALL, VD_RUN_INTERVALS };

/* Build the view; 0 and *out, or -1 with err (out of memory). */
int view_diff__new(const struct view_diff_input *in, struct view_diff **out, struct ap_err *err);
void view_diff__delete(struct view_diff *v);

/* A label for function f: "zext_heavy", "mod4:zext_heavy", "local_func_12". */
const char *view_diff__label(const struct view_diff *v, const struct cmp_func *f, char *buf,
			     size_t len);
/* A core pair's label: "sample.cwasm", "mod4", "a.cwasm -> b.cwasm". */
const char *view_diff__pair_label(const struct view_diff *v, uint32_t pair, char *buf,
				  size_t len);

/* The d->funcs index of row i (cut order) of funcs (incl 0) or incl (incl 1). */
uint32_t view_diff__func_of(const struct view_diff *v, int incl, uint32_t i);

/*
 * --require-consistent, or a gate without --force: 0 when both sides'
 * recordings are whole and fit their cores, else -1 with AP_ERR_GATE and
 * the first problem in one line (the file and its figures).
 */
int view_diff__require_whole(const struct view_diff *v, struct ap_err *err);

#endif
