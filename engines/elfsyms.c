// SPDX-License-Identifier: MIT
/*
 * The engine's ELF files: where file bytes load (PT_LOAD, else the
 * allocated sections) and the function symbols, as perf reads them
 * (STT_FUNC/STT_GNU_IFUNC, defined, named; a zero size reaches to the next
 * symbol or the end of its section). Code bytes are copied only for the
 * symbols the profile wants (wasm names).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "../util/file.h"

int eng_elf__is_jitted(const char *path)
{
	const char *b = strrchr(path, '/'), *p;
	int digits = 0;

	b = b ? b + 1 : path;
	if (strncmp(b, "jitted-", 7))
		return 0;
	for (p = b + 7; *p >= '0' && *p <= '9'; p++)
		digits++;
	if (!digits || *p != '-')
		return 0;
	for (digits = 0, p++; *p >= '0' && *p <= '9'; p++)
		digits++;
	return digits && !strcmp(p, ".so");
}

/* An ELF the engine wrote is a few MB; a bound all the same. */
#define ENG_ELF_MAX ((size_t)1 << 30)

/* The whole file (util/file.h: a regular file, bounded); NULL with errno on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	struct ap_err err;
	char *buf;

	if (ap_file__read_all(path, 0, ENG_ELF_MAX, &buf, len, NULL, &err)) {
		errno = err.kind == AP_ERR_NOMEM ? ENOMEM : EINVAL;
		return NULL;
	}
	if (!*len) {
		free(buf);
		errno = EINVAL;
		return NULL;
	}
	return (uint8_t *)buf;
}

struct rawsym {
	uint64_t value, size;
	const char *name;
	size_t shndx;
};

static int rawsym_cmp(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* Bytes of [vaddr, vaddr + size) from the section holding them, or NULL. */
static const uint8_t *sym_bytes(Elf *e, const uint8_t *buf, size_t len, size_t shndx,
				uint64_t vaddr, uint64_t size)
{
	Elf_Scn *scn = elf_getscn(e, shndx);
	GElf_Shdr sh;
	uint64_t off;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
		return NULL;
	if (vaddr < sh.sh_addr || vaddr - sh.sh_addr > sh.sh_size ||
	    size > sh.sh_size - (vaddr - sh.sh_addr))
		return NULL;
	off = sh.sh_offset + (vaddr - sh.sh_addr);
	if (off > len || size > len - off)
		return NULL;
	return buf + off;
}

static int read_loads(Elf *e, struct eng_file *f)
{
	size_t n = 0, k = 0;
	Elf_Scn *scn = NULL;

	if (!elf_getphdrnum(e, &n) && n) {
		f->loads = calloc(n, sizeof(*f->loads));
		if (!f->loads)
			return -1;
		for (size_t i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			f->loads[k++] = (struct eng_load){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
		}
		f->nloads = (uint32_t)k;
		if (k)
			return 0;
		free(f->loads);
		f->loads = NULL;
	}
	/* no program headers (an object file): the allocated sections */
	n = 0;
	while ((scn = elf_nextscn(e, scn)))
		n++;
	f->loads = calloc(n ? n : 1, sizeof(*f->loads));
	if (!f->loads)
		return -1;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		f->loads[k++] = (struct eng_load){ sh.sh_offset, sh.sh_addr, sh.sh_size };
	}
	f->nloads = (uint32_t)k;
	return 0;
}

/* The function symbols of the symbol table (else the dynamic one). */
static int read_rawsyms(Elf *e, struct rawsym **out, size_t *nout)
{
	Elf_Scn *scn = NULL, *tab = NULL;
	GElf_Shdr sh, tsh = { 0 };
	Elf_Data *d;
	struct rawsym *v;
	size_t n, k = 0;

	while ((scn = elf_nextscn(e, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !tab)) {
			tab = scn;
			tsh = sh;
		}
	}
	*out = NULL;
	*nout = 0;
	if (!tab || !tsh.sh_entsize || !(d = elf_getdata(tab, NULL)))
		return 0;
	n = tsh.sh_size / tsh.sh_entsize;
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
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
		name = elf_strptr(e, tsh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		v[k++] = (struct rawsym){ s.st_value, s.st_size, name, s.st_shndx };
	}
	qsort(v, k, sizeof(*v), rawsym_cmp);
	*out = v;
	*nout = k;
	return 0;
}

