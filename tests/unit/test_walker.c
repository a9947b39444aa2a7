// SPDX-License-Identifier: MIT
/*
 * The one .cwasm walker: every container version 6 to 11 through the
 * writer and back, the writer's bytes against containers laid out here by
 * hand, a table of good and bad containers fed to both entry points
 * (cwasm__parse and the runtime library's aotjit_register_cwasm) that
 * must give the same verdict and the same one-line message, the real
 * compiler output in tests/fixtures/real, and the one name sanitizer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cwasm/cwasm.h"
#include "jitdump/jitdump.h"

#define FILE_NAME "t.cwasm"

static struct aotjit *jd;	/* where aotjit_register_cwasm writes */

/* ---- raw bytes, laid out by hand ---- */

struct rb {
	uint8_t b[4096];
	size_t n;
};

static void r8(struct rb *r, uint8_t v)
{
	r->b[r->n++] = v;
}

static void r32(struct rb *r, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		r8(r, (uint8_t)(v >> (8 * i)));
}

static void rmem(struct rb *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}

static void rstr(struct rb *r, const char *s)
{
	r32(r, (uint32_t)strlen(s));
	rmem(r, s, strlen(s));
}

static void rsec(struct rb *r, uint32_t type, const struct rb *payload)
{
	r32(r, type);
	r32(r, (uint32_t)payload->n);
	rmem(r, payload->b, payload->n);
}

/* ---- a spec with a bit of everything ---- */

static uint8_t text[0x100];
static const uint32_t offsets[3] = { 0x0, 0x40, 0x90 };
static const uint32_t tidx[3] = { 1, 0, 1 };
static uint8_t params1[2] = { 0x7f, 0x7e }, results1[1] = { 0x7f };
static const struct cwasm_type ftypes[2] = { { 0, 0, NULL, NULL }, { 2, 1, params1, results1 } };
/* two function imports among the others: local_func N is wasm function N + 2 */
static const struct cwasm_import_spec imports[6] = {
	{ "env", "f", CWASM_KIND_FUNC, 1 },
	{ "env", "tbl", CWASM_KIND_TABLE, 0 },
	{ "env", "g", CWASM_KIND_FUNC, 0 },
	{ "env", "mem", CWASM_KIND_MEMORY, 0 },
	{ "env", "glob", CWASM_KIND_GLOBAL, 0 },
	{ "env", "tag", CWASM_KIND_TAG, 1 },
};
static const struct cwasm_import_type import_types[6] = {
	{ .kind = CWASM_KIND_FUNC },
	{ .kind = CWASM_KIND_TABLE, .elem_type = 0x70, .min = 1, .has_max = 1, .max = 9 },
	{ .kind = CWASM_KIND_FUNC },
	{ .kind = CWASM_KIND_MEMORY, .min = 2, .shared = 1 },
	{ .kind = CWASM_KIND_GLOBAL, .valtype = 0x7e, .is_mutable = 1 },
	{ .kind = CWASM_KIND_TAG },
};
static const struct cwasm_export exports[3] = {
	{ (char *)"f_again", 0, 0 },	/* an import: never a local name */
	{ (char *)"exp1", 0, 3 },	/* local 1 */
	{ (char *)"memory", 2, 0 },
};
static const struct cwasm_name_spec names[2] = {
	{ 2, "zero" },			/* local 0 */
	{ 4, "two" },			/* local 2 */
};
static const uint8_t data_payload[5] = { 0, 0, 0, 0, 9 };
static const struct cwasm_raw_section raws[2] = {
	{ CWASM_SEC_MEMORY, (const uint8_t *)"\1\0\0\0\1\0\0\0\0", 9 },
	{ CWASM_SEC_DATA, data_payload, 4 },
};

static struct cwasm_spec full_spec(uint32_t version)
{
	struct cwasm_spec s;

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)(i * 5 + 1);
	memset(&s, 0, sizeof(s));
	s.version = version;
	if (version >= 11)
		cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	else
		cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY,
				   CWASM_ABI_UNSPECIFIED);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = 3;
	s.offsets = offsets;
	s.type_idx = tidx;
	s.ntypes = 2;
	s.types = ftypes;
	/* version 6 knew no tags */
	s.nimports = version == 6 ? 5 : 6;
	s.imports = imports;
	s.import_types = import_types;
	s.nexports = 3;
	s.exports = exports;
	s.nnames = 2;
	s.names = names;
	s.nraw = 2;
	s.raw = raws;
	return s;
}

static uint8_t *build(const struct cwasm_spec *s, size_t *len)
{
	struct ap_err err = { 0 };
	uint8_t *buf = NULL;

	if (cwasm__build(s, &buf, len, &err)) {
		fprintf(stderr, "build: %s\n", err.msg);
		exit(2);
	}
	return buf;
}

/* ---- both entry points ---- */

static int cases;

/*
 * Feed len bytes to cwasm__parse and to aotjit_register_cwasm (and its
 * check). want_ok: the verdict; phrase: what the one-line message names.
 */
