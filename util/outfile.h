/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_OUTFILE_H
#define AOTPERF_UTIL_OUTFILE_H
/*
 * Outputs are written to a fresh temporary file in the target's folder and
 * renamed into place only when complete: a failed run leaves nothing behind,
 * a symlink planted at the temporary name is never followed, and a file
 * another user owns is never replaced.
 */
#include <stdio.h>
#include <sys/types.h>
#include "err.h"

struct outfile {
	char *path;  /* final name */
	char *tmp;   /* temporary name, same folder */
	FILE *f;
	int fd;
	int in_place; /* a device or FIFO, written directly: no tmp, no rename */
};

/*
 * Open a temporary file next to path. "-" is stdout, and an existing
 * character device or FIFO (/dev/null) is written directly, never replaced.
 * A path that exists and belongs to another user, or is a folder, is
 * refused (ap_outfile__check_owner).
 */
int outfile__open(struct outfile *o, const char *path, struct ap_err *err);
/*
 * The same, the file created with mode's permission bits instead of the
 * umask-derived ones: derived recordings keep the mode of the recording
 * they come from (perf writes perf.data as 0600).
 */
int outfile__open_mode(struct outfile *o, const char *path, mode_t mode, struct ap_err *err);
/* The read/write permission bits of input (0600 for a perf.data), for
 * outfile__open_mode; the umask-derived default when it cannot be read. */
mode_t outfile__mode_of(const char *input);
/* Flush, close and rename into place. */
int outfile__commit(struct outfile *o, struct ap_err *err);
/* Close and remove the temporary file (safe after a failed open/commit). */
void outfile__abort(struct outfile *o);

/*
 * 0 when path may be replaced by a file of ours: it does not exist, or it
 * is a regular file or a symlink this user owns (a symlink counts as
 * itself: rename replaces the link, never its target). -1 with err
 * otherwise (a folder, a device, a FIFO, another user's file).
 */
int ap_outfile__check_owner(const char *path, struct ap_err *err);
/*
 * 0 when outfile__open may write path: a character device or FIFO (written
 * in place), else ap_outfile__check_owner. For checks before the work.
 */
int ap_outfile__check(const char *path, struct ap_err *err);

#endif
