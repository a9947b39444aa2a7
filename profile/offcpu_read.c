// SPDX-License-Identifier: MIT
/*
 * The off-CPU view from perf.data (offcpu.h), fed by read.c's hooks: the
 * selected samples (on-CPU time), and through attr's on_other the
 * sched_switch / offcpu-time samples and the SWITCH records.
 *
 * perf writes each CPU's records in order, but the CPUs' buffers only in
 * rounds, so a thread's switch-in on one CPU can come long after its
 * switch-out on another (when perf is woken up rarely, a round holds the
 * whole run: every switch on one CPU, then every switch on the other). As
 * perf's own reader does, a FINISHED_ROUND record makes every record up to
 * the previous round's newest time final: each thread holds its switches
 * until then (offcpu_pair.h) and pairs them (out, then the next in). Only
 * when all threads together hold OC_HELD_MAX switches are the oldest half
 * paired anyway (as perf does when its queue is full), so memory stays
 * bounded on recordings without rounds.
 *
 * With raw_syscalls:sys_enter / sys_exit (or syscalls:sys_enter_NAME /
 * sys_exit_NAME) recorded, their samples are held with the switches of
 * their thread, so each interval knows the system call it began in.
 * Without them the kernel part of an interval's stack says it: its system
 * call entry frame, named through the recorded kernel's symbols
 * (hostsyms.h, kallsyms.h: perf's copy of them, or /proc/kallsyms when the
 * recording's kernel is the running one). With both, the
 * tracepoints count and the kernel frames' split is kept beside as a check.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hostmaps.h"
#include "hostsyms.h"
#include "kallsyms.h"
#include "offcpu_pair.h"
#include "offcpu_read.h"
#include "syscall_names.h"
#include "u64map.h"
#include "../perfdata/tracing.h"
#include "../util/array.h"

#define OC_HELD_MAX	(1u << 21)	/* switches all threads hold (48 MB) before forcing */
#define OC_MAX_FRAMES	OFFCPU_MAX_DEPTH
#define OC_NO_KEY	OC_HELD_NO_KEY
#define OC_CACHE	64	/* recent pids and tids, direct-mapped: records repeat a few */

enum { ROLE_ON = 0, ROLE_SWITCH_TP, ROLE_OFFCPU_TIME, ROLE_SC_ENTER, ROLE_SC_EXIT };

#define OC_SC_MAX	0xfffe	/* syscall numbers kept; others count as OC_SC_BAD */
#define OC_SC_BAD	0xffff
#define OC_SC_KBASE	0x10000	/* + a name index: a system call named by a kernel frame */
#define OC_KCACHE	1024	/* kernel addresses looked up: the same few switch paths recur */

/* A distinct stack (pid, state, innermost wasm function, via, wasm frames). */
struct oc_stack {
	uint32_t pid;
	uint8_t state;
	int32_t self;		/* index into funcs, -1: no wasm frame */
	uint32_t via;		/* index into names, UINT32_MAX: none */
	uint32_t off, n;	/* its wasm frames in frames[], innermost first */
	int32_t ksc;		/* its kernel frames' system call (OC_SC_KBASE + name), -1 none */
	uint64_t ns;
	/* found once (an interval's work is a few additions): its process, its rows by ksc */
	uint32_t proc;
	uint32_t sc_row, stack_row;	/* UINT32_MAX: not yet */
};

struct oc_thread {
	uint32_t tid, pid;
	uint32_t proc;		/* pid's row, UINT32_MAX: not looked up yet */
	uint32_t pending;	/* the sched_switch sample's stack, waiting for its switch-out */
	uint32_t bare[2];	/* the stacks of a switch-out without one (other, R): key + 1 */
	struct oc_held held;
};

/* a kernel address looked up: ip + 1 (0: empty), the system call it enters (-1: none) */
struct oc_kslot {
	uint64_t key;
	int32_t ksc;
};

/* a cache slot: id + 1 (0: empty) and its index in procs or threads */
struct oc_slot {
	uint32_t key, ix;
};

/* off-CPU time per (innermost wasm function or -1, system call or -1) */
struct oc_sc {
	int32_t self;
	int32_t nr;
	uint64_t ns, intervals;
};

/* a table of them, by (self + 1) << 32 | (nr + 1); self is a stack's index in by_stack */
struct oc_sctab {
	struct oc_sc *v;
	size_t n, cap;
	struct u64map ix;
};

/* per (function, via) self time, to name each function's main host frame */
struct oc_via {
	uint32_t func, via;
	uint64_t ns;
};

struct offcpu_reader {
	struct profile *p;
	struct hostmaps *maps;
	struct hostsyms *syms;
	const struct pd_tracing *tr;	/* the session's */
	/* resolved once from the formats (tracing.h): plain loads in each sample */
	struct pd_tp_num f_state, f_prev_pid;
	struct pd_tp_num *f_sc_nr;	/* per event: a sys_enter's syscall number */
	enum sc_arch sc_arch;
	char sc_arch_name[32];
	int has_sc;				/* sys_enter and sys_exit both recorded */
	uint8_t *roles;
	size_t nroles;
	enum offcpu_source source;
	char *on_event;

	struct offcpu_func *funcs;
	size_t nfuncs, cap_funcs;
	struct u64map func_ix;		/* core << 32 | func */
	struct offcpu_proc *procs;
	size_t nprocs, cap_procs;
	struct u64map proc_ix;
	struct oc_thread *threads;
	size_t nthreads, cap_threads;
	struct u64map thread_ix;
	struct oc_stack *stacks;
	size_t nstacks, cap_stacks;
	struct u64map stack_ix;
	uint32_t *frames;
	size_t nframes, cap_frames;
	char **names;
	size_t nnames, cap_names;
	struct u64map name_ix;
	struct oc_via *vias;
	size_t nvias, cap_vias;
	struct oc_sctab scs;		/* by function and system call */
	struct oc_sctab kscs;		/* with tracepoints: by the kernel frames' call (self -1) */
	struct oc_sctab by_stack;	/* by stack and system call: the collapsed stacks */
	int kname;			/* kernel frames named: the recording's kernel runs */
	int ksc;			/* the split from kernel frames (no tracepoints) */
	int kframes;			/* some stack held kernel frames */
	char kwhy[400];			/* why kernel frames are not named */
	struct oc_kslot kcache[OC_KCACHE];
	uint64_t kgen;			/* the mappings' generation the cache holds */
	uint64_t intervals, unpaired, no_stack;
	uint64_t newest, round_newest, final;	/* times: seen, at the last round, final */
	size_t held;				/* switches all threads hold */
	uint32_t scratch[OC_MAX_FRAMES];	/* a chain's distinct wasm functions */
	uint32_t chain[OC_MAX_FRAMES];		/* its wasm frames in order */
	uint32_t nchain;
	struct oc_slot pcache[OC_CACHE], tcache[OC_CACHE];
	int failed;
};

