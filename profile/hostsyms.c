// SPDX-License-Identifier: MIT
/*
 * Symbols for the host frames (profile/host.h), looked up where perf looks:
 *
 *  - user space: the function symbols (STT_FUNC, STT_GNU_IFUNC, defined; a
 *    zero size reaches to the next one) of the mapped file's symbol table;
 *    when it has none, of its separate debug file found by build id
 *    (/usr/lib/debug/.build-id/xx/rest.debug), else its dynamic symbols.
 *    The file is the one at that path on this machine: when the mapping
 *    record names a device and inode (MMAP2) other than the file's, it is
 *    another build and its frames stay [unknown];
 *  - [vdso]: this process's vdso image, when it is as long as the recorded
 *    mapping (perf keeps a copy of the recording's; aotperf assumes the
 *    same kernel);
 *  - the kernel: /proc/kallsyms, when its _text and _etext are the
 *    recording's kernel mapping (the same kernel, laid out the same way);
 *    modules are not looked up.
 *
 * Kept out of host.c so the dlfilter, which never names host frames, links
 * no libelf.
 */
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include "host.h"
#include "../util/array.h"
#include "../util/file.h"

#define HOSTSYMS_FILE_MAX ((size_t)1 << 30)
#define HOSTSYMS_KALLSYMS_MAX ((size_t)256 << 20)
#define HOSTSYMS_DEBUG_DIR "/usr/lib/debug/.build-id"
#define HOSTSYMS_VDSO_MAX ((uint64_t)1 << 20)

struct fsym {
	uint64_t value, size;
	const char *name;	/* in the ELF buffer */
	char *copy;		/* once a frame uses it; owned by the host's symstore */
	uint8_t bind;		/* STB_LOCAL, STB_GLOBAL, STB_WEAK */
};

struct felf {
	Elf *e;
	char *buf;
	Elf *de;		/* the separate debug file, when its symbols are used */
	char *dbuf;
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

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * Of two symbols at one address, the one perf shows (its symbol.c,
 * choose_best_symbol): a sized one, then not weak, then global, then the
 * fewer leading underscores, then the longer name; on a tie the first.
 */
static int better(const struct fsym *a, const struct fsym *b)
{
	if (!a->size != !b->size)
		return !!a->size;
	if ((a->bind == STB_WEAK) != (b->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	if (underscores(a->name) != underscores(b->name))
		return underscores(a->name) < underscores(b->name);
	return strlen(a->name) >= strlen(b->name);
}

/* Sort by address and keep one symbol per address, as perf does. */
static void sort_syms(struct felf *f)
{
	size_t k = 0;

	qsort(f->syms, f->nsyms, sizeof(*f->syms), fsym_cmp);
	for (size_t i = 0; i < f->nsyms; i++) {
		if (k && f->syms[k - 1].value == f->syms[i].value) {
			if (!better(&f->syms[k - 1], &f->syms[i]))
				f->syms[k - 1] = f->syms[i];
			continue;
		}
		f->syms[k++] = f->syms[i];
	}
	f->nsyms = k;
}

static const char *keep(struct profile_host *h, char **copy, const char *name);

/* The section of type `type` of e, or NULL. */
static Elf_Scn *section_of(Elf *e, uint32_t type, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, out) && out->sh_type == type)
			return scn;
	return NULL;
}

static int read_syms(struct felf *f, Elf *e)
{
	GElf_Shdr tsh = { 0 };
	Elf_Scn *tab = section_of(e, SHT_SYMTAB, &tsh);
	Elf_Data *d;
	size_t n;

	if (!tab)
		tab = section_of(e, SHT_DYNSYM, &tsh);

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
		name = elf_strptr(e, tsh.sh_link, s.st_name);
		if (name && *name)
			f->syms[f->nsyms++] = (struct fsym){ s.st_value, s.st_size, name, NULL,
							     (uint8_t)GELF_ST_BIND(s.st_info) };
	}
	sort_syms(f);
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
static int same_file(const struct stat *st, const struct profile_host_frame *fr)
{
	if (!fr->ino)
		return 1;
	return st->st_ino == (ino_t)fr->ino && major(st->st_dev) == fr->dev_major &&
	       minor(st->st_dev) == fr->dev_minor;
}

/* The GNU build id of e as hex into out (at least 41 bytes); 0 when it has one. */
static int build_id(Elf *e, char *out, size_t len)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e, scn))) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			const uint8_t *id = (const uint8_t *)d->d_buf + desc_off;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((const char *)d->d_buf + name_off, "GNU", 4) ||
			    !nh.n_descsz || nh.n_descsz * 2 + 1 > len)
				continue;
			for (size_t i = 0; i < nh.n_descsz; i++)
				snprintf(out + 2 * i, 3, "%02x", id[i]);
			return 0;
		}
	}
	return -1;
}