static void both(const uint8_t *buf, size_t len, int want_ok, const char *phrase, int line)
{
	uint8_t *copy = malloc(len ? len : 1);
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	char msg[512];
	int r1, r2, r3;

	if (len)
		memcpy(copy, buf, len);
	r1 = cwasm__parse(copy, len, FILE_NAME, &m, &err);
	r2 = aotjit_register_cwasm(jd, 0x100000, copy, len, "w:", AOTJIT_WASM_NAMES);
	r3 = aotjit_check_cwasm(copy, len, FILE_NAME, msg, sizeof(msg));
	cases++;
	if ((r1 == 0) != want_ok || (r2 == 0) != want_ok || r2 != r3 ||
	    (!want_ok && (strcmp(err.msg, msg) || !strstr(msg, phrase))))
		fprintf(stderr, "  (case at line %d: parse %d \"%s\", register %d, check %d \"%s\")\n",
			line, r1, r1 ? err.msg : "", r2, r3, msg);
	CHECK((r1 == 0) == want_ok);
	CHECK((r2 == 0) == want_ok);
	CHECK_EQ_U64(r2, r3);
	if (!want_ok) {
		CHECK(m == NULL);
		CHECK(!strcmp(err.msg, msg));
		CHECK(!strncmp(msg, FILE_NAME ": ", strlen(FILE_NAME) + 2));
		CHECK_STR_CONTAINS(msg, phrase);
		CHECK(strchr(msg, '\n') == NULL);
		CHECK(r2 == -EINVAL || r2 == -ENOEXEC || r2 == -ENOTSUP);
	}
	cwasm__delete(m);
	free(copy);
}

#define GOOD(b, n) both(b, n, 1, "", __LINE__)
#define BAD(b, n, phrase) both(b, n, 0, phrase, __LINE__)

/* ---- every version through the writer and back ---- */

static void check_imports(const struct cwasm_module *m, uint32_t version)
{
	uint32_t n = version == 6 ? 5 : 6, i;

	CHECK_EQ_U64(m->nimports, n);
	CHECK_EQ_U64(m->import_func_count, 2);
	for (i = 0; i < m->nimports && i < n; i++) {
		const struct cwasm_import_type *t = &m->imports[i].t;

		CHECK(!strcmp(m->imports[i].module, "env"));
		CHECK(!strcmp(m->imports[i].field, imports[i].field));
		CHECK_EQ_U64(t->kind, imports[i].kind);
		if (version <= 7) {
			/* a u32 after every kind: the type index */
			CHECK_EQ_U64(t->type_idx, imports[i].type_idx);
			CHECK_EQ_U64(t->min, 0);
			continue;
		}
		CHECK_EQ_U64(t->elem_type, import_types[i].elem_type);
		CHECK_EQ_U64(t->min, import_types[i].min);
		CHECK_EQ_U64(t->has_max, import_types[i].has_max);
		CHECK_EQ_U64(t->max, import_types[i].max);
		CHECK_EQ_U64(t->shared, import_types[i].shared);
		CHECK_EQ_U64(t->valtype, import_types[i].valtype);
		CHECK_EQ_U64(t->is_mutable, import_types[i].is_mutable);
		if (t->kind == CWASM_KIND_FUNC || t->kind == CWASM_KIND_TAG)
			CHECK_EQ_U64(t->type_idx, imports[i].type_idx);
	}
}

static void test_versions(void)
{
	for (uint32_t v = 6; v <= 11; v++) {
		struct cwasm_spec s = full_spec(v);
		struct cwasm_module *m = NULL;
		struct ap_err err = { 0 };
		size_t len;
		uint8_t *buf = build(&s, &len);

		GOOD(buf, len);
		CHECK(cwasm__parse(buf, len, FILE_NAME, &m, &err) == 0);
		if (!m) {
			fprintf(stderr, "version %u: %s\n", v, err.msg);
			free(buf);
			continue;
		}
		CHECK_EQ_U64(m->version, v);
		CHECK(m->version_known);
		CHECK_EQ_U64(m->target.format, v >= 11 ? CWASM_FMT_ELF64 : CWASM_FMT_LEGACY);
		CHECK_EQ_U64(m->target.verified, v >= 11);
		CHECK_EQ_U64(m->nfuncs, 3);
		CHECK_EQ_U64(m->has_type_idx, v >= 7);
		for (uint32_t i = 0; i < 3; i++) {
			CHECK_EQ_U64(m->funcs[i].offset, offsets[i]);
			CHECK_EQ_U64(m->funcs[i].type_idx, v >= 7 ? tidx[i] : CWASM_NO_TYPE);
		}
		CHECK_EQ_U64(m->funcs[2].size, 0x70);
		check_imports(m, v);
		CHECK_EQ_U64(cwasm__wasm_index(m, 0), 2);
		CHECK_EQ_U64(m->nexports, 3);
		CHECK(m->nexports == 3 && !strcmp(m->exports[1].name, "exp1") &&
		      m->exports[2].kind == CWASM_KIND_MEMORY);
		/* version 6 had no type and no name section: names come from exports */
		CHECK_EQ_U64(m->ntypes, v >= 7 ? 2 : 0);
		if (v >= 7 && m->ntypes == 2)
			CHECK(m->types[1].nparams == 2 && m->types[1].params[1] == 0x7e &&
			      m->types[1].nresults == 1 && m->types[1].results[0] == 0x7f);
		if (v >= 7)
			CHECK(m->funcs[0].name && !strcmp(m->funcs[0].name, "zero"));
		else
			CHECK(m->funcs[0].name == NULL);
		CHECK(m->funcs[1].name && !strcmp(m->funcs[1].name, "exp1"));
		if (v >= 7)
			CHECK(m->funcs[2].name && !strcmp(m->funcs[2].name, "two"));
		else
			CHECK(m->funcs[2].name == NULL);
		CHECK_EQ_U64(m->sections & (1u << CWASM_SEC_NAMES), v >= 7 ? 1u << CWASM_SEC_NAMES : 0);
		CHECK(m->sections & (1u << CWASM_SEC_MEMORY));
		cwasm__delete(m);
		free(buf);
	}
}

