// SPDX-License-Identifier: MIT
/* The samples outside wasm, per (dso, symbol): what the HTML and Markdown reports list. */
#include <stdlib.h>
#include <string.h>
#include "report-export.h"
#include "../profile/host.h"

static int row_cmp(const void *a, const void *b)
{
	const struct render_host_row *x = a, *y = b;
	int c;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	c = strcmp(x->dso, y->dso);
	if (c)
		return c;
	return strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
}

/* by dso, then symbol: equal keys next to each other */
static int key_cmp(const void *a, const void *b)
{
	const struct render_host_row *x = a, *y = b;
	int c = strcmp(x->dso, y->dso);

	if (c)
		return c;
	if (!x->sym || !y->sym)
		return !x->sym - !y->sym;
	return strcmp(x->sym, y->sym);
}

int render__host_rows(const struct profile *p, struct render_host_row **rows, size_t *n)
{
	const struct profile_host *h = p->host;
	struct render_host_row *v;
	size_t k = 0;

	*rows = NULL;
	*n = 0;
	if (!h || !h->nframes)
		return 0;
	v = malloc(h->nframes * sizeof(*v));
	if (!v)
		return -1;
	for (size_t i = 0; i < h->nframes; i++)
		v[i] = (struct render_host_row){ h->dsos[h->frames[i].dso], h->frames[i].sym,
						 h->frames[i].samples };
	qsort(v, h->nframes, sizeof(*v), key_cmp);
	for (size_t i = 0; i < h->nframes; i++) {
		if (k && !key_cmp(&v[k - 1], &v[i]))
			v[k - 1].samples += v[i].samples;
		else
			v[k++] = v[i];
	}
	qsort(v, k, sizeof(*v), row_cmp);
	*rows = v;
	*n = k;
	return 0;
}
