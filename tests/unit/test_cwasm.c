// SPDX-License-Identifier: MIT
/*
 * The .cwasm reader and writer: round trips of every field, lookups at
 * function boundaries, and hostile inputs that must fail with a message
 * naming the file and the problem (and never crash: run under ASan).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cwasm/cwasm.h"
#include "util/sha256.h"

#define BAD "bad.cwasm"

static uint8_t text[0x100];
static const uint32_t offsets[3] = { 0x0, 0x40, 0x90 };
static const uint32_t type_idx[3] = { 1, 0, 1 };
static uint8_t params1[2] = { 0x7f, 0x7e }, results1[1] = { 0x7f };
static const struct cwasm_type types[2] = {
	{ 0, 0, NULL, NULL },
	{ 2, 1, params1, results1 },
};
static const struct cwasm_import_spec imports[2] = {
	{ "wasi_snapshot_preview1", "fd_write", 0, 1 },
	{ "env", "abort", 0, 0 },
};
static const struct cwasm_export exports[3] = {
	{ (char *)"imported_again", 0, 0 },	/* an import: never a local name */
	{ (char *)"exp_b", 0, 3 },		/* local 1 */
	{ (char *)"memory", 2, 0 },
};
static const struct cwasm_name_spec names[3] = {
	{ 2, "main\nfn\r" },	/* local 0, newline and CR sanitized */
	{ 1, "fd_write" },	/* an import: ignored */
	{ 2, "second" },	/* later duplicate: first wins */
};

static struct cwasm_spec base_spec(uint32_t version)
{
	struct cwasm_spec s;
	size_t i;

	for (i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)(i * 7 + 3);
	memset(&s, 0, sizeof(s));
	s.version = version;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = 3;
	s.offsets = offsets;
	s.type_idx = type_idx;
	s.ntypes = 2;
	s.types = types;
	s.nimports = 2;
	s.imports = imports;
	s.nexports = 3;
	s.exports = exports;
	s.nnames = 3;
	s.names = names;
	return s;
}

/* Parse a copy sized exactly, so ASan sees any read past the end. */
static int parse_copy(const uint8_t *buf, size_t len, struct cwasm_module **m,
		      struct ap_err *err)
{
	uint8_t *copy = malloc(len ? len : 1);
	int ret;

	if (len)
		memcpy(copy, buf, len);
	ret = cwasm__parse(copy, len, BAD, m, err);
	free(copy);
	return ret;
}

