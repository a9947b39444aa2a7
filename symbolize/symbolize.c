// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "symbolize.h"
#include "cfi.h"
#include "elfimage.h"
#include "../jitdump/jitdump.h"
#include "../jitdump/unwind_info.h"
#include "perfmap.h"
#include "../perfdata/edit.h"
#include "../perfdata/perfdata.h"
#include "../util/array.h"
#include "../util/file.h"
#include "../util/outfile.h"
#include "../util/outset.h"

#define IMAGE_VADDR 0x1000 /* the ELF images' text address and file offset */

/* Names and offsets of one core, built once. */
struct core_syms {
	char **names;
	uint32_t *offsets;
};

static void core_syms_free(struct core_syms *cs, uint32_t n)
{
	for (uint32_t i = 0; cs && i < n; i++) {
		if (cs[i].names)
			free(cs[i].names[0]); /* one pool per core */
		free(cs[i].names);
		free(cs[i].offsets);
	}
	free(cs);
}

/* Two passes over the names: size the pool, then fill it. */
static int core_syms_build(struct core_syms *cs, const struct cwasm_module *m,
			   const struct sym_opts *o)
{
	size_t total = 1, used = 0;
	char buf[512], *pool;

	for (uint32_t i = 0; i < m->nfuncs; i++)
		total += strlen(symname__format(buf, sizeof(buf), m, i, o->names,
						o->prefix_core)) + 1;
	pool = malloc(total);
	cs->names = calloc(m->nfuncs + 1, sizeof(*cs->names));
	cs->offsets = calloc(m->nfuncs + 1, sizeof(*cs->offsets));
	if (!pool || !cs->names || !cs->offsets) {
		free(pool);
		return -1;
	}
	cs->names[0] = pool;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		size_t len = strlen(symname__format(buf, sizeof(buf), m, i, o->names,
						    o->prefix_core)) + 1;

		memcpy(pool + used, buf, len);
		cs->names[i] = pool + used;
		used += len;
		cs->offsets[i] = m->funcs[i].offset;
	}
	return 0;
}

static struct core_syms *all_core_syms(const struct attr_result *res, const struct sym_opts *o,
				       struct ap_err *err)
{
	struct core_syms *cs = calloc(res->ncores, sizeof(*cs));

	if (!cs)
		goto oom;
	for (uint32_t i = 0; i < res->ncores; i++)
		if (res->cores[i].nmappings && core_syms_build(&cs[i], res->cores[i].mod, o))
			goto oom;
	return cs;
oom:
	core_syms_free(cs, res->ncores);
	ap_err_nomem(err);
	return NULL;
}

int symbolize__want_prefix(const struct attr_result *res)
{
	uint32_t mapped = 0;

	for (uint32_t i = 0; i < res->ncores; i++)
		mapped += res->cores[i].nmappings > 0;
	return mapped > 1;
}

static int list_push(char ***list, uint32_t *n, const char *s)
{
	char **l = realloc(*list, (*n + 1) * sizeof(*l));

	if (!l)
		return -1;
	*list = l;
	l[*n] = strdup(s);
	if (!l[*n])
		return -1;
	(*n)++;
	return 0;
}

void symbolize__free_list(char **list, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

/* Distinct pids of the core mappings, in order of first appearance. */
static uint32_t *mapped_pids(const struct attr_result *res, uint32_t *n)
{
	uint32_t *pids = calloc(res->nmappings + 1, sizeof(*pids));

	*n = 0;
	if (!pids)
		return NULL;
	for (uint32_t i = 0; i < res->nmappings; i++) {
		uint32_t k = 0;

		if (res->mappings[i].core < 0)
			continue;
		while (k < *n && pids[k] != res->mappings[i].pid)
			k++;
		if (k == *n)
			pids[(*n)++] = res->mappings[i].pid;
	}
	return pids;
}

const char *sym_opts__write_name(const struct sym_opts *o, const char *path, struct ap_err *err)
{
	return o->outs ? outset__add(o->outs, path, err) : path;
}

/* ---- perf maps ---- */

/* path: the map's name; checked as such, written under o's name for it. */
static int perfmap_for_pid(const struct attr_result *res, const struct core_syms *cs,
			   uint32_t pid, const char *path, const struct sym_opts *o,
			   struct ap_err *err)
{
	struct perfmap_entry *ents;
	const char *name;
	size_t n = 0, cap = 0;
	int ret;

	if (perfmap__check(path, o->force, err))
		return -1;
	name = sym_opts__write_name(o, path, err);
	if (!name)
		return -1;

	for (uint32_t i = 0; i < res->nmappings; i++)
		if (res->mappings[i].pid == pid && res->mappings[i].core >= 0)
			cap += res->cores[res->mappings[i].core].mod->nfuncs;
	ents = calloc(cap + 1, sizeof(*ents));
	if (!ents)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < res->nmappings; i++) {
		const struct attr_mapping *am = &res->mappings[i];
		const struct cwasm_module *m;

		if (am->pid != pid || am->core < 0)
			continue;
		m = res->cores[am->core].mod;
		for (uint32_t f = 0; f < m->nfuncs; f++) {
			if (!m->funcs[f].size)
				continue;
			ents[n++] = (struct perfmap_entry){ am->start + m->funcs[f].offset,
							    m->funcs[f].size,
							    cs[am->core].names[f] };
		}
	}
	/* the name is ours now: path was checked above */
	ret = perfmap__write(name, (int)pid, ents, n, o->force || name != path, err);
	free(ents);
	return ret;
}

