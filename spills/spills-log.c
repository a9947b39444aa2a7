// SPDX-License-Identifier: MIT
/* The `[aot-spill-metric]` log: parse, index, rank (grammar in spills-log.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "spills-log.h"
#include "../cwasm/name.h"
#include "../util/array.h"

#define SPILL_TAG "[aot-spill-metric]"

static const char *const known_names[SPILL_F__KNOWN] = {
	[SPILL_F_LOCAL_FUNC] = "local_func",
	[SPILL_F_MOD] = "mod",
	[SPILL_F_INSTS] = "insts",
	[SPILL_F_CLOBBERS] = "clobbers",
	[SPILL_F_SLOTS] = "slots",
	[SPILL_F_SPILLED_VREGS] = "spilled_vregs",
	[SPILL_F_SCALAR] = "scalar",
	[SPILL_F_V128] = "v128",
	[SPILL_F_SLOTS_SCALAR] = "slots_scalar",
	[SPILL_F_SLOTS_V128] = "slots_v128",
	[SPILL_F_SPILL_LD] = "spill_ld",
	[SPILL_F_SPILL_ST] = "spill_st",
	[SPILL_F_REMAT] = "remat",
	[SPILL_F_CALLEE_SAVED] = "callee_saved",
};

void spill_log__init(struct spill_log *log, const char *path)
{
	memset(log, 0, sizeof(*log));
	log->path = strdup(path ? path : "-");
	/* the known names are static; fields[] only owns the extras */
	for (int i = 0; i < SPILL_F__KNOWN; i++)
		log->fields[i] = (char *)known_names[i];
	log->nfields = SPILL_F__KNOWN;
}

void spill_rec__exit(struct spill_rec *r)
{
	free(r->name);
	free(r->extra);
	memset(r, 0, sizeof(*r));
}

void spill_log__exit(struct spill_log *log)
{
	for (uint32_t i = 0; i < log->n; i++)
		spill_rec__exit(&log->recs[i]);
	free(log->recs);
	free(log->by_key);
	for (uint32_t i = SPILL_F__KNOWN; i < log->nfields; i++)
		free(log->fields[i]);
	for (uint32_t i = 0; i < log->nwarnings; i++)
		free(log->warnings[i]);
	free(log->path);
	memset(log, 0, sizeof(*log));
}

int spill_log__field(const struct spill_log *log, const char *name)
{
	for (uint32_t i = 0; i < log->nfields; i++)
		if (!strcmp(log->fields[i], name))
			return (int)i;
	return -1;
}

static int field_lookup(const struct spill_log *log, const char *key, size_t klen)
{
	for (uint32_t i = 0; i < log->nfields; i++)
		if (strlen(log->fields[i]) == klen && !memcmp(log->fields[i], key, klen))
			return (int)i;
	return -1;
}

/* Field id for a key, adding an extra field; -1 when the table is full. */
static int field_id(struct spill_log *log, const char *key, size_t klen)
{
	int id = field_lookup(log, key, klen);
	char *copy;

	if (id >= 0)
		return id;
	if (log->nfields == SPILL_MAX_FIELDS)
		return -1;
	copy = strndup(key, klen);
	if (!copy)
		return -1;
	log->fields[log->nfields] = copy;
	return (int)log->nfields++;
}

int spill_log__get(const struct spill_log *log, const struct spill_rec *r, int field,
		   uint64_t *v)
{
	(void)log;
	if (field < 0 || field >= SPILL_MAX_FIELDS || !(r->have & (1ULL << field)))
		return 0;
	if (field < SPILL_F__KNOWN) {
		*v = r->v[field];
		return 1;
	}
	for (uint32_t i = 0; i < r->nextra; i++)
		if (r->extra[i].field == (uint32_t)field) {
			*v = r->extra[i].val;
			return 1;
		}
	return 0;
}

static int is_key_start(int c)
{
	return isalpha(c) || c == '_';
}

static int is_key_char(int c)
{
	return isalnum(c) || c == '_';
}