static void test_roundtrip_v7(void)
{
	struct cwasm_spec s = base_spec(7);
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint8_t *buf, digest[32];
	size_t len;

	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == 0);
	if (!m) {
		fprintf(stderr, "v7 parse: %s\n", err.msg);
		free(buf);
		return;
	}
	CHECK(!strcmp(m->path, BAD));
	CHECK_EQ_U64(m->version, 7);
	CHECK(m->version_known);
	CHECK(m->has_target_info);
	CHECK_EQ_U64(m->ti.e_machine, 0x3e);
	CHECK_EQ_U64(m->target.arch, CWASM_ARCH_X86_64);
	CHECK_EQ_U64(m->target.abi, CWASM_ABI_SYSV);
	CHECK(m->target.verified);
	CHECK(!strncmp(m->ti.arch, "x86_64", 16));
	CHECK_EQ_U64(m->text_size, sizeof(text));
	CHECK(m->text && !memcmp(m->text, text, sizeof(text)));
	CHECK_EQ_U64(m->nfuncs, 3);
	CHECK(m->has_type_idx);
	CHECK_EQ_U64(m->funcs[0].offset, 0);
	CHECK_EQ_U64(m->funcs[0].size, 0x40);
	CHECK_EQ_U64(m->funcs[1].offset, 0x40);
	CHECK_EQ_U64(m->funcs[1].size, 0x50);
	CHECK_EQ_U64(m->funcs[2].offset, 0x90);
	CHECK_EQ_U64(m->funcs[2].size, 0x70);
	CHECK_EQ_U64(m->funcs[0].type_idx, 1);
	CHECK_EQ_U64(m->funcs[1].type_idx, 0);
	CHECK_EQ_U64(m->funcs[2].type_idx, 1);
	CHECK_EQ_U64(m->import_func_count, 2);
	CHECK_EQ_U64(m->nimports, 2);
	CHECK_EQ_U64(cwasm__wasm_index(m, 0), 2);
	CHECK_EQ_U64(m->ntypes, 2);
	CHECK_EQ_U64(m->types[0].nparams, 0);
	CHECK_EQ_U64(m->types[0].nresults, 0);
	CHECK_EQ_U64(m->types[1].nparams, 2);
	CHECK_EQ_U64(m->types[1].params[0], 0x7f);
	CHECK_EQ_U64(m->types[1].params[1], 0x7e);
	CHECK_EQ_U64(m->types[1].nresults, 1);
	CHECK_EQ_U64(m->types[1].results[0], 0x7f);
	CHECK_EQ_U64(m->nexports, 3);
	CHECK(!strcmp(m->exports[1].name, "exp_b"));
	CHECK_EQ_U64(m->exports[1].kind, 0);
	CHECK_EQ_U64(m->exports[1].index, 3);
	CHECK_EQ_U64(m->exports[2].kind, 2);
	CHECK(m->funcs[0].name && !strcmp(m->funcs[0].name, "main_fn_"));
	CHECK(m->funcs[1].name && !strcmp(m->funcs[1].name, "exp_b"));
	CHECK(m->funcs[2].name == NULL);
	CHECK(m->manifest_idx == -1);
	CHECK(m->core_label == NULL);
	ap_sha256(buf, len, digest);
	CHECK(!memcmp(m->sha256, digest, 32));

	/* function lookup at every boundary */
	CHECK_EQ_U64(cwasm__func_at(m, 0), 0);
	CHECK_EQ_U64(cwasm__func_at(m, 0x3f), 0);
	CHECK_EQ_U64(cwasm__func_at(m, 0x40), 1);
	CHECK_EQ_U64(cwasm__func_at(m, 0x8f), 1);
	CHECK_EQ_U64(cwasm__func_at(m, 0x90), 2);
	CHECK_EQ_U64(cwasm__func_at(m, 0xff), 2);
	CHECK(cwasm__func_at(m, 0x100) == -1);
	CHECK(cwasm__func_at(m, UINT64_MAX) == -1);
	cwasm__delete(m);
	free(buf);
}

static void test_roundtrip_v6(void)
{
	struct cwasm_spec s = base_spec(6);
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint32_t i;
	uint8_t *buf;
	size_t len;

	cwasm_target__spec(&s.ti, CWASM_ARCH_AARCH64, CWASM_FMT_LEGACY, CWASM_ABI_UNSPECIFIED);
	s.nnames = 0;	/* names fall back to exports */
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == 0);
	if (!m) {
		fprintf(stderr, "v6 parse: %s\n", err.msg);
		free(buf);
		return;
	}
	CHECK_EQ_U64(m->version, 6);
	CHECK(m->version_known);
	CHECK_EQ_U64(m->target.arch, CWASM_ARCH_AARCH64);
	CHECK_EQ_U64(m->target.format, CWASM_FMT_LEGACY);
	CHECK(!m->target.verified);
	CHECK(!strncmp(m->ti.arch, "aarch64", 16));
	CHECK(!m->has_type_idx);
	CHECK_EQ_U64(m->nfuncs, 3);
	for (i = 0; i < 3; i++) {
		CHECK_EQ_U64(m->funcs[i].offset, offsets[i]);
		CHECK_EQ_U64(m->funcs[i].type_idx, CWASM_NO_TYPE);
	}
	CHECK_EQ_U64(m->funcs[2].size, 0x70);
	CHECK(m->funcs[0].name == NULL);
	CHECK(m->funcs[1].name && !strcmp(m->funcs[1].name, "exp_b"));
	CHECK_EQ_U64(m->import_func_count, 2);
	cwasm__delete(m);
	free(buf);
}

