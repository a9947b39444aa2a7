// SPDX-License-Identifier: MIT
/*
 * The engine's ELF files: where file bytes load (PT_LOAD, else the
 * allocated sections) and the function symbols, as perf reads them
 * (util/elffuncs.h; every alias kept, each a code object; a zero size
 * reaches to the next symbol or the end of its section). Code bytes are
 * copied only for the symbols the profile wants (wasm names).
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
#include "../util/search.h"

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

	if (elf_loads__read(e, &f->loads, &f->nloads))
		return -1;
	if (f->nloads)
		return 0;
	/* no program headers (an object file): the allocated sections */
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
		f->loads[k++] = (struct elf_load){ sh.sh_offset, sh.sh_addr, sh.sh_size };
	}
	f->nloads = k;
	return 0;
}

/* A zero-size symbol reaches to the next one, or to the end of its section. */
static uint64_t fixup_size(Elf *e, const struct elf_func *v, size_t n, size_t i)
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
	struct elf_func *v;
	size_t n;

	if (elf_funcs__read(e, 0, &v, &n))
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
	uint64_t va;
	size_t lo;

	elf_loads__vaddr(f->loads, f->nloads, off, &va);
	*vaddr = va;
	/* the last symbol starting at or below va */
	lo = ap_search__upper(f->syms, f->nsyms, AP_SEARCH_FIELD(f->syms, value), va);
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
