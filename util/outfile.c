// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outfile.h"

int ap_outfile__check_owner(const char *path, struct ap_err *err)
{
	struct stat st;

	if (lstat(path, &st))
		return 0;	/* nothing there yet (or nothing we could replace) */
	if (S_ISDIR(st.st_mode))
		return ap_errf(err, "%s: is a directory", path);
	/* a rename would replace a device or FIFO node itself (root: /dev/null) */
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return ap_errf(err, "%s: is not a regular file; refusing to replace it", path);
	/* in a shared folder (/tmp) the name may belong to someone else */
	if (st.st_uid != geteuid())
		return ap_errf(err, "%s: belongs to another user (uid %u); refusing to replace it",
			       path, (unsigned)st.st_uid);
	return 0;
}

int ap_outfile__check(const char *path, struct ap_err *err)
{
	struct stat st;

	if (!stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
		return 0;	/* written in place (open_special) */
	return ap_outfile__check_owner(path, err);
}

static mode_t default_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

mode_t outfile__mode_of(const char *input)
{
	struct stat st;

	if (stat(input, &st))
		return default_mode();
	return st.st_mode & 0666;
}

/*
 * A character device or a FIFO (/dev/null, /dev/stdout, a named pipe) is
 * written in place: a rename would replace the node itself (as root,
 * /dev/null with a regular file). A block device is refused. 1 when opened
 * in place, 0 for a path to write by temporary name, -1 on error.
 */
static int open_special(struct outfile *o, const char *path, struct ap_err *err)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	if (S_ISBLK(st.st_mode))
		return ap_errf(err, "%s: is a block device; refusing to write to it", path);
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return 0;
	o->fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return ap_errf(err, "%s: cannot open: %s", path, strerror(errno));
	o->f = fdopen(o->fd, "w");
	if (!o->f) {
		int e = errno;

		close(o->fd);
		o->fd = -1;
		return ap_errf(err, "%s: %s", path, strerror(e));
	}
	o->path = strdup(path);
	if (!o->path) {
		outfile__abort(o);
		return ap_errf(err, "%s: out of memory", path);
	}
	o->in_place = 1;
	return 1;
}

int outfile__open(struct outfile *o, const char *path, struct ap_err *err)
{
	return outfile__open_mode(o, path, default_mode(), err);
}

int outfile__open_mode(struct outfile *o, const char *path, mode_t mode, struct ap_err *err)
{
	size_t n = strlen(path);

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!strcmp(path, "-")) {
		/* stdout, as "-i -" reads stdin: no temporary name, nothing to rename */
		o->f = stdout;
		o->fd = STDOUT_FILENO;
		return 0;
	}
	/* before the owner check: nothing is replaced, the kernel checks access */
	switch (open_special(o, path, err)) {
	case 1:
		return 0;
	case -1:
		return -1;
	}
	if (ap_outfile__check_owner(path, err))
		return -1;
	o->path = strdup(path);
	o->tmp = malloc(n + sizeof(".tmp.XXXXXX"));
	if (!o->path || !o->tmp) {
		outfile__abort(o);
		return ap_errf(err, "%s: out of memory", path);
	}
	memcpy(o->tmp, path, n);
	memcpy(o->tmp + n, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	/* mkstemp opens with O_CREAT|O_EXCL: it never follows a symlink. */
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		int e = errno;

		free(o->tmp);
		o->tmp = NULL;
		outfile__abort(o);
		return ap_errf(err, "%s: cannot create: %s", path, strerror(e));
	}
	/* mkstemp makes 0600: the mode asked for, before any byte is written */
	if (fchmod(o->fd, mode & 0666) != 0) {
		int e = errno;

		outfile__abort(o);
		return ap_errf(err, "%s: %s", path, strerror(e));
	}
	o->f = fdopen(o->fd, "w");
	if (!o->f) {
		int e = errno;

		outfile__abort(o);
		return ap_errf(err, "%s: %s", path, strerror(e));
	}
	return 0;
}

int outfile__commit(struct outfile *o, struct ap_err *err)
{
	int bad = ferror(o->f);

	if (o->f == stdout && !o->tmp) {
		if (fflush(stdout) || bad)
			return ap_errk(err, AP_ERR_IO, "stdout: write failed: %s", strerror(errno));
		memset(o, 0, sizeof(*o));
		o->fd = -1;
		return 0;
	}

	if (fclose(o->f) != 0)
		bad = 1;
	o->f = NULL;
	o->fd = -1;
	if (bad || (!o->in_place && rename(o->tmp, o->path) != 0)) {
		int e = errno;

		ap_errf(err, "%s: write failed: %s", o->path, strerror(e));
		outfile__abort(o);
		return -1;
	}
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	return 0;
}

void outfile__abort(struct outfile *o)
{
	if (o->f == stdout && !o->tmp) {
		fflush(stdout);	/* what was written stays written */
		memset(o, 0, sizeof(*o));
		o->fd = -1;
		return;
	}
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->path);
	memset(o, 0, sizeof(*o));
	o->fd = -1;
}
