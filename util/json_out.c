// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "json_out.h"

void json_init(struct json_out *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first[0] = 1;
	j->pending_key = 0;
}

/* Separator and indentation before a value or a key at the current depth. */
static void json_sep(struct json_out *j)
{
	if (j->pending_key) {
		j->pending_key = 0;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = 0;
	fprintf(j->f, "\n%*s", 2 * j->depth, "");
}

static void json_open(struct json_out *j, char c)
{
	json_sep(j);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = 1;
}

static void json_close(struct json_out *j, char c)
{
	int empty = j->first[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (!empty)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(c, j->f);
}

void json_begin_obj(struct json_out *j) { json_open(j, '{'); }
void json_end_obj(struct json_out *j) { json_close(j, '}'); }
void json_begin_arr(struct json_out *j) { json_open(j, '['); }
void json_end_arr(struct json_out *j) { json_close(j, ']'); }

static void json_raw_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

void json_key(struct json_out *j, const char *key)
{
	json_sep(j);
	json_raw_str(j->f, key);
	fputs(": ", j->f);
	j->pending_key = 1;
}

void json_str(struct json_out *j, const char *s)
{
	json_sep(j);
	if (s)
		json_raw_str(j->f, s);
	else
		fputs("null", j->f);
}

void json_u64(struct json_out *j, uint64_t v)
{
	json_sep(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json_out *j, int64_t v)
{
	json_sep(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_dbl(struct json_out *j, double v, int decimals)
{
	json_sep(j);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_pyfloat(struct json_out *j, double v)
{
	char buf[48];
	int prec, exp;

	json_sep(j);
	if (!isfinite(v)) {	/* JSON has no such number */
		fputs("null", j->f);
		return;
	}
	/* the fewest significant digits that read back as v */
	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
	exp = atoi(strchr(buf, 'e') + 1);
	/* Python's repr: positional from 1e-4 up to 1e16, with at least ".0" */
	if (exp >= -4 && exp < 16) {
		snprintf(buf, sizeof(buf), "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0, v);
		if (!strchr(buf, '.'))
			strcat(buf, ".0");
	}
	fputs(buf, j->f);
}

void json_bool(struct json_out *j, int v)
{
	json_sep(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json_out *j)
{
	json_sep(j);
	fputs("null", j->f);
}

void json_hex(struct json_out *j, uint64_t v)
{
	json_sep(j);
	fprintf(j->f, "\"0x%" PRIx64 "\"", v);
}

void json_finish(struct json_out *j)
{
	fputc('\n', j->f);
}

int json_doc__open(struct json_doc *d, const char *path, const char *tool, struct ap_err *err)
{
	if (outfile__open(&d->out, path, err))
		return -1;
	json_init(&d->j, d->out.f);
	json_begin_obj(&d->j);
	json_key(&d->j, "schema_version"); json_u64(&d->j, 1);
	json_key(&d->j, "tool"); json_str(&d->j, tool);
	return 0;
}

int json_doc__commit(struct json_doc *d, struct ap_err *err)
{
	json_end_obj(&d->j);
	json_finish(&d->j);
	return outfile__commit(&d->out, err);
}

void json_doc__abort(struct json_doc *d)
{
	outfile__abort(&d->out);
}
