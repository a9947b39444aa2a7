// SPDX-License-Identifier: MIT
/*
 * aotperf-dlfilter: a `perf script --dlfilter` plugin that attributes the
 * samples of a WAMR ahead-of-time compiled run to its wasm functions.
 *
 *   perf script -i perf.data --dlfilter aotperf-dlfilter.so \
 *	--dlarg FILE.cwasm|M.cwasm.json [--dlarg func=N] [--dlarg quiet] ...
 *
 * perf gives a dlfilter samples only, not MMAP records, so each core's
 * mapping is found from the samples themselves (regions.h). Everything
 * lives in the state start() hands back to perf; perf_dlfilter_fns is the
 * one global, and perf fills it in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <perf/perf_dlfilter.h>
#include "dlf.h"
#include "../attr/attr.h"
#include "../classify/classify.h"
#include "../util/outfile.h"

#define DLF_API __attribute__((visibility("default")))
#define DLF_MAX_PINS 64

/* Not const: perf writes the function table into it after dlopen(). */
DLF_API struct perf_dlfilter_fns perf_dlfilter_fns;

static const char dlf_usage[] =
	"--dlarg FILE.cwasm | --dlarg M.cwasm.json   the cores (several allowed, in order)\n"
	"--dlarg func=F      keep only function F's samples: N, local_func_N, a wasm name,\n"
	"                    or modM:N in a manifest; its class mix is printed at the end\n"
	"--dlarg event=NAME  count only this event's samples (others are dropped with func=)\n"
	"--dlarg top=N       functions listed per core (default 20, 0 = all)\n"
	"--dlarg base=HEX    the i-th base= pins the i-th core to the region at HEX\n"
	"--dlarg roles=SPEC  register roles for the class mix, e.g. vmctx=rcx,membase=none\n"
	"--dlarg out=FILE    the summary to FILE instead of stderr\n"
	"--dlarg json=FILE   also write the summary as JSON (aotperf report's keys)\n"
	"--dlarg quiet       no notes or warnings\n";

struct dlf_args {
	uint64_t pins[DLF_MAX_PINS];
	uint32_t npins;
};

static int push_core(struct dlf *d, const struct cwasm_module *m, struct ap_err *err)
{
	struct dlf_core *cores = realloc(d->cores, (d->ncores + 1) * sizeof(*cores));

	if (!cores)
		return ap_errf(err, "%s: out of memory", m->path);
	d->cores = cores;
	memset(&cores[d->ncores], 0, sizeof(*cores));
	cores[d->ncores].mod = m;
	cores[d->ncores].func_samples = calloc(m->nfuncs + 1, sizeof(uint64_t));
	if (!cores[d->ncores].func_samples)
		return ap_errf(err, "%s: out of memory", m->path);
	d->ncores++;
	return 0;
}

static int add_cwasm(struct dlf *d, const char *path, struct ap_err *err)
{
	struct cwasm_module *m, **files;

	if (cwasm__read(path, &m, err))
		return -1;
	files = realloc(d->files, (d->nfiles + 1) * sizeof(*files));
	if (!files) {
		cwasm__delete(m);
		return ap_errf(err, "%s: out of memory", path);
	}
	d->files = files;
	files[d->nfiles++] = m;
	return push_core(d, m, err);
}

static int add_manifest(struct dlf *d, const char *path, struct ap_err *err)
{
	struct cwasm_manifest *man, **mans;

	if (cwasm_manifest__read(path, &man, err))
		return -1;
	mans = realloc(d->mans, (d->nmans + 1) * sizeof(*mans));
	if (!mans) {
		cwasm_manifest__delete(man);
		return ap_errf(err, "%s: out of memory", path);
	}
	d->mans = mans;
	mans[d->nmans++] = man;
	for (uint32_t i = 0; i < man->ncores; i++)
		if (push_core(d, man->cores[i], err))
			return -1;
	return 0;
}

