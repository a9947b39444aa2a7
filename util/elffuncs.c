// SPDX-License-Identifier: MIT
/* Function symbols and loads of an ELF file (elffuncs.h), with libelf. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elffuncs.h"

/* The first section of this type, or NULL. */
static Elf_Scn *section_of(Elf *e, uint32_t type, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, out) && out->sh_type == type)
			return scn;
	return NULL;
}

int elf_funcs__has_symtab(Elf *e)
{
	GElf_Shdr sh;

	return section_of(e, SHT_SYMTAB, &sh) != NULL;
}

int elf_func__cmp(const void *a, const void *b)
{
	const struct elf_func *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * A label perf keeps as a function (ELF_FUNCS_LABELS): a named, defined,
 * visible STT_NOTYPE symbol in a section whose name holds "text" (ld.so's
 * _start in its debug file, say).
 */
static int is_text_label(Elf *e, const GElf_Sym *s)
{
	int vis = GELF_ST_VISIBILITY(s->st_other);
	Elf_Scn *scn;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *name;

	if (GELF_ST_TYPE(s->st_info) != STT_NOTYPE || vis == STV_HIDDEN || vis == STV_INTERNAL ||
	    s->st_shndx == SHN_ABS || elf_getshdrstrndx(e, &shstrndx) ||
	    !(scn = elf_getscn(e, s->st_shndx)) || !gelf_getshdr(scn, &sh))
		return 0;
	name = elf_strptr(e, shstrndx, sh.sh_name);
	return name && strstr(name, "text");
}

int elf_funcs__read(Elf *e, int flags, struct elf_func **out, size_t *n)
{
	GElf_Shdr sh = { 0 };
	Elf_Scn *tab = section_of(e, SHT_SYMTAB, &sh);
	struct elf_func *v;
	Elf_Data *d;
	size_t count, k = 0;

	*out = NULL;
	*n = 0;
	if (!tab && !(flags & ELF_FUNCS_SYMTAB_ONLY))
		tab = section_of(e, SHT_DYNSYM, &sh);
	if (!tab || !sh.sh_entsize || !(d = elf_getdata(tab, NULL)))
		return 0;
	count = sh.sh_size / sh.sh_entsize;
	v = calloc(count ? count : 1, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (!gelf_getsym(d, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		if (!s.st_name || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		if (type != STT_FUNC && type != STT_GNU_IFUNC &&
		    !((flags & ELF_FUNCS_LABELS) && is_text_label(e, &s)))
			continue;
		name = elf_strptr(e, sh.sh_link, s.st_name);
		if (!name || !*name)
			continue;
		v[k++] = (struct elf_func){ s.st_value, s.st_size, name, s.st_shndx, i,
					    (uint8_t)GELF_ST_BIND(s.st_info) };
	}
	if (!k) {
		free(v);
		return 0;
	}
	qsort(v, k, sizeof(*v), elf_func__cmp);
	*out = v;
	*n = k;
	return 0;
}

/* The section named name, or NULL. */
static Elf_Scn *section_named(Elf *e, const char *name, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		if (gelf_getshdr(scn, out) && (n = elf_strptr(e, shstrndx, out->sh_name)) &&
		    !strcmp(n, name))
			return scn;
	}
	return NULL;
}

/* Relocation i of rel (a REL or RELA section): its symbol index. */
static int reloc_sym(Elf_Data *d, const GElf_Shdr *sh, size_t i, size_t *sym)
{
	GElf_Rela ra;
	GElf_Rel r;

	if (sh->sh_type == SHT_RELA) {
		if (!gelf_getrela(d, (int)i, &ra))
			return -1;
		*sym = GELF_R_SYM(ra.r_info);
	} else {
		if (!gelf_getrel(d, (int)i, &r))
			return -1;
		*sym = GELF_R_SYM(r.r_info);
	}
	return 0;
}

int elf_funcs__plt(Elf *e, struct elf_func **out, size_t *n, char **names)
{
	GElf_Shdr rsh, psh, dsh, ssh;
	Elf_Scn *rel = section_named(e, ".rela.plt", &rsh), *dyn;
	Elf_Data *rd, *dd;
	GElf_Ehdr eh;
	uint64_t at, entry, head;
	size_t count, bytes = 0, used = 0, k = 0;

	*out = NULL;
	*n = 0;
	*names = NULL;
	if (!rel)
		rel = section_named(e, ".rel.plt", &rsh);
	if (!rel || !rsh.sh_entsize || !gelf_getehdr(e, &eh) ||
	    !(dyn = elf_getscn(e, rsh.sh_link)) || !gelf_getshdr(dyn, &dsh) ||
	    dsh.sh_type != SHT_DYNSYM || !section_named(e, ".plt", &psh) ||
	    !(rd = elf_getdata(rel, NULL)) || !(dd = elf_getdata(dyn, NULL)))
		return 0;
	entry = psh.sh_entsize;
	head = entry;
	if (eh.e_machine == EM_AARCH64) {
		head = 32;
		entry = 16;
	}
	at = psh.sh_addr + head;
	if (section_named(e, ".plt.sec", &ssh)) {
		at = ssh.sh_addr;
		entry = ssh.sh_entsize ? ssh.sh_entsize : entry;
	}
	count = rsh.sh_size / rsh.sh_entsize;
	if (!entry || !count)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < count; i++) {
			size_t sym;
			GElf_Sym s;
			const char *name;

			/* an IRELATIVE slot has no symbol: perf names it "@plt" */
			if (reloc_sym(rd, &rsh, i, &sym) || !gelf_getsym(dd, (int)sym, &s) ||
			    !(name = elf_strptr(e, dsh.sh_link, s.st_name)))
				continue;
			if (!pass) {
				bytes += strlen(name) + sizeof("@plt");
				continue;
			}
			(*out)[k] = (struct elf_func){ at + i * entry, entry, *names + used, 0, i,
						       STB_GLOBAL };
			used += (size_t)sprintf(*names + used, "%s@plt", name) + 1;
			k++;
		}
		if (!pass && (!bytes || !(*out = calloc(count, sizeof(**out))) ||
			      !(*names = malloc(bytes)))) {
			free(*out);
			*out = NULL;
			return bytes ? -1 : 0;
		}
	}
	*n = k;
	return 0;
}

int elf_loads__read(Elf *e, struct elf_load **out, size_t *n)
{
	struct elf_load *v;
	size_t count = 0, k = 0;

	*out = NULL;
	*n = 0;
	if (elf_getphdrnum(e, &count) || !count)
		return 0;
	v = calloc(count, sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD)
			v[k++] = (struct elf_load){ ph.p_offset, ph.p_vaddr, ph.p_filesz };
	}
	if (!k) {
		free(v);
		return 0;
	}
	*out = v;
	*n = k;
	return 0;
}

int elf_loads__vaddr(const struct elf_load *l, size_t n, uint64_t off, uint64_t *va)
{
	for (size_t i = 0; i < n; i++) {
		if (off >= l[i].off && off - l[i].off < l[i].size) {
			*va = l[i].vaddr + (off - l[i].off);
			return 1;
		}
	}
	*va = off;
	return 0;
}
