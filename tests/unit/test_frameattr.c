// SPDX-License-Identifier: MIT
/*
 * classify/frameattr: sidecars written to a scratch folder (valid ones in
 * every accepted spelling, and hostile ones, each of which must fail with
 * one line naming the file), the join with a decoded function, and the
 * text and JSON output.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../classify/frameattr.h"
#include "../../cwasm/json_read.h"
#include "../../util/json_out.h"

static char dir[512];

/* The path even when writing failed: loading it then fails the checks. */
static const char *write_file(const char *name, const char *text)
{
	static char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return path;
}

/*
 * A small x86-64 function in WAMR's shape; offsets in the comments.
 * The classes: 4 vmctx_save, 8 vmctx_reload, 12 frame_load (rsp), 17 vmctx_field.
 */
static const uint8_t code[] = {
	0x55,				/*  0 push rbp */
	0x48, 0x89, 0xe5,		/*  1 mov rbp, rsp */
	0x48, 0x89, 0x7d, 0xf8,		/*  4 mov [rbp-8], rdi */
	0x48, 0x8b, 0x45, 0xf8,		/*  8 mov rax, [rbp-8] */
	0x48, 0x8b, 0x4c, 0x24, 0x08,	/* 12 mov rcx, [rsp+8] */
	0x48, 0x8b, 0x08,		/* 17 mov rcx, [rax] */
	0x5d,				/* 20 pop rbp */
	0xc3,				/* 21 ret */
};
#define CODE_SIZE ((uint32_t)sizeof(code))

static int decode(struct cls_func *f)
{
	struct cls_roles r;
	struct ap_err err = { 0 };

	cls__roles_default(CWASM_ARCH_X86_64, &r);
	if (cls__decode(CWASM_ARCH_X86_64, &r, code, sizeof(code), 0x1000, f, &err)) {
		fprintf(stderr, "decode: %s\n", err.msg);
		return -1;
	}
	return 0;
}

static void test_path(void)
{
	char buf[64];

	CHECK(!fa__path(buf, sizeof(buf), "out/k", 3, 1501));
	CHECK(!strcmp(buf, "out/k.mod3.func1501.json"));
	CHECK(fa__path(buf, 10, "out/k", 3, 1501) == -1);
	CHECK(!strcmp(fa__known_name(FA_WASM_LOCAL_OR_PHI), "wasm_local_or_phi"));
}

/* Every accepted spelling in one file. */
static const char liberal[] =
	"{\"schema\": \"wamr-aot-frame-attribution\", \"version\": 1, \"mod\": \"0\",\n"
	" \"local_func\": 7, \"name\": \"f\", \"future_key\": [1, {\"x\": null}],\n"
	" \"accesses\": [\n"
	"  {\"start\": \"0x8\", \"end\": \"0xc\", \"kind\": \"load\", \"slot\": \"-0x8\","
	"   \"origin\": \"wasm_local_or_phi\"},\n"
	"  {\"start\": 4, \"size\": 4, \"kind\": \"store\", \"slot\": -8,"
	"   \"origin\": \"allocator_spill\", \"note\": \"unknown keys are ignored\"},\n"
	"  {\"start\": 4, \"end\": 8.0, \"kind\": \"read\", \"origin\": \"allocator_spill\"},\n"
	"  {\"start\": \"17\", \"end\": 20, \"kind\": \"sideways\", \"origin\": \"vendor_thing\"},\n"
	"  {\"start\": 21, \"end\": 22, \"kind\": null, \"slot\": null,"
	"   \"origin\": \"fixed_runtime_frame_state\"}\n"
	" ]}\n";

