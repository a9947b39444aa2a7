// SPDX-License-Identifier: MIT
/*
 * The report as one HTML page: the data document (docs/html-data.md) is
 * the report's JSON document with what the page draws besides: per core
 * every function, the listings of the classified functions, the sampled
 * event's rate and (once the profile has them) the call stacks;
 * render/html.c wraps it with the viewer. A recording of several sampling
 * events: the first event's document at the top level and each event's in
 * "events", as the report JSON has them; the viewer draws a block per event.
 */
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "html.h"
#include "html_data.h"
#include "html_offcpu.h"
#include "report-events.h"
#include "report-export.h"
#include "table.h"
#include "../cwasm/coreset.h"

struct html_ctx {
	const struct view_report *v;
	const struct render_opts *o;	/* the caller's */
	struct render_opts ro;		/* with our hooks */
	/* the stack tree's nodes: index in the document (-1: left out), the cut (stack_cut) */
	int64_t *stack_out;
	uint64_t stack_cut, stack_ties;
	struct html_offcpu *offcpu;	/* the off-CPU members; NULL without off-CPU data */
};

/* "functions": every function of the core, [local_func, samples, code_bytes, name, %run] */
static void functions(struct json_out *j, const struct vt_table *t)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__nrows(t); i++) {
		json_begin_arr(j);
		for (uint32_t c = 0; c < vt_table__ncols(t); c++) {
			const struct vt_cell *x = vt_table__cell(t, i, c);

			switch (vt_table__col(t, c)->kind) {
			case VT_COUNT: json_u64(j, x->v.u); break;
			case VT_TEXT: json_str(j, x->present ? x->v.s : NULL); break;
			default: json_dbl(j, x->v.d, 4); break;
			}
		}
		json_end_arr(j);
	}
	json_end_arr(j);
}

static void core_extra(struct json_out *j, const struct profile *p, uint32_t core, void *arg)
{
	const struct html_ctx *c = arg;

	json_key(j, "functions");
	functions(j, c->v->cores[core].all_funcs);
	html_offcpu__core_json(c->offcpu, j, core);
	if (c->o->json_core_extra)
		c->o->json_core_extra(j, p, core, c->o->core_ctx);
}

/* "listings": each classified function's every instruction (docs/html-data.md) */
static void listings(struct json_out *j, const struct view_report *v)
{
	json_key(j, "listings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < v->nfuncs; i++) {
		const struct view_report_func *f = &v->funcs[i];

		if (f->listing.insns)
			html_data__listing(j, core_set__core_name(f->mod), f->pf->func,
					   f->mod->funcs[f->pf->func].name,
					   f->mod->funcs[f->pf->func].size, &f->listing);
	}
	json_end_arr(j);
}

static const char *const node_kinds[] = {
	[STACK_ROOT] = "root", [STACK_WASM] = "wasm", [STACK_HOST] = "host",
	[STACK_KERNEL] = "kernel", [STACK_UNKNOWN] = "unknown",
};

/*
 * Which nodes the document keeps (html_data__cut): the cut's total, 0 to
 * keep all; UINT64_MAX when out of memory. At the cut a parent comes first
 * in the walk and is kept before its children.
 */
static uint64_t stack_cut(const struct profile_stacks *st, uint64_t *ties)
{
	uint64_t *t, cut;

	*ties = 0;
	if (st->nnodes - 1 <= HTML_STACK_NODES)
		return 0;
	t = malloc((st->nnodes - 1) * sizeof(*t));
	if (!t)
		return UINT64_MAX;
	for (uint32_t n = 1; n < st->nnodes; n++)
		t[n - 1] = st->nodes[n].total;
	cut = html_data__cut(t, st->nnodes - 1, ties);
	free(t);
	return cut;
}

/*
 * "stacks" (docs/html-data.md): the profile's stack tree as flat nodes, a
 * parent before its children (parent -1: an outermost frame), frames named
 * as report --children and --folded name them, wasm frames with their core
 * and local function so a click opens the listing.
 */
static void stacks(struct json_out *j, const struct profile *p, const struct html_ctx *c)
{
	const struct profile_stacks *st = p->stacks;
	uint64_t cut = c->stack_cut, ties = c->stack_ties, kept = 0;
	int64_t *out = c->stack_out;
	uint32_t n;
	char name[512];

	if (!out)
		return;
	out[0] = -1;
	json_key(j, "stacks");
	json_begin_obj(j);
	json_key(j, "mode");
	json_str(j, st->mode == STACKS_DWARF ? "dwarf" : "fp");
	json_key(j, "samples");
	json_u64(j, st->samples);
	json_key(j, "nodes");
	json_begin_arr(j);
	/* depth first from the root's first child, as stacks__finish walks */
	for (n = st->nodes[0].child; n;) {
		const struct stack_node *nd = &st->nodes[n];
		const struct stack_sym *sym = &st->syms[nd->sym];
		int keep = out[nd->parent] >= 0 || !nd->parent;

		keep = keep && (nd->total > cut || (nd->total == cut && ties && ties--));
		out[n] = -1;
		if (keep) {
			const struct cwasm_module *m = sym->kind == STACK_WASM ?
						       p->attr.cores[sym->core].mod : NULL;
			struct html_stack_node hn = {
				.parent = out[nd->parent], .kind = node_kinds[sym->kind],
				.name = render__stack_name(p, sym, name, sizeof(name)),
				.self = nd->self, .total = nd->total,
				.core = m ? core_set__core_name(m) : NULL,
				.local_func = m ? (int64_t)sym->func : -1,
			};

			out[n] = (int64_t)kept++;
			html_data__stack_node(j, &hn);
		}
		if (keep && nd->child) {
			n = nd->child;
			continue;
		}
		while (n && !st->nodes[n].next)
			n = st->nodes[n].parent;
		if (n)
			n = st->nodes[n].next;
	}
	json_end_arr(j);
	json_key(j, "left_out");
	json_u64(j, st->nnodes - 1 - kept);
	json_end_obj(j);
}

