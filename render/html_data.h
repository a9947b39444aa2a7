/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_HTML_DATA_H
#define AOTPERF_RENDER_HTML_DATA_H
/*
 * Writers for the parts of the HTML data document (docs/html-data.md) that
 * the JSON documents do not have: every function of a diff's core, its
 * target, instruction listings, stack-tree nodes and the diff block. Each writes one value (or
 * one array element) through a json_out; the caller writes the key and
 * opens and closes the arrays, so these compose with the report's writers.
 */
#include <stdint.h>
#include "../util/json_out.h"

struct cwasm_module;
struct view_listing;

/*
 * The "functions" value: [[local_func, samples, code_bytes, name], ...] for
 * every function of m; samples[i] is function i's self samples (NULL: 0).
 */
void html_data__functions(struct json_out *j, const struct cwasm_module *m,
			  const uint64_t *samples);

/* The "target" value: {arch, abi, format} of m's target info (null when unknown). */
void html_data__target(struct json_out *j, const struct cwasm_module *m);

/*
 * One "listings" element: function func (core: its label in the document,
 * as "core" in the report JSON; name its wasm name or NULL), its listing
 * (view/listing.h).
 */
void html_data__listing(struct json_out *j, const char *core, uint32_t func, const char *name,
			uint64_t code_bytes, const struct view_listing *l);

/* One "stacks.nodes" element: parent is an earlier node's index, -1 for a root. */
struct html_stack_node {
	int64_t parent;
	const char *name;
	const char *kind;	/* "wasm", "host", "kernel" (or "root") */
	uint64_t self, total;
	const char *core;	/* wasm frames: the core label, else NULL */
	int64_t local_func;	/* wasm frames: the function, else -1 */
};
void html_data__stack_node(struct json_out *j, const struct html_stack_node *n);

/*
 * Stack-tree nodes in a document at most: the viewer draws 4,000 frames
 * (render/html/viewer.js, MAX_RECTS) and a frame under 1/2,000 of the
 * total is under a pixel until zoomed; past this the frames with the
 * least are left out (docs/html-data.md, "stacks").
 */
#define HTML_STACK_NODES 5000
/*
 * Which of n nodes with these totals a document keeps: all (returns 0), or
 * past HTML_STACK_NODES every node above the returned cut and *ties of
 * those at it. t is sorted in place (most first). A node never has more
 * than its parent, so walking parents first and keeping a node only when
 * its parent is kept keeps a tree.
 */
uint64_t html_data__cut(uint64_t *t, uint32_t n, uint64_t *ties);

/* One "diff.functions" element. */
struct html_diff_func {
	const char *core;	/* NULL: the only core */
	uint32_t local_func;
	const char *name;	/* wasm name or NULL */
	uint64_t before, after;	/* self samples */
	/* aotperf diff's test of the self share (compare leaves tested 0) */
	int tested, significant;
	double points, p_adjusted;	/* change of the mean share; adjusted p-value */
};
void html_data__diff_func(struct json_out *j, const struct html_diff_func *d);

#endif
