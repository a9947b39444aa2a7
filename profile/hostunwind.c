// SPDX-License-Identifier: MIT
/*
 * Host frames with libdwfl (hostunwind.h): one Dwfl per process, a
 * module reported the first time an address needs it (the file the
 * recording's mapping names, loaded at mapping start - pgoff, as perf's
 * libdw unwinder reports it), the sample's registers and stack copy
 * handed over through the thread callbacks. No debuginfo is looked for:
 * the files' .eh_frame is what the unwinder reads (and no network).
 */
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>
#include "hostunwind.h"
#include "../util/array.h"

/* DWARF register numbers */
enum { DW_X86_RBP = 6, DW_X86_RSP = 7, DW_A64_X29 = 29, DW_A64_X30 = 30, DW_A64_SP = 31 };

struct hu_proc {
	uint32_t pid;
	Dwfl *dwfl;
	int attached;
	uint64_t *failed;	/* mapping starts whose file gave no module */
	size_t nfailed, cap_failed;
};

struct hu_walk {
	struct hostunwind *h;
	struct hu_proc *p;
	const struct hostunwind_start *s;
	hostunwind_is_wasm_fn is_wasm;
	void *ctx;
	uint64_t *frames;
	uint32_t max, n;
	int stop;
	struct unwind_regs *wasm;
};

struct hostunwind {
	const struct hostsyms *hs;
	struct hu_proc *procs;
	size_t nprocs, cap_procs;
	struct hu_walk *cur;	/* the walk the callbacks serve */
};

static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc;
	*debuginfo_file_name = NULL;
	return -1;
}

static const Dwfl_Callbacks dwfl_cbs = {
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	(void)dwfl; (void)arg; (void)thread_argp;
	return 0;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	(void)dwfl; (void)tid;
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct hostunwind *h = arg;
	uint64_t v;

	(void)dwfl;
	if (!h->cur || unwind_stack__read((void *)h->cur->s->stack, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct hostunwind *h = arg;
	const struct hostunwind_start *s = h->cur->s;
	Dwarf_Word v[3];

	if (s->dwarf_regs) {
		if (!dwfl_thread_state_registers(thread, 0, s->ndwarf_regs, s->dwarf_regs))
			return false;
	} else if (s->arch == UNWIND_ARCH_AARCH64) {
		v[0] = s->regs.fp;
		v[1] = s->regs.ra;
		v[2] = s->regs.sp;
		if (s->regs.has_ra ? !dwfl_thread_state_registers(thread, DW_A64_X29, 3, v) :
		    !dwfl_thread_state_registers(thread, DW_A64_X29, 1, v) ||
		    !dwfl_thread_state_registers(thread, DW_A64_SP, 1, v + 2))
			return false;
	} else {
		v[0] = s->regs.fp;
		v[1] = s->regs.sp;
		if (!dwfl_thread_state_registers(thread, DW_X86_RBP, 2, v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, s->regs.ip);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cbs = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

struct hostunwind *hostunwind__new(const struct hostsyms *hs)
{
	struct hostunwind *h = calloc(1, sizeof(*h));

	if (h)
		h->hs = hs;
	return h;
}

void hostunwind__reset(struct hostunwind *h)
{
	for (size_t i = 0; i < h->nprocs; i++) {
		if (h->procs[i].dwfl)
			dwfl_end(h->procs[i].dwfl);
		free(h->procs[i].failed);
	}
	h->nprocs = 0;
}

void hostunwind__delete(struct hostunwind *h)
{
	if (!h)
		return;
	hostunwind__reset(h);
	free(h->procs);
	free(h);
}

static struct hu_proc *proc_of(struct hostunwind *h, uint32_t pid)
{
	struct hu_proc *p;

	for (size_t i = 0; i < h->nprocs; i++)
		if (h->procs[i].pid == pid)
			return &h->procs[i];
	if (ap_grow(&h->procs, &h->cap_procs, h->nprocs + 1, sizeof(*h->procs)))
		return NULL;
	p = &h->procs[h->nprocs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->dwfl = dwfl_begin(&dwfl_cbs);
	if (!p->dwfl)
		return NULL;
	h->nprocs++;
	return p;
}

/* The module holding ip, reported when first needed: 0, or -1 when there is none. */
static int report(struct hostunwind *h, struct hu_proc *p, uint64_t ip)
{
	uint64_t start, pgoff;
	const char *path;
	Dwfl_Module *m;

	if (dwfl_addrmodule(p->dwfl, ip))
		return 0;
	if (!hostsyms__map_at(h->hs, p->pid, ip, &start, &pgoff, &path) || path[0] == '[')
		return -1;
	for (size_t i = 0; i < p->nfailed; i++)
		if (p->failed[i] == start)
			return -1;
	dwfl_report_begin_add(p->dwfl);
	m = dwfl_report_elf(p->dwfl, path, path, -1, start - pgoff, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!m) {
		ap_push(&p->failed, &p->nfailed, &p->cap_failed, &start, sizeof(start));
		return -1;
	}
	if (!p->attached)
		p->attached = dwfl_attach_state(p->dwfl, NULL, (pid_t)p->pid, &thread_cbs, h);
	return p->attached ? 0 : -1;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct hu_walk *w = arg;
	Dwarf_Addr pc;
	Dwarf_Word sp, fp;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	if (w->n && w->is_wasm(w->ctx, pc - 1)) {
		unsigned rsp = w->s->arch == UNWIND_ARCH_AARCH64 ? DW_A64_SP : DW_X86_RSP;
		unsigned rfp = w->s->arch == UNWIND_ARCH_AARCH64 ? DW_A64_X29 : DW_X86_RBP;

		if (dwfl_frame_reg(state, rsp, &sp) || dwfl_frame_reg(state, rfp, &fp))
			return DWARF_CB_ABORT;	/* the rules need both */
		memset(w->wasm, 0, sizeof(*w->wasm));
		w->wasm->ip = pc;
		w->wasm->sp = sp;
		w->wasm->fp = fp;
		w->stop = HOSTUNWIND_WASM;
		return DWARF_CB_ABORT;
	}
	if (w->n == w->max) {
		w->stop = HOSTUNWIND_MAX;
		return DWARF_CB_ABORT;
	}
	w->frames[w->n++] = pc;
	/* the CFI to step out of this frame */
	return report(w->h, w->p, w->n == 1 && !w->s->return_addr ? pc : pc - 1) ?
	       DWARF_CB_ABORT : DWARF_CB_OK;
}

int hostunwind__walk(struct hostunwind *h, const struct hostunwind_start *s,
		     hostunwind_is_wasm_fn is_wasm, void *ctx, uint64_t *frames,
		     uint32_t max, uint32_t *n, struct unwind_regs *wasm)
{
	struct hu_walk w = { h, NULL, s, is_wasm, ctx, frames, max, 0, HOSTUNWIND_END, wasm };
	uint64_t at = s->return_addr ? s->regs.ip - 1 : s->regs.ip;

	*n = 0;
	if (!max)
		return HOSTUNWIND_MAX;
	w.p = proc_of(h, s->pid);
	if (!w.p)
		return HOSTUNWIND_NOMEM;
	if (report(h, w.p, at)) {
		/* no CFI for it: the frame alone */
		frames[0] = s->regs.ip;
		*n = 1;
		return HOSTUNWIND_END;
	}
	h->cur = &w;
	dwfl_getthread_frames(w.p->dwfl, (pid_t)s->pid, frame_cb, &w);
	h->cur = NULL;
	if (!w.n) {
		frames[0] = s->regs.ip;
		w.n = 1;
	}
	*n = w.n;
	return w.stop;
}
