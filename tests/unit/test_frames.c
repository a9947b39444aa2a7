// SPDX-License-Identifier: MIT
/*
 * frames/: both example sidecars (tests/fixtures/sidecars, accepted by the
 * compiler's own consumer) validate; a mutated copy for every rule of
 * docs/sidecar.md is refused with that rule's one line; the origins
 * summary on hand-made sample arrays matches sums computed here from the
 * fixture JSON alone; the aarch64 encodings and the materialized-base
 * tracker on hand-encoded words.
 *
 * Mutations are made on the parsed JSON tree of an example (a key's value
 * changed, a key dropped by renaming it, entries swapped or copied) and
 * written back to text; containers are rebuilt with cwasm__build.
 * Inputs: SIDECAR_DIR, else tests/fixtures/sidecars.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "check.h"
#include "../../cwasm/json_read.h"
#include "../../frames/frames.h"
#include "../../frames/internal.h"
#include "../../frames/summary.h"
#include "../../util/sha256.h"

static char dir[512];

static void set_dir(void)
{
	const char *d = getenv("SIDECAR_DIR");
	struct stat st;

	if (d && *d)
		snprintf(dir, sizeof(dir), "%s", d);
	else if (!stat("tests/fixtures/sidecars", &st))
		snprintf(dir, sizeof(dir), "tests/fixtures/sidecars");
	else
		snprintf(dir, sizeof(dir), "%s/../tests/fixtures/sidecars",
			 getenv("BUILD") ? getenv("BUILD") : "build");
}

static char *slurp(const char *name, size_t *len)
{
	char path[1024];
	FILE *f;
	char *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s (set SIDECAR_DIR)\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* ---- JSON tree editing ---- */

static void node_free_inner(struct jr_node *n)
{
	for (size_t i = 0; i < n->n; i++) {
		node_free_inner(&n->items[i]);
		if (n->keys)
			free(n->keys[i]);
	}
	free(n->items);
	free(n->keys);
	free(n->key_lens);
	free(n->str);
	memset(n, 0, sizeof(*n));
}

static void node_copy(struct jr_node *dst, const struct jr_node *src)
{
	*dst = *src;
	if (src->str) {
		dst->str = malloc(src->str_len + 1);
		memcpy(dst->str, src->str, src->str_len + 1);
	}
	if (src->n || src->items) {
		dst->items = calloc(src->n + 1, sizeof(*dst->items));
		for (size_t i = 0; i < src->n; i++)
			node_copy(&dst->items[i], &src->items[i]);
	}
	if (src->keys) {
		dst->keys = calloc(src->n + 1, sizeof(*dst->keys));
		dst->key_lens = calloc(src->n + 1, sizeof(*dst->key_lens));
		for (size_t i = 0; i < src->n; i++) {
			dst->keys[i] = strdup(src->keys[i]);
			dst->key_lens[i] = src->key_lens[i];
		}
	}
}

static struct jr_node *tree_copy(const struct jr_node *src)
{
	struct jr_node *t = calloc(1, sizeof(*t));

	node_copy(t, src);
	return t;
}

/* "accesses.3.kind": members by key, array entries by index. Exits if absent. */
static struct jr_node *at(struct jr_node *root, const char *path)
{
	char buf[256], *save = NULL, *seg;
	struct jr_node *n = root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (seg = strtok_r(buf, ".", &save); seg; seg = strtok_r(NULL, ".", &save)) {
		if (n->type == JR_ARRAY) {
			size_t i = strtoul(seg, NULL, 10);

			if (i >= n->n)
				goto missing;
			n = &n->items[i];
		} else {
			size_t i;

			for (i = 0; i < n->n && strcmp(n->keys[i], seg); i++)
				;
			if (i == n->n)
				goto missing;
			n = &n->items[i];
		}
	}
	return n;
missing:
	fprintf(stderr, "test bug: no %s\n", path);
	exit(1);
}

static void set_int(struct jr_node *root, const char *path, int64_t v)
{
	struct jr_node *n = at(root, path);

	node_free_inner(n);
	n->type = JR_NUMBER;
	n->is_int = 1;
	n->integer = v;
	n->number = (double)v;
}

/* Replace a value by any JSON text. */
static void set_raw(struct jr_node *root, const char *path, const char *json)
{
	struct jr_node *n = at(root, path), *p;
	struct ap_err jerr;

	if (jr__parse(json, strlen(json), &p, &jerr)) {
		fprintf(stderr, "test bug: %s: %s\n", json, jerr.msg);
		exit(1);
	}
	node_free_inner(n);
	*n = *p;
	free(p);
}

static void set_str(struct jr_node *root, const char *path, const char *s)
{
	char json[300];

	snprintf(json, sizeof(json), "\"%s\"", s);
	set_raw(root, path, json);
}

/* Drop member key of the object at path (renamed: readers ignore unknown keys). */
static void drop(struct jr_node *root, const char *path, const char *key)
{
	struct jr_node *o = path ? at(root, path) : root;

	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key)) {
			free(o->keys[i]);
			o->keys[i] = strdup("x-dropped-by-test");
			o->key_lens[i] = strlen(o->keys[i]);
			return;
		}
	fprintf(stderr, "test bug: no key %s\n", key);
	exit(1);
}

static void swap(struct jr_node *root, const char *path, size_t i, size_t j)
{
	struct jr_node *a = at(root, path), t = a->items[i];

	a->items[i] = a->items[j];
	a->items[j] = t;
}

/* Insert a copy of entry `from` of the array at path before index `before`. */
static void insert_copy(struct jr_node *root, const char *path, size_t from, size_t before)
{
	struct jr_node *a = at(root, path), copy;

	node_copy(&copy, &a->items[from]);
	a->items = realloc(a->items, (a->n + 1) * sizeof(*a->items));
	memmove(&a->items[before + 1], &a->items[before], (a->n - before) * sizeof(*a->items));
	a->items[before] = copy;
	a->n++;
}

/* Remove entry idx of the array at path. */
static void remove_item(struct jr_node *root, const char *path, size_t idx)
{
	struct jr_node *a = at(root, path);

	node_free_inner(&a->items[idx]);
	memmove(&a->items[idx], &a->items[idx + 1], (a->n - idx - 1) * sizeof(a->items[0]));
	a->n--;
}

/* Add member key with the JSON value json to the object at path (NULL: the root). */
static void add_key(struct jr_node *root, const char *path, const char *key, const char *json)
{
	struct jr_node *o = path ? at(root, path) : root, *p;

	if (jr__parse(json, strlen(json), &p, NULL))
		exit(1);
	o->items = realloc(o->items, (o->n + 1) * sizeof(*o->items));
	o->keys = realloc(o->keys, (o->n + 1) * sizeof(*o->keys));
	o->key_lens = realloc(o->key_lens, (o->n + 1) * sizeof(*o->key_lens));
	o->items[o->n] = *p;
	free(p);
	o->keys[o->n] = strdup(key);
	o->key_lens[o->n] = strlen(key);
	o->n++;
}

/* Repeat member key of the object at path (NULL: the root). */
static void repeat_key(struct jr_node *root, const char *path, const char *key)
{
	struct jr_node *o = path ? at(root, path) : root;

	for (size_t i = 0; i < o->n; i++)
		if (!strcmp(o->keys[i], key)) {
			o->items = realloc(o->items, (o->n + 1) * sizeof(*o->items));
			o->keys = realloc(o->keys, (o->n + 1) * sizeof(*o->keys));
			o->key_lens = realloc(o->key_lens, (o->n + 1) * sizeof(*o->key_lens));
			node_copy(&o->items[o->n], &o->items[i]);
			o->keys[o->n] = strdup(key);
			o->key_lens[o->n] = strlen(key);
			o->n++;
			return;
		}
}

struct sbuf {
	char *p;
	size_t len, cap;
};

