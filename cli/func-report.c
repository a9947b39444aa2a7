// SPDX-License-Identifier: MIT
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "func-report.h"
#include "../classify/classify.h"
#include "../classify/frameattr.h"

#define HOTTEST 20
#define FA_LISTED 20	/* disagreements listed per function */

int func_report__add_spec(struct func_report *fr, const char *spec, struct ap_err *err)
{
	if (fr->npicks == FUNC_MAX_PICKS)
		return ap_errf(err, "--func: at most %d", FUNC_MAX_PICKS);
	fr->picks[fr->npicks++].spec = spec;
	return 0;
}

static int ips_grow(struct func_report *fr)
{
	size_t cap = fr->ips.cap ? fr->ips.cap * 2 : 4096;
	uint64_t *keys = calloc(cap, sizeof(*keys)), *counts = calloc(cap, sizeof(*counts));

	if (!keys || !counts) {
		free(keys);
		free(counts);
		return -1;
	}
	for (size_t i = 0; i < fr->ips.cap; i++) {
		size_t h;

		if (!fr->ips.keys[i])
			continue;
		h = (fr->ips.keys[i] * 0x9e3779b97f4a7c15ull) & (cap - 1);
		while (keys[h])
			h = (h + 1) & (cap - 1);
		keys[h] = fr->ips.keys[i];
		counts[h] = fr->ips.counts[i];
	}
	free(fr->ips.keys);
	free(fr->ips.counts);
	fr->ips.keys = keys;
	fr->ips.counts = counts;
	fr->ips.cap = cap;
	return 0;
}

static uint64_t ip_key(int core, uint64_t off)
{
	return ((uint64_t)core << 40 | off) + 1;
}

static uint64_t ips_get(const struct func_report *fr, uint64_t key)
{
	size_t h;

	if (!fr->ips.cap)
		return 0;
	h = (key * 0x9e3779b97f4a7c15ull) & (fr->ips.cap - 1);
	while (fr->ips.keys[h]) {
		if (fr->ips.keys[h] == key)
			return fr->ips.counts[h];
		h = (h + 1) & (fr->ips.cap - 1);
	}
	return 0;
}

/* Every sample in a core, by offset: distinct ips are few, the hash stays small. */
static void on_sample(void *ctx, int core, uint32_t func, uint64_t off, const struct pd_sample *s)
{
	struct func_report *fr = ctx;
	uint64_t key = ip_key(core, off);
	size_t h;

	(void)func;
	(void)s;
	if (fr->oom)
		return;
	if ((fr->ips.n + 1) * 2 > fr->ips.cap && ips_grow(fr)) {
		fr->oom = 1;
		return;
	}
	h = (key * 0x9e3779b97f4a7c15ull) & (fr->ips.cap - 1);
	while (fr->ips.keys[h] && fr->ips.keys[h] != key)
		h = (h + 1) & (fr->ips.cap - 1);
	if (!fr->ips.keys[h]) {
		fr->ips.keys[h] = key;
		fr->ips.n++;
	}
	fr->ips.counts[h]++;
}

void func_report__hook(struct func_report *fr, struct attr_opts *opts)
{
	if (!fr->npicks && !fr->hot)
		return;
	opts->on_sample = on_sample;
	opts->ctx = fr;
}

/* "N" or "local_func_N" or a wasm name, in core c; -1 if none. */
static int64_t find_func(const struct cwasm_module *m, const char *s)
{
	char *end;
	unsigned long long n;

	if (!strncmp(s, "local_func_", 11))
		s += 11;
	n = strtoull(s, &end, 10);
	if (*s && !*end)
		return n < m->nfuncs ? (int64_t)n : -1;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name && !strcmp(m->funcs[i].name, s))
			return i;
	return -1;
}

static int resolve_pick(struct func_pick *p, const struct attr_result *res, struct ap_err *err)
{
	const char *colon = strchr(p->spec, ':'), *fn = p->spec;
	int64_t f = -1;

	p->core = -1;
	if (colon && !strncmp(p->spec, "mod", 3)) {
		for (uint32_t c = 0; c < res->ncores; c++) {
			const char *label = res->cores[c].mod->core_label;

			if (label && strlen(label) == (size_t)(colon - p->spec) &&
			    !strncmp(label, p->spec, (size_t)(colon - p->spec)))
				p->core = (int)c;
		}
		if (p->core < 0)
			return ap_errf(err, "--func %s: no core '%.*s'", p->spec,
				       (int)(colon - p->spec), p->spec);
		fn = colon + 1;
		f = find_func(res->cores[p->core].mod, fn);
	} else {
		for (uint32_t c = 0; c < res->ncores && f < 0; c++) {
			f = find_func(res->cores[c].mod, fn);
			p->core = (int)c;
		}
	}
	if (f < 0)
		return ap_errf(err, "--func %s: no such function (give N, local_func_N, a wasm"
			       " name, or modM:N for a manifest core)", p->spec);
	p->func = (uint32_t)f;
	return 0;
}

