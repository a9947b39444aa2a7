// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=8192
/*
 * Fuzz target: the compile-time spill metric log (spills/), read strictly
 * and leniently from the input through a memory FILE, then every lookup
 * the spills command makes: fields by name, values, find, rank per field.
 *
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "spills/spills-log.h"
#include "fuzz.h"

static void read_once(const uint8_t *data, size_t size, int lenient)
{
	struct spill_log log;
	struct ap_err err = { 0 };
	FILE *f;
	uint32_t i;
	int k;

	/* fmemopen of 0 bytes fails on older glibc: an empty log is a 1-byte newline */
	f = size ? fmemopen((void *)data, size, "r") : fmemopen("\n", 1, "r");
	if (!f)
		return;
	spill_log__init(&log, "fuzz.log");
	if (spill_log__read_file(&log, f, lenient, &err)) {
		FUZZ_ASSERT(err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		spill_log__exit(&log);
		fclose(f);
		return;
	}
	fclose(f);
	for (k = 0; k < (int)log.nfields; k++) {
		uint32_t *rank = spill_log__rank(&log, k);

		FUZZ_ASSERT(spill_log__field(&log, log.fields[k]) == k);
		FUZZ_ASSERT(rank);
		for (i = 0; i < log.n; i++) {
			uint64_t v;

			FUZZ_ASSERT(rank[i] < log.n);
			(void)spill_log__get(&log, &log.recs[rank[i]], k, &v);
		}
		free(rank);
	}
	for (i = 0; i < log.n; i++) {
		const struct spill_rec *r = &log.recs[i];

		FUZZ_ASSERT(spill_log__find(&log, r->mod, r->func) != NULL);
		if (r->name)
			(void)strlen(r->name);
	}
	for (i = 0; i < log.nwarnings; i++)
		(void)strlen(log.warnings[i]);
	spill_log__exit(&log);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	read_once(data, size, 0);
	read_once(data, size, 1);
	return 0;
}
