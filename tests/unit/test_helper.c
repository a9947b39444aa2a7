// SPDX-License-Identifier: MIT
/*
 * The upstream helper's view (profile/hview.c, render/helper-*.c,
 * render/frames-*.c): Python's float repr, the helper's classes of a
 * function with a sidecar and samples placed by hand (on instruction
 * starts and between them), its JSON document, the candidate list.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../attr/attr.h"
#include "../../cwasm/coreset.h"
#include "../../cwasm/json_read.h"
#include "../../classify/classify.h"
#include "../../decode/decode.h"
#include "../../render/helper.h"

static char dir[512];

static void set_dir(void)
{
	const char *d = getenv("SIDECAR_DIR");
	FILE *f = fopen("tests/fixtures/sidecars/sidecar-v1-x86_64.cwasm", "rb");

	if (d)
		snprintf(dir, sizeof(dir), "%s", d);
	else if (f)
		snprintf(dir, sizeof(dir), "tests/fixtures/sidecars");
	else
		snprintf(dir, sizeof(dir), "%s/../tests/fixtures/sidecars",
			 getenv("BUILD") ? getenv("BUILD") : "build");
	if (f)
		fclose(f);
}

static void pyfloat_is(double v, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json_out j;

	json_init(&j, f);
	json_pyfloat(&j, v);
	fclose(f);
	if (strcmp(buf, want))
		fprintf(stderr, "  json_pyfloat(%.17g) = %s, want %s\n", v, buf, want);
	CHECK(!strcmp(buf, want));
	free(buf);
}

/* The numbers Python's repr writes (json.dumps uses it). */
static void test_pyfloat(void)
{
	pyfloat_is(0.0, "0.0");
	pyfloat_is(100.0, "100.0");
	pyfloat_is(100.0 / 3.0, "33.333333333333336");
	pyfloat_is(1.0 / 3.0, "0.3333333333333333");
	pyfloat_is(0.1, "0.1");
	pyfloat_is(2.5, "2.5");
	pyfloat_is(100.0 * 536 / 948, "56.540084388185655");
	pyfloat_is(12345678.0, "12345678.0");
	pyfloat_is(1e-05, "1e-05");
	pyfloat_is(0.0001, "0.0001");
	pyfloat_is(1e16, "1e+16");
	pyfloat_is(1.5e16, "1.5e+16");
	pyfloat_is(9999999999999998.0, "9999999999999998.0");
	pyfloat_is(-0.5, "-0.5");
}

static const struct hv_class *class_of(const struct helper_view *hv, const char *name)
{
	for (uint32_t i = 0; i < hv->nclasses; i++)
		if (!strcmp(hv->classes[i].name, name))
			return &hv->classes[i];
	return NULL;
}

/*
 * The x86 example: its allocator reload is the 7-byte instruction at
 * +0x13 (vreg 17, slot 0). Three samples on it, one at +0x14 (inside it:
 * the helper's unknown_instruction_boundary), two at +0x0 (push rbp:
 * fixed runtime state).
 */
