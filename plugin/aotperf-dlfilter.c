// SPDX-License-Identifier: MIT
/*
 * aotperf-dlfilter: a `perf script --dlfilter` plugin that attributes the
 * samples of a WAMR ahead-of-time compiled run to its wasm functions.
 *
 *   perf script -i perf.data --dlfilter aotperf-dlfilter.so \
 *	--dlarg FILE.cwasm|M.cwasm.json [--dlarg func=N] [--dlarg quiet] ...
 *
 * perf gives a dlfilter samples only, not MMAP records, so each core's
 * mapping is found from the samples themselves (attr/regions.h). Here are
 * only the arguments, perf's callbacks and the verdict per sample; the
 * counting is the profile's (profile/profile.h). Everything lives in the
 * state start() hands back to perf; perf_dlfilter_fns is the one global,
 * and perf fills it in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <perf/perf_dlfilter.h>
#include "dlf.h"
#include "../attr/attr.h"
#include <unistd.h>
#include "../classify/classify.h"
#include "../frames/frames.h"
#include "../perfdata/perfdata.h"
#include "../render/report.h"
#include "../util/num.h"

#define DLF_API __attribute__((visibility("default")))

/* Not const: perf writes the function table into it after dlopen(). */
DLF_API struct perf_dlfilter_fns perf_dlfilter_fns;

static const char dlf_usage[] =
	"--dlarg FILE.cwasm  a core; --dlarg M.cwasm.json: a component's cores (several\n"
	"                    allowed, in order)\n"
	"--dlarg func=F      keep only function F's samples: N, local_func_N, a wasm\n"
	"                    name, or modM:N in a manifest; its class mix is printed\n"
	"                    at the end\n"
	"--dlarg event=NAME  count only this event's samples (others are dropped with\n"
	"                    func=)\n"
	"--dlarg top=N       functions listed per core (default 20, 0 = all)\n"
	"--dlarg base=HEX    the i-th base= pins the i-th core to the region at HEX\n"
	"--dlarg roles=SPEC  register roles for the class mix, e.g.\n"
	"                    vmctx=rcx,membase=none\n"
	"--dlarg arch=ARCH   decode the cores as x86_64 or aarch64 (amd64, x64, x86-64,\n"
	"                    arm64), whatever their target info says\n"
	"--dlarg frame-attribution=PREFIX\n"
	"                    the compiler's sidecars PREFIX.modM.funcN.json: the\n"
	"                    class-mix function's frame traffic by proven origin\n"
	"--dlarg frame-metadata=FILE  the same from one sidecar, for func=\n"
	"--dlarg out=FILE    the summary to FILE instead of stderr\n"
	"--dlarg json=FILE   also write the summary as JSON (aotperf report's keys)\n"
	"--dlarg quiet       no notes or warnings\n"
	"--dlarg help        this text\n";

struct dlf_args {
	struct profile_pins pins;
};

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

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

/*
 * A word that is no key and names no file is a typo, not a core: "fucn=1"
 * or "qiuet" would otherwise be read as a file name. A file whose name
 * looks like a key=value is given with a '/' (./NAME=X.cwasm).
 */
static int check_word(const char *arg, struct ap_err *err)
{
	size_t n = strcspn(arg, "=/");

	if (strchr(arg, '/') || (arg[n] != '=' && !access(arg, F_OK)))
		return 0;
	if (arg[n] == '=') {
		for (size_t i = 0; i < n; i++)
			if (!(arg[i] >= 'a' && arg[i] <= 'z') && arg[i] != '_')
				return 0;
		return ap_errf(err, "'%.*s=': no such key (func, event, top, base, roles, out,"
			       " json, quiet, help); a file named so: ./%s", (int)n, arg, arg);
	}
	if (!strstr(arg, ".cwasm") && !strstr(arg, ".json"))
		return ap_errf(err, "'%s': no such argument and no such file (keys: func=,"
			       " event=, top=, base=, roles=, out=, json=, quiet, help)", arg);
	return 0;
}