/* --- tables ------------------------------------------------------------- */

static int64_t func_ix(struct offcpu_reader *r, uint32_t core, uint32_t func)
{
	uint64_t key = (uint64_t)core << 32 | func;
	struct offcpu_func f = { .core = core, .func = func };
	uint32_t i;

	if (u64map__get(&r->func_ix, key, &i))
		return i;
	if (ap_push(&r->funcs, &r->nfuncs, &r->cap_funcs, &f, sizeof(f)) ||
	    u64map__put(&r->func_ix, key, (uint32_t)(r->nfuncs - 1)))
		return -1;
	return (int64_t)(r->nfuncs - 1);
}

/* The index of pid's row, made when new (at time t); -1 when out of memory. */
static int64_t proc_ix(struct offcpu_reader *r, uint32_t pid, uint64_t t)
{
	struct oc_slot *c = &r->pcache[pid % OC_CACHE];
	uint32_t i;

	if (c->key == pid + 1)
		return c->ix;
	if (!u64map__get(&r->proc_ix, pid, &i)) {
		struct offcpu_proc np = { .pid = pid, .first = t, .last = t };

		if (ap_push(&r->procs, &r->nprocs, &r->cap_procs, &np, sizeof(np)) ||
		    u64map__put(&r->proc_ix, pid, (uint32_t)(r->nprocs - 1)))
			return -1;
		i = (uint32_t)(r->nprocs - 1);
	}
	c->key = pid + 1;
	c->ix = i;
	return i;
}

/* A record of the process at time t (0: none): its span. */
static inline void proc_seen(struct offcpu_proc *pr, uint64_t t)
{
	if (t && (t < pr->first || !pr->first))
		pr->first = t;
	if (t > pr->last)
		pr->last = t;
}

static struct offcpu_proc *proc_of(struct offcpu_reader *r, uint32_t pid, uint64_t t)
{
	int64_t i = proc_ix(r, pid, t);

	if (i < 0)
		return NULL;
	proc_seen(&r->procs[i], t);
	return &r->procs[i];
}

/* A thread's state, made at its first record; NULL when out of memory. */
static struct oc_thread *thread_new(struct offcpu_reader *r, uint32_t tid, uint32_t pid)
{
	struct oc_slot *c = &r->tcache[tid % OC_CACHE];
	struct oc_thread *th;
	uint32_t i;

	if (u64map__get(&r->thread_ix, tid, &i)) {
		c->key = tid + 1;
		c->ix = i;
		return &r->threads[i];
	}
	if (ap_grow(&r->threads, &r->cap_threads, r->nthreads + 1, sizeof(*r->threads)) ||
	    u64map__put(&r->thread_ix, tid, (uint32_t)r->nthreads))
		return NULL;
	c->key = tid + 1;
	c->ix = (uint32_t)r->nthreads;
	th = &r->threads[r->nthreads++];
	th->tid = tid;
	th->pid = pid;
	th->proc = UINT32_MAX;
	th->pending = OC_NO_KEY;
	th->bare[0] = th->bare[1] = 0;
	memset(&th->held, 0, sizeof(th->held));
	return th;
}

/* Inline: a switch record's first lookup (the recent threads are in tcache). */
static inline struct oc_thread *thread_of(struct offcpu_reader *r, uint32_t tid, uint32_t pid)
{
	const struct oc_slot *c = &r->tcache[tid % OC_CACHE];

	return c->key == tid + 1 ? &r->threads[c->ix] : thread_new(r, tid, pid);
}

static int64_t name_ix(struct offcpu_reader *r, const char *name)
{
	uint64_t key = u64map__hash_str(0x6f666663707575ULL, name);
	uint32_t i;
	char *copy;

	/* a 64-bit hash of two names colliding is not worth a second probe */
	if (u64map__get(&r->name_ix, key, &i))
		return i;
	copy = strdup(name);
	if (!copy || ap_push(&r->names, &r->nnames, &r->cap_names, &copy, sizeof(copy))) {
		free(copy);
		return -1;
	}
	if (u64map__put(&r->name_ix, key, (uint32_t)(r->nnames - 1)))
		return -1;
	return (int64_t)(r->nnames - 1);
}

/* The stack's index, interned by a hash of all it holds. */
static int64_t stack_ix(struct offcpu_reader *r, uint32_t pid, uint8_t state, int32_t self,
			uint32_t via, int32_t ksc, const uint32_t *fr, uint32_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	struct oc_stack s = { pid, state, self, via, 0, n, ksc, 0, 0, UINT32_MAX, UINT32_MAX };
	int64_t proc;
	uint32_t i;

	h = (h ^ pid) * 0x100000001b3ULL;
	h = (h ^ (uint32_t)ksc) * 0x100000001b3ULL;
	h = (h ^ state) * 0x100000001b3ULL;
	h = (h ^ (uint32_t)self) * 0x100000001b3ULL;
	h = (h ^ via) * 0x100000001b3ULL;
	for (uint32_t k = 0; k < n; k++)
		h = (h ^ fr[k]) * 0x100000001b3ULL;
	if (u64map__get(&r->stack_ix, h, &i))
		return i;
	if ((proc = proc_ix(r, pid, 0)) < 0)
		return -1;
	s.proc = (uint32_t)proc;
	s.off = (uint32_t)r->nframes;
	if (ap_grow(&r->frames, &r->cap_frames, r->nframes + n, sizeof(*r->frames)))
		return -1;
	if (n)
		memcpy(r->frames + r->nframes, fr, n * sizeof(*fr));
	r->nframes += n;
	if (ap_push(&r->stacks, &r->nstacks, &r->cap_stacks, &s, sizeof(s)) ||
	    u64map__put(&r->stack_ix, h, (uint32_t)(r->nstacks - 1)))
		return -1;
	return (int64_t)(r->nstacks - 1);
}

/* --- stacks --------------------------------------------------------------- */

static const char *host_name(struct offcpu_reader *r, uint32_t pid, uint64_t ip, uint64_t t)
{
	const struct hostmap *m = hostmaps__find(r->maps, pid, 0, ip, t);
	const char *sym = NULL, *dso, *base;

	if (m && hostsyms__find(r->syms, m, ip, &sym))
		return NULL;
	if (sym)
		return sym;
	dso = m ? hostmaps__dso(r->maps, m->dso) : NULL;
	base = dso ? strrchr(dso, '/') : NULL;
	return base && base[1] ? base + 1 : dso ? dso : "[unknown]";
}

