// SPDX-License-Identifier: MIT
/* The wall-clock view (offcpu.h): its tables, filled and cut once. */
#include <stdio.h>
#include <stdlib.h>
#include "internal.h"
#include "offcpu.h"
#include "../cwasm/coreset.h"
#include "../profile/offcpu.h"
#include "../util/pct.h"

static const char *const state_keys[OFFCPU_NSTATES] = {
	"off_cpu_by_state.S", "off_cpu_by_state.D", "off_cpu_by_state.R",
	"off_cpu_by_state.other",
};

static uint64_t sum_states(const uint64_t *v)
{
	uint64_t s = 0;

	for (int i = 0; i < OFFCPU_NSTATES; i++)
		s += v[i];
	return s;
}

/* A time column in ms with three decimals (JSON: ns). */
static uint32_t ms_col(struct vcols *s, const char *key, const char *head, unsigned flags)
{
	uint32_t c = vcols__add(s, key, head, VT_NS, flags);

	vcols__prec(s, 3, -1);
	return c;
}

/* The states' columns (text: flags), the first's index. */
static uint32_t state_cols(struct vcols *s, unsigned flags)
{
	uint32_t first = s->n;

	for (int i = 0; i < OFFCPU_NSTATES; i++)
		ms_col(s, state_keys[i], offcpu_state__name((enum offcpu_state)i), flags);
	return first;
}

static void state_put(struct vt_table *t, uint32_t at, const uint64_t *v)
{
	for (int i = 0; i < OFFCPU_NSTATES; i++)
		vt_table__dbl(t, at + (uint32_t)i, (double)v[i]);
}

/* Per process with any time, by pid. */
static int procs(struct view_offcpu *v)
{
	const struct profile_offcpu *oc = v->p->offcpu;
	struct vcols s = { 0 };
	uint32_t pid, wall, on, off, st, wasm;
	struct vt_table *t;

	pid = vcols__add(&s, "pid", "pid", VT_COUNT, 0);
	wall = ms_col(&s, "wall_ns", "wall ms", 0);
	on = ms_col(&s, "on_cpu_ns", "on-CPU", 0);
	off = ms_col(&s, "off_cpu_ns", "off-CPU", 0);
	st = state_cols(&s, 0);
	wasm = ms_col(&s, "off_cpu_wasm_ns", "in wasm", 0);
	if (!(t = v->procs = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < oc->nprocs; i++) {
		const struct offcpu_proc *pr = &oc->procs[i];
		uint64_t o = sum_states(pr->off_ns);

		if (!o && !pr->on_ns)
			continue;	/* a process that neither ran nor waited here */
		if (vt_table__add_row(t))
			return -1;
		vt_table__u64(t, pid, pr->pid);
		vt_table__dbl(t, wall, (double)offcpu_proc__wall(pr));
		vt_table__dbl(t, on, (double)pr->on_ns);
		vt_table__dbl(t, off, (double)o);
		state_put(t, st, pr->off_ns);
		vt_table__dbl(t, wasm, (double)pr->off_wasm_ns);
	}
	return vt_table__cut(t, NULL);
}

/* A split by system call: name, nr, ns, its share of the split's total, intervals. */
static int syscall_table(const struct offcpu_syscall *sc, uint32_t n, uint64_t top,
			 struct vt_table **out)
{
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = top };
	struct vcols s = { 0 };
	uint64_t total = 0;
	uint32_t name, nr, ns, share, iv;
	struct vt_table *t;

	name = vcols__add(&s, "name", "system call", VT_TEXT, VT_FLEX | VT_CODE);
	s.c[name].max_chars = 24;
	nr = vcols__add(&s, "nr", "nr", VT_INT, VT_NO_TEXT | VT_NO_MD);
	ns = ms_col(&s, "ns", "off-CPU ms", 0);
	share = vcols__add(&s, "share_pct", "share", VT_PERCENT, VT_PCT);
	vcols__prec(&s, 1, 2);
	iv = vcols__add(&s, "intervals", "intervals", VT_COUNT, 0);
	if (!(t = *out = vt_table__new(s.c, s.n)))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		total += sc[i].ns;
	for (uint32_t i = 0; i < n; i++) {
		if (vt_table__add_row(t))
			return -1;
		vt_table__str(t, name, sc[i].name);
		vt_table__i64(t, nr, sc[i].nr);
		vt_table__dbl(t, ns, (double)sc[i].ns);
		vt_table__dbl(t, share, ap_pct(sc[i].ns, total));
		vt_table__u64(t, iv, sc[i].intervals);
	}
	return vt_table__cut(t, &cut);
}

/* The function table's columns (text: what fits 80 columns; the states in JSON, Markdown). */
struct fcols {
	uint32_t label, core, func, name, on, on_incl, off, off_incl, wall, st, iv, via;
};

