// SPDX-License-Identifier: MIT
/*
 * elfimage: a minimal ET_DYN per core, laid out by hand (ELF_F_LAYOUT) so
 * that the text's file offset equals its address; see elfimage.h.
 */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elfimage.h"
#include "../jitdump/jitdump.h"
#include "../util/outfile.h"
#include "../util/sha256.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* Section names; index 0 of each name is its offset in shstrtab. */
static const char shstrtab[] =
	"\0.note.gnu.build-id\0.text\0.eh_frame\0.eh_frame_hdr\0.symtab\0.strtab\0.shstrtab";

enum { NAME_NOTE = 1, NAME_TEXT = 20, NAME_EH_FRAME = 26, NAME_EH_HDR = 36,
       NAME_SYMTAB = 50, NAME_STRTAB = 58, NAME_SHSTRTAB = 66 };

/* Section indexes: with CFI, .eh_frame and .eh_frame_hdr follow .text. */
enum { SEC_NOTE = 1, SEC_TEXT = 2 };

#define NOTE_SIZE	(12 + 4 + ELFIMAGE_BUILD_ID_SIZE)
/* Program headers: the text and PT_NOTE, or with CFI the headers (and the
 * note), the text, the CFI, PT_NOTE and PT_GNU_EH_FRAME. */
#define PHNUM_PLAIN	2
#define PHNUM_CFI	5

struct image {
	uint16_t e_machine;
	const uint8_t *text;
	uint32_t text_size;
	const struct elfimage_cfi *cfi;	/* NULL: none */
	Elf64_Sym *syms;
	size_t nsyms;
	char *str;
	size_t strsz, strcap;
	uint8_t note[NOTE_SIZE];
};

static void image_free(struct image *im)
{
	free(im->syms);
	free(im->str);
}

static int str_add(struct image *im, const char *s, size_t n, uint32_t *off)
{
	if (im->strsz + n + 1 > im->strcap) {
		size_t cap = im->strcap ? im->strcap : 4096;
		char *p;

		while (cap < im->strsz + n + 1)
			cap *= 2;
		p = realloc(im->str, cap);
		if (!p)
			return -1;
		im->str = p;
		im->strcap = cap;
	}
	*off = (uint32_t)im->strsz;
	memcpy(im->str + im->strsz, s, n);
	im->str[im->strsz + n] = '\0';
	im->strsz += n + 1;
	return 0;
}

static int check_offsets(const char *path, uint32_t text_size,
			 const uint32_t *offsets, uint32_t nfuncs,
			 struct ap_err *err)
{
	uint32_t i;

	if (nfuncs && !offsets)
		return ap_errf(err, "%s: no function offsets given", path);
	for (i = 0; i < nfuncs; i++) {
		if (offsets[i] > text_size)
			return ap_errf(err, "%s: function %u at offset 0x%x is past "
				       "the end of text (0x%x bytes)", path, i,
				       offsets[i], text_size);
		if (i && offsets[i] < offsets[i - 1])
			return ap_errf(err, "%s: function %u at offset 0x%x comes "
				       "before function %u (0x%x); offsets must "
				       "ascend", path, i, offsets[i], i - 1,
				       offsets[i - 1]);
	}
	return 0;
}

