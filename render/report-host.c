// SPDX-License-Identifier: MIT
/* The samples outside wasm, per (dso, symbol): what every report lists. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report-export.h"
#include "../util/pct.h"
#include "../util/term.h"
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

/* "libc.so.6" for "/usr/lib/.../libc.so.6"; "[kernel.kallsyms]", "[JIT] tid 7" as they are. */
static const char *perf_dso_name(const char *dso)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL;

	return slash ? slash + 1 : dso;
}

/* The rows past --top, summed: the listed ones and this still add up to the host's samples. */
static uint64_t rest_of(const struct render_host_row *rows, size_t from, size_t n)
{
	uint64_t rest = 0;

	for (size_t i = from; i < n; i++)
		rest += rows[i].samples;
	return rest;
}

int render__report_host_text(FILE *out, const struct profile *p, const struct render_opts *o)
{
	uint64_t total = p->attr.total_samples;
	size_t cols = o->columns ? o->columns : AP_TERM_DEFAULT_COLUMNS;
	struct render_host_row *rows;
	size_t n, shown, dso_w = 0;

	if (!p->host)
		return 0;
	if (render__host_rows(p, &rows, &n))
		return -1;
	fprintf(out, "  outside wasm      %8" PRIu64 "  (%.2f%% of run)\n", p->host->samples,
		ap_pct(p->host->samples, total));
	shown = o->top && o->top < n ? (size_t)o->top : n;
	while (shown && ap_pct(rows[shown - 1].samples, total) < o->percent_limit)
		shown--;
	/* the symbols in a column after the longest file name (at most 24) */
	for (size_t i = 0; i < shown; i++)
		if (strlen(perf_dso_name(rows[i].dso)) > dso_w)
			dso_w = strlen(perf_dso_name(rows[i].dso));
	if (dso_w > 24)
		dso_w = 24;
	for (size_t i = 0; i < shown; i++) {
		char name[512], fit[512];

		/* a file by its name as perf report prints it, the line fit to the width */
		snprintf(name, sizeof(name), "%-*s  %s", (int)dso_w, perf_dso_name(rows[i].dso),
			 rows[i].sym ? rows[i].sym : "[unknown]");
		fprintf(out, "    %8" PRIu64 " %7.2f%%  %s\n", rows[i].samples,
			ap_pct(rows[i].samples, total), ap_term__fit(fit, sizeof(fit), name,
								 cols > 30 ? cols - 23 : 8));
	}
	if (shown < n)
		fprintf(out, "    %8" PRIu64 " %7.2f%%  (%zu more)\n", rest_of(rows, shown, n),
			ap_pct(rest_of(rows, shown, n), total), n - shown);
	free(rows);
	return 0;
}

void render__report_host_json(struct json_out *j, const struct profile *p)
{
	struct render_host_row *rows = NULL;
	size_t n = 0;

	if (!p->host)
		return;
	json_key(j, "outside_wasm");
	if (render__host_rows(p, &rows, &n)) {
		json_null(j);	/* out of memory: nothing rather than a wrong list */
		return;
	}
	json_begin_obj(j);
	json_key(j, "samples"); json_u64(j, p->host->samples);
	json_key(j, "percent_of_run");
	json_dbl(j, ap_pct(p->host->samples, p->attr.total_samples), 4);
	json_key(j, "rows");
	json_begin_arr(j);
	for (size_t i = 0; i < n; i++) {
		json_begin_obj(j);
		json_key(j, "dso"); json_str(j, rows[i].dso);
		json_key(j, "symbol"); json_str(j, rows[i].sym ? rows[i].sym : "[unknown]");
		json_key(j, "samples"); json_u64(j, rows[i].samples);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
	free(rows);
}
