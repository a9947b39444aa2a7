// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outfile.h"

int outfile__open(struct outfile *o, const char *path, struct ap_err *err)
{
	size_t n = strlen(path);

	memset(o, 0, sizeof(*o));
	o->fd = -1;
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
	/* mkstemp makes 0600; give outputs the usual umask-derived mode. */
	mode_t mask = umask(0);

	umask(mask);
	if (fchmod(o->fd, 0666 & ~mask) != 0) {
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

	if (fclose(o->f) != 0)
		bad = 1;
	o->f = NULL;
	o->fd = -1;
	if (bad || rename(o->tmp, o->path) != 0) {
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
