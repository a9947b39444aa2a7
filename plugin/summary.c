// SPDX-License-Identifier: MIT
/*
 * What the dlfilter prints at stop(): per core the function table of
 * `aotperf report`, then the class mix of the hottest function (or of
 * func=N) in the table `aotperf report --func` prints. "%run" is of the
 * samples perf script handed to the filter (of event=, if given).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dlf.h"
#include "../attr/attr.h"
#include "../attr/rank.h"
#include "../classify/classify.h"
#include "../util/json_out.h"
#include "../util/outfile.h"
#include "../util/sha256.h"

struct classified {
	int core;		/* -1: nothing to classify */
	uint32_t func;
	struct cls_func f;
	uint64_t *insn_samples;
	struct cls_table t;
};

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *core_name(const struct cwasm_module *m)
{
	return m->core_label ? m->core_label : m->path;
}

/* Cores that compete for regions of core i's length. */
static uint32_t sharing(const struct dlf *d, uint32_t i)
{
	uint32_t n = 0;

	for (uint32_t k = 0; k < d->ncores; k++)
		if (!d->bases[k] && d->lens[k] == d->lens[i])
			n++;
	return n;
}

static int unique_region(const struct dlf *d, uint32_t i)
{
	return !d->bases[i] && sharing(d, i) == 1 && d->rg.core_regions[i] == 1;
}

static uint64_t shown(const struct dlf *d, uint32_t nr)
{
	return d->top && d->top < nr ? d->top : nr;
}

static void print_core(FILE *out, const struct dlf *d, uint32_t i, const struct attr_ranked *r,
		       uint32_t nr)
{
	const struct dlf_core *c = &d->cores[i];
	const struct cwasm_module *m = c->mod;
	char name[32];

	fprintf(out, "\ncore %s (%s): %u functions, text %u bytes\n", core_name(m), m->path,
		m->nfuncs, m->text_size);
	if (d->rg.core_regions[i])
		fprintf(out, "  mapping     0x%" PRIx64 " +0x%" PRIx64 " (%s%s, %u region(s))\n",
			d->rg.core_first[i], d->rg.core_first_len[i], c->base ? "base=" : "exact size",
			unique_region(d, i) ? ", unique" : c->base ? "" : ", NOT unique",
			d->rg.core_regions[i]);
	else
		fprintf(out, "  mapping     none found\n");
	fprintf(out, "  samples     %" PRIu64 "  (%.2f%% of run)\n", c->samples,
		pct(c->samples, d->total));
	if (!nr)
		return;
	fprintf(out, "\n  %4s  %-18s %8s %8s %8s  %s\n", "rank", "function", "samples", "%run",
		"bytes", "wasm name");
	for (uint32_t k = 0; k < shown(d, nr); k++) {
		const struct cwasm_func *f = &m->funcs[r[k].func];

		fprintf(out, "  %4u  %-18s %8" PRIu64 " %7.2f%% %8u  %s\n", k + 1,
			cwasm__local_name(r[k].func, name, sizeof(name)), r[k].samples,
			pct(r[k].samples, d->total), f->size, f->name ? f->name : "");
	}
}

/* func= if given, else the hottest function over all cores. */
static void pick(const struct dlf *d, int *core, uint32_t *func)
{
	uint64_t best = 0;

	*core = d->func_core;
	*func = d->func;
	if (*core >= 0)
		return;
	for (uint32_t c = 0; c < d->ncores; c++)
		for (uint32_t f = 0; f < d->cores[c].mod->nfuncs; f++)
			if (d->cores[c].func_samples[f] > best) {
				best = d->cores[c].func_samples[f];
				*core = (int)c;
				*func = f;
			}
}

static int classify(const struct dlf *d, struct classified *out, struct ap_err *err)
{
	const struct cwasm_module *m;
	const struct cwasm_func *fn;
	struct cls_roles roles;
	uint64_t base;

	memset(out, 0, sizeof(*out));
	pick(d, &out->core, &out->func);
	if (out->core < 0)
		return 0;
	m = d->cores[out->core].mod;
	fn = &m->funcs[out->func];
	base = d->rg.core_first[out->core];
	cls__roles_target(&m->target, &roles);
	if (d->roles && cls__roles_parse(&roles, d->roles, err))
		return -1;
	if (cls__decode(m->target.arch, &roles, m->text + fn->offset, fn->size, base + fn->offset,
			&out->f, err))
		return -1;
	out->insn_samples = calloc(out->f.ninsns + 1, sizeof(uint64_t));
	if (!out->insn_samples)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < out->f.ninsns; i++) {
		const struct cls_insn *in = &out->f.insns[i];

		/* perf's ip is an instruction's first byte; count every byte anyway */
		for (uint32_t b = 0; b < in->size; b++)
			out->insn_samples[i] += hist__get(&d->hist, (uint32_t)out->core,
							  fn->offset + in->offset + b);
	}
	cls__tabulate(&out->f, out->insn_samples, &out->t);
	return 0;
}

