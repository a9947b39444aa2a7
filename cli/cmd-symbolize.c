// SPDX-License-Identifier: MIT
/*
 * aotperf perfmap | jitdump | inject: make stock perf name the wasm
 * functions. The three share their options and differ only in the route
 * (see symbolize/symbolize.h), so they share this file.
 */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "attr-args.h"
#include "hints.h"
#include "../symbolize/cfi.h"
#include "../symbolize/inject.h"
#include "../util/outset.h"
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
	int no_cache;		/* inject: images not added to perf's build-id cache */
	const char *perf;	/* inject: the perf found, or NULL */
	char perf_buf[PATH_MAX];
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
	"Write jit-<pid>.dump files into --dir (default OUT.data.d) and OUT.data, a\n"
	"copy of perf.data with the jitdump marker records inserted, for\n"
	"'perf inject --jit -i OUT.data -o perf.jit.data', which writes its\n"
	"jitted-*.so files next to the dumps (keep the folder: perf report needs them).\n"
	"Needs a -k mono recording (perf inject --jit refuses any other): without one,\n"
	"use aotperf inject.\n"
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
	"stay in --dir (default OUT.d), and carry build ids that the copy lists; they\n"
	"are added to perf's build-id cache (perf's buildid.dir, default ~/.debug), so\n"
	"a moved copy still names the functions, and 'perf archive OUT' packs them for\n"
	"another machine.\n"
	"\n";

/* Options as each route takes them: perfmap decodes no code and writes no folder. */
static const char out_usage[] =
	"  -o, --output PATH       output (see above)\n";
static const char dir_usage[] =
	"      --dir DIR           folder for dumps and images (default OUT.d)\n";
static const char names_usage[] =
	"      --names MODE        local (local_func_N, default), wasm\n"
	"                          (local_func_N:name),\n"
	"                          wasmtime (wasm[M]::function[F]::name)\n";
static const char perfmap_force_usage[] =
	"      --force             write even for a core whose samples do not fit its\n"
	"                          code (another build? see docs/consistency.md) or a\n"
	"                          recording cut short; replace a map\n"
	"                          aotperf did not write (never one of another user,\n"
	"                          never through a symlink)\n";
static const char force_usage[] =
	"      --force             write even for a core whose samples do not fit its\n"
	"                          code (another build? see docs/consistency.md) or a\n"
	"                          recording cut short (the copy then\n"
	"                          holds its whole records)\n";
static const char jitdump_opt_usage[] =
	"      --jitdump           jitdump + stock perf inject --jit (-k mono only)\n"
	"      --no-buildid-cache  leave the images out of perf's build-id cache (then\n"
	"                          a moved copy no longer names them)\n";
static const char arch_usage[] =
	"      --arch ARCH         x86_64 or aarch64: the code's arch for images and\n"
	"                          unwinding data, whatever the target info says\n";
static const char perfmap_files_usage[] =
	"\n"
	"A map is written to a temporary name and renamed into place when complete,\n"
	"with the umask's permission bits (0644 under umask 022): never through a\n"
	"symlink, never over another user's file.\n";
static const char files_usage[] =
	"\n"
	"OUT and the ELF images are written to a temporary name in their folder and\n"
	"renamed into place when complete (a symlink there is replaced, never written\n"
	"through); a dump is created afresh (an earlier dump of yours is removed\n"
	"first, a symlink never followed). All get the recording's permission bits\n"
	"(perf writes perf.data as 0600); another user's file is refused; a failed run\n"
	"leaves none behind. perf inject --jit writes its jitted-*.so files itself.\n";
static const char exit_usage[] =
	"\n"
	"Exit status: 0 ok, 1 a gate failed (a core's samples do not fit its code, or\n"
	"the recording is cut short, without --force), 2 bad usage or input.\n";

static void usage(enum route route)
{
	fputs(route == ROUTE_PERFMAP ? perfmap_usage :
	      route == ROUTE_JITDUMP ? jitdump_usage : inject_usage, stdout);
	fputs(ATTR_USAGE, stdout);
	fputs(out_usage, stdout);
	if (route != ROUTE_PERFMAP)
		fputs(dir_usage, stdout);
	fputs(names_usage, stdout);
	fputs(route == ROUTE_PERFMAP ? perfmap_force_usage : force_usage, stdout);
	if (route == ROUTE_INJECT)
		fputs(jitdump_opt_usage, stdout);
	if (route != ROUTE_PERFMAP)
		fputs(arch_usage, stdout);
	fputs(route == ROUTE_PERFMAP ? perfmap_files_usage : files_usage, stdout);
	fputs(exit_usage, stdout);
}