/* A system call's entry point in the kernel, as each architecture names it. */
static const char *const sys_prefixes[] = {
	"__x64_sys_", "__ia32_sys_", "__arm64_sys_", "__do_sys_", "__se_sys_",
	"__ia32_compat_sys_", "__x64_compat_sys_", "__arm64_compat_sys_",
};

/*
 * What calls a system call's entry point: below one without an entry
 * frame, the call was a tail call (__x64_sys_read jumps to ksys_read) and
 * is not known.
 */
static const char *const sys_dispatchers[] = {
	"do_syscall_64", "do_syscall_x64", "do_int80_syscall_32", "do_fast_syscall_32",
	"__do_fast_syscall_32", "do_syscall_32_irqs_on", "invoke_syscall", "el0_svc_common",
	"do_el0_svc", "el0_svc",
};

/* The way back to user mode: above a dispatcher, the call has returned (sys_exit is past). */
static const char *const user_returns[] = {
	"exit_to_user_mode_loop", "exit_to_user_mode_prepare", "syscall_exit_to_user_mode",
	"syscall_exit_work", "irqentry_exit_to_user_mode", "exit_to_user_mode",
	"do_notify_resume",
};

/* A kernel frame's part in finding the system call (or OC_SC_KBASE + its name). */
enum { OC_K_OTHER = -1, OC_K_RETURN = -2, OC_K_DISPATCH = -3 };

static int is_one_of(const char *sym, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(sym, v[i]))
			return 1;
	return 0;
}

/* The system call a kernel frame enters (its name after the prefix), or NULL. */
static const char *sys_entry(const char *sym)
{
	for (size_t i = 0; i < sizeof(sys_prefixes) / sizeof(sys_prefixes[0]); i++) {
		size_t len = strlen(sys_prefixes[i]);

		if (!strncmp(sym, sys_prefixes[i], len) && sym[len])
			return sym + len;
	}
	return NULL;
}

/* Name sym's part: OC_SC_KBASE + a system call entry's name, or an OC_K_*. */
static int64_t kernel_part(struct offcpu_reader *r, const char *sym)
{
	const char *call;
	int64_t v;

	if (!sym)
		return OC_K_OTHER;
	if ((call = sys_entry(sym)))
		return (v = name_ix(r, call)) < 0 ? INT64_MIN : OC_SC_KBASE + v;
	if (is_one_of(sym, sys_dispatchers, sizeof(sys_dispatchers) / sizeof(sys_dispatchers[0])))
		return OC_K_DISPATCH;
	if (is_one_of(sym, user_returns, sizeof(user_returns) / sizeof(user_returns[0])))
		return OC_K_RETURN;
	return OC_K_OTHER;
}

/*
 * A kernel frame (the k-th of its chain) named, its part into *part
 * (kernel_part). 0, or -1 when out of memory.
 */
static int kernel_frame(struct offcpu_reader *r, uint64_t ip, uint32_t k, uint64_t t,
			int32_t *part)
{
	uint64_t at = k ? ip - 1 : ip;	/* a return address: inside the call */
	struct oc_kslot *c = &r->kcache[(at ^ at >> 12) % OC_KCACHE];
	const struct hostmap *m;
	const char *sym = NULL;
	int64_t v;

	if (hostmaps__generation(r->maps) != r->kgen) {
		memset(r->kcache, 0, sizeof(r->kcache));
		r->kgen = hostmaps__generation(r->maps);
	}
	if (c->key != at + 1) {
		m = hostmaps__find(r->maps, 0, 1, at, t);
		if ((m && hostsyms__find(r->syms, m, at, &sym)) ||
		    (v = kernel_part(r, sym)) == INT64_MIN)
			return -1;
		c->key = at + 1;
		c->ksc = (int32_t)v;
	}
	*part = c->ksc;
	return 0;
}

/*
 * The system call of kernel frames walked leaf first (kernel_part of each
 * until an entry or a dispatcher): the entry's; none on the way back to
 * user mode or outside any call; unknown below a dispatcher without an
 * entry frame (a tail call), or without kernel frames.
 */
struct oc_kwalk {
	uint32_t n;		/* kernel frames */
	int32_t entry;		/* OC_SC_KBASE + name, or -1 */
	int ret, dispatch;
};

static int32_t kwalk__syscall(const struct oc_kwalk *w)
{
	if (!w->n)
		return OC_SC_BAD;
	if (w->entry >= 0)
		return w->entry;
	return w->dispatch && !w->ret ? OC_SC_BAD : OFFCPU_NO_SYSCALL;
}

/*
 * A sample's callchain, leaf first: the wasm functions on it into
 * r->scratch (innermost first, each once; *n of them), *self the innermost
 * (-1: none) and, when via is not NULL, the host frame it called and in
 * *ksc the system call its kernel frames enter (kwalk__syscall; OC_SC_BAD
 * too when they are not named). 0, or -1 when out of memory.
 */
static int walk_chain(struct offcpu_reader *r, const struct pd_sample *s, struct attr_lookup *lk,
		      int32_t *self, uint32_t *via, int32_t *ksc, uint32_t *n)
{
	uint64_t ctx = 0, via_ip = 0;
	uint32_t nuser = 0;
	struct oc_kwalk kw = { 0, -1, 0, 0 };
	const char *name;
	int64_t v;

	*self = -1;
	*n = 0;
	r->nchain = 0;
	if (via)
		*via = UINT32_MAX;
	if (ksc)
		*ksc = OC_SC_BAD;
	for (uint64_t i = 0; s->has_callchain && i < s->callchain_nr; i++) {
		uint64_t ip = s->callchain[i], at, base;
		int core;

		if (ip >= PERF_CONTEXT_MAX) {
			ctx = ip;
			continue;
		}
		/* counted even when they cannot be named: "no kernel frames" says more */
		if (ctx == PERF_CONTEXT_KERNEL && ksc) {
			int32_t part;

			if (r->kname && kw.entry < 0 && !kw.dispatch) {
				if (kernel_frame(r, ip, kw.n, attr_lookup__time(lk), &part))
					return -1;
				kw.entry = part >= OC_SC_KBASE ? part : -1;
				kw.ret |= part == OC_K_RETURN;
				kw.dispatch = part == OC_K_DISPATCH;
			}
			kw.n++;
		}
		if (ctx != PERF_CONTEXT_USER)
			continue;
		at = nuser++ ? ip - 1 : ip;	/* a return address: inside the call */
		core = attr_lookup__core(lk, at, &base);
		if (core >= 0) {
			const struct cwasm_module *m = r->p->attr.cores[core].mod;
			int64_t fn = at - base < m->text_size ? cwasm__func_at(m, at - base) : -1;
			int64_t fi;
			uint32_t k;

			if (fn < 0)
				continue;
			if ((fi = func_ix(r, (uint32_t)core, (uint32_t)fn)) < 0)
				return -1;
			if (*self < 0)
				*self = (int32_t)fi;
			if (r->nchain < OC_MAX_FRAMES)
				r->chain[r->nchain++] = (uint32_t)fi;
			for (k = 0; k < *n && r->scratch[k] != (uint32_t)fi; k++)
				;
			if (k == *n && *n < OC_MAX_FRAMES)
				r->scratch[(*n)++] = (uint32_t)fi;
		} else if (*self < 0) {
			via_ip = at;	/* the last host frame before the first wasm one */
		}
	}
	if (ksc) {
		if (r->kname)
			*ksc = kwalk__syscall(&kw);
		r->kframes |= kw.n > 0;
	}
	/* named only when a wasm function called it: the import it waits in */
	if (via && *self >= 0 && via_ip) {
		if (!(name = host_name(r, s->sid.pid, via_ip, attr_lookup__time(lk))) ||
		    (v = name_ix(r, name)) < 0)
			return -1;
		*via = (uint32_t)v;
	}
	return 0;
}