int symbolize__perfmaps(const struct attr_result *res, const struct sym_opts *o,
			const char *out, char ***written, uint32_t *nwritten, struct ap_err *err)
{
	struct core_syms *cs;
	uint32_t npids, *pids = mapped_pids(res, &npids);
	int ret = -1;

	if (!pids)
		return ap_err_nomem(err);
	if (out && npids > 1) {
		free(pids);
		ap_errf(err, "%s: one perf map, but %u processes mapped a core", out, npids);
		return ap_err_hint(err, AP_HINT_MAP_PER_PID);
	}
	cs = all_core_syms(res, o, err);
	if (!cs)
		goto out;
	for (uint32_t i = 0; i < npids; i++) {
		char path[PATH_MAX];

		if (out)
			snprintf(path, sizeof(path), "%s", out);
		else
			perfmap__default_path(path, sizeof(path), (int)pids[i]);
		if (perfmap_for_pid(res, cs, pids[i], path, o, err))
			goto out;
		if (list_push(written, nwritten, path)) {
			ap_err_nomem(err);
			goto out;
		}
	}
	ret = 0;
out:
	core_syms_free(cs, res->ncores);
	free(pids);
	return ret;
}

/* ---- records ---- */

int symbolize__clock_is_mono(struct session *s)
{
	struct perfdata *pd = session__data(s);
	size_t n = perfdata__nevsels(pd);
	int mono = n > 0;

	for (size_t i = 0; i < n; i++) {
		const struct perf_event_attr *a = &perfdata__evsel(pd, i)->attr;

		if (!a->use_clockid || a->clockid != CLOCK_MONOTONIC)
			mono = 0;
	}
	return mono;
}

/* The original MMAP/MMAP2 record of a mapping, read from the file again. */
static void *read_record(struct session *s, const struct attr_mapping *am, struct ap_err *err)
{
	void *rec;

	if (am->in_compressed) {
		ap_errf(err, "%s: the mapping record of pid %u at 0x%" PRIx64 " sits inside a"
			" compressed (-z) record, which cannot be edited", session__path(s), am->pid,
			am->start);
		ap_err_hint(err, AP_HINT_PERFMAP);
		return NULL;
	}
	rec = malloc(am->rec_size);
	if (!rec) {
		ap_err_nomem(err);
		return NULL;
	}
	if (perfdata__pread(session__data(s), rec, am->rec_size, am->file_offset, err)) {
		free(rec);
		return NULL;
	}
	return rec;
}

/* The sample_id trailer of an MMAP/MMAP2 record: the bytes after its name. */
static const uint8_t *record_trailer(const void *rec, uint32_t size, uint32_t *tlen)
{
	const struct perf_event_header *h = rec;
	const char *name;
	size_t at;

	if (h->type == PERF_RECORD_MMAP2) {
		at = offsetof(struct perf_record_mmap2, filename);
		name = ((const struct perf_record_mmap2 *)rec)->filename;
	} else {
		at = offsetof(struct perf_record_mmap, filename);
		name = ((const struct perf_record_mmap *)rec)->filename;
	}
	at += (strnlen(name, size - at) + 1 + 7) & ~(size_t)7;
	if (at > size)
		at = size;
	*tlen = size - (uint32_t)at;
	return (const uint8_t *)rec + at;
}

