/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_JSON_OUT_H
#define AOTPERF_UTIL_JSON_OUT_H
/*
 * A streaming JSON writer: keys and values go straight to a FILE, commas and
 * indentation are tracked on a small stack. Strings are escaped (names from
 * wasm are arbitrary bytes).
 */
#include <stdint.h>
#include <stdio.h>
#include "err.h"
#include "outfile.h"

#define JSON_MAX_DEPTH 16

struct json_out {
	FILE *f;
	int depth;
	int first[JSON_MAX_DEPTH]; /* 1 until the first member at that depth */
	int pending_key;           /* a key was written, its value comes next */
};

void json_init(struct json_out *j, FILE *f);
void json_begin_obj(struct json_out *j);
void json_end_obj(struct json_out *j);
void json_begin_arr(struct json_out *j);
void json_end_arr(struct json_out *j);
void json_key(struct json_out *j, const char *key);
void json_str(struct json_out *j, const char *s);       /* NULL writes null */
void json_u64(struct json_out *j, uint64_t v);
void json_i64(struct json_out *j, int64_t v);
void json_dbl(struct json_out *j, double v, int decimals);
/* The shortest text that reads back as v, as Python's repr writes it (100.0, 0.1, 1e-05). */
void json_pyfloat(struct json_out *j, double v);
void json_bool(struct json_out *j, int v);
void json_null(struct json_out *j);
void json_hex(struct json_out *j, uint64_t v);           /* "0x..." string */
/* Finish: a newline after the top-level value. */
void json_finish(struct json_out *j);

/*
 * A JSON report written atomically (util/outfile.h): the object is opened
 * with "schema_version": 1 and "tool": TOOL; the caller adds its members
 * through d->j, then commits (a failed write leaves nothing behind).
 */
struct json_doc {
	struct outfile out;
	struct json_out j;
};

int json_doc__open(struct json_doc *d, const char *path, const char *tool, struct ap_err *err);
int json_doc__commit(struct json_doc *d, struct ap_err *err);
void json_doc__abort(struct json_doc *d);

#endif