/* Target info edge cases: unknown versions, arch from the string, no imports. */
static void test_variants(void)
{
	struct cwasm_spec s = base_spec(12);
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	static const uint32_t off1[2] = { 0x10, 0x20 };
	uint8_t *buf;
	size_t len;

	s.ti = (struct cwasm_target_info){ .bin_type = 1, .arch = "arm64" };
	s.nimports = 0;
	s.nfuncs = 2;
	s.offsets = off1;
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == 0);
	if (m) {
		CHECK_EQ_U64(m->version, 12);
		CHECK(!m->version_known);
		CHECK_EQ_U64(m->target.arch, CWASM_ARCH_AARCH64);
		CHECK_EQ_U64(m->import_func_count, 0);
		/* without imports wasm indices are local ones: wasm 2 is out of range */
		CHECK(m->funcs[0].name && !strcmp(m->funcs[0].name, "imported_again"));
		CHECK(m->funcs[1].name && !strcmp(m->funcs[1].name, "fd_write"));
		/* code before the first function belongs to none */
		CHECK(cwasm__func_at(m, 0) == -1);
		CHECK(cwasm__func_at(m, 0xf) == -1);
		CHECK_EQ_U64(cwasm__func_at(m, 0x10), 0);
		CHECK_EQ_U64(cwasm__func_at(m, 0x20), 1);
		CHECK_EQ_U64(m->funcs[1].size, 0xe0);
	}
	cwasm__delete(m);
	free(buf);

	s = base_spec(7);
	s.ti = (struct cwasm_target_info){ .bin_type = 2, .e_type = 1, .e_machine = 0x28, .arch = "arm" };
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == -1);
	CHECK(strstr(err.msg, "'arm' is not x86_64 or aarch64") != NULL);
	m = NULL;
	free(buf);

	/* zero functions are allowed */
	s = base_spec(7);
	s.nfuncs = 0;
	s.nexports = 0;
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == 0);
	if (m) {
		CHECK_EQ_U64(m->nfuncs, 0);
		CHECK(cwasm__func_at(m, 0) == -1);
	}
	cwasm__delete(m);
	free(buf);
}

/* A raw byte builder, for files the writer would not produce. */
struct tb {
	uint8_t b[8192];
	size_t n;
	uint32_t version;
};

static void tb_u8(struct tb *t, uint8_t v)
{
	t->b[t->n++] = v;
}

static void tb_u32(struct tb *t, uint32_t v)
{
	tb_u8(t, (uint8_t)v);
	tb_u8(t, (uint8_t)(v >> 8));
	tb_u8(t, (uint8_t)(v >> 16));
	tb_u8(t, (uint8_t)(v >> 24));
}

static void tb_mem(struct tb *t, const void *p, size_t n)
{
	memcpy(t->b + t->n, p, n);
	t->n += n;
}

static void tb_head(struct tb *t, uint32_t version)
{
	t->n = 0;
	t->version = version;
	tb_u32(t, CWASM_MAGIC);
	tb_u32(t, version);
}

static void tb_sec(struct tb *t, uint32_t type, const void *p, uint32_t n)
{
	tb_u32(t, type);
	tb_u32(t, n);
	tb_mem(t, p, n);
}

static void tb_text(struct tb *t, uint32_t size)
{
	static uint8_t zeros[256];

	tb_sec(t, CWASM_SEC_TEXT, zeros, size);
}

/* A function section: offsets only in version 6, (offset, type 0) pairs from 7 on. */
static void tb_funcs(struct tb *t, uint32_t count, const uint32_t *offs)
{
	uint32_t i, stride = t->version >= 7 ? 8 : 4;

	tb_u32(t, CWASM_SEC_FUNCTION);
	tb_u32(t, 4 + stride * count);
	tb_u32(t, count);
	for (i = 0; i < count; i++) {
		tb_u32(t, offs[i]);
		if (stride == 8)
			tb_u32(t, 0);
	}
}

static void expect_fail(const struct tb *t, const char *phrase, int line)
{
	struct cwasm_module *m = (struct cwasm_module *)1;
	struct ap_err err = { 0 };
	int ret = parse_copy(t->b, t->n, &m, &err);

	if (ret != -1 || m != NULL || strncmp(err.msg, BAD ": ", strlen(BAD) + 2) ||
	    !strstr(err.msg, phrase))
		fprintf(stderr, "  (hostile case at line %d: ret %d, \"%s\")\n", line, ret, err.msg);
	CHECK(ret == -1);
	CHECK(m == NULL);
	CHECK(!strncmp(err.msg, BAD ": ", strlen(BAD) + 2));
	CHECK_STR_CONTAINS(err.msg, phrase);
	if (ret == 0)
		cwasm__delete(m);
	CHECK(strchr(err.msg, '\n') == NULL);
}

#define EXPECT_FAIL(t, phrase) expect_fail(t, phrase, __LINE__)

