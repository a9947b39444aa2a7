// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inject.h"
#include "buildid_cache.h"
#include "elfimage.h"
#include "../util/outfile.h"
#include "../util/progress.h"
#include "../util/run.h"

/*
 * Files go into dir under fixed names: it must be a folder this user (or
 * root) owns, and one others may write to only when sticky (as /tmp is),
 * so nobody else can swap a file in it.
 */
static int check_dir(const char *dir, struct ap_err *err)
{
	struct stat st;

	if (stat(dir, &st))
		return ap_errk(err, AP_ERR_IO, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ap_errf(err, "%s: not a folder", dir);
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return ap_errf(err, "%s: belongs to another user (uid %u); refusing to write"
			       " into it", dir, (unsigned)st.st_uid);
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX))
		return ap_errf(err, "%s: others may write into it; refusing to write there", dir);
	return 0;
}

int symbolize__dir(const char *dir, const char *out, char *buf, size_t len, int *created,
		   struct ap_err *err)
{
	*created = 0;
	/* a recording for perf to read: never a device or FIFO (nor OUT.d beside one) */
	if (out && ap_outfile__check_owner(out, err))
		return -1;
	if (dir) {
		if ((size_t)snprintf(buf, len, "%s", dir) >= len)
			return ap_errf(err, "%s: path too long", dir);
	} else if ((size_t)snprintf(buf, len, "%s.d", out) >= len) {
		return ap_errf(err, "%s: path too long", out);
	}
	if (!mkdir(buf, 0755))
		*created = 1;
	else if (errno != EEXIST)
		return ap_errk(err, AP_ERR_IO, "%s: %s", buf, strerror(errno));
	if (check_dir(buf, err)) {
		if (*created)
			rmdir(buf);
		*created = 0;
		return -1;
	}
	return 0;
}

/*
 * perf inject --jit's progress: it writes one jitted-<pid>-<n>.so per
 * function next to the dumps, so the files that appeared in dir since it
 * started are how far it is.
 */
struct inject_progress {
	struct progress *p;
	const char *dir;
	uint64_t before;	/* jitted files already there */
};

static uint64_t count_jitted(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint64_t n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, "jitted-", 7);
	closedir(d);
	return n;
}

static void inject_tick(void *arg)
{
	struct inject_progress *ip = arg;
	uint64_t now = count_jitted(ip->dir);

	progress__update(ip->p, now > ip->before ? now - ip->before : 0);
}

/* Functions the dumps describe: perf inject writes one file for each. */
static uint64_t code_loads(const struct attr_result *res)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < res->nmappings; i++)
		if (res->mappings[i].core >= 0)
			n += res->cores[res->mappings[i].core].mod->nfuncs;
	return n;
}

/*
 * perf inject --jit into a fresh temporary file next to out (mkstemp: no
 * symlink is followed), renamed into place when perf succeeded.
 */
static int run_perf_inject(const char *perf, const char *in, const char *out,
			   struct inject_progress *ip, struct ap_err *err)
{
	char tmp[PATH_MAX], why[300];
	const char *argv[] = { perf, "inject", "--jit", "-i", in, "-o", tmp, NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1 };
	int fd;

	if (ip && progress__enabled(ip->p)) {
		c.tick = inject_tick;
		c.tick_arg = ip;
	}

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", out) >= sizeof(tmp))
		return ap_errf(err, "%s: path too long", out);
	if (ap_outfile__check_owner(out, err))
		return -1;
	fd = mkstemp(tmp);
	if (fd < 0)
		return ap_errk(err, AP_ERR_IO, "%s: cannot create: %s", out, strerror(errno));
	close(fd);
	if (ap_child__run(&c, err)) {
		unlink(tmp);
		return -1;
	}
	if (c.status) {
		ap_child__describe(&c, why, sizeof(why));
		unlink(tmp);
		return ap_errk(err, AP_ERR_IO, "perf inject --jit -i %s failed (%s)", in, why);
	}
	/* as private as the recording it comes from */
	if (chmod(tmp, outfile__mode_of(in)) || rename(tmp, out)) {
		int e = errno;

		unlink(tmp);
		return ap_errk(err, AP_ERR_IO, "%s: %s", out, strerror(e));
	}
	return 0;
}

