/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_OUTFILE_H
#define AOTPERF_UTIL_OUTFILE_H
/*
 * Outputs are written to a fresh temporary file in the target's folder and
 * renamed into place only when complete: a failed run leaves nothing behind,
 * and a symlink planted at the temporary name is never followed.
 */
#include <stdio.h>
#include "err.h"

struct outfile {
	char *path;  /* final name */
	char *tmp;   /* temporary name, same folder */
	FILE *f;
	int fd;
};

int outfile__open(struct outfile *o, const char *path, struct ap_err *err);
/* Flush, close and rename into place. */
int outfile__commit(struct outfile *o, struct ap_err *err);
/* Close and remove the temporary file (safe after a failed open/commit). */
void outfile__abort(struct outfile *o);

#endif
