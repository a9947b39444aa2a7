// SPDX-License-Identifier: MIT
/*
 * classify/: exact class counts of hand-written x86-64 and aarch64
 * functions (tests/classify/wamr_*.S, assembled by classify.mk), the text
 * front end against capstone on captured perf annotate output, roles,
 * the table and its JSON.
 *
 * Inputs come from CLASSIFY_DIR (default $BUILD/classify, else
 * build/classify).
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../classify/annotate.h"
#include "../../util/json_out.h"

static char dir[512];

static void set_dir(void)
{
	const char *d = getenv("CLASSIFY_DIR"), *b = getenv("BUILD");

	if (d && *d)
		snprintf(dir, sizeof(dir), "%s", d);
	else if (b && *b)
		snprintf(dir, sizeof(dir), "%s/classify", b);
	else
		snprintf(dir, sizeof(dir), "build/classify");
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
		fprintf(stderr, "cannot open %s (set CLASSIFY_DIR)\n", path);
		return NULL;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/* Print the listing when a count is off: the comment in the .S says why. */
static void dump(const struct cls_func *f)
{
	for (uint32_t i = 0; i < f->ninsns; i++)
		fprintf(stderr, "  %5x %-14s %s\n", f->insns[i].offset,
			cls__name(f->insns[i].cls), f->insns[i].text);
}

static void check_counts(const char *what, const uint32_t *got, const uint32_t *want)
{
	for (int c = 0; c < CLS__COUNT; c++) {
		CHECK_EQ_U64(got[c], want[c]);
		if (got[c] != want[c])
			fprintf(stderr, "  %s: %s\n", what, cls__name(c));
	}
}

static void check_samples(const char *what, const uint64_t *got, const uint64_t *want)
{
	for (int c = 0; c < CLS__COUNT; c++) {
		CHECK_EQ_U64(got[c], want[c]);
		if (got[c] != want[c])
			fprintf(stderr, "  %s: %s\n", what, cls__name(c));
	}
}

/* Samples estimated from two-decimal percentages add up to the header's total, give or take rounding. */
static int near(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	return d * 100 <= b;
}

static void test_names(void)
{
	CHECK(!strcmp(cls__name(CLS_SPILL_RELOAD), "spill_reload"));
	CHECK(!strcmp(cls__name(CLS_ZEXT_MOVE), "zext_move"));
	CHECK(!strcmp(cls__name(CLS_DATA), "data"));
	for (int c = 0; c < CLS__COUNT; c++) {
		CHECK_EQ_U64(cls__by_name(cls__name(c)), c);
		CHECK(strlen(cls__desc(c)) > 10);
	}
	CHECK(cls__by_name("nope") == -1);
}

