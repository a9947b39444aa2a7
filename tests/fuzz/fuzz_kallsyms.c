// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=8192
/*
 * Fuzz target: the kernel's symbols from a kallsyms text
 * (profile/kallsyms.h), which aotperf reads from perf's build-id cache,
 * and perf's config (util/perfconfig.h), which names that cache. The
 * input is both: as a kallsyms text it goes through the full parse and,
 * when it is in the kernel's own layout, through the index, whose every
 * answer (at each parsed symbol's address, inside it, before it) must be
 * the parse's by its rules (the last one listed at an address, up to the
 * next one's); as a config text, buildid.dir is read with rooms of 256
 * and 2 bytes. Seeds: fuzz_write_seeds().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile/kallsyms.h"
#include "util/perfconfig.h"
#include "fuzz.h"

static volatile uint64_t sink;

/* The parse's answer for addr: the last symbol at or below it, up to the next one's address. */
static const char *parsed_at(const struct elf_func *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;
	uint64_t end;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].value <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	end = lo < n ? v[lo].value : (v[lo - 1].value & ~(uint64_t)4095) + 8192;
	return addr < end ? v[lo - 1].name : NULL;
}

static void compare(const uint8_t *data, size_t size, const struct elf_func *v, size_t n)
{
	char *t = malloc(size + 1);
	struct kallsyms *k;
	int r;

	FUZZ_ASSERT(t != NULL);
	memcpy(t, data, size);
	t[size] = 0;
	r = kallsyms__index(t, size, &k);
	FUZZ_ASSERT(r == 0 || r == 1);
	if (r != 1) {
		free(t);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t at[3] = { v[i].value, v[i].value + v[i].size / 2, v[i].value - 1 };

		for (int j = 0; j < 3; j++) {
			const char *a = kallsyms__find(k, at[j]), *b = parsed_at(v, n, at[j]);

			FUZZ_ASSERT(!a == !b && (!a || !strcmp(a, b)));
			sink += a ? (uint8_t)a[0] : 0;
		}
	}
	kallsyms__delete(k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1), out[256], small[2];
	struct elf_func *v;
	uint64_t a, b;
	size_t n;

	FUZZ_ASSERT(t != NULL);
	memcpy(t, data, size);
	t[size] = 0;
	if (!kallsyms__parse(t, size, &v, &n, &a, &b)) {
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(v[i].name >= t && v[i].name <= t + size &&
				    (!i || v[i - 1].value <= v[i].value));
		compare(data, size, v, n);
		free(v);
	}
	free(t);
	if (ap_perfconfig__get((const char *)data, size, "buildid", "dir", out, sizeof(out)))
		FUZZ_ASSERT(strlen(out) < sizeof(out));
	if (ap_perfconfig__get((const char *)data, size, "buildid", "dir", small, sizeof(small)))
		FUZZ_ASSERT(strlen(small) < sizeof(small));
	return 0;
}

int fuzz_write_seeds(const char *dir)
{
	static const char kernel[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T _text\n"
		"ffffffff81000010 t local_one\n"
		"ffffffff81000010 D data_here\n"
		"ffffffff81000020 W weak_one\n"
		"ffffffff81000020 T strong_one\n"
		"ffffffff81001000 T _etext\n"
		"ffffffffc0000000 t mod_fn\t[some_mod]\n";
	static const char small_kernel[] = "81000000 T _text\n81000100 t two\n81000200 T _etext\n";
	static const char config[] = "[core]\n\tdir = /x\n[buildid]\n\tdir = \"/var/cache/a\\\"b\" ; c\n";

	fuzz_write(dir, "kernel", kernel, sizeof(kernel) - 1);
	fuzz_write(dir, "kernel32", small_kernel, sizeof(small_kernel) - 1);
	fuzz_write(dir, "config", config, sizeof(config) - 1);
	return 0;
}