static void test_hostile(void)
{
	static const uint32_t ok_offs[2] = { 0, 0x10 };
	static const uint32_t past[2] = { 0, 0x40 };
	static const uint32_t backwards[3] = { 0, 0x30, 0x20 };
	static const uint32_t equal[2] = { 0x10, 0x10 };
	static const uint8_t elf[16] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	struct tb *t = calloc(1, sizeof(*t));
	uint8_t pay[64] = { 0 };

	t->n = 0;
	EXPECT_FAIL(t, "empty file");

	t->n = 0;
	tb_mem(t, elf, sizeof(elf));
	EXPECT_FAIL(t, "bad.cwasm: not a .cwasm (no \\0aot magic)");
	{
		/* the message says what the magic means, never what the file holds */
		struct cwasm_module *m = NULL;
		struct ap_err err = { 0 };

		CHECK(parse_copy(t->b, t->n, &m, &err) == -1);
		CHECK(strstr(err.msg, "464c") == NULL && strstr(err.msg, "ELF") == NULL &&
		      strstr(err.msg, "0x") == NULL);
	}

	t->n = 0;
	tb_mem(t, "\0ao", 3);
	EXPECT_FAIL(t, "not a .cwasm (no \\0aot magic)");

	tb_head(t, 6);
	t->n = 6;
	EXPECT_FAIL(t, "truncated .cwasm header");

	tb_head(t, 3);
	tb_sec(t, CWASM_SEC_TARGET_INFO, pay, 48);
	EXPECT_FAIL(t, "version 3 is upstream C WAMR's .aot format (the same magic), not a .cwasm (versions 6 to 11)");

	/* a trailing partial section header */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_u32(t, 5);
	tb_u8(t, 0);
	EXPECT_FAIL(t, "truncated section header at offset");

	/* a section claiming more than the file holds */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_u32(t, CWASM_SEC_FUNCTION);
	tb_u32(t, 99999);
	tb_u32(t, 0);
	EXPECT_FAIL(t, "section 3 (function) at offset 48 claims 99999 bytes, only 4 left");

	/* counts that cannot fit their section */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	memset(pay, 0, sizeof(pay));
	pay[0] = pay[1] = pay[2] = pay[3] = 0xff;
	tb_sec(t, CWASM_SEC_EXPORT, pay, 16);
	EXPECT_FAIL(t, "count 4294967295 in section 4 (export) overflows its 16 bytes");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_sec(t, CWASM_SEC_FUNCTION, pay, 12);
	EXPECT_FAIL(t, "section 3 (function) is 12 bytes, but 4294967295 entries take 34359738364 in version 7");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_sec(t, CWASM_SEC_NAMES, pay, 12);
	EXPECT_FAIL(t, "count 4294967295 in section 7 (name)");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_sec(t, CWASM_SEC_TYPE, pay, 12);
	EXPECT_FAIL(t, "count 4294967295 in section 13 (type)");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_sec(t, CWASM_SEC_IMPORT, pay, 12);
	EXPECT_FAIL(t, "count 4294967295 in section 8 (import)");

	/* an export whose name runs past its section */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	memset(pay, 0, sizeof(pay));
	pay[0] = 1;		/* count */
	pay[4] = 200;		/* name_len */
	tb_sec(t, CWASM_SEC_EXPORT, pay, 20);
	EXPECT_FAIL(t, "export 0 name needs 200 bytes, 12 left");

	/* a type whose parameters run past its section */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	memset(pay, 0, sizeof(pay));
	pay[0] = 1;
	pay[4] = 0xff; pay[5] = 0xff; pay[6] = 0xff; pay[7] = 0xff;
	tb_sec(t, CWASM_SEC_TYPE, pay, 12);
	EXPECT_FAIL(t, "type 0 parameters needs 4294967295 bytes");

	/* offsets past the text, out of order, equal */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, past);
	EXPECT_FAIL(t, "function 1 offset 0x40 is past the text (0x20 bytes)");

	tb_head(t, 7);
	tb_funcs(t, 3, backwards);	/* function section before text: fine */
	tb_text(t, 0x40);
	EXPECT_FAIL(t, "function offsets out of order at 2 (0x20 after 0x30)");

	tb_head(t, 7);
	tb_text(t, 0x40);
	tb_funcs(t, 2, equal);
	EXPECT_FAIL(t, "functions 0 and 1 both start at offset 0x10: function offsets must be strictly ascending");

	tb_head(t, 7);
	tb_text(t, 0);
	tb_funcs(t, 0, NULL);
	EXPECT_FAIL(t, "empty text section");

	tb_head(t, 7);
	tb_funcs(t, 2, ok_offs);
	EXPECT_FAIL(t, "no text section");

	tb_head(t, 7);
	tb_text(t, 0x20);
	EXPECT_FAIL(t, "no function section");

	/* a function section matching neither layout */
	tb_head(t, 7);
	tb_text(t, 0x20);
	memset(pay, 0, sizeof(pay));
	pay[0] = 2;
	tb_sec(t, CWASM_SEC_FUNCTION, pay, 16);
	EXPECT_FAIL(t, "section 3 (function) is 16 bytes, but 2 entries take 20 in version 7 (u32 offset, u32 type index)");

	/* version 6 writes offsets only: pairs are a misread there */
	tb_head(t, 6);
	tb_text(t, 0x20);
	memset(pay, 0, sizeof(pay));
	pay[0] = 1;
	tb_sec(t, CWASM_SEC_FUNCTION, pay, 12);
	EXPECT_FAIL(t, "section 3 (function) is 12 bytes, but 1 entries take 8 in version 6 (u32 offsets)");

	/* upstream C WAMR's init_data section in a file claiming a .cwasm version */
	tb_head(t, 7);
	tb_sec(t, CWASM_SEC_INIT_DATA, pay, 8);
	EXPECT_FAIL(t, "section 1 (init_data) at offset 8 is upstream C WAMR's .aot layout, not a .cwasm");

	/* bytes after the last entry of a section mean a misread */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	memset(pay, 0, sizeof(pay));
	tb_sec(t, CWASM_SEC_EXPORT, pay, 7);
	EXPECT_FAIL(t, "section 4 (export) has 3 bytes after its last entry");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_text(t, 0x20);
	tb_funcs(t, 0, NULL);
	EXPECT_FAIL(t, "duplicate text section");

	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_funcs(t, 2, ok_offs);
	EXPECT_FAIL(t, "duplicate function section");

	tb_head(t, 7);
	tb_sec(t, CWASM_SEC_TARGET_INFO, pay, 20);
	EXPECT_FAIL(t, "target info is 20 bytes, expected 40");

	/*
	 * A memory import cut after its kind (after one function import):
	 * neither the version 6 layout (a u32) nor the version 11 one (u32 min,
	 * ...) reads it, and the error is the one that read farther.
	 */
	tb_head(t, 7);
	tb_u32(t, CWASM_SEC_IMPORT);
	tb_u32(t, 4 + (4 + 3 + 4 + 1 + 1 + 4) + (4 + 3 + 4 + 3 + 1));
	tb_u32(t, 2);
	tb_u32(t, 3);
	tb_mem(t, "env", 3);
	tb_u32(t, 1);
	tb_mem(t, "f", 1);
	tb_u8(t, 0);
	tb_u32(t, 0);
	tb_u32(t, 3);
	tb_mem(t, "env", 3);
	tb_u32(t, 3);
	tb_mem(t, "mem", 3);
	tb_u8(t, 2);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	EXPECT_FAIL(t, "section 8 (import) ends early at offset 52: import 1 minimum needs 4 bytes, 0 left");

	/* a known section, even one that is skipped, appears once */
	tb_head(t, 7);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	tb_sec(t, CWASM_SEC_DATA, pay, 3);
	tb_sec(t, CWASM_SEC_DATA, pay, 3);
	EXPECT_FAIL(t, "duplicate data section (type 5) at offset");

	/* unknown sections repeat and are skipped; a skipped one is fine */
	tb_head(t, 7);
	tb_sec(t, 99, pay, 5);
	tb_sec(t, 99, pay, 2);
	tb_sec(t, CWASM_SEC_DATA, pay, 3);
	tb_text(t, 0x20);
	tb_funcs(t, 2, ok_offs);
	{
		struct cwasm_module *m = NULL;
		struct ap_err err = { 0 };

		CHECK(parse_copy(t->b, t->n, &m, &err) == 0);
		if (m) {
			CHECK(!m->has_target_info);
			CHECK_EQ_U64(m->target.arch, CWASM_ARCH_UNKNOWN);
			CHECK_EQ_U64(m->nfuncs, 2);
			CHECK_EQ_U64(m->funcs[1].size, 0x10);
		}
		cwasm__delete(m);
	}
	free(t);
}

