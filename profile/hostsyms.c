// SPDX-License-Identifier: MIT
/*
 * Symbols for the host frames (profile/host.h): the function symbol of the
 * mapped file that holds each ip, read the way perf reads a DSO without
 * debug info (the symbol table, else the dynamic one; STT_FUNC and
 * STT_GNU_IFUNC, defined; a zero size reaches to the next symbol). The
 * file is the one at that path on this machine: when the mapping record
 * names a device and inode (MMAP2) that differ from the file's, it is a
 * different build and its frames stay [unknown]. Kept out of host.c so the
 * dlfilter, which never names host frames, links no libelf.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "host.h"
#include "../util/array.h"
#include "../util/file.h"

#define HOSTSYMS_FILE_MAX ((size_t)1 << 30)

struct fsym {
	uint64_t value, size;
	const char *name;	/* in the ELF buffer */
	char *copy;		/* once a frame uses it; owned by the host's symstore */
};

struct felf {
	Elf *e;
	char *buf;
	struct fsym *syms;
	size_t nsyms;
	GElf_Phdr *loads;
	size_t nloads;
};

static int fsym_cmp(const void *a, const void *b)
{
	const struct fsym *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* The symbol table (else the dynamic one) of e: its section, or NULL. */
static Elf_Scn *symtab_of(Elf *e, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL, *tab = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !tab)) {
			tab = scn;
			*out = sh;
		}
	}
	return tab;
}

static int read_syms(struct felf *f)
{
	GElf_Shdr tsh = { 0 };
	Elf_Scn *tab = symtab_of(f->e, &tsh);
	Elf_Data *d;
	size_t n;

	if (!tab || !tsh.sh_entsize || !(d = elf_getdata(tab, NULL)))
		return 0;
	n = tsh.sh_size / tsh.sh_entsize;
	f->syms = calloc(n ? n : 1, sizeof(*f->syms));
	if (!f->syms)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		int type;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) || !s.st_name ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(f->e, tsh.sh_link, s.st_name);
		if (name && *name)
			f->syms[f->nsyms++] = (struct fsym){ s.st_value, s.st_size, name, NULL };
	}
	qsort(f->syms, f->nsyms, sizeof(*f->syms), fsym_cmp);
	return 0;
}

static int read_loads(struct felf *f)
{
	size_t n = 0;

	if (elf_getphdrnum(f->e, &n) || !n)
		return 0;
	f->loads = calloc(n, sizeof(*f->loads));
	if (!f->loads)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(f->e, (int)i, &ph) && ph.p_type == PT_LOAD)
			f->loads[f->nloads++] = ph;
	}
	return 0;
}

/* Is path the file the mapping record names (device and inode), when it names one? */
static int same_file(const char *path, const struct profile_host_frame *fr)
{
	struct stat st;

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (!fr->ino)
		return 1;
	return st.st_ino == (ino_t)fr->ino && major(st.st_dev) == fr->dev_major &&
	       minor(st.st_dev) == fr->dev_minor;
}

/* 1 when the file was opened; 0 when it cannot be (its frames stay unknown); -1 out of memory. */
static int felf_open(struct felf *f, const char *path)
{
	struct ap_err err;
	size_t len;

	memset(f, 0, sizeof(*f));
	if (ap_file__read_all(path, 0, HOSTSYMS_FILE_MAX, &f->buf, &len, NULL, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	f->e = elf_memory(f->buf, len);
	if (!f->e || elf_kind(f->e) != ELF_K_ELF)
		return 0;
	if (read_loads(f) || read_syms(f))
		return -1;
	return 1;
}

static void felf_close(struct felf *f)
{
	free(f->syms);
	free(f->loads);
	if (f->e)
		elf_end(f->e);
	free(f->buf);
}

/* The symbol holding file offset off, or NULL. */
static struct fsym *sym_at(struct felf *f, uint64_t off)
{
	uint64_t va = 0;
	size_t lo = 0, hi = f->nsyms, i;
	int found = 0;

	for (size_t k = 0; k < f->nloads && !found; k++) {
		const GElf_Phdr *ph = &f->loads[k];

		if (off >= ph->p_offset && off - ph->p_offset < ph->p_filesz) {
			va = ph->p_vaddr + (off - ph->p_offset);
			found = 1;
		}
	}
	if (!found)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].value <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	i = lo - 1;
	/* among symbols at the same address, one with a size that covers va */
	for (size_t j = i + 1; j-- > 0 && f->syms[j].value == f->syms[i].value;)
		if (f->syms[j].size && va - f->syms[j].value < f->syms[j].size)
			return &f->syms[j];
	if (f->syms[i].size)
		return NULL;
	return i + 1 < f->nsyms || va == f->syms[i].value ? &f->syms[i] : NULL;
}

/* Symbols of the frames of dso d (all are user frames of one file). */
static int resolve_dso(struct profile_host *h, uint32_t d)
{
	const char *path = h->dsos[d];
	struct felf f = { 0 };
	int opened = -2, ret = 0;

	for (size_t i = 0; i < h->nframes; i++) {
		struct profile_host_frame *fr = &h->frames[i];
		struct fsym *s;

		if (fr->dso != d || fr->kernel || fr->map_end <= fr->map_start)
			continue;
		if (opened == -2)
			opened = same_file(path, fr) ? felf_open(&f, path) : 0;
		if (opened <= 0) {
			ret = opened;
			break;
		}
		s = sym_at(&f, fr->ip - fr->map_start + fr->pgoff);
		if (!s)
			continue;
		if (!s->copy) {
			char *dup = strdup(s->name);

			if (!dup || ap_push(&h->symstore, &h->nsymstore, &h->cap_symstore, &dup,
					    sizeof(dup))) {
				free(dup);
				ret = -1;
				break;
			}
			s->copy = dup;
		}
		fr->sym = s->copy;
	}
	felf_close(&f);
	return ret;
}

int profile_host__symbols(struct profile_host *h, struct ap_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	for (uint32_t d = 0; d < h->ndsos; d++) {
		if (h->dsos[d][0] != '/')
			continue;
		if (resolve_dso(h, d))
			return ap_err_nomem(err);
	}
	return 0;
}