/* The symbol table: one GLOBAL FUNC per function of non-zero size. */
static int build_symtab(struct image *im, const uint32_t *offsets,
			uint32_t nfuncs, const char *const *names)
{
	char name[AOTJIT_NAME_MAX];
	uint32_t i, off;
	size_t n;

	im->syms = calloc((size_t)nfuncs + 1, sizeof(*im->syms));
	if (!im->syms || str_add(im, "", 0, &off))
		return -1;
	im->nsyms = 1;
	for (i = 0; i < nfuncs; i++) {
		uint32_t end = i + 1 < nfuncs ? offsets[i + 1] : im->text_size;
		Elf64_Sym *s;

		/* perf merges symbols at one address and may keep an empty
		 * one, losing the real function's samples: leave them out. */
		if (end == offsets[i])
			continue;
		n = 0;
		if (names && names[i] && names[i][0])
			n = aotjit_sanitize_name(name, sizeof(name), names[i],
						 SIZE_MAX);
		if (!n)
			n = (size_t)snprintf(name, sizeof(name), "local_func_%u", i);
		s = &im->syms[im->nsyms++];
		if (str_add(im, name, n, &s->st_name))
			return -1;
		s->st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		s->st_other = STV_DEFAULT;
		s->st_shndx = SEC_TEXT;
		s->st_value = ELFIMAGE_TEXT_OFFSET + offsets[i];
		s->st_size = end - offsets[i];
	}
	return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* SHA-256 over what perf shows (text, symbols, names, machine, and the
 * CFI when there is some), cut to 20: perf caches images by build-id. */
static void build_note(struct image *im, uint8_t id[ELFIMAGE_BUILD_ID_SIZE])
{
	uint8_t parts[4 * 32 + 2], digest[32];
	size_t n = 3 * 32;

	ap_sha256(im->text, im->text_size, parts);
	ap_sha256(im->syms, im->nsyms * sizeof(*im->syms), parts + 32);
	ap_sha256(im->str, im->strsz, parts + 64);
	if (im->cfi) {
		ap_sha256(im->cfi->data, im->cfi->eh_frame_size + im->cfi->hdr_size, parts + n);
		n += 32;
	}
	parts[n++] = (uint8_t)im->e_machine;
	parts[n++] = (uint8_t)(im->e_machine >> 8);
	ap_sha256(parts, n, digest);

	put_le32(im->note, 4);				/* namesz */
	put_le32(im->note + 4, ELFIMAGE_BUILD_ID_SIZE);	/* descsz */
	put_le32(im->note + 8, NT_GNU_BUILD_ID);
	memcpy(im->note + 12, "GNU", 4);
	memcpy(im->note + 16, digest, ELFIMAGE_BUILD_ID_SIZE);
	if (id)
		memcpy(id, digest, ELFIMAGE_BUILD_ID_SIZE);
}

static Elf_Scn *add_section(Elf *e, uint32_t name, uint32_t type, uint64_t flags,
			    uint64_t addr, uint64_t off, const void *buf,
			    size_t size, Elf_Type dtype, uint64_t align)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf64_Shdr *sh;
	Elf_Data *d;

	if (!scn || !(sh = elf64_getshdr(scn)) || !(d = elf_newdata(scn)))
		return NULL;
	d->d_buf = (void *)buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align;
	d->d_off = 0;
	d->d_version = EV_CURRENT;

	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_addr = addr;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_addralign = align;
	return scn;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

uint64_t elfimage__cfi_offset(uint32_t text_size)
{
	return align_up(ELFIMAGE_TEXT_OFFSET + (uint64_t)text_size, 8);
}

static uint64_t cfi_vaddr(const struct image *im)
{
	return im->cfi->vaddr ? im->cfi->vaddr : elfimage__cfi_offset(im->text_size);
}

static uint64_t cfi_size(const struct image *im)
{
	return im->cfi ? im->cfi->eh_frame_size + im->cfi->hdr_size : 0;
}


static void set_seg(Elf64_Phdr *ph, uint32_t type, uint32_t flags, uint64_t off,
		    uint64_t vaddr, uint64_t size, uint64_t align)
{
	ph->p_type = type;
	ph->p_flags = flags;
	ph->p_offset = off;
	ph->p_vaddr = vaddr;
	ph->p_paddr = vaddr;
	ph->p_filesz = size;
	ph->p_memsz = size;
	ph->p_align = align;
}

static void set_headers(Elf64_Ehdr *eh, Elf64_Phdr *ph, const struct image *im,
			uint64_t shoff, size_t phnum, uint32_t shstrndx)
{
	uint64_t note_off = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);

	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh->e_type = ET_DYN;
	eh->e_machine = im->e_machine;
	eh->e_version = EV_CURRENT;
	eh->e_entry = ELFIMAGE_TEXT_OFFSET;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_shoff = shoff;
	eh->e_shstrndx = shstrndx;

	/* the build id for tools that read segments, not sections (docs/formats-perf.md) */
	if (!im->cfi) {
		set_seg(&ph[0], PT_LOAD, PF_R | PF_X, ELFIMAGE_TEXT_OFFSET, ELFIMAGE_TEXT_OFFSET,
			im->text_size, ELFIMAGE_PAGE);
		set_seg(&ph[1], PT_NOTE, PF_R, note_off, note_off, NOTE_SIZE, 4);
		return;
	}
	/*
	 * A first PT_LOAD at 0, as in any shared object: perf's libunwind
	 * glue takes the lowest PT_LOAD's page as the image's base when it
	 * works out where .eh_frame_hdr is mapped. It holds the note too.
	 */
	set_seg(&ph[0], PT_LOAD, PF_R, 0, 0, note_off + NOTE_SIZE, ELFIMAGE_PAGE);
	set_seg(&ph[1], PT_LOAD, PF_R | PF_X, ELFIMAGE_TEXT_OFFSET, ELFIMAGE_TEXT_OFFSET,
		im->text_size, ELFIMAGE_PAGE);
	set_seg(&ph[2], PT_LOAD, PF_R, elfimage__cfi_offset(im->text_size), cfi_vaddr(im),
		cfi_size(im), ELFIMAGE_PAGE);
	set_seg(&ph[3], PT_NOTE, PF_R, note_off, note_off, NOTE_SIZE, 4);
	set_seg(&ph[4], PT_GNU_EH_FRAME, PF_R,
		elfimage__cfi_offset(im->text_size) + im->cfi->eh_frame_size,
		cfi_vaddr(im) + im->cfi->eh_frame_size, im->cfi->hdr_size, 4);
}

