// SPDX-License-Identifier: MIT
/*
 * Host frame names (hostsyms.h): per DSO of the timeline, read once when
 * first asked: a file's function symbols (util/elffuncs.h) with perf's
 * alias pick, one symbol per address with its end, the names copied, the
 * file closed; the vdso from this process's memory; the kernel's from
 * /proc/kallsyms. Found by binary search in the file's addresses
 * (through its PT_LOAD headers).
 *
 * The kernel's from the recording's kallsyms (kallsyms.h): perf's copy in
 * its build-id cache, else /proc/kallsyms of the same kernel; read the
 * first time a kernel address is named, never when none is.
 */
#include <elfutils/libdwelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/sysmacros.h>
#include "hostsyms.h"
#include "kallsyms.h"
#include "../util/elffuncs.h"
#include "../util/file.h"
#include "../util/search.h"

#define HOSTSYMS_KALLSYMS_MAX ((size_t)256 << 20)
#define HOSTSYMS_VDSO_MAX ((uint64_t)1 << 20)
#define HOSTSYMS_DEBUG_DIR "/usr/lib/debug/.build-id"

struct hs_sym {
	uint64_t start, end;
	const char *name;	/* in the DSO's names */
};

enum hs_kind { HS_NONE, HS_FILE, HS_VDSO, HS_KERNEL };

struct hs_dso {
	int loaded;
	enum hs_kind kind;
	struct hs_sym *syms;	/* by address, one per address */
	size_t nsyms;
	char *names;		/* the names' storage */
	struct elf_load *loads;
	size_t nloads;
	uint64_t dev_major, dev_minor, ino;	/* a file: the one read */
	uint64_t len;		/* the vdso: its length */
	uint64_t text, etext;	/* the kernel: _text, _etext */
	struct kallsyms *ks;	/* the kernel's, when in its own layout (else syms) */
};

struct hostsyms {
	const struct hostmaps *maps;
	struct hs_dso *dsos;	/* by the timeline's DSO index */
	size_t ndsos;
	struct perfdata *pd;	/* the recording, for its kernel's symbols */
	const char *kallsyms;	/* or this file's */
};

struct hostsyms *hostsyms__new(const struct hostmaps *maps)
{
	struct hostsyms *hs = calloc(1, sizeof(*hs));

	if (hs)
		hs->maps = maps;
	elf_version(EV_CURRENT);
	return hs;
}

static void dso_exit(struct hs_dso *d)
{
	kallsyms__delete(d->ks);
	free(d->syms);
	free(d->names);
	free(d->loads);
	memset(d, 0, sizeof(*d));
}

void hostsyms__set_recording(struct hostsyms *hs, struct perfdata *pd)
{
	hs->pd = pd;
}

void hostsyms__set_kallsyms(struct hostsyms *hs, const char *path)
{
	hs->kallsyms = path;
}

void hostsyms__delete(struct hostsyms *hs)
{
	if (!hs)
		return;
	for (size_t i = 0; i < hs->ndsos; i++)
		dso_exit(&hs->dsos[i]);
	free(hs->dsos);
	free(hs);
}

/* A symbol's rank among its aliases: the highest names the address (hostsyms.h). */
static uint64_t rank_of(const struct elf_func *f)
{
	size_t us = strspn(f->name, "_"), len = strlen(f->name);

	return (uint64_t)(f->size != 0) << 63 | (uint64_t)(f->bind != STB_WEAK) << 62 |
	       (uint64_t)(f->bind == STB_GLOBAL) << 61 | (uint64_t)(15 - (us < 15 ? us : 15)) << 57 |
	       (uint64_t)(len < 0xffffff ? len : 0xffffff) << 33 |
	       (0xffffffffu - (f->index & 0xffffffffu));
}

/* The names of d's symbols copied into d->names. 0, or -1 when out of memory. */
static int copy_names(struct hs_dso *d)
{
	size_t bytes = 0, at = 0;

	for (size_t i = 0; i < d->nsyms; i++)
		bytes += strlen(d->syms[i].name) + 1;
	d->names = malloc(bytes ? bytes : 1);
	if (!d->names)
		return -1;
	for (size_t i = 0; i < d->nsyms; i++) {
		size_t len = strlen(d->syms[i].name) + 1;

		memcpy(d->names + at, d->syms[i].name, len);
		d->syms[i].name = d->names + at;
		at += len;
	}
	return 0;
}

/*
 * v[0..n) sorted by address: one symbol per address (the best alias), each
 * with its end (a zero size reaches to the next address; the last then
 * to the page after its own, as perf fixes it); the names copied, or
 * (names not NULL: the storage they are in) kept where they are, d then
 * owning names.
 */