/*
 * The writer's bytes against a container laid out here by hand, one per
 * import layout: version 6 (a u32 after every kind) and version 11 (a
 * payload by kind), with the compiler's section order.
 */
static void test_writer_bytes(void)
{
	static const uint32_t off2[2] = { 0, 4 };
	static const char *const fields[5] = { "f", "tbl", "g", "mem", "glob" };
	struct cwasm_spec s = full_spec(11);
	struct rb want, sec;
	uint8_t *buf;
	size_t len;

	s.nfuncs = 2;
	s.offsets = off2;
	s.text_size = 8;
	s.ntypes = 1;
	s.nexports = 1;
	s.nnames = 1;
	s.nraw = 0;
	buf = build(&s, &len);
	want.n = 0;
	r32(&want, 0x746f6100);
	r32(&want, 11);
	sec.n = 0;		/* target info: x86_64 SysV ELF64 */
	r8(&sec, 2); r8(&sec, 0); r8(&sec, 0); r8(&sec, 0); r8(&sec, 1); r8(&sec, 0);
	r8(&sec, 0x3e); r8(&sec, 0); r32(&sec, 0); r32(&sec, 0);
	rmem(&sec, "x86_64\0\0\0\0\0\0\0\0\0\0", 16);
	r32(&sec, 0); r32(&sec, 0);
	rsec(&want, 0, &sec);
	sec.n = 0;
	rmem(&sec, text, 8);
	rsec(&want, 2, &sec);
	sec.n = 0;
	r32(&sec, 1); r32(&sec, 0); r32(&sec, 0);
	rsec(&want, 13, &sec);
	sec.n = 0;
	r32(&sec, 2); r32(&sec, 0); r32(&sec, 1); r32(&sec, 4); r32(&sec, 0);
	rsec(&want, 3, &sec);
	sec.n = 0;
	r32(&sec, 1); rstr(&sec, "f_again"); r8(&sec, 0); r32(&sec, 0);
	rsec(&want, 4, &sec);
	sec.n = 0;
	r32(&sec, 6);
	rstr(&sec, "env"); rstr(&sec, "f"); r8(&sec, 0); r32(&sec, 1);
	rstr(&sec, "env"); rstr(&sec, "tbl"); r8(&sec, 1); r8(&sec, 0x70); r32(&sec, 1);
	r8(&sec, 1); r32(&sec, 9);
	rstr(&sec, "env"); rstr(&sec, "g"); r8(&sec, 0); r32(&sec, 0);
	rstr(&sec, "env"); rstr(&sec, "mem"); r8(&sec, 2); r32(&sec, 2); r8(&sec, 0);
	r8(&sec, 0); r8(&sec, 1);
	rstr(&sec, "env"); rstr(&sec, "glob"); r8(&sec, 3); r8(&sec, 0x7e); r8(&sec, 1);
	rstr(&sec, "env"); rstr(&sec, "tag"); r8(&sec, 4); r32(&sec, 1);
	rsec(&want, 8, &sec);
	sec.n = 0;
	r32(&sec, 1); r32(&sec, 2); rstr(&sec, "zero");
	rsec(&want, 7, &sec);
	CHECK_EQ_U64(len, want.n);
	CHECK(len == want.n && !memcmp(buf, want.b, len));
	free(buf);

	/* version 6: offsets only, no type or name section, a u32 after every kind */
	s.version = 6;
	s.nimports = 5;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, CWASM_ABI_UNSPECIFIED);
	buf = build(&s, &len);
	want.n = 0;
	r32(&want, 0x746f6100);
	r32(&want, 6);
	sec.n = 0;		/* the legacy form, spelt as the old compiler did */
	r8(&sec, 1);
	for (int i = 0; i < 15; i++)
		r8(&sec, 0);
	rmem(&sec, "x86-64\0\0\0\0\0\0\0\0\0\0", 16);
	r32(&sec, 0); r32(&sec, 0);
	rsec(&want, 0, &sec);
	sec.n = 0;
	rmem(&sec, text, 8);
	rsec(&want, 2, &sec);
	sec.n = 0;
	r32(&sec, 2); r32(&sec, 0); r32(&sec, 4);
	rsec(&want, 3, &sec);
	sec.n = 0;
	r32(&sec, 1); rstr(&sec, "f_again"); r8(&sec, 0); r32(&sec, 0);
	rsec(&want, 4, &sec);
	sec.n = 0;
	r32(&sec, 5);
	for (int i = 0; i < 5; i++) {
		rstr(&sec, "env");
		rstr(&sec, fields[i]);
		r8(&sec, imports[i].kind);
		r32(&sec, imports[i].type_idx);
	}
	rsec(&want, 8, &sec);
	CHECK_EQ_U64(len, want.n);
	CHECK(len == want.n && !memcmp(buf, want.b, len));
	free(buf);
}