static void classified_free(struct classified *c)
{
	if (c->core >= 0)
		cls_func__exit(&c->f);
	free(c->insn_samples);
}

static void print_classified(FILE *out, const struct dlf *d, const struct classified *c)
{
	const struct cwasm_module *m = d->cores[c->core].mod;
	const struct cwasm_func *fn = &m->funcs[c->func];
	uint64_t n = d->cores[c->core].func_samples[c->func];

	fprintf(out, "\nfunction local_func_%u%s%s%s: %" PRIu64 " samples (%.2f%% of run),"
		" %u instructions, %u bytes\n", c->func, fn->name ? " (" : "",
		fn->name ? fn->name : "", fn->name ? ")" : "", n, pct(n, d->total),
		cls__insn_count(&c->f), fn->size);
	if (d->ncores > 1)
		fprintf(out, "  core %s\n", core_name(m));
	cls__print_roles(out, &c->f.roles);
	cls__print_table(out, &c->t, d->total);
	if (n) {
		fprintf(out, "\n  hottest instructions\n");
		cls__print_hottest(out, &c->f, c->insn_samples, DLF_HOTTEST, &c->t, d->total);
	}
}

static void print_notes(FILE *out, const struct dlf *d)
{
	for (uint32_t i = 0; i < d->ncores; i++) {
		const struct cwasm_module *m = d->cores[i].mod;
		uint32_t k = sharing(d, i);

		if (!d->rg.core_regions[i])
			fprintf(out, DLF_NAME ": note: %s: no sample in an anonymous r-x region of"
				" %" PRIu64 " bytes (its page-rounded text)\n", m->path, d->lens[i]);
		else if (!d->bases[i] && !unique_region(d, i))
			fprintf(out, DLF_NAME ": note: %s: %u region(s) of %" PRIu64 " bytes and"
				" %u core(s) of that size: region j of a process, in order of"
				" first sample, goes to core (j mod %u) in argument order (first"
				" at 0x%" PRIx64 "); pass base=HEX to choose\n", m->path,
				d->rg.core_regions[i], d->lens[i], k, k, d->rg.core_first[i]);
	}
	if (d->anon_other)
		fprintf(out, DLF_NAME ": note: %" PRIu64 " sample(s) in anonymous r-x maps of no"
			" core's size (first 0x%" PRIx64 " +0x%" PRIx64 "); pass base=HEX if a"
			" core was mapped there\n", d->anon_other, d->other_start, d->other_len);
	if (d->rg.nsplit)
		fprintf(out, DLF_NAME ": note: %u region(s) cut out of merged anonymous maps,"
			" top down in mapping order\n", d->rg.nsplit);
	if (d->event && !d->total)
		fprintf(out, DLF_NAME ": warning: no sample of event '%s'\n", d->event);
	if (d->oom)
		fprintf(out, DLF_NAME ": warning: out of memory: some samples were not counted\n");
}

static void print_text(FILE *out, const struct dlf *d, struct attr_ranked **r, const uint32_t *nr,
		       const struct classified *c)
{
	fprintf(out, "%s: %" PRIu64 " samples seen%s%s\n", DLF_NAME, d->total,
		d->event ? ", event " : "", d->event ? d->event : "");
	fprintf(out, "  in wasm code        %" PRIu64 "  (%.2f%% of run)\n", d->attributed,
		pct(d->attributed, d->total));
	if (d->func_core >= 0)
		fprintf(out, "  kept for output     %" PRIu64 "  (func=%s)\n", d->kept, d->func_spec);
	fprintf(out, "  regions             %u probe(s) of the address space\n",
		(unsigned)d->rg.probes);
	for (uint32_t i = 0; i < d->ncores; i++)
		print_core(out, d, i, r[i], nr[i]);
	if (c->core >= 0)
		print_classified(out, d, c);
}