static int keep_syms(struct hs_dso *d, const struct elf_func *v, size_t n, char *names)
{
	size_t k = 0;

	d->names = names;
	if (!n)
		return 0;
	d->syms = calloc(n, sizeof(*d->syms));
	if (!d->syms)
		return -1;
	for (size_t i = 0, best = 0; i < n; i++) {
		/* ranked only where an address has several names */
		if (i != best && rank_of(&v[i]) > rank_of(&v[best]))
			best = i;
		if (i + 1 < n && v[i + 1].value == v[i].value)
			continue;
		d->syms[k++] = (struct hs_sym){ v[best].value, v[best].value + v[best].size,
						v[best].name };
		best = i + 1;
	}
	d->nsyms = k;
	for (size_t i = 0; i < k; i++)
		if (d->syms[i].end <= d->syms[i].start)
			d->syms[i].end = i + 1 < k ? d->syms[i + 1].start :
					 (d->syms[i].start & ~(uint64_t)4095) + 8192;
	return names ? 0 : copy_names(d);
}

/* The PLT entries perf names (util/elffuncs.h), read from the mapped file. */
struct hs_plt {
	struct elf_func *v;
	size_t n;
	char *names;
};

/* The function symbols of e (symtab_only: none without a .symtab) and plt's, kept. */
static int read_elf_syms(struct hs_dso *d, Elf *e, int symtab_only, const struct hs_plt *plt)
{
	struct elf_func *v, *all;
	size_t n;
	int ret;

	/* perf names an address by a text label too (its dso__load_sym) */
	if (elf_funcs__read(e, (symtab_only ? ELF_FUNCS_SYMTAB_ONLY : 0) | ELF_FUNCS_LABELS, &v,
			    &n))
		return -1;
	all = plt && plt->n ? realloc(v, (n + plt->n) * sizeof(*v)) : v;
	if (!all && (n || (plt && plt->n))) {
		free(v);
		return -1;
	}
	if (plt && plt->n) {
		memcpy(all + n, plt->v, plt->n * sizeof(*all));
		n += plt->n;
		qsort(all, n, sizeof(*all), elf_func__cmp);
	}
	ret = keep_syms(d, all, n, NULL);
	free(all);
	return ret;
}

