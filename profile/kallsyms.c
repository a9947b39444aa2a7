// SPDX-License-Identifier: MIT
/* The recorded kernel's symbols: where they are, and their text read (kallsyms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "kallsyms.h"
#include "kernel_id.h"
#include "../util/perfconfig.h"

#define KALLSYMS_ID_MAX 20	/* SHA-1: the longest build id perf keeps */

static void hex(char *out, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

/* perf's copy of the kallsyms of kernel build id (hex) in its cache: 1 with its path. */
static int cached(const char *id, char *path, size_t n, char *dir, size_t dn)
{
	struct stat st;

	if (ap_perf__buildid_dir(dir, dn)) {
		snprintf(dir, dn, "no build-id cache folder (no HOME)");
		return 0;
	}
	return (size_t)snprintf(path, n, "%s/[kernel.kallsyms]/%s/kallsyms", dir, id) < n &&
	       !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, R_OK);
}

void kallsyms__where(struct perfdata *pd, unsigned flags, struct kallsyms_where *w)
{
	uint8_t id[KALLSYMS_ID_MAX];
	size_t nid = perfdata__kernel_build_id(pd, id, sizeof(id));
	char sid[2 * KALLSYMS_ID_MAX + 1], dir[sizeof(w->path)], why[sizeof(w->why)];

	memset(w, 0, sizeof(*w));
	if (nid) {
		hex(sid, id, nid);
		if (cached(sid, w->path, sizeof(w->path), dir, sizeof(dir))) {
			w->from = KALLSYMS_CACHE;
			return;
		}
	}
	if (kernel_id__same(pd, KERNEL_ID_NOTES, why, sizeof(why)) ||
	    (!nid && (flags & KALLSYMS_UNVERIFIED))) {
		w->from = KALLSYMS_RUNNING;
		snprintf(w->path, sizeof(w->path), "%s", KALLSYMS_PROC);
		return;
	}
	w->from = KALLSYMS_NONE;
	if (nid)
		snprintf(w->why, sizeof(w->why), "%.160s, and no copy of its symbols in perf's"
			 " build-id cache (%.160s)", why, dir);
	else
		snprintf(w->why, sizeof(w->why), "%s", why);
}

/* a hex digit's value + 1; 0: not one (the kernel prints lowercase) */
static const uint8_t hex1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16,
};

/* The hex number at q (16 digits at most) into *v: where it ends; q when none is there. */
static const char *read_hex(const char *q, const char *end, uint64_t *v)
{
	const char *start = q;
	uint64_t a = 0;

	while (q < end && q - start < 17 && hex1[(unsigned char)*q]) {
		a = a << 4 | (uint64_t)(hex1[(unsigned char)*q] - 1);
		q++;
	}
	*v = a;
	return q - start > 16 ? start : q;
}

/*
 * A line "ADDR TYPE NAME" of n bytes: the name's start, the address into
 * *addr and the type into *type; NULL when it is not one, or is a
 * module's (a tab in the name).
 */
static const char *parse_line(const char *line, size_t n, uint64_t *addr, char *type)
{
	const char *q = read_hex(line, line + n, addr), *name = q + 3;

	if (q == line || line + n - q < 3 || q[0] != ' ' || q[2] != ' ' ||
	    memchr(name, '\t', (size_t)(line + n - name)))
		return NULL;
	*type = q[1];
	return name;
}

/* The bind of a function symbol's type (t, T, w, W), -1 for other types. */
static int bind_of(char type)
{
	switch (type) {
	case 't':
		return STB_LOCAL;
	case 'T':
		return STB_GLOBAL;
	case 'w':
	case 'W':
		return STB_WEAK;
	default:
		return -1;
	}
}

/* One more symbol in *v (growing it); -1 when out of memory. */
static int push(struct elf_func **v, size_t *n, size_t *cap, size_t hint,
		const struct elf_func *f)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : hint;
		struct elf_func *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = *f;
	return 0;
}

