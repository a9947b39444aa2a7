// SPDX-License-Identifier: MIT
/*
 * Scratch files for fuzz targets whose entry points take a path: one
 * private folder per process (mkdtemp under $TMPDIR), files written with
 * O_NOFOLLOW, everything removed at exit.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"

static char scratch[4096];
static char path[4096 + 256];

/* The files of dir, then dir; one level of subfolders. */
static void remove_tree(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[sizeof(scratch) + 512];

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (unlink(p) && depth < 1)
			remove_tree(p, depth + 1);
	}
	closedir(d);
	rmdir(dir);
}

static void scratch_remove(void)
{
	remove_tree(scratch, 0);
}

const char *fuzz_dir(void)
{
	const char *t = getenv("TMPDIR");

	if (scratch[0])
		return scratch;
	snprintf(scratch, sizeof(scratch), "%s/aotperf-fuzz.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(scratch)) {
		perror(scratch);
		abort();
	}
	atexit(scratch_remove);
	return scratch;
}

static void write_all(const char *p, const void *data, size_t size)
{
	const char *c = data;
	int fd;

	unlink(p);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(p);
		abort();
	}
	while (size) {
		ssize_t w = write(fd, c, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror(p);
			abort();
		}
		c += w;
		size -= (size_t)w;
	}
	close(fd);
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	write_all(path, data, size);
	return path;
}

void fuzz_write(const char *dir, const char *name, const void *data, size_t size)
{
	char p[4096 + 256];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	write_all(p, data, size);
}

int fuzz_copy_in(const char *src, const char *name)
{
	FILE *f = fopen(src, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	fuzz_file(name, buf, (size_t)n);
	free(buf);
	return 0;
}