static void func_cols(struct vcols *s, struct fcols *c)
{
	unsigned json = VT_NO_TEXT | VT_NO_MD;

	c->label = vcols__add(s, NULL, "function (ms)", VT_TEXT, VT_FLEX | VT_CODE);
	s->c[c->label].max_chars = 24;
	s->c[c->label].md_head = "function";
	c->core = vcols__add(s, "core", "core", VT_TEXT, json);
	c->func = vcols__add(s, "local_func", "local_func", VT_COUNT, json);
	c->name = vcols__add(s, "name", "name", VT_TEXT, json);
	c->on = ms_col(s, "on_cpu_ns", "on-CPU", 0);
	c->on_incl = ms_col(s, "on_cpu_incl_ns", "on-CPU incl", VT_NO_TEXT);
	c->off = ms_col(s, "off_cpu_ns", "off self", 0);
	c->off_incl = ms_col(s, "off_cpu_incl_ns", "off incl", 0);
	c->wall = ms_col(s, "wall_ns", "wall", 0);
	c->st = state_cols(s, VT_NO_TEXT);
	c->iv = vcols__add(s, "off_cpu_intervals", "intervals", VT_COUNT, VT_NO_TEXT);
	c->via = vcols__add(s, "waits_in", "waits in", VT_TEXT, VT_CODE);
	s->c[c->via].max_chars = 16;
	s->c[c->via].absent = "-";
}

/* Per wasm function (most self off-CPU first, as read), cut to --top. */
static int funcs(struct view_offcpu *v, uint64_t top)
{
	const struct profile *p = v->p;
	const struct profile_offcpu *oc = p->offcpu;
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = top };
	struct vcols s = { 0 };
	struct fcols c;
	struct vt_table *t;

	func_cols(&s, &c);
	if (!(t = v->funcs = vt_table__new(s.c, s.n)))
		return -1;
	if (oc->syscalls && !(v->func_syscalls = calloc(oc->nfuncs + 1, sizeof(*v->func_syscalls))))
		return -1;
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct offcpu_func *f = &oc->funcs[i];
		const struct cwasm_module *m = p->attr.cores[f->core].mod;
		char local[32];

		if (vt_table__add_row(t) ||
		    vt_table__strf(t, c.label, "%s", m->funcs[f->func].name ? m->funcs[f->func].name :
				   cwasm__local_name(f->func, local, sizeof(local))))
			return -1;
		vt_table__str(t, c.core, core_set__core_name(m));
		vt_table__u64(t, c.func, f->func);
		vt_table__str(t, c.name, m->funcs[f->func].name);
		vt_table__dbl(t, c.on, (double)f->on_ns);
		vt_table__dbl(t, c.on_incl, (double)f->on_incl_ns);
		vt_table__dbl(t, c.off, (double)f->off_self_ns);
		vt_table__dbl(t, c.off_incl, (double)f->off_incl_ns);
		vt_table__dbl(t, c.wall, (double)(f->on_ns + f->off_self_ns));
		state_put(t, c.st, f->off_ns);
		vt_table__u64(t, c.iv, f->intervals);
		vt_table__str(t, c.via, f->via);
		if (v->func_syscalls &&
		    syscall_table(f->syscalls, f->nsyscalls, 0, &v->func_syscalls[i]))
			return -1;
	}
	return vt_table__cut(t, &cut);
}

int view_offcpu__new(const struct profile *p, uint64_t top, struct view_offcpu **out,
		     struct ap_err *err)
{
	const struct profile_offcpu *oc = p->offcpu;
	struct view_offcpu *v = calloc(1, sizeof(*v));

	*out = NULL;
	if (!v)
		return ap_err_nomem(err);
	v->p = p;
	v->source = oc->source == OFFCPU_BPF ? "offcpu-time" : "switch";
	v->on_event = p->event;
	v->syscall_source = oc->syscall_source == OFFCPU_SC_KERNEL ? "kernel_frames" : "tracepoints";
	if (oc->syscall_source == OFFCPU_SC_KERNEL)
		snprintf(v->syscall_words, sizeof(v->syscall_words), "from the kernel frames; none:"
			 " outside any, unknown: no kernel frame");
	else
		snprintf(v->syscall_words, sizeof(v->syscall_words), "raw_syscalls; numbers as %s"
			 " names them; none: outside any",
			 oc->syscall_arch ? oc->syscall_arch : "no known architecture");
	if (procs(v) || funcs(v, top) ||
	    (oc->syscalls && syscall_table(oc->syscalls, oc->nsyscalls, top, &v->syscalls)) ||
	    (oc->kernel_syscalls && syscall_table(oc->kernel_syscalls, oc->nkernel_syscalls, 0,
						  &v->kernel_syscalls))) {
		view_offcpu__delete(v);
		return ap_err_nomem(err);
	}
	*out = v;
	return 0;
}

void view_offcpu__delete(struct view_offcpu *v)
{
	if (!v)
		return;
	vt_table__delete(v->procs);
	vt_table__delete(v->funcs);
	for (uint32_t i = 0; v->func_syscalls && i < v->p->offcpu->nfuncs; i++)
		vt_table__delete(v->func_syscalls[i]);
	free(v->func_syscalls);
	vt_table__delete(v->syscalls);
	vt_table__delete(v->kernel_syscalls);
	free(v);
}