int kallsyms__parse(char *text, size_t len, struct elf_func **out, size_t *n, uint64_t *stext,
		    uint64_t *etext)
{
	char *p = text, *end = text + len;
	struct elf_func *v = NULL;
	size_t cnt = 0, cap = 0;
	int sorted = 1;

	*out = NULL;
	*n = 0;
	*stext = *etext = 0;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p;
		const char *name;
		uint64_t addr;
		char type;
		int bind;

		if (!nl)
			nl = end;
		p = nl < end ? nl + 1 : end;
		*nl = 0;
		/* a line ends at its first NUL too (as the index reads it) */
		nl = line + strlen(line);
		name = parse_line(line, (size_t)(nl - line), &addr, &type);
		if (!name)
			continue;
		if (nl - name == 5 && !memcmp(name, "_text", 5))
			*stext = addr;
		else if (nl - name == 6 && !memcmp(name, "_etext", 6))
			*etext = addr;
		if ((bind = bind_of(type)) < 0 || !addr)
			continue;
		if (push(&v, &cnt, &cap, len / 64 + 16,
			 &(struct elf_func){ addr, 0, name, 0, cnt, (uint8_t)bind })) {
			free(v);
			return -1;
		}
		sorted &= cnt < 2 || v[cnt - 2].value <= addr;
	}
	/* the kernel lists its own symbols by address: sorted already, as a rule */
	if (!sorted)
		qsort(v, cnt, sizeof(*v), elf_func__cmp);
	/*
	 * perf sizes kallsyms' symbols to the next one's address before it
	 * picks among aliases: all but the last at an address are empty, so
	 * the last one listed wins (its symbol.c, kallsyms: fixup_end, then
	 * fixup_duplicate).
	 */
	for (size_t i = 0; i + 1 < cnt; i++)
		v[i].size = v[i + 1].value - v[i].value;
	*out = v;
	*n = cnt;
	return 0;
}

/* --- the kernel's own layout, looked up without reading every line ----------- */

#define KS_ADDR 16	/* a 64-bit kernel's addresses: 16 hex digits */

struct kallsyms {
	char *text;		/* len bytes and a NUL */
	uint32_t *lines;	/* offsets of its lines, modules' left out: sorted by address */
	size_t n;
	uint64_t stext, etext;
};

/* Two lines' 16 address bytes in order: <0, 0, >0 as memcmp() (inline: once a line). */
static int addr_cmp(const char *a, const char *b)
{
	uint64_t x[2], y[2];

	memcpy(x, a, sizeof(x));
	memcpy(y, b, sizeof(y));
	for (int i = 0; i < 2; i++) {
		uint64_t u = __builtin_bswap64(x[i]), v = __builtin_bswap64(y[i]);

		if (u != v)
			return u < v ? -1 : 1;
	}
	return 0;
}

/* A blank among 8 bytes. */
static int has_blank(uint64_t w)
{
	uint64_t v = w ^ 0x2020202020202020ULL;

	return ((v - 0x0101010101010101ULL) & ~v & 0x8080808080808080ULL) != 0;
}

/*
 * A line's 16 address bytes as a key that compares as they read (first
 * byte most significant): 0, or -1 when a blank is among them (a shorter
 * address: the full parse takes such a line; the index, comparing 16
 * bytes, would not).
 */
static int addr_key(const char *line, uint64_t key[2])
{
	uint64_t w[2];

	memcpy(w, line, sizeof(w));
	if (has_blank(w[0]) || has_blank(w[1]))
		return -1;
	key[0] = __builtin_bswap64(w[0]);
	key[1] = __builtin_bswap64(w[1]);
	return 0;
}

