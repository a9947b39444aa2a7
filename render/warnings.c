// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include "warnings.h"

void render__json_warning(struct json_out *j, const struct ap_warning *w, render_hint_fn hint)
{
	const char *h = hint && w->hint ? hint(w->hint) : NULL;
	char *s;

	if (!h || asprintf(&s, "%s; %s", w->msg, h) < 0) {
		json_str(j, w->msg);
		return;
	}
	json_str(j, s);
	free(s);
}

void render__json_warnings(struct json_out *j, const struct ap_warnings *ws, render_hint_fn hint)
{
	for (size_t i = 0; i < ws->n; i++)
		render__json_warning(j, &ws->w[i], hint);
}
