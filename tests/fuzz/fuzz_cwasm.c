// SPDX-License-Identifier: MIT
// fuzz-seeds: tree/tests/fixtures/real/* tree/tests/fixtures/sidecars/*.cwasm
// fuzz-seeds: build/fixtures/sample_v6.cwasm build/fixtures/comp.0.cwasm
// fuzz-options: -max_len=16384
/*
 * Fuzz target: the .cwasm reader, cwasm__parse() on the input bytes, then
 * the lookups callers make on what it returns, and the first functions'
 * bytes as the upstream helper's view reads them (objdump's sweep and the
 * helper's class rules, both architectures).
 *
 * Seeds: small containers from the writer (v6 and v7, with and without
 * target info, types, imports, exports, names), see fuzz_write_seeds(),
 * the real compiler outputs in tests/fixtures, and the first 16 KiB
 * (max_len) of two fixture cores.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "classify/classify.h"
#include "cwasm/cwasm.h"
#include "decode/decode.h"
#include "fuzz.h"

/* The helper view's decode and classes of code: every entry classed, inside code. */
static void helper_sweep(enum cwasm_arch arch, const uint8_t *code, uint32_t len)
{
	struct dc_vec nv = { 0 };
	struct ap_err err = { 0 };
	uint8_t *hc;

	if (dc__decode_sweep(arch, code, len, 0x1000, &nv, &err))
		return;
	hc = malloc(nv.n + 1);
	if (hc && !cls_helper__stream(arch, nv.v, nv.n, hc))
		for (uint32_t i = 0; i < nv.n; i++) {
			FUZZ_ASSERT(nv.v[i].addr >= 0x1000 && nv.v[i].addr - 0x1000 + nv.v[i].size <= len);
			FUZZ_ASSERT(cls_helper__name(hc[i])[0]);
		}
	free(hc);
	dc_vec__exit(&nv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	char name[64];
	uint32_t i;

	if (cwasm__parse(data, size, "fuzz.cwasm", &m, &err)) {
		FUZZ_ASSERT(err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		return 0;
	}
	/* What attribution and the reports read: each function, names, exports. */
	for (i = 0; i < m->nfuncs; i++) {
		const struct cwasm_func *f = &m->funcs[i];

		FUZZ_ASSERT(f->offset <= m->text_size && f->size <= m->text_size - f->offset);
		if (f->size)
			FUZZ_ASSERT(cwasm__func_at(m, f->offset) == (int64_t)i);
		if (f->name)
			(void)strlen(f->name);
		cwasm__local_name(i, name, sizeof(name));
		(void)cwasm__wasm_index(m, i);
	}
	for (i = 0; i < m->nfuncs && i < 4; i++) {
		helper_sweep(CWASM_ARCH_X86_64, m->text + m->funcs[i].offset, m->funcs[i].size);
		helper_sweep(CWASM_ARCH_AARCH64, m->text + m->funcs[i].offset, m->funcs[i].size);
	}
	for (i = 0; i < m->nexports; i++)
		(void)strlen(m->exports[i].name);
	if (m->text_size)
		(void)m->text[m->text_size - 1];
	(void)cwasm__func_at(m, m->text_size);
	cwasm__delete(m);
	return 0;
}

static int seed(const char *dir, const char *name, const struct cwasm_spec *s)
{
	struct ap_err err = { 0 };
	uint8_t *buf;
	size_t len;

	if (cwasm__build(s, &buf, &len, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		return -1;
	}
	fuzz_write(dir, name, buf, len);
	free(buf);
	return 0;
}

int fuzz_write_seeds(const char *dir)
{
	static const uint8_t text[64] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3, 0x90, 0xc3 };
	static const uint32_t offs[3] = { 0, 6, 40 };
	static const uint32_t tidx[3] = { 0, 1, 0 };
	static uint8_t p1[1] = { 0x7f };
	static const struct cwasm_type types[2] = { { 0, 0, NULL, NULL }, { 1, 1, p1, p1 } };
	static const struct cwasm_import_spec imps[2] = {
		{ "env", "f", 0, 1 }, { "env", "mem", 2, 0 } };
	static struct cwasm_export exps[2] = { { "run", 0, 2 }, { "mem", 2, 0 } };
	static const struct cwasm_name_spec names[2] = { { 2, "main" }, { 4, "helper" } };
	struct cwasm_spec s = { 0 };
	int r = 0;

	s.version = 6;
	s.no_target_info = 1;
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = 3;
	s.offsets = offs;
	r |= seed(dir, "v6-bare.cwasm", &s);

	s.version = 7;
	s.no_target_info = 0;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.type_idx = tidx;
	s.ntypes = 2;
	s.types = types;
	s.nimports = 2;
	s.imports = imps;
	s.nexports = 2;
	s.exports = exps;
	s.nnames = 2;
	s.names = names;
	r |= seed(dir, "v7-full.cwasm", &s);

	cwasm_target__spec(&s.ti, CWASM_ARCH_AARCH64, CWASM_FMT_ELF64, CWASM_ABI_AAPCS64);
	r |= seed(dir, "v7-aarch64.cwasm", &s);
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_COFF64, CWASM_ABI_WIN64);
	s.nimports = 0;
	s.nnames = 0;
	r |= seed(dir, "v7-coff.cwasm", &s);
	return r;
}
