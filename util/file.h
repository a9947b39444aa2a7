/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_FILE_H
#define AOTPERF_UTIL_FILE_H
/*
 * The one way aotperf opens a file for reading. Inputs come from users and
 * other tools, so an open never blocks and never reads what is not meant:
 *
 *  - open(O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), then fstat the
 *    descriptor (not the name, which may have changed meanwhile);
 *  - anything but a regular file (a FIFO, a device such as /dev/zero, a
 *    socket, a directory) is refused, unless the caller says a stream is
 *    meant (AP_FILE_STREAM, e.g. for `-i -`); "-" then names stdin;
 *  - every whole-file read has a size limit chosen by the caller;
 *  - the file's identity (st_dev, st_ino) is kept, so a command can refuse
 *    an output that is one of its inputs (identity, never names).
 *
 * A missing or unreadable file is AP_ERR_INPUT (the user named it); a
 * read that fails midway is AP_ERR_IO.
 */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "err.h"

enum ap_file_flags {
	AP_FILE_STREAM = 1u << 0,	/* a pipe, FIFO or character device is acceptable; "-" is stdin */
	AP_FILE_NOFOLLOW = 1u << 1,	/* refuse a symlink as the last path component */
};

struct ap_file_id {
	dev_t dev;
	ino_t ino;
	int valid;		/* 0: nothing was opened (or stdin was a terminal) */
};

struct ap_file {
	int fd;			/* -1 when closed */
	int own_fd;		/* 0 for stdin */
	const char *path;	/* as given, for messages (not copied) */
	struct ap_file_id id;
	uint64_t size;		/* st_size of a regular file, 0 for a stream */
	int stream;		/* not a regular file (only with AP_FILE_STREAM) */
};

/* Open path for reading as above. 0, or -1 with err ("PATH: why"). */
int ap_file__open(struct ap_file *f, const char *path, unsigned flags, struct ap_err *err);
void ap_file__close(struct ap_file *f);

/*
 * Read the rest of an open file, at most max bytes (more is an input error
 * "PATH: larger than MAX bytes"), into a malloc'd NUL-terminated buffer.
 */
int ap_file__read_rest(struct ap_file *f, size_t max, char **buf, size_t *len,
		       struct ap_err *err);

/* Open, read to the end (at most max bytes) and close; id may be NULL. */
int ap_file__read_all(const char *path, unsigned flags, size_t max, char **buf, size_t *len,
		      struct ap_file_id *id, struct ap_err *err);

/* pread exactly len bytes at off; a short read is an input error. */
int ap_file__pread(const struct ap_file *f, void *buf, size_t len, uint64_t off,
		   struct ap_err *err);

/* The identity of an existing path (stat, follows links); 0, or -1 if it does not exist. */
int ap_file_id__of(const char *path, struct ap_file_id *id);
/* 1 when both name the same file. */
int ap_file_id__same(const struct ap_file_id *a, const struct ap_file_id *b);

/* An input a command read, by identity, with the name it was given as. */
struct ap_input {
	struct ap_file_id id;
	const char *name;
};

/* Record path (if it exists) in a growing list of inputs; -1 when out of memory. */
int ap_inputs__add(struct ap_input **list, size_t *n, size_t *cap, const char *path);

/*
 * Refuse writing out when it is one of the n inputs (by device and inode:
 * a hard link or another spelling of the same file counts). Returns 0, or
 * -1 with err "OUT: is the input IN: refusing to overwrite it".
 */
int ap_file__check_output(const char *out, const struct ap_input *in, size_t n,
			  struct ap_err *err);

#endif
