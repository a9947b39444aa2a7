// SPDX-License-Identifier: MIT
/* Opening and reading input files (rules in file.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "array.h"
#include "file.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return strerror(EISDIR);	/* "Is a directory", as open(2) callers know it */
	if (S_ISFIFO(m))
		return "is a FIFO or pipe, not a regular file";
	if (S_ISCHR(m))
		return "is a character device, not a regular file";
	if (S_ISBLK(m))
		return "is a block device, not a regular file";
	if (S_ISSOCK(m))
		return "is a socket, not a regular file";
	return "is not a regular file";
}

static int take(struct ap_file *f, unsigned flags, struct ap_err *err)
{
	struct stat st;

	if (fstat(f->fd, &st))
		return ap_errk(err, AP_ERR_IO, "%s: %s", f->path, strerror(errno));
	f->id = (struct ap_file_id){ st.st_dev, st.st_ino, 1 };
	if (S_ISREG(st.st_mode)) {
		f->size = (uint64_t)st.st_size;
		return 0;
	}
	if (!(flags & AP_FILE_STREAM) || S_ISDIR(st.st_mode))
		return ap_errf(err, "%s: %s", f->path, kind_of(st.st_mode));
	f->stream = 1;
	/* Opened without blocking; a stream is then read as usual. */
	if (f->own_fd) {
		int fl = fcntl(f->fd, F_GETFL);

		if (fl < 0 || fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
			return ap_errk(err, AP_ERR_IO, "%s: %s", f->path, strerror(errno));
	}
	return 0;
}

int ap_file__open(struct ap_file *f, const char *path, unsigned flags, struct ap_err *err)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->path = path;
	if ((flags & AP_FILE_STREAM) && !strcmp(path, "-")) {
		f->fd = STDIN_FILENO;
		f->path = "<stdin>";
	} else {
		if (flags & AP_FILE_NOFOLLOW)
			oflags |= O_NOFOLLOW;
		f->fd = open(path, oflags);
		if (f->fd < 0) {
			int e = errno;

			if (e == ELOOP && (flags & AP_FILE_NOFOLLOW))
				return ap_errf(err, "%s: is a symlink, refusing to follow it", path);
			return ap_errk(err, e == ENOMEM ? AP_ERR_NOMEM : AP_ERR_INPUT, "%s: %s", path,
				       strerror(e));
		}
		f->own_fd = 1;
	}
	if (take(f, flags, err)) {
		ap_file__close(f);
		return -1;
	}
	return 0;
}

void ap_file__close(struct ap_file *f)
{
	if (f->own_fd && f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->own_fd = 0;
}

int ap_file__read_rest(struct ap_file *f, size_t max, char **buf, size_t *len,
		       struct ap_err *err)
{
	size_t cap = 0, n = 0, want = f->size && f->size < max ? (size_t)f->size + 1 : 65536;
	char *b = NULL;

	*buf = NULL;
	*len = 0;
	for (;;) {
		ssize_t got;

		if (n + 1 >= cap && ap_grow(&b, &cap, n + 2 > want ? n + 2 : want, 1)) {
			free(b);
			return ap_err_nomem(err);
		}
		got = read(f->fd, b + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(b);
			return ap_errk(err, AP_ERR_IO, "%s: read: %s", f->path, strerror(e));
		}
		if (!got)
			break;
		n += (size_t)got;
		if (n > max) {
			free(b);
			return ap_errf(err, "%s: larger than %zu bytes", f->path, max);
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

int ap_file__read_all(const char *path, unsigned flags, size_t max, char **buf, size_t *len,
		      struct ap_file_id *id, struct ap_err *err)
{
	struct ap_file f;
	int ret;

	*buf = NULL;
	*len = 0;
	if (ap_file__open(&f, path, flags, err))
		return -1;
	if (f.size > max) {
		ap_file__close(&f);
		return ap_errf(err, "%s: larger than %zu bytes", f.path, max);
	}
	ret = ap_file__read_rest(&f, max, buf, len, err);
	if (!ret && id)
		*id = f.id;
	ap_file__close(&f);
	return ret;
}

int ap_file__pread(const struct ap_file *f, void *buf, size_t len, uint64_t off,
		   struct ap_err *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(f->fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return ap_errk(err, AP_ERR_IO, "%s: read at %" PRIu64 ": %s", f->path, off,
				       strerror(errno));
		if (!n)
			return ap_errf(err, "%s: ends before offset %" PRIu64, f->path,
				       off + len);
		done += (size_t)n;
	}
	return 0;
}

int ap_file_id__of(const char *path, struct ap_file_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st))
		return -1;
	*id = (struct ap_file_id){ st.st_dev, st.st_ino, 1 };
	return 0;
}

int ap_file_id__same(const struct ap_file_id *a, const struct ap_file_id *b)
{
	return a->valid && b->valid && a->dev == b->dev && a->ino == b->ino;
}

int ap_inputs__add(struct ap_input **list, size_t *n, size_t *cap, const char *path)
{
	struct ap_input in = { .name = path };

	if (ap_file_id__of(path, &in.id))
		return 0;	/* nothing there: nothing to protect */
	return ap_push(list, n, cap, &in, sizeof(in));
}

int ap_file__check_output(const char *out, const struct ap_input *in, size_t n,
			  struct ap_err *err)
{
	struct ap_file_id o;

	if (!strcmp(out, "-"))
		return 0;	/* stdout */
	if (ap_file_id__of(out, &o))
		return 0;	/* does not exist yet: cannot be an input */
	for (size_t i = 0; i < n; i++)
		if (ap_file_id__same(&o, &in[i].id))
			return ap_errf(err, "%s: is the input %s: refusing to overwrite it", out,
				       in[i].name ? in[i].name : "file");
	return 0;
}