static void test_roles(void)
{
	struct cls_roles r;
	struct ap_err err = { 0 };
	char buf[96];

	cls__roles_default(CWASM_ARCH_X86_64, &r);
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=rbx,membase=r15,frame=rbp"));
	CHECK(!cls__roles_parse(&r, "vmctx=rcx,membase=none", &err));
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=rcx,membase=none,frame=rbp"));
	CHECK(!cls__roles_parse(&r, "frame=ebp", &err)); /* any width names the family */
	CHECK(cls__roles_parse(&r, "vmctx=xmm0", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "not a general-purpose register");
	CHECK(cls__roles_parse(&r, "stack=rsp", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "unknown role 'stack'");
	CHECK(cls__roles_parse(&r, "vmctx", &err) == -1);

	cls__roles_default(CWASM_ARCH_AARCH64, &r);
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=x19,membase=x28,frame=x29"));
	CHECK(!cls__roles_parse(&r, "membase=x21,vmctx=w20", &err));
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=x20,membase=x21,frame=x29"));
}

static int decode_file(const char *name, enum cwasm_arch arch, const char *roles,
		       struct cls_func *f)
{
	struct cls_roles r;
	struct ap_err err = { 0 };
	size_t len = 0;
	char *buf = slurp(name, &len);
	int ret;

	CHECK(buf != NULL);
	if (!buf)
		return -1;
	cls__roles_default(arch, &r);
	if (roles)
		CHECK(!cls__roles_parse(&r, roles, &err));
	ret = cls__decode(arch, &r, (const uint8_t *)buf, len, 0x10000, f, &err);
	CHECK(ret == 0);
	free(buf);
	return ret;
}

/* Expected counts: see the comment on each line of tests/classify/wamr_x86.S. */
static const uint32_t x86_want[CLS__COUNT] = {
	[CLS_SPILL_RELOAD] = 5, [CLS_FRAME_STORE] = 4, [CLS_REG_MOVE] = 5,
	[CLS_ZEXT_MOVE] = 3, [CLS_ALU] = 13, [CLS_LEA] = 2, [CLS_BOUNDS_CHECK] = 4,
	[CLS_LINEAR_MEM] = 3, [CLS_OTHER_MEM] = 2, [CLS_DISPATCH] = 4,
	[CLS_CALL_DIRECT] = 1, [CLS_CALL_INDIRECT] = 3, [CLS_COND_BRANCH] = 3,
	[CLS_BRANCH] = 2, [CLS_OTHER] = 6, [CLS_DATA] = 5,
};

static const uint32_t a64_want[CLS__COUNT] = {
	[CLS_SPILL_RELOAD] = 4, [CLS_FRAME_STORE] = 2, [CLS_REG_MOVE] = 5,
	[CLS_ZEXT_MOVE] = 3, [CLS_ALU] = 8, [CLS_LEA] = 1, [CLS_BOUNDS_CHECK] = 3,
	[CLS_LINEAR_MEM] = 3, [CLS_OTHER_MEM] = 2, [CLS_DISPATCH] = 4,
	[CLS_CALL_DIRECT] = 1, [CLS_CALL_INDIRECT] = 1, [CLS_COND_BRANCH] = 3,
	[CLS_BRANCH] = 2, [CLS_OTHER] = 6, [CLS_DATA] = 4,
};

static void test_x86(void)
{
	struct cls_func f;
	int fails = check_failed;
	int64_t k;

	if (decode_file("wamr_x86.bin", CWASM_ARCH_X86_64, NULL, &f))
		return;
	check_counts("x86", f.static_count, x86_want);
	if (check_failed != fails)
		dump(&f);
	CHECK_EQ_U64(f.ninsns, 65);
	CHECK_EQ_U64(cls__insn_count(&f), 60);
	CHECK_EQ_U64(f.ndata_bytes, 18); /* 4 table entries + 2 bad bytes */
	/* the jump table right after jmp r10 at +0x8d (3 bytes) */
	k = cls__insn_at(&f, 0x10000 + 0x90);
	CHECK(k > 0 && f.insns[k].cls == CLS_DATA && f.insns[k].size == 4);
	CHECK(k > 0 && f.insns[k - 1].cls == CLS_DISPATCH);
	CHECK_STR_CONTAINS(k > 0 ? f.insns[k - 1].text : NULL, "jmp r10");
	CHECK_EQ_U64(cls__insn_at(&f, 0x10000 + 0x91), k); /* inside the entry */
	CHECK(cls__insn_at(&f, 0x10000 + 0x1000) == -1);
	CHECK(cls__insn_at(&f, 0xffff) == -1);
	CHECK_EQ_U64(f.insns[0].offset, 0);
	CHECK_EQ_U64(f.insns[0].addr, 0x10000);
	cls_func__exit(&f);

	/* v6-style roles: no pinned memory base, vmctx elsewhere; the
	 * structural evidence keeps bounds checks, [base+index] stays linear */
	if (decode_file("wamr_x86.bin", CWASM_ARCH_X86_64, "vmctx=rcx,membase=none", &f))
		return;
	CHECK_EQ_U64(f.static_count[CLS_BOUNDS_CHECK], 4);
	CHECK_EQ_U64(f.static_count[CLS_LINEAR_MEM], 3);
	CHECK_EQ_U64(f.static_count[CLS_DISPATCH], 4);
	cls_func__exit(&f);

	/* a frame role the code does not use: rbp slots become other memory */
	if (decode_file("wamr_x86.bin", CWASM_ARCH_X86_64, "frame=none", &f))
		return;
	CHECK_EQ_U64(f.static_count[CLS_FRAME_STORE], 1); /* [rsp+8] is still the frame */
	CHECK_EQ_U64(f.static_count[CLS_SPILL_RELOAD], 0);
	cls_func__exit(&f);
}

static void test_a64(void)
{
	struct cls_func f;
	int fails = check_failed;

	if (decode_file("wamr_a64.bin", CWASM_ARCH_AARCH64, NULL, &f))
		return;
	check_counts("aarch64", f.static_count, a64_want);
	if (check_failed != fails)
		dump(&f);
	CHECK_EQ_U64(f.ninsns, 52);
	CHECK_EQ_U64(f.ndata_bytes, 16);
	cls_func__exit(&f);
}

/* Samples on a decoded function: the table, its text and JSON. */
static void test_table(void)
{
	struct cls_func f;
	struct cls_table t;
	struct cls_levers l;
	uint64_t *s;
	char *out = NULL;
	size_t outlen = 0;
	FILE *mf;
	struct json_out j;

	if (decode_file("wamr_x86.bin", CWASM_ARCH_X86_64, NULL, &f))
		return;
	s = calloc(f.ninsns, sizeof(*s));
	for (uint32_t i = 0; i < f.ninsns; i++) {
		if (f.insns[i].cls == CLS_SPILL_RELOAD)
			s[i] = 30;
		else if (f.insns[i].cls == CLS_FRAME_STORE)
			s[i] = 10;
		else if (f.insns[i].cls == CLS_ZEXT_MOVE)
			s[i] = 5;
	}
	cls__tabulate(&f, s, &t);
	CHECK_EQ_U64(t.samples[CLS_SPILL_RELOAD], 150);
	CHECK_EQ_U64(t.samples[CLS_FRAME_STORE], 40);
	CHECK_EQ_U64(t.total, 205);
	CHECK_EQ_U64(t.static_count[CLS_ALU], 13);
	cls__levers(&t, &l);
	CHECK(!strcmp(l.verdict, "spill-bound"));
	CHECK(l.stack > 92.6 && l.stack < 92.7);

	mf = open_memstream(&out, &outlen);
	cls__print_table(mf, &t, 1000);
	cls__print_hottest(mf, &f, s, 3, &t, 1000);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "  spill_reload          150   73.17%   15.00%       5\n");
	CHECK_STR_CONTAINS(out, "  total                 205  100.00%   20.50%      60\n");
	CHECK_STR_CONTAINS(out, "stack traffic   spill_reload + frame_store: 190 samples, 92.68% of function (9 static: 5 reloads, 4 stores)");
	CHECK_STR_CONTAINS(out, "=> spill-bound");
	CHECK_STR_CONTAINS(out, "mov rax, qword ptr [rbp - 0x20]");
	free(out);

	out = NULL;
	mf = open_memstream(&out, &outlen);
	json_init(&j, mf);
	json_begin_obj(&j);
	json_key(&j, "classes");
	cls__json(&j, &t, 1000);
	cls__json_levers(&j, &t);
	json_key(&j, "hottest_instructions");
	cls__json_hottest(&j, &f, s, 2, 1000);
	json_end_obj(&j);
	json_finish(&j);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "\"spill_reload\": {\n      \"samples\": 150,\n      \"percent_of_run\": 15.0000,\n      \"static_instructions\": 5,");
	CHECK_STR_CONTAINS(out, "\"verdict\": \"spill-bound\"");
	CHECK_STR_CONTAINS(out, "\"address\": \"0x10018\"");
	free(out);

	/* static only: the verdict weighs static counts */
	cls__tabulate(&f, NULL, &t);
	CHECK_EQ_U64(t.total, 0);
	cls__levers(&t, &l);
	CHECK(l.stack > 14.99 && l.stack < 15.01); /* 9 of 60 */
	free(s);
	cls_func__exit(&f);
}

