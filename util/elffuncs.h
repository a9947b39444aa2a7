/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_ELFFUNCS_H
#define AOTPERF_UTIL_ELFFUNCS_H
/*
 * The function symbols of an ELF file as perf reads them: STT_FUNC and
 * STT_GNU_IFUNC entries that are defined and named, from the symbol table
 * (.symtab), else the dynamic one (.dynsym); and where the file's bytes
 * load (PT_LOAD), to turn a mapping's file offset into an address of the
 * file. One reader for the host frames' names (profile/hostsyms.c) and
 * another engine's code (engines/elfsyms.c); each picks among aliases and
 * sizes the zero-sized ones its own way.
 */
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

struct elf_func {
	uint64_t value, size;	/* size as the table says (0 happens) */
	const char *name;	/* in e's string table: valid while e is open */
	size_t shndx;		/* its section */
	size_t index;		/* its entry in the table */
	uint8_t bind;		/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
};

/* qsort() order of elf_func: by value, then table order (index). */
int elf_func__cmp(const void *a, const void *b);

/* Has e a symbol table (.symtab)? */
int elf_funcs__has_symtab(Elf *e);

/*
 * e's function symbols, sorted by value then table order: from .symtab,
 * else (unless ELF_FUNCS_SYMTAB_ONLY) .dynsym; with ELF_FUNCS_LABELS also
 * the labels perf reads as functions (untyped symbols in a text section).
 * 0 and *out (malloc()ed, NULL when there are none) and *n; -1 when out of
 * memory.
 */
enum { ELF_FUNCS_SYMTAB_ONLY = 1, ELF_FUNCS_LABELS = 2 };
int elf_funcs__read(Elf *e, int flags, struct elf_func **out, size_t *n);

/*
 * The PLT entries as perf (6.1) names them: "NAME@plt" for the i-th
 * relocation of .rela.plt (.rel.plt), NAME its .dynsym entry's ("" for a
 * relocation without a symbol, IRELATIVE: "@plt"), at the i-th entry of
 * .plt after its header (x86-64 and others: a header and entries of the
 * section's entry size; aarch64 a 32-byte header, 16-byte entries), or
 * of .plt.sec (x86-64 with IBT: no header). Global, sized. 0 and *out,
 * *n (NULL/0 when the file has no PLT perf names) and *names (their
 * storage; free it with *out); -1 when out of memory.
 */
int elf_funcs__plt(Elf *e, struct elf_func **out, size_t *n, char **names);

/* Where file bytes load: [off, off + size) of the file at vaddr. */
struct elf_load {
	uint64_t off, vaddr, size;
};

/* e's PT_LOAD headers: 0 and *out (malloc()ed, NULL when none), *n; -1 out of memory. */
int elf_loads__read(Elf *e, struct elf_load **out, size_t *n);

/* The file's address of file offset off: 1 when a load holds it, else 0 (*va = off). */
int elf_loads__vaddr(const struct elf_load *l, size_t n, uint64_t off, uint64_t *va);

#endif
