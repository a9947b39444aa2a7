// SPDX-License-Identifier: MIT
/* aotperf: git-style front end; each subcommand lives in cmd-<name>.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../cwasm/name.h"
#include "../util/num.h"
#include "../util/suggest.h"
#include "../util/term.h"

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
	{ "diff", cmd_diff, "before/after: two builds of one wasm, function by function" },
	{ "compare", cmd_compare, "one wasm function under WAMR and another engine, class by class" },
	{ "classify", cmd_classify, "instruction classes of perf annotate output" },
	{ "annotate", cmd_annotate, "run perf annotate on a symbol and classify it" },
	{ "attr", cmd_attr, "drop-in for the upstream helper aot_jit_attr.py (its flags, JSON)" },
	{ "doctor", cmd_doctor, "what works on this machine, and what to do otherwise" },
};

int cli_exit_status(enum ap_err_kind kind)
{
	switch (kind) {
	case AP_ERR_GATE:
		return EXIT_GATE;
	case AP_ERR_INPUT:
	case AP_ERR_IO:		/* I/O failures are bad input too (exit 2; docs/commands/common.md) */
	case AP_ERR_NOMEM:
		return EXIT_BAD;
	}
	return EXIT_BAD;
}

const char *cli_hint(enum ap_hint hint)
{
	switch (hint) {
	case AP_HINT_NONE:
	case AP_HINT__COUNT:
	case AP_HINT_NO_CORE_MAP:	/* lines of their own: cli/census.c */
	case AP_HINT_PID_SAMPLES:
		break;
	case AP_HINT_PIN_CORE: return "--base HEX picks one";
	case AP_HINT_FORCE: return "--force replaces it";
	case AP_HINT_DIRECT: return "use 'aotperf inject' (ELF images, the default route)";
	case AP_HINT_INJECTED: return "perf report reads this file as it is";
	case AP_HINT_ANY_PATH: return "--manifest-any-path (before --manifest) allows it";
	case AP_HINT_FORCE_MISMATCH: return "--force writes it anyway";
	case AP_HINT_NO_MONO:
		return "'aotperf inject' without --jitdump writes ELF images, which need no -k mono";
	case AP_HINT_PERFMAP: return "use 'aotperf perfmap', or record without -z";
	case AP_HINT_MAP_PER_PID: return "leave -o out to write /tmp/perf-<pid>.map for each";
	case AP_HINT_LOG_MOD:
		return "a per-core .cwasm of a component needs --mod N: give --mod N for each"
		       " lone --cwasm";
	}
	return NULL;
}

/*
 * Messages quote what files and other programs said (names, event names,
 * paths from manifests): no byte of it may drive the terminal.
 */
static void put_line(const char *head, const char *msg, const char *hint)
{
	fputs(head, stderr);
	cwasm_name__fputs(msg, stderr);
	if (hint) {
		fputs("; ", stderr);
		fputs(hint, stderr);
	}
	fputc('\n', stderr);
}

int cli_fail_opt(const char *cmd, const char *opt, const struct ap_err *err)
{
	char head[128];

	snprintf(head, sizeof(head), "aotperf %s: %s%s", cmd, opt ? opt : "", opt ? " " : "");
	put_line(head, err->msg, cli_hint(err->hint));
	return cli_exit_status(err->kind);
}

int cli_fail(const char *cmd, const struct ap_err *err)
{
	return cli_fail_opt(cmd, NULL, err);
}

/*
 * Warnings for people wrap at the width (util/term.h); into a pipe or a
 * log without $COLUMNS each stays one line, so grep finds it whole.
 */
static void warn_line(const char *cmd, const char *msg, const char *hint)
{
	char head[128], *line = NULL;
	size_t len = 0;
	const char *env = getenv("COLUMNS");
	FILE *f = (env && *env) || isatty(STDERR_FILENO) ? open_memstream(&line, &len) : NULL;

	snprintf(head, sizeof(head), "aotperf %s: warning: ", cmd);
	if (!f) {
		put_line(head, msg, hint);
		return;
	}
	fputs(head, f);
	cwasm_name__fputs(msg, f);
	if (hint)
		fprintf(f, "; %s", hint);
	fclose(f);
	ap_term__wrap(stderr, line, ap_term__columns(stderr, 0), 2);
	free(line);
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0) {
		warn_line(cmd, "(out of memory)", NULL);
		return;
	}
	warn_line(cmd, msg, NULL);
	free(msg);
}

void cli_warnings(const char *cmd, const struct ap_warnings *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		warn_line(cmd, ws->w[i].msg, cli_hint(ws->w[i].hint));
}

int cli_parse_u64(const char *s, int base, uint64_t *out)
{
	return ap_parse_u64(s, base, out);
}

int cli_parse_arch(const char *s, enum cwasm_arch *out, struct ap_err *err)
{
	if (s && *s && !cwasm_arch__parse(s, strlen(s), out))
		return 0;
	return ap_errf(err, "--arch: '%s' is not x86_64 or aarch64 (also amd64, x64, x86-64, "
		       "arm64)", s ? s : "");
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

static int unknown_command(const char *word)
{
	const char *names[sizeof(subcommands) / sizeof(subcommands[0])];
	const char *guess;

	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		names[i] = subcommands[i].name;
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
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	return unknown_command(argv[1]);
}
