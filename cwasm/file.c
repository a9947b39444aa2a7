// SPDX-License-Identifier: MIT
/* Whole-file reads of regular files only (file.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int cwasm_file__read(const char *path, size_t max, const char *what, uint8_t **out,
		     size_t *len, struct ap_err *err)
{
	size_t size, got = 0;
	struct stat st;
	uint8_t *buf;
	ssize_t n;
	int fd, e;

	*out = NULL;
	*len = 0;
	/* O_NONBLOCK: opening a FIFO with no writer must not hang */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ap_errk(err, AP_ERR_IO, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return ap_errk(err, AP_ERR_IO, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return ap_errf(err, "%s: %s, not a regular file", path, file_kind(st.st_mode));
	}
	if (st.st_size < 0 || (uint64_t)st.st_size > max) {
		close(fd);
		return ap_errf(err, "%s: %lld bytes, more than %s may be (%zu)", path,
			       (long long)st.st_size, what, max);
	}
	size = (size_t)st.st_size;
	buf = malloc(size ? size : 1);
	if (!buf) {
		close(fd);
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", path);
	}
	/* what fstat saw: a file that grows meanwhile is read as it was */
	while (got < size) {
		n = read(fd, buf + got, size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			free(buf);
			close(fd);
			return ap_errk(err, AP_ERR_IO, "%s: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	*out = buf;
	*len = got;
	return 0;
}
