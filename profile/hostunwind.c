// SPDX-License-Identifier: MIT
/*
 * Host frames with libdwfl (hostunwind.h): one Dwfl per process, a
 * module reported the first time an address needs it (the file the
 * recording's mapping names, loaded at mapping start - pgoff, as perf's
 * libdw unwinder reports it), the sample's registers and stack copy
 * handed over through the thread callbacks. No debuginfo is looked for:
 * the files' .eh_frame is what the unwinder reads (and no network).
 *
 * A walk that starts from a wasm frame's caller (ip, sp, fp only) is
 * remembered with the stack words it depends on: the next sample that
 * starts there with the same words in its stack copy gets the same
 * frames without libdw (nearly every sample: the host stack under the
 * wasm code rarely changes). New mappings forget it all; whether each
 * frame is wasm code is asked again.
 *
 * The words it depends on: libdw reads every register a frame saved, and
 * most change from sample to sample (a loop's counter in a saved rbx), yet
 * the frames follow from the return addresses and the CFAs alone. Where
 * every frame's CFA is the stack pointer or the frame pointer plus a
 * constant (critical_reads), the words that matter are those read back as
 * a frame's pc or frame pointer: the rest are not compared. Else, and
 * for a read that failed, every word is.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stddef.h>
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

#define MEMO_FRAMES_SEEN 128

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
	/* while recording: the frame pointers seen, whether every CFA was simple */
	uint64_t fps[MEMO_FRAMES_SEEN];
	uint32_t nfps;
	int cfa_other, fp_base;
};

#define MEMO_SLOTS 1024
#define MEMO_READS 64
#define MEMO_FRAMES 64
#define STAGE_READS 512	/* a recorded walk's reads, before the ones that matter are kept */

/* One remembered walk: its start, the words it depends on, what it found. */
struct hu_memo {
	uint32_t pid, nreads, nframes;
	int used, stop;
	uint64_t ip, sp, fp, ra;
	uint8_t has_ra;
	uint8_t fp_key;		/* the walk depends on the start's frame pointer */
	uint64_t failed;	/* bit i: read i failed (outside the stack copy) */
	uint64_t addr[MEMO_READS], val[MEMO_READS];
	uint64_t frames[MEMO_FRAMES];
	struct unwind_regs wasm;
};

struct hostunwind {
	const struct hostmaps *maps;
	struct hu_proc *procs;
	size_t nprocs, cap_procs;
	struct hu_walk *cur;	/* the walk the callbacks serve */
	struct hu_memo *memo;	/* MEMO_SLOTS, by a hash of the start */
	struct hu_memo *rec;	/* the one being recorded, or NULL */
	/* the recorded walk's reads (rec set), all of them */
	uint64_t stage_addr[STAGE_READS], stage_val[STAGE_READS];
	uint8_t stage_failed[STAGE_READS];
	uint32_t nstage;
	uint64_t maps_seen;	/* the timeline's generation when the memo was valid */
	uint64_t walks, libdw_walks;	/* hostunwind__stats */
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

	int failed;

	(void)dwfl;
	if (!h->cur)
		return false;
	failed = unwind_stack__read((void *)h->cur->s->stack, addr, &v) != 0;
	if (h->rec) {
		if (h->nstage == STAGE_READS) {
			h->rec = NULL;	/* too many words to check: not remembered */
		} else {
			h->stage_addr[h->nstage] = addr;
			h->stage_val[h->nstage] = failed ? 0 : v;
			h->stage_failed[h->nstage++] = (uint8_t)failed;
		}
	}
	if (failed)
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

struct hostunwind *hostunwind__new(const struct hostmaps *maps)
{
	struct hostunwind *h = calloc(1, sizeof(*h));

