// SPDX-License-Identifier: MIT
/*
 * The name sanitizer (name.h). A wasm name is arbitrary bytes: a newline
 * or CR breaks a perf map line, an ESC or a C1 CSI drives the terminal
 * that shows it, a bidirectional control reorders what the reader sees.
 */
#include <stdlib.h>
#include <string.h>

#include "name.h"

/* Decode the UTF-8 character at s (RFC 3629); its length, or 0 if invalid. */
static size_t utf8_decode(const unsigned char *s, size_t avail, unsigned *cp)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t n, i;
	unsigned v;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		v = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		v = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		v = c & 0x07;
	} else {
		return 0;	/* stray continuation, overlong lead, past U+10FFFF */
	}
	if (n > avail)
		return 0;
	if (c == 0xe0)
		lo = 0xa0;	/* overlong */
	else if (c == 0xed)
		hi = 0x9f;	/* UTF-16 surrogates */
	else if (c == 0xf0)
		lo = 0x90;	/* overlong */
	else if (c == 0xf4)
		hi = 0x8f;	/* above U+10FFFF */
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	for (i = 1; i < n; i++)
		v = v << 6 | (s[i] & 0x3f);
	*cp = v;
	return n;
}

static int unwanted(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) ||
	       cp == 0x2028 || cp == 0x2029 ||
	       cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

size_t cwasm_name__sanitize(char *dst, size_t dstsz, const void *src, size_t len)
{
	const unsigned char *s = src;
	size_t i = 0, o = 0;

	if (!dstsz)
		return 0;
	while (s && i < len) {
		unsigned cp = 0;
		size_t n = utf8_decode(s + i, len - i, &cp);
		int keep = n && !unwanted(cp);

		if (o + (keep ? n : 1) >= dstsz)
			break;
		if (keep) {
			memcpy(dst + o, s + i, n);
			o += n;
		} else {
			dst[o++] = '_';
		}
		i += n ? n : 1;
	}
	dst[o] = '\0';
	return o;
}

void cwasm_name__fputs(const char *s, FILE *f)
{
	size_t len = strlen(s);
	char *buf = malloc(len + 1);

	if (!buf) {
		/* no room to sanitize: only the plain ASCII part, never raw bytes */
		for (; *s; s++)
			fputc(*s >= 0x20 && *s < 0x7f ? *s : '_', f);
		return;
	}
	len = cwasm_name__sanitize(buf, len + 1, s, len);
	fwrite(buf, 1, len, f);
	free(buf);
}

size_t cwasm_name__scrub_text(char *buf, size_t len)
{
	size_t i = 0, o = 0;

	while (i < len) {
		unsigned char *s = (unsigned char *)buf + i;
		unsigned cp = 0;
		size_t n = utf8_decode(s, len - i, &cp);

		if (n && (!unwanted(cp) || cp == '\n' || cp == '\t')) {
			memmove(buf + o, s, n);	/* o <= i: moves down only */
			o += n;
		} else {
			buf[o++] = '_';
		}
		i += n ? n : 1;
	}
	if (o < len)
		buf[o] = '\0';
	return o;
}
