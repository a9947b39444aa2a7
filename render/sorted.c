// SPDX-License-Identifier: MIT
/* The --sort table (see sorted.h). */
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "sorted.h"
#include "../profile/host.h"
#include "../util/pct.h"

#define COL_MAX 60	/* a column's widest cell */

struct line {
	char *cells;		/* the keys' cells, each NUL-terminated, one after another */
	size_t len;
	uint64_t samples;
};

static const char *const headers[] = {
	[PROFILE_SORT_FUNCTION] = "Symbol", [PROFILE_SORT_DSO] = "Shared Object",
	[PROFILE_SORT_COMM] = "Command", [PROFILE_SORT_PID] = "Pid:Command",
	[PROFILE_SORT_CPU] = "CPU",
};

static const char *base_name(const char *path)
{
	const char *slash = path[0] == '/' ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* One key's cell of a row, as perf report prints it. */
static void cell(char *buf, size_t n, const struct profile *p, const struct sorted_row *r,
		 enum profile_sort_key k)
{
	const struct profile_sorted *s = p->sorted;
	const struct profile_host_frame *f = r->core < 0 && r->frame >= 0 && p->host ?
					     &p->host->frames[r->frame] : NULL;
	const struct cwasm_module *m = r->core >= 0 ? p->attr.cores[r->core].mod : NULL;
	char local[32];

	switch (k) {
	case PROFILE_SORT_FUNCTION:
		if (m && m->funcs[r->func].name)
			snprintf(buf, n, "%s:%s", cwasm__local_name(r->func, local, sizeof(local)),
				 m->funcs[r->func].name);
		else if (m)
			snprintf(buf, n, "%s", cwasm__local_name(r->func, local, sizeof(local)));
		else
			snprintf(buf, n, "%s", f && f->sym ? f->sym : "[unknown]");
		break;
	case PROFILE_SORT_DSO:
		snprintf(buf, n, "%s", m ? base_name(core_set__core_name(m)) :
			 f ? base_name(p->host->dsos[f->dso]) : "[unknown]");
		break;
	case PROFILE_SORT_COMM:
		snprintf(buf, n, "%s", s->comms[r->comm][0] ? s->comms[r->comm] : "[unknown]");
		break;
	case PROFILE_SORT_PID:	/* perf's "pid" key is the thread */
		snprintf(buf, n, "%" PRIu32 ":%s", r->tid, s->comms[r->comm]);
		break;
	case PROFILE_SORT_CPU:
		if (r->cpu == UINT32_MAX)
			snprintf(buf, n, "-");
		else
			snprintf(buf, n, "%" PRIu32, r->cpu);
		break;
	}
}

static int by_cells(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->cells, y->cells, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static int by_samples(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return by_cells(a, b);
}

/* The rows as lines of cells, merged where the keys asked are equal. */
static struct line *lines_of(const struct profile *p, const enum profile_sort_key *keys,
			     uint32_t nkeys, size_t *nlines)
{
	const struct profile_sorted *s = p->sorted;
	struct line *v = calloc(s->n + 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		char buf[nkeys * (COL_MAX + 1) + 1];
		size_t len = 0;

		for (uint32_t j = 0; j < nkeys; j++) {
			cell(buf + len, COL_MAX + 1, p, &s->rows[i], keys[j]);
			len += strlen(buf + len) + 1;
		}
		v[i].cells = malloc(len);
		if (!v[i].cells) {
			for (size_t j = 0; j < i; j++)
				free(v[j].cells);
			free(v);
			return NULL;
		}
		memcpy(v[i].cells, buf, len);
		v[i].len = len;
		v[i].samples = s->rows[i].samples;
	}
	if (s->n)
		qsort(v, s->n, sizeof(*v), by_cells);
	for (size_t i = 0; i < s->n; i++) {
		if (k && !by_cells(&v[k - 1], &v[i])) {
			v[k - 1].samples += v[i].samples;
			free(v[i].cells);
		} else {
			v[k++] = v[i];
		}
	}
	if (k)
		qsort(v, k, sizeof(*v), by_samples);
	*nlines = k;
	return v;
}

int render__sorted_text(FILE *out, const struct profile *p, const enum profile_sort_key *keys,
			uint32_t nkeys, const struct render_opts *o)
{
	uint64_t total = p->attr.total_samples;
	size_t n = 0, shown, width[8] = { 0 };
	struct line *v;

	if (!p->sorted || nkeys > 8)
		return 0;
	v = lines_of(p, keys, nkeys, &n);
	if (!v)
		return -1;
	shown = o->top && o->top < n ? (size_t)o->top : n;
	while (shown && ap_pct(v[shown - 1].samples, total) < o->percent_limit)
		shown--;
	for (uint32_t j = 0; j < nkeys; j++)
		width[j] = strlen(headers[keys[j]]);
	for (size_t i = 0; i < shown; i++) {
		const char *c = v[i].cells;

		for (uint32_t j = 0; j < nkeys; c += strlen(c) + 1, j++)
			if (strlen(c) > width[j])
				width[j] = strlen(c);
	}
	fprintf(out, "\n  %8s  %8s", "Overhead", "Samples");
	for (uint32_t j = 0; j < nkeys; j++)
		fprintf(out, "  %-*s", j + 1 < nkeys ? (int)width[j] : 0, headers[keys[j]]);
	fputc('\n', out);
	for (size_t i = 0; i < shown; i++) {
		const char *c = v[i].cells;

		fprintf(out, "  %7.2f%%  %8" PRIu64, ap_pct(v[i].samples, total), v[i].samples);
		for (uint32_t j = 0; j < nkeys; c += strlen(c) + 1, j++)
			fprintf(out, "  %-*s", j + 1 < nkeys ? (int)width[j] : 0, c);
		fputc('\n', out);
	}
	if (shown < n)
		fprintf(out, "  (%zu more rows)\n", n - shown);
	for (size_t i = 0; i < n; i++)
		free(v[i].cells);
	free(v);
	return 0;
}