/* help: the whole text, however long (a message would be cut). */
static int print_help(struct ap_err *err)
{
	fprintf(stderr, "%s: arguments (--dlarg ARG, repeatable):\n%s", DLF_NAME, dlf_usage);
	return ap_errf(err, "help printed; no run");
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
	if ((v = opt_val(arg, "arch"))) {
		if (cwasm_arch__parse(v, strlen(v), &d->arch))
			return ap_errf(err, "arch=%s: not x86_64 or aarch64 (also amd64, x64, x86-64,"
				       " arm64)", v);
		return 0;
	}
	if ((v = opt_val(arg, "frame-attribution")))
		return set_str(&d->frame_prefix, "frame-attribution", v, err);
	if ((v = opt_val(arg, "frame-metadata")))
		return set_str(&d->frame_meta, "frame-metadata", v, err);
	if ((v = opt_val(arg, "top"))) {
		if (ap_parse_u64(v, 10, &d->top) || d->top > UINT32_MAX)
			return ap_errf(err, "top=%s: not a number", v);
		return 0;
	}
	if ((v = opt_val(arg, "base")))
		return profile_pins__add(&a->pins, v, err) ? ap_err_prefix(err, "base=: ") : 0;
	if (!strcmp(arg, "help") || !strcmp(arg, "--help"))
		return print_help(err);
	if (check_word(arg, err))
		return -1;
	return core_set__add(&d->cs, arg, err);
}

/*
 * out= and json= get their temporary names now (util/outset.h): a typo
 * stops perf before the run, and the files are renamed into place only
 * when both were written (stop()).
 */
static int check_outputs(struct dlf *d, struct ap_err *err)
{
	const char *name;

	if (d->out_path) {
		if (ap_file__check_output(d->out_path, d->cs.inputs, d->cs.ninputs, err))
			return -1;
		name = outset__add(&d->outs, d->out_path, err);
		if (!name)
			return ap_err_prefix(err, "out=");
		d->out = fopen(name, "w");
		if (!d->out)
			return ap_errf(err, "out=%s: %s", d->out_path, strerror(errno));
	}
	if (d->json_path) {
		if (ap_file__check_output(d->json_path, d->cs.inputs, d->cs.ninputs, err))
			return -1;
		d->json_name = outset__add(&d->outs, d->json_path, err);
		if (!d->json_name)
			return ap_err_prefix(err, "json=");
	}
	return 0;
}

/* With func= the sidecar is known now: a bad one stops perf before the run. */
static int check_sidecar(const struct dlf *d, struct ap_err *err)
{
	const struct cwasm_module *m;
	char path[4096];

	if (d->frame_prefix && d->frame_meta)
		return ap_errf(err, "frame-attribution= and frame-metadata=: give one");
	if (d->frame_meta && !d->has_func)
		return ap_errf(err, "frame-metadata= needs func=");
	if (!d->has_func || (!d->frame_prefix && !d->frame_meta))
		return 0;
	m = d->cs.mods[d->func.core];
	if (d->frame_meta)
		return frames__validate(m, d->func.func, d->frame_meta, NULL, err);
	if (frames__path(path, sizeof(path), d->frame_prefix,
			 m->manifest_idx >= 0 ? (uint32_t)m->manifest_idx : 0, d->func.func))
		return ap_errf(err, "frame-attribution=: too long");
	/* a prefix may name no file for this function: that is only noted */
	return access(path, F_OK) ? 0 : frames__validate(m, d->func.func, path, NULL, err);
}

/*
 * The recording perf script reads, from its command line (perf hands a
 * dlfilter samples, never the file): -i FILE, -iFILE, --input FILE,
 * --input=FILE, else perf.data, or stdin when that is a pipe (perf's own
 * rule). NULL when it is stdin or the command line cannot be read.
 */
