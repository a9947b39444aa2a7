// SPDX-License-Identifier: MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "array.h"
#include "err.h"

static int verrk(struct ap_err *err, enum ap_err_kind kind, const char *fmt, va_list ap)
{
	if (!err)
		return -1;
	err->kind = kind;
	err->hint = AP_HINT_NONE;
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

int ap_err_hint(struct ap_err *err, enum ap_hint hint)
{
	if (err)
		err->hint = hint;
	return -1;
}

int ap_err_prefix(struct ap_err *err, const char *fmt, ...)
{
	char tail[sizeof(err->msg)];
	size_t n;
	va_list ap;
	int w;

	if (!err)
		return -1;
	memcpy(tail, err->msg, sizeof(tail));
	va_start(ap, fmt);
	w = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	n = w < 0 ? 0 : (size_t)w < sizeof(err->msg) ? (size_t)w : sizeof(err->msg) - 1;
	memcpy(err->msg + n, tail, sizeof(err->msg) - n - 1);
	err->msg[sizeof(err->msg) - 1] = '\0';
	return -1;
}

int ap_warnings__add(struct ap_warnings *ws, enum ap_hint hint, const char *fmt, ...)
{
	struct ap_warning w = { .hint = hint };
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&w.msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	if (ap_push(&ws->w, &ws->n, &ws->cap, &w, sizeof(w))) {
		free(w.msg);
		return -1;
	}
	return 0;
}

void ap_warnings__exit(struct ap_warnings *ws)
{
	for (size_t i = 0; i < ws->n; i++)
		free(ws->w[i].msg);
	free(ws->w);
	ws->w = NULL;
	ws->n = ws->cap = 0;
}