/* A file's ELF image in memory: 1, 0 when it is none or unreadable, -1 out of memory. */
static int elf_read(const char *path, char **buf, Elf **e)
{
	struct ap_err err;
	size_t len;

	*e = NULL;
	if (ap_file__read_all(path, 0, HOSTSYMS_FILE_MAX, buf, &len, NULL, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	*e = elf_memory(*buf, len);
	return *e && elf_kind(*e) == ELF_K_ELF;
}

/* The separate debug file of f (by build id), when it has a symbol table. */
static int debug_file(struct felf *f)
{
	char id[128], path[256];
	GElf_Shdr sh;
	int r;

	if (build_id(f->e, id, sizeof(id)) || strlen(id) < 3)
		return 0;
	snprintf(path, sizeof(path), HOSTSYMS_DEBUG_DIR "/%.2s/%s.debug", id, id + 2);
	r = elf_read(path, &f->dbuf, &f->de);
	if (r > 0 && section_of(f->de, SHT_SYMTAB, &sh))
		return 1;
	if (f->de)
		elf_end(f->de);
	free(f->dbuf);
	f->de = NULL;
	f->dbuf = NULL;
	return r < 0 ? -1 : 0;
}

/* 1 when the file was opened; 0 when it cannot be (its frames stay unknown); -1 out of memory. */
static int felf_open(struct felf *f, const char *path)
{
	GElf_Shdr sh;
	int r;

	memset(f, 0, sizeof(*f));
	r = elf_read(path, &f->buf, &f->e);
	if (r <= 0)
		return r;
	if (read_loads(f))
		return -1;
	r = section_of(f->e, SHT_SYMTAB, &sh) ? 0 : debug_file(f);
	if (r < 0 || read_syms(f, r ? f->de : f->e))
		return -1;
	return 1;
}

/*
 * [vdso]: this process's own vdso, the image the kernel maps into every
 * process, when it is as long as the recorded one (the recording was made
 * on this kernel: the same image). 1, 0 when not, -1 out of memory.
 */
static int vdso_open(struct felf *f, uint64_t len)
{
	unsigned long at = getauxval(AT_SYSINFO_EHDR);
	char line[256];
	uint64_t lo = 0, hi = 0, ours = 0;
	FILE *maps;

	memset(f, 0, sizeof(*f));
	if (!at || !len || len > HOSTSYMS_VDSO_MAX)
		return 0;
	maps = fopen("/proc/self/maps", "r");
	if (!maps)
		return 0;
	while (fgets(line, sizeof(line), maps))
		if (strstr(line, "[vdso]") && sscanf(line, "%" SCNx64 "-%" SCNx64, &lo, &hi) == 2)
			ours = hi - lo;
	fclose(maps);
	if (ours != len || lo != at)
		return 0;
	f->buf = malloc(len);
	if (!f->buf)
		return -1;
	memcpy(f->buf, (const void *)at, len);
	f->e = elf_memory(f->buf, len);
	if (!f->e || elf_kind(f->e) != ELF_K_ELF)
		return 0;
	return read_loads(f) || read_syms(f, f->e) ? -1 : 1;
}

static void felf_close(struct felf *f)
{
	free(f->syms);
	free(f->loads);
	if (f->e)
		elf_end(f->e);
	free(f->buf);
	if (f->de)
		elf_end(f->de);
	free(f->dbuf);
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
	if (f->syms[i].size)
		return va - f->syms[i].value < f->syms[i].size ? &f->syms[i] : NULL;
	/* a zero size reaches to the next symbol */
	return i + 1 < f->nsyms || va == f->syms[i].value ? &f->syms[i] : NULL;
}

/* Symbols of the frames of dso d (user frames of one file, or the vdso). */
static int resolve_dso(struct profile_host *h, uint32_t d, int vdso)
{
	const char *path = h->dsos[d];
	struct felf f = { 0 };
	struct stat st;
	uint64_t vdso_len = 0;
	int opened = -2, ret = 0;

	for (size_t i = 0; i < h->nframes; i++) {
		struct profile_host_frame *fr = &h->frames[i];
		struct fsym *s;

		if (fr->dso != d || fr->kernel || fr->map_end <= fr->map_start)
			continue;
		if (opened == -2 && vdso) {
			vdso_len = fr->map_end - fr->map_start;
			opened = vdso_open(&f, vdso_len);
		} else if (opened == -2) {
			opened = !stat(path, &st) && S_ISREG(st.st_mode) ? felf_open(&f, path) : 0;
		}
		if (opened <= 0) {
			ret = opened;
			break;
		}
		/* each mapping record names its file: another inode is another build */
		if (vdso ? fr->map_end - fr->map_start != vdso_len : !same_file(&st, fr))
			continue;
		s = sym_at(&f, fr->ip - fr->map_start + fr->pgoff);
		if (!s)
			continue;
		fr->sym = keep(h, &s->copy, s->name);
		if (!fr->sym) {
			ret = -1;
			break;
		}
	}
	felf_close(&f);
	return ret;
}

/* The name a frame points to, copied once into the host's symstore. */
static const char *keep(struct profile_host *h, char **copy, const char *name)
{
	if (!*copy) {
		char *dup = strdup(name);

		if (!dup ||
		    ap_push(&h->symstore, &h->nsymstore, &h->cap_symstore, &dup, sizeof(dup))) {
			free(dup);
			return NULL;
		}
		*copy = dup;
	}
	return *copy;
}

/* Function symbols of /proc/kallsyms outside modules, into f->syms; _text and _etext. */
static int read_kallsyms(struct felf *f, uint64_t *text, uint64_t *etext)
{
	struct ap_err err;
	size_t len, cap = 0;
	char *line, *next;

	*text = *etext = 0;
	if (ap_file__read_all("/proc/kallsyms", 0, HOSTSYMS_KALLSYMS_MAX, &f->buf, &len, NULL, &err))
		return err.kind == AP_ERR_NOMEM ? -1 : 0;
	for (line = f->buf; line && *line; line = next) {
		char *end, *name, type;
		uint64_t addr;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		addr = strtoull(line, &end, 16);
		if (end == line || end[0] != ' ' || !end[1] || end[2] != ' ')
			continue;
		type = end[1];
		name = end + 3;
		if (strchr(name, '\t'))	/* "name\t[module]" */
			continue;
		if (!strcmp(name, "_text"))
			*text = addr;
		else if (!strcmp(name, "_etext"))
			*etext = addr;
		if (!strchr("tTwW", type) || !addr)
			continue;
		if (ap_grow(&f->syms, &cap, f->nsyms + 1, sizeof(*f->syms)))
			return -1;
		f->syms[f->nsyms++] = (struct fsym){ addr, 0, name, NULL,
						     type == 'w' || type == 'W' ? STB_WEAK :
						     type == 'T' ? STB_GLOBAL : STB_LOCAL };
	}
	sort_syms(f);
	return 1;
}

/* Kernel frames of dso d ([kernel.kallsyms]) named from /proc/kallsyms, when it is that kernel. */
static int resolve_kernel(struct profile_host *h, uint32_t d)
{
	struct felf f = { 0 };
	uint64_t start = 0, end = 0, text, etext;
	int r, ret = 0;

	for (size_t i = 0; i < h->nframes && !end; i++) {
		if (h->frames[i].dso == d && h->frames[i].map_end > h->frames[i].map_start) {
			start = h->frames[i].map_start;
			end = h->frames[i].map_end;
		}
	}
	if (!end)
		return 0;
	r = read_kallsyms(&f, &text, &etext);
	if (r <= 0 || text != start || etext != end) {
		felf_close(&f);
		return r < 0 ? -1 : 0;
	}
	for (size_t i = 0; i < h->nframes; i++) {
		struct profile_host_frame *fr = &h->frames[i];
		size_t lo = 0, hi = f.nsyms;

		if (fr->dso != d || fr->ip < text || fr->ip >= etext)
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (f.syms[mid].value <= fr->ip)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (!lo)
			continue;
		fr->sym = keep(h, &f.syms[lo - 1].copy, f.syms[lo - 1].name);
		if (!fr->sym) {
			ret = -1;
			break;
		}
	}
	felf_close(&f);
	return ret;
}

int profile_host__symbols(struct profile_host *h, struct ap_err *err)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return 0;
	for (uint32_t d = 0; d < h->ndsos; d++) {
		int r = 0;

		if (h->dsos[d][0] == '/' || !strcmp(h->dsos[d], "[vdso]"))
			r = resolve_dso(h, d, h->dsos[d][0] != '/');
		else if (!strcmp(h->dsos[d], "[kernel.kallsyms]"))
			r = resolve_kernel(h, d);
		if (r)
			return ap_err_nomem(err);
	}
	return 0;
}