static int annot(const char *name, const struct cls_annot_opts *o, struct cls_annot *a)
{
	struct ap_err err = { 0 };
	size_t len = 0;
	char *buf = slurp(name, &len);
	int ret;

	CHECK(buf != NULL);
	if (!buf)
		return -1;
	ret = cls__annot_parse(buf, len, name, o, a, &err);
	if (ret)
		fprintf(stderr, "%s\n", err.msg);
	CHECK(ret == 0);
	free(buf);
	return ret;
}

/* Two readings of the same recording must give the same class table. */
static void same_table(const char *x, const struct cls_annot_opts *ox, const char *y,
		       const struct cls_annot_opts *oy, const char *verdict)
{
	static const struct cls_annot_opts def = { 0 };
	struct cls_annot a, b;
	struct cls_levers l;
	int fails = check_failed;

	if (annot(x, ox ? ox : &def, &a))
		return;
	if (annot(y, oy ? oy : &def, &b)) {
		cls_annot__exit(&a);
		return;
	}
	CHECK_EQ_U64(a.n, 1);
	CHECK_EQ_U64(b.n, 1);
	if (a.n == 1 && b.n == 1) {
		const struct cls_table *ta = &a.funcs[0].table, *tb = &b.funcs[0].table;

		CHECK(!strcmp(a.funcs[0].symbol, b.funcs[0].symbol));
		CHECK_EQ_U64(ta->total, tb->total);
		CHECK(ta->total > 0);
		check_samples(x, ta->samples, tb->samples);
		check_counts(x, ta->static_count, tb->static_count);
		cls__levers(ta, &l);
		if (verdict)
			CHECK(!strcmp(l.verdict, verdict));
		if (check_failed != fails)
			fprintf(stderr, "  (%s vs %s; verdict %s)\n", x, y, l.verdict);
	}
	cls_annot__exit(&a);
	cls_annot__exit(&b);
}

