// SPDX-License-Identifier: MIT
/*
 * SHA-256 against known vectors, the JSON reader, and the component
 * manifest: a valid two-core component and each way a manifest can be wrong.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cwasm/cwasm.h"
#include "cwasm/json_read.h"
#include "util/sha256.h"

static void check_sha(const void *data, size_t len, const char *want, int line)
{
	uint8_t d[32];
	char hex[65];

	ap_sha256(data, len, d);
	ap_sha256_hex(d, hex);
	if (strcmp(hex, want))
		fprintf(stderr, "  (sha256 at line %d: %s)\n", line, hex);
	CHECK(!strcmp(hex, want));
}

static void test_sha256(int pass)
{
	static const struct {
		size_t n;
		const char *hex;
	} as[] = {	/* "a" repeated n times: lengths around the padding boundary */
		{ 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318" },
		{ 56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a" },
		{ 63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34" },
		{ 64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb" },
		{ 119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb" },
		{ 120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c" },
	};
	char *million = malloc(1000000);
	size_t i;

	/* both ways: the portable code, then the CPU's SHA instructions where it has them */
	ap_sha256__use_cpu(pass);
	check_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", __LINE__);
	check_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", __LINE__);
	check_sha("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1", __LINE__);
	memset(million, 'a', 1000000);
	check_sha(million, 1000000,
		  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0", __LINE__);
	for (i = 0; i < sizeof(as) / sizeof(as[0]); i++)
		check_sha(million, as[i].n, as[i].hex, __LINE__);
	free(million);
}

static struct jr_node *jparse(const char *s, char *msg, size_t msglen)
{
	struct jr_node *n = NULL;
	struct ap_err err = { 0 };

	msg[0] = '\0';
	if (jr__parse(s, strlen(s), &n, &err)) {
		snprintf(msg, msglen, "%.*s", (int)msglen - 1, err.msg);
		return NULL;
	}
	return n;
}

static void json_bad(const char *s, const char *phrase, int line)
{
	char msg[300];
	struct jr_node *n = jparse(s, msg, sizeof(msg));

	if (n || !strstr(msg, phrase))
		fprintf(stderr, "  (json case at line %d: \"%s\")\n", line, msg);
	CHECK(n == NULL);
	CHECK_STR_CONTAINS(msg, phrase);
	jr__delete(n);
}

static void test_json(void)
{
	char msg[300], *deep;
	struct jr_node *n;
	const struct jr_node *v;
	size_t count, i;

	n = jparse(" {\"a\": [1, -2, 3.5, 1e3, true, false, null, \"x\\n\\u00e9\\ud83d\\ude00\\\"\"],"
		   " \"b\": {}, \"a\": 0, \"big\": 123456789012345678901234567890,"
		   " \"min\": -9223372036854775808} ", msg, sizeof(msg));
	CHECK(n != NULL);
	if (n) {
		CHECK_EQ_U64(n->type, JR_OBJECT);
		v = jr__get(n, "a", &count);
		CHECK_EQ_U64(count, 2);
		CHECK(v && v->type == JR_ARRAY && v->n == 8);
		if (v && v->n == 8) {
			CHECK(v->items[0].is_int && v->items[0].integer == 1);
			CHECK(v->items[1].is_int && v->items[1].integer == -2);
			CHECK(!v->items[2].is_int && v->items[2].number == 3.5);
			CHECK(!v->items[3].is_int && v->items[3].number == 1000.0);
			CHECK(v->items[4].type == JR_BOOL && v->items[4].boolean);
			CHECK(v->items[5].type == JR_BOOL && !v->items[5].boolean);
			CHECK(v->items[6].type == JR_NULL);
			CHECK(v->items[7].type == JR_STRING &&
			      !strcmp(v->items[7].str, "x\n\xc3\xa9\xf0\x9f\x98\x80\""));
		}
		v = jr__get(n, "b", &count);
		CHECK(v && v->type == JR_OBJECT && v->n == 0 && count == 1);
		v = jr__get(n, "big", NULL);
		CHECK(v && v->type == JR_NUMBER && !v->is_int && v->number > 1e29);
		v = jr__get(n, "min", NULL);
		CHECK(v && v->is_int && v->integer == INT64_MIN);
		CHECK(jr__get(n, "nope", &count) == NULL && count == 0);
	}
	jr__delete(n);

	n = jparse("\"nul\\u0000in\"", msg, sizeof(msg));
	CHECK(n && n->str_len == 6 && strlen(n->str) == 3);
	jr__delete(n);

	json_bad("", "unexpected end of input", __LINE__);
	json_bad("{\"a\": 1", "expected ',' or '}'", __LINE__);
	json_bad("{\"a\" 1}", "expected ':'", __LINE__);
	json_bad("{1: 2}", "expected a string key", __LINE__);
	json_bad("[1, 2", "expected ',' or ']'", __LINE__);
	json_bad("[1,]", "unexpected character ']'", __LINE__);
	json_bad("\"abc", "unterminated string", __LINE__);
	json_bad("\"a\tb\"", "control character 0x09", __LINE__);
	json_bad("\"\\x\"", "invalid escape \\x", __LINE__);
	json_bad("\"\\u12g4\"", "bad hex digit", __LINE__);
	json_bad("\"\\ud800\"", "high surrogate without a low one", __LINE__);
	json_bad("\"\\udc00\"", "lone low surrogate", __LINE__);
	json_bad("-", "invalid number", __LINE__);
	json_bad("1.", "no digits after '.'", __LINE__);
	json_bad("1e+", "no digits in the exponent", __LINE__);
	json_bad("01", "trailing data", __LINE__);
	json_bad("tru", "expected true", __LINE__);
	json_bad("{} {}", "trailing data", __LINE__);
	json_bad("\n\n  @", "line 3 column 3", __LINE__);

	/* nesting past the limit fails cleanly instead of exhausting the stack */
	deep = malloc(100001);
	for (i = 0; i < 100000; i++)
		deep[i] = '[';
	deep[100000] = '\0';
	json_bad(deep, "nested deeper than", __LINE__);
	free(deep);

	/* every prefix of a valid document parses or fails; never crashes */
	{
		static const char doc[] = "{\"k\": [1, 2.5e-3, \"s\\u00e9\\ud83d\\ude00\", {\"x\": null}], \"t\": true}";
		int ok = 0;

		for (i = 0; i <= strlen(doc); i++) {
			char *cut = malloc(i ? i : 1);

			memcpy(cut, doc, i);
			if (jr__parse(cut, i, &n, NULL) == 0) {
				ok++;
				jr__delete(n);
			}
			free(cut);
		}
		CHECK_EQ_U64(ok, 1);
	}
}

struct ctx {
	char dir[4096];
	char hex4[65], hex7[65];
	char man[4200];
};

static void write_text(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(s, f);
	fclose(f);
}

static void write_core(struct ctx *c, const char *name, uint32_t version, char hex[65])
{
	static uint8_t text[64];
	static const uint32_t offs[2] = { 0, 0x20 };
	struct cwasm_spec s;
	struct ap_err err;
	char path[4200];
	uint8_t *buf, d[32];
	size_t len;

	memset(&s, 0, sizeof(s));
	s.version = version;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = 2;
	s.offsets = offs;
	snprintf(path, sizeof(path), "%s/%s", c->dir, name);
	CHECK(cwasm__write(path, &s, &err) == 0);
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	ap_sha256(buf, len, d);
	ap_sha256_hex(d, hex);
	free(buf);
}

static void setup(struct ctx *c)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(c->dir, sizeof(c->dir), "%s/test_manifest.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(c->dir)) {
		perror(c->dir);
		exit(2);
	}
	write_core(c, "comp.4.cwasm", 6, c->hex4);
	write_core(c, "comp.7.cwasm", 7, c->hex7);
	snprintf(c->man, sizeof(c->man), "%s/comp.cwasm.json", c->dir);
}

static void write_manifest(const struct ctx *c, const char *json)
{
	write_text(c->man, json);
}

static void expect_bad(const struct ctx *c, const char *json, const char *phrase, int line)
{
	struct cwasm_manifest *m = (struct cwasm_manifest *)1;
	struct ap_err err = { 0 };
	int ret;

	write_manifest(c, json);
	ret = cwasm_manifest__read(c->man, &m, &err);
	if (ret != -1 || !strstr(err.msg, phrase))
		fprintf(stderr, "  (manifest case at line %d: ret %d, \"%s\")\n", line, ret, err.msg);
	CHECK(ret == -1);
	CHECK(m == NULL);
	CHECK_STR_CONTAINS(err.msg, phrase);
	if (ret == 0)
		cwasm_manifest__delete(m);
}

#define EXPECT_BAD(c, json, phrase) expect_bad(c, json, phrase, __LINE__)

static void test_manifest_ok(struct ctx *c)
{
	struct cwasm_manifest *m = NULL;
	struct ap_err err = { 0 };
	char json[8192], want[4200], upper[65];
	size_t i;

	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"wamr_build_id\": \"abc123\", \"component_sha256\": \"%s\",\n"
		 " \"extra\": [1, {\"x\": null}],\n"
		 " \"modules\": [\n"
		 "  {\"idx\": 4, \"path\": \"comp.4.cwasm\", \"sha256\": \"%s\", \"core_sha256\": \"%s\", \"more\": 1},\n"
		 "  {\"idx\": 7, \"path\": \"comp.7.cwasm\", \"sha256\": \"%s\"}\n"
		 " ]}\n", c->hex4, c->hex4, c->hex7, c->hex7);
	write_manifest(c, json);
	CHECK(cwasm_manifest__read(c->man, &m, &err) == 0);
	if (!m) {
		fprintf(stderr, "manifest: %s\n", err.msg);
		return;
	}
	CHECK(!strcmp(m->path, c->man));
	CHECK_EQ_U64(m->version, 2);
	CHECK(m->wamr_build_id && !strcmp(m->wamr_build_id, "abc123"));
	CHECK(m->component_sha256 && !strcmp(m->component_sha256, c->hex4));
	CHECK_EQ_U64(m->ncores, 2);
	CHECK_EQ_U64(m->cores[0]->manifest_idx, 4);
	CHECK(m->cores[0]->core_label && !strcmp(m->cores[0]->core_label, "mod4"));
	CHECK_EQ_U64(m->cores[0]->version, 6);
	snprintf(want, sizeof(want), "%s/comp.4.cwasm", c->dir);
	CHECK(!strcmp(m->cores[0]->path, want));
	CHECK_EQ_U64(m->cores[1]->manifest_idx, 7);
	CHECK(!strcmp(m->cores[1]->core_label, "mod7"));
	CHECK_EQ_U64(m->cores[1]->version, 7);
	CHECK_EQ_U64(m->cores[1]->nfuncs, 2);
	cwasm_manifest__delete(m);

	/* absolute paths (when allowed), upper-case hex, optional keys absent or null */
	for (i = 0; i < 65; i++)
		upper[i] = (char)(c->hex7[i] >= 'a' && c->hex7[i] <= 'f' ? c->hex7[i] - 32 : c->hex7[i]);
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"wamr_build_id\": null, \"modules\": [{\"idx\": 0, \"path\": \"%s/comp.7.cwasm\", \"sha256\": \"%s\"}]}",
		 c->dir, upper);
	write_manifest(c, json);
	m = NULL;
	CHECK(cwasm_manifest__read_flags(c->man, CWASM_MANIFEST_ANY_PATH, &m, &err) == 0);
	if (m) {
		CHECK(m->wamr_build_id == NULL);
		CHECK(m->component_sha256 == NULL);
		CHECK_EQ_U64(m->ncores, 1);
		CHECK(!strcmp(m->cores[0]->core_label, "mod0"));
	} else {
		fprintf(stderr, "manifest: %s\n", err.msg);
	}
	cwasm_manifest__delete(m);
}

static void test_manifest_bad(struct ctx *c)
{
	struct cwasm_manifest *m = NULL;
	struct ap_err err = { 0 };
	char json[2048], phrase[300], missing[4200];

	/* the hash of the .cwasm bytes does not match */
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"comp.4.cwasm\", \"sha256\": \"%s\"}]}",
		 c->hex7);
	snprintf(phrase, sizeof(phrase), "comp.cwasm.json: sha256 of comp.4.cwasm is %s, manifest says %s",
		 c->hex4, c->hex7);
	EXPECT_BAD(c, json, phrase);

	/* a core that is not there */
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"comp.9.cwasm\", \"sha256\": \"%s\"}]}",
		 c->hex4);
	EXPECT_BAD(c, json, "comp.9.cwasm: No such file or directory");

	/* a core that is not a .cwasm */
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"comp.cwasm.json\", \"sha256\": \"%s\"}]}",
		 c->hex4);
	EXPECT_BAD(c, json, "comp.cwasm.json: not a .cwasm (no \\0aot magic)");

	/* the manifest itself is missing */
	snprintf(missing, sizeof(missing), "%s/none.cwasm.json", c->dir);
	CHECK(cwasm_manifest__read(missing, &m, &err) == -1);
	CHECK(m == NULL);
	CHECK_STR_CONTAINS(err.msg, "none.cwasm.json: No such file or directory");

	EXPECT_BAD(c, "", "comp.cwasm.json: invalid JSON: line 1 column 1: unexpected end of input");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 4, \"pa", "invalid JSON");
	EXPECT_BAD(c, "[]", "comp.cwasm.json: top level is an array, expected an object");
	EXPECT_BAD(c, "{\"modules\": []}", "missing \"version\"");
	EXPECT_BAD(c, "{\"version\": \"2\", \"modules\": []}", "\"version\" is a string, expected a number");
	EXPECT_BAD(c, "{\"version\": 2.5, \"modules\": []}", "\"version\" is 2.5, expected a positive integer");
	EXPECT_BAD(c, "{\"version\": 2}", "comp.cwasm.json: missing \"modules\"");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": {}}", "\"modules\" is an object, expected an array");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": []}", "\"modules\" is empty");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [], \"modules\": []}", "duplicate key \"modules\"");
	EXPECT_BAD(c, "{\"version\": 2, \"wamr_build_id\": 5, \"modules\": []}",
		   "\"wamr_build_id\" is a number, expected a string");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [3]}", "modules[0]: is a number, expected an object");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"path\": \"a\"}]}", "modules[0]: missing \"idx\"");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": \"4\"}]}",
		   "modules[0]: \"idx\" is a string, expected a number");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": -1}]}",
		   "modules[0]: \"idx\" is -1, expected a non-negative integer");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1e40}]}", "expected a non-negative integer");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1}]}", "modules[0]: missing \"path\"");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1, \"path\": \"\"}]}",
		   "\"path\" is empty or holds a NUL");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1, \"path\": \"a\\u0000b\"}]}",
		   "\"path\" is empty or holds a NUL");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1, \"path\": \"a\"}]}",
		   "modules[0]: missing \"sha256\"");
	EXPECT_BAD(c, "{\"version\": 2, \"modules\": [{\"idx\": 1, \"path\": \"a\", \"sha256\": \"abc\"}]}",
		   "\"sha256\" is not 64 hex digits");
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 1, \"path\": \"a\", \"sha256\": \"%s\", \"core_sha256\": 1}]}",
		 c->hex4);
	EXPECT_BAD(c, json, "\"core_sha256\" is a number, expected a string");
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"comp.4.cwasm\", \"sha256\": \"%s\"},"
		 " {\"idx\": 4, \"path\": \"comp.7.cwasm\", \"sha256\": \"%s\"}]}",
		 c->hex4, c->hex7);
	EXPECT_BAD(c, json, "comp.cwasm.json: duplicate module idx 4");
	/* the second entry is checked before the first core is loaded */
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"comp.4.cwasm\", \"sha256\": \"%s\"},"
		 " {\"idx\": 5}]}", c->hex4);
	EXPECT_BAD(c, json, "modules[1]: missing \"path\"");
}