/* Lay the image out into fd; returns 0 or a libelf message. */
static const char *emit(int fd, struct image *im)
{
	size_t phnum = im->cfi ? PHNUM_CFI : PHNUM_PLAIN;
	uint64_t note_off = sizeof(Elf64_Ehdr) + phnum * sizeof(Elf64_Phdr);
	uint64_t cfi_off = elfimage__cfi_offset(im->text_size);
	uint64_t cfi_addr = im->cfi ? cfi_vaddr(im) : 0;
	uint64_t symoff, stroff, shstroff, shoff;
	uint32_t sec_symtab = im->cfi ? 5 : 3;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	Elf64_Shdr *ss;
	Elf_Scn *symscn;
	Elf *e;
	const char *msg = NULL;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return "libelf is too old";
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e)
		return elf_errmsg(-1);
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);

	symoff = align_up(im->cfi ? cfi_off + cfi_size(im)
				  : ELFIMAGE_TEXT_OFFSET + (uint64_t)im->text_size, 8);
	stroff = symoff + im->nsyms * sizeof(Elf64_Sym);
	shstroff = stroff + im->strsz;
	shoff = align_up(shstroff + sizeof(shstrtab), 8);

	if (!(eh = elf64_newehdr(e)) || !(ph = elf64_newphdr(e, phnum)))
		goto fail;
	set_headers(eh, ph, im, shoff, phnum, sec_symtab + 2);

	/* loaded with the headers when there is a first PT_LOAD at 0 */
	if (!add_section(e, NAME_NOTE, SHT_NOTE, im->cfi ? SHF_ALLOC : 0, im->cfi ? note_off : 0,
			 note_off, im->note, NOTE_SIZE, ELF_T_BYTE, 4) ||
	    !add_section(e, NAME_TEXT, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
			 ELFIMAGE_TEXT_OFFSET, ELFIMAGE_TEXT_OFFSET, im->text,
			 im->text_size, ELF_T_BYTE, 16))
		goto fail;
	if (im->cfi &&
	    (!add_section(e, NAME_EH_FRAME, SHT_PROGBITS, SHF_ALLOC, cfi_addr, cfi_off,
			  im->cfi->data, im->cfi->eh_frame_size, ELF_T_BYTE, 8) ||
	     !add_section(e, NAME_EH_HDR, SHT_PROGBITS, SHF_ALLOC,
			  cfi_addr + im->cfi->eh_frame_size, cfi_off + im->cfi->eh_frame_size,
			  im->cfi->data + im->cfi->eh_frame_size, im->cfi->hdr_size,
			  ELF_T_BYTE, 4)))
		goto fail;
	if (!(symscn = add_section(e, NAME_SYMTAB, SHT_SYMTAB, 0, 0, symoff, im->syms,
				   im->nsyms * sizeof(Elf64_Sym), ELF_T_SYM, 8)) ||
	    !add_section(e, NAME_STRTAB, SHT_STRTAB, 0, 0, stroff, im->str, im->strsz,
			 ELF_T_BYTE, 1) ||
	    !add_section(e, NAME_SHSTRTAB, SHT_STRTAB, 0, 0, shstroff, shstrtab,
			 sizeof(shstrtab), ELF_T_BYTE, 1))
		goto fail;

	ss = elf64_getshdr(symscn);
	ss->sh_link = sec_symtab + 1;
	ss->sh_info = 1;	/* index of the first non-local symbol */
	ss->sh_entsize = sizeof(Elf64_Sym);

	if (elf_update(e, ELF_C_WRITE) < 0)
		goto fail;
	elf_end(e);
	return NULL;