static void test_annotate_captures(void)
{
	static const struct cls_annot_opts text = { .ignore_raw = 1 };
	static const struct cls_annot_opts a64text = { .arch = CWASM_ARCH_AARCH64 };
	struct cls_annot a;

	/* spill-heavy kernel: Intel + raw bytes vs AT&T text, and the same file as text */
	same_table("annot-spill-intel-raw.txt", NULL, "annot-spill-att.txt", NULL, "spill-bound");
	same_table("annot-spill-intel-raw.txt", NULL, "annot-spill-intel-raw.txt", &text,
		   "spill-bound");
	/* zero-extend kernel: AT&T percentages vs Intel raw -n counts */
	same_table("annot-zext-intel-raw-n.txt", NULL, "annot-zext-att.txt", NULL, "move-bound");
	same_table("annot-zext-intel-raw-n.txt", NULL, "annot-zext-intel-raw-n.txt", &text,
		   "move-bound");
	/* a C loop (gcc's jump table lives in .rodata) */
	same_table("annot-c-hot-intel-raw.txt", NULL, "annot-c-hot-att.txt", NULL, NULL);
	/* the aarch64 function: words decoded vs its text */
	same_table("wamr_a64.raw.txt", NULL, "wamr_a64.text.txt", &a64text, NULL);

	if (!annot("wamr_a64.raw.txt", &(struct cls_annot_opts){ 0 }, &a)) {
		CHECK_EQ_U64(a.funcs[0].arch, CWASM_ARCH_AARCH64); /* from the 32-bit words */
		CHECK(a.funcs[0].raw);
		check_counts("aarch64 annotate", a.funcs[0].table.static_count, a64_want);
		CHECK(!strcmp(a.funcs[0].symbol, "wamr_a64"));
		cls_annot__exit(&a);
	}

	/* br_table kernel: raw bytes find the exact table; the text estimate
	 * of its extent is off by objdump's misdecode at the table's end,
	 * but the dispatch and the verdict agree */
	if (!annot("annot-brtable-intel-raw.txt", &(struct cls_annot_opts){ 0 }, &a)) {
		struct cls_annot b, c;
		struct cls_levers l;
		const struct cls_annot_func *fa = &a.funcs[0];

		CHECK(fa->raw && !fa->att && fa->weights);
		CHECK(!strcmp(fa->symbol, "br_table_dispatch"));
		CHECK(!strcmp(fa->dso, "kprog"));
		CHECK(!strcmp(fa->event, "cpu-clock"));
		CHECK_EQ_U64(fa->table.static_count[CLS_DATA], 12); /* padding + 11 entries */
		CHECK_EQ_U64(fa->table.static_count[CLS_DISPATCH], 4);
		CHECK_EQ_U64(fa->table.static_count[CLS_BOUNDS_CHECK], 4);
		CHECK_EQ_U64(fa->table.static_count[CLS_CALL_INDIRECT], 1);
		CHECK(near(fa->table.total, fa->header_samples));
		cls__levers(&fa->table, &l);
		CHECK(!strcmp(l.verdict, "dispatch-bound"));
		if (!annot("annot-brtable-att.txt", &(struct cls_annot_opts){ 0 }, &b)) {
			const struct cls_table *tb = &b.funcs[0].table;

			CHECK(b.funcs[0].att && !b.funcs[0].raw);
			CHECK_EQ_U64(tb->samples[CLS_DISPATCH], fa->table.samples[CLS_DISPATCH]);
			CHECK_EQ_U64(tb->samples[CLS_BOUNDS_CHECK], fa->table.samples[CLS_BOUNDS_CHECK]);
			CHECK_EQ_U64(tb->samples[CLS_SPILL_RELOAD], fa->table.samples[CLS_SPILL_RELOAD]);
			CHECK_EQ_U64(tb->static_count[CLS_DISPATCH], 4);
			CHECK_EQ_U64(tb->total, fa->table.total);
			cls_annot__exit(&b);
		}
		/* -n counts: exact samples, same classes as the raw Intel reading */
		if (!annot("annot-brtable-att-raw-n.txt", &(struct cls_annot_opts){ 0 }, &c)) {
			CHECK(!c.funcs[0].weights);
			CHECK(c.funcs[0].raw);
			CHECK_EQ_U64(c.funcs[0].table.total, c.funcs[0].header_samples);
			check_counts("brtable -n", c.funcs[0].table.static_count,
				     fa->table.static_count);
			cls_annot__exit(&c);
		}
		cls_annot__exit(&a);
	}
}