/* ---- the table of good and bad containers ---- */

/* Offsets of the section headers of a well-formed container, read here by hand. */
static size_t section_starts(const uint8_t *b, size_t len, size_t *starts, uint32_t *stypes)
{
	size_t pos = 8, n = 0;

	while (pos + 8 <= len) {
		uint32_t size = (uint32_t)b[pos + 4] | (uint32_t)b[pos + 5] << 8 |
				(uint32_t)b[pos + 6] << 16 | (uint32_t)b[pos + 7] << 24;

		stypes[n] = b[pos];
		starts[n++] = pos;
		pos += 8 + size;
	}
	starts[n] = pos;
	return n;
}

/* Cut a full container at, and around, every section boundary. */
static void test_truncations(void)
{
	for (uint32_t v = 6; v <= 11; v += 5) {
		struct cwasm_spec s = full_spec(v);
		size_t len, starts[32], n, k, d;
		uint32_t stypes[32];
		uint8_t *buf = build(&s, &len);

		n = section_starts(buf, len, starts, stypes);
		CHECK(n >= 6 && starts[n] == len);
		for (k = 0; k <= n; k++) {
			/* whole sections only: fine once text and functions are in */
			int have_text = 0, have_funcs = 0;

			for (size_t i = 0; i < k; i++) {
				have_text |= stypes[i] == CWASM_SEC_TEXT;
				have_funcs |= stypes[i] == CWASM_SEC_FUNCTION;
			}
			if (have_text && have_funcs)
				GOOD(buf, starts[k]);
			else
				BAD(buf, starts[k], have_text ? "no function section" : "no text section");
			if (k == n)
				break;
			for (d = 1; d < 8; d++)
				BAD(buf, starts[k] + d, "truncated section header at offset");
			d = (starts[k + 1] - starts[k]) / 2 + 4;
			if (starts[k] + d < starts[k + 1])
				BAD(buf, starts[k] + d, "bytes, only");
		}
		free(buf);
	}
}