/* The address of the line at line, when it is a valid one: _text's and _etext's. */
static void range_line(struct kallsyms *k, const char *line, size_t n)
{
	uint64_t addr;
	const char *name;
	char type;

	if (n == KS_ADDR + 3 + 5 && !memcmp(line + KS_ADDR + 3, "_text", 5) &&
	    (name = parse_line(line, n, &addr, &type)))
		k->stext = addr;
	else if (n == KS_ADDR + 3 + 6 && !memcmp(line + KS_ADDR + 3, "_etext", 6) &&
		 (name = parse_line(line, n, &addr, &type)))
		k->etext = addr;
}

void kallsyms__delete(struct kallsyms *k)
{
	if (!k)
		return;
	free(k->text);
	free(k->lines);
	free(k);
}

int kallsyms__index(char *text, size_t len, struct kallsyms **out)
{
	struct kallsyms *k;
	const char *p = text, *end = text + len;
	size_t cap = len / 32 + 16;
	uint64_t prev[2] = { 0, 0 }, key[2];

	*out = NULL;
	if (len > UINT32_MAX)
		return 0;
	k = calloc(1, sizeof(*k));
	if (!k || !(k->lines = malloc(cap * sizeof(*k->lines)))) {
		free(k);
		return -1;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p;

		if (!nl)
			nl = end;
		p = nl < end ? nl + 1 : end;
		/* empty, or a module's "name\t[module]" (a line ends at a NUL, as in the parse) */
		if (nl == line ||
		    (nl[-1] == ']' && memchr(line, '\t', strnlen(line, (size_t)(nl - line)))))
			continue;
		/*
		 * 16 digits, a blank, the type, a blank, in order: else the full
		 * parse takes it. Lowercase hex digits compare as their values.
		 */
		if (nl - line <= KS_ADDR + 3 || line[KS_ADDR] != ' ' || line[KS_ADDR + 2] != ' ' ||
		    addr_key(line, key) || key[0] < prev[0] || (key[0] == prev[0] && key[1] < prev[1])) {
			free(k->lines);
			free(k);
			return 0;
		}
		prev[0] = key[0];
		prev[1] = key[1];
		if (k->n == cap) {
			uint32_t *nv = realloc(k->lines, cap * 2 * sizeof(*nv));

			if (!nv) {
				kallsyms__delete(k);
				return -1;
			}
			k->lines = nv;
			cap *= 2;
		}
		k->lines[k->n++] = (uint32_t)(line - text);
		if (line[KS_ADDR + 3] == '_')
			range_line(k, line, (size_t)(nl - line));
	}
	k->text = text;
	*out = k;
	return 1;
}

void kallsyms__range(const struct kallsyms *k, uint64_t *stext, uint64_t *etext)
{
	*stext = k->stext;
	*etext = k->etext;
}

/* Line i as a function symbol (its name NUL-terminated in place), its address; else NULL. */
static const char *function_at(struct kallsyms *k, size_t i, uint64_t *addr)
{
	char *line = k->text + k->lines[i], type;
	size_t n = strcspn(line, "\n");
	const char *name = parse_line(line, n, addr, &type);

	if (!name || bind_of(type) < 0 || !*addr)
		return NULL;
	line[n] = 0;
	return name;
}

const char *kallsyms__find(struct kallsyms *k, uint64_t addr)
{
	static const char digits[] = "0123456789abcdef";
	size_t lo = 0, hi = k->n, i, j;
	uint64_t at, next = 0;
	const char *name = NULL;
	char key[KS_ADDR];

	for (uint64_t v = addr, d = KS_ADDR; d--; v >>= 4)
		key[d] = digits[v & 15];
	/* the first line above addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr_cmp(k->text + k->lines[mid], key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* the function at or below it: the last one listed at its address (perf's pick) */
	for (i = lo; i-- > 0 && !(name = function_at(k, i, &at));)
		;
	if (!name)
		return NULL;
	/* it ends where the next function begins (the last: the page after its own) */
	for (j = i + 1; j < k->n && !function_at(k, j, &next); j++)
		;
	if (j == k->n)
		next = (at & ~(uint64_t)4095) + 8192;
	return addr < next ? name : NULL;
}
