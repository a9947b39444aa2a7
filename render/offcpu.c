// SPDX-License-Identifier: MIT
/* The wall-clock view (offcpu.h), as text and as JSON. */
#include <inttypes.h>
#include "offcpu.h"
#include "../profile/offcpu.h"
#include "../util/term.h"

static const char *source_name(enum offcpu_source s)
{
	return s == OFFCPU_BPF ? "offcpu-time" : "switch";
}

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static uint64_t sum_states(const uint64_t *v)
{
	uint64_t s = 0;

	for (int i = 0; i < OFFCPU_NSTATES; i++)
		s += v[i];
	return s;
}

static const char *func_name(const struct profile *p, const struct offcpu_func *f, char *buf,
			     size_t len)
{
	const struct cwasm_module *m = p->attr.cores[f->core].mod;
	const char *n = m->funcs[f->func].name;

	if (n)
		return n;
	return cwasm__local_name(f->func, buf, len);
}

/* The "by system call" table: every interval's time by the syscall it began in. */
static void syscalls_text(FILE *out, const struct profile_offcpu *oc, const struct render_opts *o)
{
	uint64_t total = 0;
	uint32_t shown;

	if (!oc->syscalls)
		return;
	for (uint32_t i = 0; i < oc->nsyscalls; i++)
		total += oc->syscalls[i].ns;
	if (oc->syscall_source == OFFCPU_SC_KERNEL)
		fprintf(out, "\n  by system call (from the kernel frames; none: outside any,"
			" unknown: no kernel frame)\n");
	else
		fprintf(out, "\n  by system call (raw_syscalls; numbers as %s names them; none:"
			" outside any)\n", oc->syscall_arch ? oc->syscall_arch :
			"no known architecture");
	fprintf(out, "  %-24s %12s %7s %10s\n", "system call", "off-CPU ms", "share", "intervals");
	shown = render__shown(o, oc->nsyscalls);
	for (uint32_t i = 0; i < shown; i++) {
		const struct offcpu_syscall *sc = &oc->syscalls[i];

		fprintf(out, "  %-24s %12.3f %6.1f%% %10" PRIu64 "\n", sc->name, ms(sc->ns),
			total ? 100.0 * (double)sc->ns / (double)total : 0.0, sc->intervals);
	}
}

void render__offcpu_text(FILE *out, const struct profile *p, const struct render_opts *o)
{
	const struct profile_offcpu *oc = p->offcpu;
	uint32_t shown;
	char fn[32];

	if (!oc)
		return;
	fprintf(out, "\noff-CPU (from %s records; on-CPU is %s samples x period; --off-cpu=no hides"
		" this)\n", source_name(oc->source), p->event ? p->event : "the");
	for (uint32_t i = 0; i < oc->nprocs; i++) {
		const struct offcpu_proc *pr = &oc->procs[i];
		uint64_t off = sum_states(pr->off_ns);

		if (!off && !pr->on_ns)
			continue;
		fprintf(out, "  pid %-7" PRIu32 " wall %10.3f ms  on-CPU %10.3f ms  off-CPU %10.3f ms"
			" (S %.3f, D %.3f, R %.3f, other %.3f; in wasm %.3f)\n", pr->pid,
			ms(offcpu_proc__wall(pr)), ms(pr->on_ns), ms(off), ms(pr->off_ns[OFFCPU_S]),
			ms(pr->off_ns[OFFCPU_D]), ms(pr->off_ns[OFFCPU_R]),
			ms(pr->off_ns[OFFCPU_OTHER]), ms(pr->off_wasm_ns));
	}
	if (!oc->nfuncs) {
		syscalls_text(out, oc, o);
		return;
	}
	fprintf(out, "\n  %-24s %10s %10s %10s %8s %8s %8s %10s  %s\n", "function (ms)", "on-CPU",
		"off self", "off incl", "S", "D", "R", "wall", "waits in");
	shown = render__shown(o, oc->nfuncs);
	for (uint32_t i = 0; i < shown; i++) {
		const struct offcpu_func *f = &oc->funcs[i];

		char cut[40];

		fprintf(out, "  %-24s %10.3f %10.3f %10.3f %8.3f %8.3f %8.3f %10.3f  %s\n",
			ap_term__fit(cut, sizeof(cut), func_name(p, f, fn, sizeof(fn)), 24), ms(f->on_ns), ms(f->off_self_ns),
			ms(f->off_incl_ns), ms(f->off_ns[OFFCPU_S]), ms(f->off_ns[OFFCPU_D]),
			ms(f->off_ns[OFFCPU_R]), ms(f->on_ns + f->off_self_ns),
			f->via ? f->via : "-");
	}
	syscalls_text(out, oc, o);
}