/* Build, then patch: function offsets, target info fields. */
static void test_table(void)
{
	static const uint32_t equal[3] = { 0, 0x40, 0x40 };
	static const uint32_t down[3] = { 0, 0x90, 0x40 };
	static const uint32_t at_end[3] = { 0, 0x40, 0x100 };
	static const uint32_t past[3] = { 0, 0x40, 0x1000 };
	struct cwasm_spec s;
	struct rb r, p;
	uint8_t *buf;
	size_t len;

#define SPEC_CASE(setup, good, phrase)                                   \
	do {                                                             \
		s = full_spec(11);                                       \
		setup;                                                   \
		buf = build(&s, &len);                                   \
		both(buf, len, good, phrase, __LINE__);                  \
		free(buf);                                               \
	} while (0)

	/* offsets */
	SPEC_CASE(s.offsets = equal, 0, "functions 1 and 2 both start at offset 0x40: function offsets must be strictly ascending");
	SPEC_CASE(s.offsets = down, 0, "function offsets out of order at 2 (0x40 after 0x90)");
	SPEC_CASE(s.offsets = at_end, 0, "function 2 offset 0x100 is past the text (0x100 bytes)");
	SPEC_CASE(s.offsets = past, 0, "function 2 offset 0x1000 is past the text");
	SPEC_CASE(s.nfuncs = 0, 1, "");
	SPEC_CASE(s.text_size = 0, 0, "empty text section");

	/* target info: every form, and every field that can disagree */
	SPEC_CASE(cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_COFF64, CWASM_ABI_WIN64), 1, "");
	SPEC_CASE(cwasm_target__spec(&s.ti, CWASM_ARCH_AARCH64, CWASM_FMT_ELF64, CWASM_ABI_AAPCS64), 1, "");
	SPEC_CASE(cwasm_target__spec(&s.ti, CWASM_ARCH_AARCH64, CWASM_FMT_LEGACY, 0), 1, "");
	SPEC_CASE(cwasm_target__spec_profile(&s.ti, CWASM_PROFILE_NATIVE), 1, "");
	SPEC_CASE(cwasm_target__spec_profile(&s.ti, CWASM_PROFILE_NATIVE_FUEL), 1, "");
	SPEC_CASE(s.no_target_info = 1, 1, "");
	SPEC_CASE(s.ti.e_machine = 0xb7, 0, "target info e_machine 0xb7 does not match x86_64/elf64-little (expected 0x3e)");
	SPEC_CASE(s.ti.e_type = 2, 0, "target info e_type 2, expected 1 for x86_64/elf64-little");
	SPEC_CASE(s.ti.abi_type = 3, 0, "target info abi_type 3, expected 0");
	SPEC_CASE(s.ti.e_flags = 1, 0, "target info e_flags 0x1, expected 0");
	SPEC_CASE(s.ti.reserved = 1, 0, "target info reserved field is 0x1, expected 0");
	SPEC_CASE(s.ti.arch[7] = 'X', 0, "target info arch 'x86_64' has nonzero padding");
	SPEC_CASE(memcpy(s.ti.arch, "riscv64", 8), 0, "target info arch 'riscv64' is not x86_64 or aarch64");
	/* the message shows the field without its control characters */
	SPEC_CASE(memcpy(s.ti.arch, "x86_64\n\x1b[1m", 11), 0, "target info arch 'x86_64??[1m' is not x86_64 or aarch64");
	SPEC_CASE(s.ti.bin_type = 3, 0, "target info bin_type 3 is not a known form for arch 'x86_64'");
	SPEC_CASE(s.ti.bin_type = 6, 0, "target info e_machine 0x3e does not match x86_64/coff64 (expected 0x8664)");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_AARCH64, CWASM_FMT_ELF64, 0), s.ti.bin_type = 6), 0,
		  "target info bin_type 6 is not a known form for arch 'aarch64'");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, 0), s.ti.e_machine = 0x3e), 0,
		  "target info e_machine 0x3e, expected 0 in the legacy form (bin_type 1)");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, 0), s.ti.e_type = 1), 0,
		  "target info e_type 1, expected 0 in the legacy form");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, 0), s.ti.abi_type = 1), 0,
		  "target info abi_type 1, expected 0 in the legacy form");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, 0), s.ti.e_flags = 4), 0,
		  "target info e_flags 0x4, expected 0 in the legacy form");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_LEGACY, 0), s.ti.reserved = 2), 0,
		  "target info reserved field is 0x2, expected 0");
	SPEC_CASE((cwasm_target__spec_profile(&s.ti, CWASM_PROFILE_NATIVE), s.ti.reserved = 2), 0,
		  "target info reserved field (the native profile's runtime contract) is 2, expected 1");
	SPEC_CASE((cwasm_target__spec_profile(&s.ti, CWASM_PROFILE_NATIVE), s.ti.features = 0x3f), 0,
		  "target info features 0x3f, expected 0x1f for the native profile");
	SPEC_CASE((cwasm_target__spec_profile(&s.ti, CWASM_PROFILE_NATIVE), s.ti.e_machine = 0xb7), 0,
		  "target info e_machine 0xb7 does not match");
	SPEC_CASE((cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_COFF64, 0),
		   s.ti.e_flags = CWASM_NATIVE_FLAG, s.ti.reserved = 1), 0,
		  "target info e_flags 0x554b0001, expected 0");

	/* versions: 12 reads as 11; below 6 is upstream C WAMR */
	SPEC_CASE(s.version = 12, 1, "");
	SPEC_CASE(s.version = 5, 0, "version 5 is upstream C WAMR's .aot format (the same magic), not a .cwasm (versions 6 to 11)");

	/* import and export kinds, import flags */
	{
		static struct cwasm_import_spec bad_kind[1] = { { "env", "x", 5, 0 } };
		static struct cwasm_import_spec tag6[1] = { { "env", "x", CWASM_KIND_TAG, 0 } };
		static struct cwasm_import_type flag2[6];
		static const struct cwasm_export ex9[1] = { { (char *)"e", 9, 0 } };

		memcpy(flag2, import_types, sizeof(flag2));
		flag2[1].has_max = 2;
		SPEC_CASE((s.imports = bad_kind, s.nimports = 1, s.import_types = NULL), 0,
			  "section 8 (import) import 0 has kind 5, not an import kind of version 11 (0 to 4)");
		SPEC_CASE((s.version = 6, s.imports = tag6, s.nimports = 1), 0,
			  "import 0 has kind 4, not an import kind of version 6 (0 to 3)");
		SPEC_CASE(s.import_types = flag2, 0,
			  "section 8 (import) import 1: has_max byte is 2, expected 0 or 1");
		SPEC_CASE((s.exports = ex9, s.nexports = 1), 0,
			  "section 4 (export) export 0 has kind 9, not an export kind of version 11");
	}

	/* raw containers */
