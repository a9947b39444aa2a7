/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_H
#define AOTPERF_CLI_H
/*
 * The command-line layer: only here are messages printed and exit codes
 * chosen. Exit codes: 0 ok, 1 a gate failed (--min-samples,
 * --require-size-match) or the command's check is negative, 2 bad usage or
 * bad input. An error's kind (util/err.h) picks the code, in one place:
 * cli_exit_status().
 */
#include <stdint.h>
#include "../cwasm/target.h"
#include "../util/err.h"

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_BAD = 2 };

/*
 * How report-style outputs (--json FILE, --html, --markdown, --folded,
 * --pprof) are written, as util/outfile.c does it: the end of the --help
 * of every command whose table entry has CLI_WRITES_FILES.
 */
#define CLI_FILES_USAGE                                                            \
	"\nOutput files are written to a temporary name in their folder and renamed\n" \
	"into place when complete: a symlink there is replaced, never written\n"      \
	"through; another user's file is refused; a failed run leaves none behind.\n" \
	"They get the umask's permission bits (0644 under umask 022).\n"

/* A command: its entry in main.c's table. */
enum cli_command_flags {
	CLI_WRITES_FILES = 1 << 0,	/* report-style output files (CLI_FILES_USAGE) */
};
struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned int flags;		/* enum cli_command_flags */
	const char *summary;		/* its line in aotperf --help */
};
/* main: the command about to run, whose entry cli_usage() reads. */
void cli_command__set(const struct cli_command *c);
/* A command's --help on stdout: text, then what its entry adds (CLI_FILES_USAGE). */
void cli_usage(const char *text);

/* AP_ERR_GATE -> 1; bad input, I/O and out of memory -> 2. */
int cli_exit_status(enum ap_err_kind kind);
/* How aotperf's options answer a hint ("pass --base HEX to choose"), NULL for none. */
const char *cli_hint(enum ap_hint hint);

/* Print "aotperf <cmd>: <msg>[; <hint>]" to stderr; returns cli_exit_status(kind). */
int cli_fail(const char *cmd, const struct ap_err *err);
/* The same with the option the value came from in front: "aotperf report: --func X: ..." */
int cli_fail_opt(const char *cmd, const char *opt, const struct ap_err *err);
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Every warning of a list, with its hint. */
void cli_warnings(const char *cmd, const struct ap_warnings *ws);
struct option;
/*
 * After getopt_long returned '?' or ':': err says which option and what is
 * wrong with it (value missing, did you mean, ambiguous). Returns -1.
 */
int cli_bad_option(struct ap_err *err, char *const *argv, int optind_now, const char *shortopts,
		   const struct option *longopts);
/* A word where no argument goes: err hints -i, --cwasm or --manifest when
 * arg is a recording, a core or a manifest. Returns -1. */
int cli_bad_argument(struct ap_err *err, const char *arg);
/* Parse numbers strictly ("12x" is an error). */
int cli_parse_u64(const char *s, int base, uint64_t *out);
/* --arch: x86_64 or aarch64 and their aliases; else -1 and err "--arch: ...". */
int cli_parse_arch(const char *s, enum cwasm_arch *out, struct ap_err *err);

int cmd_report(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_perfmap(int argc, char **argv);
int cmd_jitdump(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_spills(int argc, char **argv);
int cmd_attr(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_compare(int argc, char **argv);

#endif