static void doc_extra(struct json_out *j, const struct profile *p, void *arg)
{
	const struct html_ctx *c = arg;
	const struct attr_result *a = &p->attr;

	if (a->have_event) {
		json_key(j, "sampled_event");
		json_begin_obj(j);
		json_key(j, "name");
		json_str(j, a->event_name);
		json_key(j, a->event_attr.freq ? "frequency" : "period");
		json_u64(j, a->event_attr.sample_period);
		json_end_obj(j);
	}
	listings(j, c->v);
	stacks(j, p, c);
	html_offcpu__json(c->offcpu, j);
	if (c->o->json_extra)
		c->o->json_extra(j, p, c->o->ctx);
}

/* The events' contexts, one per profile (one for a one-event recording). */
struct html_events {
	struct html_ctx *c;
	uint32_t n;
};

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct html_events *ev = arg;

	(void)err;
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, ev->c[0].o->tool);
	render__report_page_members(j, ev->c[0].v, &ev->c[0].ro);
	if (ev->n > 1) {
		json_key(j, "events");
		json_begin_arr(j);
		for (uint32_t i = 0; i < ev->n; i++) {
			json_begin_obj(j);
			render__report_page_members(j, ev->c[i].v, &ev->c[i].ro);
			json_end_obj(j);
		}
		json_end_arr(j);
	}
	json_end_obj(j);
	json_finish(j);
	return 0;
}

static void ctx_exit(struct html_ctx *c)
{
	free(c->stack_out);
	html_offcpu__delete(c->offcpu);
}

static int ctx_init(struct html_ctx *c, const struct view_report *v, const struct render_opts *o,
		    struct ap_err *err)
{
	const struct profile *p = v->p;
	const struct profile_stacks *st = p->stacks;

	memset(c, 0, sizeof(*c));
	c->v = v;
	c->o = o;
	c->ro = *o;
	c->ro.json_core_extra = core_extra;
	c->ro.core_ctx = c;
	c->ro.json_extra = doc_extra;
	c->ro.ctx = c;
	if (p->offcpu && !(c->offcpu = html_offcpu__new(p))) {
		ctx_exit(c);
		return ap_err_nomem(err);
	}
	if (st && st->mode != STACKS_NONE && st->nnodes > 1) {
		c->stack_cut = stack_cut(st, &c->stack_ties);
		c->stack_out = malloc(st->nnodes * sizeof(*c->stack_out));
		if (!c->stack_out || c->stack_cut == UINT64_MAX) {
			ctx_exit(c);
			return ap_err_nomem(err);
		}
	}
	return 0;
}

static void events_exit(struct html_events *ev)
{
	for (uint32_t i = 0; ev->c && i < ev->n; i++)
		ctx_exit(&ev->c[i]);
	free(ev->c);
}

static int events_init(struct html_events *ev, const struct view_report *const *vs, uint32_t n,
		       const struct render_opts *o, struct ap_err *err)
{
	ev->n = 0;
	ev->c = calloc(n ? n : 1, sizeof(*ev->c));
	if (!ev->c)
		return ap_err_nomem(err);
	for (; ev->n < n; ev->n++) {
		if (ctx_init(&ev->c[ev->n], vs[ev->n], o, err)) {
			events_exit(ev);
			return -1;
		}
	}
	return 0;
}

/* to: the stream (f, name) or, f NULL, the file at name */
static int write_events(FILE *f, const char *name, const struct view_report *const *vs,
			uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	struct html_events ev;
	int rc;

	if (events_init(&ev, vs, n, o, err))
		return -1;
	rc = f ? html__fwrite_emit(f, name, emit, &ev, err) : html__write_emit(name, emit, &ev, err);
	events_exit(&ev);
	return rc;
}

int render__report_events_html(FILE *f, const char *name, const struct view_report *const *vs,
			       uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	return write_events(f, name, vs, n, o, err);
}

int render__report_events_html_file(const char *path, const struct view_report *const *vs,
				    uint32_t n, const struct render_opts *o, struct ap_err *err)
{
	return write_events(NULL, path, vs, n, o, err);
}

int render__report_html(FILE *f, const char *name, const struct view_report *v,
			const struct render_opts *o, struct ap_err *err)
{
	return write_events(f, name, &v, 1, o, err);
}

int render__report_html_file(const char *path, const struct view_report *v,
			     const struct render_opts *o, struct ap_err *err)
{
	return write_events(NULL, path, &v, 1, o, err);
}