/*
 * A new MMAP2 record naming `file`, with the trailer of `orig`; build_id
 * (NULL: none) in place of device and inode, as perf record --buildid-mmap
 * writes it (docs/formats-perf.md "Build ids").
 */
static void *make_mmap2(const void *orig, uint32_t orig_size, uint32_t pid, uint32_t tid,
			uint64_t start, uint64_t len, uint64_t pgoff, const char *file,
			const uint8_t *build_id, uint32_t *size_out)
{
	uint32_t tlen;
	const uint8_t *trailer = record_trailer(orig, orig_size, &tlen);
	size_t name_len = (strlen(file) + 1 + 7) & ~(size_t)7;
	size_t size = offsetof(struct perf_record_mmap2, filename) + name_len + tlen;
	struct perf_record_mmap2 *r;

	if (size > 65535)
		return NULL;
	r = calloc(1, size);
	if (!r)
		return NULL;
	r->header.type = PERF_RECORD_MMAP2;
	r->header.misc = PERF_RECORD_MISC_USER;
	r->header.size = (uint16_t)size;
	r->pid = pid;
	r->tid = tid;
	r->start = start;
	r->len = len;
	r->pgoff = pgoff;
	r->prot = PROT_READ | PROT_EXEC;
	r->flags = MAP_PRIVATE;
	if (build_id) {
		r->header.misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		r->build_id_size = ELFIMAGE_BUILD_ID_SIZE;
		memcpy(r->build_id, build_id, ELFIMAGE_BUILD_ID_SIZE);
	}
	memcpy(r->filename, file, strlen(file));
	memcpy((uint8_t *)r + size - tlen, trailer, tlen);
	*size_out = (uint32_t)size;
	return r;
}

struct edits {
	struct pd_edit *e;
	void **recs;
	size_t n, cap_e, cap_recs;
};

static int edits_push(struct edits *ed, uint64_t off, uint32_t old_size, void *rec,
		      uint32_t size)
{
	if (ap_grow(&ed->e, &ed->cap_e, ed->n + 1, sizeof(*ed->e)) ||
	    ap_grow(&ed->recs, &ed->cap_recs, ed->n + 1, sizeof(*ed->recs)))
		return -1;
	ed->e[ed->n] = (struct pd_edit){ off, old_size, rec, size };
	ed->recs[ed->n++] = rec;
	return 0;
}

static void edits_free(struct edits *ed)
{
	for (size_t i = 0; i < ed->n; i++)
		free(ed->recs[i]);
	free(ed->recs);
	free(ed->e);
}

static int abs_dir(const char *dir, char *buf, size_t len, struct ap_err *err)
{
	char tmp[PATH_MAX];

	if (!realpath(dir, tmp))
		return ap_errf(err, "%s: %s", dir, strerror(errno));
	if (strlen(tmp) >= len)
		return ap_errf(err, "%s: path too long", dir);
	strcpy(buf, tmp);
	return 0;
}

static uint16_t elf_machine(const struct cwasm_module *m)
{
	if (m->target.arch == CWASM_ARCH_AARCH64)
		return 183; /* EM_AARCH64 */
	return 62;          /* EM_X86_64, also for the COFF 0x8664 tag */
}

/*
 * Everything the copy needs, checked before any file is written: a
 * file-mode recording, and no core mapping record inside a compressed one.
 */
static int check_editable(const char *perf_in, const struct attr_result *res,
			  struct ap_err *err)
{
	if (perfdata__check_editable(perf_in, res->truncated ? res->bytes_read : 0, err))
		return -1;
	for (uint32_t i = 0; i < res->nmappings; i++) {
		const struct attr_mapping *am = &res->mappings[i];

		if (am->core >= 0 && am->in_compressed) {
			ap_errf(err, "%s: the mapping record of pid %u at 0x%" PRIx64 " sits inside"
				" a compressed (-z) record, which cannot be edited", perf_in, am->pid,
				am->start);
			return ap_err_hint(err, AP_HINT_PERFMAP);
		}
	}
	return 0;
}

/*
 * A failed run leaves nothing behind: remove the files it wrote from
 * `first` on (written into place, without an output set; a set's
 * temporaries are its caller's to remove).
 */
static void unwrite(const struct sym_opts *o, char **written, uint32_t *nwritten,
		    uint32_t first)
{
	for (uint32_t i = first; i < *nwritten; i++) {
		if (!o->outs)
			unlink(written[i]);
		free(written[i]);
	}
	*nwritten = first;
}