static int64_t stack_of(struct offcpu_reader *r, const struct pd_sample *s, uint8_t state,
			struct attr_lookup *lk)
{
	int32_t self, ksc;
	uint32_t via, n;

	if (walk_chain(r, s, lk, &self, &via, &ksc, &n))
		return -1;
	return stack_ix(r, s->sid.pid, state, self, via, ksc, r->chain, r->nchain);
}

/* --- intervals ------------------------------------------------------------ */

/* t's row (self, system call nr), made when new; -1 when out of memory. */
static int64_t sc_row(struct oc_sctab *t, int32_t self, int64_t nr)
{
	uint64_t key = (uint64_t)(uint32_t)(self + 1) << 32 | (uint32_t)(nr + 1);
	struct oc_sc row = { self, (int32_t)nr, 0, 0 };
	uint32_t i;

	if (!u64map__get(&t->ix, key, &i)) {
		if (ap_push(&t->v, &t->n, &t->cap, &row, sizeof(row)) ||
		    u64map__put(&t->ix, key, (uint32_t)(t->n - 1)))
			return -1;
		i = (uint32_t)(t->n - 1);
	}
	return i;
}

/* An interval's time into t's row i. */
static void add_row(struct oc_sctab *t, uint32_t i, uint64_t ns)
{
	t->v[i].ns += ns;
	t->v[i].intervals++;
}

/* An interval's time into t's row (self, system call nr). */
static int add_sc(struct oc_sctab *t, int32_t self, int64_t nr, uint64_t ns)
{
	int64_t i = sc_row(t, self, nr);

	if (i < 0)
		return -1;
	add_row(t, (uint32_t)i, ns);
	return 0;
}

static void sctab_exit(struct oc_sctab *t, int all)
{
	u64map__exit(&t->ix);
	t->n = 0;
	if (!all)
		return;
	free(t->v);
	t->v = NULL;
	t->cap = 0;
}

/*
 * The interval's time by system call (sc: the tracepoints' when recorded,
 * else its stack's kernel frames'), for its innermost wasm function,
 * overall and for its stack.
 */
static int add_syscall(struct offcpu_reader *r, uint32_t key, struct oc_stack *s,
		       int64_t sc, uint64_t ns)
{
	int64_t i;

	if (!r->has_sc && !r->ksc)
		return 0;
	if (!r->has_sc) {
		/* the stack's own call: its rows found once */
		if (s->sc_row == UINT32_MAX) {
			if ((i = sc_row(&r->scs, s->self, s->ksc)) < 0)
				return -1;
			s->sc_row = (uint32_t)i;
			if (s->self >= 0 && (i = sc_row(&r->by_stack, (int32_t)key, s->ksc)) < 0)
				return -1;
			s->stack_row = s->self >= 0 ? (uint32_t)i : UINT32_MAX;
		}
		add_row(&r->scs, s->sc_row, ns);
		if (s->stack_row != UINT32_MAX)
			add_row(&r->by_stack, s->stack_row, ns);
		return 0;
	}
	if (add_sc(&r->scs, s->self, sc, ns) ||
	    (s->self >= 0 && add_sc(&r->by_stack, (int32_t)key, sc, ns)))
		return -1;
	return r->kname ? add_sc(&r->kscs, -1, s->ksc, ns) : 0;
}

static int add_interval(struct offcpu_reader *r, uint32_t key, int64_t sc, uint64_t ns)
{
	struct oc_stack *s = &r->stacks[key];
	struct offcpu_proc *pr = &r->procs[s->proc];

	if (add_syscall(r, key, s, sc, ns))
		return -1;
	pr->off_ns[s->state] += ns;
	s->ns += ns;
	r->intervals++;
	if (s->self >= 0) {
		pr->off_wasm_ns += ns;
		r->funcs[s->self].intervals++;
		r->funcs[s->self].off_self_sq += (double)ns * (double)ns;
	}
	return 0;
}

static int on_interval(void *ctx, uint32_t key, int64_t sc, uint64_t ns)
{
	return add_interval(ctx, key, sc, ns);
}

/* Pair the thread's final switches (with force, also its oldest half). */
static int drain(struct offcpu_reader *r, struct oc_thread *th, uint64_t upto, int force)
{
	size_t before = oc_held__count(&th->held);
	int ret = oc_held__drain(&th->held, upto, force, on_interval, r, &r->unpaired);

	r->held -= before - oc_held__count(&th->held);
	return ret;
}

/* FINISHED_ROUND: what the previous round saw is final now. */
static void on_round(struct offcpu_reader *r)
{
	r->final = r->round_newest;
	r->round_newest = r->newest;
	for (size_t t = 0; t < r->nthreads; t++) {
		if (oc_held__count(&r->threads[t].held) && drain(r, &r->threads[t], r->final, 0)) {
			r->failed = 1;
			return;
		}
	}
}

/* OC_HELD_MAX records held: pair each thread's oldest half. */
static void held_too_many(struct offcpu_reader *r)
{
	for (size_t i = 0; i < r->nthreads; i++) {
		if (drain(r, &r->threads[i], r->final, 1)) {
			r->failed = 1;
			return;
		}
	}
}

/* One more record held (at time t); inline: once a record. */
static inline void held_one(struct offcpu_reader *r, uint64_t t)
{
	if (t > r->newest)
		r->newest = t;
	if (++r->held >= OC_HELD_MAX)
		held_too_many(r);
}

