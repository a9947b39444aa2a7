// SPDX-License-Identifier: MIT
/*
 * loops/: blocks and natural loops of hand-assembled code (the expected
 * loops are read off the bytes below, not computed), and the cpuid to
 * -mcpu mapping against a made-up list of the CPUs an LLVM knows.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../loops/loops.h"
#include "../../loops/mca.h"

/*
 *  0: xor eax, eax
 *  2: xor ecx, ecx        outer header
 *  4: inc eax             inner header
 *  6: cmp eax, 10
 *  9: jb 4                inner back edge
 *  b: inc ecx
 *  d: cmp ecx, 5
 * 10: jb 2                outer back edge
 * 12: ret
 */
static const uint8_t nested[] = {
	0x31, 0xc0, 0x31, 0xc9, 0xff, 0xc0, 0x83, 0xf8, 0x0a, 0x72, 0xf9,
	0xff, 0xc1, 0x83, 0xf9, 0x05, 0x72, 0xf0, 0xc3,
};

static void test_nested(void)
{
	struct cwasm_func fn = { .offset = 0, .size = sizeof(nested) };
	struct cwasm_module m = { .path = "nested", .text = (uint8_t *)nested,
				  .text_size = sizeof(nested), .nfuncs = 1, .funcs = &fn };
	struct cls_func f;
	struct lp_func lf;
	struct ap_err err = { 0 };
	uint64_t *s;

	CHECK(!cls__decode(CWASM_ARCH_X86_64, NULL, nested, sizeof(nested), 0, &f, &err));
	s = calloc(f.ninsns, sizeof(*s));
	for (uint32_t i = 0; i < f.ninsns; i++)	/* 10 samples per inner-loop instruction */
		s[i] = f.insns[i].offset >= 4 && f.insns[i].offset < 0xb ? 10 : 1;
	CHECK(!lp_func__build(&lf, &m, 0, 0, &f, s, &err));
	CHECK_EQ_U64(lf.nblocks, 5);	/* 0, 2, 4, b, 12 */
	CHECK_EQ_U64(lf.nloops, 2);
	if (lf.nloops == 2) {
		const struct lp_loop *in = &lf.loops[0], *out = &lf.loops[1];

		CHECK_EQ_U64(f.insns[lf.blocks[in->header].first].offset, 4);
		CHECK_EQ_U64(in->nblocks, 1);
		CHECK_EQ_U64(in->depth, 2);
		CHECK_EQ_U64(in->parent, 1);
		CHECK_EQ_U64(in->samples, 30);
		CHECK_EQ_U64(in->self_samples, 30);	/* hottest: more self samples than the outer */
		CHECK_EQ_U64(in->static_insns, 3);
		CHECK_EQ_U64(f.insns[lf.blocks[out->header].first].offset, 2);
		CHECK_EQ_U64(out->nblocks, 3);
		CHECK_EQ_U64(out->depth, 1);
		CHECK(out->parent == -1);
		CHECK_EQ_U64(out->samples, 30 + 1 + 3);
		CHECK_EQ_U64(out->self_samples, 1 + 3);
		CHECK_EQ_U64(out->cls_static[CLS_COND_BRANCH], 2);
	}
	lp_func__exit(&lf);
	free(s);
	cls_func__exit(&f);
}

/*
 *  0: push rbp; mov rbp, rsp
 *  4: mov DWORD PTR [rbp-0x10], eax
 *  7: mov eax, DWORD PTR [rbp-0x10]    loop: frame_load
 *  a: add eax, r13d
 *  d: mov eax, eax                     zext_move
 *  f: mov DWORD PTR [rbp-0x10], eax    frame_store
 * 12: add r13d, 1; cmp r13d, r12d; jb 7
 * 1b: pop rbp; ret
 */
static const uint8_t carried[] = {
	0x55, 0x48, 0x89, 0xe5, 0x89, 0x45, 0xf0, 0x8b, 0x45, 0xf0, 0x44, 0x01,
	0xe8, 0x89, 0xc0, 0x89, 0x45, 0xf0, 0x41, 0x83, 0xc5, 0x01, 0x45, 0x39,
	0xe5, 0x72, 0xec, 0x5d, 0xc3,
};