/* "key=value": the value, or NULL when a is not that key. */
static const char *opt_val(const char *a, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(a, key, n) && a[n] == '=' ? a + n + 1 : NULL;
}

static int set_str(char **dst, const char *key, const char *v, struct ap_err *err)
{
	if (!*v)
		return ap_errf(err, "%s=: empty value", key);
	free(*dst);
	*dst = strdup(v);
	return *dst ? 0 : ap_err_nomem(err);
}

static int parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static int parse_arg(struct dlf *d, struct dlf_args *a, const char *arg, struct ap_err *err)
{
	const char *v;

	if (!strcmp(arg, "quiet")) {
		d->quiet = 1;
		return 0;
	}
	if ((v = opt_val(arg, "func")))
		return set_str(&d->func_spec, "func", v, err);
	if ((v = opt_val(arg, "event")))
		return set_str(&d->event, "event", v, err);
	if ((v = opt_val(arg, "out")))
		return set_str(&d->out_path, "out", v, err);
	if ((v = opt_val(arg, "json")))
		return set_str(&d->json_path, "json", v, err);
	if ((v = opt_val(arg, "roles")))
		return set_str(&d->roles, "roles", v, err);
	if ((v = opt_val(arg, "top"))) {
		if (parse_u64(v, 10, &d->top))
			return ap_errf(err, "top=%s: not a number", v);
		return 0;
	}
	if ((v = opt_val(arg, "base"))) {
		uint64_t b;

		if (!strncmp(v, "0x", 2) || !strncmp(v, "0X", 2))
			v += 2;
		if (parse_u64(v, 16, &b) || !b)
			return ap_errf(err, "base=%s: not a hex address", v);
		if (a->npins == DLF_MAX_PINS)
			return ap_errf(err, "base=: at most %d", DLF_MAX_PINS);
		a->pins[a->npins++] = b;
		return 0;
	}
	if (!strcmp(arg, "help"))
		return ap_errf(err, "arguments:\n%s", dlf_usage);
	if (has_suffix(arg, ".json"))
		return add_manifest(d, arg, err);
	return add_cwasm(d, arg, err);
}

/* "N", "local_func_N" or a wasm name in m; -1 if none. */
static int64_t find_func(const struct cwasm_module *m, const char *s)
{
	uint64_t n;

	if (!strncmp(s, "local_func_", 11))
		s += 11;
	if (!parse_u64(s, 10, &n))
		return n < m->nfuncs ? (int64_t)n : -1;
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name && !strcmp(m->funcs[i].name, s))
			return i;
	return -1;
}

/* func=: "modM:F" names a manifest core, else the first core that has F. */
static int resolve_func(struct dlf *d, struct ap_err *err)
{
	const char *spec = d->func_spec, *colon = strchr(spec, ':'), *fn = spec;
	int64_t f = -1;

	if (colon && !strncmp(spec, "mod", 3)) {
		size_t n = (size_t)(colon - spec);

		for (uint32_t c = 0; c < d->ncores && f < 0; c++) {
			const char *label = d->cores[c].mod->core_label;

			if (label && strlen(label) == n && !strncmp(label, spec, n)) {
				d->func_core = (int)c;
				f = find_func(d->cores[c].mod, colon + 1);
			}
		}
		if (d->func_core < 0)
			return ap_errf(err, "func=%s: no core '%.*s'", spec, (int)n, spec);
		fn = colon + 1;
	} else {
		for (uint32_t c = 0; c < d->ncores && f < 0; c++) {
			f = find_func(d->cores[c].mod, fn);
			d->func_core = (int)c;
		}
	}
	if (f < 0)
		return ap_errf(err, "func=%s: no such function (give N, local_func_N, a wasm"
			       " name, or modM:N for a manifest core)", spec);
	d->func = (uint32_t)f;
	return 0;
}

