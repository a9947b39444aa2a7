// SPDX-License-Identifier: MIT
/*
 * The report's samples outside wasm by (DSO, symbol), and perf report
 * --sort's table: both summed here, ranked, and cut once (report.h).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../profile/host.h"
#include "../util/pct.h"

struct host_row {
	const char *dso;
	const char *sym;	/* NULL: [unknown] */
	uint64_t samples;
};

static int row_cmp(const void *a, const void *b)
{
	const struct host_row *x = a, *y = b;
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
	const struct host_row *x = a, *y = b;
	int c = strcmp(x->dso, y->dso);

	if (c)
		return c;
	if (!x->sym || !y->sym)
		return !x->sym - !y->sym;
	return strcmp(x->sym, y->sym);
}

/* The host frames summed per (dso, symbol), most samples first; NULL when out of memory. */
static struct host_row *host_rows(const struct profile_host *h, size_t *n)
{
	struct host_row *v = malloc((h->nframes ? h->nframes : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < h->nframes; i++)
		v[i] = (struct host_row){ h->dsos[h->frames[i].dso], h->frames[i].sym,
					  h->frames[i].samples };
	qsort(v, h->nframes, sizeof(*v), key_cmp);
	for (size_t i = 0; i < h->nframes; i++) {
		if (k && !key_cmp(&v[k - 1], &v[i]))
			v[k - 1].samples += v[i].samples;
		else
			v[k++] = v[i];
	}
	qsort(v, k, sizeof(*v), row_cmp);
	*n = k;
	return v;
}

/* "libc.so.6" for "/usr/lib/.../libc.so.6"; "[kernel.kallsyms]", "[JIT] tid 7" as they are. */
static const char *perf_dso_name(const char *dso)
{
	const char *slash = dso[0] == '/' ? strrchr(dso, '/') : NULL;

	return slash ? slash + 1 : dso;
}

/*
 * The JSON's dso (its path) and symbol; samples, %run (text: 4 spaces, 8
 * and 8, no heading); the DSO as perf report names it and the symbol in
 * what is left.
 */
enum { HO_DSO, HO_SYM, HO_SAMPLES, HO_PCT, HO_DSO_NAME, HO_SYM_TEXT };

static struct vt_table *host_table(void)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, "dso", NULL, VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "symbol", NULL, VT_TEXT, VT_NO_TEXT | VT_NO_MD);
	vcols__add(&s, "samples", NULL, VT_COUNT, 0);
	s.c[HO_SAMPLES].md_head = "samples";
	vcols__add(&s, "percent_of_run", NULL, VT_PERCENT, VT_PCT);
	s.c[HO_PCT].md_head = "%run";
	vcols__add(&s, NULL, NULL, VT_TEXT, 0);
	s.c[HO_DSO_NAME].md_head = "dso";
	vcols__add(&s, NULL, NULL, VT_TEXT, VT_FLEX);
	s.c[HO_SYM_TEXT].md_head = "symbol";
	s.c[HO_SYM_TEXT].md_max_chars = 60;
	s.c[HO_SAMPLES].width = s.c[HO_PCT].width = 8;
	s.c[HO_DSO_NAME].gap = s.c[HO_SYM_TEXT].gap = 2;
	return vt_table__new(s.c, s.n);
}

int view_report__host(struct view_report *v)
{
	const struct profile_host *h = v->p->host;
	struct vt_cut cut = { .sort_col = -1, .pct_col = HO_PCT, .min_pct = v->o.percent_limit,
			      .show_col = -1, .top = v->o.top };
	struct host_row *rows;
	uint64_t listed = 0;
	size_t n = 0;
	int bad;

	if (!h)
		return 0;
	v->host_samples = h->samples;
	v->host_pct = ap_pct(h->samples, v->total);
	rows = host_rows(h, &n);
	v->host = rows ? host_table() : NULL;
	bad = !v->host;
	for (size_t i = 0; i < n && !bad; i++) {
		const char *sym = rows[i].sym ? rows[i].sym : "[unknown]";

		bad = vt_table__add_row(v->host);
		if (bad)
			break;
		vt_table__str(v->host, HO_DSO, rows[i].dso);
		vt_table__str(v->host, HO_SYM, sym);
		vt_table__u64(v->host, HO_SAMPLES, rows[i].samples);
		vt_table__dbl(v->host, HO_PCT, ap_pct(rows[i].samples, v->total));
		vt_table__str(v->host, HO_DSO_NAME, perf_dso_name(rows[i].dso));
		vt_table__str(v->host, HO_SYM_TEXT, sym);
	}
	bad = bad || vt_table__cut(v->host, &cut);
	for (uint32_t i = 0; !bad && i < vt_table__shown(v->host); i++)
		listed += vt_table__cell(v->host, i, HO_SAMPLES)->v.u;
	/* the rows not listed, summed: the listed ones and these add up to the host's samples */
	if (!bad && vt_table__shown(v->host) < n) {
		bad = vt_table__add_footer(v->host, 0) ||
		      vt_table__wordf(v->host, HO_DSO_NAME, "(%zu more)",
				      n - vt_table__shown(v->host));
		vt_table__u64(v->host, HO_SAMPLES, h->samples - listed);
		vt_table__dbl(v->host, HO_PCT, ap_pct(h->samples - listed, v->total));
	}
	free(rows);
	return bad ? -1 : 0;
}

