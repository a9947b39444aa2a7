// SPDX-License-Identifier: MIT
/*
 * Host frame names (hostsyms.h): mappings in record order, the newest
 * that holds an address wins; each file's function symbols (STT_FUNC and
 * STT_GNU_IFUNC, defined and named; a zero size reaches to the next
 * symbol, as perf fixes them up) sorted once, found by binary search in
 * the file's address space (through its PT_LOAD headers). A file with
 * no .symtab takes it from its detached debug file, found by build id
 * under /usr/lib/debug/.build-id/ as perf finds it (Debian's -dbg
 * packages), else keeps its .dynsym.
 */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "hostsyms.h"
#include "../util/array.h"

struct hs_sym {
	uint64_t start, end;
	uint32_t name;		/* offset into the file's names */
	uint64_t rank;		/* among aliases the highest names the address */
};

struct hs_load {
	uint64_t off, vaddr, size;
};

struct hs_file {
	char *path;
	char *bracket;		/* "[basename]" */
	int loaded;
	struct hs_sym *syms;
	size_t nsyms;
	char *names;
	struct hs_load *loads;
	size_t nloads;
};

struct hs_map {
	uint32_t pid;
	uint64_t start, end, pgoff;
	uint32_t file;
};

struct hostsyms {
	struct hs_file *files;
	size_t nfiles, cap_files;
	struct hs_map *maps;
	size_t nmaps, cap_maps;
};

struct hostsyms *hostsyms__new(void)
{
	return calloc(1, sizeof(struct hostsyms));
}

static void file_exit(struct hs_file *f)
{
	free(f->path);
	free(f->bracket);
	free(f->syms);
	free(f->names);
	free(f->loads);
}

void hostsyms__delete(struct hostsyms *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nfiles; i++)
		file_exit(&h->files[i]);
	free(h->files);
	free(h->maps);
	free(h);
}

void hostsyms__reset(struct hostsyms *h)
{
	h->nmaps = 0;
}

static int64_t file_of(struct hostsyms *h, const char *path)
{
	struct hs_file f = { 0 };
	const char *base = strrchr(path, '/');
	size_t blen;

	for (size_t i = h->nfiles; i-- > 0;)
		if (!strcmp(h->files[i].path, path))
			return (int64_t)i;
	base = base && base[1] ? base + 1 : path;
	blen = strlen(base);
	f.path = strdup(path);
	f.bracket = malloc(blen + 3);
	if (!f.path || !f.bracket ||
	    ap_grow(&h->files, &h->cap_files, h->nfiles + 1, sizeof(*h->files))) {
		file_exit(&f);
		return -1;
	}
	/* "[vdso]" names itself already */
	if (base[0] == '[' && base[blen - 1] == ']')
		memcpy(f.bracket, base, blen + 1);
	else
		snprintf(f.bracket, blen + 3, "[%s]", base);
	h->files[h->nfiles] = f;
	return (int64_t)h->nfiles++;
}

int hostsyms__add_map(struct hostsyms *h, uint32_t pid, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *filename)
{
	int64_t f = file_of(h, filename);
	struct hs_map m = { pid, start, start + len, pgoff, 0 };

	if (f < 0)
		return -1;
	m.file = (uint32_t)f;
	return ap_push(&h->maps, &h->nmaps, &h->cap_maps, &m, sizeof(m));
}

/* By address; aliases by rank, the best last (sym_at looks from the end). */
static int sym_cmp(const void *a, const void *b)
{
	const struct hs_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

/*
 * Which alias names an address, as perf chooses: one with a size, then
 * not weak, then global, then fewer leading underscores, then the longer
 * name, then the earlier entry (glibc: "__libc_start_main@@GLIBC_2.34").
 */
static uint64_t rank_of(const GElf_Sym *s, const char *name, size_t idx)
{
	int bind = GELF_ST_BIND(s->st_info);
	size_t us = strspn(name, "_"), len = strlen(name);

	return (uint64_t)(s->st_size != 0) << 63 | (uint64_t)(bind != STB_WEAK) << 62 |
	       (uint64_t)(bind == STB_GLOBAL) << 61 | (uint64_t)(15 - (us < 15 ? us : 15)) << 57 |
	       (uint64_t)(len < 0xffffff ? len : 0xffffff) << 33 | (0xffffffffu - (idx & 0xffffffffu));
}

static int read_loads(Elf *e, struct hs_file *f)
{
	size_t n = 0;

	if (elf_getphdrnum(e, &n) || !n)
		return 0;
	f->loads = calloc(n, sizeof(*f->loads));
	if (!f->loads)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->loads[f->nloads++] = (struct hs_load){ ph.p_offset, ph.p_vaddr,
								  ph.p_filesz };
	}
	return 0;
}

/* The symbol table, else (unless symtab_only) the dynamic one. */
static Elf_Scn *symtab_of(Elf *e, GElf_Shdr *sh, int symtab_only)
{
	Elf_Scn *scn = NULL, *tab = NULL;
	GElf_Shdr s;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &s))
			continue;
		if (s.sh_type == SHT_SYMTAB || (s.sh_type == SHT_DYNSYM && !tab && !symtab_only)) {
			tab = scn;
			*sh = s;
		}
	}
	return tab && sh->sh_entsize ? tab : NULL;
}