/* The llvm-mca input of each lever: the exact text, read off the bytes above. */
static void test_whatif_text(void)
{
	struct cwasm_func fn = { .offset = 0, .size = sizeof(carried) };
	struct cwasm_module m = { .path = "carried", .text = (uint8_t *)carried,
				  .text_size = sizeof(carried), .nfuncs = 1, .funcs = &fn };
	static const char *const want[] = {
		/* as compiled */
		".L:\n\tmov eax, dword ptr [rbp - 0x10]\n\tadd eax, r13d\n\tmov eax, eax\n"
		"\tmov dword ptr [rbp - 0x10], eax\n\tadd r13d, 1\n\tcmp r13d, r12d\n\tjb .L\n",
		/* zext_move */
		".L:\n\tmov eax, dword ptr [rbp - 0x10]\n\tadd eax, r13d\n"
		"\tmov dword ptr [rbp - 0x10], eax\n\tadd r13d, 1\n\tcmp r13d, r12d\n\tjb .L\n",
		/* frame: the store goes; the load would read eax into eax: it goes too */
		".L:\n\tadd eax, r13d\n\tmov eax, eax\n"
		"\tadd r13d, 1\n\tcmp r13d, r12d\n\tjb .L\n",
	};
	static const uint32_t removed[] = { 0, 1, 2 };
	struct cls_func f;
	struct lp_func lf;
	struct ap_err err = { 0 };

	CHECK(!cls__decode(CWASM_ARCH_X86_64, NULL, carried, sizeof(carried), 0, &f, &err));
	CHECK(!lp_func__build(&lf, &m, 0, 0, &f, NULL, &err));
	CHECK_EQ_U64(lf.nloops, 1);
	for (int lv = -1; lf.nloops == 1 && lv <= LP_FRAME; lv++) {
		struct lp_text t = { 0 };
		uint32_t n;
		uint64_t touched;

		CHECK(!lp_whatif__body(&t, &lf, &lf.loops[0], &f, lv, ".L", &n, &touched));
		CHECK_EQ_U64(n, removed[lv + 1]);
		if (!t.s || strcmp(t.s, want[lv + 1]))
			fprintf(stderr, "lever %d: got\n%s\nwant\n%s\n", lv, t.s ? t.s : "",
				want[lv + 1]);
		CHECK(t.s && !strcmp(t.s, want[lv + 1]));
		lp_text__exit(&t);
	}
	lp_func__exit(&lf);
	cls_func__exit(&f);
}

/*
 * A dispatch into the cases of a counted loop that fall into one another:
 * the branch back goes to the case after the table, which does not
 * dominate it (the other case enters below it).
 *  0: cmp esi, 2; jae 28
 *  5: lea r10, [rip+0xa]; movsxd r11, [r10+rsi*4]; add r10, r11; jmp r10
 * 16: .long 8, 0xa            (cases 1e, 20)
 * 1e: inc ecx                 head
 * 20: add ecx, 2
 * 23: dec rdi
 * 26: jne 1e                  the branch back
 * 28: ret
 */
static const uint8_t into_cases[] = {
	0x83, 0xfe, 0x02, 0x73, 0x23, 0x4c, 0x8d, 0x15, 0x0a, 0x00, 0x00, 0x00,
	0x4d, 0x63, 0x1c, 0xb2, 0x4d, 0x01, 0xda, 0x41, 0xff, 0xe2, 0x08, 0x00,
	0x00, 0x00, 0x0a, 0x00, 0x00, 0x00, 0xff, 0xc1, 0x83, 0xc1, 0x02, 0x48,
	0xff, 0xcf, 0x75, 0xf6, 0xc3,
};