/* [{name, nr, ns, intervals}], most time first; nr -1: outside any system call */
static void json_syscalls(struct json_out *j, const struct offcpu_syscall *v, uint32_t n)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < n; i++) {
		json_begin_obj(j);
		json_key(j, "name"); json_str(j, v[i].name);
		json_key(j, "nr"); json_i64(j, v[i].nr);
		json_key(j, "ns"); json_u64(j, v[i].ns);
		json_key(j, "intervals"); json_u64(j, v[i].intervals);
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json_states(struct json_out *j, const uint64_t *v)
{
	json_begin_obj(j);
	for (int i = 0; i < OFFCPU_NSTATES; i++) {
		json_key(j, offcpu_state__name((enum offcpu_state)i));
		json_u64(j, v[i]);
	}
	json_end_obj(j);
}

void render__offcpu_json(struct json_out *j, const struct profile *p, const struct render_opts *o)
{
	const struct profile_offcpu *oc = p->offcpu;
	uint32_t shown;

	if (!oc)
		return;
	json_key(j, "off_cpu");
	json_begin_obj(j);
	json_key(j, "source"); json_str(j, source_name(oc->source));
	json_key(j, "on_cpu_event"); json_str(j, p->event);
	json_key(j, "intervals"); json_u64(j, oc->intervals);
	json_key(j, "unpaired_switches"); json_u64(j, oc->unpaired);
	json_key(j, "intervals_without_stack"); json_u64(j, oc->no_stack);
	json_key(j, "processes");
	json_begin_arr(j);
	for (uint32_t i = 0; i < oc->nprocs; i++) {
		const struct offcpu_proc *pr = &oc->procs[i];

		json_begin_obj(j);
		json_key(j, "pid"); json_u64(j, pr->pid);
		json_key(j, "wall_ns"); json_u64(j, offcpu_proc__wall(pr));
		json_key(j, "on_cpu_ns"); json_u64(j, pr->on_ns);
		json_key(j, "off_cpu_ns"); json_u64(j, sum_states(pr->off_ns));
		json_key(j, "off_cpu_wasm_ns"); json_u64(j, pr->off_wasm_ns);
		json_key(j, "off_cpu_by_state"); json_states(j, pr->off_ns);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "functions");
	json_begin_arr(j);
	shown = render__shown(o, oc->nfuncs);
	for (uint32_t i = 0; i < shown; i++) {
		const struct offcpu_func *f = &oc->funcs[i];
		const struct cwasm_module *m = p->attr.cores[f->core].mod;

		json_begin_obj(j);
		json_key(j, "core"); json_str(j, core_set__core_name(m));
		json_key(j, "local_func"); json_u64(j, f->func);
		json_key(j, "name"); json_str(j, m->funcs[f->func].name);
		json_key(j, "on_cpu_ns"); json_u64(j, f->on_ns);
		json_key(j, "on_cpu_incl_ns"); json_u64(j, f->on_incl_ns);
		json_key(j, "off_cpu_ns"); json_u64(j, f->off_self_ns);
		json_key(j, "off_cpu_incl_ns"); json_u64(j, f->off_incl_ns);
		json_key(j, "wall_ns"); json_u64(j, f->on_ns + f->off_self_ns);
		json_key(j, "off_cpu_by_state"); json_states(j, f->off_ns);
		json_key(j, "off_cpu_intervals"); json_u64(j, f->intervals);
		json_key(j, "waits_in"); json_str(j, f->via);
		if (oc->syscalls) {
			json_key(j, "syscalls");
			json_syscalls(j, f->syscalls, f->nsyscalls);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
	if (oc->syscalls) {
		json_key(j, "syscall_arch"); json_str(j, oc->syscall_arch);
		json_key(j, "syscalls");
		json_syscalls(j, oc->syscalls, oc->nsyscalls);
		json_key(j, "syscall_source");
		json_str(j, oc->syscall_source == OFFCPU_SC_KERNEL ? "kernel_frames" : "tracepoints");
	}
	if (oc->kernel_syscalls) {
		json_key(j, "kernel_frame_syscalls");
		json_syscalls(j, oc->kernel_syscalls, oc->nkernel_syscalls);
	}
	json_key(j, "kernel_frames_named"); json_bool(j, oc->kernel_named);
	if (oc->kernel_why) {
		json_key(j, "kernel_frames_unnamed_why"); json_str(j, oc->kernel_why);
	}
	json_end_obj(j);
}

void render__offcpu_json_row(struct json_out *j, const struct profile *p, uint32_t core,
			     uint32_t func)
{
	const struct offcpu_func *f = offcpu__find(p->offcpu, core, func);

	if (!p->offcpu)
		return;
	json_key(j, "off_cpu_ns"); json_u64(j, f ? f->off_self_ns : 0);
	json_key(j, "off_cpu_incl_ns"); json_u64(j, f ? f->off_incl_ns : 0);
}
