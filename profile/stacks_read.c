// SPDX-License-Identifier: MIT
/*
 * Call stacks from perf.data (stacks.h), one sample at a time from
 * attribution's hook (attr/attr.h). docs/callgraph.md has the rules:
 *
 *   -g (a callchain with user entries): the kernel's frame-pointer walk.
 *     A wasm leaf whose row has the CFA on sp (prologue, epilogue) or no
 *     rule has the wrong frame pointer: the chain's next entry is not its
 *     caller, so "[caller unknown]" stands between them.
 *   --call-graph=dwarf (user registers and stack bytes): the wasm frames
 *     unwound with the rules (unwind/unwind.h), host frames with libdw
 *     from the mapped files' CFI (hostunwind.h), back and forth.
 *   kernel entries of a callchain: one "[kernel.kallsyms]" frame.
 *
 * A return address is looked up at ip - 1, inside the call. Host frames
 * are named from the mapping timeline and symbols read.c shares with the
 * samples outside wasm (hostmaps.h, hostsyms.h): the symbol, else the
 * DSO's base name in brackets, as perf's folding tools write "[unknown]".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "hostmaps.h"
#include "hostsyms.h"
#include "hostunwind.h"
#include "stacks.h"
#include "u64map.h"
#include "../decode/unwind_table.h"
#include "../util/array.h"

/* perf's user register numbers (asm/perf_regs.h of each architecture) */
enum {
	X86_REG_BP = 6, X86_REG_SP = 7, X86_REG_IP = 8,
	A64_REG_X29 = 29, A64_REG_LR = 30, A64_REG_SP = 31, A64_REG_PC = 32,
};

#define STACKS_MAX_FRAMES 1024	/* a recursion deeper than this is cut */

/* A host address named before, and the mapping it was named from. */
struct host_ip {
	uint32_t pid;
	uint32_t sym;
	uint64_t ip;
	uint64_t map_start, map_time;
	uint32_t map_dso;	/* UINT32_MAX: no mapping held it */
};

struct stacks_reader {
	struct profile *p;
	struct profile_stacks *st;
	struct hostmaps *maps;		/* shared with read.c */
	struct hostsyms *syms;
	int leaves;			/* keep where each sample was taken (stacks__add_leaf) */
	struct unwind_table **tables;	/* per core, built at its first sample */
	uint8_t *tried;
	struct u64map host_ix;		/* hash of (pid, ip) -> host_ips */
	struct host_ip *host_ips;
	size_t nhost, cap_host;
	uint32_t frames[STACKS_MAX_FRAMES + 2];
	struct unwind_frame uw[STACKS_MAX_FRAMES];
	uint64_t hips[STACKS_MAX_FRAMES];
	struct hostunwind *hu;
	enum unwind_arch arch;		/* of the cores (and so of the host) */
	struct attr_hist *rets;		/* the wasm return addresses unwound, for the consistency check */
	int failed;			/* out of memory (or rules failed) in a hook */
	struct ap_err err;
};

static void fail(struct stacks_reader *r)
{
	if (!r->failed)
		ap_err_nomem(&r->err);
	r->failed = 1;
}

static const struct unwind_table *table_of(struct stacks_reader *r, uint32_t core)
{
	if (!r->tried[core]) {
		r->tried[core] = 1;
		r->tables[core] = dc__unwind_table(r->p->attr.cores[core].mod, &r->err);
		if (!r->tables[core] && r->err.msg[0])
			r->failed = 1;
	}
	return r->tables[core];
}

/* Was this name found in mapping m (NULL: none)? */
static int same_map(const struct host_ip *h, const struct hostmap *m)
{
	if (!m)
		return h->map_dso == UINT32_MAX;
	return h->map_dso == m->dso && h->map_start == m->start && h->map_time == m->time;
}

/* A host frame's symbol: its name (hostsyms.h), else "[dso base name]", else "[unknown]". */
static int64_t host_name(struct stacks_reader *r, const struct hostmap *m, uint64_t ip)
{
	const char *name = NULL, *dso = m ? hostmaps__dso(r->maps, m->dso) : NULL, *base;
	char bracket[512];

	if (m && hostsyms__find(r->syms, m, ip, &name))
		return -1;
	if (!name && dso) {
		base = strrchr(dso, '/');
		base = base && base[1] ? base + 1 : dso;
		/* "[vdso]", "[JIT] tid N" name themselves already */
		snprintf(bracket, sizeof(bracket), base[0] == '[' ? "%s" : "[%s]", base);
		name = bracket;
	}
	return stacks__sym_host(r->st, name ? name : "[unknown]", dso);
}

