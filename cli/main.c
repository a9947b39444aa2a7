// SPDX-License-Identifier: MIT
/*
 * aotperf: git-style front end. The table says what each command is and
 * what its --help ends with; each command lives in cmd-<name>.c, the
 * helpers they share in messages.c, parse.c and badopt.c.
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "../util/suggest.h"

#ifndef AOTPERF_VERSION
#define AOTPERF_VERSION "0.1"
#endif

static const struct cli_command commands[] = {
	{ "report", cmd_report, CLI_WRITES_FILES,
	  "per-function attribution of a precompiled run" },
	{ "perfmap", cmd_perfmap, 0,
	  "write /tmp/perf-<pid>.map so perf report names the functions" },
	{ "jitdump", cmd_jitdump, 0,
	  "write jitdumps and a marked perf.data for perf inject --jit" },
	{ "inject", cmd_inject, 0, "one step to a symbolized perf.jit.data" },
	{ "record", cmd_record, 0,
	  "perf record -k mono, then a symbolized perf.jit.data at once" },
	{ "spills", cmd_spills, CLI_WRITES_FILES,
	  "rank compile-time spillers, joined with runtime heat" },
	{ "diff", cmd_diff, CLI_WRITES_FILES,
	  "before/after: two builds of one wasm, function by function" },
	{ "compare", cmd_compare, CLI_WRITES_FILES,
	  "one wasm function under WAMR and another engine, class by class" },
	{ "classify", cmd_classify, CLI_WRITES_FILES, "instruction classes of perf annotate output" },
	{ "annotate", cmd_annotate, CLI_WRITES_FILES,
	  "run perf annotate on a symbol and classify it" },
	{ "attr", cmd_attr, CLI_WRITES_FILES,
	  "drop-in for the upstream helper aot_jit_attr.py (its flags, JSON)" },
	{ "doctor", cmd_doctor, 0, "what works on this machine, and what to do otherwise" },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: aotperf <command> [options]\n\n"
		   "Make perf understand ahead-of-time compiled WebAssembly (.cwasm).\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'aotperf <command> --help' describes one command.\n");
}

static int unknown_command(const char *word)
{
	const char *names[NCOMMANDS];
	const char *guess;

	for (size_t i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i].name;
	guess = ap_suggest(word, names, sizeof(names) / sizeof(names[0]));
	if (guess)
		fprintf(stderr, "aotperf: '%s' is not a command; did you mean '%s'?\n", word, guess);
	else
		fprintf(stderr, "aotperf: '%s' is not a command; see 'aotperf --help'\n", word);
	return EXIT_BAD;
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
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(argv[1], commands[i].name)) {
			cli_command__set(&commands[i]);
			return commands[i].fn(argc - 1, argv + 1);
		}
	return unknown_command(argv[1]);
}