static void test_liberal(void)
{
	struct fa_sidecar sc;
	struct ap_err err = { 0 };
	const char *p = write_file("ok.mod0.func7.json", liberal);

	if (fa__load(p, 0, 7, CODE_SIZE, &sc, &err)) {
		fprintf(stderr, "  %s\n", err.msg);
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(sc.nacc, 4);	/* the repeated [4, 8) merged */
	CHECK_EQ_U64(sc.norigins, FA__KNOWN + 1);
	CHECK(!strcmp(sc.origins[FA__KNOWN], "vendor_thing"));
	CHECK_EQ_U64(sc.mod, 0);
	CHECK_EQ_U64(sc.local_func, 7);
	/* sorted by start */
	CHECK_EQ_U64(sc.acc[0].start, 4);
	CHECK_EQ_U64(sc.acc[0].end, 8);
	CHECK_EQ_U64(sc.acc[0].kind, FA_KIND_BOTH);	/* store + read */
	CHECK_EQ_U64(sc.acc[0].origin, FA_ALLOCATOR_SPILL);
	CHECK(sc.acc[1].has_slot && sc.acc[1].slot == -8);
	CHECK_EQ_U64(sc.acc[1].kind, FA_KIND_LOAD);
	CHECK_EQ_U64(sc.acc[2].start, 17);
	CHECK_EQ_U64(sc.acc[2].kind, FA_KIND_ANY);	/* unknown kind: no kind check */
	CHECK(!sc.acc[3].has_slot);
	fa__exit(&sc);
	/* no mod/local_func in the file: nothing to compare */
	p = write_file("bare.json", "{\"schema\":\"wamr-aot-frame-attribution\",\"accesses\":[]}");
	CHECK(!fa__load(p, 4, 9, 10, &sc, &err));
	CHECK_EQ_U64(sc.nacc, 0);
	CHECK(sc.mod == -1 && sc.local_func == -1);
	fa__exit(&sc);
}

static void test_join(void)
{
	static const char side[] =
		"{\"schema\": \"wamr-aot-frame-attribution\", \"accesses\": [\n"
		/* the store, but recorded as a load: kind mismatch */
		" {\"start\": 4, \"end\": 8, \"kind\": \"load\", \"origin\": \"allocator_spill\"},\n"
		" {\"start\": 8, \"end\": 12, \"kind\": \"load\", \"origin\": \"wasm_local_or_phi\"},\n"
		/* [rsp+8] is not listed: heuristic_only. [rax] is: sidecar_only */
		" {\"start\": 17, \"end\": 18, \"origin\": \"explicit_frame_storage\"},\n"
		/* a range inside the last byte: covers ret, a non-frame class */
		" {\"start\": 21, \"end\": 22, \"origin\": \"fixed_runtime_frame_state\"}\n"
		"]}";
	uint64_t samples[16] = { 0 };
	struct fa_sidecar sc;
	struct fa_join jn;
	struct cls_func f;
	struct ap_err err = { 0 };
	const char *p = write_file("join.json", side);

	if (decode(&f)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U64(f.ninsns, 8);
	CHECK_EQ_U64(f.insns[2].cls, CLS_VMCTX_SAVE);
	CHECK_EQ_U64(f.insns[3].cls, CLS_VMCTX_RELOAD);
	CHECK_EQ_U64(f.insns[4].cls, CLS_FRAME_LOAD);
	for (uint32_t i = 0; i < f.ninsns; i++)
		samples[i] = 10 * (i + 1);	/* 10, 20, ... 80: 360 in all */
	CHECK(!fa__load(p, -1, -1, CODE_SIZE, &sc, &err));
	CHECK(!fa__join(&sc, &f, samples, &jn, &err));
	CHECK_EQ_U64(jn.func_samples, 360);
	CHECK(jn.insn_access[0] == -1 && jn.insn_access[2] == 0 && jn.insn_access[3] == 1);
	CHECK(jn.insn_access[4] == -1 && jn.insn_access[5] == 2 && jn.insn_access[7] == 3);
	CHECK(!strcmp(fa__insn_origin(&jn, 3), "wasm_local_or_phi"));
	CHECK(fa__insn_origin(&jn, 4) == NULL);
	CHECK_EQ_U64(jn.origin[FA_ALLOCATOR_SPILL].accesses, 1);
	CHECK_EQ_U64(jn.origin[FA_ALLOCATOR_SPILL].all.samples, 30);
	CHECK_EQ_U64(jn.origin[FA_WASM_LOCAL_OR_PHI].all.samples, 40);
	CHECK_EQ_U64(jn.origin[FA_EXPLICIT_FRAME_STORAGE].all.samples, 60);
	CHECK_EQ_U64(jn.origin[FA_EXPLICIT_FRAME_STORAGE].heuristic.insns, 0);
	CHECK_EQ_U64(jn.origin[FA_FIXED_RUNTIME_FRAME_STATE].all.samples, 80);
	/* the heuristic's stack traffic: 30 + 40 + 50, split by origin */
	CHECK_EQ_U64(jn.stack.insns, 3);
	CHECK_EQ_U64(jn.stack.samples, 120);
	CHECK_EQ_U64(jn.origin[FA_ALLOCATOR_SPILL].heuristic.samples, 30);
	CHECK_EQ_U64(jn.origin[FA_WASM_LOCAL_OR_PHI].heuristic.samples, 40);
	CHECK_EQ_U64(jn.dis[FA_HEURISTIC_ONLY].insns, 1);
	CHECK_EQ_U64(jn.dis[FA_HEURISTIC_ONLY].samples, 50);
	CHECK_EQ_U64(jn.dis[FA_SIDECAR_ONLY].insns, 2);	/* [rax] and ret */
	CHECK_EQ_U64(jn.dis[FA_SIDECAR_ONLY].samples, 140);
	CHECK_EQ_U64(jn.dis[FA_KIND_MISMATCH].insns, 1);
	CHECK_EQ_U64(jn.dis[FA_KIND_MISMATCH].samples, 30);
	CHECK_EQ_U64(jn.unplaced, 0);
	CHECK_EQ_U64(fa__disagreement(&jn, &f, 2), FA_KIND_MISMATCH);
	CHECK_EQ_U64(fa__disagreement(&jn, &f, 3), FA_AGREE);
	CHECK_EQ_U64(fa__disagreement(&jn, &f, 4), FA_HEURISTIC_ONLY);
	CHECK_EQ_U64(fa__disagreement(&jn, &f, 5), FA_SIDECAR_ONLY);

	/* text and JSON */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		struct json_out j;
		struct jr_node *root = NULL;
		const struct jr_node *o, *v;

		fa__print(m, &jn, &f, samples, 2);
		fclose(m);
		CHECK_STR_CONTAINS(buf, "join.json (4 accesses)");
		CHECK_STR_CONTAINS(buf, "heuristic_only 1 (50 samples)");
		CHECK_STR_CONTAINS(buf, "kind_mismatch");
		CHECK_STR_CONTAINS(buf, "... 2 more");	/* 4 disagreements, 2 listed */
		free(buf);
		m = open_memstream(&buf, &len);
		json_init(&j, m);
		fa__json(&j, &jn, &f, samples, 20);
		json_finish(&j);
		fclose(m);
		CHECK(!jr__parse(buf, len, &root, NULL));
		o = jr__get(jr__get(root, "origins", NULL), "allocator_spill", NULL);
		v = jr__get(o, "samples", NULL);
		CHECK(v && v->is_int && v->integer == 30);
		v = jr__get(o, "static_accesses", NULL);
		CHECK(v && v->is_int && v->integer == 1);
		v = jr__get(o, "percent_of_function", NULL);
		CHECK(v && v->type == JR_NUMBER && v->number > 8.33 && v->number < 8.34);
		o = jr__get(jr__get(root, "heuristic_stack_traffic", NULL), "no_sidecar_access",
			    NULL);
		v = jr__get(o, "samples", NULL);
		CHECK(v && v->is_int && v->integer == 50);
		o = jr__get(jr__get(root, "disagreements", NULL), "listed", NULL);
		CHECK(o && o->type == JR_ARRAY && o->n == 4);
		v = o && o->n ? jr__get(&o->items[0], "type", NULL) : NULL;
		CHECK(v && v->type == JR_STRING && !strcmp(v->str, "kind_mismatch"));
		jr__delete(root);
		free(buf);
	}
	fa_join__exit(&jn);

	/* static only: no samples, shares by instruction count */
	CHECK(!fa__join(&sc, &f, NULL, &jn, &err));
	CHECK_EQ_U64(jn.func_samples, 0);
	CHECK_EQ_U64(jn.stack.insns, 3);
	CHECK_EQ_U64(jn.dis[FA_SIDECAR_ONLY].insns, 2);
	fa_join__exit(&jn);
	fa__exit(&sc);
	cls_func__exit(&f);
}

/* An access over bytes the decoder set aside as data covers no instruction. */
static void test_unplaced(void)
{
	struct cls_insn insns[2] = {
		{ .addr = 0x10, .offset = 0, .size = 4, .cls = CLS_FRAME_LOAD },
		{ .addr = 0x14, .offset = 4, .size = 8, .cls = CLS_DATA },
	};
	struct cls_func f = { .insns = insns, .ninsns = 2 };
	struct fa_sidecar sc;
	struct fa_join jn;
	struct ap_err err = { 0 };
	static const char side[] =
		"{\"schema\": \"wamr-aot-frame-attribution\", \"accesses\": [\n"
		" {\"start\": 0, \"end\": 2, \"origin\": \"allocator_spill\"},\n"
		" {\"start\": 2, \"end\": 4, \"origin\": \"allocator_spill\"},\n"
		" {\"start\": 6, \"end\": 7, \"origin\": \"allocator_spill\"}]}";

	CHECK(!fa__parse(side, strlen(side), "mem", -1, -1, 12, &sc, &err));
	CHECK(!fa__join(&sc, &f, NULL, &jn, &err));
	/* two accesses inside one instruction: it counts once, for the first */
	CHECK_EQ_U64(jn.origin[FA_ALLOCATOR_SPILL].accesses, 3);
	CHECK_EQ_U64(jn.origin[FA_ALLOCATOR_SPILL].all.insns, 1);
	CHECK_EQ_U64(jn.insn_access[0], 0);
	CHECK_EQ_U64(jn.unplaced, 1);
	CHECK_EQ_U64(jn.dis[FA_HEURISTIC_ONLY].insns, 0);
	fa_join__exit(&jn);
	fa__exit(&sc);
}

#define HDR "{\"schema\": \"wamr-aot-frame-attribution\", "
#define ACC(x) HDR "\"accesses\": [" x "]}"

/* Each must fail, with one line naming the file and saying what is wrong. */
static void test_hostile(void)
{
	static const struct {
		const char *text, *want;
	} bad[] = {
		{ "", "invalid JSON" },
		{ "{\"schema\": \"wamr-aot-frame-attribution\", \"accesses\": [", "invalid JSON" },
		{ "[1, 2]", "top level is" },
		{ "{\"accesses\": []}", "no \"schema\"" },
		{ "{\"schema\": \"wamr-aot-spill\", \"accesses\": []}", "schema is \"wamr-aot-spill\"" },
		{ "{\"schema\": 7, \"accesses\": []}", "schema is" },
		{ HDR "\"version\": 2, \"accesses\": []}", "unsupported version" },
		{ HDR "\"version\": \"one\", \"accesses\": []}", "unsupported version" },
		{ HDR "\"mod\": 1, \"accesses\": []}", "\"mod\" is 1, but this is mod 0" },
		{ HDR "\"local_func\": 8, \"accesses\": []}", "\"local_func\" is 8" },
		{ HDR "\"local_func\": -1, \"accesses\": []}", "not a non-negative integer" },
		{ HDR "\"acesses\": []}", "no \"accesses\" array" },
		{ HDR "\"accesses\": {}}", "\"accesses\" is" },
		{ ACC("3"), "accesses[0]: is" },
		{ ACC("{\"end\": 4, \"origin\": \"a\"}"), "accesses[0]: no \"start\"" },
		{ ACC("{\"start\": 4, \"origin\": \"a\"}"), "no \"end\" (or \"size\")" },
		{ ACC("{\"start\": 1.5, \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not an integer" },
		{ ACC("{\"start\": \"0xZZ\", \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": \" 1\", \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": \"0x\", \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": \"1\\u00002\", \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": \"0xffffffffffffffffff\", \"end\": 4, \"origin\": \"a\"}"),
		  "\"start\" is not" },
		{ ACC("{\"start\": 1e300, \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": true, \"end\": 4, \"origin\": \"a\"}"), "\"start\" is not" },
		{ ACC("{\"start\": -4, \"end\": 4, \"origin\": \"a\"}"), "empty or negative" },
		{ ACC("{\"start\": 4, \"end\": 4, \"origin\": \"a\"}"), "empty or negative" },
		{ ACC("{\"start\": 8, \"end\": 4, \"origin\": \"a\"}"), "empty or negative" },
		{ ACC("{\"start\": 20, \"end\": 23, \"origin\": \"a\"}"), "outside the function" },
		{ ACC("{\"start\": \"0x7fffffffffffffff\", \"size\": 1, \"origin\": \"a\"}"),
		  "overflows" },
		{ ACC("{\"start\": 4000000000, \"end\": 4000000004, \"origin\": \"a\"}"),
		  "outside the function" },
		{ ACC("{\"start\": 2, \"size\": 0, \"origin\": \"a\"}"), "\"size\" is not" },
		{ ACC("{\"start\": 2, \"size\": 2, \"end\": 5, \"origin\": \"a\"}"), "disagrees" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\"},"
		      "{\"start\": 5, \"end\": 9, \"origin\": \"a\"}"), "accesses overlap" },
		{ ACC("{\"start\": 2, \"end\": 9, \"origin\": \"a\"},"
		      "{\"start\": 4, \"end\": 5, \"origin\": \"a\"}"), "accesses overlap" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\"},"
		      "{\"start\": 2, \"end\": 6, \"origin\": \"b\"}"), "origins a and b" },
		{ ACC("{\"start\": 2, \"end\": 6}"), "no \"origin\"" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": 3}"), "\"origin\" is" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": [\"a\"]}"), "\"origin\" is" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"\"}"), "1 to 64 characters" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\\u0000b\"}"), "1 to 64 characters" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\\nb\"}"), "control character" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\", \"kind\": 1}"), "\"kind\" is" },
		{ ACC("{\"start\": 2, \"end\": 6, \"origin\": \"a\", \"slot\": \"rbp-8\"}"),
		  "\"slot\" is not" },
		{ ACC("{\"start\": 2, \"start\": 3, \"end\": 6, \"origin\": \"a\"}"),
		  "\"start\" is given 2 times" },
		{ HDR "\"accesses\": [], \"accesses\": []}", "\"accesses\" is given 2 times" },
	};
	char text[4096], name[64];
	struct fa_sidecar sc;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ap_err err = { 0 };
		const char *p;

		snprintf(name, sizeof(name), "bad%zu.json", i);
		p = write_file(name, bad[i].text);
		CHECK(fa__load(p, 0, 7, CODE_SIZE, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, name);
		CHECK_STR_CONTAINS(err.msg, bad[i].want);
		CHECK(!strchr(err.msg, '\n'));
	}
	/* a long origin, too many distinct origins, deep nesting */
	{
		struct ap_err err = { 0 };
		size_t n = 0;

		n += (size_t)snprintf(text + n, sizeof(text) - n, ACC("{\"start\": 0, \"end\": 1, "
				      "\"origin\": \"%065d\"}"), 0);
		CHECK(fa__parse(text, n, "long", -1, -1, CODE_SIZE, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "1 to 64 characters");
		n = (size_t)snprintf(text, sizeof(text), HDR "\"accesses\": [");
		for (int k = 0; k < FA_MAX_ORIGINS; k++)
			n += (size_t)snprintf(text + n, sizeof(text) - n,
					      "%s{\"start\": %d, \"end\": %d, \"origin\": \"o%d\"}",
					      k ? "," : "", k, k + 1, k);
		n += (size_t)snprintf(text + n, sizeof(text) - n, "]}");
		CHECK(fa__parse(text, n, "many", -1, -1, 64, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "more than 32 distinct origins");
		memset(text, '[', 1000);
		CHECK(fa__parse(text, 1000, "deep", -1, -1, 64, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "deep: invalid JSON");
	}
	/* files that cannot be read */
	{
		struct ap_err err = { 0 };

		snprintf(text, sizeof(text), "%s/none.json", dir);
		CHECK(fa__load(text, -1, -1, 10, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "none.json: No such file");
		CHECK(fa__load(dir, -1, -1, 10, &sc, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "Is a directory");
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[600];

	snprintf(dir, sizeof(dir), "%s/frameattr.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_path();
	test_liberal();
	test_join();
	test_unplaced();
	test_hostile();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", dir);
	CHECK_DONE();
}