static int64_t host_sym(struct stacks_reader *r, uint32_t pid, uint64_t ip, uint64_t t)
{
	uint64_t key = ip * 0x9e3779b97f4a7c15ULL ^ pid;
	const struct hostmap *m = hostmaps__find(r->maps, pid, 0, ip, t);
	struct host_ip h = { pid, 0, ip, m ? m->start : 0, m ? m->time : 0,
			     m ? m->dso : UINT32_MAX };
	uint32_t i;
	int64_t s;
	int known = u64map__get(&r->host_ix, key, &i);

	/* the mapping decides the name: the same one names it as before */
	if (known && r->host_ips[i].pid == pid && r->host_ips[i].ip == ip &&
	    same_map(&r->host_ips[i], m))
		return r->host_ips[i].sym;
	s = host_name(r, m, ip);
	if (s < 0)
		return -1;
	h.sym = (uint32_t)s;
	if (known && r->host_ips[i].pid == pid && r->host_ips[i].ip == ip) {
		r->host_ips[i] = h;	/* named from a newer mapping now */
		return s;
	}
	/* a key two addresses share keeps the first; the other is looked up each time */
	if (!known) {
		if (ap_push(&r->host_ips, &r->nhost, &r->cap_host, &h, sizeof(h)) ||
		    u64map__put(&r->host_ix, key, (uint32_t)(r->nhost - 1)))
			return -1;
	}
	return s;
}

/* The symbol of user address IP (a return address when ret): wasm or host. */
static int64_t user_sym(struct stacks_reader *r, struct attr_lookup *lk, uint32_t pid,
			uint64_t ip, int ret)
{
	uint64_t at = ret ? ip - 1 : ip, base;
	int core = attr_lookup__core(lk, at, &base);
	const struct cwasm_module *m;
	int64_t fn;

	if (core >= 0) {
		m = r->p->attr.cores[core].mod;
		fn = at - base < m->text_size ? cwasm__func_at(m, at - base) : -1;
		if (fn >= 0)
			return stacks__sym_wasm(r->st, (uint32_t)core, (uint32_t)fn);
	}
	return host_sym(r, pid, at, attr_lookup__time(lk));
}

struct lookup_ctx {
	struct stacks_reader *r;
	struct attr_lookup *lk;
};

static int walk_lookup(void *ctx, uint64_t ip, struct unwind_code *code)
{
	struct lookup_ctx *c = ctx;
	uint64_t base;
	int core = attr_lookup__core(c->lk, ip, &base);
	const struct unwind_table *t;

	if (core < 0 || !(t = table_of(c->r, (uint32_t)core)))
		return -1;
	code->table = t;
	code->base = base;
	code->core = (uint32_t)core;
	return 0;
}

/* The user part of a callchain: *ips and *n (0 when none); 1 if it had kernel entries. */
static int split_chain(const struct pd_sample *s, const uint64_t **ips, uint64_t *n)
{
	uint64_t ctx = 0;
	int kernel = 0;

	*ips = NULL;
	*n = 0;
	for (uint64_t i = 0; i < s->callchain_nr; i++) {
		uint64_t v = s->callchain[i];

		if (v >= PERF_CONTEXT_MAX) {
			ctx = v;
			if (v == PERF_CONTEXT_USER) {
				*ips = s->callchain + i + 1;
				*n = 0;
			}
			continue;
		}
		if (ctx == PERF_CONTEXT_KERNEL)
			kernel = 1;
		else if (ctx == PERF_CONTEXT_USER)
			(*n)++;
	}
	return kernel;
}

/*
 * The frame between a wasm leaf and the rest of its -g chain where the
 * chain skipped the immediate caller: on aarch64 the caller itself when
 * the sample holds x30 (perf record -g samples it there) and the row has
 * the CFA on sp, where x30 still holds the return address (unwind/
 * rules_a64.c: before the prologue's mov x29, sp nothing has called;
 * after the epilogue's ldp it has just been reloaded); else the
 * caller-unknown marker. -1 when out of memory.
 */
