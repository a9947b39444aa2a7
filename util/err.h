/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_ERR_H
#define AOTPERF_UTIL_ERR_H

/*
 * Errors travel as a return code plus one message buffer. Library code fills
 * the buffer ("FILE: what is wrong") and returns -1; only cli/ prints it and
 * picks the exit status.
 */
struct ap_err {
	char msg[512];
};

/* Format into err (if not NULL) and return -1, so callers can `return ap_errf(...)`. */
int ap_errf(struct ap_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
