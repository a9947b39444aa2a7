// SPDX-License-Identifier: MIT
#include <string.h>
#include "hints.h"
#include "../symbolize/symbolize.h"

void hints__put_arg(FILE *f, const char *s)
{
	const char *p;

	fputc(' ', f);
	for (p = s; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_-+./:=,@%", *p))
			break;
	if (*s && !*p) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (p = s; *p; p++)
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	fputc('\'', f);
}

int hints__hottest_symbol(const struct profile *p, enum symname_mode mode, char *buf,
			  size_t len)
{
	uint32_t core, fn;

	if (!profile__hottest(p, &core, &fn))
		return -1;
	symname__format(buf, len, p->attr.cores[core].mod, fn, mode,
			symbolize__want_prefix(&p->attr));
	return 0;
}
