// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=65536
/*
 * Fuzz target: what engines/ reads of another engine's code. The input is
 * a file in a scratch folder, read three ways, as an injected recording's
 * files are: as a jit-<pid>.dump (engines/jitdump_read.c), as an ELF file
 * whose symbols name the code (engines/elfsyms.c, then lookups by file
 * offset), and, cut at NULs and newlines, as symbol names
 * (engines/names.c: Wasmtime's and V8's conventions).
 *
 * Seeds (fuzz_write_seeds): a jitdump and an ELF image as aotperf writes
 * them, with Wasmtime, V8 and plain names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engines/internal.h"
#include "jitdump/jitdump.h"
#include "symbolize/elfimage.h"
#include "fuzz.h"

static void names(const uint8_t *data, size_t size)
{
	char buf[512];
	size_t at = 0;

	while (at < size) {
		size_t n = 0;
		struct eng_name nm;

		while (at + n < size && data[at + n] && data[at + n] != '\n' && n < sizeof(buf) - 1)
			n++;
		memcpy(buf, data + at, n);
		buf[n] = '\0';
		if (eng_name__parse(buf, &nm) && nm.name_len) {
			/* the name lies inside the symbol */
			FUZZ_ASSERT(nm.name >= buf && nm.name + nm.name_len <= buf + n);
		}
		at += n + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct eng_profile *p = calloc(1, sizeof(*p));
	struct eng_jit_loads loads = { 0 };
	struct ap_err err = { 0 };
	const char *path = fuzz_file("jit-42.dump", data, size);
	int64_t fi;

	if (!p)
		abort();
	if (eng_jitdump__read(p, path, &loads, &err))
		FUZZ_ASSERT(err.msg[0]);
	for (uint32_t i = 0; i < loads.n; i++)
		FUZZ_ASSERT(loads.v[i].code < p->ncodes);
	free(loads.v);
	memset(&err, 0, sizeof(err));
	fi = eng_profile__add_file(p, path);
	if (fi < 0)
		abort();
	if (!eng_elf__load(p, (uint32_t)fi, path, 1, &err) && p->files[fi].readable) {
		const struct eng_file *f = &p->files[fi];
		uint64_t vaddr;

		for (uint32_t i = 0; i < f->nsyms; i++)
			FUZZ_ASSERT(f->syms[i].code < p->ncodes);
		for (uint64_t off = 0; off < size; off += 16) {
			const struct eng_sym *s = eng_file__sym_at(f, off, &vaddr);

			if (s)
				FUZZ_ASSERT(s->code < p->ncodes);
		}
	}
	for (uint32_t i = 0; i < p->ncodes; i++) {
		const struct eng_code *c = &p->codes[i].pub;

		FUZZ_ASSERT(c->raw_name);
		if (c->bytes)
			(void)c->bytes[c->size ? c->size - 1 : 0];
	}
	names(data, size);
	engines__delete(p);
	return 0;
}

static const char *const seed_names[] = {
	"wasm[0]::function[12]::fib", "wasm[3]::function[0]", "JS:*wasm-function[7]-7-turbofan",
	"*wasm-function[2]", "local_func_3", "wasm-function[9]-liftoff", "main",
};
#define NSEED (sizeof(seed_names) / sizeof(seed_names[0]))

int fuzz_write_seeds(const char *dir)
{
	static const uint8_t text[7 * 16] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3 };
	uint32_t offs[NSEED];
	char path[4096];
	struct ap_err err = { 0 };
	static const char more[] = "wasm[1]::function[2]::x\nJS:*wasm-function[3]\n"
				   "wasm[99999999999]::function[1]\n";
	struct aotjit *j;
	int e = 0;

	for (uint32_t i = 0; i < NSEED; i++)
		offs[i] = i * 16;
	snprintf(path, sizeof(path), "%s/jit-42.dump", dir);
	j = aotjit_open_file(path, 42, 62, 1, &e);
	if (!j)
		abort();
	for (uint32_t i = 0; i < NSEED; i++)
		if (aotjit_code_load(j, 0x7f0000000000ULL + offs[i], text + offs[i], 16,
				     seed_names[i], 2 + i))
			abort();
	if (aotjit_close(j))
		abort();
	snprintf(path, sizeof(path), "%s/image.aotperf.so", dir);
	if (elfimage__write(path, 62, text, sizeof(text), offs, NSEED, seed_names, &err)) {
		fprintf(stderr, "%s: %s\n", path, err.msg);
		abort();
	}
	fuzz_write(dir, "names.txt", more, sizeof(more) - 1);
	return 0;
}