/* A SWITCH record: its misc bits and sample_id trailer. */
static inline __attribute__((always_inline)) void
on_switch(struct offcpu_reader *r, uint16_t misc, const struct pd_sample_id *sid)
{
	int out = !!(misc & PERF_RECORD_MISC_SWITCH_OUT);
	struct oc_thread *th = thread_of(r, sid->tid, sid->pid);
	uint32_t key = OC_NO_KEY;
	int64_t pi;

	if (!th) {
		r->failed = 1;
		return;
	}
	/* the thread's process, looked up once */
	if (th->pid != sid->pid || th->proc == UINT32_MAX) {
		if ((pi = proc_ix(r, sid->pid, sid->time)) < 0) {
			r->failed = 1;
			return;
		}
		if (th->pid == sid->pid)
			th->proc = (uint32_t)pi;
	} else {
		pi = th->proc;
	}
	proc_seen(&r->procs[pi], sid->time);
	if (sid->pid == 0 && sid->tid == 0)
		return;		/* the idle task */
	if (out) {
		key = th->pending;
		th->pending = OC_NO_KEY;
		if (key == OC_NO_KEY) {
			/* no stack for it: the process's time, state from the record */
			int preempt = !!(misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
			int64_t k = th->bare[preempt] && th->pid == sid->pid ?
				    (int64_t)th->bare[preempt] - 1 :
				    stack_ix(r, sid->pid, preempt ? OFFCPU_R : OFFCPU_OTHER, -1,
					     UINT32_MAX, OC_SC_BAD, NULL, 0);

			if (k < 0) {
				r->failed = 1;
				return;
			}
			if (th->pid == sid->pid)
				th->bare[preempt] = (uint32_t)k + 1;
			key = (uint32_t)k;
			r->no_stack++;
		}
	}
	if (oc_held__add(&th->held, sid->time, key, out)) {
		r->failed = 1;
		return;
	}
	held_one(r, sid->time);
}

void offcpu_reader__switches(struct offcpu_reader *r, const struct pd_switch *sw, size_t n)
{
	for (size_t i = 0; i < n && !r->failed; i++)
		on_switch(r, sw[i].misc, &sw[i].sid);
}

int offcpu_reader__takes_switches(const struct offcpu_reader *r)
{
	return r->source == OFFCPU_SWITCH;
}

/* A sys_enter (its syscall number) or sys_exit sample: held with the thread's switches. */
static void on_syscall(struct offcpu_reader *r, const struct pd_sample *s, int enter)
{
	const struct pd_tp_num *f = &r->f_sc_nr[s->attr_idx];
	struct oc_thread *th;
	int64_t nr = OC_SC_BAD;

	if (!r->has_sc || (s->sid.pid == 0 && s->sid.tid == 0))
		return;
	if (enter && (pd_tp_num__read(f, s->raw, s->raw_size, &nr) || nr < 0 || nr > OC_SC_MAX))
		nr = OC_SC_BAD;	/* entered, but which one is not known */
	if (!(th = thread_of(r, s->sid.tid, s->sid.pid)) ||
	    oc_held__add_sc(&th->held, s->sid.time, (uint32_t)nr, enter)) {
		r->failed = 1;
		return;
	}
	held_one(r, s->sid.time);
}

static uint8_t state_of(int64_t v)
{
	/* the kernel's TASK_REPORT bits: 0 running (preempted; 0x100 "R+"), 1 S, 2 D */
	if ((v & 0xff) == 0)
		return OFFCPU_R;
	if (v & 1)
		return OFFCPU_S;
	if (v & 2)
		return OFFCPU_D;
	return OFFCPU_OTHER;
}

static void on_switch_sample(struct offcpu_reader *r, const struct pd_sample *s,
			     struct attr_lookup *lk)
{
	int64_t state = 0, prev = s->sid.tid, k;
	struct oc_thread *th;

	if (!r->tr || pd_tp_num__read(&r->f_state, s->raw, s->raw_size, &state))
		return;
	/* the thread switched out is prev_pid (the sample's tid says the same) */
	if (pd_tp_num__read(&r->f_prev_pid, s->raw, s->raw_size, &prev) || prev <= 0)
		return;
	th = thread_of(r, (uint32_t)prev, s->sid.pid);
	k = th ? stack_of(r, s, state_of(state), lk) : -1;
	if (k < 0) {
		r->failed = 1;
		return;
	}
	th->pending = (uint32_t)k;
}

void offcpu_reader__other(struct offcpu_reader *r, const struct pd_event *ev,
			  struct attr_lookup *lk)
{
	const struct pd_sample *s = &ev->sample;
	int64_t k;

	if (r->failed)
		return;
	if (ev->hdr->type == PERF_RECORD_FINISHED_ROUND) {
		on_round(r);
		return;
	}
	if (ev->hdr->type != PERF_RECORD_SAMPLE) {
		if (r->source == OFFCPU_SWITCH)
			on_switch(r, ev->hdr->misc, &ev->sid);
		return;
	}
	if (s->attr_idx < 0 || (size_t)s->attr_idx >= r->nroles)
		return;
	/*
	 * perf's BPF off-CPU writes its offcpu-time samples at the end, one
	 * per stack summed over the run, with a made-up time: not a moment of
	 * the process's wall span.
	 */
	if (!proc_of(r, s->sid.pid, r->roles[s->attr_idx] == ROLE_OFFCPU_TIME ? 0 : s->sid.time)) {
		r->failed = 1;
		return;
	}
	if (r->roles[s->attr_idx] == ROLE_SWITCH_TP && r->source == OFFCPU_SWITCH) {
		on_switch_sample(r, s, lk);
	} else if (r->roles[s->attr_idx] == ROLE_SC_ENTER || r->roles[s->attr_idx] == ROLE_SC_EXIT) {
		on_syscall(r, s, r->roles[s->attr_idx] == ROLE_SC_ENTER);
	} else if (r->roles[s->attr_idx] == ROLE_OFFCPU_TIME) {
		/* perf's BPF off-CPU: the period is the time off CPU; no state recorded */
		k = stack_of(r, s, OFFCPU_OTHER, lk);
		if (k < 0 || add_interval(r, (uint32_t)k, OC_HELD_NO_SC, s->period))
			r->failed = 1;
	}
}

void offcpu_reader__sample(struct offcpu_reader *r, const struct pd_sample *s, int core,
			   uint32_t func, struct attr_lookup *lk)
{
	/* the period as the run's totals weigh it (without one in the sample: the event's) */
	uint64_t period = attr_lookup__period(lk);
	struct offcpu_proc *pr;
	int32_t self = -1;
	uint32_t n = 0;
	int64_t fi;

	if (r->failed)
		return;
	/* a system call tracepoint picked as the event (--event): still the split's */
	if (r->has_sc && s->attr_idx >= 0 && (size_t)s->attr_idx < r->nroles &&
	    (r->roles[s->attr_idx] == ROLE_SC_ENTER || r->roles[s->attr_idx] == ROLE_SC_EXIT))
		on_syscall(r, s, r->roles[s->attr_idx] == ROLE_SC_ENTER);
	if (!(pr = proc_of(r, s->sid.pid, s->sid.time))) {
		r->failed = 1;
		return;
	}
	pr->on_ns += period;
	/* like an interval: self to the innermost wasm function on the stack */
	if (s->has_callchain && walk_chain(r, s, lk, &self, NULL, NULL, &n)) {
		r->failed = 1;
		return;
	}
	if (self < 0 && core >= 0) {
		if ((fi = func_ix(r, (uint32_t)core, func)) < 0) {
			r->failed = 1;
			return;
		}
		self = (int32_t)fi;
		r->scratch[0] = (uint32_t)fi;
		n = 1;
	}
	if (self < 0)
		return;
	r->funcs[self].on_ns += period;
	for (uint32_t k = 0; k < n; k++)
		r->funcs[r->scratch[k]].on_incl_ns += period;
}

/* --- setup and the end ------------------------------------------------------ */

static int is_name(const char *a, const char *b)
{
	return a && !strcmp(a, b);
}

/*
 * A system call tracepoint's role: raw_syscalls:sys_enter (the number in
 * `id`), syscalls:sys_enter_NAME (in `__syscall_nr`), and their exits.
 */
static int sc_role(struct offcpu_reader *r, uint64_t id, const char *name, size_t i)
{
	if (!strcmp(name, "raw_syscalls:sys_enter") || !strncmp(name, "syscalls:sys_enter_", 19)) {
		pd_tracing__num(r->tr, id, name[0] == 'r' ? "id" : "__syscall_nr", &r->f_sc_nr[i]);
		return ROLE_SC_ENTER;
	}
	if (!strcmp(name, "raw_syscalls:sys_exit") || !strncmp(name, "syscalls:sys_exit_", 18))
		return ROLE_SC_EXIT;
	return ROLE_ON;
}

/*
 * The roles of the recording's events, its tracepoint formats; the source.
 * Damaged tracing data fails only a recording the view is for.
 */
static int learn(struct offcpu_reader *r, struct session *s, struct ap_err *err)
{
	struct perfdata *pd = session__data(s);
	int has_switch = 0, has_tp = 0, has_bpf = 0, has_enter = 0, has_exit = 0;
	const char *on = NULL;
	struct ap_err terr = { 0 };
	int bad_tracing;
	char name[128];

	bad_tracing = session__tracing(s, &r->tr, &terr);
	r->nroles = perfdata__nevsels(pd);
	r->roles = calloc(r->nroles + 1, 1);
	r->f_sc_nr = calloc(r->nroles + 1, sizeof(*r->f_sc_nr));
	if (!r->roles || !r->f_sc_nr)
		return ap_err_nomem(err);
	for (size_t i = 0; i < r->nroles; i++) {
		const struct pd_evsel *e = perfdata__evsel(pd, i);

		has_switch |= !!e->attr.context_switch;
		if (e->attr.type == PERF_TYPE_TRACEPOINT && r->tr &&
		    !pd_tracing__event_name(r->tr, e->attr.config, name, sizeof(name)) &&
		    !strcmp(name, "sched:sched_switch")) {
			r->roles[i] = ROLE_SWITCH_TP;
			pd_tracing__num(r->tr, e->attr.config, "prev_state", &r->f_state);
			pd_tracing__num(r->tr, e->attr.config, "prev_pid", &r->f_prev_pid);
			has_tp = 1;
		} else if (e->attr.type == PERF_TYPE_TRACEPOINT && r->tr &&
			   !pd_tracing__event_name(r->tr, e->attr.config, name, sizeof(name)) &&
			   (r->roles[i] = (uint8_t)sc_role(r, e->attr.config, name, i))) {
			has_enter |= r->roles[i] == ROLE_SC_ENTER;
			has_exit |= r->roles[i] == ROLE_SC_EXIT;
		} else if (is_name(e->name, "offcpu-time")) {
			r->roles[i] = ROLE_OFFCPU_TIME;
			has_bpf = 1;
		} else if (e->attr.type != PERF_TYPE_TRACEPOINT && !on) {
			on = e->name;
		}
	}
	r->source = has_bpf ? OFFCPU_BPF : has_switch ? OFFCPU_SWITCH : 0;
	(void)has_tp;
	if (bad_tracing && r->source) {
		*err = terr;
		return -1;
	}
	/* entries and exits both, in switches: exits alone would say nothing */
	r->has_sc = has_enter && has_exit && r->source == OFFCPU_SWITCH;
	/*
	 * kernel frames named only from the symbols of the kernel they were
	 * recorded on (kallsyms.h; not when probing)
	 */
	if (r->p && r->source) {
		struct kallsyms_where w;

		kallsyms__where(pd, 0, &w);
		r->kname = w.from != KALLSYMS_NONE;
		snprintf(r->kwhy, sizeof(r->kwhy), "%s", w.why);
	}
	r->ksc = r->kname && !r->has_sc && r->source;
	if ((r->has_sc || r->ksc) &&
	    !perfdata__feature_string(pd, PD_FEAT_ARCH, r->sc_arch_name, sizeof(r->sc_arch_name)))
		r->sc_arch = sc_arch__from_uname(r->sc_arch_name);
	r->on_event = on ? strdup(on) : NULL;
	if (on && !r->on_event)
		return ap_err_nomem(err);
	return 0;
}

int offcpu__probe(struct session *s, char **on_event, struct ap_err *err)
{
	struct offcpu_reader r = { 0 };
	int rc;

	*on_event = NULL;
	if (session__stdin(s))
		return 0;	/* read once: its stream says (offcpu_reader__begin) */
	rc = learn(&r, s, err);
	if (!rc && r.source)
		*on_event = r.on_event;
	else
		free(r.on_event);
	free(r.roles);
	free(r.f_sc_nr);
	return rc < 0 ? -1 : r.source != 0;
}

struct offcpu_reader *offcpu_reader__new(struct profile *p, struct session *s,
					 struct hostmaps *maps, struct hostsyms *syms,
					 struct ap_err *err)
{
	struct offcpu_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		ap_err_nomem(err);
		return NULL;
	}
	r->p = p;
	r->maps = maps;
	r->syms = syms;
	if (learn(r, s, err)) {
		offcpu_reader__delete(r);
		return NULL;
	}
	return r;
}