static void test_annotate_multi(void)
{
	static const char *const syms[] = { "br_table_dispatch", "zext_heavy",
					    "bounds_checked_mem", "spill_heavy", "helper_mix" };
	struct cls_annot a;

	if (annot("annot-multi-intel.txt", &(struct cls_annot_opts){ 0 }, &a))
		return;
	CHECK_EQ_U64(a.n, 5);
	for (uint32_t i = 0; i < a.n && i < 5; i++) {
		CHECK(!strcmp(a.funcs[i].symbol, syms[i]));
		CHECK(!a.funcs[i].raw && !a.funcs[i].att);
		CHECK(near(a.funcs[i].table.total, a.funcs[i].header_samples));
	}
	if (a.n == 5) {
		CHECK(a.funcs[3].table.samples[CLS_SPILL_RELOAD] > 0);
		CHECK_EQ_U64(a.funcs[2].table.static_count[CLS_BOUNDS_CHECK], 12);
	}
	cls_annot__exit(&a);
}

/* Single instructions through the text front end, both syntaxes. */
static void test_text_lines(void)
{
	static const struct {
		const char *intel, *att;
		enum cls_class cls;
	} t[] = {
		{ "mov    rax,QWORD PTR [rbp-0x18]", "mov    -0x18(%rbp),%rax", CLS_SPILL_RELOAD },
		{ "mov    DWORD PTR [rbp-0x38],0x0", "movl   $0x0,-0x38(%rbp)", CLS_FRAME_STORE },
		{ "add    QWORD PTR [rsp+0x8],rax", "add    %rax,0x8(%rsp)", CLS_FRAME_STORE },
		{ "inc    DWORD PTR [rbp-0x4]", "incl   -0x4(%rbp)", CLS_FRAME_STORE },
		{ "mul    DWORD PTR [rbp-0x4]", "mull   -0x4(%rbp)", CLS_SPILL_RELOAD },
		{ "mov    esi,esi", "mov    %esi,%esi", CLS_ZEXT_MOVE },
		{ "mov    r10d,r10d", "mov    %r10d,%r10d", CLS_ZEXT_MOVE },
		{ "mov    rsi,rdi", "mov    %rdi,%rsi", CLS_REG_MOVE },
		{ "xchg   ax,ax", "xchg   %ax,%ax", CLS_OTHER },
		{ "mov    eax,r13d", "mov    %r13d,%eax", CLS_REG_MOVE },
		{ "movzx  eax,al", "movzbl %al,%eax", CLS_ALU },
		{ "movsxd rax,ecx", "movslq %ecx,%rax", CLS_ALU },
		{ "cmovb  eax,ecx", "cmovb  %ecx,%eax", CLS_ALU },
		{ "setb   al", "setb   %al", CLS_ALU },
		{ "lea    rdx,[rax+rcx*2+0x8]", "lea    0x8(%rax,%rcx,2),%rdx", CLS_LEA },
		{ "mov    eax,DWORD PTR [r15+rsi*1+0x4]", "mov    0x4(%r15,%rsi,1),%eax", CLS_LINEAR_MEM },
		{ "mov    BYTE PTR [r15+rcx*1],r8b", "mov    %r8b,(%r15,%rcx,1)", CLS_LINEAR_MEM },
		{ "mov    eax,DWORD PTR fs:0x28", "mov    %fs:0x28,%eax", CLS_OTHER_MEM },
		{ "mov    rax,QWORD PTR [rip+0x2fe2]        # 403ff0 <x>", "mov    0x2fe2(%rip),%rax        # 403ff0 <x>", CLS_OTHER_MEM },
		{ "jmp    r10", "jmp    *%r10", CLS_DISPATCH },
		{ "notrack jmp rax", "notrack jmp *%rax", CLS_DISPATCH },
		{ "jmp    QWORD PTR [rax*8+0x402008]", "jmp    *0x402008(,%rax,8)", CLS_DISPATCH },
		{ "jmp    40115a <hot+0x24>", "jmp    40115a <hot+0x24>", CLS_BRANCH },
		{ "jne    4011bb <hot+0x85>", "jne    4011bb <hot+0x85>", CLS_COND_BRANCH },
		{ "call   401030 <printf@plt>", "call   401030 <printf@plt>", CLS_CALL_DIRECT },
		{ "call   r11", "call   *%r11", CLS_CALL_INDIRECT },
		{ "call   QWORD PTR [rbx+0x40]", "call   *0x40(%rbx)", CLS_CALL_INDIRECT },
		{ "cs nop WORD PTR [rax+rax*1+0x0]", "cs nopw 0x0(%rax,%rax,1)", CLS_OTHER },
		{ "push   rbp", "push   %rbp", CLS_OTHER },
		{ "ret", "retq", CLS_OTHER },
		{ "ud2", "ud2", CLS_OTHER },
		{ "(bad)", "(bad)", CLS_DATA },
		{ "cdqe", "cltq", CLS_ALU },
		{ "movaps xmm1,xmm0", "movaps %xmm0,%xmm1", CLS_REG_MOVE },
		{ "movss  xmm0,DWORD PTR [rbp-0x4]", "movss  -0x4(%rbp),%xmm0", CLS_SPILL_RELOAD },
		{ "mov    eax,0x1", "mov    $0x1,%eax", CLS_ALU },
	};
	char *buf;
	size_t cap = 8192, len;

	buf = malloc(cap);
	for (int syn = 0; syn < 2 && buf; syn++) {
		struct cls_annot a;
		struct ap_err err = { 0 };

		len = (size_t)snprintf(buf, cap, " Percent |\tSource code & Disassembly of t for cpu-clock (%zu samples, percent: local period)\n"
				       "---------\n         : 5      0000000000001000 <t>:\n",
				       sizeof(t) / sizeof(t[0]));
		for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
			len += (size_t)snprintf(buf + len, cap - len, "    1.00 :   %zx:       %s\n",
						0x1000 + 16 * i, syn ? t[i].att : t[i].intel);
		if (cls__annot_parse(buf, len, "lines", &(struct cls_annot_opts){ 0 }, &a, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			CHECK(0);
			continue;
		}
		CHECK_EQ_U64(a.funcs[0].func.ninsns, sizeof(t) / sizeof(t[0]));
		CHECK_EQ_U64(a.funcs[0].att, syn);
		for (uint32_t i = 0; i < a.funcs[0].func.ninsns; i++) {
			CHECK_EQ_U64(a.funcs[0].func.insns[i].cls, t[i].cls);
			if (a.funcs[0].func.insns[i].cls != t[i].cls)
				fprintf(stderr, "  '%s' is %s\n", syn ? t[i].att : t[i].intel,
					cls__name(a.funcs[0].func.insns[i].cls));
			CHECK_EQ_U64(a.funcs[0].samples[i], 1);
		}
		cls_annot__exit(&a);
	}
	free(buf);
}

/* Percentages and no total in the header: the table is in hundredths of a percent. */
static void test_percent_only(void)
{
	const char *s = " Percent |\tSource code & Disassembly of x for cpu-clock\n"
			"         : 5      0000000000001000 <f>:\n"
			"   75.00 :   1000:       mov    -0x8(%rbp),%rax\n"
			"   25.00 :   1004:       mov    %eax,%eax\n";
	struct ap_err err = { 0 };
	struct cls_annot a;
	char *out = NULL;
	size_t outlen = 0;
	FILE *mf;

	if (cls__annot_parse(s, strlen(s), "p", &(struct cls_annot_opts){ 0 }, &a, &err)) {
		CHECK(0);
		return;
	}
	CHECK(a.funcs[0].table.percent_only);
	CHECK_EQ_U64(a.funcs[0].table.samples[CLS_SPILL_RELOAD], 7500);
	CHECK_EQ_U64(a.funcs[0].table.samples[CLS_ZEXT_MOVE], 2500);
	CHECK(!strcmp(a.funcs[0].symbol, "f"));
	mf = open_memstream(&out, &outlen);
	cls__annot_print(mf, &a, 5);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "  spill_reload            -   75.00%        -       1\n");
	CHECK_STR_CONTAINS(out, "percentages only (no total in the header)");
	CHECK_STR_CONTAINS(out, "spill_reload + frame_store: 75.00% of function");
	free(out);
	cls_annot__exit(&a);
}