	if (!h)
		return NULL;
	h->maps = maps;
	h->memo = calloc(MEMO_SLOTS, sizeof(*h->memo));
	if (!h->memo) {
		free(h);
		return NULL;
	}
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
	memset(h->memo, 0, MEMO_SLOTS * sizeof(*h->memo));
}

void hostunwind__delete(struct hostunwind *h)
{
	if (!h)
		return;
	hostunwind__reset(h);
	free(h->procs);
	free(h->memo);
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
static int report(struct hostunwind *h, struct hu_proc *p, uint64_t ip, uint64_t t)
{
	const struct hostmap *hm;
	uint64_t start, pgoff;
	const char *path;
	Dwfl_Module *m;

	if (dwfl_addrmodule(p->dwfl, ip))
		return 0;
	hm = hostmaps__find(h->maps, p->pid, 0, ip, t);
	if (!hm || !hostmaps__dso_is_file(h->maps, hm->dso))
		return -1;
	start = hm->start;
	pgoff = hm->pgoff;
	path = hostmaps__dso(h->maps, hm->dso);
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

/* A rule's operations that only add constants to the CFA: a register saved at CFA + N. */
static int cfa_plus_const(const Dwarf_Op *ops, size_t nops)
{
	if (!nops)
		return 1;	/* same value, or undefined */
	if (ops[0].atom != DW_OP_call_frame_cfa)
		return 0;
	for (size_t i = 1; i < nops; i++)
		if (ops[i].atom != DW_OP_plus_uconst && ops[i].atom != DW_OP_consts &&
		    ops[i].atom != DW_OP_constu && ops[i].atom != DW_OP_plus &&
		    ops[i].atom != DW_OP_minus && ops[i].atom != DW_OP_stack_value)
			return 0;
	return 1;
}

/*
 * Stepping out of a frame at pc (as looked up), in the CFI libdw reads
 * first (.eh_frame): is its CFA the stack pointer or the frame pointer
 * plus a constant, and are the return address and the frame pointer
 * saved at CFA + N (or kept)? Then the caller's frame follows from words
 * read back as pcs and frame pointers alone (the file's comment). 1 yes
 * (*fp_base when the CFA is the frame pointer's), 0 unsure.
 */
static int rules_simple(struct hu_walk *w, Dwarf_Addr pc, int *fp_base)
{
	unsigned sp = w->s->arch == UNWIND_ARCH_AARCH64 ? DW_A64_SP : DW_X86_RSP;
	unsigned fp = w->s->arch == UNWIND_ARCH_AARCH64 ? DW_A64_X29 : DW_X86_RBP;
	Dwfl_Module *mod = dwfl_addrmodule(w->p->dwfl, pc);
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame = NULL;
	Dwarf_Addr bias, lo, hi;
	Dwarf_Op *ops, mem[3];
	size_t nops;
	unsigned base;
	bool signal;
	int yes = 0, ra;

	cfi = mod ? dwfl_module_eh_cfi(mod, &bias) : NULL;
	if (!cfi || dwarf_cfi_addrframe(cfi, pc - bias, &frame) || !frame)
		return 0;
	if (dwarf_frame_cfa(frame, &ops, &nops) || nops != 1)
		goto out;
	if (ops[0].atom == DW_OP_bregx)
		base = (unsigned)ops[0].number;
	else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
		base = ops[0].atom - DW_OP_breg0;
	else
		goto out;
	if (base != sp && base != fp)
		goto out;
	*fp_base |= base == fp;
	ra = dwarf_frame_info(frame, &lo, &hi, &signal);
	yes = ra >= 0 && !signal &&
	      !dwarf_frame_register(frame, (int)fp, mem, &ops, &nops) && cfa_plus_const(ops, nops) &&
	      !dwarf_frame_register(frame, ra, mem, &ops, &nops) && cfa_plus_const(ops, nops);
out:
	free(frame);
	return yes;
}

/* While recording: frame i's frame pointer, a word a walk may read back. */
static void note_fp(struct hu_walk *w, Dwfl_Frame *state)
{
	unsigned rfp = w->s->arch == UNWIND_ARCH_AARCH64 ? DW_A64_X29 : DW_X86_RBP;
	Dwarf_Word fp;

	if (w->nfps == MEMO_FRAMES_SEEN)
		w->cfa_other = 1;	/* no room: every word counts */
	else if (!dwfl_frame_reg(state, rfp, &fp))
		w->fps[w->nfps++] = fp;
}

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct hu_walk *w = arg;
	Dwarf_Addr pc, at;
	Dwarf_Word sp, fp;
	bool act;

	if (!dwfl_frame_pc(state, &pc, &act) || !pc)
		return DWARF_CB_ABORT;
	if (w->h->rec)
		note_fp(w, state);
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
	at = w->n == 1 && !w->s->return_addr ? pc : pc - 1;
	if (report(w->h, w->p, at, w->s->time))
		return DWARF_CB_ABORT;
	if (w->h->rec && !w->cfa_other && !rules_simple(w, at, &w->fp_base))
		w->cfa_other = 1;
	return DWARF_CB_OK;
}

static struct hu_memo *memo_slot(struct hostunwind *h, const struct hostunwind_start *s)
{
	/* not the frame pointer: code built without one keeps a variable in it */
	uint64_t k = (s->regs.ip * 0x9e3779b97f4a7c15ULL) ^ (s->regs.sp * 0xc2b2ae3d27d4eb4fULL) ^
		     s->pid;

	return &h->memo[(k >> 32) % MEMO_SLOTS];
}

/* The remembered walk from s, if its words are in s's stack copy: its stop, else -1. */
static int memo_hit(struct hostunwind *h, const struct hostunwind_start *s,
		    hostunwind_is_wasm_fn is_wasm, void *ctx, uint64_t *frames, uint32_t max,
		    uint32_t *n, struct unwind_regs *wasm)
{
	const struct hu_memo *m = memo_slot(h, s);
	uint64_t v;

	if (!m->used || m->pid != s->pid || m->ip != s->regs.ip || m->sp != s->regs.sp ||
	    (m->fp_key && m->fp != s->regs.fp) || m->has_ra != s->regs.has_ra ||
	    (m->has_ra && m->ra != s->regs.ra) || m->nframes > max)
		return -1;
	for (uint32_t i = 0; i < m->nreads; i++) {
		int failed = unwind_stack__read((void *)s->stack, m->addr[i], &v) != 0;

		if (failed != (int)((m->failed >> i) & 1) || (!failed && v != m->val[i]))
			return -1;
	}
	for (uint32_t i = 1; i < m->nframes; i++)
		if (is_wasm(ctx, m->frames[i] - 1))
			return -1;
	if (m->stop == HOSTUNWIND_WASM && !is_wasm(ctx, m->wasm.ip - 1))
		return -1;
	memcpy(frames, m->frames, m->nframes * sizeof(*frames));
	*n = m->nframes;
	*wasm = m->wasm;
	return m->stop;
}

/* A word the walk's frames follow from: read back as a frame's pc or frame pointer. */
static int word_matters(const struct hu_walk *w, uint64_t v)
{
	for (uint32_t i = 0; i < w->n; i++)
		if (w->frames[i] == v)
			return 1;
	for (uint32_t i = 0; i < w->nfps; i++)
		if (w->fps[i] == v)
			return 1;
	return w->stop == HOSTUNWIND_WASM && (w->wasm->ip == v || w->wasm->fp == v);
}

/* Keep in m the recorded reads the walk depends on (all when unsure): 0, -1 when too many. */
static int keep_reads(struct hostunwind *h, const struct hu_walk *w, struct hu_memo *m)
{
	m->nreads = 0;
	m->failed = 0;
	for (uint32_t i = 0; i < h->nstage; i++) {
		if (!w->cfa_other && !h->stage_failed[i] && !word_matters(w, h->stage_val[i]))
			continue;
		if (m->nreads == MEMO_READS)
			return -1;
		m->failed |= (uint64_t)h->stage_failed[i] << m->nreads;
		m->addr[m->nreads] = h->stage_addr[i];
		m->val[m->nreads++] = h->stage_val[i];
	}
	return 0;
}

int hostunwind__walk(struct hostunwind *h, const struct hostunwind_start *s,
		     hostunwind_is_wasm_fn is_wasm, void *ctx, uint64_t *frames,
		     uint32_t max, uint32_t *n, struct unwind_regs *wasm)
{
	struct hu_walk w = { .h = h, .s = s, .is_wasm = is_wasm, .ctx = ctx, .frames = frames,
			     .max = max, .stop = HOSTUNWIND_END, .wasm = wasm };
	uint64_t at = s->return_addr ? s->regs.ip - 1 : s->regs.ip;
	struct hu_memo *m = NULL;
	int stop;

	*n = 0;
	if (!max)
		return HOSTUNWIND_MAX;
	h->walks++;
	if (hostmaps__generation(h->maps) != h->maps_seen) {
		memset(h->memo, 0, MEMO_SLOTS * sizeof(*h->memo));
		h->maps_seen = hostmaps__generation(h->maps);
	}
	if (!s->dwarf_regs) {
		stop = memo_hit(h, s, is_wasm, ctx, frames, max, n, wasm);
		if (stop >= 0)
			return stop;
		m = memo_slot(h, s);
		memset(m, 0, offsetof(struct hu_memo, addr));
	}
	w.p = proc_of(h, s->pid);
	if (!w.p)
		return HOSTUNWIND_NOMEM;
	if (report(h, w.p, at, s->time)) {
		/* no CFI for it: the frame alone */
		frames[0] = s->regs.ip;
		*n = 1;
		return HOSTUNWIND_END;
	}
	h->cur = &w;
	h->rec = m;
	h->nstage = 0;
	h->libdw_walks++;
	/* aarch64's saved link registers may carry pointer authentication bits: compare them all */
	w.cfa_other = s->arch == UNWIND_ARCH_AARCH64;
	dwfl_getthread_frames(w.p->dwfl, (pid_t)s->pid, frame_cb, &w);
	h->cur = NULL;
	if (!w.n) {
		frames[0] = s->regs.ip;
		w.n = 1;
	}
	*n = w.n;
	if (h->rec && w.n <= MEMO_FRAMES && w.stop != HOSTUNWIND_MAX && !keep_reads(h, &w, m)) {
		m->used = 1;
		m->pid = s->pid;
		m->ip = s->regs.ip;
		m->sp = s->regs.sp;
		m->fp = s->regs.fp;
		m->ra = s->regs.ra;
		m->has_ra = s->regs.has_ra;
		/* a CFA from it, or a wasm frame's that may be it passed through */
		m->fp_key = w.cfa_other || w.fp_base ||
			    (w.stop == HOSTUNWIND_WASM && wasm->fp == s->regs.fp);
		m->stop = w.stop;
		m->nframes = w.n;
		memcpy(m->frames, frames, w.n * sizeof(*frames));
		if (w.stop == HOSTUNWIND_WASM)
			m->wasm = *wasm;
	}
	h->rec = NULL;
	return w.stop;
}

void hostunwind__stats(const struct hostunwind *h, uint64_t *walks, uint64_t *libdw_walks)
{
	*walks = h->walks;
	*libdw_walks = h->libdw_walks;
}