int offcpu_reader__begin(struct profile *p, struct session *s, struct hostmaps *maps,
			 struct hostsyms *syms, struct offcpu_reader **out, struct ap_err *err)
{
	struct offcpu_reader *r = calloc(1, sizeof(*r));
	int ret;

	*out = NULL;
	if (!r)
		return ap_err_nomem(err);
	r->p = p;
	r->maps = maps;
	r->syms = syms;
	if ((ret = learn(r, s, err)) || !r->source) {
		offcpu_reader__delete(r);
		return ret;
	}
	*out = r;
	return 1;
}

const char *offcpu_reader__on_event(const struct offcpu_reader *r)
{
	return r->on_event;
}

void offcpu_reader__restart(struct offcpu_reader *r)
{
	for (size_t i = 0; i < r->nnames; i++)
		free(r->names[i]);
	for (size_t t = 0; t < r->nthreads; t++)
		oc_held__exit(&r->threads[t].held);
	r->held = 0;
	r->nfuncs = r->nprocs = r->nthreads = r->nstacks = r->nframes = r->nnames = 0;
	r->nvias = 0;
	sctab_exit(&r->scs, 0);
	sctab_exit(&r->kscs, 0);
	sctab_exit(&r->by_stack, 0);
	u64map__exit(&r->func_ix);
	u64map__exit(&r->proc_ix);
	u64map__exit(&r->thread_ix);
	u64map__exit(&r->stack_ix);
	u64map__exit(&r->name_ix);
	memset(r->pcache, 0, sizeof(r->pcache));
	memset(r->tcache, 0, sizeof(r->tcache));
	memset(r->kcache, 0, sizeof(r->kcache));
	r->intervals = r->unpaired = r->no_stack = 0;
	r->kframes = 0;
	r->newest = r->round_newest = r->final = 0;
	r->failed = 0;
}

