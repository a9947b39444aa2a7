/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_OFFCPU_H
#define AOTPERF_VIEW_OFFCPU_H
/*
 * The wall-clock view of report (docs/views.md, docs/offcpu.md): per
 * process wall, on-CPU and off-CPU time by state; per wasm function
 * on-CPU, off-CPU (self, by state, inclusive) and their sum, with the host
 * frame it waited in; the off-CPU time by system call. Every number, share
 * and the --top cut are here, once (profile/offcpu.h holds what was read);
 * render/offcpu.c only formats them.
 *
 * On-CPU time is the on-CPU event's samples weighed by each one's period
 * (ns of CPU time for cpu-clock and task-clock), the same samples the run's
 * total counts.
 */
#include <stdint.h>
#include "table.h"
#include "../profile/profile.h"
#include "../util/err.h"

struct view_offcpu {
	const struct profile *p;
	const char *source;		/* "switch", "offcpu-time" */
	const char *on_event;		/* the on-CPU event, or NULL */
	/* per process with time: pid, wall_ns, on_cpu_ns, off_cpu_ns, off_cpu_by_state.*, ... */
	struct vt_table *procs;
	/*
	 * per wasm function, most self off-CPU time first, cut to --top (every
	 * format lists the same rows); JSON writes funcs_syscalls[row] in each
	 */
	struct vt_table *funcs;
	struct vt_table **func_syscalls;	/* [rows as added]; NULL without the split */
	/* by system call, most first: every row in JSON, --top of them in text and Markdown */
	struct vt_table *syscalls;		/* NULL: no split recorded */
	char syscall_words[160];		/* what the split is, for its heading */
	const char *syscall_source;		/* "tracepoints", "kernel_frames" */
	struct vt_table *kernel_syscalls;	/* the same from the kernel frames; NULL: none */
};

/* Build the view of p->offcpu (set); top: function and system call rows shown, 0: all. */
int view_offcpu__new(const struct profile *p, uint64_t top, struct view_offcpu **out,
		     struct ap_err *err);
void view_offcpu__delete(struct view_offcpu *v);

#endif