static int read_syms(Elf *e, Elf_Scn *tab, const GElf_Shdr *sh, struct hs_file *f)
{
	Elf_Data *d = elf_getdata(tab, NULL);
	size_t n, names = 0, cap_names = 0, k = 0;

	if (!d)
		return 0;
	n = sh->sh_size / sh->sh_entsize;
	f->syms = calloc(n ? n : 1, sizeof(*f->syms));
	if (!f->syms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		size_t len;
		int type;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !s.st_name ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		len = strlen(name) + 1;
		if (ap_grow(&f->names, &cap_names, names + len, 1))
			return -1;
		memcpy(f->names + names, name, len);
		f->syms[k++] = (struct hs_sym){ s.st_value, s.st_value + s.st_size,
						(uint32_t)names, rank_of(&s, name, i) };
		names += len;
	}
	qsort(f->syms, k, sizeof(*f->syms), sym_cmp);
	for (size_t i = 0; i < k; i++) {
		if (f->syms[i].end > f->syms[i].start)
			continue;
		for (size_t j = i + 1; j < k; j++)
			if (f->syms[j].start > f->syms[i].start) {
				f->syms[i].end = f->syms[j].start;
				break;
			}
	}
	f->nsyms = k;
	return 0;
}

/* The detached debug file's .symtab (by build id): 1 read, 0 none there, -1 memory. */
static int read_debug_syms(Elf *e, struct hs_file *f)
{
	const uint8_t *id;
	ssize_t n = dwelf_elf_gnu_build_id(e, (const void **)&id);
	char path[160];
	size_t at;
	int fd, ret = 0;
	GElf_Shdr sh = { 0 };
	Elf_Scn *tab;
	Elf *d;

	if (n < 2 || n > 64)
		return 0;
	at = (size_t)snprintf(path, sizeof(path), "/usr/lib/debug/.build-id/%02x/", id[0]);
	for (ssize_t i = 1; i < n; i++)
		at += (size_t)snprintf(path + at, sizeof(path) - at, "%02x", id[i]);
	snprintf(path + at, sizeof(path) - at, ".debug");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	d = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (d && elf_kind(d) == ELF_K_ELF && (tab = symtab_of(d, &sh, 1)))
		ret = read_syms(d, tab, &sh, f) ? -1 : 1;
	if (d)
		elf_end(d);
	close(fd);
	return ret;
}

/* Read f's symbols once; a file that is not there or not ELF has none. */
static int load(struct hs_file *f)
{
	int fd, ret = 0;
	Elf *e;

	if (f->loaded)
		return 0;
	f->loaded = 1;
	if (f->path[0] == '[')
		return 0;
	fd = open(f->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (e && elf_kind(e) == ELF_K_ELF) {
		GElf_Shdr sh = { 0 };
		Elf_Scn *tab = symtab_of(e, &sh, 1);
		int dbg = 0;

		ret = read_loads(e, f);
		if (!ret && !tab && (dbg = read_debug_syms(e, f)) < 0)
			ret = -1;
		if (!ret && !tab && !dbg)
			tab = symtab_of(e, &sh, 0);
		if (!ret && tab && read_syms(e, tab, &sh, f))
			ret = -1;
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static const struct hs_sym *sym_at(const struct hs_file *f, uint64_t off)
{
	uint64_t va = off;
	size_t lo = 0, hi = f->nsyms;

	for (size_t i = 0; i < f->nloads; i++) {
		const struct hs_load *l = &f->loads[i];

		if (off >= l->off && off - l->off < l->size) {
			va = l->vaddr + (off - l->off);
			break;
		}
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].start <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the last symbol starting at or below va, or an alias at its address */
	for (size_t i = lo; i-- > 0;) {
		if (va < f->syms[i].end)
			return &f->syms[i];
		if (i && f->syms[i - 1].start != f->syms[i].start)
			break;
	}
	return NULL;
}

static const struct hs_map *map_at(const struct hostsyms *h, uint32_t pid, uint64_t ip)
{
	const struct hs_map *any = NULL;

	for (size_t i = h->nmaps; i-- > 0;) {
		const struct hs_map *m = &h->maps[i];

		if (ip < m->start || ip >= m->end)
			continue;
		if (m->pid == pid)
			return m;
		if (!any)
			any = m;
	}
	return any;
}

int hostsyms__lookup(struct hostsyms *h, uint32_t pid, uint64_t ip, const char **name,
		     const char **dso)
{
	const struct hs_map *m = map_at(h, pid, ip);
	const struct hs_sym *s;
	struct hs_file *f;

	*name = "[unknown]";
	*dso = NULL;
	if (!m)
		return 0;
	f = &h->files[m->file];
	if (load(f))
		return -1;
	s = sym_at(f, ip - m->start + m->pgoff);
	*name = s ? f->names + s->name : f->bracket;
	*dso = f->path;
	return 0;
}

int hostsyms__map_at(const struct hostsyms *h, uint32_t pid, uint64_t ip, uint64_t *start,
		     uint64_t *pgoff, const char **path)
{
	const struct hs_map *m = map_at(h, pid, ip);

	if (!m)
		return 0;
	*start = m->start;
	*pgoff = m->pgoff;
	*path = h->files[m->file].path;
	return 1;
}

size_t hostsyms__nmaps(const struct hostsyms *h)
{
	return h->nmaps;
}
