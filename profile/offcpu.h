/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_OFFCPU_H
#define AOTPERF_PROFILE_OFFCPU_H
/*
 * Where a run waits: off-CPU time attributed through wasm frames, beside
 * the on-CPU time of the samples (the wall-clock view of report --off-cpu).
 *
 * Two ways a recording says it (docs/offcpu.md):
 *   switch       perf record -e cpu-clock -e sched:sched_switch -g
 *                --switch-events (perf 6.1): the SWITCH records of a
 *                thread give its off-CPU intervals (switch-out to the next
 *                switch-in); the sched_switch sample taken at the
 *                switch-out gives the stack and prev_state (read by name
 *                through the recording's tracepoint formats,
 *                perfdata/tracing.h);
 *   offcpu-time  perf record --off-cpu (perf built with BPF skeletons):
 *                one sample per off-CPU interval, its period the
 *                nanoseconds, its callchain the stack.
 *
 * An interval is attributed like a sample: self to the innermost wasm
 * function on its stack, inclusive to every wasm function on it (once),
 * with the host frame that wasm function called named ("via": the host
 * import); by state: S sleeping, D uninterruptible, R preempted, other.
 * An interval whose stack holds no wasm frame counts for its process only.
 * On-CPU time is the selected event's samples times their period
 * (nanoseconds for cpu-clock and task-clock), attributed the same way: a
 * sample in a host import counts for the wasm function that called it.
 *
 * With raw_syscalls:sys_enter and sys_exit in a switch-form recording
 * (record --off-cpu adds them), each interval is also tagged with the
 * system call its thread was in when it switched out (docs/offcpu-syscalls.md).
 * Without them, when the recording was made on the running kernel
 * (kernel_id.h), the system call is the one whose entry frame
 * (__x64_sys_NAME, ...) is on the stack's kernel part, named through
 * /proc/kallsyms; any form.
 */
#include <stddef.h>
#include <stdint.h>

/* wasm frames kept per off-CPU stack */
#define OFFCPU_MAX_DEPTH 256

enum offcpu_state { OFFCPU_S = 0, OFFCPU_D, OFFCPU_R, OFFCPU_OTHER, OFFCPU_NSTATES };

enum offcpu_source { OFFCPU_SWITCH = 1, OFFCPU_BPF };

/* No system call in progress (offcpu_syscall's nr). */
#define OFFCPU_NO_SYSCALL (-1)
/* Named from a kernel frame, its number not in the architecture's table. */
#define OFFCPU_SYSCALL_NO_NR (-2)

enum offcpu_sc_source { OFFCPU_SC_NONE = 0, OFFCPU_SC_TRACEPOINTS, OFFCPU_SC_KERNEL };

/*
 * Off-CPU time in one system call (the raw_syscalls:sys_enter seen last,
 * no sys_exit since, when the thread switched out), by number as the
 * recording's architecture numbers them.
 */
struct offcpu_syscall {
	int32_t nr;				/* OFFCPU_NO_SYSCALL: outside any */
	const char *name;			/* "nanosleep", "syscall_N" unnamed, "none" */
	uint64_t ns, intervals;
};

struct offcpu_func {
	uint32_t core, func;
	uint64_t on_ns;				/* samples x period: it the innermost wasm frame */
	uint64_t on_incl_ns;			/* with it anywhere on the stack */
	uint64_t off_ns[OFFCPU_NSTATES];	/* self, by state */
	uint64_t off_self_ns;			/* the sum of off_ns */
	uint64_t off_incl_ns;			/* with it anywhere on the stack */
	uint64_t intervals;			/* self intervals */
	double off_self_sq;			/* their squared ns, summed (diff's test) */
	const char *via;			/* the host frame it waited in most; NULL: itself */
	struct offcpu_syscall *syscalls;	/* its self time by system call, most first */
	uint32_t nsyscalls;
};

struct offcpu_proc {
	uint32_t pid;
	uint64_t first, last;			/* times of its first and last record */
	uint64_t on_ns;
	uint64_t off_ns[OFFCPU_NSTATES];
	uint64_t off_wasm_ns;			/* of that, with a wasm frame on the stack */
};

/*
 * A distinct off-CPU stack with time: its wasm frames (frames[off..off+n),
 * each core << 32 | func, innermost first), the host frame the innermost
 * one called (NULL: none named) and the state. For collapsed stacks.
 */
struct offcpu_stack {
	uint64_t ns;
	uint32_t off, n;
	uint8_t state;
	const char *via;
	const char *syscall;			/* its system call; NULL: no split recorded */
};

struct profile_offcpu {
	enum offcpu_source source;
	struct offcpu_func *funcs;		/* most self off-CPU time first */
	uint32_t nfuncs;
	struct offcpu_proc *procs;		/* by pid */
	uint32_t nprocs;
	uint64_t intervals;			/* attributed intervals */
	uint64_t unpaired;			/* switches without their other half */
	uint64_t no_stack;			/* intervals without a sched_switch sample */
	char *on_event;				/* the on-CPU event's name */
	char **names;				/* what the rows' via point at */
	uint32_t nnames;
	/* all intervals by system call, most first; NULL: no syscall tracepoints recorded */
	struct offcpu_syscall *syscalls;
	uint32_t nsyscalls;
	const char *syscall_arch;		/* "x86_64", "aarch64", NULL: numbers unnamed */
	enum offcpu_sc_source syscall_source;	/* where syscalls[] comes from */
	/* with tracepoints: the same split from the kernel frames (a check); NULL: not named */
	struct offcpu_syscall *kernel_syscalls;
	uint32_t nkernel_syscalls;
	int kernel_named;			/* kernel frames named (the running kernel) */
	char *kernel_why;			/* else why not, one line; NULL when named */
	struct offcpu_stack *stacks;		/* with a wasm frame and time, as found */
	uint32_t nstacks;
	uint64_t *frames;			/* the stacks' frames */
};

void offcpu__delete(struct profile_offcpu *oc);
/* A state letter: "S", "D", "R", "other". */
const char *offcpu_state__name(enum offcpu_state s);
/*
 * The frame a stack's system call adds between the host import and the
 * state leaf of collapsed stacks and pprof: "[sys] NAME" into buf, or NULL
 * when it has none (no split recorded, or "none": outside any call).
 */
const char *offcpu_stack__sys_frame(const struct offcpu_stack *s, char *buf, size_t len);
/* wall = last - first of the process; 0 when it has one record. */
uint64_t offcpu_proc__wall(const struct offcpu_proc *p);
/* The row of wasm function (core, func), or NULL. */
const struct offcpu_func *offcpu__find(const struct profile_offcpu *oc, uint32_t core,
				       uint32_t func);

#endif
