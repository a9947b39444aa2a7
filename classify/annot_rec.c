// SPDX-License-Identifier: MIT
/* One symbol's listing from a symbolized recording, without perf (annot_rec.h). */
#include <elf.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annot_rec.h"
#include "../perfdata/perfdata.h"
#include "../util/array.h"
#include "../util/elffuncs.h"
#include "../util/file.h"

#define AR_MAX_CODE	(64u << 20)	/* bytes of one symbol we read */
#define AR_FORK_DEPTH	16		/* processes forked from processes */

/* A file the recording maps executable; has: it holds the symbol. */
struct ar_file {
	char *name;		/* as recorded */
	char *path;		/* where it was read */
	int has;
	uint16_t machine;
	uint64_t vaddr, size;	/* the symbol in the file's addresses */
	uint8_t *bytes;
	struct elf_load *loads;
	size_t nloads;
	uint64_t *off_samples;	/* [size] */
	uint64_t samples;
};

struct ar_map {
	uint32_t pid;
	uint64_t time;		/* of the record; 0 without sample_id_all */
	uint64_t start, end, pgoff;
	int64_t file;		/* index into files, -1: holds not the symbol */
};

struct ar_fork {
	uint32_t child, parent;
};

struct ar_state {
	const char *symbol;
	const char *const *dirs;
	struct ar_file *files;
	size_t nfiles, cap_files;
	struct ar_map *maps;
	size_t nmaps, cap_maps;
	size_t *targets;	/* maps of files that hold the symbol */
	size_t ntargets, cap_targets;
	struct ar_fork *forks;
	size_t nforks, cap_forks;
};

static int open_named(const struct ar_state *st, const char *name, struct ap_file *f, char **path)
{
	char tmp[PATH_MAX], cand[PATH_MAX];
	struct ap_err err;
	const char *base;

	if (!ap_file__open(f, name, 0, &err))
		return (*path = strdup(name)) ? 0 : -1;
	snprintf(tmp, sizeof(tmp), "%s", name);
	base = basename(tmp);
	for (size_t i = 0; st->dirs && st->dirs[i]; i++) {
		if ((size_t)snprintf(cand, sizeof(cand), "%s/%s", st->dirs[i], base) >= sizeof(cand))
			continue;
		if (!ap_file__open(f, cand, 0, &err))
			return (*path = strdup(cand)) ? 0 : -1;
	}
	return 1;
}

/* Has f's ELF file the symbol? Then its place and bytes. 0, or -1 out of memory. */
static int read_symbol(const struct ar_state *st, struct ar_file *af, struct ap_file *f, Elf *e)
{
	struct elf_func *fns = NULL;
	GElf_Ehdr eh;
	size_t n = 0;
	int ret = 0;

	if (!gelf_getehdr(e, &eh))
		return 0;
	if (elf_funcs__read(e, 0, &fns, &n) || elf_loads__read(e, &af->loads, &af->nloads)) {
		free(fns);
		return -1;
	}
	for (size_t i = 0; i < n && !af->has; i++) {
		if (strcmp(fns[i].name, st->symbol) || !fns[i].size || fns[i].size > AR_MAX_CODE)
			continue;
		for (size_t k = 0; k < af->nloads; k++) {
			const struct elf_load *l = &af->loads[k];
			struct ap_err err;

			if (fns[i].value < l->vaddr || fns[i].value + fns[i].size > l->vaddr + l->size)
				continue;
			af->bytes = malloc(fns[i].size);
			af->off_samples = calloc(fns[i].size, sizeof(uint64_t));
			if (!af->bytes || !af->off_samples) {
				ret = -1;
				break;
			}
			if (ap_file__pread(f, af->bytes, fns[i].size,
					   fns[i].value - l->vaddr + l->off, &err))
				break;	/* a short file: not this one */
			af->has = 1;
			af->machine = eh.e_machine;
			af->vaddr = fns[i].value;
			af->size = fns[i].size;
			break;
		}
	}
	free(fns);
	return ret;
}

/* The index of the file named name, read on first sight; -1 out of memory. */
static int64_t file_of(struct ar_state *st, const char *name)
{
	struct ar_file *af;
	struct ap_file f;
	int ret = 0;
	Elf *e;

	for (size_t i = 0; i < st->nfiles; i++)
		if (!strcmp(st->files[i].name, name))
			return (int64_t)i;
	if (ap_grow(&st->files, &st->cap_files, st->nfiles + 1, sizeof(*st->files)))
		return -1;
	af = &st->files[st->nfiles];
	memset(af, 0, sizeof(*af));
	if (!(af->name = strdup(name)))
		return -1;
	st->nfiles++;
	if (name[0] == '[' || !strncmp(name, "//", 2))
		return (int64_t)st->nfiles - 1;	/* [vdso], //anon: no file */
	ret = open_named(st, name, &f, &af->path);
	if (ret)
		return ret < 0 ? -1 : (int64_t)st->nfiles - 1;
	e = elf_begin(f.fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF)
		ret = read_symbol(st, af, &f, e);
	if (e)
		elf_end(e);
	ap_file__close(&f);
	return ret ? -1 : (int64_t)st->nfiles - 1;
}