/*
 * perf_out: perf_in with the edits (and app: NULL, or the feature section
 * to grow), under o's name for it; of a recording cut short (written only
 * with --force), its whole records and no feature sections.
 */
static int write_copy(const char *perf_in, const struct attr_result *res,
		      const struct sym_opts *o, const char *perf_out, const struct edits *ed,
		      const struct pd_feat_append *app, struct ap_err *err)
{
	const char *name = sym_opts__write_name(o, perf_out, err);

	return name ? perfdata__write_edited(perf_in, res->truncated ? res->bytes_read : 0, name,
					     ed->e, ed->n, app, err) : -1;
}

/* ---- jitdump ---- */

static int dump_for_pid(struct session *s, const struct attr_result *res,
			const struct core_syms *cs, struct unwind_table *const *uw, uint32_t pid,
			const char *dir, const struct sym_opts *o, struct edits *ed,
			char ***written, uint32_t *nwritten, struct ap_err *err)
{
	const struct attr_mapping *first = NULL;
	char path[PATH_MAX];
	const char *name;
	const char *perf_in = session__path(s);
	struct aotjit *j;
	uint32_t mach = 62, marker_size;
	void *orig, *marker;
	int e = 0;

	for (uint32_t i = 0; i < res->nmappings; i++)
		if (res->mappings[i].pid == pid && res->mappings[i].core >= 0 && !first)
			first = &res->mappings[i];
	if (!first)
		return 0;
	mach = elf_machine(res->cores[first->core].mod);
	if ((size_t)snprintf(path, sizeof(path), "%s/jit-%u.dump", dir, pid) >= sizeof(path))
		return ap_errf(err, "%s: path too long", dir);
	/* an earlier run's dump of ours is replaced; the open never follows a link */
	if (ap_outfile__check_owner(path, err))
		return -1;
	name = sym_opts__write_name(o, path, err);
	if (!name)
		return -1;
	/* the open creates the file afresh (O_EXCL): an earlier one, or the set's placeholder, goes */
	if (unlink(name) && errno != ENOENT)
		return ap_errf(err, "%s: %s", path, strerror(errno));
	j = aotjit_open_file(name, pid, mach, first->time, &e);
	if (!j)
		return ap_errf(err, "%s: %s", path, strerror(-e));
	for (uint32_t i = 0; i < res->nmappings; i++) {
		const struct attr_mapping *am = &res->mappings[i];
		const struct cwasm_module *m;

		if (am->pid != pid || am->core < 0)
			continue;
		m = res->cores[am->core].mod;
		/* after the mapping, before its first sample */
		if (am->samples && am->first_sample_time <= am->time + 1) {
			aotjit_close(j);
			unlink(name);
			ap_errf(err, "%s: pid %u: a sample at the mapping's own time leaves no"
				" room for the code-load records", perf_in, pid);
			return ap_err_hint(err, AP_HINT_DIRECT);
		}
		e = aotjit_register_core_rules(j, am->start, m->text, m->text_size,
					       cs[am->core].offsets, m->nfuncs,
					       (const char *const *)cs[am->core].names, NULL,
					       am->time + 1, uw[am->core]);
		if (e) {
			aotjit_close(j);
			unlink(name);
			return ap_errf(err, "%s: %s", path, strerror(-e));
		}
	}
	e = aotjit_close(j);
	/* as private as the recording it describes (perf writes 0600) */
	if (!e && chmod(name, outfile__mode_of(perf_in)))
		e = -errno;
	if (e) {
		unlink(name);
		return ap_errf(err, "%s: %s", path, strerror(-e));
	}
	if (list_push(written, nwritten, path)) {
		unlink(name);
		return ap_err_nomem(err);
	}
	/* the marker perf inject --jit looks for, right after the first mapping */
	orig = read_record(s, first, err);
	if (!orig)
		return -1;
	marker = make_mmap2(orig, first->rec_size, pid, first->tid, first->start, 4096, 0, path,
			    NULL, &marker_size);
	free(orig);
	if (!marker || edits_push(ed, first->file_offset + first->rec_size, 0, marker,
				  marker_size)) {
		free(marker);
		return ap_err_nomem(err);
	}
	return 0;
}

