// SPDX-License-Identifier: MIT
// fuzz-seeds: tree/tests/fixtures/sidecars/*.json
// fuzz-options: -max_len=65536
/*
 * Fuzz target: the compiler's frame-attribution sidecars (frames/), read
 * from memory as report --frame-attribution reads a file: against both
 * example containers of tests/fixtures/sidecars (x86-64 schema 1, aarch64
 * schema 2), function 0, each time. An accepted sidecar is then looked up
 * as the report does (per byte offset: data or not, its access, its
 * decoded operand) and its identity taken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frames/frames.h"
#include "fuzz.h"

static struct cwasm_module *mods[2];
static uint8_t *bufs[2];

static void load(int i, const char *stem)
{
	char path[4096];
	struct ap_err err = { 0 };
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/../fixtures/sidecars/%s.cwasm", FUZZ_SRCDIR, stem);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		abort();
	}
	bufs[i] = malloc((size_t)n);
	if (!bufs[i] || fread(bufs[i], 1, (size_t)n, f) != (size_t)n)
		abort();
	fclose(f);
	if (cwasm__parse(bufs[i], (size_t)n, stem, &mods[i], &err)) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	load(0, "sidecar-v1-x86_64");
	load(1, "sidecar-v2-aarch64");
	return 0;
}

static void use(const struct frames *fr, const struct cwasm_module *m)
{
	struct frames_identity id;
	uint32_t size = m->nfuncs ? m->funcs[0].size : 0;

	for (uint32_t off = 0; off < size && off < 4096; off++) {
		const struct frames_access *a = frames__access_covering(fr, off);
		uint32_t n = 0;

		(void)frames__in_data(fr, off);
		(void)frames__access_at(fr, off);
		if (a)
			(void)frames__slot_values(fr, (uint32_t)off, &n);
		(void)frames__value(fr, off);
	}
	frames__identity(fr, &id);
	FUZZ_ASSERT(memchr(id.compiler_build_id, 0, sizeof(id.compiler_build_id)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!mods[0])
		LLVMFuzzerInitialize(NULL, NULL);
	for (int i = 0; i < 2; i++) {
		struct ap_err err = { 0 };
		struct frames *fr = NULL;

		if (frames__parse((const char *)data, size, "fuzz.json", mods[i], 0, &fr, &err)) {
			FUZZ_ASSERT(!fr && err.msg[0] && strlen(err.msg) < sizeof(err.msg));
			continue;
		}
		FUZZ_ASSERT(fr);
		use(fr, mods[i]);
		frames__delete(fr);
	}
	return 0;
}

/* The two example sidecars, and a few cut or bent copies of the first. */
int fuzz_write_seeds(const char *dir)
{
	static const char *const stems[] = { "sidecar-v1-x86_64", "sidecar-v2-aarch64" };
	char path[4096], name[64];

	for (int i = 0; i < 2; i++) {
		FILE *f;
		char *buf;
		long n;

		snprintf(path, sizeof(path), "%s/../fixtures/sidecars/%s.mod0.func0.json",
			 FUZZ_SRCDIR, stems[i]);
		f = fopen(path, "rb");
		if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
			abort();
		buf = malloc((size_t)n);
		if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
			abort();
		fclose(f);
		snprintf(name, sizeof(name), "%s.json", stems[i]);
		fuzz_write(dir, name, buf, (size_t)n);
		if (!i) {
			char *p = strstr(buf, "\"local_func\"");

			fuzz_write(dir, "cut-half.json", buf, (size_t)n / 2);
			if (p) {
				p[1] = 'X';	/* the key misspelt */
				fuzz_write(dir, "bad-key.json", buf, (size_t)n);
			}
		}
		free(buf);
	}
	return 0;
}