static int add_map(struct ar_state *st, uint32_t pid, uint64_t time, uint64_t start,
		   uint64_t len, uint64_t pgoff, const char *name)
{
	int64_t fi = file_of(st, name);
	struct ar_map *m;

	if (fi < 0 || ap_grow(&st->maps, &st->cap_maps, st->nmaps + 1, sizeof(*st->maps)))
		return -1;
	m = &st->maps[st->nmaps++];
	*m = (struct ar_map){ .pid = pid, .time = time, .start = start, .end = start + len, .pgoff = pgoff,
			      .file = st->files[fi].has ? fi : -1 };
	if (m->file < 0)
		return 0;
	if (ap_grow(&st->targets, &st->cap_targets, st->ntargets + 1, sizeof(*st->targets)))
		return -1;
	st->targets[st->ntargets++] = st->nmaps - 1;
	return 0;
}

/*
 * The mapping live at ip for pid at time: the latest one of it made by
 * then (records are not in time order in the file: perf sorts them, and
 * so must we), else of the process it forked from.
 */
static const struct ar_map *map_at(const struct ar_state *st, uint32_t pid, uint64_t ip,
				   uint64_t time)
{
	for (int depth = 0; depth < AR_FORK_DEPTH; depth++) {
		const struct ar_map *best = NULL;
		size_t k;

		for (size_t i = 0; i < st->nmaps; i++) {
			const struct ar_map *m = &st->maps[i];

			if (m->pid == pid && ip >= m->start && ip < m->end && m->time <= time &&
			    (!best || m->time >= best->time))
				best = m;
		}
		if (best)
			return best;
		for (k = st->nforks; k-- > 0;)
			if (st->forks[k].child == pid)
				break;
		if (k == (size_t)-1)
			return NULL;
		pid = st->forks[k].parent;
	}
	return NULL;
}

/* Is ip inside any mapping of a file that holds the symbol? (most samples are not) */
static int maybe_target(const struct ar_state *st, uint64_t ip)
{
	for (size_t i = 0; i < st->ntargets; i++)
		if (ip >= st->maps[st->targets[i]].start && ip < st->maps[st->targets[i]].end)
			return 1;
	return 0;
}

static void count(struct ar_state *st, const struct pd_sample *s)
{
	const struct ar_map *m;
	struct ar_file *af;
	uint64_t va;

	if (s->attr_idx != 0 || !s->has_ip)
		return;
	if (!maybe_target(st, s->ip))
		return;
	m = map_at(st, s->sid.pid, s->ip, s->sid.has_time ? s->sid.time : UINT64_MAX);
	if (!m || m->file < 0)
		return;
	af = &st->files[m->file];
	elf_loads__vaddr(af->loads, af->nloads, s->ip - m->start + m->pgoff, &va);
	if (va >= af->vaddr && va < af->vaddr + af->size) {
		af->off_samples[va - af->vaddr]++;
		af->samples++;
	}
}

/* First pass: the mappings and forks. */
static int record(struct ar_state *st, const struct pd_event *ev)
{
	const union perf_event *e = ev->ev;
	uint64_t t = ev->has_sid && ev->sid.has_time ? ev->sid.time : 0;

	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
		if (ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0;
		return add_map(st, e->mmap.pid, t, e->mmap.start, e->mmap.len, e->mmap.pgoff,
			       e->mmap.filename);
	case PERF_RECORD_MMAP2:
		if ((ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA) || !(e->mmap2.prot & 4 /* PROT_EXEC */))
			return 0;
		return add_map(st, e->mmap2.pid, t, e->mmap2.start, e->mmap2.len, e->mmap2.pgoff,
			       e->mmap2.filename);
	case PERF_RECORD_FORK:
		if (e->fork.pid == e->fork.ppid)
			return 0;	/* a thread */
		if (ap_grow(&st->forks, &st->cap_forks, st->nforks + 1, sizeof(*st->forks)))
			return -1;
		st->forks[st->nforks++] = (struct ar_fork){ e->fork.pid, e->fork.ppid };
		return 0;
	default:
		return 0;
	}
}

static enum cwasm_arch arch_of(uint16_t machine, const struct cls_annot_opts *o)
{
	if (o->arch != CWASM_ARCH_UNKNOWN)
		return o->arch;
	return machine == EM_AARCH64 ? CWASM_ARCH_AARCH64 : CWASM_ARCH_X86_64;
}