static int parse(int argc, char **argv, struct sym_args *s, struct ap_err *err)
{
	enum { O_DIR = 256, O_NAMES, O_FORCE, O_DIRECT, O_JITDUMP, O_NO_CACHE };
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		ATTR_ARCH_LONGOPT,
		{ "output", required_argument, NULL, 'o' },
		{ "dir", required_argument, NULL, O_DIR },
		{ "names", required_argument, NULL, O_NAMES },
		{ "force", no_argument, NULL, O_FORCE },
		{ "direct", no_argument, NULL, O_DIRECT },
		{ "jitdump", no_argument, NULL, O_JITDUMP },
		{ "no-buildid-cache", no_argument, NULL, O_NO_CACHE },
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
			usage(s->route);
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
		case O_NO_CACHE:
			if (s->route != ROUTE_INJECT)
				return ap_errf(err, "--no-buildid-cache is an inject option");
			s->no_cache = 1;
			break;
		default:
			return cli_bad_option(err, argv, optind, "i:o:qh", longopts);
		}
	}
	if (optind < argc)
		return cli_bad_argument(err, argv[optind]);
	if (s->route == ROUTE_PERFMAP && s->dir)
		return ap_errf(err, "--dir: perfmap writes /tmp/perf-<pid>.map, or -o PATH");
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

/* --force on a recording cut short: what was written of it (docs/damaged-recordings.md). */
static void print_cut(const struct sym_args *s)
{
	const struct attr_result *a = &s->a.p->attr;

	if (!a->truncated)
		return;
	if (s->route == ROUTE_PERFMAP)
		printf("%s is cut short: perf may stop reading it at the cut; aotperf inject --force"
		       " writes a copy of its whole records\n", s->a.input);
	else
		printf("%s is cut short: %s holds its whole records, %" PRIu64 " of %" PRIu64
		       " data bytes (not authoritative)\n", s->a.input, s->out, a->bytes_read,
		       a->bytes_expected);
}

/* What was written, and the command that reads it. */
static void print_done(const struct sym_args *s, const struct sym_opts *so, char **files,
		       uint32_t nfiles)
{
	char sym[512];

	print_list(s->route == ROUTE_INJECT ? "image" : "wrote", files, nfiles);
	print_cut(s);
	if (s->route == ROUTE_PERFMAP)
		return;
	printf("wrote %s\nnext: perf %s -i", s->out,
	       s->route == ROUTE_JITDUMP ? "inject --jit" : "report");
	hints__put_arg(stdout, s->out);
	if (s->route == ROUTE_JITDUMP) {
		printf(" -o perf.jit.data\n");
		return;
	}
	printf(" --sort sym\n");
	if (!hints__hottest_symbol(s->a.p, so->names, sym, sizeof(sym))) {
		printf("      perf annotate -i");
		hints__put_arg(stdout, s->out);
		printf(" --stdio");
		hints__put_arg(stdout, sym);
		printf("   # the hottest\n");
	}
}

static int do_inject(struct sym_args *s, const struct sym_opts *so,
		     struct sym_inject_result *r, struct ap_err *err)
{
	struct sym_inject_opts io = { .sym = *so, .jitdump = s->jitdump };
	struct ap_err perf_err;
	struct progress pr;
	int ret;

	/* perf inject --jit runs only for a -k mono recording; without it that route fails */
	s->perf = ap_perf__find(NULL, s->perf_buf, sizeof(s->perf_buf), &perf_err) ? NULL
										    : s->perf_buf;
	io.perf = s->perf;
	progress__init(&pr, stderr, s->a.quiet);
	io.progress = &pr;
	ret = symbolize__inject(s->a.s, &s->a.p->attr, &io, s->out, r, err);
	progress__exit(&pr);
	return ret;
}

/*
 * How the copy keeps its names once moved (docs/formats-perf.md "Build
 * ids"): the images by build id in perf's cache, and perf archive to
 * carry them to another machine.
 */