#define RAW_BEGIN(v) (r.n = 0, r32(&r, 0x746f6100), r32(&r, v))
#define TEXT_FUNCS(v)                                                    \
	do {                                                             \
		p.n = 0;                                                 \
		rmem(&p, text, 0x20);                                    \
		rsec(&r, CWASM_SEC_TEXT, &p);                            \
		p.n = 0;                                                 \
		r32(&p, 2);                                              \
		r32(&p, 0);                                              \
		if ((v) >= 7)                                            \
			r32(&p, 0);                                      \
		r32(&p, 0x10);                                           \
		if ((v) >= 7)                                            \
			r32(&p, 0);                                      \
		rsec(&r, CWASM_SEC_FUNCTION, &p);                        \
	} while (0)

	RAW_BEGIN(7);
	TEXT_FUNCS(7);
	GOOD(r.b, r.n);

	BAD(r.b, 0, FILE_NAME ": not a .cwasm (empty file)");
	BAD((const uint8_t *)"\x7f" "ELF\2\1\1", 7, FILE_NAME ": not a .cwasm (no \\0aot magic)");
	BAD(r.b, 3, "not a .cwasm (no \\0aot magic)");
	BAD(r.b, 7, "truncated .cwasm header (7 bytes, a header needs 8)");

	/* version 6 with pairs, version 7 with offsets only */
	RAW_BEGIN(6);
	TEXT_FUNCS(7);
	BAD(r.b, r.n, "section 3 (function) is 20 bytes, but 2 entries take 12 in version 6 (u32 offsets)");
	RAW_BEGIN(8);
	TEXT_FUNCS(6);
	BAD(r.b, r.n, "section 3 (function) is 12 bytes, but 2 entries take 20 in version 8 (u32 offset, u32 type index)");

	/* an upstream C WAMR .aot: version 3, 48-byte target info, init_data */
	RAW_BEGIN(3);
	p.n = 0;
	memset(p.b, 0, 48);
	p.n = 48;
	rsec(&r, CWASM_SEC_TARGET_INFO, &p);
	p.n = 16;
	rsec(&r, CWASM_SEC_INIT_DATA, &p);
	BAD(r.b, r.n, "version 3 is upstream C WAMR's .aot format (the same magic), not a .cwasm");
	RAW_BEGIN(7);
	rsec(&r, CWASM_SEC_INIT_DATA, &p);
	TEXT_FUNCS(7);
	BAD(r.b, r.n, "section 1 (init_data) at offset 8 is upstream C WAMR's .aot layout, not a .cwasm");
	RAW_BEGIN(7);
	p.n = 48;
	rsec(&r, CWASM_SEC_TARGET_INFO, &p);
	TEXT_FUNCS(7);
	BAD(r.b, r.n, "target info is 48 bytes, expected 40");

	/* overruns and bad counts */
	RAW_BEGIN(7);
	TEXT_FUNCS(7);
	r32(&r, CWASM_SEC_EXPORT);
	r32(&r, 1000);
	r32(&r, 0);
	BAD(r.b, r.n, "section 4 (export) at offset 76 claims 1000 bytes, only 4 left");
	for (uint32_t sec = 4; sec <= 13; sec++) {
		static const char *const what[14] = { [4] = "export", [7] = "name", [8] = "import", [13] = "type" };
		/* zeros for one entry and a bit: export 9, name 8, type 8; an import needs 11 or more */
		static const char *const short_by[14] = {
			[4] = "section 4 (export) has 1 byte after its last entry",
			[7] = "section 7 (name) has 2 bytes after its last entry",
			[8] = "count 1 in section 8 (import) overflows its 14 bytes",
			[13] = "section 13 (type) has 2 bytes after its last entry",
		};
		char phrase[128];

		if (!what[sec])
			continue;
		RAW_BEGIN(7);
		TEXT_FUNCS(7);
		p.n = 0;
		r32(&p, 0x10000000);
		r32(&p, 0);
		rsec(&r, sec, &p);
		snprintf(phrase, sizeof(phrase), "count 268435456 in section %u (%s) overflows its 8 bytes",
			 sec, what[sec]);
		BAD(r.b, r.n, phrase);
		RAW_BEGIN(7);
		TEXT_FUNCS(7);
		p.n = 0;
		r32(&p, 1);
		r32(&p, 0);
		r32(&p, 0);
		r8(&p, 0);
		r8(&p, 0);
		rsec(&r, sec, &p);
		BAD(r.b, r.n, short_by[sec]);
	}

	/* every known section appears once; unknown ones are skipped */
	for (uint32_t sec = 0; sec < CWASM_SEC_COUNT; sec++) {
		char phrase[128];
		struct cwasm_spec ds = full_spec(11);
		uint8_t *one;
		size_t olen, starts[32], n, k;
		uint32_t stypes[32];

		if (sec == CWASM_SEC_INIT_DATA)
			continue;
		one = build(&ds, &olen);
		n = section_starts(one, olen, starts, stypes);
		for (k = 0; k < n && stypes[k] != sec; k++)
			;
		if (k == n) {
			free(one);
			continue;	/* not written by full_spec */
		}
		r.n = 0;
		rmem(&r, one, olen);
		rmem(&r, one + starts[k], starts[k + 1] - starts[k]);
		snprintf(phrase, sizeof(phrase), "duplicate %s section (type %u) at offset %zu",
			 cwasm_section__name(sec), sec, olen);
		BAD(r.b, r.n, phrase);
		free(one);
	}
	RAW_BEGIN(9);
	p.n = 3;
	rsec(&r, 77, &p);
	rsec(&r, 77, &p);
	TEXT_FUNCS(9);
	rsec(&r, CWASM_SEC_TAG, &p);
	GOOD(r.b, r.n);