int symbolize__jitdump(struct session *s, const struct attr_result *res,
		       const struct sym_opts *o, const char *perf_out, char ***written,
		       uint32_t *nwritten, struct ap_err *err)
{
	const char *perf_in = session__path(s);
	struct edits ed = { 0 };
	struct core_syms *cs = NULL;
	struct unwind_table **uw = NULL;
	char dir[PATH_MAX];
	uint32_t npids = 0, *pids = NULL, first = *nwritten;
	int ret = -1;

	if (abs_dir(o->dir, dir, sizeof(dir), err) || check_editable(perf_in, res, err))
		return -1;
	cs = all_core_syms(res, o, err);
	pids = mapped_pids(res, &npids);
	uw = symcfi__tables(res, err);
	if (!cs || !pids || !uw) {
		if (cs && pids)
			goto out;	/* err says why */
		ap_err_nomem(err);
		goto out;
	}
	for (uint32_t i = 0; i < npids; i++)
		if (dump_for_pid(s, res, cs, uw, pids[i], dir, o, &ed, written, nwritten, err))
			goto out;
	ret = write_copy(perf_in, res, o, perf_out, &ed, NULL, err);
out:
	if (ret)
		unwrite(o, *written, nwritten, first);
	symcfi__tables_delete(uw, res->ncores);
	edits_free(&ed);
	core_syms_free(cs, res->ncores);
	free(pids);
	return ret;
}

/* ---- ELF images ---- */

static int core_image_path(const struct attr_result *res, uint32_t core, const char *dir,
			   char *buf, size_t len)
{
	char tmp[PATH_MAX], *base, *dot;

	snprintf(tmp, sizeof(tmp), "%s", res->cores[core].mod->path);
	base = basename(tmp);
	dot = strstr(base, ".cwasm");
	if (dot)
		*dot = '\0';
	return (size_t)snprintf(buf, len, "%s/%s.core%u.aotperf.so", dir, base, core) >= len
		       ? -1 : 0;
}

/* Core C's image, its CFI placed where all of its mappings find room. */
static int write_core_image(const char *path, const struct attr_result *res, uint32_t c,
			    const uint32_t *offsets, const char *const *names,
			    struct symcfi_maps *maps, struct symcfi_place *place,
			    uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE], struct ap_err *err)
{
	const struct cwasm_module *m = res->cores[c].mod;
	uint64_t *starts = calloc(res->nmappings + 1, sizeof(*starts));
	uint32_t n = 0;
	int ret;

	if (!starts)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < res->nmappings; i++)
		if (res->mappings[i].core == (int)c)
			starts[n++] = res->mappings[i].start;
	ret = symcfi__write_image(path, m, elf_machine(m), offsets, names, maps, starts, n,
				  place, build_id, err);
	free(starts);
	return ret;
}

/*
 * The images' entries for the copy's HEADER_BUILD_ID, under the names its
 * mapping records give, so that perf finds each image by its build id in
 * its cache once the image's path is gone (docs/formats-perf.md "Build
 * ids").
 */
static int build_id_entries(const struct attr_result *res, char *const *paths,
			    const uint8_t (*ids)[ELFIMAGE_BUILD_ID_SIZE],
			    struct pd_feat_append *app, struct ap_err *err)
{
	size_t len = 0, n;
	uint8_t *buf;

	for (uint32_t c = 0; c < res->ncores; c++)
		if (paths[c])
			len += pd_build_id__entry(NULL, 0, ids[c], ELFIMAGE_BUILD_ID_SIZE, paths[c]);
	buf = malloc(len ? len : 1);
	if (!buf)
		return ap_err_nomem(err);
	*app = (struct pd_feat_append){ PD_FEAT_BUILD_ID, buf, 0 };
	for (uint32_t c = 0; c < res->ncores; c++) {
		if (!paths[c])
			continue;
		n = pd_build_id__entry(buf + app->len, len - app->len, ids[c],
				       ELFIMAGE_BUILD_ID_SIZE, paths[c]);
		if (!n) {
			free(buf);
			app->buf = NULL;
			return ap_errf(err, "%s: path too long for perf's build-id table",
				       paths[c]);
		}
		app->len += n;
	}
	return 0;
}