/*
 * The sidecar of each pick, read before anything is printed so a bad one
 * fails the command cleanly. A function without one is only noted: the
 * compiler may have written sidecars for some functions.
 */
static int load_sidecar(const struct func_report *fr, struct func_pick *p,
			const struct attr_result *res, struct ap_err *err)
{
	const struct cwasm_module *m = res->cores[p->core].mod;
	uint32_t mod = m->manifest_idx >= 0 ? (uint32_t)m->manifest_idx : 0;
	size_t len = strlen(fr->frame_attr) + 48;
	struct stat st;

	p->fa_path = malloc(len);
	if (!p->fa_path || fa__path(p->fa_path, len, fr->frame_attr, mod, p->func))
		return ap_err_nomem(err);
	if (stat(p->fa_path, &st) && errno == ENOENT)
		return 0;
	p->fa = calloc(1, sizeof(*p->fa));
	if (!p->fa)
		return ap_err_nomem(err);
	if (fa__load(p->fa_path, mod, p->func, m->funcs[p->func].size, p->fa, err)) {
		free(p->fa);
		p->fa = NULL;
		return -1;
	}
	return 0;
}

static int load_sidecars(struct func_report *fr, const struct attr_result *res,
			 struct ap_err *err)
{
	if (!fr->frame_attr)
		return 0;
	if (!fr->npicks)
		return ap_errf(err, "--frame-attribution needs --func or --hot");
	for (uint32_t i = 0; i < fr->npicks; i++)
		if (load_sidecar(fr, &fr->picks[i], res, err))
			return -1;
	return 0;
}

int func_report__resolve(struct func_report *fr, const struct attr_result *res,
			 struct ap_err *err)
{
	if (fr->oom)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < fr->npicks; i++)
		if (resolve_pick(&fr->picks[i], res, err))
			return -1;
	/* --hot K: the K hottest functions over all cores, not already picked */
	for (uint32_t k = 0; k < fr->hot && fr->npicks < FUNC_MAX_PICKS; k++) {
		int best_core = -1;
		uint32_t best = 0;
		uint64_t best_n = 0;

		for (uint32_t c = 0; c < res->ncores; c++) {
			for (uint32_t f = 0; f < res->cores[c].mod->nfuncs; f++) {
				uint64_t n = res->cores[c].func_samples[f];
				int taken = 0;

				for (uint32_t i = 0; i < fr->npicks; i++)
					taken |= fr->picks[i].core == (int)c && fr->picks[i].func == f;
				if (n > best_n && !taken) {
					best_n = n;
					best_core = (int)c;
					best = f;
				}
			}
		}
		if (best_core < 0)
			break;
		fr->picks[fr->npicks++] = (struct func_pick){ "--hot", best_core, best, NULL, NULL };
	}
	return load_sidecars(fr, res, err);
}

/* Decode one picked function and gather its per-instruction samples. */
struct classified {
	struct cls_func f;
	uint64_t *insn_samples;
	struct cls_table t;
	uint64_t samples;
	uint64_t base;
	struct fa_join fj;	/* fj.sc set when the pick has a sidecar */
};

static int classify_pick(const struct func_report *fr, const struct func_pick *p,
			 const struct attr_result *res, struct classified *out, struct ap_err *err)
{
	const struct attr_core *c = &res->cores[p->core];
	const struct cwasm_module *m = c->mod;
	const struct cwasm_func *fn = &m->funcs[p->func];
	struct cls_roles roles;

	memset(out, 0, sizeof(*out));
	cls__roles_target(&m->target, &roles);
	if (fr->roles && cls__roles_parse(&roles, fr->roles, err))
		return -1;
	out->base = c->first_base;
	if (cls__decode(m->target.arch, &roles, m->text + fn->offset, fn->size, out->base + fn->offset,
			&out->f, err))
		return -1;
	out->insn_samples = calloc(out->f.ninsns + 1, sizeof(uint64_t));
	if (!out->insn_samples) {
		cls_func__exit(&out->f);
		return ap_err_nomem(err);
	}
	for (uint32_t i = 0; i < out->f.ninsns; i++) {
		const struct cls_insn *in = &out->f.insns[i];

		/* every byte of the instruction: perf's ip is its first, but be exact */
		for (uint32_t b = 0; b < in->size; b++)
			out->insn_samples[i] += ips_get(fr, ip_key(p->core, fn->offset + in->offset + b));
	}
	out->samples = c->func_samples[p->func];
	cls__tabulate(&out->f, out->insn_samples, &out->t);
	if (p->fa && fa__join(p->fa, &out->f, out->insn_samples, &out->fj, err)) {
		cls_func__exit(&out->f);
		free(out->insn_samples);
		return -1;
	}
	return 0;
}