static int64_t skipped_caller(struct stacks_reader *r, struct attr_lookup *lk,
			      const struct pd_sample *s, const struct unwind_row *row)
{
	uint64_t lr;

	if (r->arch == UNWIND_ARCH_AARCH64 && row && row->known &&
	    row->cfa_reg == UNWIND_REG_SP && pd_sample__user_reg(s, A64_REG_LR, &lr) && lr) {
		r->st->caller_from_lr++;
		return user_sym(r, lk, s->sid.pid, lr, 1);
	}
	r->st->caller_unknown++;
	return stacks__sym_kind(r->st, STACK_UNKNOWN);
}

/* -g: the user chain, with the skipped caller (skipped_caller) where the rules say. */
static uint32_t fp_frames(struct stacks_reader *r, struct attr_lookup *lk,
			  const struct pd_sample *s, const uint64_t *ips, uint64_t n,
			  uint32_t *fr, uint32_t room)
{
	uint32_t k = 0;

	for (uint64_t i = 0; i < n && k < room; i++) {
		int64_t sym;

		sym = user_sym(r, lk, s->sid.pid, ips[i], i > 0);
		if (sym < 0) {
			fail(r);
			return 0;
		}
		fr[k++] = (uint32_t)sym;
		if (i == 0 && n > 1 && r->st->syms[sym].kind == STACK_WASM && k < room) {
			uint64_t base;
			int core = attr_lookup__core(lk, ips[0], &base);
			const struct unwind_table *t = core >= 0 ? table_of(r, (uint32_t)core) : NULL;
			const struct unwind_row *row = t ?
				unwind_table__row(t, (uint32_t)(ips[0] - base), NULL) : NULL;

			if (unwind_row__fp_skips_caller(row) != 0) {
				int64_t u = skipped_caller(r, lk, s, row);

				if (u < 0) {
					fail(r);
					return 0;
				}
				fr[k++] = (uint32_t)u;
			}
		}
	}
	return k;
}

static int regs_of(const struct pd_sample *s, int a64, struct unwind_regs *regs)
{
	memset(regs, 0, sizeof(*regs));
	if (a64) {
		regs->has_ra = (uint8_t)pd_sample__user_reg(s, A64_REG_LR, &regs->ra);
		return pd_sample__user_reg(s, A64_REG_PC, &regs->ip) &&
		       pd_sample__user_reg(s, A64_REG_SP, &regs->sp) &&
		       pd_sample__user_reg(s, A64_REG_X29, &regs->fp);
	}
	return pd_sample__user_reg(s, X86_REG_IP, &regs->ip) &&
	       pd_sample__user_reg(s, X86_REG_SP, &regs->sp) &&
	       pd_sample__user_reg(s, X86_REG_BP, &regs->fp);
}

/* The sample's registers in DWARF numbering, for the host unwinder: 1, or 0 if some are missing. */
static int dwarf_regs_of(const struct pd_sample *s, int a64, uint64_t *v, uint32_t *n)
{
	/* x86-64 DWARF order rax rdx rcx rbx rsi rdi rbp rsp r8..r15, in perf's numbers */
	static const uint8_t x86[16] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23 };

	*n = a64 ? 32 : 16;
	for (uint32_t i = 0; i < *n; i++)
		if (!pd_sample__user_reg(s, a64 ? i : x86[i], &v[i]))
			return 0;
	return 1;
}

struct wasm_ctx {
	struct stacks_reader *r;
	struct attr_lookup *lk;
};

static int is_wasm(void *ctx, uint64_t ip)
{
	struct wasm_ctx *c = ctx;
	uint64_t base;

	return attr_lookup__core(c->lk, ip, &base) >= 0;
}

/* Frames of a walk's host stretch into fr[k...]: host symbols. */
static int add_host(struct stacks_reader *r, uint32_t pid, uint64_t t, const uint64_t *ips,
		    uint32_t n, int first_sampled, uint32_t *fr, uint32_t *k)
{
	for (uint32_t i = 0; i < n; i++) {
		int64_t sym = host_sym(r, pid, ips[i] - (i || !first_sampled), t);

		if (sym < 0)
			return -1;
		fr[(*k)++] = (uint32_t)sym;
	}
	return 0;
}

