// SPDX-License-Identifier: MIT
/* Off-CPU and wall-clock call-graph views (offcpu_callgraph.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "callgraph.h"
#include "offcpu_callgraph.h"
#include "../profile/offcpu.h"
#include "../profile/stacks.h"
#include "../util/outfile.h"

int render__cpu_state_parse(const char *s)
{
	return !strcmp(s, "on") ? RENDER_CPU_ON : !strcmp(s, "off") ? RENDER_CPU_OFF :
	       !strcmp(s, "both") ? RENDER_CPU_BOTH : -1;
}

static void put_off(FILE *out, const struct profile *p)
{
	const struct profile_offcpu *oc = p->offcpu;
	char name[256];

	for (uint32_t i = 0; i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];
		const char *sys;

		/* outermost first: frames are innermost first */
		for (uint32_t k = s->n; k-- > 0;) {
			uint64_t f = oc->frames[s->off + k];
			struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(f >> 32),
						 .func = (uint32_t)f };

			render__folded_name(out, render__stack_name(p, &sym, name, sizeof(name)));
			fputc(';', out);
		}
		if (s->via) {
			render__folded_name(out, s->via);
			fputc(';', out);
		}
		/* the system call waited in, inside the import (none: no frame) */
		if ((sys = offcpu_stack__sys_frame(s, name, sizeof(name)))) {
			render__folded_name(out, sys);
			fputc(';', out);
		}
		fprintf(out, "[%s] %" PRIu64 "\n", offcpu_state__name(s->state), s->ns);
	}
}

/* The on-CPU stacks, each node's samples x the mean on-CPU period in ns. */
static void put_on_ns(FILE *out, const struct profile *p)
{
	const struct profile_stacks *st = p->stacks;
	const struct profile_offcpu *oc = p->offcpu;
	double on_ns = 0;

	for (uint32_t i = 0; i < oc->nprocs; i++)
		on_ns += (double)oc->procs[i].on_ns;
	if (!st->samples)
		return;
	for (uint32_t n = 1; n < st->nnodes; n++) {
		if (!st->nodes[n].self)
			continue;
		render__folded_path(out, p, n);
		fprintf(out, " %.0f\n", (double)st->nodes[n].self * on_ns / (double)st->samples);
	}
}

int render__folded_state_file(const char *path, const struct profile *p,
			      enum render_cpu_state state, struct ap_err *err)
{
	struct outfile o;

	if (state == RENDER_CPU_ON)
		return render__folded_file(path, p, err);
	if (!p->offcpu)
		return ap_errf(err, "%s: off-CPU stacks need a recording with context switches"
			       " or offcpu-time samples", path);
	if (outfile__open(&o, path, err))
		return -1;
	put_off(o.f, p);
	if (state == RENDER_CPU_BOTH)
		put_on_ns(o.f, p);
	return outfile__commit(&o, err);
}

static const char *wasm_name(const struct profile *p, uint64_t f, char *buf, size_t len)
{
	struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(f >> 32),
				 .func = (uint32_t)f };

	return render__stack_name(p, &sym, buf, len);
}

static uint64_t children_ns(const struct offcpu_func *f, enum render_cpu_state state)
{
	return f->off_incl_ns + (state == RENDER_CPU_BOTH ? f->on_incl_ns : 0);
}

static uint64_t self_ns(const struct offcpu_func *f, enum render_cpu_state state)
{
	return f->off_self_ns + (state == RENDER_CPU_BOTH ? f->on_ns : 0);
}