static void classified_free(struct classified *c)
{
	cls_func__exit(&c->f);
	free(c->insn_samples);
	fa_join__exit(&c->fj);
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

int func_report__print(struct func_report *fr, const struct attr_result *res, FILE *out,
		       struct ap_err *err)
{
	for (uint32_t i = 0; i < fr->npicks; i++) {
		const struct func_pick *p = &fr->picks[i];
		const struct cwasm_module *m = res->cores[p->core].mod;
		struct classified c;

		if (classify_pick(fr, p, res, &c, err))
			return -1;
		fprintf(out, "\nfunction local_func_%u%s%s%s%s: %" PRIu64 " samples (%.2f%% of run),"
			" %u instructions, %u bytes\n", p->func,
			m->funcs[p->func].name ? " (" : "",
			m->funcs[p->func].name ? m->funcs[p->func].name : "",
			m->funcs[p->func].name ? ")" : "",
			res->ncores > 1 ? (m->core_label ? " in core" : "") : "", c.samples,
			pct(c.samples, res->total_samples), cls__insn_count(&c.f),
			m->funcs[p->func].size);
		if (res->ncores > 1 && m->core_label)
			fprintf(out, "  core %s\n", m->core_label);
		cls__print_roles(out, &c.f.roles);
		cls__print_table(out, &c.t, res->total_samples);
		if (c.fj.sc)
			fa__print(out, &c.fj, &c.f, c.insn_samples, FA_LISTED);
		else if (p->fa_path)
			fprintf(out, "\n  frame attribution  no sidecar %s\n", p->fa_path);
		if (c.samples) {
			fprintf(out, "\n  hottest instructions\n");
			cls__print_hottest(out, &c.f, c.insn_samples, HOTTEST, &c.t,
					   res->total_samples);
		}
		classified_free(&c);
	}
	return 0;
}

static int json_one(struct func_report *fr, const struct func_pick *p,
		    const struct attr_result *res, struct json_out *j, struct ap_err *err)
{
	const struct cwasm_module *m = res->cores[p->core].mod;
	struct classified c;

	if (classify_pick(fr, p, res, &c, err))
		return -1;
	json_begin_obj(j);
	cls__json_function(j, m, p->func, c.samples, res->total_samples, &c.f, &c.t,
			   c.insn_samples, HOTTEST);
	if (c.fj.sc) {
		json_key(j, "frame_attribution");
		fa__json(j, &c.fj, &c.f, c.insn_samples, FA_LISTED);
	} else if (p->fa_path) {
		json_key(j, "frame_attribution");
		json_begin_obj(j);
		json_key(j, "path"); json_str(j, p->fa_path);
		json_key(j, "present"); json_bool(j, 0);
		json_end_obj(j);
	}
	json_end_obj(j);
	classified_free(&c);
	return 0;
}

int func_report__json(struct func_report *fr, const struct attr_result *res,
		      struct json_out *j, struct ap_err *err)
{
	if (!fr->npicks)
		return 0;
	json_key(j, "classified_function");
	if (json_one(fr, &fr->picks[0], res, j, err))
		return -1;
	json_key(j, "classified_functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < fr->npicks; i++)
		if (json_one(fr, &fr->picks[i], res, j, err))
			return -1;
	json_end_arr(j);
	return 0;
}

void func_report__exit(struct func_report *fr)
{
	for (uint32_t i = 0; i < fr->npicks; i++) {
		if (fr->picks[i].fa)
			fa__exit(fr->picks[i].fa);
		free(fr->picks[i].fa);
		free(fr->picks[i].fa_path);
	}
	free(fr->ips.keys);
	free(fr->ips.counts);
}