static void test_view(void)
{
	struct core_set cs = { 0 };
	struct profile *p = NULL;
	struct ap_err err;
	char path[600];
	const struct profile_func *f;
	const struct helper_view *hv;
	const struct frames_summary *s;
	const struct hv_class *c;
	uint64_t sum = 0;
	uint32_t nstatic = 0;

	snprintf(path, sizeof(path), "%s/sidecar-v1-x86_64.cwasm", dir);
	CHECK(core_set__add_cwasm(&cs, path, &err) == 0);
	CHECK(profile__new(&cs, NULL, 0, NULL, &p, &err) == 0);
	if (!p)
		return;
	for (int i = 0; i < 3; i++)
		profile__sample(p, 0, 0x13);
	profile__sample(p, 0, 0x14);
	profile__sample(p, 0, 0x0);
	profile__sample(p, 0, 0x0);
	profile__sample(p, -1, 0);	/* elsewhere in the run */
	CHECK(profile__finish(p, &err) == 0);
	CHECK(profile__add_func(p, NULL, 0, 0, &err) == 0);
	snprintf(path, sizeof(path), "%s/sidecar-v1-x86_64", dir);
	CHECK(profile__load_sidecars(p, path, &err) == 0);
	CHECK(profile__classify(p, NULL, &err) == 0);
	f = &p->funcs[0];
	hv = f->hv;
	CHECK(hv && f->sc && f->sc->fr && f->sc->sum);
	if (!hv || !f->sc || !f->sc->sum)
		goto out;
	s = f->sc->sum;
	CHECK_EQ_U64(hv->samples, 6);
	for (uint32_t i = 0; i < hv->nclasses; i++) {
		sum += hv->classes[i].samples;
		nstatic += hv->classes[i].static_insns;
		if (i)
			CHECK(strcmp(hv->classes[i - 1].name, hv->classes[i].name) < 0);
	}
	CHECK_EQ_U64(sum, hv->samples);
	CHECK_EQ_U64(nstatic, hv->instruction_count);
	c = class_of(hv, "allocator_spill_load");
	CHECK(c && c->samples == 3 && c->static_insns == 1);
	c = class_of(hv, "unknown_instruction_boundary");
	CHECK(c && c->samples == 1 && c->static_insns == 0);
	c = class_of(hv, "fixed_runtime_frame_state_store");
	CHECK(c && c->samples == 2);
	CHECK(!class_of(hv, "frame_load_unattributed") && !class_of(hv, "inline_data_or_sample_skid"));
	/* hottest: samples, then address, descending; offsets without a mapping */
	CHECK_EQ_U64(hv->nhot, 3);
	CHECK(hv->hot[0].samples == 3 && hv->hot[0].addr == 0x13);
	CHECK(hv->hot[1].samples == 2 && hv->hot[1].addr == 0x0);
	CHECK(hv->hot[2].addr == 0x14 && !strcmp(hv->hot[2].text, "<unknown_instruction_boundary>"));
	/* the origins: the mid-instruction sample is no instruction's */
	CHECK_EQ_U64(s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_LOAD].samples, 3);
	CHECK_EQ_U64(s->frame_samples, 5);
	CHECK(s->ncontrib == 1 && s->contrib[0].vreg == 17 && s->contrib[0].samples == 3);
	CHECK(f->cls.t.spills_known && f->cls.t.spill_samples == 3 && f->cls.t.spill_static == 2);

	/* the document, static validation */
	{
		struct helper_report r = {
			.p = p, .arch = "x86_64", .cwasm = "x.cwasm", .top = 20, .f = f,
		};
		const char *tmp = getenv("TMPDIR");
		char out[600];
		struct jr_node *root = NULL;
		const struct jr_node *cf, *fa;

		snprintf(out, sizeof(out), "%s/helper.json", tmp ? tmp : "/tmp");
		CHECK(render__helper_json_file(out, &r, &err) == 0);
		CHECK(jr__parse_file(out, 1 << 20, &root, &err) == 0);
		if (root) {
			CHECK_EQ_U64(jr__get(root, "schema_version", NULL)->integer, 2);
			CHECK(jr__get(root, "text_base", NULL)->type == JR_NULL);
			CHECK(jr__get(root, "mapping", NULL)->type == JR_NULL);
			CHECK(jr__get(root, "perf", NULL)->type == JR_NULL);
			CHECK(jr__get(root, "cwasm", NULL)->str[0] == '/');
			CHECK_EQ_U64(jr__get(root, "total_samples", NULL)->integer, 7);
			CHECK_EQ_U64(jr__get(root, "attributed_samples", NULL)->integer, 6);
			CHECK(jr__get(root, "top_functions", NULL)->n == 0);
			/* keys sorted, as json.dumps(sort_keys=True) writes them */
			for (size_t i = 1; i < root->n; i++)
				CHECK(strcmp(root->keys[i - 1], root->keys[i]) < 0);
			cf = jr__get(root, "classified_function", NULL);
			fa = cf ? jr__get(cf, "frame_attribution", NULL) : NULL;
			CHECK(fa && jr__get(jr__get(fa, "reconciliation", NULL), "matches", NULL)->boolean);
			CHECK(fa && jr__get(fa, "allocator_contributors", NULL)->n == 1);
			CHECK(cf && jr__get(cf, "frame_metadata", NULL)->str[0] == '/');
			CHECK(cf && jr__get(jr__get(cf, "classes", NULL), "allocator_spill_load", NULL)
					     ->items[0].is_int == 0);	/* percent_of_run: a float */
			jr__delete(root);
		}
		remove(out);
	}
out:
	profile__delete(p);
	core_set__exit(&cs);
}

static void test_spans(void)
{
	struct attr_span *v = NULL;
	uint32_t n = 0;
	size_t cap = 0;

	CHECK(attr_spans__add(&v, &n, &cap, 0x1000, 0x2000) == 0);
	CHECK(attr_spans__add(&v, &n, &cap, 0x5000, 0x2000) == 0);
	CHECK(attr_spans__add(&v, &n, &cap, 0x1000, 0x2000) == 0);
	CHECK(attr_spans__add(&v, &n, &cap, 0x1000, 0x1000) == 0);
	CHECK_EQ_U64(n, 3);
	CHECK(v[0].start == 0x1000 && v[2].len == 0x1000);
	free(v);
}

/* texts[i] decoded from objdump's Intel text, classed as one stream: want[i] each. */
static void rules_are(enum cwasm_arch arch, const char *const *texts, const char *const *want,
		      uint32_t n)
{
	struct dc_insn v[16];
	uint8_t out[16];

	memset(v, 0, sizeof(v));
	for (uint32_t i = 0; i < n; i++) {
		v[i].addr = 0x1000 + 4 * i;
		dc__parse_text(arch, 0, texts[i], &v[i]);
	}
	CHECK(cls_helper__stream(arch, v, n, out) == 0);
	for (uint32_t i = 0; i < n; i++) {
		if (strcmp(cls_helper__name(out[i]), want[i]))
			fprintf(stderr, "  %s: %s, want %s\n", texts[i], cls_helper__name(out[i]), want[i]);
		CHECK(!strcmp(cls_helper__name(out[i]), want[i]));
	}
}

