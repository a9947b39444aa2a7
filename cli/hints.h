/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_HINTS_H
#define AOTPERF_CLI_HINTS_H
/*
 * The "next:" commands a command prints: real file names, quoted for a
 * shell, and real symbol names (what the symbolized copy calls the
 * hottest function), so each line runs as printed.
 */
#include <stddef.h>
#include <stdio.h>
#include "../profile/profile.h"
#include "../symbolize/symname.h"

/* " ARG", quoted so that a POSIX shell reads it back. */
void hints__put_arg(FILE *f, const char *s);

/*
 * The symbol the symbolized copy gives the profile's hottest function
 * (--names mode, "mod<M>:" when several cores were mapped). 0, or -1 when
 * no function has samples.
 */
int hints__hottest_symbol(const struct profile *p, enum symname_mode mode, char *buf,
			  size_t len);

#endif