#undef SPEC_CASE
#undef RAW_BEGIN
#undef TEXT_FUNCS
}

/*
 * Versions 7 to 10: the non-function imports are read in whichever layout
 * (version 6's or 11's) reads the section exactly.
 */
static void test_between_versions(void)
{
	struct rb r, p;

	for (uint32_t v = 7; v <= 10; v++) {
		for (int by_kind = 0; by_kind < 2; by_kind++) {
			struct cwasm_module *m = NULL;
			struct ap_err err = { 0 };

			r.n = 0;
			r32(&r, 0x746f6100);
			r32(&r, v);
			p.n = 0;
			r32(&p, 3);
			rstr(&p, "env"); rstr(&p, "m"); r8(&p, CWASM_KIND_MEMORY);
			if (by_kind) {
				r32(&p, 1); r8(&p, 1); r32(&p, 4); r8(&p, 0); r8(&p, 1);
			} else {
				r32(&p, 0);
			}
			rstr(&p, "env"); rstr(&p, "f"); r8(&p, CWASM_KIND_FUNC); r32(&p, 0);
			rstr(&p, "env"); rstr(&p, "g"); r8(&p, CWASM_KIND_GLOBAL);
			if (by_kind) {
				r8(&p, 0x7f); r8(&p, 0);
			} else {
				r32(&p, 0);
			}
			rsec(&r, CWASM_SEC_IMPORT, &p);
			p.n = 0;
			rmem(&p, text, 0x20);
			rsec(&r, CWASM_SEC_TEXT, &p);
			p.n = 0;
			r32(&p, 1); r32(&p, 0); r32(&p, 0);
			rsec(&r, CWASM_SEC_FUNCTION, &p);
			GOOD(r.b, r.n);
			CHECK(cwasm__parse(r.b, r.n, FILE_NAME, &m, &err) == 0);
			if (!m)
				continue;
			CHECK_EQ_U64(m->nimports, 3);
			CHECK_EQ_U64(m->import_func_count, 1);
			if (m->nimports == 3) {
				CHECK_EQ_U64(m->imports[0].t.kind, CWASM_KIND_MEMORY);
				CHECK_EQ_U64(m->imports[0].t.max, by_kind ? 4 : 0);
				CHECK_EQ_U64(m->imports[0].t.shared, by_kind);
				CHECK_EQ_U64(m->imports[2].t.valtype, by_kind ? 0x7f : 0);
			}
			cwasm__delete(m);
		}
	}
}

/* ---- the real compiler output ---- */

static void test_real(void)
{
	const char *fx = getenv("FIXTURES");
	char path[4096];
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint8_t *b;
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/real/test_minimal.aot", fx && *fx ? fx : "build/fixtures");
	CHECK(cwasm__read(path, &m, &err) == 0);
	if (!m) {
		fprintf(stderr, "real: %s\n", err.msg);
		return;
	}
	/* what its 455 bytes say, read with xxd */
	CHECK_EQ_U64(m->version, 6);
	CHECK(m->has_target_info);
	CHECK_EQ_U64(m->ti.bin_type, 1);
	CHECK(!memcmp(m->ti.arch, "x86-64\0\0\0\0\0\0\0\0\0\0", 16));
	CHECK_EQ_U64(m->target.arch, CWASM_ARCH_X86_64);
	CHECK_EQ_U64(m->target.format, CWASM_FMT_LEGACY);
	CHECK(!strcmp(cwasm_format__name(m->target.format), "legacy-unspecified"));
	CHECK_EQ_U64(m->target.abi, CWASM_ABI_UNSPECIFIED);
	CHECK(!m->target.verified);
	CHECK_EQ_U64(m->text_size, 269);
	CHECK_EQ_U64(m->nfuncs, 3);
	CHECK(!m->has_type_idx);
	if (m->nfuncs == 3) {
		CHECK_EQ_U64(m->funcs[0].offset, 0x0);
		CHECK_EQ_U64(m->funcs[1].offset, 0x26);
		CHECK_EQ_U64(m->funcs[2].offset, 0x4c);
		CHECK_EQ_U64(m->funcs[2].size, 269 - 0x4c);
		/* each function opens with push rbp; mov rbp, rsp */
		for (int i = 0; i < 3; i++)
			CHECK(!memcmp(m->text + m->funcs[i].offset, "\x55\x48\x89\xe5", 4));
		CHECK(m->funcs[0].name == NULL && m->funcs[1].name == NULL);
		CHECK(m->funcs[2].name && !strcmp(m->funcs[2].name, "_start"));
	}
	CHECK_EQ_U64(m->nexports, 1);
	CHECK_EQ_U64(m->nimports, 0);
	CHECK_EQ_U64(m->ntypes, 0);
	/* target info, text, function, export, memory, global, elem */
	CHECK_EQ_U64(m->sections, 0x0e1d);
	cwasm__delete(m);

	f = fopen(path, "rb");
	b = malloc(1024);
	n = f ? fread(b, 1, 1024, f) : 0;
	if (f)
		fclose(f);
	CHECK_EQ_U64(n, 455);
	GOOD(b, n);
	free(b);
}

