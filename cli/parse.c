// SPDX-License-Identifier: MIT
/* Option values parsed strictly: numbers, --arch. */
#include <string.h>
#include "cli.h"
#include "../util/num.h"

int cli_parse_u64(const char *s, int base, uint64_t *out)
{
	return ap_parse_u64(s, base, out);
}

int cli_parse_arch(const char *s, enum cwasm_arch *out, struct ap_err *err)
{
	if (s && *s && !cwasm_arch__parse(s, strlen(s), out))
		return 0;
	return ap_errf(err, "--arch: '%s' is not x86_64 or aarch64 (also amd64, x64, x86-64, "
		       "arm64)", s ? s : "");
}
