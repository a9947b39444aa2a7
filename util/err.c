// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include "err.h"

int ap_errf(struct ap_err *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -1;
}
