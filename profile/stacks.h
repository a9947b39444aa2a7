/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_STACKS_H
#define AOTPERF_PROFILE_STACKS_H
/*
 * Call stacks of a recording, aggregated as they stream by: one tree of
 * frames from the outermost caller (under a root) down to the sampled
 * function, with self and total samples per node, and the views derived
 * from it at the end (inclusive samples per frame, caller -> callee
 * edges). Memory grows with the distinct stacks, never with the samples.
 *
 * A frame is a symbol (struct stack_sym): a wasm function (core, local
 * function), a host function (named as perf names it), the kernel (one
 * frame for all kernel code), or the "[caller unknown]" marker that
 * stands where a `-g` chain is known to have skipped the immediate
 * caller (docs/unwinding.md). profile/stacks_read.c fills it from
 * perf.data (docs/callgraph.md says how each recording mode is read).
 *
 * Renderers walk it read-only: nodes[0] is the root; a node's children
 * are child, then next... (0 ends a list: node 0 is never a child); its
 * frame is syms[sym]. For every node, total = self + the children's totals.
 */
#include <stdint.h>
#include "../util/err.h"

enum stack_kind {
	STACK_ROOT = 0,		/* node 0's symbol: every sample */
	STACK_WASM,		/* a local function of a core */
	STACK_HOST,		/* user code outside the cores */
	STACK_KERNEL,		/* kernel code, one frame ("[kernel.kallsyms]") */
	STACK_UNKNOWN,		/* "[caller unknown]": a -g chain skipped a caller here */
};

struct stack_sym {
	uint8_t kind;		/* enum stack_kind */
	uint32_t core, func;	/* STACK_WASM */
	const char *name;	/* STACK_HOST: symbol, or "[dso]" / "[unknown]" as
				 * perf's folding names an unresolved one; others:
				 * a fixed name ("all", "[kernel.kallsyms]", ...) */
	const char *dso;	/* STACK_HOST: the file's path, or NULL */
	/* the derived views (stacks__finish) */
	uint64_t self;		/* samples taken in it */
	uint64_t total;		/* samples with it anywhere in the stack, once each */
	uint64_t caller_unknown;	/* samples taken in it whose caller is unknown */
	/* the same as self and total, weighed by each sample's period (stacks__add_period) */
	uint64_t self_period, total_period;
};

struct stack_node {
	uint32_t sym;		/* index into syms */
	uint32_t parent;	/* node index (the root's is 0) */
	uint32_t child, next;	/* first child, next sibling; 0: none */
	uint64_t self, total;
	uint64_t self_period, total_period;	/* stacks__add_period's */
};

/* A caller -> callee edge: samples whose stack holds the call, once each. */
struct stack_edge {
	uint32_t caller, callee;	/* syms */
	uint64_t samples;
};

/*
 * Where exactly the samples of a stack were taken (stacks__add_leaf): the
 * instruction (a core's text offset) or the host frame (an index into the
 * profile's host frames, profile/host.h), per leaf node: pprof's leaf
 * locations under each stack.
 */
struct stack_leaf {
	uint32_t node;		/* the node the samples ended in */
	int32_t core;		/* >= 0: a wasm instruction at text offset `at`; -1: host frame `at` */
	uint64_t at;
	uint64_t samples;
};

/* How the recording carries stacks. */
enum stacks_mode {
	STACKS_NONE = 0,	/* no sample had a callchain or a user stack */
	STACKS_FP,		/* perf record -g: the kernel's frame-pointer chains */
	STACKS_DWARF,		/* --call-graph=dwarf: registers + stack bytes, unwound here */
};

struct profile_stacks {
	enum stacks_mode mode;		/* the mode of most samples */
	struct stack_node *nodes;	/* nodes[0]: the root */
	uint32_t nnodes;
	struct stack_sym *syms;		/* syms[0]: the root's */
	uint32_t nsyms;
	struct stack_edge *edges;	/* after stacks__finish: most samples first */
	uint32_t nedges;
	struct stack_leaf *leaves;	/* stacks__add_leaf's, in the order first seen */
	uint32_t nleaves;
	/* per sample, of the samples added */
	uint64_t samples;
	uint64_t fp_samples, dwarf_samples;	/* by mode; the rest had neither */
	uint64_t caller_unknown;	/* -g: the chain skipped the immediate caller */
	uint64_t caller_from_lr;	/* -g, aarch64: ... and x30 named it */
	uint64_t cut;			/* dwarf: unwinding stopped inside wasm code */
	uint64_t max_depth;		/* the deepest stack, in frames */
	int finished;
	/* building (stacks.c) */
	struct stacks_build *b;
};

/* An empty set of stacks. NULL when out of memory. */
struct profile_stacks *stacks__new(void);
void stacks__delete(struct profile_stacks *st);
/* Forget every sample (a read that starts over). */
void stacks__reset(struct profile_stacks *st);

/* The symbol of a wasm function / a host function / a fixed kind: its index, or -1 (memory). */
int64_t stacks__sym_wasm(struct profile_stacks *st, uint32_t core, uint32_t func);
int64_t stacks__sym_host(struct profile_stacks *st, const char *name, const char *dso);
int64_t stacks__sym_kind(struct profile_stacks *st, enum stack_kind kind);

/*
 * One sample's stack: syms[0] the frame it was taken in, then each
 * caller. 0, or -1 when out of memory.
 */
int stacks__add(struct profile_stacks *st, const uint32_t *syms, uint32_t n);

/*
 * After stacks__add: that sample's period (attr_sample_period: ns of CPU
 * time for cpu-clock), added along its path as its count was.
 */
void stacks__add_period(struct profile_stacks *st, uint64_t period);

/*
 * After stacks__add: where that sample was taken (struct stack_leaf: core
 * and at). 0, or -1 when out of memory.
 */
int stacks__add_leaf(struct profile_stacks *st, int32_t core, uint64_t at);

/* Self, total and caller_unknown per symbol; the edges. 0, or -1 with err. */
int stacks__finish(struct profile_stacks *st, struct ap_err *err);

/* Symbol index of wasm function (core, func), or -1 when it is in no stack. */
int64_t stacks__find_wasm(const struct profile_stacks *st, uint32_t core, uint32_t func);

#endif
