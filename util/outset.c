// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "array.h"
#include "outfile.h"
#include "outset.h"

/* Written in place (outfile.c's open_special): stdout, a character device, a FIFO. */
static int in_place(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") ||
	       (!stat(path, &st) && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)));
}

const char *outset__add(struct outset *s, const char *path, struct ap_err *err)
{
	struct outset_file f = { 0 };
	struct stat st;
	size_t n = strlen(path);
	int fd;

	if (in_place(path))
		return path;
	if (!stat(path, &st) && S_ISBLK(st.st_mode)) {
		ap_errf(err, "%s: is a block device; refusing to write to it", path);
		return NULL;
	}
	if (ap_outfile__check_owner(path, err))
		return NULL;
	f.path = strdup(path);
	f.tmp = malloc(n + sizeof(".tmp.XXXXXX"));
	if (!f.path || !f.tmp || ap_grow(&s->v, &s->cap, s->n + 1, sizeof(*s->v))) {
		free(f.path);
		free(f.tmp);
		ap_err_nomem(err);
		return NULL;
	}
	memcpy(f.tmp, path, n);
	memcpy(f.tmp + n, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	fd = mkstemp(f.tmp);	/* O_CREAT|O_EXCL: never through a symlink */
	if (fd < 0) {
		ap_errk(err, AP_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
		free(f.path);
		free(f.tmp);
		return NULL;
	}
	close(fd);
	s->v[s->n++] = f;
	return f.tmp;
}

static void clear(struct outset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].path);
		free(s->v[i].tmp);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int outset__commit(struct outset *s, struct ap_err *err)
{
	int ret = 0;

	for (size_t i = 0; i < s->n; i++) {
		if (!ret && rename(s->v[i].tmp, s->v[i].path)) {
			ret = ap_errk(err, AP_ERR_IO, "%s: cannot rename into place: %s",
				      s->v[i].path, strerror(errno));
			continue;
		}
		if (ret)
			unlink(s->v[i].tmp);	/* the ones after a failed rename */
	}
	clear(s);
	return ret;
}

/* Each temporary's name in msg becomes its output's (a writer names the file it was given). */
static void name_outputs(const struct outset *s, struct ap_err *err)
{
	for (size_t i = 0; i < s->n; i++) {
		char *at = strstr(err->msg, s->v[i].tmp), buf[sizeof(err->msg)];

		if (!at)
			continue;
		snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - err->msg), err->msg, s->v[i].path,
			 at + strlen(s->v[i].tmp));
		memcpy(err->msg, buf, sizeof(buf));
	}
}

void outset__abort(struct outset *s, struct ap_err *err)
{
	if (err)
		name_outputs(s, err);
	for (size_t i = 0; i < s->n; i++)
		unlink(s->v[i].tmp);
	clear(s);
}
