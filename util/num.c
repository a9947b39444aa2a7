// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>
#include "num.h"

int ap_parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}