static int is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Length of the key if s starts a `key=` token, else 0. */
static size_t key_len(const char *s)
{
	size_t n = 0;

	if (!is_key_start((unsigned char)s[0]))
		return 0;
	while (is_key_char((unsigned char)s[n]))
		n++;
	return s[n] == '=' ? n : 0;
}

static int failf(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int failf(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * The leading decimal integer of a value. Text after it is the upstream skill's
 * "trailing text" and ignored, but not when it would change the number.
 */
static int parse_value(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (isalnum((unsigned char)*p) || *p == '.' || *p == '_')
		return -1;
	*out = v;
	return 0;
}

/* A name as every output shows it: through the name sanitizer (cwasm/name.h). */
static int clean_name(char **name)
{
	size_t n = strlen(*name);
	char *c = malloc(n + 1);

	if (!c)
		return -1;
	cwasm_name__sanitize(c, n + 1, *name, n);
	free(*name);
	*name = c;
	return 0;
}

/* The name value at s: quoted, or up to the next `key=` token. */
static const char *parse_name(struct spill_log *log, const char *s, char **out, char *why,
			      size_t whylen)
{
	const char *p = s, *end;
	char *buf, *w;

	if (*p == '"') {
		buf = malloc(strlen(p) + 1);
		if (!buf)
			return log->nomem = 1, failf(why, whylen, "out of memory"), NULL;
		for (w = buf, p++; *p && *p != '"'; p++) {
			if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
				p++;
			*w++ = *p;
		}
		if (*p != '"') {
			free(buf);
			failf(why, whylen, "name: no closing quote");
			return NULL;
		}
		*w = 0;
		*out = buf;
		if (clean_name(out))
			return log->nomem = 1, failf(why, whylen, "out of memory"), NULL;
		return p + 1;
	}
	for (end = p; *end; end++)
		if (is_blank((unsigned char)*end) && key_len(end + 1 + strspn(end + 1, " \t\r\v\f")))
			break;
	while (end > p && is_blank((unsigned char)end[-1]))
		end--;
	*out = strndup(p, (size_t)(end - p));
	if (!*out || clean_name(out))
		return log->nomem = 1, failf(why, whylen, "out of memory"), NULL;
	return end;
}

static int add_extra(struct spill_rec *r, uint32_t field, uint64_t v)
{
	struct spill_extra *e = realloc(r->extra, (r->nextra + 1) * sizeof(*e));

	if (!e)
		return -1;
	r->extra = e;
	e[r->nextra++] = (struct spill_extra){ field, v };
	return 0;
}

/* One key=value token at p (key of klen). Returns the end of the value. */
static const char *parse_pair(struct spill_log *log, const char *p, size_t klen,
			      struct spill_rec *r, int *name_seen, char *why, size_t whylen)
{
	const char *val = p + klen + 1, *end = val;
	uint64_t v;
	int id;

	if (klen == 4 && !memcmp(p, "name", 4)) {
		if (*name_seen)
			return failf(why, whylen, "key 'name' twice"), NULL;
		*name_seen = 1;
		end = parse_name(log, val, &r->name, why, whylen);
		if (end && !*r->name) {
			free(r->name);
			r->name = NULL;
		}
		return end;
	}
	while (*end && !is_blank((unsigned char)*end))
		end++;
	if (parse_value(val, &v)) {
		/* a known key must be a number; another key may carry text */
		id = field_lookup(log, p, klen);
		if (id < 0 || id >= SPILL_F__KNOWN)
			return end;
		return failf(why, whylen, "%.*s: '%.*s' is not a number", (int)klen, p,
			     (int)(end - val), val), NULL;
	}
	id = field_id(log, p, klen);
	if (id < 0) {
		log->ignored_keys++;
		return end;
	}
	if (r->have & (1ULL << id))
		return failf(why, whylen, "key '%.*s' twice", (int)klen, p), NULL;
	r->have |= 1ULL << id;
	if (id < SPILL_F__KNOWN)
		r->v[id] = v;
	else if (add_extra(r, (uint32_t)id, v))
		return log->nomem = 1, failf(why, whylen, "out of memory"), NULL;
	return end;
}

int spill_log__parse_line(struct spill_log *log, const char *line, struct spill_rec *r,
			  char *why, size_t whylen)
{
	const char *p = strstr(line, SPILL_TAG);
	size_t klen;
	int name_seen = 0;

	memset(r, 0, sizeof(*r));
	log->nomem = 0;
	if (!p)
		return 0;
	p += strlen(SPILL_TAG);
	while (*p) {
		if (is_blank((unsigned char)*p)) {
			p++;
			continue;
		}
		klen = key_len(p);
		if (!klen) { /* free text */
			while (*p && !is_blank((unsigned char)*p))
				p++;
			continue;
		}
		p = parse_pair(log, p, klen, r, &name_seen, why, whylen);
		if (!p)
			goto bad;
	}
	if (!(r->have & (1ULL << SPILL_F_LOCAL_FUNC))) {
		failf(why, whylen, "no local_func=");
		goto bad;
	}
	if (!(r->have & (1ULL << SPILL_F_SPILL_LD))) {
		failf(why, whylen, "no spill_ld=");
		goto bad;
	}
	if (r->v[SPILL_F_LOCAL_FUNC] > UINT32_MAX || r->v[SPILL_F_MOD] > UINT32_MAX) {
		failf(why, whylen, "mod or local_func out of range");
		goto bad;
	}
	r->func = (uint32_t)r->v[SPILL_F_LOCAL_FUNC];
	r->mod = (uint32_t)r->v[SPILL_F_MOD]; /* 0 when absent: a core module */
	return 1;
bad:
	spill_rec__exit(r);
	return log->nomem ? -2 : -1;
}

static int key_cmp(const struct spill_rec *a, const struct spill_rec *b)
{
	if (a->mod != b->mod)
		return a->mod < b->mod ? -1 : 1;
	if (a->func != b->func)
		return a->func < b->func ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int by_key_cmp(const void *x, const void *y, void *ctx)
{
	const struct spill_rec *recs = ctx;

	return key_cmp(&recs[*(const uint32_t *)x], &recs[*(const uint32_t *)y]);
}

/* Sort the (mod, func) index; a repeated pair names the earliest repeat. */
static int index_log(struct spill_log *log, struct ap_err *err)
{
	const struct spill_rec *dup = NULL, *first = NULL;

	log->by_key = malloc((log->n + 1) * sizeof(*log->by_key));
	if (!log->by_key)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < log->n; i++)
		log->by_key[i] = i;
	qsort_r(log->by_key, log->n, sizeof(*log->by_key), by_key_cmp, log->recs);
	for (uint32_t i = 1; i < log->n; i++) {
		const struct spill_rec *a = &log->recs[log->by_key[i - 1]];
		const struct spill_rec *b = &log->recs[log->by_key[i]];

		if (a->mod == b->mod && a->func == b->func && (!dup || b->line < dup->line)) {
			dup = b;
			first = a;
		}
	}
	if (dup)
		return ap_errf(err, "%s:%u: mod %u local_func %u repeats line %u"
			       " (two compilations in one log?)", log->path, dup->line, dup->mod,
			       dup->func, first->line);
	return 0;
}

static void add_warning(struct spill_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add_warning(struct spill_log *log, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (log->nwarnings == SPILL_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		log->warnings[log->nwarnings++] = s;
	va_end(ap);
}

static int push_rec(struct spill_log *log, struct spill_rec *r, size_t *cap)
{
	if (log->n == UINT32_MAX || ap_grow(&log->recs, cap, (size_t)log->n + 1, sizeof(*r)))
		return -1;
	log->recs[log->n++] = *r;
	return 0;
}

int spill_log__read_file(struct spill_log *log, FILE *f, int lenient, struct ap_err *err)
{
	char *line = NULL, why[256];
	size_t cap = 0, rcap = 0;
	ssize_t len;
	int ret = -1;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct spill_rec r;
		int k;

		log->lines++;
		if (len && line[len - 1] == '\n')
			line[len - 1] = 0;
		k = spill_log__parse_line(log, line, &r, why, sizeof(why));
		if (!k)
			continue;
		log->metric_lines++;
		if (k == -2) {
			ap_err_nomem(err);
			goto out;
		}
		if (k < 0 && !lenient) {
			ap_errf(err, "%s:%" PRIu64 ": malformed [aot-spill-metric] line: %s",
				log->path, log->lines, why);
			goto out;
		}
		if (k < 0) {
			log->skipped++;
			add_warning(log, "%s:%" PRIu64 ": skipped malformed line: %s", log->path,
				    log->lines, why);
			continue;
		}
		r.line = log->lines > UINT32_MAX ? UINT32_MAX : (uint32_t)log->lines;
		if (push_rec(log, &r, &rcap)) {
			spill_rec__exit(&r);
			ap_err_nomem(err);
			goto out;
		}
	}
	if (ferror(f)) {
		ap_errk(err, AP_ERR_IO, "%s: read error: %s", log->path, strerror(errno));
		goto out;
	}
	if (!log->n) {
		ap_errf(err, "%s: no usable [aot-spill-metric] lines in %" PRIu64 " line(s)"
			" (compile with WAMR_AOT_SPILL_METRIC=1 and keep stderr)", log->path,
			log->lines);
		goto out;
	}
	ret = index_log(log, err);
out:
	free(line);
	return ret;
}

int spill_log__read(struct spill_log *log, const char *path, int lenient, struct ap_err *err)
{
	struct ap_file af;
	FILE *f;
	int fd, ret;

	spill_log__init(log, path);
	if (!log->path)
		return ap_err_nomem(err);
	if (ap_file__open(&af, path, !strcmp(path, "-") ? AP_FILE_STREAM : 0, err))
		return -1;
	log->id = af.id;
	/* stdio reads it line by line; stdin itself stays open */
	fd = af.own_fd ? af.fd : dup(af.fd);
	f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		return ap_errk(err, AP_ERR_IO, "%s: %s", path, strerror(e));
	}
	ret = spill_log__read_file(log, f, lenient, err);
	fclose(f);
	return ret;
}

static int find_cmp(const void *key, const void *elt, void *ctx)
{
	const struct spill_rec *k = key, *r = &((const struct spill_rec *)ctx)[*(const uint32_t *)elt];

	if (k->mod != r->mod)
		return k->mod < r->mod ? -1 : 1;
	return k->func < r->func ? -1 : k->func > r->func;
}

const struct spill_rec *spill_log__find(const struct spill_log *log, uint32_t mod,
					uint32_t func)
{
	struct spill_rec key = { .mod = mod, .func = func };
	uint32_t lo = 0, hi = log->n;

	if (!log->by_key)
		return NULL;
	/* bsearch has no context argument: a plain binary search */
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c = find_cmp(&key, &log->by_key[mid], log->recs);

		if (!c)
			return &log->recs[log->by_key[mid]];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

struct rank_ctx {
	const struct spill_log *log;
	int field;
};

static int rank_cmp(const void *x, const void *y, void *ctx)
{
	const struct rank_ctx *c = ctx;
	const struct spill_rec *a = &c->log->recs[*(const uint32_t *)x];
	const struct spill_rec *b = &c->log->recs[*(const uint32_t *)y];
	uint64_t va = 0, vb = 0;
	int ha = spill_log__get(c->log, a, c->field, &va);
	int hb = spill_log__get(c->log, b, c->field, &vb);

	if (ha != hb)
		return ha ? -1 : 1;
	if (va != vb)
		return va > vb ? -1 : 1;
	return key_cmp(a, b);
}

uint32_t *spill_log__rank(const struct spill_log *log, int field)
{
	struct rank_ctx c = { log, field };
	uint32_t *idx = malloc((log->n + 1) * sizeof(*idx));

	if (!idx)
		return NULL;
	for (uint32_t i = 0; i < log->n; i++)
		idx[i] = i;
	qsort_r(idx, log->n, sizeof(*idx), rank_cmp, &c);
	return idx;
}
