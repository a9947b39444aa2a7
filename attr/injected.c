// SPDX-License-Identifier: MIT
/* Files an inject step wrote (attr.h): apart from attr.c, so the dlfilter
 * can ask without linking the perf.data reader. */
#include <string.h>
#include "attr.h"

int attr__injected_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 10 && !strncmp(base, "jitted-", 7) && !strcmp(base + n - 3, ".so"))
		return ATTR_INJECTED_JIT;
	if (n > 11 && !strcmp(base + n - 11, ".aotperf.so"))
		return ATTR_INJECTED_IMAGE;
	return 0;
}
