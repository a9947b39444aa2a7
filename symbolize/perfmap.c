// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../jitdump/jitdump.h"
#include "perfmap.h"
#include "../util/file.h"
#include "../util/outfile.h"

int perfmap__default_path(char *buf, size_t len, int pid)
{
	int n = snprintf(buf, len, "/tmp/perf-%d.map", pid);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Does the open file start with our marker line? */
static int starts_with_marker(int fd)
{
	char line[sizeof(PERFMAP_MARKER) + 1];
	size_t want = sizeof(line), got = 0;

	while (got < want) {
		ssize_t n = read(fd, line + got, want - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got == want &&
	       !memcmp(line, PERFMAP_MARKER "\n", sizeof(PERFMAP_MARKER));
}

/*
 * Classify an existing regular file st (from lstat) at path. The open
 * refuses a symlink and anything but a regular file, never blocks, and the
 * inode is checked again, so a file swapped in after the lstat is never
 * followed or blocked on.
 */
static int regular_is_ours(const char *path, const struct stat *st,
			   struct ap_err *err)
{
	struct ap_file f;
	int ours;

	if (st->st_uid != geteuid())
		return 0;
	if (ap_file__open(&f, path, AP_FILE_NOFOLLOW, err))
		return -1;
	if (f.id.dev != st->st_dev || f.id.ino != st->st_ino) {
		ap_file__close(&f);
		return ap_errf(err, "%s: changed while being checked, refusing it",
			       path);
	}
	ours = starts_with_marker(f.fd);
	ap_file__close(&f);
	return ours;
}

int perfmap__check(const char *path, int force, struct ap_err *err)
{
	struct stat st;
	int ours;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return ap_errf(err, "%s: %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return ap_errf(err, "%s: is a symlink, refusing to follow it", path);
	if (!S_ISREG(st.st_mode))
		return ap_errf(err, "%s: not a regular file, refusing to replace it",
			       path);
	/* /tmp is shared: another user's map stays, --force or not */
	if (ap_outfile__check_owner(path, err))
		return -1;
	ours = regular_is_ours(path, &st, err);
	if (ours < 0)
		return -1;
	if (!ours && !force) {
		ap_errf(err, "%s: exists and was not written by aotperf; refusing to replace it",
			path);
		return ap_err_hint(err, AP_HINT_FORCE);
	}
	return 0;
}

int perfmap__is_ours(const char *path, struct ap_err *err)
{
	struct stat st;

	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return ap_errf(err, "%s: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	return regular_is_ours(path, &st, err);
}

static void write_entry(FILE *f, const struct perfmap_entry *e)
{
	char name[AOTJIT_NAME_MAX];

	/* An empty name would make perf skip the line. */
	if (!e->name || !aotjit_sanitize_name(name, sizeof(name), e->name,
					      SIZE_MAX))
		strcpy(name, "_");
	fprintf(f, "%" PRIx64 " %" PRIx64 " %s\n", e->start, e->size, name);
}

int perfmap__write(const char *path, int pid, const struct perfmap_entry *ents,
		   size_t nents, int force, struct ap_err *err)
{
	char def[64];
	struct outfile o;
	size_t i;

	if (!path) {
		if (perfmap__default_path(def, sizeof(def), pid))
			return ap_errf(err, "perf map: bad pid %d", pid);
		path = def;
	}
	if (nents && !ents)
		return ap_errf(err, "%s: no entries given", path);
	if (perfmap__check(path, force, err))
		return -1;
	if (outfile__open(&o, path, err))
		return -1;
	fprintf(o.f, "%s\n", PERFMAP_MARKER);
	for (i = 0; i < nents; i++)
		write_entry(o.f, &ents[i]);
	return outfile__commit(&o, err);
}