void symbolize__cache_images(const char *perf, struct sym_inject_result *r)
{
	struct ap_err e = { 0 };

	if (!r->elf)
		return;		/* perf inject --jit caches its own files */
	if (!perf) {
		snprintf(r->cache_why, sizeof(r->cache_why), "perf was not found");
		return;
	}
	if (bidcache__dir(perf, r->cache_dir, sizeof(r->cache_dir), &e))
		goto fail;
	for (uint32_t i = 0; i < r->nimages; i++)
		if (bidcache__add(perf, r->cache_dir, r->images[i], r->ids + i * ELFIMAGE_BUILD_ID_SIZE,
				  ELFIMAGE_BUILD_ID_SIZE, &e))
			goto fail;
	r->cached = 1;
	return;
fail:
	snprintf(r->cache_why, sizeof(r->cache_why), "%s", e.msg);
}

int symbolize__inject(struct session *s, const struct attr_result *res,
		      const struct sym_inject_opts *o, const char *perf_out,
		      struct sym_inject_result *r, struct ap_err *err)
{
	struct sym_opts feed = o->sym;	/* the dumps and marked copy: perf inject's input only */
	const char *perf_in = session__path(s);
	char marked[PATH_MAX], **dumps = NULL;
	const char *out;
	uint32_t ndumps = 0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->mono = symbolize__clock_is_mono(s);
	if (o->jitdump && !r->mono) {
		/* perf inject --jit would refuse the dump: say so, never switch routes */
		ap_errf(err, "%s: not recorded with -k mono: perf inject --jit would refuse its"
			" jitdump", perf_in);
		return ap_err_hint(err, AP_HINT_NO_MONO);
	}
	if (!o->jitdump) {
		r->elf = 1;
		return symbolize__elf(s, res, &o->sym, perf_out, &r->images, &r->nimages,
				      &r->ids, err);
	}
	if (!o->perf) {
		ap_errf(err, "%s: perf inject --jit turns its jitdumps into ELF files, but perf"
			" was not found", perf_in);
		return ap_err_hint(err, AP_HINT_DIRECT);
	}
	if ((size_t)snprintf(marked, sizeof(marked), "%s/marked.%d.data", o->sym.dir,
			     (int)getpid()) >= sizeof(marked))
		return ap_errf(err, "%s: path too long", o->sym.dir);
	/* at their own names: the marked copy names the dumps perf inject reads */
	feed.outs = NULL;
	ret = symbolize__jitdump(s, res, &feed, marked, &dumps, &ndumps, err);
	out = ret ? NULL : sym_opts__write_name(&o->sym, perf_out, err);
	if (!out) {
		ret = -1;
	} else if (o->progress) {
		struct inject_progress ip = { o->progress, o->sym.dir, count_jitted(o->sym.dir) };

		progress__phase(o->progress, "perf inject --jit", code_loads(res), "functions");
		ret = run_perf_inject(o->perf, marked, out, &ip, err);
		progress__clear(o->progress);
	} else {
		ret = run_perf_inject(o->perf, marked, out, NULL, err);
	}
	/* the marked copy and the dumps were only for perf inject */
	unlink(marked);
	for (uint32_t i = 0; i < ndumps; i++)
		unlink(dumps[i]);
	symbolize__free_list(dumps, ndumps);
	return ret;
}

void sym_inject_result__exit(struct sym_inject_result *r)
{
	symbolize__free_list(r->images, r->nimages);
	free(r->ids);
	r->images = NULL;
	r->ids = NULL;
	r->nimages = 0;
}
