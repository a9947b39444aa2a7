// SPDX-License-Identifier: MIT
/*
 * aotperf record: stock `perf record -k mono` on a command, then at once the
 * symbolized perf.jit.data of `aotperf inject`, and the commands to read it.
 *
 * It needs nothing from the recorded process (the mappings come from
 * perf's own MMAP2 records), so it works on static executables and on
 * runtimes that make raw mmap/mprotect system calls.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "attr-args.h"
#include "hints.h"
#include "annotate-fallback.h"
#include "../symbolize/cfi.h"
#include "../symbolize/inject.h"
#include "../util/outset.h"
#include "../util/progress.h"
#include "../util/array.h"
#include "../util/perf.h"
#include "record-offcpu.h"
#include "../util/run.h"
#include "../profile/events.h"
#include "../view/report.h"

#define REC_MAX_PERF_ARGS 64

enum { R_JIT_OUT = 256, R_PERF_ARG, R_NO_INJECT, R_DIRECT, R_JITDUMP, R_DIR, R_NAMES,
       R_OFFCPU, R_FORCE };

static const char record_usage[] =
	"usage: aotperf record [-o perf.data] (--cwasm F | --manifest M)...\n"
	"                      [--jit-out FILE]\n"
	"                      [-g] [-F HZ] [-e EVENT] [--perf-arg ARG]... [--no-inject]\n"
	"                      [--jitdump] [--dir DIR] [--names MODE] [-q]\n"
	"                      -- CMD [ARGS...]\n"
	"\n"
	"Run CMD under stock `perf record -k mono` (perf from $PERF or PATH), then write\n"
	"the symbolized perf.jit.data as `aotperf inject` does, and print the commands\n"
	"that read it. Nothing is needed from the process: static executables and\n"
	"runtimes without libc work the same.\n"
	"\n"
	"  -o, --output FILE       the recording (default perf.data; perf keeps an older\n"
	"                          one as FILE.old)\n"
	"      --cwasm FILE        a core (.cwasm) the command maps; repeat for several\n"
	"      --manifest FILE     a component manifest (.cwasm.json): all its cores\n"
	"      --jit-out FILE      the symbolized copy (default: the recording's name\n"
	"                          with .data replaced by .jit.data: perf.jit.data); its\n"
	"                          ELF images stay in --dir (default FILE.d)\n"
	"  -g                      record call graphs (perf record -g)\n"
	"      --off-cpu           also where the run waits, for report's wall-clock\n"
	"                          view: perf's --off-cpu where perf has BPF, else\n"
	"                          sched:sched_switch with --switch-events and\n"
	"                          raw_syscalls:sys_enter/sys_exit, for the split\n"
	"                          by system call (says which; -F then goes to the\n"
	"                          event as a term, so every switch keeps its\n"
	"                          stack); implies -g\n"
	"  -F, --freq HZ           sampling frequency (default 999, or max)\n"
	"  -e, --event EVENT       event (default cycles where hardware cycles count,\n"
	"                          else cpu-clock)\n"
	"      --perf-arg ARG      one more argument for perf record, repeatable\n"
	"                          (e.g. --perf-arg --call-graph=dwarf)\n"
	"      --no-inject         record only, and print the aotperf inject command\n"
	"      --jitdump           (inject) jitdump + stock perf inject --jit instead\n"
	"                          of one ELF image per core (one jitted-*.so per\n"
	"                          function)\n"
	"      --dir DIR           (inject) folder for the images (or jitted-*.so files)\n"
	"      --names MODE        (inject) local (default), wasm or wasmtime\n"
	"      --force             (inject) even for a core whose samples do not fit\n"
	"                          its code (another build? docs/consistency.md) or a\n"
	"                          recording cut short (perf killed)\n"
	"      --arch ARCH         (inject) decode the cores as x86_64 or aarch64,\n"
	"                          whatever their target info says\n"
	"  -q, --quiet             perf record -q; and nothing but errors (no summary,\n"
	"                          no next steps, no warnings)\n"
	"\n"
	"A CMD that cannot start is refused before perf runs. A run that writes no\n"
	"symbolized copy (it failed, or --no-inject) renames the copy of an earlier\n"
	"run to FILE.old, next to perf's perf.data.old, and says so.\n"
	"\n"
	"perf writes the recording (0600; it keeps an older one as FILE.old). The\n"
	"symbolized copy and its images are written as aotperf inject writes them: to\n"
	"a temporary name, renamed into place when complete (a symlink is replaced,\n"
	"never written through; another user's file is refused), with the\n"
	"recording's permission bits.\n"
	"\n"
	"Ctrl-C (SIGINT) or SIGTERM is passed to perf record, which stops the command;\n"
	"the recording is then symbolized as usual.\n"
	"\n"
	"Exit status: the command's own status when it failed (128+N after signal N;\n"
	"the recording is kept and still symbolized); otherwise 0, 1 when a core's\n"
	"samples do not fit its code or the recording is cut short (not symbolized\n"
	"without --force), or 2 on bad usage, when perf recorded nothing, or when\n"
	"symbolizing failed (the recording is kept: rerun the printed aotperf inject\n"
	"command).\n";

struct rec_args {
	const char *out;
	const char *jit_out;
	const char *event;
	const char *freq;
	const char *dir;
	const char *names;
	int callgraph, no_inject, jitdump;
	int offcpu;			/* --off-cpu: enum rec_offcpu once picked */
	int force;		/* inject even for a core whose samples do not fit its code */
	enum symname_mode mode;
	const char *perf_args[REC_MAX_PERF_ARGS];
	int nperf_args;
	const char **core_args;	/* "--cwasm" F / "--manifest" M / "--arch" A pairs, in order */
	size_t ncore_args, cap_core_args;
	char **cmd;
	char jit_buf[4096];
	char ev_buf[256];	/* the event with its frequency as a term (record-offcpu.h) */
	char perf[PATH_MAX];
	struct attr_args a;
	struct profile_events events;	/* the recording's sampling events, as report lists them */
};