static char *input_path(void)
{
	char buf[8192], *in = NULL, *p, *end;
	FILE *f = fopen("/proc/self/cmdline", "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	struct stat st;

	if (f)
		fclose(f);
	if (!n)
		return NULL;
	buf[n] = '\0';
	end = buf + n;
	for (p = buf; p < end; p += strlen(p) + 1) {
		if ((!strcmp(p, "-i") || !strcmp(p, "--input")) && p + strlen(p) + 1 < end)
			in = p + strlen(p) + 1;
		else if (!strncmp(p, "--input=", 8))
			in = p + 8;
		else if (!strncmp(p, "-i", 2) && p[2])
			in = p + 2;
	}
	if (!in && !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return NULL;
	if (in && !strcmp(in, "-"))
		return NULL;
	return strdup(in ? in : "perf.data");
}

/*
 * A recording cut short is said in every output (docs/damaged-recordings.md);
 * perf script itself may stop at the cut, so the filter sees fewer samples.
 */
static void check_cut(struct dlf *d)
{
	struct ap_err err = { 0 };

	d->input = input_path();
	if (!d->input || perfdata__cut_short(d->input, &d->cut_read, &d->cut_expected, &err) != 1)
		return;	/* whole, or its reader (perf) says what is wrong with it */
	d->cut = 1;
	if (!d->quiet)
		fprintf(stderr, DLF_NAME ": warning: %s: cut short: read %" PRIu64 " of %" PRIu64
			" data bytes; perf script stops at the cut: not authoritative\n", d->input,
			d->cut_read, d->cut_expected);
}

static int setup(struct dlf *d, const struct dlf_args *a, struct ap_err *err)
{
	struct cls_roles roles;
	uint32_t n = d->cs.n;

	if (!n)
		return ap_errf(err, "no core given: --dlarg FILE.cwasm or --dlarg M.cwasm.json"
			       " (--dlarg help lists the arguments)");
	if (a->pins.n > n)
		return ap_errf(err, "%u base= for %u core(s)", a->pins.n, n);
	core_set__set_arch(&d->cs, d->arch);
	if (profile__new(&d->cs, a->pins.base, a->pins.n, d->event, &d->p, err))
		return -1;
	if (rg__init(&d->rg, d->p->attr.cores, n))
		return ap_err_nomem(err);
	/* A bad roles= should stop perf now, not after the whole run. */
	cls__roles_default(d->cs.mods[0]->target.arch, &roles);
	if (d->roles && cls__roles_parse(&roles, d->roles, err))
		return -1;
	if (d->func_spec) {
		if (core_set__resolve(&d->cs, d->func_spec, &d->func, err))
			return -1;
		d->has_func = 1;
	}
	if (check_sidecar(d, err))
		return -1;
	check_cut(d);
	return check_outputs(d, err);
}

static void dlf_free(struct dlf *d)
{
	if (!d)
		return;
	profile__delete(d->p);
	core_set__exit(&d->cs);
	rg__exit(&d->rg);
	free(d->func_spec);
	free(d->event);
	if (d->out)
		fclose(d->out);
	outset__abort(&d->outs, NULL);	/* a run that did not finish writes neither */
	free(d->out_path);
	free(d->json_path);
	free(d->roles);
	free(d->frame_prefix);
	free(d->frame_meta);
	free(d->input);
	free(d);
}

DLF_API int start(void **data, void *ctx)
{
	struct dlf_args a = { .pins = { .n = 0 } };
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
	d->top = RENDER_TOP_DEFAULT;
	if (perf_dlfilter_fns.args)
		argv = perf_dlfilter_fns.args(ctx, &argc);
	for (int i = 0; i < argc && argv && !err.msg[0]; i++)
		if (argv[i] && parse_arg(d, &a, argv[i], &err))
			break;
	if (err.msg[0] || setup(d, &a, &err)) {
		/* a function spec's message starts with the spec: say which argument */
		fprintf(stderr, DLF_NAME ": %s%s\n", d->func_spec && !d->has_func &&
			!strncmp(err.msg, d->func_spec, strlen(d->func_spec)) ? "func=" : "", err.msg);
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

/* perf names anonymous executable maps after the perf map file (docs/formats-perf.md). */
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
	if (attr__injected_name(al->dso)) {
		d->injected++;	/* perf inject --jit's or aotperf inject's file */
		return 0;
	}
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
		return d->has_func;
	if (locate(d, s, ctx, &r)) {
		if (r.core >= 0) {
			core = r.core;
		} else if (!d->anon_other++) {
			d->other_start = r.start;
			d->other_len = r.end - r.start;
		}
	}
	fn = profile__sample(d->p, core, core >= 0 ? s->ip - r.start : 0);
	if (d->has_func && (core != (int)d->func.core || fn != (int64_t)d->func.func))
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
	if (dlf__summary(d, &err) || dlf__close_out(d, &err) || outset__commit(&d->outs, &err)) {
		outset__abort(&d->outs, &err);
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
	return "wasm functions of WAMR AOT code (.cwasm)";
}
