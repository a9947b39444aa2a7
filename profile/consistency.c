// SPDX-License-Identifier: MIT
/*
 * The samples of a recording against each core's code (attr/
 * consistency.h): every distinct sampled ip and return address of a core,
 * sorted, is checked against the decode of its function, each sampled
 * function decoded and classified once (classify/classify.h knows inline
 * jump tables and trap blocks). Work grows with the distinct addresses,
 * never with the samples.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "../util/pct.h"
#include "../classify/classify.h"

struct addr {
	uint64_t off;		/* text offset of the ip, or of the return address */
	uint64_t count;
	int ret;		/* a return address */
};

static int addr_cmp(const void *a, const void *b)
{
	const struct addr *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/* Core core's addresses of h into v[*n...]: the hash's keys are core << 40 | offset, plus one. */
static void collect(const struct attr_hist *h, uint32_t core, int ret, struct addr *v, size_t *n)
{
	for (size_t i = 0; i < h->cap; i++) {
		uint64_t k = h->keys[i];

		if (k && (k - 1) >> 40 == core)
			v[(*n)++] = (struct addr){ (k - 1) & ((1ull << 40) - 1), h->counts[i], ret };
	}
}

/* Padding: the nops (and int3s) after the function's last instruction of code. */
static uint32_t padding_start(const struct cls_func *f)
{
	uint32_t i = f->ninsns;

	while (i > 0 && (!strncmp(f->insns[i - 1].text, "nop", 3) ||
			 !strncmp(f->insns[i - 1].text, "int3", 4)))
		i--;
	return i;
}

static int is_call(const struct cls_insn *in)
{
	return in->cls == CLS_CALL_DIRECT || in->cls == CLS_CALL_INDIRECT ||
	       in->detail == CLS_D_TRAP_CALL || !strncmp(in->text, "call", 4) ||
	       !strncmp(in->text, "bl ", 3) || !strncmp(in->text, "blr ", 4);
}

static void check_ip(struct attr_consistency *cs, const struct cls_func *f, uint32_t pad,
		     uint64_t off, uint64_t n)
{
	int64_t i = cls__insn_at(f, off);
	const struct cls_insn *in = i >= 0 ? &f->insns[i] : NULL;

	if (!in || in->cls == CLS_DATA)
		cs->in_data += n;	/* past the decode: bytes capstone could not read */
	else if (in->addr != off)
		cs->mid_instruction += n;
	else if ((uint32_t)i >= pad)
		cs->in_padding += n;
	else if (in->cls == CLS_TRAP)
		cs->in_trap += n;
	else
		cs->consistent += n;
}

static void check_ret(struct attr_consistency *cs, const struct cls_func *f, uint64_t off,
		      uint64_t n)
{
	int64_t i = cls__insn_at(f, off - 1);
	const struct cls_insn *in = i >= 0 ? &f->insns[i] : NULL;

	cs->returns += n;
	if (in && in->addr + in->size == off && in->cls != CLS_DATA && is_call(in))
		cs->consistent += n;
	else
		cs->bad_return += n;
}

/* One core: 0, or -1 when out of memory; code that cannot be decoded leaves it unchecked. */
static int check_core(struct profile *p, const struct attr_hist *rets, uint32_t core)
{
	struct attr_core *c = &p->attr.cores[core];
	const struct cwasm_module *m = c->mod;
	struct attr_consistency cs = { .computed = 1 };
	struct addr *v = malloc((p->hist.n + (rets ? rets->n : 0) + 1) * sizeof(*v));
	struct cls_func f = { 0 };
	int64_t cur = -1;
	uint32_t pad = 0;
	size_t n = 0;

	if (!v)
		return -1;
	collect(&p->hist, core, 0, v, &n);
	if (rets)
		collect(rets, core, 1, v, &n);
	if (n)
		qsort(v, n, sizeof(*v), addr_cmp);
	for (size_t i = 0; i < n; i++) {
		/* a return address ends the call before it: that call's function */
		int64_t fn = cwasm__func_at(m, v[i].ret ? v[i].off - 1 : v[i].off);
		struct ap_err err;

		cs.checked += v[i].count;
		if (fn < 0) {
			if (v[i].ret)
				cs.returns += v[i].count, cs.bad_return += v[i].count;
			else
				cs.in_padding += v[i].count;
			continue;
		}
		if (fn != cur) {
			cls_func__exit(&f);
			cur = fn;
			if (cls__classify_func(m, (uint32_t)fn, CWASM_ARCH_UNKNOWN, NULL, 0, &f, &err)) {
				free(v);
				return err.kind == AP_ERR_NOMEM ? -1 : 0;
			}
			pad = padding_start(&f);
		}
		if (v[i].ret)
			check_ret(&cs, &f, v[i].off, v[i].count);
		else
			check_ip(&cs, &f, pad, v[i].off, v[i].count);
	}
	cls_func__exit(&f);
	free(v);
	/* in the mapping but in no function: between functions or past the text */
	cs.checked += c->outside_text;
	cs.in_padding += c->outside_text;
	c->consistency = cs;
	return 0;
}

int profile__check_consistency(struct profile *p, const struct attr_hist *rets,
			       struct ap_err *err)
{
	char msg[640];

	for (uint32_t i = 0; i < p->attr.ncores; i++) {
		struct attr_core *c = &p->attr.cores[i];

		if (check_core(p, rets, i))
			return ap_err_nomem(err);
		/* its counts stop at the cut: part of the run (docs/damaged-recordings.md) */
		if (p->attr.truncated)
			c->authoritative = 0;
		if (attr_consistency__ok(&c->consistency))
			continue;
		c->authoritative = 0;
		attr_consistency__describe(&c->consistency, c->mod->path, msg, sizeof(msg));
		if (ap_warnings__add(&p->attr.warnings, AP_HINT_NONE, "%s", msg))
			return ap_err_nomem(err);
	}
	return 0;
}

void profile__cut_words(uint64_t read, uint64_t expected, char *buf, size_t len)
{
	snprintf(buf, len, "read %" PRIu64 " of %" PRIu64 " data bytes (%.2f%%): the"
		 " records after the cut are missing; not authoritative", read, expected,
		 ap_pct(read, expected));
}

const char *profile__no_verdict(const struct profile *p, uint32_t core)
{
	const struct attr_consistency *cs = &p->attr.cores[core].consistency;

	if (p->attr.truncated)
		return "the recording is cut short";
	if (cs->computed && !attr_consistency__ok(cs))
		return "its samples do not fit its code (another build?)";
	return NULL;
}

int profile__require_whole(const struct profile *p, struct ap_err *err)
{
	char words[200];

	if (!p->attr.truncated)
		return 0;
	profile__cut_words(p->attr.bytes_read, p->attr.bytes_expected, words, sizeof(words));
	return ap_errk(err, AP_ERR_GATE, "%s: cut short: %s", p->input ? p->input : "perf.data",
		       words);
}

int profile__require_consistent(const struct profile *p, struct ap_err *err)
{
	if (profile__require_whole(p, err))
		return -1;
	for (uint32_t i = 0; i < p->attr.ncores; i++) {
		const struct attr_core *c = &p->attr.cores[i];
		char msg[640];

		if (attr_consistency__ok(&c->consistency))
			continue;
		attr_consistency__describe(&c->consistency, c->mod->path, msg, sizeof(msg));
		ap_errk(err, AP_ERR_GATE, "%s", msg);
		return -1;
	}
	return 0;
}