void offcpu_reader__delete(struct offcpu_reader *r)
{
	if (!r)
		return;
	offcpu_reader__restart(r);
	free(r->funcs);
	free(r->procs);
	free(r->threads);
	free(r->stacks);
	free(r->frames);
	free(r->names);
	free(r->vias);
	sctab_exit(&r->scs, 1);
	sctab_exit(&r->kscs, 1);
	sctab_exit(&r->by_stack, 1);
	free(r->roles);
	free(r->f_sc_nr);
	free(r->on_event);
	free(r);
}

static int add_via(struct offcpu_reader *r, uint32_t func, uint32_t via, uint64_t ns)
{
	struct oc_via v = { func, via, ns };

	for (size_t i = 0; i < r->nvias; i++) {
		if (r->vias[i].func == func && r->vias[i].via == via) {
			r->vias[i].ns += ns;
			return 0;
		}
	}
	return ap_push(&r->vias, &r->nvias, &r->cap_vias, &v, sizeof(v));
}

static int by_self(const void *a, const void *b)
{
	const struct offcpu_func *x = a, *y = b;

	if (x->off_self_ns != y->off_self_ns)
		return x->off_self_ns < y->off_self_ns ? 1 : -1;
	if (x->off_incl_ns != y->off_incl_ns)
		return x->off_incl_ns < y->off_incl_ns ? 1 : -1;
	if (x->on_ns != y->on_ns)
		return x->on_ns < y->on_ns ? 1 : -1;
	return x->core != y->core ? (x->core < y->core ? -1 : 1) :
	       x->func < y->func ? -1 : x->func > y->func;
}

static int by_pid(const void *a, const void *b)
{
	const struct offcpu_proc *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* Fold the stacks into the functions; name each one's main host frame. */
static int fold(struct offcpu_reader *r)
{
	for (size_t i = 0; i < r->nstacks; i++) {
		const struct oc_stack *s = &r->stacks[i];

		if (s->self < 0 || !s->ns)
			continue;
		r->funcs[s->self].off_ns[s->state] += s->ns;
		r->funcs[s->self].off_self_ns += s->ns;
		/* inclusive: each function once, however often it recurses */
		for (uint32_t k = 0; k < s->n; k++) {
			uint32_t f = r->frames[s->off + k], j = 0;

			while (j < k && r->frames[s->off + j] != f)
				j++;
			if (j == k)
				r->funcs[f].off_incl_ns += s->ns;
		}
		if (s->via != UINT32_MAX && add_via(r, (uint32_t)s->self, s->via, s->ns))
			return -1;
	}
	for (size_t f = 0; f < r->nfuncs; f++) {
		uint64_t best = 0;

		for (size_t i = 0; i < r->nvias; i++) {
			if (r->vias[i].func == f && r->vias[i].ns > best) {
				best = r->vias[i].ns;
				r->funcs[f].via = r->names[r->vias[i].via];
			}
		}
	}
	return 0;
}

static int by_sc_ns(const void *a, const void *b)
{
	const struct offcpu_syscall *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

/*
 * A system call's name: a kernel frame's, the architecture's, else
 * "syscall_N" (interned).
 */
static const char *sc_name(struct offcpu_reader *r, int32_t nr)
{
	const char *n = nr == OFFCPU_NO_SYSCALL ? "none" : nr == OC_SC_BAD ? "unknown" :
			nr >= OC_SC_KBASE ? r->names[nr - OC_SC_KBASE] :
			sc_arch__name(r->sc_arch, nr);
	char buf[32];
	int64_t i;

	if (n)
		return n;
	snprintf(buf, sizeof(buf), "syscall_%d", (int)nr);
	return (i = name_ix(r, buf)) < 0 ? NULL : r->names[i];
}

/* Add row into *v (n of them), merging by nr. */
static int sc_merge(struct offcpu_syscall **v, uint32_t *n, const struct oc_sc *row,
		    const char *name)
{
	struct offcpu_syscall *m;
	uint32_t k;

	for (k = 0; k < *n && (*v)[k].nr != row->nr; k++)
		;
	if (k == *n) {
		if (!(m = realloc(*v, (*n + 1) * sizeof(**v))))
			return -1;
		*v = m;
		m[(*n)++] = (struct offcpu_syscall){ row->nr, name, 0, 0 };
	}
	(*v)[k].ns += row->ns;
	(*v)[k].intervals += row->intervals;
	return 0;
}

/* Named from kernel frames: the number the architecture gives the name; sorted. */
static void sc_finish(struct offcpu_reader *r, struct offcpu_syscall *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		int64_t nr;

		if (v[i].nr < OC_SC_KBASE)
			continue;
		nr = sc_arch__nr(r->sc_arch, v[i].name);
		v[i].nr = nr >= 0 ? (int32_t)nr : OFFCPU_SYSCALL_NO_NR;
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), by_sc_ns);
}