/* A wasm return address unwound from a dwarf sample, for profile/consistency.c. */
static void note_return(struct stacks_reader *r, struct attr_lookup *lk, uint64_t ret)
{
	uint64_t base;
	int core = attr_lookup__core(lk, ret - 1, &base);

	if (core >= 0)
		attr_hist__add(r->rets, (uint32_t)core, ret - base);
}

/*
 * --call-graph=dwarf: wasm frames with the rules, host frames with libdw,
 * handing over at each boundary, from the sampled registers and stack copy.
 */
static uint32_t dwarf_frames(struct stacks_reader *r, struct attr_lookup *lk,
			     const struct pd_sample *s, const struct unwind_regs *regs0,
			     uint32_t *fr, uint32_t room)
{
	struct unwind_stack stk = { regs0->sp, s->stack_user, s->stack_dyn_size };
	struct lookup_ctx lc = { r, lk };
	struct wasm_ctx wc = { r, lk };
	struct unwind_regs regs = *regs0;
	uint64_t dregs[32];
	int a64 = r->arch == UNWIND_ARCH_AARCH64, first = 1, full;
	uint32_t k = 0, ndregs = 0;
	uint64_t base;

	if (stk.size > s->stack_size)
		stk.size = s->stack_size;
	full = dwarf_regs_of(s, a64, dregs, &ndregs);
	while (k < room) {
		uint64_t at = first ? regs.ip : regs.ip - 1;
		uint32_t nf = 0;
		int stop;

		if (attr_lookup__core(lk, at, &base) >= 0) {
			stop = unwind__walk(walk_lookup, &lc, unwind_stack__read, &stk, &regs,
					    first ? 0 : UNWIND_WALK_RETURN_ADDR, r->uw,
					    room - k < STACKS_MAX_FRAMES ? room - k : STACKS_MAX_FRAMES,
					    &nf);
			for (uint32_t i = 0; i < nf; i++) {
				const struct unwind_frame *f = &r->uw[i];
				int64_t sym;

				if (!f->wasm)
					break;	/* the host frame: the host walk starts there */
				if ((i || !first) && r->rets)
					note_return(r, lk, f->ip);
				sym = stacks__sym_wasm(r->st, f->core, f->func);
				if (sym < 0)
					goto nomem;
				fr[k++] = (uint32_t)sym;
			}
			/*
			 * An address in a core without a rule (another build's core, a
			 * garbage return address) is no host frame either: handing it to
			 * the host walk would come back here with the same registers.
			 */
			if (stop != UNWIND_STOP_HOST || !nf || !r->uw[0].wasm) {
				if (stop != UNWIND_STOP_END)
					r->st->cut++;
				break;
			}
			first = 0;
			full = 0;	/* only ip, sp and fp are known past wasm code */
		} else {
			struct hostunwind_start hsu = {
				.pid = s->sid.pid, .time = attr_lookup__time(lk), .arch = r->arch,
				.regs = regs,
				.dwarf_regs = full ? dregs : NULL, .ndwarf_regs = ndregs,
				.return_addr = !first, .stack = &stk,
			};
			struct unwind_regs wasm = { 0 };
			int hst = hostunwind__walk(r->hu, &hsu, is_wasm, &wc, r->hips,
						   room - k < STACKS_MAX_FRAMES ? room - k :
						   STACKS_MAX_FRAMES, &nf, &wasm);

			if (hst == HOSTUNWIND_NOMEM || add_host(r, s->sid.pid, attr_lookup__time(lk),
								r->hips, nf, first, fr, &k))
				goto nomem;
			if (hst != HOSTUNWIND_WASM)
				break;
			if (wasm.sp < regs.sp) {	/* callers sit higher on the stack */
				r->st->cut++;
				break;
			}
			regs = wasm;
			first = 0;
			full = 0;
		}
	}
	return k;
nomem:
	fail(r);
	return 0;
}

/* One sample's frames into r->frames, leaf first: their number (0 on failure). */
static uint32_t frames_of(struct stacks_reader *r, const struct pd_sample *s,
			  struct attr_lookup *lk)
{
	uint32_t *fr = r->frames, k = 0, room = STACKS_MAX_FRAMES;
	const uint64_t *ips = NULL;
	uint64_t nuser = 0;
	struct unwind_regs regs;
	int a64 = r->arch == UNWIND_ARCH_AARCH64;
	int kernel = s->has_callchain ? split_chain(s, &ips, &nuser) :
		     s->cpumode == PERF_RECORD_MISC_KERNEL;
	int64_t sym;

