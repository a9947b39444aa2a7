// SPDX-License-Identifier: MIT
/*
 * aotperf perfmap | jitdump | inject: make stock perf name the wasm
 * functions. The three share their options and differ only in the route
 * (see symbolize/symbolize.h), so they share this file.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attr-args.h"
#include "hints.h"
#include "../symbolize/inject.h"
#include "../util/progress.h"
#include "../util/perf.h"

enum route { ROUTE_PERFMAP, ROUTE_JITDUMP, ROUTE_INJECT };

struct sym_args {
	enum route route;
	const char *cmd;
	const char *out;
	const char *dir;
	const char *names;
	int force;
	int jitdump;		/* inject: the jitdump + perf inject --jit route */
	struct attr_args a;
};

static const char perfmap_usage[] =
	"usage: aotperf perfmap -i perf.data (--cwasm F | --manifest M)... [-o PATH]\n"
	"                       [--force]\n"
	"                       [--names local|wasm|wasmtime]\n"
	"\n"
	"Write /tmp/perf-<pid>.map for each process that mapped a core; a plain\n"
	"'perf report -i perf.data' then names the wasm functions.\n"
	"\n";
static const char jitdump_usage[] =
	"usage: aotperf jitdump -i perf.data (--cwasm F | --manifest M)... -o OUT.data\n"
	"                       [--dir DIR] [--names local|wasm|wasmtime]\n"
	"\n"
	"Write jit-<pid>.dump files (into --dir, default next to OUT.data) and OUT.data,\n"
	"a copy of perf.data with the jitdump marker records inserted, for\n"
	"'perf inject --jit -i OUT.data -o perf.jit.data'. Needs a -k mono recording\n"
	"(perf inject --jit refuses any other): without one, use aotperf inject.\n"
	"\n";
static const char inject_usage[] =
	"usage: aotperf inject -i perf.data (--cwasm F | --manifest M)...\n"
	"                      -o perf.jit.data\n"
	"                      [--dir DIR] [--jitdump] [--names local|wasm|wasmtime]\n"
	"\n"
	"Produce a symbolized perf.jit.data in one step: one ELF image per core, and a\n"
	"copy of perf.data whose mappings name them (any clock; the same names every\n"
	"run, so perf diff matches two runs). --jitdump takes stock perf inject --jit\n"
	"instead (a -k mono recording; one jitted-*.so file per function). The images\n"
	"stay in --dir (default OUT.d): perf report needs them.\n"
	"\n";

static const char common_usage[] =
	ATTR_USAGE
	"  -o, --output PATH       output (see above)\n"
	"      --dir DIR           folder for dumps and images\n"
	"      --names MODE        local (local_func_N, default), wasm\n"
	"                          (local_func_N:name),\n"
	"                          wasmtime (wasm[M]::function[F]::name)\n"
	"      --force             write even for a core whose samples do not fit its\n"
	"                          code (another build? see README \"Is it the right\n"
	"                          core?\"); (perfmap) replace a map aotperf did not\n"
	"                          write (never one of another user, never through a\n"
	"                          symlink)\n"
	"      --jitdump           (inject) jitdump + stock perf inject --jit (-k mono)\n"
	"      --arch ARCH         (jitdump, inject) x86_64 or aarch64: the code's arch\n"
	"                          for images and unwinding data, whatever the target\n"
	"                          info says\n"
	"\n"
	"Exit status: 0 ok, 1 a gate failed (a core's samples do not fit its code,\n"
	"without --force), 2 bad usage or input.\n";

static int parse(int argc, char **argv, struct sym_args *s, struct ap_err *err)
{
	enum { O_DIR = 256, O_NAMES, O_FORCE, O_DIRECT, O_JITDUMP };
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		ATTR_ARCH_LONGOPT,
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, O_DIR },
		{ "names", required_argument, NULL, O_NAMES },
		{ "force", no_argument, NULL, O_FORCE },
		{ "direct", no_argument, NULL, O_DIRECT },
		{ "jitdump", no_argument, NULL, O_JITDUMP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:o:qh", longopts, NULL)) != -1) {
		r = attr_args__option(&s->a, c, optarg, err);
		if (r < 0)
			return -1;
		if (r)
			continue;
		switch (c) {
		case 'h':
			fputs(s->route == ROUTE_PERFMAP ? perfmap_usage :
			      s->route == ROUTE_JITDUMP ? jitdump_usage : inject_usage, stdout);
			fputs(common_usage, stdout);
			exit(EXIT_OK);
		case 'o': s->out = optarg; break;
		case O_DIR: s->dir = optarg; break;
		case O_NAMES: s->names = optarg; break;
		case O_FORCE: s->force = 1; break;
		case O_DIRECT: break;	/* the default route now; still accepted */
		case O_JITDUMP:
			if (s->route != ROUTE_INJECT)
				return ap_errf(err, "--jitdump is an inject option");
			s->jitdump = 1;
			break;
		default:
			return cli_bad_option(err, argv, optind, "i:o:qh", longopts);
		}
	}
	if (optind < argc)
		return cli_bad_argument(err, argv[optind]);
	if (s->route == ROUTE_PERFMAP && s->a.arch != CWASM_ARCH_UNKNOWN)
		return ap_errf(err, "--arch: perfmap does not decode code (a map has names only)");
	if (s->route != ROUTE_PERFMAP && !s->out)
		return ap_errf(err, "-o OUTPUT is required");
	if (s->route != ROUTE_PERFMAP && !strcmp(s->out, s->a.input))
		return ap_errf(err, "%s: the output would overwrite the input", s->out);
	if (attr_args__check(&s->a, err))
		return -1;
	return s->out ? attr_args__check_output(&s->a, s->out, err) : 0;
}