int symbolize__elf(struct session *s, const struct attr_result *res,
		   const struct sym_opts *o, const char *perf_out, char ***written,
		   uint32_t *nwritten, uint8_t **ids_out, struct ap_err *err)
{
	const char *perf_in = session__path(s);
	struct edits ed = { 0 };
	struct core_syms *cs = NULL;
	struct symcfi_maps *own = NULL;
	struct symcfi_maps *maps = o->maps;
	struct symcfi_place *place = NULL;
	struct pd_feat_append app = { 0 };
	uint8_t (*ids)[ELFIMAGE_BUILD_ID_SIZE] = NULL;
	char dir[PATH_MAX], **paths = NULL;
	uint32_t first = *nwritten;
	int ret = -1;

	if (abs_dir(o->dir, dir, sizeof(dir), err) || check_editable(perf_in, res, err))
		return -1;
	cs = all_core_syms(res, o, err);
	paths = calloc(res->ncores, sizeof(*paths));
	place = calloc(res->ncores, sizeof(*place));
	ids = calloc(res->ncores + 1, sizeof(*ids));
	if (!cs || !paths || !place || !ids) {
		ap_err_nomem(err);
		goto out;
	}
	for (uint32_t c = 0; c < res->ncores; c++) {
		char path[PATH_MAX];
		const char *name;

		if (!res->cores[c].nmappings)
			continue;
		if (core_image_path(res, c, dir, path, sizeof(path))) {
			ap_errf(err, "%s: path too long", dir);
			goto out;
		}
		/* the caller's read collected them, or a pass of their own */
		if (!maps && symcfi__maps_read(s, &own, err))
			goto out;
		maps = maps ? maps : own;
		/* written under o's name for it; the copy names the image's own */
		name = sym_opts__write_name(o, path, err);
		if (!name || write_core_image(name, res, c, cs[c].offsets,
					      (const char *const *)cs[c].names, maps, &place[c],
					      ids[c], err))
			goto out;
		/* as private as the recording that names it (perf writes 0600) */
		if (chmod(name, outfile__mode_of(perf_in))) {
			ap_errf(err, "%s: %s", path, strerror(errno));
			unlink(name);
			goto out;
		}
		paths[c] = strdup(path);
		if (!paths[c] || list_push(written, nwritten, path)) {
			unlink(name);
			ap_err_nomem(err);
			goto out;
		}
	}
	for (uint32_t i = 0; i < res->nmappings; i++) {
		const struct attr_mapping *am = &res->mappings[i];
		const struct symcfi_place *pl;
		uint32_t size, old_size = am->rec_size, cfi_size = 0;
		void *orig, *rec, *cfi_rec = NULL;

		if (am->core < 0)
			continue;
		orig = read_record(s, am, err);
		if (!orig)
			goto out;
		rec = make_mmap2(orig, am->rec_size, am->pid, am->tid, am->start, am->len,
				 IMAGE_VADDR, paths[am->core], ids[am->core], &size);
		/* the image's CFI, mapped where perf's unwinder looks for it */
		pl = &place[am->core];
		if (pl->map_off)
			cfi_rec = make_mmap2(orig, am->rec_size, am->pid, am->tid,
					     am->start + pl->map_off, pl->len, pl->pgoff,
					     paths[am->core], ids[am->core], &cfi_size);
		free(orig);
		if (pl->map_off && (!cfi_rec || edits_push(&ed, am->file_offset + am->rec_size, 0,
							    cfi_rec, cfi_size))) {
			free(cfi_rec);
			free(rec);
			ap_err_nomem(err);
			goto out;
		}
		/* pieces of one kernel-merged record: the first replaces it, the rest join it */
		for (uint32_t k = 0; k < i; k++)
			if (res->mappings[k].core >= 0 &&
			    res->mappings[k].file_offset == am->file_offset)
				old_size = 0;
		if (!rec || edits_push(&ed, am->file_offset, old_size, rec, size)) {
			free(rec);
			ap_err_nomem(err);
			goto out;
		}
	}
	if (build_id_entries(res, paths, (const uint8_t (*)[ELFIMAGE_BUILD_ID_SIZE])ids, &app,
			     err))
		goto out;
	ret = write_copy(perf_in, res, o, perf_out, &ed, &app, err);
	if (!ret && ids_out) {
		uint32_t k = 0;

		for (uint32_t c = 0; c < res->ncores; c++)
			if (paths[c])
				memmove(ids[k++], ids[c], ELFIMAGE_BUILD_ID_SIZE);
		*ids_out = (uint8_t *)ids;
		ids = NULL;
	}
out:
	if (ret)
		unwrite(o, *written, nwritten, first);
	for (uint32_t c = 0; paths && c < res->ncores; c++)
		free(paths[c]);
	free((void *)app.buf);
	free(ids);
	free(paths);
	free(place);
	symcfi__maps_delete(own);
	edits_free(&ed);
	core_syms_free(cs, res->ncores);
	return ret;
}
