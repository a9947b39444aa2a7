// SPDX-License-Identifier: MIT
/* aotperf annotate: run perf annotate on one symbol and classify what it prints. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"
#include "../classify/annotate.h"

static const char annotate_usage[] =
	"usage: aotperf annotate [-i perf.data] [--intel | --att] [--objdump PATH]\n"
	"                        [--arch ARCH] [--roles SPEC] [--top N] [--json FILE]\n"
	"                        [--save FILE] SYMBOL\n"
	"\n"
	"Run `perf annotate -i FILE --stdio --asm-raw -M intel SYMBOL` (perf from $PERF\n"
	"or PATH) and print the instruction-class table of what it disassembles, as\n"
	"`aotperf classify` does. Use it on a perf.data that names the wasm code, e.g.\n"
	"the perf.jit.data of `perf inject --jit` (symbol local_func_N).\n"
	"\n"
	"  -i, --input FILE      perf.data to annotate (default perf.data)\n"
	"      --intel           Intel syntax in the listing (the default)\n"
	"      --att             AT&T syntax in the listing\n"
	"      --objdump PATH    objdump for perf to run (e.g. aarch64-linux-gnu-objdump)\n"
	"      --arch ARCH       x86_64 (default) or aarch64 (automatic from the bytes)\n"
	"      --roles SPEC      register roles, e.g. vmctx=rcx,membase=none,frame=rbp\n"
	"      --top N           hottest instructions to list (default 10)\n"
	"      --json FILE       also write the table as JSON\n"
	"      --save FILE       keep perf annotate's output in FILE\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input, or perf failed.\n";

struct annotate_opts {
	const char *input;
	const char *symbol;
	const char *objdump;
	const char *json;
	const char *save;
	int att;
	uint64_t top;
	struct cls_annot_opts annot;
};

static int parse_args(int argc, char **argv, struct annotate_opts *o, struct ap_err *err)
{
	enum { O_INTEL = 256, O_ATT, O_OBJDUMP, O_ARCH, O_ROLES, O_TOP, O_JSON, O_SAVE };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "intel", no_argument, NULL, O_INTEL },
		{ "att", no_argument, NULL, O_ATT },
		{ "objdump", required_argument, NULL, O_OBJDUMP },
		{ "arch", required_argument, NULL, O_ARCH },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "save", required_argument, NULL, O_SAVE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->input = "perf.data";
	o->top = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case 'h': fputs(annotate_usage, stdout); exit(EXIT_OK);
		case O_INTEL: o->att = 0; break;
		case O_ATT: o->att = 1; break;
		case O_OBJDUMP: o->objdump = optarg; break;
		case O_ARCH:
			if (cls__parse_arch(optarg, &o->annot.arch))
				return ap_errf(err, "--arch: '%s' is not x86_64 or aarch64", optarg);
			break;
		case O_ROLES: o->annot.roles = optarg; break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top) || o->top > 100000)
				return ap_errf(err, "--top: '%s' is not a number", optarg);
			break;
		case O_JSON: o->json = optarg; break;
		case O_SAVE: o->save = optarg; break;
		default:
			return ap_errf(err, "unknown or incomplete option '%s'; see --help",
				       argv[optind - 1]);
		}
	}
	if (optind == argc)
		return ap_errf(err, "no symbol: give the function to annotate (see --help)");
	o->symbol = argv[optind++];
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	return 0;
}

/* perf from $PERF, else the first executable "perf" on PATH; NULL if none. */
static char *find_perf(void)
{
	const char *env = getenv("PERF"), *path = getenv("PATH");

	if (env && *env)
		return access(env, X_OK) ? NULL : strdup(env);
	while (path && *path) {
		size_t n = strcspn(path, ":");
		char *cand;

		if (n && asprintf(&cand, "%.*s/perf", (int)n, path) > 0) {
			if (!access(cand, X_OK))
				return cand;
			free(cand);
		}
		path += n;
		if (*path == ':')
			path++;
	}
	return NULL;
}

/* Read fd to EOF into a growing buffer. */
static int slurp(int fd, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap);

	while (b) {
		ssize_t got = read(fd, b + n, cap - n);
		char *nb;

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
		if (n < cap)
			continue;
		nb = realloc(b, cap * 2);
		if (!nb) {
			free(b);
			return -1;
		}
		b = nb;
		cap *= 2;
	}
	if (!b)
		return -1;
	*buf = b;
	*len = n;
	return 0;
}