static void test_garbage(void)
{
	static const char *const bad[] = {
		"", "hello world\n", "\x7f" "ELF\x02\x01\x01",
		"Percent | but nothing else\n",
		"    0.00 :   401136: push   %rbx\n", /* lines without a header */
	};
	struct ap_err err = { 0 };
	struct cls_annot a;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(cls__annot_parse(bad[i], strlen(bad[i]), "junk.txt",
				       &(struct cls_annot_opts){ 0 }, &a, &err) == -1);
		CHECK(!strcmp(err.msg, "junk.txt: no perf annotate output found (expected \"Percent |\" blocks)"));
		CHECK(a.n == 0 && a.funcs == NULL);
	}
	/* a header without lines: one empty function, no crash */
	{
		const char *s = " Percent |\tSource code & Disassembly of x for cpu-clock (3 samples, percent: local period)\n";

		CHECK(!cls__annot_parse(s, strlen(s), "h", &(struct cls_annot_opts){ 0 }, &a, &err));
		CHECK_EQ_U64(a.n, 1);
		CHECK_EQ_U64(a.funcs[0].func.ninsns, 0);
		CHECK(!strcmp(a.funcs[0].symbol, "x"));
		cls_annot__exit(&a);
	}
	/* a bad role is an error naming the input */
	{
		size_t len;
		char *buf = slurp("annot-c-hot-att.txt", &len);

		if (buf) {
			CHECK(cls__annot_parse(buf, len, "in.txt",
					       &(struct cls_annot_opts){ .roles = "vmctx=foo" }, &a, &err) == -1);
			CHECK_STR_CONTAINS(err.msg, "in.txt: roles: 'foo'");
			free(buf);
		}
	}
	/* random bytes through capstone: everything is placed, nothing crashes */
	{
		uint8_t junk[4096];
		struct cls_func f;
		uint32_t sum = 0;

		srand(7);
		for (size_t i = 0; i < sizeof(junk); i++)
			junk[i] = (uint8_t)rand();
		for (int arch = CWASM_ARCH_X86_64; arch <= CWASM_ARCH_AARCH64; arch++) {
			uint32_t bytes = 0;

			CHECK(!cls__decode((enum cwasm_arch)arch, NULL, junk, sizeof(junk), 0x1000, &f, &err));
			for (uint32_t i = 0; i < f.ninsns; i++)
				bytes += f.insns[i].size;
			CHECK_EQ_U64(bytes, sizeof(junk));
			sum += f.ninsns;
			cls_func__exit(&f);
		}
		CHECK(sum > 0);
	}
}

int main(void)
{
	set_dir();
	test_names();
	test_roles();
	test_x86();
	test_a64();
	test_table();
	test_annotate_captures();
	test_annotate_multi();
	test_text_lines();
	test_percent_only();
	test_garbage();
	CHECK_DONE();
}