	if (kernel) {
		if ((sym = stacks__sym_kind(r->st, STACK_KERNEL)) < 0)
			return 0;
		fr[k++] = (uint32_t)sym;
	}
	if (s->has_stack_user && s->has_regs_user && s->regs_abi != PERF_SAMPLE_REGS_ABI_NONE &&
	    s->stack_dyn_size && regs_of(s, a64, &regs)) {
		k += dwarf_frames(r, lk, s, &regs, fr + k, room - k);
		r->st->dwarf_samples++;
	} else if (nuser) {
		k += fp_frames(r, lk, s, ips, nuser, fr + k, room - k);
		r->st->fp_samples++;
	} else if (s->has_ip && s->cpumode == PERF_RECORD_MISC_USER) {
		if ((sym = user_sym(r, lk, s->sid.pid, s->ip, 0)) < 0)
			return 0;
		fr[k++] = (uint32_t)sym;
	}
	if (!k && !r->failed) {
		/* no ip at all: an unknown frame still counts the sample */
		if ((sym = stacks__sym_kind(r->st, STACK_HOST)) < 0)
			return 0;
		fr[k++] = (uint32_t)sym;
	}
	return r->failed ? 0 : k;
}

void stacks_reader__sample(struct stacks_reader *r, const struct pd_sample *s, int core,
			   uint64_t text_off, int64_t host_frame, struct attr_lookup *lk)
{
	uint32_t k;

	if (r->failed)
		return;
	k = frames_of(r, s, lk);
	if (!k || stacks__add(r->st, r->frames, k)) {
		fail(r);
		return;
	}
	stacks__add_period(r->st, attr_lookup__period(lk));
	if (r->leaves && (core >= 0 || host_frame >= 0) &&
	    stacks__add_leaf(r->st, core, core >= 0 ? text_off : (uint64_t)host_frame))
		fail(r);
}

void stacks_reader__set_returns(struct stacks_reader *r, struct attr_hist *rets)
{
	r->rets = rets;
}

void stacks_reader__restart(struct stacks_reader *r)
{
	stacks__reset(r->st);
	hostunwind__reset(r->hu);
	u64map__exit(&r->host_ix);
	r->nhost = 0;
}

void stacks_reader__delete(struct stacks_reader *r)
{
	if (!r)
		return;
	for (uint32_t c = 0; r->tables && c < r->p->attr.ncores; c++)
		unwind_table__delete(r->tables[c]);
	free(r->tables);
	free(r->tried);
	stacks__delete(r->st);
	hostunwind__delete(r->hu);
	u64map__exit(&r->host_ix);
	free(r->host_ips);
	free(r);
}

struct stacks_reader *stacks_reader__new(struct profile *p, struct hostmaps *maps,
					 struct hostsyms *syms, int leaves, struct ap_err *err)
{
	struct stacks_reader *r = calloc(1, sizeof(*r));

	if (!r) {
		ap_err_nomem(err);
		return NULL;
	}
	r->p = p;
	r->st = stacks__new();
	r->maps = maps;
	r->syms = syms;
	r->leaves = leaves;
	r->hu = hostunwind__new(maps);
	if (!dc__unwind_arch(p->attr.cores[0].mod, &r->arch))
		r->arch = UNWIND_ARCH_X86_64;
	r->tables = calloc(p->attr.ncores + 1, sizeof(*r->tables));
	r->tried = calloc(p->attr.ncores + 1, 1);
	if (!r->st || !r->hu || !r->tables || !r->tried) {
		stacks_reader__delete(r);
		ap_err_nomem(err);
		return NULL;
	}
	return r;
}

int stacks_reader__end(struct stacks_reader *r, struct ap_err *err)
{
	struct profile_stacks *st = r->st;

	if (r->failed) {
		*err = r->err;
		return -1;
	}
	st->mode = st->dwarf_samples > st->fp_samples ? STACKS_DWARF :
		   st->fp_samples ? STACKS_FP : STACKS_NONE;
	if (stacks__finish(st, err))
		return -1;
	r->p->stacks = st;
	r->st = NULL;
	return 0;
}