static int add_core_arg(struct rec_args *r, const char *opt, const char *path)
{
	if (ap_grow(&r->core_args, &r->cap_core_args, r->ncore_args + 2, sizeof(*r->core_args)))
		return -1;
	r->core_args[r->ncore_args++] = opt;
	r->core_args[r->ncore_args++] = path;
	return 0;
}

static int check_freq(const char *s)
{
	uint64_t v;

	return !strcmp(s, "max") || (!cli_parse_u64(s, 10, &v) && v > 0 && v <= 10000000)
		       ? 0 : -1;
}

/* perf.data -> perf.jit.data, X -> X.jit.data */
static int default_jit_out(struct rec_args *r, struct ap_err *err)
{
	size_t n = strlen(r->out);

	if (n > 5 && !strcmp(r->out + n - 5, ".data"))
		n -= 5;
	if ((size_t)snprintf(r->jit_buf, sizeof(r->jit_buf), "%.*s.jit.data", (int)n,
			     r->out) >= sizeof(r->jit_buf))
		return ap_errf(err, "%s: path too long", r->out);
	r->jit_out = r->jit_buf;
	return 0;
}

static int parse_opt(struct rec_args *r, int c, const char *arg, struct ap_err *err)
{
	switch (c) {
	case 'o': r->out = arg; break;
	case 'g': r->callgraph = 1; break;
	case 'e': r->event = arg; break;
	case 'F':
		if (check_freq(arg))
			return ap_errf(err, "-F: '%s' is not a frequency", arg);
		r->freq = arg;
		break;
	case R_JIT_OUT: r->jit_out = arg; break;
	case R_PERF_ARG:
		if (r->nperf_args == REC_MAX_PERF_ARGS)
			return ap_errf(err, "--perf-arg: at most %d", REC_MAX_PERF_ARGS);
		r->perf_args[r->nperf_args++] = arg;
		break;
	case R_NO_INJECT: r->no_inject = 1; break;
	case R_OFFCPU: r->offcpu = -1; r->callgraph = 1; break;
	case R_DIRECT: break;	/* the default route now; still accepted */
	case R_JITDUMP: r->jitdump = 1; break;
	case R_DIR: r->dir = arg; break;
	case R_FORCE: r->force = 1; break;
	case R_NAMES:
		if (symname__parse_mode(arg, &r->mode))
			return ap_errf(err, "--names: '%s' is not local, wasm or wasmtime", arg);
		r->names = arg;
		break;
	default:
		return ap_errf(err, "unknown or incomplete option; see --help");
	}
	return 0;
}