static void print_list(const char *what, char **list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		printf("%s %s\n", what, list[i]);
}

static int do_inject(struct sym_args *s, const struct sym_opts *so, char ***files,
		     uint32_t *nfiles, struct ap_err *err)
{
	struct sym_inject_opts io = { .sym = *so, .jitdump = s->jitdump };
	struct sym_inject_result r;
	struct ap_err perf_err;
	struct progress pr;
	char perf[PATH_MAX];
	int ret;

	/* perf runs only for a -k mono recording; without it that route fails */
	io.perf = ap_perf__find(NULL, perf, sizeof(perf), &perf_err) ? NULL : perf;
	progress__init(&pr, stderr, s->a.quiet);
	io.progress = &pr;
	ret = symbolize__inject(s->a.input, &s->a.p->attr, &io, s->out, &r, err);
	progress__exit(&pr);
	if (!ret && r.elf && !r.mono && s->jitdump && !s->a.quiet)
		cli_warn(s->cmd, "%s was not recorded with -k mono, which perf inject --jit"
			 " needs: writing ELF images instead", s->a.input);
	*files = r.images;
	*nfiles = r.nimages;
	return ret;
}

static int run(int argc, char **argv, enum route route, const char *cmd)
{
	struct sym_args s = { .route = route, .cmd = cmd };
	struct sym_opts so = { .names = SYMNAME_LOCAL };
	struct ap_err err = { 0 };
	char dir[PATH_MAX], sym[512], **files = NULL;
	uint32_t nfiles = 0;
	int ret, created = 0, mono;

	attr_args__init(&s.a, cmd);
	if (parse(argc, argv, &s, &err) ||
	    (s.names && symname__parse_mode(s.names, &so.names) &&
	     ap_errf(&err, "--names: '%s' is not local, wasm or wasmtime", s.names))) {
		ret = cli_fail(cmd, &err);
		goto out;
	}
	ret = attr_args__read(&s.a);
	if (ret != EXIT_OK)
		goto out;
	so.prefix_core = symbolize__want_prefix(&s.a.p->attr);
	so.force = s.force;
	/* another build's names would be wrong with confidence: refuse unless forced */
	if (!s.force && profile__require_consistent(s.a.p, &err)) {
		ap_err_hint(&err, AP_HINT_FORCE_MISMATCH);
		ret = cli_fail(cmd, &err);
		goto out;
	}
	/* perf inject --jit refuses the dump of a recording without -k mono */
	if (route == ROUTE_JITDUMP && !symbolize__clock_is_mono(s.a.input, &mono, &err) && !mono) {
		ap_errf(&err, "%s: not recorded with -k mono: perf inject --jit would refuse its"
			" jitdump", s.a.input);
		ap_err_hint(&err, AP_HINT_NO_MONO);
	}
	if (err.msg[0]) {
		ret = cli_fail(cmd, &err);
		goto out;
	}
	if (route != ROUTE_PERFMAP) {
		if (symbolize__dir(s.dir, s.out, route == ROUTE_JITDUMP, dir, sizeof(dir),
				   &created, &err)) {
			ret = cli_fail(cmd, &err);
			goto out;
		}
		so.dir = dir;
	}
	switch (route) {
	case ROUTE_PERFMAP:
		ret = symbolize__perfmaps(&s.a.p->attr, &so, s.out, &files, &nfiles, &err);
		if (!ret && !s.a.quiet)
			print_list("wrote", files, nfiles);
		break;
	case ROUTE_JITDUMP:
		ret = symbolize__jitdump(s.a.input, &s.a.p->attr, &so, s.out, &files, &nfiles, &err);
		if (!ret && !s.a.quiet) {
			print_list("wrote", files, nfiles);
			printf("wrote %s\nnext: perf inject --jit -i", s.out);
			hints__put_arg(stdout, s.out);
			printf(" -o perf.jit.data\n");
		}
		break;
	case ROUTE_INJECT:
		ret = do_inject(&s, &so, &files, &nfiles, &err);
		if (!ret && !s.a.quiet) {
			print_list("image", files, nfiles);
			printf("wrote %s\nnext: perf report -i", s.out);
			hints__put_arg(stdout, s.out);
			printf(" --sort sym\n");
			if (!hints__hottest_symbol(s.a.p, so.names, sym, sizeof(sym))) {
				printf("      perf annotate -i");
				hints__put_arg(stdout, s.out);
				printf(" --stdio");
				hints__put_arg(stdout, sym);
				printf("   # the hottest\n");
			}
		}
		break;
	}
	if (ret && created)
		rmdir(dir);	/* only when empty: what the route wrote is gone already */
	if (ret)
		ret = cli_fail(cmd, &err);
out:
	symbolize__free_list(files, nfiles);
	attr_args__exit(&s.a);
	return ret;
}

int cmd_perfmap(int argc, char **argv)
{
	return run(argc, argv, ROUTE_PERFMAP, "perfmap");
}

int cmd_jitdump(int argc, char **argv)
{
	return run(argc, argv, ROUTE_JITDUMP, "jitdump");
}

int cmd_inject(int argc, char **argv)
{
	return run(argc, argv, ROUTE_INJECT, "inject");
}
