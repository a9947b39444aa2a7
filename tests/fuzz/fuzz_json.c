// SPDX-License-Identifier: MIT
// fuzz-seeds: build/fixtures/*.cwasm.json tree/tests/fixtures/sidecars/*.json
// fuzz-options: -max_len=65536
/*
 * Fuzz target: the JSON reader (cwasm/json_read.c) itself, from memory:
 * the manifest target reaches it only through files that must also be
 * manifests. Every node of an accepted tree is walked and checked against
 * what json_read.h promises (counts, NUL-terminated strings and keys,
 * integers that fit), and a few keys are looked up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cwasm/json_read.h"
#include "fuzz.h"

static void walk(const struct jr_node *n, int depth)
{
	size_t count;

	FUZZ_ASSERT(depth <= JR_MAX_DEPTH + 1);
	FUZZ_ASSERT(jr__type_name(n->type));
	switch (n->type) {
	case JR_STRING:
		FUZZ_ASSERT(n->str && n->str[n->str_len] == '\0');
		break;
	case JR_NUMBER:
		/* an integer keeps its exact value; the double is its rounding */
		if (n->is_int)
			FUZZ_ASSERT((double)n->integer == n->number);
		break;
	case JR_OBJECT:
		for (size_t i = 0; i < n->n; i++) {
			FUZZ_ASSERT(n->keys[i] && n->keys[i][n->key_lens[i]] == '\0');
			/* a key holding a \u0000 cannot be asked for by a C string */
			if (strlen(n->keys[i]) == n->key_lens[i])
				FUZZ_ASSERT(jr__get(n, n->keys[i], &count) && count >= 1);
		}
		(void)jr__get(n, "modules", &count);
		/* fall through */
	case JR_ARRAY:
		for (size_t i = 0; i < n->n; i++)
			walk(&n->items[i], depth + 1);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct jr_node *root = NULL;
	struct ap_err err = { 0 };

	if (jr__parse((const char *)data, size, &root, &err)) {
		FUZZ_ASSERT(!root && err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		return 0;
	}
	FUZZ_ASSERT(root);
	walk(root, 0);
	jr__delete(root);
	return 0;
}

int fuzz_write_seeds(const char *dir)
{
	static const char *const seeds[] = {
		"{\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\"], \"a\": {}}",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
		"{\"k\\u0000ey\": \"v\\u0000al\", \"n\": 9223372036854775807, \"m\": 1e400}",
		"  \"\\ud800\"  ",
	};
	char name[32];

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		snprintf(name, sizeof(name), "seed-%zu.json", i);
		fuzz_write(dir, name, seeds[i], strlen(seeds[i]));
	}
	return 0;
}