fail:
	msg = elf_errmsg(-1);
	elf_end(e);
	return msg ? msg : "libelf error";
}

static int check_cfi(const char *path, uint32_t text_size, const struct elfimage_cfi *cfi,
		     struct ap_err *err)
{
	uint64_t off = elfimage__cfi_offset(text_size);

	if (!cfi)
		return 0;
	if (!cfi->data || !cfi->hdr_size || cfi->eh_frame_size % 4)
		return ap_errf(err, "%s: unwinding data is incomplete", path);
	if (cfi->vaddr && (cfi->vaddr < off || cfi->vaddr % ELFIMAGE_PAGE != off % ELFIMAGE_PAGE))
		return ap_errf(err, "%s: unwinding data cannot go at 0x%llx", path,
			       (unsigned long long)cfi->vaddr);
	return 0;
}

int elfimage__write_cfi(const char *path, uint16_t e_machine, const uint8_t *text,
			uint32_t text_size, const uint32_t *offsets, uint32_t nfuncs,
			const char *const *names, const struct elfimage_cfi *cfi,
			uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE], struct ap_err *err)
{
	struct image im = { .e_machine = e_machine, .text = text,
			    .text_size = text_size, .cfi = cfi };
	struct outfile o;
	const char *msg;

	if (text_size && !text)
		return ap_errf(err, "%s: no text given", path);
	if (check_offsets(path, text_size, offsets, nfuncs, err) || check_cfi(path, text_size, cfi, err))
		return -1;
	if (build_symtab(&im, offsets, nfuncs, names)) {
		image_free(&im);
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", path);
	}
	build_note(&im, build_id);

	if (outfile__open(&o, path, err)) {
		image_free(&im);
		return -1;
	}
	msg = emit(o.fd, &im);
	image_free(&im);
	if (msg) {
		outfile__abort(&o);
		return ap_errf(err, "%s: cannot write ELF image: %s", path, msg);
	}
	return outfile__commit(&o, err);
}

int elfimage__write_id(const char *path, uint16_t e_machine,
		       const uint8_t *text, uint32_t text_size,
		       const uint32_t *offsets, uint32_t nfuncs,
		       const char *const *names,
		       uint8_t build_id[ELFIMAGE_BUILD_ID_SIZE],
		       struct ap_err *err)
{
	return elfimage__write_cfi(path, e_machine, text, text_size, offsets, nfuncs, names,
				   NULL, build_id, err);
}

int elfimage__write(const char *path, uint16_t e_machine, const uint8_t *text,
		    uint32_t text_size, const uint32_t *offsets, uint32_t nfuncs,
		    const char *const *names, struct ap_err *err)
{
	return elfimage__write_id(path, e_machine, text, text_size, offsets,
				  nfuncs, names, NULL, err);
}
