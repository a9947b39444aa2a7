// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "term.h"

unsigned ap_term__columns(FILE *out, int wide)
{
	const char *env = getenv("COLUMNS");
	unsigned long cols = 0;
	struct winsize ws;
	char *end;

	if (wide)
		return AP_TERM_UNLIMITED;
	if (env && *env) {
		cols = strtoul(env, &end, 10);
		if (*end)
			cols = 0;
	}
	if (!cols && out && isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws))
		cols = ws.ws_col;
	if (cols < AP_TERM_DEFAULT_COLUMNS)
		return AP_TERM_DEFAULT_COLUMNS;
	return cols > 100000 ? 100000 : (unsigned)cols;
}

char *ap_term__fit(char *dst, size_t dstsz, const char *s, size_t cols)
{
	size_t i = 0, o = 0, chars = 0, total = 0;

	if (!dstsz)
		return dst;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		total += (*p & 0xc0) != 0x80;
	while (s[i]) {
		size_t n = 1;

		while (s[i + n] && ((unsigned char)s[i + n] & 0xc0) == 0x80)
			n++;
		if (total > cols && chars + 3 >= cols)
			break;	/* room for "..." */
		if (chars + 1 > cols || o + n >= dstsz)
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
		chars++;
	}
	if (s[i] && cols >= 3 && o + 3 < dstsz) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}

/* Columns of the n bytes at s: one per UTF-8 character. */
static size_t columns_of(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

void ap_term__wrap(FILE *f, const char *text, size_t cols, size_t indent)
{
	const char *p = text;
	size_t col = 0;

	if (indent >= cols)
		indent = 0;
	while (*p) {
		size_t sp = strspn(p, " "), wl = strcspn(p + sp, " "), w = columns_of(p + sp, wl);

		if (!wl)
			break;
		if (col && col + sp + w > cols) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			sp = 0;
			p += strspn(p, " ");
		}
		fprintf(f, "%*s%.*s", (int)sp, "", (int)wl, p + strspn(p, " "));
		col += sp + w;
		p += strspn(p, " ") + wl;
	}
	fputc('\n', f);
}