/* The detached debug file's symbols (by build id): 1 read, 0 none there, -1 memory. */
static int read_debug_syms(struct hs_dso *d, Elf *e, const struct hs_plt *plt)
{
	const uint8_t *id;
	ssize_t n = dwelf_elf_gnu_build_id(e, (const void **)&id);
	char path[sizeof(HOSTSYMS_DEBUG_DIR) + 140];
	struct ap_file f;
	struct ap_err err;
	size_t at;
	Elf *de;
	int ret = 0;

	if (n < 2 || n > 64)
		return 0;
	at = (size_t)snprintf(path, sizeof(path), HOSTSYMS_DEBUG_DIR "/%02x/", id[0]);
	for (ssize_t i = 1; i < n; i++)
		at += (size_t)snprintf(path + at, sizeof(path) - at, "%02x", id[i]);
	snprintf(path + at, sizeof(path) - at, ".debug");
	if (ap_file__open(&f, path, 0, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	de = elf_begin(f.fd, ELF_C_READ_MMAP, NULL);
	if (de && elf_kind(de) == ELF_K_ELF && elf_funcs__has_symtab(de))
		ret = read_elf_syms(d, de, 1, plt) ? -1 : 1;
	if (de)
		elf_end(de);
	ap_file__close(&f);
	return ret;
}

static int load_file(struct hs_dso *d, const char *path)
{
	struct ap_file f;
	struct ap_err err;
	int ret = 0;
	Elf *e;

	if (ap_file__open(&f, path, 0, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	d->dev_major = major(f.id.dev);
	d->dev_minor = minor(f.id.dev);
	d->ino = f.id.ino;
	e = elf_begin(f.fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF) {
		struct hs_plt plt = { 0 };
		int dbg = 0;

		ret = elf_loads__read(e, &d->loads, &d->nloads) ||
		      elf_funcs__plt(e, &plt.v, &plt.n, &plt.names) ? -1 : 0;
		if (!ret && !elf_funcs__has_symtab(e) && (dbg = read_debug_syms(d, e, &plt)) < 0)
			ret = -1;
		if (!ret && !dbg)
			ret = read_elf_syms(d, e, 0, &plt);
		free(plt.v);
		free(plt.names);
	}
	if (e)
		elf_end(e);
	ap_file__close(&f);
	return ret;
}

/*
 * [vdso]: this process's own vdso, the image the kernel maps into every
 * process, when it is as long as the recorded one (the recording was made
 * on this kernel: the same image). A mapping of another length then names
 * nothing.
 */
static int load_vdso(struct hs_dso *d, uint64_t len)
{
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	uint64_t lo = 0, hi = 0, ours = 0;
	char line[256], *copy;
	FILE *maps;
	Elf *e;
	int ret = 0;

	if (!at || !len || len > HOSTSYMS_VDSO_MAX)
		return 0;
	maps = fopen("/proc/self/maps", "re");
	if (!maps)
		return 0;
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2)
			ours = hi - lo;
	fclose(maps);
	if (ours != len || lo != at)
		return 0;
	copy = malloc(len);
	if (!copy)
		return -1;
	memcpy(copy, (const void *)at, len);
	d->len = len;
	e = elf_memory(copy, len);
	if (e && elf_kind(e) == ELF_K_ELF)
		ret = elf_loads__read(e, &d->loads, &d->nloads) || read_elf_syms(d, e, 0, NULL) ?
		      -1 : 0;
	if (e)
		elf_end(e);
	free(copy);
	return ret;
}

/* The kernel's function symbols from the kallsyms text at path; _text and _etext. */
static int load_kallsyms(struct hs_dso *d, const char *path)
{
	struct elf_func *v;
	struct ap_err err;
	size_t len, n;
	char *buf;
	int ret;

	if (ap_file__read_all(path, 0, HOSTSYMS_KALLSYMS_MAX, &buf, &len, NULL, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	/* the kernel's own layout: looked up in place; else every line read */
	ret = kallsyms__index(buf, len, &d->ks);
	if (ret) {
		if (ret < 0)
			free(buf);
		else
			kallsyms__range(d->ks, &d->text, &d->etext);
		return ret < 0 ? -1 : 0;
	}
	if (kallsyms__parse(buf, len, &v, &n, &d->text, &d->etext)) {
		free(buf);
		return -1;
	}
	/* the names stay in the text, which d keeps */
	ret = keep_syms(d, v, n, buf);
	free(v);
	return ret;
}

/* The kernel's symbols: the file named, else the recording's (kallsyms.h); else none. */
static int load_kernel(struct hostsyms *hs, struct hs_dso *d)
{
	struct kallsyms_where w;

	if (hs->kallsyms)
		return load_kallsyms(d, hs->kallsyms);
	if (!hs->pd)
		return 0;
	kallsyms__where(hs->pd, KALLSYMS_UNVERIFIED, &w);
	return w.from == KALLSYMS_NONE ? 0 : load_kallsyms(d, w.path);
}

static struct hs_dso *dso_of(struct hostsyms *hs, uint32_t dso)
{
	size_t n = hostmaps__ndsos(hs->maps);
	struct hs_dso *v;

	if (dso >= n)
		return NULL;
	if (n > hs->ndsos) {
		v = realloc(hs->dsos, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + hs->ndsos, 0, (n - hs->ndsos) * sizeof(*v));
		hs->dsos = v;
		hs->ndsos = n;
	}
	return &hs->dsos[dso];
}

static int load(struct hostsyms *hs, struct hs_dso *d, uint32_t dso, const struct hostmap *m)
{
	const char *name = hostmaps__dso(hs->maps, dso);

	d->loaded = 1;
	if (hostmaps__dso_is_file(hs->maps, dso)) {
		d->kind = HS_FILE;
		return load_file(d, name);
	}
	if (!strcmp(name, "[vdso]")) {
		d->kind = HS_VDSO;
		return load_vdso(d, m->end - m->start);
	}
	if (!strcmp(name, "[kernel.kallsyms]")) {
		d->kind = HS_KERNEL;
		return load_kernel(hs, d);
	}
	return 0;
}

/* Does mapping m show what d read? */
static int same_image(const struct hs_dso *d, const struct hostmap *m)
{
	switch (d->kind) {
	case HS_FILE:
		/* each mapping record names its file: another inode is another build */
		return !m->ino || (m->ino == d->ino && m->maj == d->dev_major &&
				   m->min == d->dev_minor);
	case HS_VDSO:
		return m->end - m->start == d->len;
	case HS_KERNEL:
		return d->text == m->start && d->etext == m->end;
	default:
		return 0;
	}
}

int hostsyms__find(struct hostsyms *hs, const struct hostmap *m, uint64_t ip,
		   const char **sym)
{
	struct hs_dso *d = dso_of(hs, m->dso);
	uint64_t va;
	size_t lo;

	*sym = NULL;
	if (!d)
		return hostmaps__ndsos(hs->maps) > m->dso ? -1 : 0;
	if (!d->loaded && load(hs, d, m->dso, m)) {
		dso_exit(d);
		d->loaded = 1;
		return -1;
	}
	if ((!d->nsyms && !d->ks) || !same_image(d, m))
		return 0;
	if (d->ks) {
		*sym = kallsyms__find(d->ks, ip);
		return 0;
	}
	if (d->kind == HS_KERNEL)
		va = ip;
	else
		elf_loads__vaddr(d->loads, d->nloads, ip - m->start + m->pgoff, &va);
	lo = ap_search__upper(d->syms, d->nsyms, AP_SEARCH_FIELD(d->syms, start), va);
	if (lo && va < d->syms[lo - 1].end)
		*sym = d->syms[lo - 1].name;
	return 0;
}