/* The first line of perf's stderr that says something ("Error:" alone does not). */
static void first_msg(FILE *f, char *msg, size_t size)
{
	char line[256];

	msg[0] = '\0';
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && strcmp(line, "Error:")) {
			snprintf(msg, size, "%s", line);
			return;
		}
	}
}

/* Run perf annotate; stdout into *out, stderr into errf (a temporary file). */
static int run_perf(const char *perf, const struct annotate_opts *o, FILE *errf, char **out,
		    size_t *len, int *status, struct ap_err *err)
{
	char *objdump_arg = NULL;
	const char *argv[16];
	int fds[2], n = 0;
	pid_t pid;

	argv[n++] = perf;
	argv[n++] = "annotate";
	argv[n++] = "-i";
	argv[n++] = o->input;
	argv[n++] = "--stdio";
	/* sample counts, not percentages: exact, like report --func */
	argv[n++] = "-n";
	argv[n++] = "--asm-raw";
	if (!o->att) {
		argv[n++] = "-M";
		argv[n++] = "intel";
	}
	if (o->objdump && asprintf(&objdump_arg, "--objdump=%s", o->objdump) > 0)
		argv[n++] = objdump_arg;
	argv[n++] = "--";
	argv[n++] = o->symbol;
	argv[n] = NULL;
	if (pipe(fds)) {
		free(objdump_arg);
		return ap_errf(err, "pipe: %m");
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(objdump_arg);
		close(fds[0]);
		close(fds[1]);
		return ap_errf(err, "fork: %m");
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fileno(errf), STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(perf, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	free(objdump_arg);
	if (slurp(fds[0], out, len)) {
		close(fds[0]);
		waitpid(pid, status, 0);
		return ap_err_nomem(err);
	}
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

static int save_output(const char *path, const char *buf, size_t len, struct ap_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return ap_errf(err, "%s: cannot create: %m", path);
	if (fwrite(buf, 1, len, f) != len || fclose(f))
		return ap_errf(err, "%s: write error", path);
	return 0;
}

static int annotate(const struct annotate_opts *o, struct cls_annot *a, struct ap_err *err)
{
	char *perf = find_perf(), *out = NULL, msg[256];
	FILE *errf = NULL;
	size_t len = 0;
	int status = 0, ret = -1;

	if (!perf)
		return ap_errf(err, "perf not found (install linux-perf / kernel-tools, or set PERF=/path/to/perf)");
	if (access(o->input, R_OK)) {
		ap_errf(err, "%s: cannot read: %m", o->input);
		goto out;
	}
	errf = tmpfile();
	if (!errf) {
		ap_errf(err, "temporary file: %m");
		goto out;
	}
	if (run_perf(perf, o, errf, &out, &len, &status, err))
		goto out;
	if (o->save && save_output(o->save, out, len, err))
		goto out;
	first_msg(errf, msg, sizeof(msg));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ap_errf(err, "%s: perf annotate failed (%s%d)%s%s", o->input,
			WIFEXITED(status) ? "exit " : "signal ",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			msg[0] ? ": " : "", msg);
		goto out;
	}
	if (!memchr(out, '|', len)) {
		ap_errf(err, "%s: perf annotate printed nothing for '%s' (no samples in it? "
			"`perf report -i %s` lists the symbols)%s%s", o->input, o->symbol, o->input,
			msg[0] ? "; perf said: " : "", msg);
		goto out;
	}
	ret = cls__annot_parse(out, len, o->input, &o->annot, a, err);
out:
	if (errf)
		fclose(errf);
	free(out);
	free(perf);
	return ret;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { 0 };
	struct cls_annot a = { 0 };
	struct ap_err err = { 0 };
	int ret = EXIT_BAD;

	if (parse_args(argc, argv, &o, &err) || annotate(&o, &a, &err))
		goto fail;
	if (o.json && cls__annot_write_json(o.json, "aotperf annotate", o.input, &a,
					    (uint32_t)o.top, &err))
		goto fail;
	printf("aotperf annotate: %s %s", o.input, o.symbol);
	cls__annot_print(stdout, &a, (uint32_t)o.top);
	ret = EXIT_OK;
	goto out;
fail:
	ret = cli_fail("annotate", &err);
out:
	cls_annot__exit(&a);
	return ret;
}