/*
 * The helper's rules (classify/helper.c), on the cases its own unit tests
 * give (upstream tests/test_aot_jit_attr.py: the aarch64 stream, the x86
 * ones) and on the x86 ones its mnemonic sets decide: cmp is other unless
 * it reads the bounds field, ja/jae/jb/jbe are bounds branches anywhere,
 * only jmp rax/r10/r11 dispatches, a rip-relative mov is a regmov.
 */
static void test_rules(void)
{
	static const char *const a64[] = {
		"add x17, x15, #1", "ldr x16, [x19, #8]", "cmp x17, x16", "b.ls 0x1020",
		"ldr w8, [x20, x15]", "ldr x9, [x29, #-16]", "str x10, [sp, #32]", "mov w11, w8",
		"add w12, w11, w10", "bl 0x2000", "br x13", "b 0x3000", "cbnz w8, 0x4000",
	};
	static const char *const a64_want[] = {
		"alu", "mem_access", "bounds_cmp", "bounds_branch", "linear_memory",
		"frame_load_unattributed", "frame_store_unattributed", "regmov", "alu", "call",
		"indirect_dispatch", "direct_branch", "cond_branch",
	};
	/* objdump's b.cs (capstone's b.hs) is not one of the helper's four */
	static const char *const a64_cs[] = {
		"ldr x16, [x19, #8]", "cmp x17, x16", "b.hs 0x1020", "mov w0, #0x1", "neg x0, x1",
	};
	static const char *const a64_cs_want[] = {
		"mem_access", "alu", "cond_branch", "other", "other",
	};
	static const char *const x86[] = {
		"mov eax,edx", "jmp r10", "mov rax,QWORD PTR [rbp-0x20]", "cmp r11,0x3", "jae 0x48",
		"cmp eax,DWORD PTR [rbx+0x8]", "jmp rcx", "mov rax,QWORD PTR [rip+0x10]",
		"movsxd r11,DWORD PTR [r10+r11*4]", "push rbx", "add QWORD PTR [rbp-0x8],0x1",
		"lea rax,[rbp-0x10]", "cmove eax,edx", "rol eax,0x3", "lock add DWORD PTR [rax],0x1",
	};
	static const char *const x86_want[] = {
		"regmov", "dispatch_jmp", "frame_load_unattributed", "other", "bounds_branch",
		"bounds_cmp", "jmp", "regmov", "mem_access", "frame_store_unattributed",
		"frame_load_unattributed", "alu", "other", "other", "other",
	};

	rules_are(CWASM_ARCH_AARCH64, a64, a64_want, sizeof(a64) / sizeof(a64[0]));
	rules_are(CWASM_ARCH_AARCH64, a64_cs, a64_cs_want, sizeof(a64_cs) / sizeof(a64_cs[0]));
	rules_are(CWASM_ARCH_X86_64, x86, x86_want, sizeof(x86) / sizeof(x86[0]));
}

/*
 * objdump's sweep (dc__decode_sweep): a jump table's bytes are
 * instructions, an undecodable byte is "(bad)", 8 zero bytes or more are
 * no instruction ("..."), as are 1 or 2 at the very end.
 */
static void test_sweep(void)
{
	/* nop; (bad); 8 zeros; add [rax],al; ret; 2 zeros */
	static const uint8_t code[] = {
		0x90, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0xc3, 0, 0,
	};
	static const uint32_t want_addr[] = { 0, 1, 10, 12 };
	struct dc_vec nv = { 0 };
	struct ap_err err;
	uint8_t out[8];

	CHECK(dc__decode_sweep(CWASM_ARCH_X86_64, code, sizeof(code), 0, &nv, &err) == 0);
	CHECK_EQ_U64(nv.n, 4);
	for (uint32_t i = 0; i < nv.n && i < 4; i++)
		CHECK_EQ_U64(nv.v[i].addr, want_addr[i]);
	CHECK(nv.n > 1 && !strcmp(nv.v[1].text, "(bad)") && nv.v[1].kind == DC_OTHER);
	CHECK(nv.n == 4 && cls_helper__stream(CWASM_ARCH_X86_64, nv.v, nv.n, out) == 0 &&
	      !strcmp(cls_helper__name(out[1]), "other") && !strcmp(cls_helper__name(out[2]), "alu"));
	dc_vec__exit(&nv);
}

int main(void)
{
	set_dir();
	test_pyfloat();
	test_view();
	test_spans();
	test_rules();
	test_sweep();
	CHECK_DONE();
}
