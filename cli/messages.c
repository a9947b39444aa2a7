// SPDX-License-Identifier: MIT
/*
 * What aotperf says on stderr and the exit status that goes with it: errors
 * with their hints, warnings wrapped for people; and a command's --help.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../cwasm/name.h"
#include "../util/term.h"

/* The command running: set once by main before it calls the command. */
static const struct cli_command *current;

void cli_command__set(const struct cli_command *c)
{
	current = c;
}

void cli_usage(const char *text)
{
	fputs(text, stdout);
	if (current && (current->flags & CLI_WRITES_FILES))
		fputs(CLI_FILES_USAGE, stdout);
}

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