static void check_name(const char *in, size_t inlen, const char *want, int line)
{
	static const uint32_t one[1] = { 0 };
	struct cwasm_name_spec nm = { 0, NULL };
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	struct cwasm_spec s = base_spec(7);
	char *copy = calloc(1, inlen + 1);
	uint8_t *buf;
	size_t len;

	memcpy(copy, in, inlen);
	nm.name = copy;
	s.nimports = 0;
	s.nexports = 0;
	s.nfuncs = 1;
	s.offsets = one;
	s.nnames = 1;
	s.names = &nm;
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	CHECK(parse_copy(buf, len, &m, &err) == 0);
	if (m && (!m->funcs[0].name || strcmp(m->funcs[0].name, want)))
		fprintf(stderr, "  (name case at line %d: got \"%s\")\n", line,
			m->funcs[0].name ? m->funcs[0].name : "(null)");
	CHECK(m && m->funcs[0].name && !strcmp(m->funcs[0].name, want));
	cwasm__delete(m);
	free(buf);
	free(copy);
}

static void test_names(void)
{
	char big[400], want[400];

	check_name("a\nb\rc\td", 7, "a_b_c_d", __LINE__);
	check_name("del\x7f", 4, "del_", __LINE__);
	check_name("caf\xc3\xa9", 5, "caf\xc3\xa9", __LINE__);		/* UTF-8 kept */
	check_name("bad\xff\xc3", 5, "bad__", __LINE__);		/* invalid UTF-8 */
	check_name("c1\xc2\x85x", 5, "c1_x", __LINE__);			/* NEL, a C1 control */
	check_name("sur\xed\xa0\x80", 6, "sur___", __LINE__);		/* encoded surrogate */
	/* capped at 256 bytes */
	memset(big, 'x', 300);
	memset(want, 'x', 256);
	want[256] = '\0';
	check_name(big, 300, want, __LINE__);
	/* and never split a character: 255 bytes then a 2-byte one */
	memset(big, 'y', 255);
	memcpy(big + 255, "\xc3\xa9zz", 4);
	memset(want, 'y', 255);
	want[255] = '\0';
	check_name(big, 259, want, __LINE__);
	/* an empty wasm name falls back to nothing */
	{
		static const uint32_t one[1] = { 0 };
		struct cwasm_name_spec nm = { 0, "" };
		struct cwasm_module *m = NULL;
		struct ap_err err = { 0 };
		struct cwasm_spec s = base_spec(7);
		uint8_t *buf;
		size_t len;

		s.nimports = 0;
		s.nexports = 0;
		s.nfuncs = 1;
		s.offsets = one;
		s.nnames = 1;
		s.names = &nm;
		CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
		CHECK(parse_copy(buf, len, &m, &err) == 0);
		CHECK(m && m->funcs[0].name == NULL);
		cwasm__delete(m);
		free(buf);
	}
}

