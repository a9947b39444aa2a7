// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include "err.h"

static int verrk(struct ap_err *err, enum ap_err_kind kind, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->kind = kind;
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -1;
}

int ap_errf(struct ap_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrk(err, AP_ERR_INPUT, fmt, ap);
	va_end(ap);
	return -1;
}

int ap_errk(struct ap_err *err, enum ap_err_kind kind, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrk(err, kind, fmt, ap);
	va_end(ap);
	return -1;
}

int ap_err_nomem(struct ap_err *err)
{
	return ap_errk(err, AP_ERR_NOMEM, "out of memory");
}