static void json_core(struct json_out *j, const struct dlf *d, uint32_t i,
		      const struct attr_ranked *r, uint32_t nr)
{
	const struct dlf_core *c = &d->cores[i];
	struct attr_json_core jc = {
		.mod = c->mod, .run_total = d->total, .samples = c->samples,
		.nmappings = d->rg.core_regions[i], .first_base = d->rg.core_first[i],
		.first_len = d->rg.core_first_len[i], .authoritative = unique_region(d, i),
		.override = c->base, .ranked = r, .nranked = nr, .top = shown(d, nr),
	};

	attr__json_core(j, &jc);
}

static void json_classified(struct json_out *j, const struct dlf *d, const struct classified *c)
{
	const struct cwasm_module *m = d->cores[c->core].mod;
	uint64_t n = d->cores[c->core].func_samples[c->func];

	json_key(j, "classified_function");
	json_begin_obj(j);
	cls__json_function(j, m, c->func, n, d->total, &c->f, &c->t, c->insn_samples,
			   DLF_HOTTEST);
	json_end_obj(j);
}

/* One core: its block at the top level; several: under "cores". */
static int write_json(const struct dlf *d, struct attr_ranked **r, const uint32_t *nr,
		      const struct classified *c, struct ap_err *err)
{
	struct outfile out;
	struct json_out j;

	if (outfile__open(&out, d->json_path, err))
		return -1;
	json_init(&j, out.f);
	json_begin_obj(&j);
	json_key(&j, "schema_version"); json_u64(&j, 1);
	json_key(&j, "tool"); json_str(&j, "aotperf dlfilter");
	json_key(&j, "event"); json_str(&j, d->event);
	if (d->ncores == 1) {
		json_core(&j, d, 0, r[0], nr[0]);
	} else {
		json_key(&j, "total_samples"); json_u64(&j, d->total);
		json_key(&j, "attributed_samples"); json_u64(&j, d->attributed);
		json_key(&j, "attribution_coverage_pct");
		json_dbl(&j, pct(d->attributed, d->total), 4);
		json_key(&j, "cores");
		json_begin_arr(&j);
		for (uint32_t i = 0; i < d->ncores; i++) {
			json_begin_obj(&j);
			json_core(&j, d, i, r[i], nr[i]);
			json_end_obj(&j);
		}
		json_end_arr(&j);
	}
	if (c->core >= 0)
		json_classified(&j, d, c);
	json_key(&j, "func_filter"); json_str(&j, d->func_spec);
	json_key(&j, "kept_samples"); json_u64(&j, d->kept);
	json_key(&j, "probes"); json_u64(&j, d->rg.probes);
	json_key(&j, "complete"); json_bool(&j, !d->oom);
	json_end_obj(&j);
	json_finish(&j);
	return outfile__commit(&out, err);
}

static int emit(const struct dlf *d, struct attr_ranked **r, const uint32_t *nr,
		const struct classified *c, struct ap_err *err)
{
	FILE *out = d->out ? d->out : stderr;

	if (d->json_path && write_json(d, r, nr, c, err))
		return -1;
	if (!d->quiet)
		print_notes(stderr, d);
	print_text(out, d, r, nr, c);
	if (fflush(out) || ferror(out))
		return ap_errf(err, "%s: write failed: %s", d->out_path ? d->out_path : "stderr",
			       strerror(errno));
	return 0;
}

int dlf__summary(struct dlf *d, struct ap_err *err)
{
	struct attr_ranked **r = calloc(d->ncores, sizeof(*r));
	uint32_t *nr = calloc(d->ncores, sizeof(*nr));
	struct classified c = { .core = -1 };
	int ret = -1;

	if (!r || !nr) {
		ap_err_nomem(err);
		goto out;
	}
	for (uint32_t i = 0; i < d->ncores; i++) {
		r[i] = attr__rank(d->cores[i].func_samples, d->cores[i].mod->nfuncs, &nr[i]);
		if (!r[i]) {
			ap_err_nomem(err);
			goto out;
		}
	}
	if (classify(d, &c, err)) {
		/* The table is still worth having; say why the mix is not. */
		if (!d->quiet)
			fprintf(stderr, DLF_NAME ": note: no class mix: %s\n", err->msg);
		classified_free(&c);
		c.core = -1;
		c.insn_samples = NULL;
		err->msg[0] = 0;
	}
	ret = emit(d, r, nr, &c, err);
out:
	classified_free(&c);
	for (uint32_t i = 0; r && i < d->ncores; i++)
		free(r[i]);
	free(r);
	free(nr);
	return ret;
}