static void print_portable(const struct sym_args *s, const struct sym_inject_result *r)
{
	const char *base = strrchr(s->out, '/') ? strrchr(s->out, '/') + 1 : s->out;

	if (r->elf && !r->cached) {
		printf("build ids: listed in the copy, but the images are not in perf's build-id\n"
		       "      cache (%s): perf report finds them only where they are\n",
		       r->cache_why[0] ? r->cache_why : "--no-buildid-cache");
		return;
	}
	if (r->elf)
		printf("build ids: listed in the copy; the images are in perf's build-id cache\n"
		       "      %s, so a moved copy still names the functions here\n",
		       r->cache_dir);
	else
		printf("build ids: perf inject --jit put its jitted-*.so files in perf's build-id\n"
		       "      cache and listed them in the copy\n");
	printf("elsewhere: perf archive");
	hints__put_arg(stdout, s->out);
	/* perf-archive is a shell script that splits its argument at blanks */
	if (strpbrk(s->out, " \t\n"))
		printf("   # rename it first: perf archive takes no blanks");
	printf("\n      copy");
	hints__put_arg(stdout, base);
	printf(" and its .tar.bz2 over; there, first:\n"
	       "      mkdir -p ~/.debug && tar xf");
	hints__put_arg(stdout, base);
	printf(".tar.bz2 -C ~/.debug\n");
}

static int run(int argc, char **argv, enum route route, const char *cmd)
{
	struct sym_args s = { .route = route, .cmd = cmd };
	struct sym_opts so = { .names = SYMNAME_LOCAL };
	struct sym_inject_result ir = { 0 };
	struct ap_err err = { 0 };
	struct outset outs = OUTSET_INIT;
	char dir[PATH_MAX], **files = NULL;
	struct symcfi_maps *maps = NULL;
	struct session_tool *tool;
	uint32_t nfiles = 0;
	int ret, created = 0;

	attr_args__init(&s.a, cmd);
	if (parse(argc, argv, &s, &err) ||
	    (s.names && symname__parse_mode(s.names, &so.names) &&
	     ap_errf(&err, "--names: '%s' is not local, wasm or wasmtime", s.names))) {
		ret = cli_fail(cmd, &err);
		goto out;
	}
	/* the ELF images' placing needs every mapping: collected by the same read */
	if (route == ROUTE_INJECT && !s.jitdump && (maps = symcfi_maps__new())) {
		tool = symcfi_maps__tool(maps);
		s.a.opts.tools = &tool;
		s.a.opts.ntools = 1;
		so.maps = maps;
	}
	ret = attr_args__read(&s.a);
	s.a.opts.tools = NULL;
	s.a.opts.ntools = 0;
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
	if ((route == ROUTE_JITDUMP || s.jitdump) && !symbolize__clock_is_mono(s.a.s)) {
		ap_errf(&err, "%s: not recorded with -k mono: perf inject --jit would refuse its"
			" jitdump", s.a.input);
		ap_err_hint(&err, AP_HINT_NO_MONO);
	}
	if (err.msg[0]) {
		ret = cli_fail(cmd, &err);
		goto out;
	}
	if (route != ROUTE_PERFMAP) {
		if (symbolize__dir(s.dir, s.out, dir, sizeof(dir), &created, &err)) {
			ret = cli_fail(cmd, &err);
			goto out;
		}
		so.dir = dir;
	}
	/* every file under a temporary name, renamed into place together (util/outset.h) */
	so.outs = &outs;
	switch (route) {
	case ROUTE_PERFMAP:
		ret = symbolize__perfmaps(&s.a.p->attr, &so, s.out, &files, &nfiles, &err);
		break;
	case ROUTE_JITDUMP:
		ret = symbolize__jitdump(s.a.s, &s.a.p->attr, &so, s.out, &files, &nfiles, &err);
		break;
	case ROUTE_INJECT:
		ret = do_inject(&s, &so, &ir, &err);
		break;
	}
	if (ret || outset__commit(&outs, &err)) {
		outset__abort(&outs, &err);
		if (created)
			rmdir(dir);	/* only when empty: what the route wrote is gone already */
		ret = cli_fail(cmd, &err);
		goto out;
	}
	/* once the images are where the copy names them (docs/formats-perf.md "Build ids") */
	if (route == ROUTE_INJECT && !s.no_cache)
		symbolize__cache_images(s.perf, &ir);
	if (!s.a.quiet && route == ROUTE_INJECT) {
		print_done(&s, &so, ir.images, ir.nimages);
		print_portable(&s, &ir);
	} else if (!s.a.quiet) {
		print_done(&s, &so, files, nfiles);
	}
out:
	symbolize__free_list(files, nfiles);
	symcfi__maps_delete(maps);
	sym_inject_result__exit(&ir);
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