/* ---- the name sanitizer ---- */

/* Independent of name.c: no byte or sequence a terminal or a line would act on. */
static int clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return 0;
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return 0;
		if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9 ||
						     (p[2] >= 0xaa && p[2] <= 0xae) ||
						     p[2] == 0x8e || p[2] == 0x8f))
			return 0;
		if (p[0] == 0xe2 && p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)
			return 0;
	}
	return 1;
}

static void test_sanitizer(void)
{
	static const struct {
		const char *in, *want;
	} cases_[] = {
		{ "plain_name", "plain_name" },
		{ "a\nb\rc", "a_b_c" },
		{ "\x1b[31mred\x1b[0m", "_[31mred_[0m" },		/* ANSI escape */
		{ "c1\xc2\x9b" "2J", "c1_2J" },			/* C1 CSI */
		{ "caf\xc3\xa9 \xe2\x9c\x93", "caf\xc3\xa9 \xe2\x9c\x93" },	/* UTF-8 kept */
		{ "rtl\xe2\x80\xae" "cba", "rtl_cba" },		/* U+202E */
		{ "iso\xe2\x81\xa6x\xe2\x81\xa9", "iso_x_" },	/* U+2066, U+2069 */
		{ "line\xe2\x80\xa8sep", "line_sep" },		/* U+2028 */
		{ "\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80" },
		{ "\xc0\xaf", "__" },				/* overlong */
		{ "\xf5\x80\x80\x80", "____" },			/* past U+10FFFF */
	};
	char a[64], b[64], c[64];
	uint32_t seed = 12345;

	for (size_t i = 0; i < sizeof(cases_) / sizeof(cases_[0]); i++) {
		size_t n = strlen(cases_[i].in);

		cwasm_name__sanitize(a, sizeof(a), cases_[i].in, n);
		aotjit_sanitize_name(b, sizeof(b), cases_[i].in, SIZE_MAX);
		if (strcmp(a, cases_[i].want))
			fprintf(stderr, "  (sanitize case %zu: \"%s\")\n", i, a);
		CHECK(!strcmp(a, cases_[i].want));
		CHECK(!strcmp(a, b));
	}
	/* a NUL in a counted wasm name is a control character too */
	cwasm_name__sanitize(a, sizeof(a), "a\0b", 3);
	CHECK(!strcmp(a, "a_b"));
	CHECK_EQ_U64(cwasm_name__sanitize(a, 1, "abc", 3), 0);
	CHECK_EQ_U64(cwasm_name__sanitize(a, 0, "abc", 3), 0);

	/* random bytes: clean, never longer, bounded, idempotent */
	for (int round = 0; round < 20000; round++) {
		unsigned char in[40];
		size_t n = (size_t)(seed % 40), k, la;

		for (k = 0; k < n; k++) {
			seed = seed * 1103515245u + 12345u;
			in[k] = (unsigned char)(seed >> 16);
			if (seed & 0x80000000u)		/* bias to interesting bytes */
				in[k] = (unsigned char)(0x80 + in[k] % 0x80);
		}
		seed = seed * 1103515245u + 12345u;
		la = cwasm_name__sanitize(a, sizeof(a), in, n);
		cwasm_name__sanitize(c, 17, in, n);
		CHECK(la <= n && la == strlen(a));
		CHECK(strlen(c) <= 16);
		CHECK(clean(a));
		CHECK_EQ_U64(cwasm_name__sanitize(b, sizeof(b), a, la), la);
		CHECK(!strcmp(a, b));
	}
}

int main(void)
{
	char dir[4096];
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_walker.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 2;
	}
	jd = aotjit_open(dir, 62, NULL);
	CHECK(jd != NULL);
	if (!jd)
		CHECK_DONE();
	test_versions();
	test_writer_bytes();
	test_truncations();
	test_table();
	test_between_versions();
	test_real();
	test_sanitizer();
	printf("%d containers fed to both entry points\n", cases);
	unlink(aotjit_path(jd));
	aotjit_close(jd);
	rmdir(dir);
	CHECK_DONE();
}
