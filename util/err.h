/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_ERR_H
#define AOTPERF_UTIL_ERR_H

/*
 * Errors travel as a return code plus one error value: a kind and a
 * message ("FILE: what is wrong"). Library code fills it and returns -1;
 * only the front ends (cli/, plugin/) print it and map the kind to an
 * exit status (cli/cli.h: cli_exit_status). Messages name files and
 * fields, never command-line flags: where the user can do something
 * about it, the library sets a hint, and each front end words the hint
 * in its own options (`--base HEX` for aotperf, `base=HEX` for the
 * dlfilter).
 */
#include <stddef.h>

enum ap_err_kind {
	AP_ERR_INPUT = 0,	/* bad input or usage: a file that is not what it should be */
	AP_ERR_GATE,		/* a check the user asked for failed (--min-samples, ...) */
	AP_ERR_IO,		/* the system failed us: read, write, rename, fork */
	AP_ERR_NOMEM,		/* out of memory */
};

/* What the user can do about an error or a warning; see each front end's wording. */
enum ap_hint {
	AP_HINT_NONE = 0,
	AP_HINT_PIN_CORE,	/* pin the core to a mapping's start address */
	AP_HINT_FORCE,		/* replace a file aotperf did not write */
	AP_HINT_DIRECT,		/* the ELF-image route needs neither -k mono nor free timestamps */
	AP_HINT_PERFMAP,	/* a perf map needs no edit of the recording */
	AP_HINT_MAP_PER_PID,	/* no output path: one /tmp/perf-<pid>.map per process */
	AP_HINT_LOG_MOD,	/* say which log module a lone .cwasm is */
	AP_HINT_INJECTED,	/* an inject step's output: read the original recording */
	AP_HINT_NO_MONO,	/* the recording lacks -k mono: take the ELF-image route */
	AP_HINT_ANY_PATH,	/* a manifest's core outside its folder: allowed on request */
	AP_HINT_FORCE_MISMATCH,	/* write for a core whose samples do not fit its code anyway */
	AP_HINT_NO_CORE_MAP,	/* no mapping of a core's size: list what the recording has */
	AP_HINT_PID_SAMPLES,	/* no samples of the selected pid: list the pids that have some */
	AP_HINT__COUNT
};

struct ap_err {
	enum ap_err_kind kind;
	enum ap_hint hint;
	char msg[512];
};

/* Format into err (if not NULL) as AP_ERR_INPUT and return -1, so callers can `return ap_errf(...)`. */
int ap_errf(struct ap_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same with an explicit kind. */
int ap_errk(struct ap_err *err, enum ap_err_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "out of memory" as AP_ERR_NOMEM. */
int ap_err_nomem(struct ap_err *err);
/* Attach a hint to the error just formatted; returns -1. */
int ap_err_hint(struct ap_err *err, enum ap_hint hint);
/* Put context in front of the message ("--base: " + "'x' is not ..."); returns -1. */
int ap_err_prefix(struct ap_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Warnings a library collects for the front end to print (and the JSON to list). */
struct ap_warning {
	char *msg;
	enum ap_hint hint;
};

struct ap_warnings {
	struct ap_warning *w;
	size_t n, cap;
};

/* Append one; -1 when out of memory. */
int ap_warnings__add(struct ap_warnings *ws, enum ap_hint hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ap_warnings__exit(struct ap_warnings *ws);

#endif
