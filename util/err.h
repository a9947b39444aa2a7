/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_ERR_H
#define AOTPERF_UTIL_ERR_H

/*
 * Errors travel as a return code plus one error value: a kind and a
 * message ("FILE: what is wrong"). Library code fills it and returns -1;
 * only the front ends (cli/, plugin/) print it and map the kind to an
 * exit status. Messages name files and fields, never command-line flags.
 */
enum ap_err_kind {
	AP_ERR_INPUT = 0,	/* bad input or usage: a file that is not what it should be */
	AP_ERR_GATE,		/* a check the user asked for failed (--min-samples, ...) */
	AP_ERR_IO,		/* the system failed us: open, read, write, rename */
	AP_ERR_NOMEM,		/* out of memory */
};

struct ap_err {
	enum ap_err_kind kind;
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

#endif
