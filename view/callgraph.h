/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_CALLGRAPH_H
#define AOTPERF_VIEW_CALLGRAPH_H
/*
 * The call-graph view of report (docs/views.md, docs/callgraph.md): how
 * the stacks were read, the --children table (perf report --children's
 * inclusive and self shares with their sample counts), each asked
 * function's callers or callees with their share of its samples, and the
 * same in off-CPU or wall time for --cpu-state off|both (profile/offcpu.h).
 * Every number, row, order and the --top/--percent-limit cut are here,
 * once; render/callgraph-*.c only format them.
 */
#include <stddef.h>
#include <stdint.h>
#include "table.h"
#include "../profile/profile.h"
#include "../util/err.h"

/* What --children, --callers and --callees count (report --cpu-state). */
enum view_cpu_state { VIEW_CPU_ON = 0, VIEW_CPU_OFF, VIEW_CPU_BOTH };

/*
 * A stack symbol's name: wasm functions as `aotperf inject --names wasm`
 * names them (local_func_N, with ":<wasm name>" when known and "modM:" in
 * front with several cores), host functions as perf does, fixed kinds by
 * their fixed names.
 */
const char *view__stack_name(const struct profile *p, const struct stack_sym *s, char *buf,
			     size_t len);
/* The name of wasm function (core, func) as above. */
const char *view__wasm_name(const struct profile *p, uint32_t core, uint32_t func, char *buf,
			    size_t len);
/*
 * The symbol a user names: a wasm function spec (cwasm/coreset.h), its
 * full name as above, or a host symbol's name. -1 when none is in a stack.
 */
int64_t view__stack_find(const struct profile *p, const char *spec);

struct view_callgraph_input {
	const struct profile *p;	/* with p->stacks (and p->offcpu for off, both) */
	enum view_cpu_state state;
	uint64_t top;			/* rows of --children; 0: all */
	double percent_limit;		/* --children: none under this % inclusive */
	/*
	 * the functions asked for, as the user named them (view__stack_find);
	 * on-CPU, each must be in a stack; off-CPU, a wasm function of the
	 * cores will do (one that only waited is in no on-CPU stack)
	 */
	const char *const *callers, *const *callees;
	uint32_t ncallers, ncallees;
};

/* One asked function's callers or callees. */
struct view_cg_edges {
	int callers;			/* 1: its callers; 0: its callees */
	int64_t sym;			/* its stack symbol; -1: in no on-CPU stack */
	int wasm;			/* a wasm function (core, func) */
	uint32_t core, func;
	/*
	 * one row: the function (kind, name, core, local_func or dso,
	 * children_samples, self_samples, children_pct); in time: off_cpu_ns
	 */
	struct vt_table *head;
	/*
	 * the other ends, most first: samples (time: ns), percent_of_function,
	 * kind, name, core, local_func or dso; (self) and the outermost frame
	 * among them as kind "self" and "outermost"
	 */
	struct vt_table *rows;
};

/* The summary's columns. */
enum vcg_summary {
	VCG_S_MODE, VCG_S_SAMPLES, VCG_S_FP, VCG_S_DWARF, VCG_S_UNKNOWN, VCG_S_FROM_LR, VCG_S_CUT,
	VCG_S_DEPTH, VCG_S_DISTINCT,
	/* shares of the stacks, present where they apply (-g, x30, dwarf) */
	VCG_S_UNKNOWN_PCT, VCG_S_FROM_LR_PCT, VCG_S_CUT_PCT,
};

struct view_callgraph {
	struct view_callgraph_input in;
	const char *mode_words;		/* "frame pointers (perf record -g)", ... */
	const char *mode_key;		/* "none", "fp", "dwarf" */
	/* one row: samples, fp_samples, ..., caller_unknown and its share of the stacks, ... */
	struct vt_table *summary;
	/* inclusive and self samples and shares per symbol, cut once (--top, --percent-limit) */
	struct vt_table *children;
	struct view_cg_edges *edges;	/* in.ncallers callers, then in.ncallees callees */
	/* off-CPU or wall time (in.state off, both): NULL / none when on */
	const char *time_words;		/* "off-CPU", "wall (on + off CPU)" */
	struct vt_table *children_time;	/* per wasm function: children_ns, self_ns; cut to --top */
	struct view_cg_edges *time_edges;	/* as edges, for the wasm ones (else head NULL) */
	/* the edges have head NULL where the function has none in that state */
};

/*
 * Build the view (p->stacks must be set); 0 and *out, or -1 with err:
 * out of memory, or an asked function in no stack (AP_ERR_INPUT, naming
 * the option and p->input).
 */
int view_callgraph__new(const struct view_callgraph_input *in, struct view_callgraph **out,
			struct ap_err *err);
void view_callgraph__delete(struct view_callgraph *v);

/* The number of edge tables (in.ncallers + in.ncallees). */
uint32_t view_callgraph__nedges(const struct view_callgraph *v);

#endif