void render__offcpu_children(FILE *out, const struct profile *p, enum render_cpu_state state,
			     uint64_t top)
{
	const struct profile_offcpu *oc = p->offcpu;
	uint32_t n = oc ? oc->nfuncs : 0, shown = 0;
	uint8_t *done = calloc(n + 1, 1);
	char name[256];

	fprintf(out, "\n  %s time per wasm function (ms)\n",
		state == RENDER_CPU_BOTH ? "wall (on + off CPU)" : "off-CPU");
	fprintf(out, "  %12s  %12s  %s\n", "Children", "Self", "Symbol");
	if (!done) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	/* a selection by inclusive time, then self: rows are few */
	while (shown < n && (!top || shown < top)) {
		int64_t best = -1;

		for (uint32_t i = 0; i < n; i++) {
			const struct offcpu_func *f = &oc->funcs[i];

			if (done[i] || (!children_ns(f, state) && !self_ns(f, state)))
				continue;
			if (best < 0 || children_ns(f, state) > children_ns(&oc->funcs[best], state) ||
			    (children_ns(f, state) == children_ns(&oc->funcs[best], state) &&
			     self_ns(f, state) > self_ns(&oc->funcs[best], state)))
				best = i;
		}
		if (best < 0)
			break;
		done[best] = 1;
		shown++;
		fprintf(out, "  %12.3f  %12.3f  %s\n", (double)children_ns(&oc->funcs[best], state) / 1e6,
			(double)self_ns(&oc->funcs[best], state) / 1e6,
			wasm_name(p, (uint64_t)oc->funcs[best].core << 32 | oc->funcs[best].func, name,
				  sizeof(name)));
	}
	free(done);
}

/* One row of an off-CPU callers/callees table: the other end's name and time. */
struct oc_edge {
	char name[256];
	uint64_t ns;
};

static void edge_add(struct oc_edge *rows, size_t *n, size_t cap, const char *name, uint64_t ns)
{
	for (size_t i = 0; i < *n; i++) {
		if (!strcmp(rows[i].name, name)) {
			rows[i].ns += ns;
			return;
		}
	}
	if (*n < cap) {
		snprintf(rows[*n].name, sizeof(rows[*n].name), "%s", name);
		rows[(*n)++].ns = ns;
	}
}

void render__offcpu_edges(FILE *out, const struct profile *p, uint32_t core, uint32_t func,
			  int callers)
{
	const struct profile_offcpu *oc = p->offcpu;
	uint64_t want = (uint64_t)core << 32 | func, through = 0;
	size_t n = 0, cap = oc ? oc->nstacks + 1 : 1;
	struct oc_edge *rows = calloc(cap, sizeof(*rows));
	char name[256], label[256];	/* a row's name: cut here, never when added */

	fprintf(out, "\noff-CPU %s of %s\n", callers ? "callers" : "callees",
		wasm_name(p, want, name, sizeof(name)));
	if (!rows) {
		fprintf(out, "  (out of memory)\n");
		return;
	}
	for (uint32_t i = 0; oc && i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];
		const uint64_t *fr = oc->frames + s->off;
		uint32_t k = 0;

		/* its outermost occurrence: a recursing function counts once */
		for (uint32_t j = 0; j < s->n; j++)
			if (fr[j] == want)
				k = j + 1;
		if (!k--)
			continue;
		through += s->ns;
		if (callers && k + 1 < s->n) {
			edge_add(rows, &n, cap, wasm_name(p, fr[k + 1], name, sizeof(name)), s->ns);
		} else if (callers) {
			edge_add(rows, &n, cap, "(outermost wasm frame)", s->ns);
		} else if (k > 0) {
			edge_add(rows, &n, cap, wasm_name(p, fr[k - 1], name, sizeof(name)), s->ns);
		} else {
			snprintf(label, sizeof(label), "(self%s%s)", s->via ? ", waits in " : "",
				 s->via ? s->via : "");
			edge_add(rows, &n, cap, label, s->ns);
		}
	}
	fprintf(out, "  %.3f ms off CPU in its stacks\n", (double)through / 1e6);
	fprintf(out, "  %12s  %7s  %s\n", "ms", "%func", callers ? "Caller" : "Callee");
	for (size_t shown = 0; shown < n; shown++) {
		size_t best = n;

		for (size_t i = 0; i < n; i++)
			if (rows[i].ns != UINT64_MAX && (best == n || rows[i].ns > rows[best].ns))
				best = i;
		if (best == n)
			break;
		fprintf(out, "  %12.3f  %6.2f%%  %s\n", (double)rows[best].ns / 1e6,
			through ? 100.0 * (double)rows[best].ns / (double)through : 0.0, rows[best].name);
		rows[best].ns = UINT64_MAX;	/* shown */
	}
	free(rows);
}