/* A zero-size symbol reaches to the next one, or to the end of its section. */
static uint64_t fixup_size(Elf *e, const struct rawsym *v, size_t n, size_t i)
{
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (v[i].size)
		return v[i].size;
	for (size_t j = i + 1; j < n; j++)
		if (v[j].value > v[i].value)
			return v[j].value - v[i].value;
	scn = elf_getscn(e, v[i].shndx);
	if (scn && gelf_getshdr(scn, &sh) && v[i].value >= sh.sh_addr &&
	    v[i].value < sh.sh_addr + sh.sh_size)
		return sh.sh_addr + sh.sh_size - v[i].value;
	return 0;
}

static int read_syms(struct eng_profile *p, uint32_t fi, Elf *e, const uint8_t *buf,
		     size_t len, int plain_ok)
{
	struct rawsym *v;
	size_t n;

	if (read_rawsyms(e, &v, &n))
		return -1;
	p->files[fi].syms = calloc(n ? n : 1, sizeof(struct eng_sym));
	if (!p->files[fi].syms) {
		free(v);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t size = fixup_size(e, v, n, i);
		const uint8_t *bytes = NULL;
		struct eng_file *f;
		int64_t c;

		if (!size)
			continue;
		if (eng_profile__wants_bytes(p, v[i].name, plain_ok))
			bytes = sym_bytes(e, buf, len, v[i].shndx, v[i].value, size);
		c = eng_profile__add_code(p, v[i].name, p->files[fi].path,
					  p->files[fi].e_machine, size, bytes, plain_ok);
		if (c < 0) {
			free(v);
			return -1;
		}
		f = &p->files[fi];
		f->syms[f->nsyms++] = (struct eng_sym){ v[i].value, size, (uint32_t)c };
	}
	free(v);
	return 0;
}

int eng_elf__load(struct eng_profile *p, uint32_t fi, const char *where, int plain_ok,
		  struct ap_err *err)
{
	size_t len = 0;
	uint8_t *buf = slurp(where, &len);
	GElf_Ehdr eh;
	Elf *e;
	int ret = 0;

	if (!buf)
		return errno == ENOMEM ? ap_err_nomem(err) : 0;
	elf_version(EV_CURRENT);
	e = elf_memory((char *)buf, len);
	if (e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh)) {
		p->files[fi].e_machine = eh.e_machine;
		if (read_loads(e, &p->files[fi]) || read_syms(p, fi, e, buf, len, plain_ok))
			ret = ap_err_nomem(err);
		else
			p->files[fi].readable = 1;
	}
	if (e)
		elf_end(e);
	free(buf);
	return ret;
}

const struct eng_sym *eng_file__sym_at(const struct eng_file *f, uint64_t off, uint64_t *vaddr)
{
	uint64_t va = off;
	uint32_t lo = 0, hi = f->nsyms;

	for (uint32_t i = 0; i < f->nloads; i++) {
		const struct eng_load *l = &f->loads[i];

		if (off >= l->off && off - l->off < l->size) {
			va = l->vaddr + (off - l->off);
			break;
		}
	}
	*vaddr = va;
	/* the last symbol starting at or below va */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (f->syms[mid].value <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo--) {
		const struct eng_sym *s = &f->syms[lo];

		if (va - s->value < s->size)
			return s;
		/* an earlier, longer symbol may still hold it (aliases) */
		if (lo && f->syms[lo - 1].value == s->value)
			continue;
		break;
	}
	return NULL;
}