/* Open out= and try json= now: a typo should stop perf before the run. */
static int check_outputs(struct dlf *d, struct ap_err *err)
{
	struct outfile of;

	if (d->out_path) {
		d->out = fopen(d->out_path, "w");
		if (!d->out)
			return ap_errf(err, "out=%s: %s", d->out_path, strerror(errno));
	}
	if (d->json_path) {
		if (outfile__open(&of, d->json_path, err))
			return -1;
		outfile__abort(&of);
	}
	return 0;
}

static int setup(struct dlf *d, const struct dlf_args *a, struct ap_err *err)
{
	struct cls_roles roles;

	if (!d->ncores)
		return ap_errf(err, "no core given: --dlarg FILE.cwasm or --dlarg M.cwasm.json\n%s",
			       dlf_usage);
	if (a->npins > d->ncores)
		return ap_errf(err, "%u base= for %u core(s)", a->npins, d->ncores);
	d->lens = calloc(d->ncores, sizeof(*d->lens));
	d->bases = calloc(d->ncores, sizeof(*d->bases));
	if (!d->lens || !d->bases)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < d->ncores; i++) {
		d->lens[i] = attr__page_round(d->cores[i].mod->text_size);
		d->bases[i] = i < a->npins ? a->pins[i] : 0;
		d->cores[i].base = d->bases[i];
	}
	if (rg__init(&d->rg, d->lens, d->bases, d->ncores))
		return ap_err_nomem(err);
	/* A bad roles= should stop perf now, not after the whole run. */
	cls__roles_default(d->cores[0].mod->target.arch, &roles);
	if (d->roles && cls__roles_parse(&roles, d->roles, err))
		return -1;
	if (d->func_spec && resolve_func(d, err))
		return -1;
	return check_outputs(d, err);
}

static void dlf_free(struct dlf *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->ncores; i++)
		free(d->cores[i].func_samples);
	free(d->cores);
	for (uint32_t i = 0; i < d->nfiles; i++)
		cwasm__delete(d->files[i]);
	free(d->files);
	for (uint32_t i = 0; i < d->nmans; i++)
		cwasm_manifest__delete(d->mans[i]);
	free(d->mans);
	rg__exit(&d->rg);
	hist__exit(&d->hist);
	free(d->lens);
	free(d->bases);
	free(d->func_spec);
	free(d->event);
	if (d->out)
		fclose(d->out);
	free(d->out_path);
	free(d->json_path);
	free(d->roles);
	free(d);
}

DLF_API int start(void **data, void *ctx)
{
	struct dlf_args a = { .npins = 0 };
	struct ap_err err = { 0 };
	struct dlf *d;
	char **argv = NULL;
	int argc = 0;

	if (!data)
		return -1;
	*data = NULL;
	d = calloc(1, sizeof(*d));
	if (!d) {
		fprintf(stderr, DLF_NAME ": out of memory\n");
		return -1;
	}
	d->func_core = -1;
	d->top = DLF_TOP_DEFAULT;
	if (perf_dlfilter_fns.args)
		argv = perf_dlfilter_fns.args(ctx, &argc);
	for (int i = 0; i < argc && argv && !err.msg[0]; i++)
		if (argv[i] && parse_arg(d, &a, argv[i], &err))
			break;
	if (err.msg[0] || setup(d, &a, &err)) {
		fprintf(stderr, DLF_NAME ": %s\n", err.msg);
		dlf_free(d);
		return -1;
	}
	*data = d;
	return 0;
}

static int in_event(const struct dlf *d, const struct perf_dlfilter_sample *s)
{
	/* `event` came after the first version of the sample struct. */
	if (!d->event)
		return 1;
	if (s->size < offsetof(struct perf_dlfilter_sample, event) + sizeof(s->event) ||
	    !s->event)
		return 0;
	return !strcmp(s->event, d->event);
}

/* perf names anonymous executable maps after the perf map file (FORMATS.md 8). */
static int anon_dso(const char *dso)
{
	size_t n = strlen(dso);

	if (!strncmp(dso, "/tmp/perf-", 10) && n > 14 && has_suffix(dso, ".map"))
		return 1;
	return !strcmp(dso, "//anon") || !strncmp(dso, "[anon", 5) ||
	       !strncmp(dso, "/anon_hugepage", 14) || !strncmp(dso, "/dev/zero", 9);
}

