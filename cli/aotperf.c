// SPDX-License-Identifier: MIT
/* aotperf: git-style front end; each subcommand lives in cmd-<name>.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#ifndef AOTPERF_VERSION
#define AOTPERF_VERSION "0.1"
#endif

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
	{ "report", cmd_report, "per-function attribution of a precompiled run" },
	{ "perfmap", cmd_perfmap, "write /tmp/perf-<pid>.map so perf report names the functions" },
	{ "jitdump", cmd_jitdump, "write jitdumps and a marked perf.data for perf inject --jit" },
	{ "inject", cmd_inject, "one step to a symbolized perf.jit.data" },
	{ "record", cmd_record, "perf record -k mono, then a symbolized perf.jit.data at once" },
	{ "spills", cmd_spills, "rank compile-time spillers, joined with runtime heat" },
	{ "classify", cmd_classify, "instruction classes of perf annotate output" },
	{ "annotate", cmd_annotate, "run perf annotate on a symbol and classify it" },
	{ "doctor", cmd_doctor, "what works on this machine, and what to do otherwise" },
};

int cli_fail(const char *cmd, const struct ap_err *err)
{
	fprintf(stderr, "aotperf %s: %s\n", cmd, err->msg);
	return EXIT_BAD;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "aotperf %s: warning: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: aotperf <command> [options]\n\n"
		   "Make perf understand ahead-of-time compiled WebAssembly (.cwasm).\n\n"
		   "commands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\n'aotperf <command> --help' describes one command.\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("aotperf %s\n", AOTPERF_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "aotperf: '%s' is not a command; see 'aotperf --help'\n", argv[1]);
	return EXIT_BAD;
}