static void test_local_name(void)
{
	char buf[32], tiny[8];

	CHECK(cwasm__local_name(7, buf, sizeof(buf)) == buf);
	CHECK(!strcmp(buf, "local_func_7"));
	cwasm__local_name(4294967295u, buf, sizeof(buf));
	CHECK(!strcmp(buf, "local_func_4294967295"));
	cwasm__local_name(12, tiny, sizeof(tiny));
	CHECK(!strcmp(tiny, "local_f"));
}

static char *scratch_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *d = malloc(4096);

	snprintf(d, 4096, "%s/test_cwasm.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(d)) {
		perror(d);
		exit(2);
	}
	return d;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static void test_files(void)
{
	struct cwasm_spec s = base_spec(7);
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	char *dir = scratch_dir(), path[4200], missing[4200];
	uint8_t *buf, digest[32];
	size_t len;

	snprintf(path, sizeof(path), "%s/a.cwasm", dir);
	CHECK(cwasm__write(path, &s, &err) == 0);
	/* again over the existing file: replaced, no temp files left */
	CHECK(cwasm__write(path, &s, &err) == 0);
	CHECK_EQ_U64(count_entries(dir), 1);
	CHECK(cwasm__read(path, &m, &err) == 0);
	if (m) {
		CHECK(!strcmp(m->path, path));
		CHECK_EQ_U64(m->nfuncs, 3);
		CHECK(!memcmp(m->text, text, sizeof(text)));
		CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
		ap_sha256(buf, len, digest);
		CHECK(!memcmp(m->sha256, digest, 32));
		free(buf);
	}
	cwasm__delete(m);

	snprintf(missing, sizeof(missing), "%s/nope.cwasm", dir);
	m = (struct cwasm_module *)1;
	CHECK(cwasm__read(missing, &m, &err) == -1);
	CHECK(m == NULL);
	CHECK_STR_CONTAINS(err.msg, missing);
	CHECK_STR_CONTAINS(err.msg, "No such file or directory");

	CHECK(cwasm__read(dir, &m, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, ": Is a directory");

	/* a FIFO or a device is refused without blocking on it or reading it */
	alarm(20);
	snprintf(missing, sizeof(missing), "%s/fifo.cwasm", dir);
	CHECK(mkfifo(missing, 0600) == 0);
	CHECK(cwasm__read(missing, &m, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "fifo.cwasm: is a FIFO or pipe, not a regular file");
	unlink(missing);
	CHECK(cwasm__read("/dev/zero", &m, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/dev/zero: is a character device, not a regular file");
	alarm(0);

	/* writing into a folder that does not exist fails cleanly */
	snprintf(missing, sizeof(missing), "%s/no/such/x.cwasm", dir);
	CHECK(cwasm__write(missing, &s, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "x.cwasm");
	CHECK_EQ_U64(count_entries(dir), 1);

	/* a spec with a count but no array */
	s.offsets = NULL;
	CHECK(cwasm__build(&s, &buf, &len, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "NULL");

	unlink(path);
	rmdir(dir);
	free(dir);
}

/*
 * Every truncation and many corruptions of a valid file: each must either
 * parse or fail with a one-line message naming the file; never crash.
 */
static void test_robustness(void)
{
	struct cwasm_spec s = base_spec(7);
	static const uint8_t masks[] = { 0x01, 0x80, 0xff };
	static const uint32_t words[] = { 0xffffffffu, 0x7fffffffu, 0x80000000u, 0, 0x100 };
	struct ap_err err;
	struct cwasm_module *m;
	uint8_t *buf, *mut;
	size_t len, i, k;
	int bad = 0, parsed = 0, runs = 0;

	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	mut = malloc(len);
	for (i = 0; i <= len; i++) {
		int ret = parse_copy(buf, i, &m, &err);

		runs++;
		if (ret == 0) {
			parsed++;
			cwasm__delete(m);
		} else if (m || strncmp(err.msg, BAD ": ", strlen(BAD) + 2)) {
			bad++;
		}
	}
	/* only the full file is complete: a cut one loses a whole trailing section at most */
	CHECK(parsed >= 1);
	for (i = 0; i < len; i++) {
		for (k = 0; k < sizeof(masks); k++) {
			memcpy(mut, buf, len);
			mut[i] ^= masks[k];
			runs++;
			if (parse_copy(mut, len, &m, &err) == 0)
				cwasm__delete(m);
			else if (m || strncmp(err.msg, BAD ": ", strlen(BAD) + 2))
				bad++;
		}
		for (k = 0; k < sizeof(words) / sizeof(words[0]) && i + 4 <= len; k++) {
			memcpy(mut, buf, len);
			mut[i] = (uint8_t)words[k];
			mut[i + 1] = (uint8_t)(words[k] >> 8);
			mut[i + 2] = (uint8_t)(words[k] >> 16);
			mut[i + 3] = (uint8_t)(words[k] >> 24);
			runs++;
			if (parse_copy(mut, len, &m, &err) == 0)
				cwasm__delete(m);
			else if (m || strncmp(err.msg, BAD ": ", strlen(BAD) + 2))
				bad++;
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK(runs > 1000);
	free(mut);
	free(buf);
}

/* What each form says, an --arch override on top, and the names users type. */
static void test_target_override(void)
{
	static const struct {
		enum cwasm_arch arch;
		enum cwasm_format fmt;
		const char *describe;
		enum cwasm_abi abi;
	} forms[] = {
		{ CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, "x86_64, ABI not recorded (legacy-unspecified)",
		  CWASM_ABI_UNSPECIFIED },
		{ CWASM_ARCH_AARCH64, CWASM_FMT_LEGACY, "aarch64, ABI not recorded (legacy-unspecified)",
		  CWASM_ABI_UNSPECIFIED },
		{ CWASM_ARCH_X86_64, CWASM_FMT_ELF64, "x86_64 sysv (elf64-little, verified)", CWASM_ABI_SYSV },
		{ CWASM_ARCH_X86_64, CWASM_FMT_COFF64, "x86_64 win64 (coff64, verified)", CWASM_ABI_WIN64 },
		{ CWASM_ARCH_AARCH64, CWASM_FMT_ELF64, "aarch64 aapcs64 (elf64-little, verified)",
		  CWASM_ABI_AAPCS64 },
	};
	static const char *const x86[] = { "x86_64", "X86_64", "x86-64", "amd64", "AMD64", "x64" };
	static const char *const bad[] = { "x86", "i386", "aarch64x", "arm", "", "x86_64 " };
	struct cwasm_target_info ti;
	struct cwasm_target t;
	struct ap_err err = { 0 };
	uint8_t raw[CWASM_TARGET_INFO_SIZE];
	char buf[160];
	enum cwasm_arch a;

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		enum cwasm_arch other = forms[i].arch == CWASM_ARCH_X86_64 ? CWASM_ARCH_AARCH64
									    : CWASM_ARCH_X86_64;

		CHECK(!cwasm_target__spec(&ti, forms[i].arch, forms[i].fmt, CWASM_ABI_UNSPECIFIED));
		/* the 40 bytes as written: little-endian fields, arch, features */
		memset(raw, 0, sizeof(raw));
		raw[0] = (uint8_t)ti.bin_type;
		raw[1] = (uint8_t)(ti.bin_type >> 8);
		raw[4] = (uint8_t)ti.e_type;
		raw[6] = (uint8_t)ti.e_machine;
		raw[7] = (uint8_t)(ti.e_machine >> 8);
		memcpy(raw + 16, ti.arch, 16);
		CHECK(!cwasm_target__parse(raw, sizeof(raw), "f.cwasm", &ti, &t, &err));
		cwasm_target__describe(&t, buf, sizeof(buf));
		CHECK(!strcmp(buf, forms[i].describe));
		CHECK_EQ_U64(t.abi, forms[i].abi);
		CHECK_EQ_U64(t.declared_abi, forms[i].abi);
		CHECK_EQ_U64(t.declared_arch, forms[i].arch);
		CHECK(!t.overridden);
		/* the same arch: nothing changes but the flag */
		cwasm_target__override(&t, forms[i].arch);
		CHECK(t.overridden);
		CHECK_EQ_U64(t.arch, forms[i].arch);
		CHECK_EQ_U64(t.abi, forms[i].abi);
		/* another arch: the ABI is not trusted, the declaration stays */
		cwasm_target__override(&t, other);
		CHECK_EQ_U64(t.arch, other);
		CHECK_EQ_U64(t.abi, CWASM_ABI_UNSPECIFIED);
		CHECK_EQ_U64(t.declared_arch, forms[i].arch);
		CHECK_EQ_U64(t.declared_abi, forms[i].abi);
		cwasm_target__describe(&t, buf, sizeof(buf));
		CHECK(!strcmp(buf, forms[i].describe));
		/* UNKNOWN is no override */
		cwasm_target__override(&t, CWASM_ARCH_UNKNOWN);
		CHECK_EQ_U64(t.arch, other);
	}
	/* a file without target info: nothing declared, --arch decides */
	memset(&t, 0, sizeof(t));
	cwasm_target__describe(&t, buf, sizeof(buf));
	CHECK(!strcmp(buf, "none (no target info section)"));
	cwasm_target__override(&t, CWASM_ARCH_AARCH64);
	CHECK_EQ_U64(t.arch, CWASM_ARCH_AARCH64);
	/* a short buffer is cut, terminated */
	cwasm_target__describe(&t, buf, 5);
	CHECK(!strcmp(buf, "none"));
	for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++) {
		a = CWASM_ARCH_UNKNOWN;
		CHECK(!cwasm_arch__parse(x86[i], strlen(x86[i]), &a));
		CHECK_EQ_U64(a, CWASM_ARCH_X86_64);
	}
	CHECK(!cwasm_arch__parse("ARM64", 5, &a));
	CHECK_EQ_U64(a, CWASM_ARCH_AARCH64);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(cwasm_arch__parse(bad[i], strlen(bad[i]), &a) == -1);
}

int main(void)
{
	test_roundtrip_v7();
	test_roundtrip_v6();
	test_variants();
	test_hostile();
	test_names();
	test_local_name();
	test_files();
	test_robustness();
	test_target_override();
	CHECK_DONE();
}