struct probe {
	void *ctx;
	char dso[256];
};

/* Is addr, in the sample's process, in a map of the same (anonymous) dso? */
static int probe_same(void *arg, uint64_t addr)
{
	struct probe *p = arg;
	struct perf_dlfilter_al al;

	memset(&al, 0, sizeof(al));
	al.size = sizeof(al);
	if (perf_dlfilter_fns.resolve_address(p->ctx, addr, &al))
		return 0;
	return al.dso && !al.is_kernel_ip && !strcmp(al.dso, p->dso);
}

/* The region holding the sample: 1 and *r, or 0. */
static int locate(struct dlf *d, const struct perf_dlfilter_sample *s, void *ctx,
		  struct rg_region *r)
{
	const struct perf_dlfilter_al *al = NULL;
	struct probe pr;
	int ret;

	if (perf_dlfilter_fns.resolve_ip)
		al = perf_dlfilter_fns.resolve_ip(ctx);
	if (!al || !al->dso || al->is_kernel_ip)
		return 0;
	if (!anon_dso(al->dso)) {
		/* A file is mapped there now: a region we knew is gone. */
		rg__forget(&d->rg, s->pid, s->ip);
		return 0;
	}
	if (rg__find(&d->rg, s->pid, s->ip, r))
		return 1;
	if (!perf_dlfilter_fns.resolve_address || strlen(al->dso) >= sizeof(pr.dso))
		return 0;
	pr.ctx = ctx;
	strcpy(pr.dso, al->dso);
	ret = rg__discover(&d->rg, s->pid, s->ip, probe_same, &pr, r);
	if (ret < 0)
		d->oom = 1;
	return ret > 0;
}

/* Count a sample in core r->core; its function index, or -1. */
static int64_t count(struct dlf *d, const struct rg_region *r, uint64_t ip)
{
	struct dlf_core *c = &d->cores[r->core];
	uint64_t off = ip - r->start;
	int64_t fn = off < c->mod->text_size ? cwasm__func_at(c->mod, off) : -1;

	if (fn < 0) {
		c->outside_text++;
		return -1;
	}
	c->samples++;
	c->func_samples[fn]++;
	d->attributed++;
	if (hist__add(&d->hist, (uint32_t)r->core, off))
		d->oom = 1;
	return fn;
}

/* 0 keeps the sample in perf script's output, 1 drops it. */
DLF_API int filter_event(void *data, const struct perf_dlfilter_sample *s, void *ctx)
{
	struct dlf *d = data;
	struct rg_region r;
	int64_t fn = -1;
	int core = -1;

	if (!d || !s)
		return 0;
	if (!in_event(d, s))
		return d->func_core >= 0;
	d->total++;
	if (locate(d, s, ctx, &r)) {
		if (r.core >= 0) {
			core = r.core;
			fn = count(d, &r, s->ip);
		} else if (!d->anon_other++) {
			d->other_start = r.start;
			d->other_len = r.end - r.start;
		}
	}
	if (d->func_core >= 0 && (core != d->func_core || fn != (int64_t)d->func))
		return 1;
	d->kept++;
	return 0;
}

DLF_API int stop(void *data, void *ctx)
{
	struct dlf *d = data;
	struct ap_err err = { 0 };
	int ret = 0;

	(void)ctx;
	if (!d)
		return 0;
	if (dlf__summary(d, &err)) {
		fprintf(stderr, DLF_NAME ": %s\n", err.msg);
		ret = -1;
	}
	dlf_free(d);
	return ret;
}

DLF_API const char *filter_description(const char **long_description)
{
	if (long_description)
		*long_description = dlf_usage;
	return "aotperf: samples of WAMR AOT code (.cwasm) by wasm function; func=N keeps one";
}