/* ---- perf report --sort ---- */

#define SORT_CELL_MAX 60	/* a column's widest cell */
#define SORT_MAX_KEYS 8

static const char *const sort_heads[] = {
	[PROFILE_SORT_FUNCTION] = "Symbol", [PROFILE_SORT_DSO] = "Shared Object",
	[PROFILE_SORT_COMM] = "Command", [PROFILE_SORT_PID] = "Pid:Command",
	[PROFILE_SORT_CPU] = "CPU",
};
static const char *const sort_json[] = {
	[PROFILE_SORT_FUNCTION] = "symbol", [PROFILE_SORT_DSO] = "dso",
	[PROFILE_SORT_COMM] = "command", [PROFILE_SORT_PID] = "pid_command",
	[PROFILE_SORT_CPU] = "cpu",
};

struct line {
	char *cells;		/* the keys' cells, each NUL-terminated, one after another */
	size_t len;
	uint64_t samples;
};

static const char *base_name(const char *path)
{
	const char *slash = path[0] == '/' ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path;
}

/* One key's cell of a row, as perf report prints it. */
static void sort_cell(char *buf, size_t n, const struct profile *p, const struct sorted_row *r,
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
		snprintf(buf, n, "%u:%s", r->tid, s->comms[r->comm]);
		break;
	case PROFILE_SORT_CPU:
		if (r->cpu == UINT32_MAX)
			snprintf(buf, n, "-");
		else
			snprintf(buf, n, "%u", r->cpu);
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

static void lines_free(struct line *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].cells);
	free(v);
}

/* The rows as lines of cells, merged where the keys asked are equal; NULL when out of memory. */
static struct line *lines_of(const struct profile *p, const enum profile_sort_key *keys,
			     uint32_t nkeys, size_t *nlines)
{
	const struct profile_sorted *s = p->sorted;
	struct line *v = calloc(s->n + 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < s->n; i++) {
		char buf[SORT_MAX_KEYS * (SORT_CELL_MAX + 1) + 1];
		size_t len = 0;

		for (uint32_t j = 0; j < nkeys; j++) {
			sort_cell(buf + len, SORT_CELL_MAX + 1, p, &s->rows[i], keys[j]);
			len += strlen(buf + len) + 1;
		}
		v[i].cells = malloc(len);
		if (!v[i].cells) {
			lines_free(v, i);
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

/* Overhead, Samples (8 each, 2 spaces apart), then a column per key, as perf report prints them. */
enum { SO_PCT, SO_SAMPLES, SO_KEY };

static struct vt_table *sorted_table(const enum profile_sort_key *keys, uint32_t nkeys)
{
	struct vcols s = { .n = 0 };

	vcols__add(&s, "percent", "Overhead", VT_PERCENT, VT_PCT);
	vcols__add(&s, "samples", "Samples", VT_COUNT, 0);
	s.c[SO_PCT].width = s.c[SO_SAMPLES].width = 8;
	s.c[SO_SAMPLES].gap = 2;
	for (uint32_t j = 0; j < nkeys; j++) {
		vcols__add(&s, sort_json[keys[j]], sort_heads[keys[j]], VT_TEXT, 0);
		s.c[SO_KEY + j].gap = 2;
	}
	return vt_table__new(s.c, s.n);
}

int view_report__sorted(struct view_report *v)
{
	const enum profile_sort_key *keys = v->o.sort_keys;
	uint32_t nkeys = v->o.nsort_keys;
	struct vt_cut cut = { .sort_col = -1, .pct_col = SO_PCT, .min_pct = v->o.percent_limit,
			      .show_col = -1, .top = v->o.top };
	struct line *lines;
	size_t n = 0;
	int bad;

	if (!keys || !nkeys || nkeys > SORT_MAX_KEYS || !v->p->sorted)
		return 0;
	lines = lines_of(v->p, keys, nkeys, &n);
	v->sorted = lines ? sorted_table(keys, nkeys) : NULL;
	bad = !v->sorted;
	for (size_t i = 0; i < n && !bad; i++) {
		const char *c = lines[i].cells;

		bad = vt_table__add_row(v->sorted);
		if (bad)
			break;
		vt_table__dbl(v->sorted, SO_PCT, ap_pct(lines[i].samples, v->total));
		vt_table__u64(v->sorted, SO_SAMPLES, lines[i].samples);
		for (uint32_t j = 0; j < nkeys && !bad; c += strlen(c) + 1, j++)
			bad = vt_table__strf(v->sorted, SO_KEY + j, "%s", c);
	}
	bad = bad || vt_table__cut(v->sorted, &cut);
	if (!bad)
		v->sorted_left = (uint32_t)(n - vt_table__shown(v->sorted));
	if (lines)
		lines_free(lines, n);
	return bad ? -1 : 0;
}