/* The time by system call, overall and per function (before funcs get sorted). */
static int export_syscalls(struct offcpu_reader *r, struct profile_offcpu *oc)
{
	if (!r->has_sc && !r->ksc)
		return 0;
	oc->syscall_source = r->has_sc ? OFFCPU_SC_TRACEPOINTS : OFFCPU_SC_KERNEL;
	/* recorded, none off CPU: an empty table still says syscalls were looked at */
	oc->syscalls = calloc(1, sizeof(*oc->syscalls));
	if (!oc->syscalls)
		return -1;
	oc->syscall_arch = r->sc_arch != SC_ARCH_NONE ? (r->sc_arch == SC_ARCH_X86_64 ?
							 "x86_64" : "aarch64") : NULL;
	for (size_t i = 0; i < r->scs.n; i++) {
		const struct oc_sc *row = &r->scs.v[i];
		const char *name = sc_name(r, row->nr);

		if (!name || sc_merge(&oc->syscalls, &oc->nsyscalls, row, name))
			return -1;
		if (row->self >= 0 && sc_merge(&r->funcs[row->self].syscalls,
					       &r->funcs[row->self].nsyscalls, row, name))
			return -1;
	}
	if (r->has_sc && r->kname) {
		if (!(oc->kernel_syscalls = calloc(1, sizeof(*oc->kernel_syscalls))))
			return -1;
		for (size_t i = 0; i < r->kscs.n; i++) {
			const struct oc_sc *row = &r->kscs.v[i];
			const char *name = sc_name(r, row->nr);

			if (!name || sc_merge(&oc->kernel_syscalls, &oc->nkernel_syscalls, row,
					      name))
				return -1;
		}
		sc_finish(r, oc->kernel_syscalls, oc->nkernel_syscalls);
	}
	sc_finish(r, oc->syscalls, oc->nsyscalls);
	for (size_t f = 0; f < r->nfuncs; f++)
		sc_finish(r, r->funcs[f].syscalls, r->funcs[f].nsyscalls);
	return 0;
}

/* One exported stack: stack i's frames (as core << 32 | func), ns and system call. */
static void export_stack(struct offcpu_reader *r, struct profile_offcpu *oc, size_t i,
			 uint64_t ns, const char *syscall, size_t *nfr)
{
	const struct oc_stack *s = &r->stacks[i];
	struct offcpu_stack *o = &oc->stacks[oc->nstacks++];

	o->ns = ns;
	o->state = s->state;
	o->via = s->via != UINT32_MAX ? r->names[s->via] : NULL;
	o->syscall = syscall;
	o->off = (uint32_t)*nfr;
	o->n = s->n;
	for (uint32_t k = 0; k < s->n; k++) {
		const struct offcpu_func *f = &r->funcs[r->frames[s->off + k]];

		oc->frames[(*nfr)++] = (uint64_t)f->core << 32 | f->func;
	}
}

/*
 * The stacks with a wasm frame and time (funcs get sorted); with a split
 * by system call, one per stack and system call.
 */
static int export_stacks(struct offcpu_reader *r, struct profile_offcpu *oc)
{
	int split = r->has_sc || r->ksc;
	size_t nst = 0, nfr = 0, rows = split ? r->by_stack.n : r->nstacks;

	for (size_t i = 0; i < rows; i++) {
		const struct oc_stack *s = &r->stacks[split ? (size_t)r->by_stack.v[i].self : i];

		if (s->self >= 0 && s->ns) {
			nst++;
			nfr += s->n;
		}
	}
	if (!nst)
		return 0;
	oc->stacks = calloc(nst, sizeof(*oc->stacks));
	oc->frames = calloc(nfr ? nfr : 1, sizeof(*oc->frames));
	if (!oc->stacks || !oc->frames)
		return -1;
	nfr = 0;
	for (size_t i = 0; i < rows; i++) {
		const struct oc_sc *row = split ? &r->by_stack.v[i] : NULL;
		size_t k = row ? (size_t)row->self : i;
		const char *name = row ? sc_name(r, row->nr) : NULL;

		if (r->stacks[k].self < 0 || !r->stacks[k].ns)
			continue;
		if (row && !name)
			return -1;
		export_stack(r, oc, k, row ? row->ns : r->stacks[k].ns, name, &nfr);
	}
	return 0;
}

int offcpu_reader__end(struct offcpu_reader *r, struct ap_err *err)
{
	struct profile_offcpu *oc;

	for (size_t t = 0; !r->failed && t < r->nthreads; t++)
		if (drain(r, &r->threads[t], UINT64_MAX, 0))
			r->failed = 1;
	if (r->failed || fold(r))
		return ap_err_nomem(err);
	oc = calloc(1, sizeof(*oc));
	if (!oc)
		return ap_err_nomem(err);
	/*
	 * No stack with kernel frames (perf 6.12's BPF off-CPU records user
	 * stacks only): a split all "unknown" says nothing, so none; that is
	 * the reason, whether or not the recorded kernel's symbols are here.
	 */
	if (!r->has_sc && r->source && !r->kframes) {
		r->ksc = r->kname = 0;
		snprintf(r->kwhy, sizeof(r->kwhy), "the stacks hold no kernel frames");
	}
	oc->kernel_named = r->kname;
	if (!r->kname && !(oc->kernel_why = strdup(r->kwhy[0] ? r->kwhy : "not looked at"))) {
		free(oc);
		return ap_err_nomem(err);
	}
	/* the split the kernel frames would have given: said once, why not */
	if (!r->kname && !r->has_sc &&
	    ap_warnings__add(&r->p->attr.warnings, AP_HINT_NONE, "off-CPU: no split by system"
			     " call from the kernel frames: %s", r->kwhy)) {
		offcpu__delete(oc);
		return ap_err_nomem(err);
	}
	if (export_stacks(r, oc) || export_syscalls(r, oc)) {
		for (size_t f = 0; f < r->nfuncs; f++) {
			free(r->funcs[f].syscalls);
			r->funcs[f].syscalls = NULL;
			r->funcs[f].nsyscalls = 0;
		}
		offcpu__delete(oc);
		return ap_err_nomem(err);
	}
	/* empty arrays are NULL, which qsort may not get */
	if (r->nfuncs > 1)
		qsort(r->funcs, r->nfuncs, sizeof(*r->funcs), by_self);
	if (r->nprocs > 1)
		qsort(r->procs, r->nprocs, sizeof(*r->procs), by_pid);
	oc->source = r->source;
	oc->funcs = r->funcs;
	oc->nfuncs = (uint32_t)r->nfuncs;
	oc->procs = r->procs;
	oc->nprocs = (uint32_t)r->nprocs;
	oc->intervals = r->intervals;
	oc->unpaired = r->unpaired;
	oc->no_stack = r->no_stack;
	oc->on_event = r->on_event;
	/* the names the rows point at stay with the profile */
	oc->names = r->names;
	oc->nnames = (uint32_t)r->nnames;
	r->names = NULL;
	r->nnames = 0;
	r->funcs = NULL;
	r->procs = NULL;
	r->on_event = NULL;
	r->nfuncs = r->nprocs = 0;
	r->p->offcpu = oc;
	return 0;
}
