// SPDX-License-Identifier: MIT
/*
 * What the dlfilter prints at stop(): its header lines and notes, then the
 * report of its profile (render/report.h): per core the function table of
 * `aotperf report`, then the class mix of the hottest function (or of
 * func=N) in the table `aotperf report --func` prints. "%run" is of the
 * samples perf script handed to the filter (of event=, if given).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "dlf.h"
#include "../render/report.h"

/* Cores that compete for regions of core i's length. */
static uint32_t sharing(const struct dlf *d, uint32_t i)
{
	return attr__sharing(d->p->attr.cores, d->p->attr.ncores, i);
}

static int pinned(const struct dlf *d, uint32_t i)
{
	return d->p->attr.cores[i].base_override != 0;
}

/* One region of a size no other unpinned core has. */
static int unique_region(const struct dlf *d, uint32_t i)
{
	return !pinned(d, i) && sharing(d, i) == 1 && d->rg.core_regions[i] == 1;
}

static void print_notes(FILE *out, const struct dlf *d)
{
	for (uint32_t i = 0; i < d->cs.n; i++) {
		const struct cwasm_module *m = d->cs.mods[i];
		uint64_t len = attr__page_round(m->text_size);
		uint32_t k = sharing(d, i);

		if (!d->rg.core_regions[i])
			fprintf(out, DLF_NAME ": note: %s: no sample in an anonymous r-x region of"
				" %" PRIu64 " bytes (its page-rounded text)\n", m->path, len);
		else if (!pinned(d, i) && !unique_region(d, i) && k == 1)
			fprintf(out, DLF_NAME ": note: %s: %u regions; samples of every copy"
				" counted\n", m->path, d->rg.core_regions[i]);
		else if (!pinned(d, i) && !unique_region(d, i))
			fprintf(out, DLF_NAME ": note: %s: %u cores of its size: regions assigned"
				" in order of first sample (base=HEX pins)\n", m->path, k);
	}
	if (d->injected && !d->p->attr.attributed_samples)
		fprintf(out, DLF_NAME ": warning: %" PRIu64 " samples in files perf inject --jit"
			" or aotperf inject wrote: use the original perf.data\n", d->injected);
	if (d->anon_other)
		fprintf(out, DLF_NAME ": note: %" PRIu64 " sample(s) in anonymous r-x maps of no"
			" core's size (first 0x%" PRIx64 " +0x%" PRIx64 "); pass base=HEX if a"
			" core was mapped there\n", d->anon_other, d->other_start, d->other_len);
	if (d->rg.nsplit)
		fprintf(out, DLF_NAME ": note: %u region(s) cut out of merged anonymous maps,"
			" top down in mapping order\n", d->rg.nsplit);
	if (d->event && !d->p->attr.total_samples)
		fprintf(out, DLF_NAME ": warning: no sample of event '%s'\n", d->event);
	if (d->oom || d->p->hist.lost)
		fprintf(out, DLF_NAME ": warning: out of memory: some samples were not counted\n");
}

static void print_text(FILE *out, const struct dlf *d, const struct view_report *v,
		       const struct render_opts *ro)
{
	fprintf(out, "%s: %" PRIu64 " samples seen%s%s\n", DLF_NAME, v->total,
		d->event ? ", event " : "", d->event ? d->event : "");
	render__report_cut(out, v, 0);
	render__report_coverage(out, v);
	if (d->has_func)
		fprintf(out, "  kept for output     %" PRIu64 "  (func=%s)\n", d->kept, d->func_spec);
	fprintf(out, "  regions             %u probe(s) of the address space\n",
		(unsigned)d->rg.probes);
	render__report_body(out, v, ro);
}

/* The dlfilter's own members of the JSON report. */
static void json_extra(struct json_out *j, const struct profile *p, void *ctx)
{
	const struct dlf *d = ctx;

	(void)p;
	json_key(j, "func_filter"); json_str(j, d->func_spec);
	json_key(j, "kept_samples"); json_u64(j, d->kept);
	json_key(j, "probes"); json_u64(j, d->rg.probes);
	json_key(j, "complete"); json_bool(j, !d->oom && !d->p->hist.lost);
}

/* The regions found, as the profile's mappings; the rankings. */
static int finish(struct dlf *d, struct ap_err *err)
{
	for (uint32_t i = 0; i < d->cs.n; i++)
		profile__set_mapping(d->p, i, d->rg.core_regions[i], d->rg.core_first[i],
				     d->rg.core_first_len[i], unique_region(d, i));
	profile__set_read(d->p, d->cut, d->cut_read, d->cut_expected);
	return profile__finish(d->p, err);
}

/* func= if given, else the hottest function over all cores. */
static int pick(struct dlf *d, struct ap_err *err)
{
	uint32_t core, func;

	if (d->has_func)
		return profile__add_func(d->p, d->func_spec, d->func.core, d->func.func, err);
	if (!profile__hottest(d->p, &core, &func))
		return 0;
	return profile__add_func(d->p, NULL, core, func, err);
}

int dlf__summary(struct dlf *d, struct ap_err *err)
{
	struct render_opts ro = {
		.top = d->top, .fa_listed = RENDER_FA_LISTED_DEFAULT,
		.tool = "aotperf dlfilter", .json_extra = json_extra, .ctx = d,
	};
	struct view_report_opts vo = {
		.top = d->top, .hottest = RENDER_HOTTEST_DEFAULT, .pin_word = "base=",
		.nasked = UINT32_MAX,
	};
	FILE *out = d->out ? d->out : stderr;
	struct ap_err cerr = { 0 };
	struct view_report *v;
	int rc = 0;

	if (finish(d, err) || pick(d, err))
		return -1;
	if (d->p->nfuncs && ((d->frame_prefix && profile__load_sidecars(d->p, d->frame_prefix, err)) ||
			     (d->frame_meta && profile__set_sidecar(d->p, 0, d->frame_meta, err))))
		return -1;
	/* The table is still worth having; say why the mix is not. */
	if (profile__classify(d->p, d->roles, &cerr) && !d->quiet)
		fprintf(stderr, DLF_NAME ": note: no class mix: %s\n", cerr.msg);
	if (view_report__new(d->p, &vo, &v, err))
		return -1;
	if (d->json_path && render__report_json_file(d->json_name, v, &ro, err)) {
		view_report__delete(v);
		return -1;
	}
	if (!d->quiet)
		print_notes(stderr, d);
	print_text(out, d, v, &ro);
	view_report__delete(v);
	if (fflush(out) || ferror(out))
		rc = ap_errk(err, AP_ERR_IO, "%s: write failed: %s",
			     d->out_path ? d->out_path : "stderr", strerror(errno));
	return rc;
}

int dlf__close_out(struct dlf *d, struct ap_err *err)
{
	int bad;

	if (!d->out)
		return 0;
	bad = fclose(d->out);
	d->out = NULL;
	return bad ? ap_errk(err, AP_ERR_IO, "%s: write failed: %s", d->out_path,
			     strerror(errno)) : 0;
}
