/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_ATTR_ARGS_H
#define AOTPERF_CLI_ATTR_ARGS_H
/*
 * Options every attribution-based command shares (-i, --cwasm, --manifest,
 * --base, --pid, --event, --require-size-match, -q), and reading the
 * profile (profile/profile.h) with them.
 */
#include <getopt.h>
#include "cli.h"
#include "../cwasm/coreset.h"
#include "../profile/profile.h"

#define ATTR_MAX_BASES PROFILE_MAX_PINS
#define ATTR_MAX_INPUTS 64	/* -i repeated: captures of one build */

enum {
	ATTR_OPT_CWASM = 1000, ATTR_OPT_MANIFEST, ATTR_OPT_PID, ATTR_OPT_EVENT, ATTR_OPT_BASE,
	ATTR_OPT_REQ, ATTR_OPT_TWO_PASS, ATTR_OPT_ARCH, ATTR_OPT_ANY_PATH,
};

/* Spliced into each command's getopt_long table. */
#define ATTR_LONGOPTS                                                              \
	{ "input", required_argument, NULL, 'i' },                                 \
	{ "cwasm", required_argument, NULL, ATTR_OPT_CWASM },                      \
	{ "manifest", required_argument, NULL, ATTR_OPT_MANIFEST },                \
	{ "pid", required_argument, NULL, ATTR_OPT_PID },                          \
	{ "event", required_argument, NULL, ATTR_OPT_EVENT },                      \
	{ "base", required_argument, NULL, ATTR_OPT_BASE },                        \
	{ "require-size-match", no_argument, NULL, ATTR_OPT_REQ },                 \
	{ "two-pass", no_argument, NULL, ATTR_OPT_TWO_PASS },                      \
	{ "manifest-any-path", no_argument, NULL, ATTR_OPT_ANY_PATH },             \
	{ "quiet", no_argument, NULL, 'q' }

#define ATTR_USAGE                                                                 \
	"  -i, --input FILE        perf.data to read (default perf.data; - reads a pipe)\n" \
	"      --cwasm FILE        a core (.cwasm); repeat for several\n"            \
	"      --manifest FILE     a component manifest (.cwasm.json): all its cores\n" \
	"      --manifest-any-path (before --manifest) its cores may lie outside its\n" \
	"                          folder (absolute paths, ../)\n"                   \
	"      --pid PID           only this process's samples and mappings\n"       \
	"      --event NAME        only this event's samples (e.g. cpu-clock)\n"     \
	"      --base HEX          the i-th one pins the i-th core to the mapping at HEX\n" \
	"      --require-size-match  exit 1 instead of guessing when a core's exact-size\n" \
	"                          mapping is not unique\n"                           \
	"  -q, --quiet             nothing but errors and the requested output (no\n" \
	"                          warnings, progress or next steps), as perf's -q\n"

/* --arch, for the commands that decode code (report, jitdump, inject, record, spills) */
#define ATTR_ARCH_LONGOPT { "arch", required_argument, NULL, ATTR_OPT_ARCH }
#define ATTR_ARCH_USAGE                                                            \
	"      --arch ARCH         decode the cores as x86_64 or aarch64 (amd64, x64,\n" \
	"                          x86-64, arm64), whatever their target info says\n"

struct attr_args {
	const char *cmd;
	const char *input;
	const char *inputs[ATTR_MAX_INPUTS];	/* every -i in order (input: the last) */
	uint32_t ninputs;
	int quiet;
	struct core_set cs;
	struct profile_pins pins;	/* --base */
	struct profile_opts opts;
	enum cwasm_arch arch;		/* --arch; UNKNOWN: the target info's */
	struct profile *p;		/* after attr_args__read */
	struct session *s;		/* the recording input names, read once (session/session.h) */
};

void attr_args__init(struct attr_args *a, const char *cmd);
/* 1 if c was one of ours (handled), 0 if not, -1 on a bad value (err set, with the option). */
int attr_args__option(struct attr_args *a, int c, const char *arg, struct ap_err *err);
/* After getopt: at least one core, bases fit; --arch applied to every core. */
int attr_args__check(struct attr_args *a, struct ap_err *err);
/*
 * Refuse an output path that is one of the inputs (every perf.data, a core,
 * a manifest), by identity, or a file another user owns. 0, or -1 with err.
 */
int attr_args__check_output(const struct attr_args *a, const char *out, struct ap_err *err);
/*
 * The session of input (a->s): opened at the first call, kept while input
 * names the same recording (commands that read it again after the profile,
 * inject, use it), closed by attr_args__exit. 0, or -1 with err.
 */
int attr_args__session(struct attr_args *a, struct ap_err *err);
/*
 * Read the profile through the session, printing the warnings (unless
 * quiet). Returns EXIT_OK, or the exit status of the error, already
 * printed.
 */
int attr_args__read(struct attr_args *a);
void attr_args__exit(struct attr_args *a);

#endif