/* One block: decode the symbol's bytes, place each byte's samples on its instruction. */
static int block(const struct ar_state *st, const struct ar_file *af, const char *event,
		 const struct cls_annot_opts *o, struct cls_annot_func *fn, struct ap_err *err)
{
	char tmp[PATH_MAX];

	snprintf(fn->symbol, sizeof(fn->symbol), "%s", st->symbol);
	snprintf(tmp, sizeof(tmp), "%s", af->name);
	snprintf(fn->dso, sizeof(fn->dso), "%s", basename(tmp));
	snprintf(fn->event, sizeof(fn->event), "%s", event);
	fn->header_samples = af->samples;
	fn->raw = 1;
	fn->arch = arch_of(af->machine, o);
	cls__roles_default(fn->arch, &fn->roles);
	if (o->roles && cls__roles_parse(&fn->roles, o->roles, err))
		return -1;
	if (cls__decode(fn->arch, &fn->roles, af->bytes, af->size, af->vaddr, &fn->func, err))
		return -1;
	fn->samples = calloc(fn->func.ninsns ? fn->func.ninsns : 1, sizeof(uint64_t));
	if (!fn->samples)
		return ap_err_nomem(err);
	/* kept per byte: what perf annotate's lines sum, apart (cls_annot__resolve) */
	fn->byte_samples = malloc(af->size * sizeof(uint64_t));
	if (!fn->byte_samples)
		return ap_err_nomem(err);
	memcpy(fn->byte_samples, af->off_samples, af->size * sizeof(uint64_t));
	fn->byte_addr = af->vaddr;
	fn->byte_len = af->size;
	for (uint64_t off = 0; off < af->size; off++) {
		int64_t k;

		if (!af->off_samples[off])
			continue;
		k = cls__insn_at(&fn->func, af->vaddr + off);
		if (k < 0)
			fn->unplaced += af->off_samples[off];
		else
			fn->samples[k] += af->off_samples[off];
	}
	cls__tabulate(&fn->func, fn->samples, &fn->table);
	return 0;
}

/* Blocks for the files with samples in the symbol, most samples first. */
static int blocks(const struct ar_state *st, const char *perf_path, const char *event,
		  const struct cls_annot_opts *o, struct cls_annot *out, struct ap_err *err)
{
	size_t held = 0, n = 0, *idx;

	for (size_t i = 0; i < st->nfiles; i++)
		held += st->files[i].has;
	if (!held)
		return ap_errf(err, "%s: no file the recording maps has a symbol '%s' (is it a "
			       "symbolized copy, from aotperf inject or perf inject --jit?)",
			       perf_path, st->symbol);
	if (!(idx = calloc(st->nfiles, sizeof(*idx))))
		return ap_err_nomem(err);
	for (size_t i = 0; i < st->nfiles; i++) {
		size_t k = n++;

		if (!st->files[i].has || !st->files[i].samples) {
			n--;
			continue;
		}
		for (; k > 0 && st->files[idx[k - 1]].samples < st->files[i].samples; k--)
			idx[k] = idx[k - 1];
		idx[k] = i;
	}
	if (n && !(out->funcs = calloc(n, sizeof(*out->funcs)))) {
		free(idx);
		return ap_err_nomem(err);
	}
	for (size_t k = 0; k < n; k++) {
		out->n++;
		if (block(st, &st->files[idx[k]], event, o, &out->funcs[k], err)) {
			free(idx);
			return -1;
		}
	}
	free(idx);
	return n ? 0 : ap_errf(err, "%s: no samples in '%s'", perf_path, st->symbol);
}

static void state_exit(struct ar_state *st)
{
	for (size_t i = 0; i < st->nfiles; i++) {
		free(st->files[i].name);
		free(st->files[i].path);
		free(st->files[i].bytes);
		free(st->files[i].loads);
		free(st->files[i].off_samples);
	}
	free(st->files);
	free(st->maps);
	free(st->targets);
	free(st->forks);
}

/* Both passes as one tool of the session: the mappings, then the samples against them. */
struct ar_tool {
	struct session_tool tool;	/* first: the session hands it back */
	struct ar_state *st;
};

static int ar_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct ar_tool *at = (struct ar_tool *)t;

	if (!t->pass)
		return record(at->st, ev) ? ap_err_nomem(err) : 0;
	if (ev->hdr->type == PERF_RECORD_SAMPLE)
		count(at->st, &ev->sample);
	return 0;
}

int cls__annot_recording(struct session *s, const char *symbol,
			 const char *const *extra_dirs, const struct cls_annot_opts *o,
			 struct cls_annot *out, struct ap_err *err)
{
	struct ar_state st = { .symbol = symbol, .dirs = extra_dirs };
	struct ar_tool at = { .tool = { .record = ar_record, .pass_end = session_tool__twice },
			      .st = &st };
	struct session_tool *t = &at.tool;
	struct perfdata *pd = session__data(s);
	char event[64] = "unknown";
	int ret = -1;

	memset(out, 0, sizeof(*out));
	elf_version(EV_CURRENT);
	if (perfdata__nevsels(pd) && perfdata__evsel(pd, 0)->name)
		snprintf(event, sizeof(event), "%s", perfdata__evsel(pd, 0)->name);
	if (!session__process(s, &t, 1, err))
		ret = blocks(&st, session__path(s), event, o, out, err);
	if (ret)
		cls_annot__exit(out);
	state_exit(&st);
	return ret;
}