static void put(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void puts_(struct sbuf *b, const char *s)
{
	put(b, s, strlen(s));
}

static void put_str(struct sbuf *b, const char *s, size_t n)
{
	puts_(b, "\"");
	for (size_t i = 0; i < n; i++) {
		char e[8];

		if (s[i] == '"' || s[i] == '\\') {
			e[0] = '\\';
			e[1] = s[i];
			put(b, e, 2);
		} else if ((unsigned char)s[i] < 0x20) {
			snprintf(e, sizeof(e), "\\u%04x", (unsigned char)s[i]);
			puts_(b, e);
		} else {
			put(b, &s[i], 1);
		}
	}
	puts_(b, "\"");
}

static void emit(struct sbuf *b, const struct jr_node *n)
{
	char num[64];

	switch (n->type) {
	case JR_NULL: puts_(b, "null"); break;
	case JR_BOOL: puts_(b, n->boolean ? "true" : "false"); break;
	case JR_NUMBER:
		if (n->is_int)
			snprintf(num, sizeof(num), "%lld", (long long)n->integer);
		else
			snprintf(num, sizeof(num), "%.17g", n->number);
		puts_(b, num);
		break;
	case JR_STRING: put_str(b, n->str, n->str_len); break;
	case JR_ARRAY:
	case JR_OBJECT:
		puts_(b, n->type == JR_ARRAY ? "[" : "{");
		for (size_t i = 0; i < n->n; i++) {
			if (i)
				puts_(b, ",");
			if (n->type == JR_OBJECT) {
				put_str(b, n->keys[i], n->key_lens[i]);
				puts_(b, ":");
			}
			emit(b, &n->items[i]);
		}
		puts_(b, n->type == JR_ARRAY ? "]" : "}");
		break;
	}
}

/* ---- the examples ---- */

struct example {
	const char *stem;
	uint8_t *cwasm;
	size_t cwasm_len;
	struct cwasm_module *mod;
	struct jr_node *root;
};

static struct example x86 = { .stem = "sidecar-v1-x86_64" };
static struct example a64 = { .stem = "sidecar-v2-aarch64" };

static void load(struct example *e)
{
	char name[128], *text;
	struct ap_err err, jerr;
	size_t len;

	snprintf(name, sizeof(name), "%s.cwasm", e->stem);
	e->cwasm = (uint8_t *)slurp(name, &e->cwasm_len);
	if (cwasm__parse(e->cwasm, e->cwasm_len, name, &e->mod, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		exit(1);
	}
	snprintf(name, sizeof(name), "%s.mod0.func0.json", e->stem);
	text = slurp(name, &len);
	if (jr__parse(text, len, &e->root, &jerr)) {
		fprintf(stderr, "%s: %s\n", name, jerr.msg);
		exit(1);
	}
	free(text);
}

/* Parse the tree's text against mod; 0, or -1 with the message in err. */
static int try_tree(const struct jr_node *root, const struct cwasm_module *mod, uint32_t lf,
		    struct ap_err *err, struct frames **keep)
{
	struct sbuf b = { 0 };
	struct frames *fr;
	int ret;

	emit(&b, root);
	memset(err, 0, sizeof(*err));
	ret = frames__parse(b.p, b.len, "side.json", mod, lf, &fr, err);
	free(b.p);
	if (keep)
		*keep = ret ? NULL : fr;
	else
		frames__delete(fr);
	return ret;
}

/* One refused mutation: the line names the file and says `want`. */
static void refused(const char *what, const struct jr_node *root, const struct cwasm_module *mod,
		    const char *want)
{
	struct ap_err err;
	int ret = try_tree(root, mod, 0, &err, NULL);

	CHECK(ret == -1);
	CHECK(err.kind == AP_ERR_INPUT);
	CHECK(!strncmp(err.msg, "side.json: ", 11));
	CHECK(!strchr(err.msg, '\n'));
	if (ret != -1 || !strstr(err.msg, want))
		fprintf(stderr, "  mutation: %s\n  got: %s\n", what, ret ? err.msg : "(accepted)");
	CHECK_STR_CONTAINS(err.msg, want);
}

static void accepted(const char *what, const struct jr_node *root, const struct cwasm_module *mod)
{
	struct ap_err err;
	int ret = try_tree(root, mod, 0, &err, NULL);

	if (ret)
		fprintf(stderr, "  %s: refused: %s\n", what, err.msg);
	CHECK(ret == 0);
}

/* Mutate a copy of e's tree with fn, expect `want`. */
#define MUT(e, want, body)                                                   \
	do {                                                                 \
		struct jr_node *t = tree_copy((e).root);                     \
		body;                                                        \
		refused(#body, t, (e).mod, want);                            \
		jr__delete(t);                                               \
	} while (0)

#define OK(e, body)                                                          \
	do {                                                                 \
		struct jr_node *t = tree_copy((e).root);                     \
		body;                                                        \
		accepted(#body, t, (e).mod);                                 \
		jr__delete(t);                                               \
	} while (0)

/* The example's container rebuilt with another target info / version / text. */
static struct cwasm_module *rebuild(const struct example *e, enum cwasm_format fmt, int no_ti,
				    uint32_t version, int poke_at, uint8_t poke)
{
	const struct cwasm_module *m = e->mod;
	struct cwasm_spec spec = { 0 };
	uint32_t offs[8], tidx[8];
	struct cwasm_module *out;
	struct ap_err err;
	uint8_t *buf, *text = malloc(m->text_size);
	size_t len;

	memcpy(text, m->text, m->text_size);
	if (poke_at >= 0)
		text[poke_at] = poke;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		offs[i] = m->funcs[i].offset;
		tidx[i] = m->funcs[i].type_idx;
	}
	spec.version = version;
	cwasm_target__spec(&spec.ti, m->target.arch, fmt, m->target.abi);
	spec.no_target_info = no_ti;
	spec.text = text;
	spec.text_size = m->text_size;
	spec.nfuncs = m->nfuncs;
	spec.offsets = offs;
	spec.type_idx = tidx;
	spec.ntypes = m->ntypes;
	spec.types = m->types;
	if (cwasm__build(&spec, &buf, &len, &err) || cwasm__parse(buf, len, "re.cwasm", &out, &err)) {
		fprintf(stderr, "rebuild: %s\n", err.msg);
		exit(1);
	}
	free(buf);
	free(text);
	return out;
}

static void hash_text(const struct cwasm_module *m, char hex[65])
{
	uint8_t d[32];

	ap_sha256(m->text, m->text_size, d);
	ap_sha256_hex(d, hex);
}

static void test_examples(void)
{
	struct cwasm_module *m;
	struct frames_identity id;
	struct ap_err err;
	char path[600];
	struct frames *fr;

	snprintf(path, sizeof(path), "%s/%s.mod0.func0.json", dir, x86.stem);
	CHECK(frames__validate(x86.mod, 0, path, &id, &err) == 0);
	CHECK(!strcmp(id.schema, "wamr-aot-frame-attribution"));
	CHECK_EQ_U64(id.schema_version, 1);
	CHECK(!strcmp(id.compiler_build_id, "dev"));
	CHECK(!strcmp(id.module_text_sha256, at(x86.root, "module_text_sha256")->str));
	CHECK(!strcmp(id.normalized_code_sha256, at(x86.root, "normalized_code_sha256")->str));
	CHECK_EQ_U64(id.module, 0);
	snprintf(path, sizeof(path), "%s/%s.mod0.func0.json", dir, a64.stem);
	CHECK(frames__validate(a64.mod, 0, path, &id, &err) == 0);
	CHECK_EQ_U64(id.schema_version, 2);

	/* what the reader holds, against the JSON itself */
	CHECK(frames__read(path, a64.mod, 0, &fr, &err) == 0);
	CHECK_EQ_U64(fr->nacc, at(a64.root, "accesses")->n);
	CHECK_EQ_U64(fr->nregions, at(a64.root, "frame_regions")->n);
	CHECK_EQ_U64(fr->nrelocs, 1);
	CHECK_EQ_U64(fr->relocs[0].kind, FRAMES_RELOC_AARCH64_CALL_IMM26);
	CHECK_EQ_U64(fr->layout.spill_stride, 8);
	CHECK_EQ_U64(fr->metric.callee_saved, 2);
	CHECK(!strcmp(fr->function_name, "core_bench_list"));
	{
		const struct frames_access *p = frames__access_at(fr, 72);

		CHECK(p && p->ncomp == 2 && p->addressing_mode == A64_MODE_SIGNED_PAIR);
		CHECK(p && p->comp[1].vreg == 22 && p->comp[1].data_register == 10 &&
		      p->comp[1].frame_offset == 48 && p->top.vreg == FRAMES_NULL);
		CHECK(frames__access_covering(fr, 74) == p);
		CHECK(frames__access_at(fr, 74) == NULL);
		CHECK(frames__value(fr, 22) && frames__value(fr, 22)->slot == 1);
		CHECK(frames__value(fr, 23) == NULL);
	}
	frames__delete(fr);

	/* the file path rule and errors that name the file */
	CHECK(frames__path(path, sizeof(path), "/tmp/fa", 4, 6145) == 0);
	CHECK(!strcmp(path, "/tmp/fa.mod4.func6145.json"));
	CHECK(frames__path(path, 10, "/tmp/fa", 4, 6145) == -1);
	CHECK(frames__validate(x86.mod, 0, "/nonexistent/side.json", NULL, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/nonexistent/side.json");

	/* a rebuilt, identical container still vouches (the rebuild is sound) */
	m = rebuild(&x86, CWASM_FMT_ELF64, 0, 11, -1, 0);
	CHECK(try_tree(x86.root, m, 0, &err, NULL) == 0);
	cwasm__delete(m);
}

/* Target info, version, function identity, text hash. */
static void test_identity(void)
{
	struct cwasm_module *m;
	char hex[65];

	MUT(x86, "schema: \"wamr-aot-other\" is not", set_str(t, "schema", "wamr-aot-other"));
	MUT(x86, "schema_version: 3 is not a known version", set_int(t, "schema_version", 3));
	MUT(a64, "schema_version 1 is x86_64 only", set_int(t, "schema_version", 1));
	MUT(x86, "architecture: \"arm64\" is not a known value", set_str(t, "architecture", "arm64"));
	MUT(x86, "abi: \"aapcs64\" is not a known value", set_str(t, "abi", "aapcs64"));
	MUT(x86, "abi win64 does not match the container's sysv", set_str(t, "abi", "win64"));
	/* an x86_64 sidecar against the aarch64 container */
	refused("x86 sidecar, aarch64 container", x86.root, a64.mod,
		"architecture x86_64 does not match the container's target aarch64");
	m = rebuild(&x86, CWASM_FMT_LEGACY, 0, 11, -1, 0);
	refused("legacy container", x86.root, m, "legacy target info (no ABI recorded): it "
		"cannot vouch for a frame sidecar");
	cwasm__delete(m);
	m = rebuild(&x86, CWASM_FMT_ELF64, 1, 11, -1, 0);
	refused("no target info", x86.root, m, "has no target info: it cannot vouch");
	cwasm__delete(m);
	m = rebuild(&x86, CWASM_FMT_ELF64, 0, 10, -1, 0);
	refused("container version 10", x86.root, m, "cwasm_aot_version 11 does not match the "
		"container's version 10");
	cwasm__delete(m);
	MUT(x86, "cwasm_aot_version 9 does not match", set_int(t, "cwasm_aot_version", 9));
	MUT(x86, "local_func 1 is not the function asked for", set_int(t, "local_func", 1));
	{
		struct ap_err err;

		CHECK(try_tree(x86.root, x86.mod, 3, &err, NULL) == -1);
		CHECK_STR_CONTAINS(err.msg, "local_func 3: the container has 1 functions");
	}
	MUT(x86, "module_text_size 48 does not match", set_int(t, "module_text_size", 48));
	MUT(x86, "module_text_sha256: must be 64 lowercase hex digits",
	    set_str(t, "module_text_sha256",
		    "EF0160533C7544121DCF31A89E937727EDB164CFA94661132DBE709BD968C366"));
	MUT(x86, "the sidecar belongs to another core",
	    set_str(t, "module_text_sha256",
		    "ef0160533c7544121dcf31a89e937727edb164cfa94661132dbe709bd968c367"));
	/* a new call target changes the text but not the normalized code */
	m = rebuild(&x86, CWASM_FMT_ELF64, 0, 11, 34, 0x99);
	refused("rel32 byte patched", x86.root, m, "module_text_sha256");
	hash_text(m, hex);
	{
		struct jr_node *t = tree_copy(x86.root);

		set_str(t, "module_text_sha256", hex);
		accepted("patched call target, text hash updated", t, m);
		jr__delete(t);
	}
	cwasm__delete(m);
	/* a changed immediate changes both */
	m = rebuild(&x86, CWASM_FMT_ELF64, 0, 11, 7, 0x03);
	hash_text(m, hex);
	{
		struct jr_node *t = tree_copy(x86.root);

		set_str(t, "module_text_sha256", hex);
		refused("code byte patched", t, m, "normalized_code_sha256 1624f907fa10... is not "
			"the hash of the function's code");
		jr__delete(t);
	}
	cwasm__delete(m);
	MUT(x86, "function_offset 4 does not match", set_int(t, "function_offset", 4));
	MUT(x86, "code_size 46 does not match", set_int(t, "code_size", 46));
	MUT(x86, "is not the hash of the function's code",
	    set_str(t, "normalized_code_sha256",
		    "0624f907fa10122bacf5ddba51ee3f98493f96a0dfdae0cca4d884f47edf2290"));
	MUT(a64, "is not the hash of the function's code",
	    set_raw(t, "normalized_relocations", "[]"));
}

static void test_relocations(void)
{
	MUT(x86, "35 does not follow a CALL rel32 opcode (0xe8)",
	    set_raw(t, "direct_call_rel32_offsets", "[35]"));
	MUT(x86, "34 is not after the previous field's end 38",
	    set_raw(t, "direct_call_rel32_offsets", "[34, 34]"));
	MUT(x86, "46 is outside the function's calls",
	    set_raw(t, "direct_call_rel32_offsets", "[46]"));
	MUT(x86, "direct_call_rel32_offsets: entry 0 must be an integer",
	    set_raw(t, "direct_call_rel32_offsets", "[\"34\"]"));
	MUT(a64, "direct_call_rel32_offsets: must be empty on aarch64",
	    set_raw(t, "direct_call_rel32_offsets", "[76]"));
	MUT(x86, "is not the hash of the function's code",
	    set_raw(t, "direct_call_rel32_offsets", "[]"));
	/* schema 1 may carry the newer list too: it must name the same calls */
	OK(x86, add_key(t, NULL, "normalized_relocations",
			"[{\"native_start\": 34, \"native_end\": 38, \"kind\": \"x86_64_call_rel32\"}]"));
	MUT(x86, "normalized_relocations: aarch64_call_imm26 at 34 on x86_64",
	    add_key(t, NULL, "normalized_relocations",
		    "[{\"native_start\": 34, \"native_end\": 38, \"kind\": \"aarch64_call_imm26\"}]"));
	MUT(x86, "normalized_relocations: 30 does not follow a CALL rel32 opcode",
	    set_raw(t, "direct_call_rel32_offsets", "[]");
	    add_key(t, NULL, "normalized_relocations",
		    "[{\"native_start\": 30, \"native_end\": 34, \"kind\": \"x86_64_call_rel32\"}]"));
	MUT(x86, "direct_call_rel32_offsets (1) and normalized_relocations (2) list different calls",
	    add_key(t, NULL, "normalized_relocations",
		    "[{\"native_start\": 34, \"native_end\": 38, \"kind\": \"x86_64_call_rel32\"},"
		    "{\"native_start\": 38, \"native_end\": 42, \"kind\": \"x86_64_call_rel32\"}]"));
	MUT(a64, "is not the aarch64_tail_call_imm26 opcode",
	    set_str(t, "normalized_relocations.0.kind", "aarch64_tail_call_imm26"));
	MUT(a64, "x86_64_call_rel32 at 76 on aarch64",
	    set_str(t, "normalized_relocations.0.kind", "x86_64_call_rel32"));
	MUT(a64, "kind: \"aarch64_jump\" is not a known value",
	    set_str(t, "normalized_relocations.0.kind", "aarch64_jump"));
	MUT(a64, "[76,81) is not a 4-byte field", set_int(t, "normalized_relocations.0.native_end", 81));
	MUT(a64, "78 is not 4-byte aligned",
	    set_int(t, "normalized_relocations.0.native_start", 78);
	    set_int(t, "normalized_relocations.0.native_end", 82));
	MUT(a64, "is not the aarch64_call_imm26 opcode",
	    set_int(t, "normalized_relocations.0.native_start", 80);
	    set_int(t, "normalized_relocations.0.native_end", 84));
	MUT(a64, "[76,80) starts before the previous one ends",
	    insert_copy(t, "normalized_relocations", 0, 0));
	MUT(a64, "normalized_relocations: missing", drop(t, NULL, "normalized_relocations"));
}

static void test_ranges_layout(void)
{
	MUT(x86, "overlaps the inline data [0,1)",
	    set_raw(t, "inline_data_ranges",
		    "[{\"native_start\": 0, \"native_end\": 1, \"kind\": \"br_table\"}]"));
	MUT(x86, "inline_data_ranges: [5,3) is empty",
	    set_raw(t, "inline_data_ranges",
		    "[{\"native_start\": 5, \"native_end\": 3, \"kind\": \"br_table\"}]"));
	MUT(x86, "inline_data_ranges: [40,48) is empty, unsorted, overlapping or outside",
	    set_raw(t, "inline_data_ranges",
		    "[{\"native_start\": 40, \"native_end\": 48, \"kind\": \"br_table\"}]"));
	MUT(x86, "inline_data_ranges: [2,3) is empty, unsorted",
	    set_raw(t, "inline_data_ranges",
		    "[{\"native_start\": 1, \"native_end\": 3, \"kind\": \"br_table\"},"
		    "{\"native_start\": 2, \"native_end\": 3, \"kind\": \"br_table\"}]"));
	MUT(x86, "kind: \"jump_table\" is not a known value",
	    set_raw(t, "inline_data_ranges",
		    "[{\"native_start\": 1, \"native_end\": 4, \"kind\": \"jump_table\"}]"));
	MUT(x86, "frame_layout.frame_pointer: \"x29\" is not the x86_64 frame pointer",
	    set_str(t, "frame_layout.frame_pointer", "x29"));
	MUT(x86, "frame_size 0 and spill_stride -8 must not be 0",
	    set_int(t, "frame_layout.frame_size", 0));
	MUT(x86, "frame_layout.spill_slots: missing", drop(t, "frame_layout", "spill_slots"));
	MUT(x86, "frame_layout.spill_stride: must be an integer, not a string",
	    set_str(t, "frame_layout.spill_stride", "-8"));
	MUT(x86, "frame_layout.frame_size: -1 is out of range",
	    set_int(t, "frame_layout.frame_size", -1));
	MUT(x86, "spill_metric.spill_ld: must be an integer, not null",
	    set_raw(t, "spill_metric.spill_ld", "null"));
	/* regions (schema 2) */
	MUT(a64, "frame_regions: [0,16) is empty, unsorted", swap(t, "frame_regions", 0, 1));
	MUT(a64, "frame_regions: [192,280) is empty, unsorted, overlapping or outside the frame",
	    set_int(t, "frame_regions.7.end", 280));
	MUT(a64, "frame_regions[2].origin: \"spill\" is not a known value",
	    set_str(t, "frame_regions.2.origin", "spill"));
	MUT(a64, "frame bytes [192,200) lie in no frame region",
	    set_int(t, "frame_regions.7.start", 208));
	MUT(a64, "origin allocator_spill, but the frame region [40,56) is wasm_local_or_phi",
	    set_str(t, "frame_regions.4.origin", "wasm_local_or_phi"));
	MUT(a64, "frame_regions: missing", drop(t, NULL, "frame_regions"));
}

static void test_values(void)
{
	MUT(x86, "vreg 17: frame_offset -568 is not spill_base + slot * spill_stride = -560",
	    set_int(t, "allocator_values.0.frame_offset", -568));
	MUT(x86, "vreg 17: slots 2..3 are outside the 2 spill slots",
	    set_int(t, "allocator_values.0.slot", 2));
	MUT(x86, "vreg 17: slot_count 2 for value_type i64",
	    set_int(t, "allocator_values.0.slot_count", 2));
	MUT(x86, "vreg 17: slot_count 1 for value_type v128 (v128 takes 2 slots",
	    set_str(t, "allocator_values.0.value_type", "v128"));
	MUT(x86, "vreg 17: reused is true but its slots are its own",
	    set_raw(t, "allocator_values.0.reused", "true"));
	MUT(x86, "allocator_values[0].reused: must be true or false, not null",
	    set_raw(t, "allocator_values.0.reused", "null"));
	MUT(a64, "vreg 21 is listed twice",
	    set_int(t, "allocator_values.1.vreg", 21));
	MUT(x86, "allocator_values[0].live_end: missing", drop(t, "allocator_values.0", "live_end"));
	OK(x86, set_raw(t, "allocator_values.0.live_end", "null");
	   set_raw(t, "allocator_values.0.value_type", "null"));
	/* reuse: a second value in slot 0; the accesses name vreg 17, so they prove it */
	{
		struct jr_node *t = tree_copy(x86.root);

		insert_copy(t, "allocator_values", 0, 1);
		set_int(t, "allocator_values.1.vreg", 18);
		set_int(t, "allocator_values.1.reload_count", 0);
		set_int(t, "allocator_values.1.store_count", 0);
		refused("second value, reused false", t, x86.mod,
			"vreg 17: reused is false but its slots are shared with another value");
		set_raw(t, "allocator_values.0.reused", "true");
		set_raw(t, "allocator_values.1.reused", "true");
		accepted("second value in slot 0, reused", t, x86.mod);
		set_raw(t, "accesses.3.vreg", "null");
		refused("reused slot, no vreg", t, x86.mod,
			"access at +0x13: slot 0 is reused: the access needs a vreg or "
			"vreg_ambiguous true");
		set_raw(t, "accesses.3.vreg_ambiguous", "true");
		refused("ambiguous, counts unchanged", t, x86.mod,
			"vreg 17: reload_count/store_count 1/1, but the accesses naming it load/store 0/1");
		set_int(t, "allocator_values.0.reload_count", 0);
		accepted("ambiguous reload", t, x86.mod);
		jr__delete(t);
	}
}

static void test_accesses_x86(void)
{
	MUT(x86, "access at +0xf: starts before the previous access ends at +0x1a",
	    swap(t, "accesses", 2, 3));
	MUT(x86, "access at +0xb: native_end +0x64 is not inside", set_int(t, "accesses.1.native_end", 100));
	MUT(x86, "access at +0x1b: not on an instruction boundary (the instruction there spans "
	    "[+0x1a,+0x21))", set_int(t, "accesses.4.native_start", 27);
	    set_int(t, "accesses.4.native_end", 34));
	MUT(x86, "access at +0xb: native_end +0xe, but the instruction there is 4 bytes",
	    set_int(t, "accesses.1.native_end", 14));
	MUT(x86, "access at +0xb: kind load, but the instruction stores",
	    set_str(t, "accesses.1.kind", "load"));
	MUT(x86, "access at +0x0: kind load, but the instruction stores: push rbp",
	    set_str(t, "accesses.0.kind", "load"));
	MUT(x86, "access at +0xb: base rsp, but the instruction's base is rbp",
	    set_str(t, "accesses.1.base", "rsp"));
	MUT(x86, "access at +0xb: frame offset -16, but the instruction's is -8",
	    set_int(t, "accesses.1.frame_offset", -16));
	MUT(x86, "access at +0x2d: frame offset 8, but the instruction's is 0",
	    set_int(t, "accesses.6.frame_offset", 8));
	MUT(x86, "access at +0xb: width 4, but the instruction accesses 8 bytes",
	    set_int(t, "accesses.1.width", 4));
	MUT(x86, "access at +0x1: not a frame load or store: mov rbp, rsp",
	    insert_copy(t, "accesses", 0, 1); set_int(t, "accesses.1.native_start", 1);
	    set_int(t, "accesses.1.native_end", 4));
	MUT(x86, "access at +0x21: not a frame load or store: call",
	    insert_copy(t, "accesses", 5, 5); set_int(t, "accesses.5.native_start", 33);
	    set_int(t, "accesses.5.native_end", 38));
	MUT(x86, "access at +0xb: base: \"x29\" is not a known value",
	    set_str(t, "accesses.1.base", "x29"));
	MUT(x86, "access at +0xb: origin: \"spill\" is not a known value",
	    set_str(t, "accesses.1.origin", "spill"));
	MUT(x86, "access at +0xb: kind: \"rmw\" is not a known value",
	    set_str(t, "accesses.1.kind", "rmw"));
	MUT(x86, "access at +0xb: detail: must be a string, not null",
	    set_raw(t, "accesses.1.detail", "null"));
	MUT(x86, "access at +0xb: ir_opcode: missing", drop(t, "accesses.1", "ir_opcode"));
	MUT(x86, "access at +0xb: kind: repeated key", repeat_key(t, "accesses.1", "kind"));
	MUT(x86, "accesses[1].native_start: -1 is out of range", set_int(t, "accesses.1.native_start", -1));
	MUT(x86, "access at +0xb: width: must be an integer, not a fraction",
	    set_raw(t, "accesses.1.width", "8.5"));
	MUT(x86, "access at +0xb: encoded_base: must be null in schema_version 1",
	    add_key(t, "accesses.1", "encoded_base", "\"rbp\""));
	MUT(x86, "access at +0xb: components: must be empty in schema_version 1",
	    add_key(t, "accesses.1", "components", "[{}]"));
	/* the newer writer's schema-1 form: the schema-2 keys present, null or empty */
	OK(x86, add_key(t, "accesses.1", "encoded_base", "null");
	   add_key(t, "accesses.1", "encoded_offset", "null");
	   add_key(t, "accesses.1", "addressing_mode", "null");
	   add_key(t, "accesses.1", "components", "[]");
	   add_key(t, NULL, "frame_regions", "[]");
	   add_key(t, NULL, "normalized_relocations", "[]"));
	OK(x86, add_key(t, "accesses.1", "x-future-key", "{\"a\": [1, null]}"));
	/* semantic rules */
	MUT(x86, "access at +0xf: wasm_local_or_phi needs a local_index below local_count 4",
	    set_int(t, "accesses.2.local_index", 4));
	MUT(x86, "access at +0xf: wasm_local_or_phi needs a local_index",
	    set_raw(t, "accesses.2.local_index", "null"));
	MUT(x86, "access at +0xf: explicit_frame_storage needs an explicit_slot below "
	    "explicit_storage_slots 64", set_str(t, "accesses.2.origin", "explicit_frame_storage"));
	MUT(x86, "access at +0xf: explicit_frame_storage needs an explicit_slot",
	    set_str(t, "accesses.2.origin", "explicit_frame_storage");
	    set_int(t, "accesses.2.explicit_slot", 64));
	OK(x86, set_str(t, "accesses.2.origin", "explicit_frame_storage");
	   set_int(t, "accesses.2.explicit_slot", 63));
	MUT(x86, "access at +0x13: allocator_spill without a slot", set_raw(t, "accesses.3.slot", "null"));
	MUT(x86, "access at +0x13: slot 1 holds no allocator value", set_int(t, "accesses.3.slot", 1));
	MUT(x86, "access at +0x13: 16 bytes at slot 0 are more than any value there covers",
	    set_int(t, "accesses.3.width", 16));
	MUT(x86, "access at +0x13: slot 0 is at frame offset -560 (spill_base + slot * "
	    "spill_stride), not -552", set_int(t, "accesses.3.frame_offset", -552));
	MUT(x86, "access at +0x13: vreg 99 does not occupy slot 0", set_int(t, "accesses.3.vreg", 99));
	MUT(x86, "access at +0x13: slot 0 holds one value only: its vreg must be named",
	    set_raw(t, "accesses.3.vreg", "null"));
	MUT(x86, "access at +0x13: slot 0 holds one value only",
	    set_raw(t, "accesses.3.vreg", "null"); set_raw(t, "accesses.3.vreg_ambiguous", "true"));
	MUT(x86, "access at +0x13: a vreg and vreg_ambiguous true together",
	    set_raw(t, "accesses.3.vreg_ambiguous", "true"));
	MUT(x86, "access at +0x13: vreg_ambiguous: must be true or false, not a number",
	    set_int(t, "accesses.3.vreg_ambiguous", 0));
	/* counts */
	MUT(x86, "vreg 17: reload_count/store_count 2/1, but the accesses naming it load/store 1/1",
	    set_int(t, "allocator_values.0.reload_count", 2));
	MUT(x86, "emitted_allocator_loads/stores 2/1, but the allocator accesses load/store 1/1",
	    set_int(t, "emitted_allocator_loads", 2));
	MUT(x86, "emitted_allocator_loads/stores 1/0",
	    set_int(t, "emitted_allocator_stores", 0));
	MUT(x86, "spill_metric spill_ld/spill_st 2/1 do not reconcile with the allocator "
	    "accesses' 1/1", set_int(t, "spill_metric.spill_ld", 2));
	MUT(x86, "spill_metric spill_ld/spill_st 1/3", set_int(t, "spill_metric.spill_st", 3));
	/* the allocator load turned into a local: every count then disagrees, per vreg first */
	MUT(x86, "vreg 17: reload_count/store_count 1/1, but the accesses naming it load/store 0/1",
	    set_str(t, "accesses.3.origin", "wasm_local_or_phi"); set_int(t, "accesses.3.local_index", 1);
	    set_raw(t, "accesses.3.vreg", "null"));
	/* x86 has no completeness rule: an unlisted frame access is reported, not refused */
	OK(x86, remove_item(t, "accesses", 0));
}

static void test_accesses_a64(void)
{
	MUT(a64, "access at +0x48: 2 components with addressing_mode unsigned_scaled",
	    set_str(t, "accesses.7.addressing_mode", "unsigned_scaled"));
	MUT(a64, "access at +0x48: addressing_mode pre_index, but the instruction's is signed_pair",
	    set_str(t, "accesses.7.addressing_mode", "pre_index"));
	MUT(a64, "access at +0x48: addressing_mode: \"register_offset\" is not a known value",
	    set_str(t, "accesses.7.addressing_mode", "register_offset"));
	MUT(a64, "access at +0x48: encoded_offset 48, but the instruction's is 40",
	    set_int(t, "accesses.7.encoded_offset", 48));
	MUT(a64, "access at +0x48: encoded_base x28, but the instruction's is x29",
	    set_str(t, "accesses.7.encoded_base", "x28"));
	MUT(a64, "access at +0x48: encoded_base: \"x31\" is not sp or x0..x30",
	    set_str(t, "accesses.7.encoded_base", "x31"));
	MUT(a64, "access at +0x48: encoded_base: must be a string, not null",
	    set_raw(t, "accesses.7.encoded_base", "null"));
	MUT(a64, "access at +0x48: component 0 data register r8, but the instruction's is r9",
	    set_int(t, "accesses.7.components.0.data_register", 8));
	MUT(a64, "access at +0x48: component 1 data register v10",
	    set_str(t, "accesses.7.components.1.data_register_class", "simd"));
	MUT(a64, "access at +0x48: components[0].data_register: 32 is out of range",
	    set_int(t, "accesses.7.components.0.data_register", 32));
	MUT(a64, "access at +0x8: a component without data_register and data_register_class",
	    set_raw(t, "accesses.1.components.0.data_register", "null"));
	MUT(a64, "access at +0x8: component 0 at x29+200, but the instruction addresses x29+192",
	    set_int(t, "accesses.1.frame_offset", 200);
	    set_int(t, "accesses.1.components.0.frame_offset", 200));
	MUT(a64, "access at +0x8: component 0 width 4, but the instruction moves 8 bytes per register",
	    set_int(t, "accesses.1.width", 4); set_int(t, "accesses.1.components.0.width", 4));
	MUT(a64, "access at +0x8: kind load, but the instruction stores",
	    set_str(t, "accesses.1.kind", "load"));
	MUT(a64, "access at +0x48: width 8 is not the components' 16", set_int(t, "accesses.7.width", 8));
	MUT(a64, "access at +0x48: the pair's components are not contiguous",
	    set_int(t, "accesses.7.components.1.frame_offset", 56));
	MUT(a64, "access at +0x48: the pair's components differ in width",
	    set_int(t, "accesses.7.components.0.width", 4);
	    set_int(t, "accesses.7.components.1.width", 12);
	    set_int(t, "accesses.7.components.1.frame_offset", 44));
	MUT(a64, "access at +0x48: origin unknown does not summarize the components'",
	    set_str(t, "accesses.7.origin", "unknown"));
	MUT(a64, "access at +0x48: detail mixed_pair_frame_access does not summarize",
	    set_str(t, "accesses.7.detail", "mixed_pair_frame_access"));
	MUT(a64, "access at +0x8: base/frame_offset x29+196 are not the first component's x29+192",
	    set_int(t, "accesses.1.frame_offset", 196));
	MUT(a64, "access at +0x3c: the top-level slot/local/vreg/source fields differ",
	    set_int(t, "accesses.4.local_index", 1));
	MUT(a64, "access at +0x8: detail allocator_slot is not one fixed_runtime_frame_state has",
	    set_str(t, "accesses.1.detail", "allocator_slot");
	    set_str(t, "accesses.1.components.0.detail", "allocator_slot"));
	MUT(a64, "access at +0x0: detail outgoing_abi_frame, but an sp-based access of these "
	    "registers is prologue_saved_fp_lr",
	    set_str(t, "accesses.0.detail", "outgoing_abi_frame");
	    set_str(t, "accesses.0.components.0.detail", "outgoing_abi_frame");
	    set_str(t, "accesses.0.components.1.detail", "outgoing_abi_frame"));
	MUT(a64, "access at +0x84: detail prologue_saved_fp_lr, but an sp-based access of these "
	    "registers is epilogue_restored_fp_lr",
	    set_str(t, "accesses.11.detail", "prologue_saved_fp_lr");
	    set_str(t, "accesses.11.components.0.detail", "prologue_saved_fp_lr");
	    set_str(t, "accesses.11.components.1.detail", "prologue_saved_fp_lr"));
	MUT(a64, "access at +0x48: components: has 3 entries, not 1 or 2",
	    insert_copy(t, "accesses.7.components", 0, 0));
	MUT(a64, "access at +0x48: components: has 0 entries", set_raw(t, "accesses.7.components", "[]"));
	MUT(a64, "access at +0x38: components[0].origin: must be a string, not null",
	    set_raw(t, "accesses.3.components.0.origin", "null"));
	MUT(a64, "the frame store at +0x8 is not in accesses: str x19, [x29, #0xc0]",
	    remove_item(t, "accesses", 1));
	MUT(a64, "the frame load at +0x84 is not in accesses: ldp x29, x30, [sp], #0x110",
	    remove_item(t, "accesses", 11));
	/* an access on a word that is no frame load/store: ldr x20, [x19] */
	MUT(a64, "access at +0x50: not a frame load or store of the forms the compiler records: "
	    "ldr x20, [x19]",
	    insert_copy(t, "accesses", 9, 8); set_int(t, "accesses.8.native_start", 80);
	    set_int(t, "accesses.8.native_end", 84));
	MUT(a64, "access at +0x86: not on an instruction boundary",
	    set_int(t, "accesses.11.native_start", 134); set_int(t, "accesses.11.native_end", 138));
	MUT(a64, "access at +0x3c: wasm_local_or_phi needs a local_index below local_count 2",
	    set_int(t, "accesses.4.local_index", 2);
	    set_int(t, "accesses.4.components.0.local_index", 2));
}

/*
 * A materialized base: two nops of the aarch64 example become
 * add x9, x29, #24; ldr x10, [x9] (a load of local 0 through x9), and
 * the sidecar gains that access; hashes recomputed here.
 */
static void test_materialized(void)
{
	static const uint8_t add_x9[4] = { 0xa9, 0x63, 0x00, 0x91 }, ldr_x10[4] = { 0x2a, 0x01, 0x40, 0xf9 };
	struct cwasm_module *m = rebuild(&a64, CWASM_FMT_ELF64, 0, 11, -1, 0);
	struct jr_node *t = tree_copy(a64.root);
	uint8_t norm[256], d[32];
	char hex[65];

	memcpy(m->text + 20, add_x9, 4);
	memcpy(m->text + 24, ldr_x10, 4);
	hash_text(m, hex);
	set_str(t, "module_text_sha256", hex);
	memcpy(norm, m->text, m->text_size);
	norm[76] = norm[77] = norm[78] = 0;
	norm[79] &= 0xfc;
	ap_sha256(norm, m->text_size, d);
	ap_sha256_hex(d, hex);
	set_str(t, "normalized_code_sha256", hex);
	refused("materialized load not listed", t, m,
		"the frame load at +0x18 is not in accesses: ldr x10, [x9]");
	insert_copy(t, "accesses", 6, 3);
	set_int(t, "accesses.3.native_start", 24);
	set_int(t, "accesses.3.native_end", 28);
	set_str(t, "accesses.3.encoded_base", "x9");
	set_int(t, "accesses.3.encoded_offset", 0);
	set_str(t, "accesses.3.addressing_mode", "materialized");
	set_int(t, "accesses.3.components.0.data_register", 10);
	accepted("materialized load listed", t, m);
	set_str(t, "accesses.3.addressing_mode", "unsigned_scaled");
	refused("materialized load as unsigned_scaled", t, m,
		"access at +0x18: addressing_mode unsigned_scaled, but the instruction's is materialized");
	set_str(t, "accesses.3.addressing_mode", "materialized");
	set_int(t, "accesses.3.components.0.frame_offset", 32);
	set_int(t, "accesses.3.frame_offset", 32);
	set_int(t, "accesses.3.local_index", 1);
	set_int(t, "accesses.3.components.0.local_index", 1);
	refused("materialized load at the wrong local", t, m,
		"access at +0x18: component 0 at x29+32, but the instruction addresses x29+24");
	jr__delete(t);
	cwasm__delete(m);
}

/* ---- the origins summary ---- */

/* Origin and kind per access offset, from the JSON alone. */
struct expect_acc {
	uint32_t start;
	int origin, kind;
};

static int origin_index(const char *s)
{
	static const char *const n[] = { "allocator_spill", "wasm_local_or_phi",
					 "explicit_frame_storage", "fixed_runtime_frame_state",
					 "unknown" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(n[i], s))
			return i;
	return -1;
}

static uint32_t expected_accesses(struct jr_node *root, struct expect_acc *e, uint32_t max)
{
	struct jr_node *a = at(root, "accesses");
	uint32_t n = 0;

	for (size_t i = 0; i < a->n && n < max; i++, n++) {
		e[n].start = (uint32_t)at(&a->items[i], "native_start")->integer;
		e[n].origin = origin_index(at(&a->items[i], "origin")->str);
		e[n].kind = !strcmp(at(&a->items[i], "kind")->str, "store");
	}
	return n;
}

static void summary_totals(struct example *e, const char *dropped_note)
{
	struct expect_acc ex[64];
	uint64_t want[5][2] = { { 0 } }, total = 0, frame = 0;
	struct frames_summary *s;
	struct dc_vec v = { 0 };
	uint64_t *smp, got_total = 0;
	struct ap_err err;
	struct frames *fr;
	uint32_t nex = expected_accesses(e->root, ex, 64);

	CHECK(try_tree(e->root, e->mod, 0, &err, &fr) == 0);
	if (!fr)
		return;
	/* decoded at a made-up load address: offsets are relative to it */
	CHECK(frames__decode(fr, e->mod, 0x400000, &v, &err) == 0);
	smp = calloc(v.n, sizeof(*smp));
	for (uint32_t i = 0; i < v.n; i++) {
		uint32_t off = (uint32_t)(v.v[i].addr - 0x400000);

		smp[i] = (uint64_t)(i * 7 % 11) + (i % 3 ? 100 : 1);
		total += smp[i];
		for (uint32_t k = 0; k < nex; k++)
			if (ex[k].start == off) {
				want[ex[k].origin][ex[k].kind] += smp[i];
				frame += smp[i];
			}
	}
	CHECK(frames__summarize(fr, v.v, v.n, 0x400000, smp, &s, &err) == 0);
	CHECK_EQ_U64(s->function_samples, total);
	CHECK_EQ_U64(s->attributed_frame_instructions, nex);
	CHECK_EQ_U64(s->attributed_frame_samples, frame);
	CHECK_EQ_U64(s->unplaced, 0);
	for (int o = 0; o < 5; o++)
		for (int k = 0; k < 2; k++) {
			uint32_t cnt = 0;

			for (uint32_t i = 0; i < nex; i++)
				cnt += ex[i].origin == o && ex[i].kind == k;
			CHECK_EQ_U64(s->origin[o][k].samples, want[o][k]);
			CHECK_EQ_U64(s->origin[o][k].insns, cnt);
			got_total += s->origin[o][k].samples;
		}
	CHECK_EQ_U64(got_total + s->uncovered[0].samples + s->uncovered[1].samples, s->frame_samples);
	CHECK_EQ_U64(s->frame_instructions, nex + s->uncovered[0].insns + s->uncovered[1].insns);
	CHECK_EQ_U64(s->proven_origin_frame_samples, frame - want[4][0] - want[4][1]);
	CHECK(s->matches);
	{
		uint64_t csum = 0;

		for (uint32_t i = 0; i < s->ncontrib; i++)
			csum += s->contrib[i].samples;
		/* every allocator instruction's samples land on exactly one contributor */
		CHECK_EQ_U64(csum, want[0][0] + want[0][1]);
		for (uint32_t i = 1; i < s->ncontrib; i++)
			CHECK(s->contrib[i - 1].samples >= s->contrib[i].samples);
	}
	(void)dropped_note;
	frames_summary__delete(s);
	free(smp);
	dc_vec__exit(&v);
	frames__delete(fr);
}

static uint64_t sample_at(const struct dc_vec *v, const uint64_t *smp, uint64_t addr)
{
	for (uint32_t i = 0; i < v->n; i++)
		if (v->v[i].addr == addr)
			return smp[i];
	return 0;
}

static void test_summary(void)
{
	struct frames_summary *s;
	struct dc_vec v = { 0 };
	struct ap_err err;
	struct frames *fr;
	char line[128];
	uint64_t *smp;

	summary_totals(&x86, NULL);
	summary_totals(&a64, NULL);

	/* x86 with the push at +0 unlisted: an uncovered frame store, class unknown_frame_store */
	{
		struct jr_node *t = tree_copy(x86.root);

		remove_item(t, "accesses", 0);
		CHECK(try_tree(t, x86.mod, 0, &err, &fr) == 0);
		jr__delete(t);
	}
	if (!fr)
		return;
	CHECK(frames__decode(fr, x86.mod, 0, &v, &err) == 0);
	smp = calloc(v.n, sizeof(*smp));
	for (uint32_t i = 0; i < v.n; i++)
		smp[i] = 10 + i;
	CHECK(frames__summarize(fr, v.v, v.n, 0, smp, &s, &err) == 0);
	CHECK_EQ_U64(s->uncovered[FRAMES_STORE].insns, 1);
	CHECK_EQ_U64(s->uncovered[FRAMES_STORE].samples, sample_at(&v, smp, 0));
	CHECK_EQ_U64(s->frame_instructions, 7);
	CHECK_EQ_U64(s->attributed_frame_instructions, 6);
	CHECK_EQ_U64(s->nunknown, 1);
	CHECK(s->nunknown == 1 && s->unknown[0].native_offset == 0 && !s->unknown[0].listed &&
	      s->unknown[0].base == FRAMES_RSP && s->unknown[0].frame_offset == -8 &&
	      !strcmp(s->unknown[0].text, "push rbp"));
	CHECK_EQ_U64(s->ncontrib, 1);
	CHECK(s->ncontrib == 1 && s->contrib[0].slot == 0 && s->contrib[0].vreg == 17 &&
	      s->contrib[0].static_loads == 1 && s->contrib[0].static_stores == 1 &&
	      s->contrib[0].samples == sample_at(&v, smp, 19) + sample_at(&v, smp, 26) &&
	      s->contrib[0].ncandidates == 1 && s->contrib[0].candidates[0] == 17 &&
	      s->contrib[0].value && s->contrib[0].value->ir_use_count == 3 &&
	      !strcmp(s->contrib[0].source_class, "memory_or_runtime"));
	CHECK_EQ_U64(s->sampled_allocator_loads, sample_at(&v, smp, 19));
	CHECK_EQ_U64(s->sampled_allocator_stores, sample_at(&v, smp, 26));
	CHECK(frames_summary__reconciliation(s, line, sizeof(line)) == 0);
	CHECK(!strcmp(line, "emitted allocator ld/st=1/1 == spill metric 1/1 (match)"));
	for (uint32_t i = 0; i < v.n; i++) {
		const char *cls = frames__insn_class(fr, &v.v[i], (uint32_t)v.v[i].addr, NULL);

		if (v.v[i].addr == 0)
			CHECK(cls && !strcmp(cls, "unknown_frame_store"));
		else if (v.v[i].addr == 19)
			CHECK(cls && !strcmp(cls, "allocator_spill_load"));
		else if (v.v[i].addr == 26)
			CHECK(cls && !strcmp(cls, "allocator_spill_store"));
		else if (v.v[i].addr == 15)
			CHECK(cls && !strcmp(cls, "wasm_local_or_phi_store"));
		else if (v.v[i].addr == 38)
			CHECK(cls && !strcmp(cls, "fixed_runtime_frame_state_load"));
		else if (v.v[i].addr == 1 || v.v[i].addr == 33)
			CHECK(cls == NULL);
	}
	frames_summary__delete(s);
	/* static only (no samples) and an instruction vector missing an access */
	CHECK(frames__summarize(fr, v.v + 4, v.n - 4, 0, NULL, &s, &err) == 0);
	CHECK_EQ_U64(s->unplaced, 1);
	CHECK_EQ_U64(s->frame_samples, 0);
	frames_summary__delete(s);
	free(smp);
	dc_vec__exit(&v);
	frames__delete(fr);

	/* aarch64: the stp/ldp pairs of two allocator values, samples counted once */
	CHECK(try_tree(a64.root, a64.mod, 0, &err, &fr) == 0);
	if (!fr)
		return;
	CHECK(frames__decode(fr, a64.mod, 0, &v, &err) == 0);
	smp = calloc(v.n, sizeof(*smp));
	for (uint32_t i = 0; i < v.n; i++)
		smp[i] = v.v[i].addr == 72 ? 50 : v.v[i].addr == 84 ? 30 : 1;
	CHECK(frames__summarize(fr, v.v, v.n, 0, smp, &s, &err) == 0);
	CHECK_EQ_U64(s->ncontrib, 4);
	if (s->ncontrib == 4) {
		CHECK(s->contrib[0].paired && s->contrib[0].native_offset == 72 &&
		      s->contrib[0].samples == 50 && s->contrib[0].slot == 0 &&
		      s->contrib[0].frame_offset == 40 && s->contrib[0].ncandidates == 2 &&
		      s->contrib[0].candidates[0] == 21 && s->contrib[0].candidates[1] == 22 &&
		      s->contrib[0].part[1].vreg == 22 &&
		      !strcmp(s->contrib[0].source_class, "paired_allocator_access"));
		CHECK(s->contrib[1].paired && s->contrib[1].native_offset == 84 &&
		      s->contrib[1].samples == 30);
		CHECK(!s->contrib[2].paired && s->contrib[2].vreg == 21 && s->contrib[2].samples == 0 &&
		      s->contrib[2].static_loads == 1 && s->contrib[2].static_stores == 1);
		CHECK(!s->contrib[3].paired && s->contrib[3].vreg == 22 && s->contrib[3].slot == 1);
	}
	CHECK_EQ_U64(s->sampled_allocator_stores, 50);
	CHECK_EQ_U64(s->sampled_allocator_loads, 30);
	CHECK_EQ_U64(s->emitted_allocator_loads, 2);
	CHECK_EQ_U64(s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_STORE].insns, 1);
	CHECK_EQ_U64(s->nunknown, 0);
	CHECK_EQ_U64(s->frame_instructions, 12);
	CHECK(frames_summary__reconciliation(s, line, sizeof(line)) == 0);
	CHECK(!strcmp(line, "emitted allocator ld/st=2/2 == spill metric 2/2 (match)"));
	frames_summary__delete(s);
	free(smp);
	dc_vec__exit(&v);
	frames__delete(fr);
}

/* ---- aarch64 encodings and materialized bases ---- */

static void test_a64_words(void)
{
	struct a64_ldst ls;
	struct fr_a64_access *d;
	struct frames fr;
	struct ap_err err;
	uint32_t n;
	/* add x9, x29, #40; ldr x0, [x9]; movz x10, #0x30; add x11, x29, x10;
	 * str w1, [x11, #4]; ldr x9, [x9]; ldr x2, [x9]; b .+4; ldr x3, [x11];
	 * stur q0, [x29, #-16]; ldp x29, x30, [sp], #16 */
	static const uint32_t code[] = {
		0x9100a3a9u, 0xf9400120u, 0xd280060au, 0x8b0a03abu, 0xb9000561u,
		0xf9400129u, 0xf9400122u, 0x14000001u, 0xf9400163u, 0x3c9f03a0u,
		0xa8c17bfdu,
	};

	CHECK(a64__ldst(0xa9bf7bfdu, &ls) == 1);	/* stp x29, x30, [sp, #-16]! */
	CHECK(ls.is_store && ls.rn == 31 && ls.offset == -16 && ls.mode == A64_MODE_PRE_INDEX &&
	      ls.pair && ls.reg[0] == 29 && ls.reg[1] == 30 && ls.width == 8 && ls.writeback &&
	      ls.wb_amount == -16);
	CHECK(a64__ldst(0xa8c17bfdu, &ls) == 1);	/* ldp x29, x30, [sp], #16 */
	CHECK(!ls.is_store && ls.offset == 0 && ls.mode == A64_MODE_POST_INDEX && ls.wb_amount == 16);
	CHECK(a64__ldst(0xb85f83a0u, &ls) == 1);	/* ldur w0, [x29, #-8] */
	CHECK(ls.mode == A64_MODE_SIGNED_UNSCALED && ls.offset == -8 && ls.width == 4 && ls.rn == 29);
	CHECK(a64__ldst(0x3dc00000u, &ls) == 1);	/* ldr q0, [x0] */
	CHECK(ls.mode == A64_MODE_SIMD_ZERO_OFFSET && ls.width == 16 && ls.regclass == A64_SIMD);
	CHECK(a64__ldst(0x3dc00400u, &ls) == 0);	/* ldr q0, [x0, #16]: not a recorded form */
	CHECK(a64__ldst(0xf8697800u, &ls) == 0);	/* ldr x0, [x0, x9, lsl #3] */
	CHECK(a64__ldst(0x29017fa1u, &ls) == 1);	/* stp w1, wzr, [x29, #8] */
	CHECK(ls.pair && ls.width == 4 && ls.offset == 8 && ls.reg[1] == 31);
	CHECK(a64__ldst(0x79c00020u, &ls) == 1 && ls.width == 2 && !ls.is_store);	/* ldrsh w0, [x1] */
	CHECK(!strcmp(a64__mode_name(A64_MODE_MATERIALIZED), "materialized"));
	CHECK(a64__mode_parse("signed_pair", 11) == A64_MODE_SIGNED_PAIR);

	memset(&fr, 0, sizeof(fr));
	fr.arch = CWASM_ARCH_AARCH64;
	CHECK(fr__a64_accesses(&fr, (const uint8_t *)code, sizeof(code), &d, &n, &err) == 0);
	CHECK_EQ_U64(n, 5);
	if (n == 5) {
		CHECK(d[0].off == 4 && d[0].base == FRAMES_X29 && d[0].base_offset == 40 &&
		      d[0].ls.rn == 9 && d[0].ls.offset == 0);
		CHECK(d[1].off == 16 && d[1].base == FRAMES_X29 && d[1].base_offset == 0x30 &&
		      d[1].ls.offset == 4 && d[1].ls.is_store);
		/* ldr x9, [x9] reads through the frame address, then clobbers x9 */
		CHECK(d[2].off == 20);
		/* after the branch nothing is known: ldr x3, [x11] is not a frame load */
		CHECK(d[3].off == 36 && d[3].ls.rn == 29 && d[3].ls.offset == -16 &&
		      d[3].ls.width == 16);
		CHECK(d[4].off == 40 && d[4].base == FRAMES_SP);
	}
	free(d);
}

/* Bad JSON and wrong shapes, before any rule. */
static void test_shapes(void)
{
	struct ap_err err;
	struct frames *fr;

	CHECK(frames__parse("[1]", 3, "side.json", x86.mod, 0, &fr, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "side.json: the sidecar must be a JSON object, not an array");
	CHECK(frames__parse("{\"schema\": ", 11, "side.json", x86.mod, 0, &fr, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "side.json: invalid JSON: line 1");
	MUT(x86, "accesses: missing", drop(t, NULL, "accesses"));
	MUT(x86, "accesses: must be an array, not an object", set_raw(t, "accesses", "{}"));
	MUT(x86, "accesses[0]: must be an object, not a number", set_raw(t, "accesses.0", "3"));
	MUT(x86, "frame_layout: must be an object, not an array", set_raw(t, "frame_layout", "[]"));
	MUT(x86, "compiler_build_id: must be a string, not a number", set_int(t, "compiler_build_id", 7));
	MUT(x86, "function_name: missing", drop(t, NULL, "function_name"));
	MUT(x86, "local_func: 4294967296 is out of range", set_int(t, "local_func", 4294967296LL));
	MUT(x86, "schema: repeated key", repeat_key(t, NULL, "schema"));
}

int main(void)
{
	set_dir();
	load(&x86);
	load(&a64);
	test_examples();
	test_identity();
	test_relocations();
	test_ranges_layout();
	test_values();
	test_accesses_x86();
	test_accesses_a64();
	test_materialized();
	test_summary();
	test_a64_words();
	test_shapes();
	jr__delete(x86.root);
	jr__delete(a64.root);
	cwasm__delete(x86.mod);
	cwasm__delete(a64.mod);
	free(x86.cwasm);
	free(a64.cwasm);
	CHECK_DONE();
}