static int parse(int argc, char **argv, struct rec_args *r, struct ap_err *err)
{
	static const struct option longopts[] = {
		ATTR_LONGOPTS,
		ATTR_ARCH_LONGOPT,
		{ "output", required_argument, NULL, 'o' },
		{ "freq", required_argument, NULL, 'F' },
		{ "jit-out", required_argument, NULL, R_JIT_OUT },
		{ "perf-arg", required_argument, NULL, R_PERF_ARG },
		{ "no-inject", no_argument, NULL, R_NO_INJECT },
		{ "direct", no_argument, NULL, R_DIRECT },
		{ "jitdump", no_argument, NULL, R_JITDUMP },
		{ "dir", required_argument, NULL, R_DIR },
		{ "names", required_argument, NULL, R_NAMES },
		{ "off-cpu", no_argument, NULL, R_OFFCPU },
		{ "force", no_argument, NULL, R_FORCE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, ret;

	opterr = 0;
	optind = 1;
	/* '+': stop at the command, whose own options are not ours */
	while ((c = getopt_long(argc, argv, "+o:gF:e:qh", longopts, NULL)) != -1) {
		if (c == 'h') {
			cli_usage(record_usage);
			exit(EXIT_OK);
		}
		if (c == ATTR_OPT_EVENT)	/* --event: what perf samples */
			c = 'e';
		/* -i, --pid and --base make no sense before the run */
		if (c == 'i' || c == ATTR_OPT_PID || c == ATTR_OPT_BASE || c == ATTR_OPT_REQ)
			return ap_errf(err, "'%s' is not a record option; see --help",
				       argv[optind - 1]);
		ret = attr_args__option(&r->a, c, optarg, err);
		if (ret < 0)
			return -1;
		if (ret) {
			if ((c == ATTR_OPT_CWASM || c == ATTR_OPT_MANIFEST || c == ATTR_OPT_ARCH) &&
			    add_core_arg(r, c == ATTR_OPT_CWASM ? "--cwasm" :
					 c == ATTR_OPT_MANIFEST ? "--manifest" : "--arch", optarg))
				return ap_err_nomem(err);
			continue;
		}
		if (c == '?' || c == ':')
			return cli_bad_option(err, argv, optind, "+o:gF:e:qh", longopts);
		if (parse_opt(r, c, optarg, err))
			return -1;
	}
	if (optind >= argc)
		return ap_errf(err, "no command to record: aotperf record ... -- CMD [ARGS...]");
	r->cmd = argv + optind;
	if (attr_args__check(&r->a, err))
		return -1;
	if (!r->jit_out && default_jit_out(r, err))
		return -1;
	if (!strcmp(r->jit_out, r->out))
		return ap_errf(err, "%s: --jit-out would overwrite the recording", r->jit_out);
	return 0;
}

/* ---- running perf ---- */

/* The event to sample: cycles where hardware cycles count here, else cpu-clock. */
static const char *pick_event(const struct rec_args *r)
{
	char field[64], why[256];

	return ap_perf__cycles(r->perf, NULL, 15000, field, sizeof(field), why, sizeof(why)) ==
	       AP_CYCLES_YES ? "cycles" : "cpu-clock";
}

static int record_argv(struct rec_args *r, char ***out)
{
	int ncmd = 0, k = 0;
	char **v;

	while (r->cmd[ncmd])
		ncmd++;
	v = calloc((size_t)(24 + r->nperf_args + ncmd), sizeof(*v));
	if (!v)
		return -1;
	v[k++] = r->perf;
	v[k++] = "record";
	v[k++] = "-k";
	v[k++] = "mono";	/* what perf inject --jit needs */
	v[k++] = "-e";
	if (r->offcpu > 0 && rec_offcpu__event(r->offcpu, r->event, r->freq, r->ev_buf,
					       sizeof(r->ev_buf))) {
		v[k++] = r->ev_buf;
	} else {
		v[k++] = (char *)r->event;
		v[k++] = "-F";
		v[k++] = (char *)r->freq;
	}
	if (r->callgraph)
		v[k++] = "-g";
	for (const char *const *o = r->offcpu > 0 ? rec_offcpu__args(r->offcpu) : NULL; o && *o; o++)
		v[k++] = (char *)*o;
	if (r->a.quiet)
		v[k++] = "-q";
	v[k++] = "-o";
	v[k++] = (char *)r->out;
	for (int i = 0; i < r->nperf_args; i++)
		v[k++] = (char *)r->perf_args[i];
	v[k++] = "--";
	for (int i = 0; i < ncmd; i++)
		v[k++] = r->cmd[i];
	*out = v;
	return 0;
}

/* ---- symbolizing ---- */

/* What aotperf inject does, on the profile already read. */
static int inject(struct rec_args *r, struct symcfi_maps *maps, struct ap_err *err)
{
	struct sym_inject_opts io = { .sym = { .names = r->mode, .maps = maps },
				      .jitdump = r->jitdump, .perf = r->perf };
	struct sym_inject_result res = { 0 };
	struct outset outs = OUTSET_INIT;
	struct progress pr;
	char dir[PATH_MAX];
	int ret, created;

	if (attr_args__check_output(&r->a, r->jit_out, err) ||
	    symbolize__dir(r->dir, r->jit_out, dir, sizeof(dir), &created, err))
		return -1;
	io.sym.dir = dir;
	io.sym.prefix_core = symbolize__want_prefix(&r->a.p->attr);
	io.sym.outs = &outs;	/* the copy and its images together, or none (util/outset.h) */
	progress__init(&pr, stderr, r->a.quiet);
	io.progress = &pr;
	ret = symbolize__inject(r->a.s, &r->a.p->attr, &io, r->jit_out, &res, err);
	progress__exit(&pr);
	if (ret || outset__commit(&outs, err)) {
		outset__abort(&outs, err);
		ret = -1;
	}
	if (ret && created)
		rmdir(dir);
	/* as inject does: a moved copy still names the functions (docs/formats-perf.md) */
	if (!ret)
		symbolize__cache_images(r->perf, &res);
	if (!ret && res.elf && !res.cached && !r->a.quiet)
		cli_warn("record", "%s: its images are not in perf's build-id cache (%s): moved, it"
			 " names no function", r->jit_out, res.cache_why);
	sym_inject_result__exit(&res);
	return ret;
}

/* ---- the next commands ---- */

static void put_cores(FILE *f, const struct rec_args *r)
{
	for (size_t i = 0; i < r->ncore_args; i++)
		hints__put_arg(f, r->core_args[i]);
}

/* "  aotperf inject -i OUT CORES -o JIT_OUT" */
static void put_inject(FILE *f, const struct rec_args *r)
{
	fputs("  aotperf inject -i", f);
	hints__put_arg(f, r->out);
	put_cores(f, r);
	fputs(" -o", f);
	hints__put_arg(f, r->jit_out);
	fputc('\n', f);
}

/*
 * The samples the summary counts: the event report shows first (its
 * sampling events, perf's tracking and the off-CPU view's events left
 * out: cli/report-events.c), so the two say the same numbers. None
 * found: the read says why.
 */
static void summary_event(struct rec_args *r)
{
	struct ap_err err = { 0 };

	if (!attr_args__session(&r->a, &err) && !profile_events__of(r->a.s, &r->events, &err) &&
	    r->events.n)
		r->a.opts.event = r->events.names[0];
}

static void print_next(struct rec_args *r, int injected)
{
	const struct attr_result *res = &r->a.p->attr;
	const struct view_report_opts vo = { .hottest = 0, .nasked = UINT32_MAX };
	const struct cwasm_module *m;
	struct view_report *v = NULL;
	char sym[512], func[64], why[300];
	enum annot_health h;
	struct ap_err err = { 0 };
	uint32_t core, fn;
	int64_t row;

	/* perf falls back from cycles to cpu-clock by itself, saying nothing */
	if (r->event && res->have_event && strcmp(r->event, res->event_name) && !r->a.quiet)
		cli_warn("record", "-e %s: perf recorded %s instead (%s does not count here)",
			 r->event, res->event_name, r->event);
	/* report's run card, from its view: the same numbers report prints */
	if (view_report__new(r->a.p, &vo, &v, &err)) {
		cli_fail("record", &err);
		return;
	}
	printf("aotperf record: %s: %llu samples%s%s, %llu in wasm code (%.2f%% of run)\n", r->out,
	       (unsigned long long)v->total, r->events.n > 1 ? " of " : "",
	       r->events.n > 1 ? v->event : "", (unsigned long long)v->in_wasm, v->in_wasm_pct);
	if (injected)
		printf("aotperf record: wrote %s\n", r->jit_out);
	printf("next:\n");
	if (!injected)
		put_inject(stdout, r);
	printf("  perf report -i");
	hints__put_arg(stdout, r->jit_out);
	printf(" --sort sym\n  aotperf report -i");
	hints__put_arg(stdout, r->out);
	put_cores(stdout, r);
	putchar('\n');
	if (!profile__hottest(r->a.p, &core, &fn) ||
	    (row = view_report__func_row(&v->cores[core], fn)) < 0) {
		view_report__delete(v);
		return;
	}
	m = res->cores[core].mod;
	hints__hottest_symbol(r->a.p, r->mode, sym, sizeof(sym));
	if (m->manifest_idx >= 0)
		snprintf(func, sizeof(func), "mod%d:%u", m->manifest_idx, fn);
	else
		snprintf(func, sizeof(func), "%u", fn);
	printf("  aotperf report -i");
	hints__put_arg(stdout, r->out);
	put_cores(stdout, r);
	printf(" --func %s   # the hottest: %.1f%% of the run\n", func,
	       view_report__func_pct(&v->cores[core], (uint32_t)row));
	view_report__delete(v);
	/*
	 * only commands that work here: perf 6.12's annotate crashes or lists no
	 * bytes. One run of it on the copy (a huge one may time out: then unknown)
	 */
	h = injected ? annot_health__probe(r->perf, r->jit_out, sym, 15000, why, sizeof(why))
		     : ANNOT_UNKNOWN;
	if (h != ANNOT_CRASHES) {
		printf("  perf annotate -i");
		hints__put_arg(stdout, r->jit_out);
		printf(" --stdio -M intel");
		hints__put_arg(stdout, sym);
		putchar('\n');
	}
	printf("  aotperf annotate -i");
	hints__put_arg(stdout, r->jit_out);
	hints__put_arg(stdout, sym);
	if (h == ANNOT_CRASHES || h == ANNOT_NO_BYTES) {
		printf("   # %s here: it lists the function itself\n", why);
		return;
	}
	printf("\n  perf annotate -i");
	hints__put_arg(stdout, r->jit_out);
	printf(" --stdio --asm-raw -M intel");
	hints__put_arg(stdout, sym);
	printf(" | aotperf classify\n");
}

/* ---- the command ---- */

struct file_id {
	int exists;
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
};

static struct file_id file_id(const char *path)
{
	struct file_id id = { 0 };
	struct stat st;

	if (!stat(path, &st))
		id = (struct file_id){ 1, st.st_dev, st.st_ino, st.st_mtim };
	return id;
}

/* perf renames an older recording away, so a new one is a new file. */
static int is_new(const struct file_id *before, const struct file_id *after)
{
	return after->exists && (!before->exists || before->ino != after->ino ||
				 before->dev != after->dev ||
				 before->mtime.tv_sec != after->mtime.tv_sec ||
				 before->mtime.tv_nsec != after->mtime.tv_nsec);
}

/*
 * The command must start, or perf records an empty run and the failure
 * reads as "no samples": look it up as perf's execvp will.
 */
static int check_command(const char *cmd, struct ap_err *err)
{
	char path[PATH_MAX];
	struct stat st;

	if (!ap_find_exe(cmd, path, sizeof(path)))
		return 0;
	if (!strchr(cmd, '/'))
		return ap_errf(err, "%s: the program did not start: not found on PATH; nothing"
			       " recorded", cmd);
	if (stat(cmd, &st))
		return ap_errf(err, "%s: the program did not start: %s; nothing recorded", cmd,
			       strerror(errno));
	return ap_errf(err, "%s: the program did not start: %s; nothing recorded", cmd,
		       S_ISREG(st.st_mode) ? "not executable" : "not a file");
}

/*
 * The symbolized copy of an earlier run must not pass for this one's: when
 * this run writes none, an older one is renamed X.old (as perf keeps the
 * older recording as perf.data.old). Said unless quiet.
 */
static void move_stale_copy(const struct rec_args *r)
{
	char old[sizeof(r->jit_buf) + 8];
	struct stat st;

	if (lstat(r->jit_out, &st) || S_ISDIR(st.st_mode) ||
	    (size_t)snprintf(old, sizeof(old), "%s.old", r->jit_out) >= sizeof(old))
		return;
	if (rename(r->jit_out, old)) {
		cli_warn("record", "%s is from an earlier run and could not be moved away: %s",
			 r->jit_out, strerror(errno));
		return;
	}
	if (!r->a.quiet)
		fprintf(stderr, "aotperf record: %s was symbolized from an earlier run: moved to"
			" %s\n", r->jit_out, old);
}

/* perf record on the command: its status, or -1 when perf recorded nothing. */
static int record(struct rec_args *r, struct ap_err *err)
{
	struct file_id before = file_id(r->out), after;
	struct ap_child c = { .forward_signals = 1 };
	char **argv;
	int ret;

	if (check_command(r->cmd[0], err) ||
	    ap_perf__find(NULL, r->perf, sizeof(r->perf), err))
		return -1;
	if (!r->event) {
		r->event = pick_event(r);
		if (!r->a.quiet && strcmp(r->event, "cycles"))
			cli_warn("record", "hardware cycles do not count here: sampling cpu-clock");
	}
	if (r->offcpu) {
		r->offcpu = rec_offcpu__pick(r->perf);
		if (!r->a.quiet)
			fprintf(stderr, "aotperf record: off-CPU: %s\n", rec_offcpu__describe(r->offcpu));
	}
	if (record_argv(r, &argv))
		return ap_err_nomem(err);
	/* Like perf record's users expect: SIGINT/SIGTERM go to perf, which stops
	 * the workload and still writes the recording; we carry on afterwards. */
	c.argv = (const char *const *)argv;
	ret = ap_child__run(&c, err);
	free(argv);
	if (ret)
		return -1;
	after = file_id(r->out);
	if (!is_new(&before, &after))
		return ap_errf(err, "perf record wrote no %s (status %d)", r->out, c.status);
	return c.status;
}

int cmd_record(int argc, char **argv)
{
	struct rec_args r = { .out = "perf.data", .freq = "999", .mode = SYMNAME_LOCAL };
	struct ap_err err = { 0 };
	struct symcfi_maps *maps = NULL;
	struct session_tool *tool;
	int status, ret = EXIT_OK, injected = 0, read;

	attr_args__init(&r.a, "record");
	if (parse(argc, argv, &r, &err)) {
		ret = cli_fail("record", &err);
		goto out;
	}
	status = record(&r, &err);
	if (status < 0) {
		ret = cli_fail("record", &err);
		goto out;
	}
	if (status && !r.a.quiet)
		cli_warn("record", "the command failed (status %d); symbolizing the recording"
			 " anyway", status);
	r.a.input = r.out;
	/* one read of the recording serves the inject and the summary */
	if (!r.no_inject && !r.jitdump && (maps = symcfi_maps__new())) {
		tool = symcfi_maps__tool(maps);	/* the ELF images' placing: every mapping */
		r.a.opts.tools = &tool;
		r.a.opts.ntools = 1;
	}
	summary_event(&r);
	read = attr_args__read(&r.a);
	r.a.opts.tools = NULL;
	r.a.opts.ntools = 0;
	if (!r.no_inject) {
		if (read == EXIT_OK && !r.force && profile__require_consistent(r.a.p, &err)) {
			ap_err_hint(&err, AP_HINT_FORCE_MISMATCH);
			read = cli_fail("record", &err);
		} else if (read == EXIT_OK && inject(&r, maps, &err)) {
			read = cli_fail("record", &err);
		}
		injected = read == EXIT_OK;
		if (!injected) {
			ret = read;
			move_stale_copy(&r);
			fprintf(stderr, "aotperf record: %s is kept; once fixed, run:\n", r.out);
			put_inject(stderr, &r);
		}
	}
	if (r.no_inject)
		move_stale_copy(&r);
	if (read == EXIT_OK && !r.a.quiet)	/* -q: errors and the files only, as perf's */
		print_next(&r, injected);
	if (status)
		ret = status;
out:
	free(r.core_args);
	symcfi__maps_delete(maps);
	profile_events__exit(&r.events);
	attr_args__exit(&r.a);
	return ret;
}