/*
 * Two more shapes, one function each:
 *  rot (0..a), a loop whose header is laid out after its body:
 *   0: jmp 4; 2: inc ecx; 4: dec rdi; 7: jne 2; 9: ret
 *  oot (a..30), a loop reached only through a table after the ret:
 *   a: cmp esi, 2; jae 27; lea r10, [rip+0x12] (28); movsxd; add; jmp r10
 *  20: inc ecx; 22: dec rdi; 25: jne 20; 27: ret; 28: .long -8, -1 (20, 27)
 */
static const uint8_t shapes[] = {
	0xeb, 0x02, 0xff, 0xc1, 0x48, 0xff, 0xcf, 0x75, 0xf9, 0xc3, 0x83, 0xfe,
	0x02, 0x73, 0x18, 0x4c, 0x8d, 0x15, 0x12, 0x00, 0x00, 0x00, 0x4d, 0x63,
	0x1c, 0xb2, 0x4d, 0x01, 0xda, 0x41, 0xff, 0xe2, 0xff, 0xc1, 0x48, 0xff,
	0xcf, 0x75, 0xf9, 0xc3, 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

/* The loops of code[0..len) (decoded at 0): header offset and blocks of each, in order. */
static void check_loops(const uint8_t *code, size_t len, uint32_t nloops, const uint32_t *header,
			const uint32_t *nblocks, const uint32_t *ninsns)
{
	struct cwasm_func fn = { .offset = 0, .size = (uint32_t)len };
	struct cwasm_module m = { .path = "shape", .text = (uint8_t *)code, .text_size = len,
				  .nfuncs = 1, .funcs = &fn };
	struct ap_err err = { 0 };
	struct cls_func f;
	struct lp_func lf;

	CHECK(!cls__decode(CWASM_ARCH_X86_64, NULL, code, len, 0, &f, &err));
	CHECK(!lp_func__build(&lf, &m, 0, 0, &f, NULL, &err));
	CHECK_EQ_U64(lf.nloops, nloops);
	for (uint32_t i = 0; i < lf.nloops && i < nloops; i++) {
		CHECK_EQ_U64(f.insns[lf.blocks[lf.loops[i].header].first].offset, header[i]);
		CHECK_EQ_U64(lf.loops[i].nblocks, nblocks[i]);
		CHECK_EQ_U64(lf.loops[i].static_insns, ninsns[i]);
		/* from the entry: a table's targets are edges, wherever the table is */
		CHECK(lf.blocks[lf.loops[i].header].reached);
	}
	lp_func__exit(&lf);
	cls_func__exit(&f);
}

/* Branches back to a block that does not dominate them, and heads only a table reaches. */
static void test_backward(void)
{
	static const uint32_t h1[] = { 0x1e }, b1[] = { 2 }, n1[] = { 4 };
	static const uint32_t h2[] = { 0x4 }, b2[] = { 2 }, n2[] = { 3 };
	static const uint32_t h3[] = { 0x16 }, b3[] = { 1 }, n3[] = { 3 };

	check_loops(into_cases, sizeof(into_cases), 1, h1, b1, n1);
	/* one loop, not a second one headed by the jne's target */
	check_loops(shapes, 0xa, 1, h2, b2, n2);
	check_loops(shapes + 0xa, sizeof(shapes) - 0xa, 1, h3, b3, n3);
}

static void pick(const char *cpuid, enum cwasm_arch arch, const char *known, const char *want)
{
	struct lp_cpu c = { .source = "test" };
	char mcpu[32], why[256];

	snprintf(c.cpuid, sizeof(c.cpuid), "%s", cpuid);
	lp_mcpu__pick(&c, arch, known, NULL, mcpu, sizeof(mcpu), why, sizeof(why));
	if (strcmp(mcpu, want))
		fprintf(stderr, "%s: got %s, want %s (%s)\n", cpuid, mcpu, want, why);
	CHECK(!strcmp(mcpu, want));
	CHECK(strstr(why, cpuid) != NULL);
}

static void test_mcpu(void)
{
	const char *llvm19 = "Available CPUs for this target:\n\n"
			     "  skylake        - Select the skylake processor.\n"
			     "  skylake-avx512 - Select the skylake-avx512 processor.\n"
			     "  sapphirerapids - Select the sapphirerapids processor.\n"
			     "  znver3         - Select the znver3 processor.\n"
			     "  znver4         - Select the znver4 processor.\n"
			     "  znver5         - Select the znver5 processor.\n";
	const char *llvm14 = "  znver3   - Select the znver3 processor.\n"
			     "  skylake  - Select the skylake processor.\n"
			     "  neoverse-n1 - Select the neoverse-n1 processor.\n";

	pick("AuthenticAMD,26,17,0", CWASM_ARCH_X86_64, llvm19, "znver5");
	pick("AuthenticAMD,26,17,0", CWASM_ARCH_X86_64, llvm14, "znver3");
	pick("AuthenticAMD,25,17,1", CWASM_ARCH_X86_64, llvm19, "znver4");	/* Genoa */
	pick("AuthenticAMD,25,1,1", CWASM_ARCH_X86_64, llvm19, "znver3");	/* Milan */
	pick("GenuineIntel,6,85,7", CWASM_ARCH_X86_64, llvm19, "skylake-avx512");
	pick("GenuineIntel,6,143,8", CWASM_ARCH_X86_64, llvm19, "sapphirerapids");
	pick("GenuineIntel,6,143,8", CWASM_ARCH_X86_64, llvm14, "x86-64");	/* none known */
	pick("GenuineIntel,6,1,1", CWASM_ARCH_X86_64, llvm19, "x86-64");
	pick("0x00000000410fd0c0", CWASM_ARCH_AARCH64, llvm14, "neoverse-n1");
	/* a name that only starts like a known one is not known */
	pick("AuthenticAMD,26,17,0", CWASM_ARCH_X86_64, "  znver55 - x\n  znver4 - y\n", "znver4");
	/* any name (NULL) but those the LLVM refused */
	{
		struct lp_cpu c = { .cpuid = "AuthenticAMD,26,17,0", .source = "test" };
		char mcpu[32], why[256];

		lp_mcpu__pick(&c, CWASM_ARCH_X86_64, NULL, NULL, mcpu, sizeof(mcpu), why, sizeof(why));
		CHECK(!strcmp(mcpu, "znver5"));
		lp_mcpu__pick(&c, CWASM_ARCH_X86_64, NULL, "znver5 ", mcpu, sizeof(mcpu), why,
			      sizeof(why));
		CHECK(!strcmp(mcpu, "znver4"));
	}
	/* models an LLVM's version predates, without running it (Debian 12's llvm is 14) */
	{
		struct lp_cpu c = { .cpuid = "AuthenticAMD,26,17,0", .source = "test" };
		char too[160], mcpu[32], why[256];

		lp_mcpu__too_new(14, too, sizeof(too));
		CHECK(!strcmp(too, "znver5 znver4 emeraldrapids graniterapids "));
		lp_mcpu__pick(&c, CWASM_ARCH_X86_64, NULL, too, mcpu, sizeof(mcpu), why, sizeof(why));
		CHECK(!strcmp(mcpu, "znver3"));
		/* an Emerald Rapids (family 6 model 0xcf) on LLVM 14: Sapphire Rapids */
		struct lp_cpu emr = { .cpuid = "GenuineIntel,6,207,2", .source = "test" };

		lp_mcpu__pick(&emr, CWASM_ARCH_X86_64, NULL, too, mcpu, sizeof(mcpu), why, sizeof(why));
		CHECK(!strcmp(mcpu, "sapphirerapids"));
		lp_mcpu__too_new(16, too, sizeof(too));
		CHECK(!strcmp(too, "znver5 emeraldrapids "));
		lp_mcpu__too_new(19, too, sizeof(too));
		CHECK(!*too);
		lp_mcpu__too_new(0, too, sizeof(too));	/* unknown version: llvm-mca decides */
		CHECK(!*too);
	}
}

int main(void)
{
	test_nested();
	test_backward();
	test_whatif_text();
	test_mcpu();
	CHECK_DONE();
}
