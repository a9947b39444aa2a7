/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_JSON_READ_H
#define AOTPERF_CWASM_JSON_READ_H

/*
 * A small JSON (RFC 8259) reader into a tree, big enough for the component
 * manifest. Input is untrusted: nesting depth and file size are bounded and
 * every read is checked against the end of the buffer.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

enum jr_type { JR_NULL, JR_BOOL, JR_NUMBER, JR_STRING, JR_ARRAY, JR_OBJECT };

struct jr_node {
	enum jr_type type;
	int boolean;
	double number;
	int is_int;		/* no fraction or exponent, and fits int64 */
	int64_t integer;
	char *str;		/* STRING: NUL-terminated, may hold a \u0000 */
	size_t str_len;
	size_t n;		/* ARRAY, OBJECT: element count */
	struct jr_node *items;
	char **keys;		/* OBJECT: keys[i] names items[i] */
	size_t *key_lens;
};

#define JR_MAX_DEPTH 64

/*
 * Parse text[0..len); on error returns -1 with err "line L column C:
 * problem" (AP_ERR_INPUT, or AP_ERR_NOMEM).
 */
int jr__parse(const char *text, size_t len, struct jr_node **out, struct ap_err *err);
/* Read (util/file.h: a regular file of at most max bytes) and parse a file; errors name it. */
int jr__parse_file(const char *path, size_t max, struct jr_node **out, struct ap_err *err);
void jr__delete(struct jr_node *node);

/* Member `key` of an object (the first if repeated), or NULL; *count gets the number of matches. */
const struct jr_node *jr__get(const struct jr_node *obj, const char *key, size_t *count);
const char *jr__type_name(enum jr_type type);

#endif