/* Read c->man with flags; the one-line error, or "" when it reads. */
static const char *try_read(const struct ctx *c, const char *json, unsigned flags,
			    struct ap_err *err)
{
	struct cwasm_manifest *m = NULL;

	write_manifest(c, json);
	err->msg[0] = '\0';
	if (cwasm_manifest__read_flags(c->man, flags, &m, err) == 0) {
		cwasm_manifest__delete(m);
		return "";
	}
	CHECK(m == NULL);
	CHECK(strchr(err->msg, '\n') == NULL);
	return err->msg;
}

static void entry_json(char *json, size_t n, const char *path, const char *hex)
{
	snprintf(json, n, "{\"version\": 2, \"modules\": [{\"idx\": 4, \"path\": \"%s\", "
		 "\"sha256\": \"%s\"}]}", path, hex);
}

/* Core paths stay inside the manifest's folder; cores are regular files of sane size. */
static void test_manifest_paths(struct ctx *c)
{
	struct ap_err err;
	char json[8192], p[4200], sub[4200];
	int fd;

	/* inside: plain, "./", and a climb that comes back */
	snprintf(sub, sizeof(sub), "%s/sub", c->dir);
	CHECK(mkdir(sub, 0755) == 0);
	entry_json(json, sizeof(json), "./comp.4.cwasm", c->hex4);
	CHECK(!strcmp(try_read(c, json, 0, &err), ""));
	entry_json(json, sizeof(json), "sub/../comp.4.cwasm", c->hex4);
	CHECK(!strcmp(try_read(c, json, 0, &err), ""));

	/* out: absolute, or climbing above the folder, unless allowed */
	snprintf(p, sizeof(p), "%s/comp.4.cwasm", c->dir);
	entry_json(json, sizeof(json), p, c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err),
			   "comp.cwasm.json: modules[0]: \"path\" is absolute; a core must be "
			   "inside the manifest's folder");
	CHECK(!strcmp(try_read(c, json, CWASM_MANIFEST_ANY_PATH, &err), ""));
	snprintf(p, sizeof(p), "../%s/comp.4.cwasm", strrchr(c->dir, '/') + 1);
	entry_json(json, sizeof(json), p, c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err),
			   "comp.cwasm.json: modules[0]: \"path\" climbs out of the manifest's folder");
	CHECK(!strcmp(try_read(c, json, CWASM_MANIFEST_ANY_PATH, &err), ""));
	entry_json(json, sizeof(json), "sub/../../x.cwasm", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err), "\"path\" climbs out");
	entry_json(json, sizeof(json), "/dev/zero", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err), "\"path\" is absolute");

	/*
	 * Not regular files: refused after open(O_NONBLOCK) and fstat, never
	 * read (a FIFO with no writer would block a plain open; the alarm
	 * turns a hang into a failure).
	 */
	alarm(20);
	snprintf(p, sizeof(p), "%s/fifo.cwasm", c->dir);
	CHECK(mkfifo(p, 0600) == 0);
	entry_json(json, sizeof(json), "fifo.cwasm", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err), "fifo.cwasm: is a FIFO or pipe, not a regular file");
	unlink(p);
	snprintf(p, sizeof(p), "%s/zero.cwasm", c->dir);
	CHECK(symlink("/dev/zero", p) == 0);
	entry_json(json, sizeof(json), "zero.cwasm", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err),
			   "zero.cwasm: is a character device, not a regular file");
	unlink(p);
	entry_json(json, sizeof(json), "/dev/zero", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, CWASM_MANIFEST_ANY_PATH, &err),
			   "/dev/zero: is a character device, not a regular file");
	entry_json(json, sizeof(json), "sub", c->hex4);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err), "sub: Is a directory");
	alarm(0);

	/* larger than a .cwasm may be: refused by its size (sparse: no disk used) */
	snprintf(p, sizeof(p), "%s/huge.cwasm", c->dir);
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)CWASM_FILE_MAX + 1) == 0);
	if (fd >= 0)
		close(fd);
	entry_json(json, sizeof(json), "huge.cwasm", c->hex4);
	snprintf(sub, sizeof(sub), "huge.cwasm: larger than %zu bytes", CWASM_FILE_MAX);
	CHECK_STR_CONTAINS(try_read(c, json, 0, &err), sub);
	unlink(p);
	snprintf(sub, sizeof(sub), "%s/sub", c->dir);
	rmdir(sub);
}

static void cleanup(struct ctx *c)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/comp.4.cwasm", c->dir);
	unlink(p);
	snprintf(p, sizeof(p), "%s/comp.7.cwasm", c->dir);
	unlink(p);
	unlink(c->man);
	rmdir(c->dir);
}

int main(void)
{
	struct ctx c;

	memset(&c, 0, sizeof(c));
	test_sha256(0);
	test_sha256(1);
	test_json();
	setup(&c);
	test_manifest_ok(&c);
	test_manifest_bad(&c);
	test_manifest_paths(&c);
	cleanup(&c);
	CHECK_DONE();
}
