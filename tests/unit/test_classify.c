// SPDX-License-Identifier: MIT
/*
 * classify/: exact class counts, per container version and ABI, of the
 * generators' idioms (tests/classify/idiom_*, assembled by classify.mk,
 * expected counts from the tags in their source), of the recorded
 * fixtures' kernels and of the real compiler's sample; inferred roles and
 * their override; the helper's names; the text front end against capstone
 * on captured perf annotate output; the table and its JSON.
 *
 * Inputs come from CLASSIFY_DIR (default $BUILD/classify, else
 * build/classify).
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../classify/annotate.h"
#include "../../decode/decode.h"
#include "../../util/json_out.h"
#include "../../render/annotate.h"
#include "../../render/classes.h"
#include "../../view/table.h"

static char dir[512];

/* The upstream skill's register table, for captures of code written in its idioms. */
#define PINNED "vmctx=rbx,membase=r15"

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
	CHECK(!strcmp(cls__name(CLS_FRAME_LOAD), "frame_load"));
	CHECK(!strcmp(cls__name(CLS_VMCTX_RELOAD), "vmctx_reload"));
	CHECK(!strcmp(cls__name(CLS_ZEXT_MOVE), "zext_move"));
	CHECK(!strcmp(cls__name(CLS_DATA), "data"));
	for (int c = 0; c < CLS__COUNT; c++) {
		CHECK_EQ_U64(cls__by_name(cls__name(c)), c);
		CHECK(strlen(cls__desc(c)) > 10);
	}
	CHECK(cls__by_name("nope") == -1);
	CHECK(cls__by_name("spill_reload") == -1); /* the old name is gone */
	CHECK(!strcmp(cls__detail_name(CLS_D_BOUNDS_CMP), "bounds_cmp"));
	CHECK(cls__detail_name(CLS_D_NONE) == NULL);
}

static void test_roles(void)
{
	struct cls_roles r;
	struct ap_err err = { 0 };
	char buf[96];

	cls__roles_default(CWASM_ARCH_X86_64, &r);
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=none,membase=none,frame=none"));
	CHECK(!cls__roles_parse(&r, "vmctx=rcx,membase=none", &err));
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=rcx,membase=none,frame=none"));
	CHECK(!cls__roles_parse(&r, "frame=ebp", &err)); /* any width names the family */
	CHECK_EQ_U64(r.frame, X86_RBP);
	CHECK(cls__roles_parse(&r, "vmctx=xmm0", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "not a general-purpose register");
	CHECK(cls__roles_parse(&r, "stack=rsp", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "unknown role 'stack'");
	CHECK(cls__roles_parse(&r, "vmctx", &err) == -1);

	cls__roles_default(CWASM_ARCH_AARCH64, &r);
	CHECK(!cls__roles_parse(&r, "membase=x21,vmctx=w20", &err));
	cls__roles_str(&r, buf, sizeof(buf));
	CHECK(!strcmp(buf, "vmctx=x20,membase=x21,frame=none"));
}

static struct cwasm_module *read_module(const char *name)
{
	char path[1024];
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (cwasm__read(path, &m, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return NULL;
	}
	return m;
}

static int64_t func_by_name(const struct cwasm_module *m, const char *name)
{
	for (uint32_t f = 0; f < m->nfuncs; f++)
		if (m->funcs[f].name && !strcmp(m->funcs[f].name, name))
			return f;
	return -1;
}

/*
 * Every function listed in EXPECT ("FUNCTION CLASS COUNT", from the tags
 * in the fixture's source) has exactly those static counts, and zero of
 * every other class. skip: a function whose end the linker pads.
 */
static uint32_t check_expect(const char *cwasm, const char *expect, const char *skip)
{
	struct cwasm_module *m = read_module(cwasm);
	size_t len = 0;
	char *text = slurp(expect, &len), *line, *save = NULL;
	char cur[64] = "";
	uint32_t want[CLS__COUNT] = { 0 }, nfuncs = 0;
	int fails = check_failed;

	CHECK(m && text);
	if (!m || !text) {
		free(text);
		if (m)
			cwasm__delete(m);
		return 0;
	}
	/* one extra empty line flushes the last function */
	for (line = strtok_r(text, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
		char fn[64] = "", cname[32] = "";
		unsigned n = 0;

		if (line && sscanf(line, "%63s %31s %u", fn, cname, &n) != 3)
			continue;
		if (cur[0] && (!line || strcmp(fn, cur))) {
			int64_t k = func_by_name(m, cur);
			struct cls_func f;
			struct ap_err err = { 0 };

			CHECK(k >= 0);
			if (k >= 0 && (!skip || strcmp(cur, skip)) &&
			    !cls__classify_func(m, (uint32_t)k, CWASM_ARCH_UNKNOWN, NULL, 0, &f, &err)) {
				fails = check_failed;
				check_counts(cur, f.static_count, want);
				if (check_failed != fails) {
					fprintf(stderr, "%s: %s\n", cwasm, cur);
					dump(&f);
				}
				nfuncs++;
				cls_func__exit(&f);
			}
			memset(want, 0, sizeof(want));
		}
		if (!line)
			break;
		snprintf(cur, sizeof(cur), "%s", fn);
		CHECK(cls__by_name(cname) >= 0);
		if (cls__by_name(cname) >= 0)
			want[cls__by_name(cname)] = n;
	}
	free(text);
	cwasm__delete(m);
	return nfuncs;
}

/* The roles the code shows, per version and ABI. */
static void check_roles(const char *cwasm, const char *fn, enum cwasm_abi abi,
			enum cls_abi_source src, const char *describe)
{
	struct cwasm_module *m = read_module(cwasm);
	struct cls_func f;
	struct ap_err err = { 0 };
	char buf[320];
	int64_t k;

	if (!m)
		return;
	k = func_by_name(m, fn);
	CHECK(k >= 0);
	if (k >= 0 && !cls__classify_func(m, (uint32_t)k, CWASM_ARCH_UNKNOWN, NULL, 0, &f, &err)) {
		CHECK_EQ_U64(f.roles.abi, abi);
		CHECK_EQ_U64(f.roles.abi_source, src);
		cls__roles_describe(&f.roles, buf, sizeof(buf));
		CHECK(!strcmp(buf, describe));
		if (strcmp(buf, describe))
			fprintf(stderr, "  %s %s: roles '%s'\n", cwasm, fn, buf);
		cls_func__exit(&f);
	}
	cwasm__delete(m);
}

static void test_idioms(void)
{
	static const char *const x86[] = { "x86_v6", "x86_v7", "x86_v9", "x86_v11_sysv",
					   "x86_v11_win64", "a64_v11" };
	char a[64], b[64];

	for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++) {
		snprintf(a, sizeof(a), "%s.cwasm", x86[i]);
		snprintf(b, sizeof(b), "%s.expect", x86[i]);
		CHECK_EQ_U64(check_expect(a, b, NULL), 5);
	}
	check_roles("x86_v6.cwasm", "f_load_store", CWASM_ABI_WIN64, CLS_ABI_PROLOGUE,
		    "abi win64 (prologue), vmctx rcx -> [rbp-0x8], in r10; membase r10");
	check_roles("x86_v7.cwasm", "f_load_store", CWASM_ABI_SYSV, CLS_ABI_PROLOGUE,
		    "abi sysv (prologue), vmctx rdi -> [rbp-0x8], in r10; membase r10");
	check_roles("x86_v9.cwasm", "f_call_indirect", CWASM_ABI_SYSV, CLS_ABI_PROLOGUE,
		    "abi sysv (prologue), vmctx rdi -> [rbp-0x8], in r10; membase not loaded");
	check_roles("x86_v11_sysv.cwasm", "f_load_store", CWASM_ABI_SYSV, CLS_ABI_TARGET,
		    "abi sysv (target), vmctx rdi -> [rbp-0x8], in r10; membase r10");
	check_roles("x86_v11_win64.cwasm", "f_load_store", CWASM_ABI_WIN64, CLS_ABI_TARGET,
		    "abi win64 (target), vmctx rcx -> [rbp-0x8], in r10; membase r10");
	check_roles("a64_v11.cwasm", "a_load_store", CWASM_ABI_AAPCS64, CLS_ABI_TARGET,
		    "abi aapcs64 (target), vmctx x0 -> [x29+0x10], in x19; membase x20");
}

/*
 * Registers pinned module-wide, never loaded in the function: rbx/r15
 * (x86), x19/x20 (aarch64); none where the code shows no such register.
 */
static void test_pinned(void)
{
	CHECK_EQ_U64(check_expect("x86_pinned.cwasm", "x86_pinned.expect", NULL), 4);
	check_roles("x86_pinned.cwasm", "p_load_store", CWASM_ABI_SYSV, CLS_ABI_TARGET,
		    "abi sysv (target), vmctx pinned rbx; membase pinned r15");
	check_roles("x86_pinned.cwasm", "p_after_call", CWASM_ABI_SYSV, CLS_ABI_TARGET,
		    "abi sysv (target), vmctx pinned rbx; membase pinned r15");
	check_roles("x86_pinned.cwasm", "p_br_table", CWASM_ABI_SYSV, CLS_ABI_TARGET,
		    "abi sysv (target), vmctx rdi; membase not loaded");
	check_roles("x86_pinned.cwasm", "p_no_pin", CWASM_ABI_SYSV, CLS_ABI_TARGET,
		    "abi sysv (target), vmctx rdi; membase not loaded");
	check_roles("a64_v11.cwasm", "a_pinned", CWASM_ABI_AAPCS64, CLS_ABI_TARGET,
		    "abi aapcs64 (target), vmctx pinned x19; membase pinned x20");
	/* the per-function idioms keep their roles (test_idioms): nothing pinned there */
	check_roles("x86_v9.cwasm", "f_load_store", CWASM_ABI_SYSV, CLS_ABI_PROLOGUE,
		    "abi sysv (prologue), vmctx rdi -> [rbp-0x8], in r10; membase r10");
}

/* The recorded fixtures' kernels, v7 and v6 containers: the same code, the same classes. */
static void test_kernels(void)
{
	CHECK_EQ_U64(check_expect("../fixtures/sample.cwasm", "kernels.expect",
				  "entry_bounds_checked_mem"), 8);
	CHECK_EQ_U64(check_expect("../fixtures/sample_v6.cwasm", "kernels.expect",
				  "entry_bounds_checked_mem"), 8);
}

/*
 * The real compiler's output (v6, legacy target, 3 functions): each
 * instruction's class as read from its bytes (tests/fixtures/real/).
 */
static void test_real(void)
{
	static const char *const f01[] = {
		"frame_save", "reg_move", "alu", "vmctx_save", "alu", "zext_move", "reg_move",
		"reg_move", "reg_move", "frame_save", "other",
	};
	static const char *const f2[] = {
		"frame_save", "reg_move", "alu", "vmctx_save",		/* prologue, vmctx -> [rbp-8] */
		"alu", "zext_move", "reg_move", "alu", "zext_move", "reg_move", "reg_move",
		"zext_move", "reg_move", "reg_move",
		"vmctx_reload", "vmctx_field", "alu", "linear_mem",	/* i32.store via r10/r11 */
		"alu", "zext_move", "reg_move", "reg_move", "zext_move",
		"vmctx_reload", "vmctx_field", "alu", "alu", "other_mem",	/* funcptrs[idx] */
		"vmctx_reload", "alu", "call_indirect", "alu",		/* rcx = vmctx, shadow space */
		"zext_move", "reg_move", "alu", "zext_move", "reg_move",
		"vmctx_reload", "vmctx_field", "reg_move", "zext_move", "alu", "linear_mem",
		"zext_move", "reg_move", "reg_move", "reg_move", "frame_save", "other",
	};
	static const char *const f2_helper[] = {
		"frame_store_unattributed", "regmov", "alu", "frame_store_unattributed",
	};
	struct cwasm_module *m = read_module("test_minimal.aot");
	struct ap_err err = { 0 };

	if (!m)
		return;
	CHECK_EQ_U64(m->version, 6);
	CHECK_EQ_U64(m->nfuncs, 3);
	for (uint32_t fn = 0; fn < 3 && fn < m->nfuncs; fn++) {
		const char *const *want = fn < 2 ? f01 : f2;
		uint32_t n = fn < 2 ? sizeof(f01) / sizeof(f01[0]) : sizeof(f2) / sizeof(f2[0]);
		struct cls_func f;
		int fails = check_failed;

		if (cls__classify_func(m, fn, CWASM_ARCH_UNKNOWN, NULL, 0, &f, &err)) {
			CHECK(0);
			continue;
		}
		CHECK_EQ_U64(f.ninsns, n);
		for (uint32_t i = 0; i < n && i < f.ninsns; i++)
			CHECK(!strcmp(cls__name(f.insns[i].cls), want[i]));
		CHECK_EQ_U64(f.roles.abi, CWASM_ABI_WIN64);
		CHECK_EQ_U64(f.roles.abi_source, CLS_ABI_PROLOGUE);
		CHECK_EQ_U64(f.roles.vmctx_param, X86_RCX);
		CHECK(f.roles.has_slot && f.roles.slot_disp == -8);
		if (fn == 2) {
			struct cls_table t;
			struct cls_levers l;

			for (uint32_t i = 0; i < 4; i++)
				CHECK(!strcmp(cls__helper_class(&f, i), f2_helper[i]));
			CHECK_EQ_U64(f.insns[15].detail, CLS_D_MEMBASE_LOAD);
			CHECK(!strcmp(cls__helper_class(&f, 17), "mem_access"));
			CHECK(!strcmp(cls__helper_class(&f, 30), "call"));
			cls__tabulate(&f, NULL, &t);
			cls__levers(&t, &l);
			CHECK(l.frame == 0.0); /* every frame access is proven runtime state */
			CHECK(!strcmp(l.verdict, "move-bound"));
			/* 4 vmctx reloads + 3 field loads of 49 statically ... */
			CHECK(l.vmctx > 14.28 && l.vmctx < 14.29);
			/* ... but where the samples fall (as recorded: the reload's
			 * cost lands on the field load after it), vmctx-bound */
			{
				uint64_t *w = calloc(f.ninsns, sizeof(*w));

				for (uint32_t i = 0; w && i < f.ninsns; i++)
					w[i] = f.insns[i].cls == CLS_VMCTX_FIELD ? 100 :
					       f.insns[i].cls == CLS_ZEXT_MOVE ? 5 : 1;
				cls__tabulate(&f, w, &t);
				cls__levers(&t, &l);
				CHECK(!strcmp(l.verdict, "vmctx-bound"));
				free(w);
			}
		}
		if (check_failed != fails)
			dump(&f);
		cls_func__exit(&f);
	}
	/* an unknown architecture is an error, an explicit one overrides it */
	{
		struct cls_func f;

		m->target.arch = CWASM_ARCH_UNKNOWN;
		CHECK(cls__classify_func(m, 2, CWASM_ARCH_UNKNOWN, NULL, 0, &f, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "no known architecture");
		CHECK(!cls__classify_func(m, 2, CWASM_ARCH_X86_64, NULL, 0x1000, &f, &err));
		CHECK_EQ_U64(f.static_count[CLS_LINEAR_MEM], 2);
		CHECK_EQ_U64(f.insns[0].addr, 0x1000 + m->funcs[2].offset);
		cls_func__exit(&f);
		CHECK(cls__classify_func(m, 3, CWASM_ARCH_X86_64, NULL, 0, &f, &err) == -1);
	}
	cwasm__delete(m);
}

/* --roles pins a register for the whole function on top of what the code shows. */
static void test_override(void)
{
	struct cwasm_module *m = read_module("x86_v7.cwasm");
	struct cls_roles r;
	struct cls_func f;
	struct ap_err err = { 0 };
	char buf[320];
	int64_t k;

	if (!m)
		return;
	k = func_by_name(m, "f_call_indirect");
	cls__roles_target(&m->target, &r);
	CHECK(!cls__roles_parse(&r, "membase=rax", &err));
	if (k >= 0 && !cls__classify_func(m, (uint32_t)k, CWASM_ARCH_UNKNOWN, &r, 0, &f, &err)) {
		/* the table read through rax now counts as linear memory */
		CHECK_EQ_U64(f.static_count[CLS_OTHER_MEM], 1);
		CHECK_EQ_U64(f.static_count[CLS_LINEAR_MEM], 1);
		cls__roles_describe(&f.roles, buf, sizeof(buf));
		CHECK_STR_CONTAINS(buf, "; --roles vmctx=none,membase=rax,frame=none");
		cls_func__exit(&f);
	}
	cwasm__delete(m);
}

/* Samples on a decoded function: levers, the verdict, its text and JSON. */
static void test_table(void)
{
	struct cwasm_module *m = read_module("../fixtures/sample.cwasm");
	struct cls_func f;
	struct cls_table t;
	struct cls_levers l;
	struct ap_err err = { 0 };
	struct view_classes vc;
	struct vt_table *hot;
	char roles[320];
	uint64_t *s;
	char *out = NULL;
	size_t outlen = 0;
	FILE *mf;
	struct json_out j;
	int64_t k;
	uint32_t nl = 0, ns = 0, nv = 0;

	if (!m)
		return;
	k = func_by_name(m, "spill_heavy");
	CHECK(k >= 0);
	if (k < 0 || cls__classify_func(m, (uint32_t)k, CWASM_ARCH_UNKNOWN, NULL, 0x400000, &f, &err)) {
		cwasm__delete(m);
		return;
	}
	s = calloc(f.ninsns, sizeof(*s));
	for (uint32_t i = 0; i < f.ninsns; i++) {
		if (f.insns[i].cls == CLS_FRAME_LOAD)
			s[i] = 30, nl++;
		else if (f.insns[i].cls == CLS_FRAME_STORE)
			s[i] = 10, ns++;
		else if (f.insns[i].cls == CLS_VMCTX_RELOAD)
			s[i] = 7, nv++;
		else if (f.insns[i].cls == CLS_ZEXT_MOVE)
			s[i] = 5;
	}
	cls__tabulate(&f, s, &t);
	CHECK_EQ_U64(t.samples[CLS_FRAME_LOAD], 30 * nl);
	CHECK_EQ_U64(t.samples[CLS_FRAME_STORE], 10 * ns);
	CHECK_EQ_U64(t.samples[CLS_VMCTX_RELOAD], 7 * nv);
	CHECK_EQ_U64(t.total, 30 * nl + 10 * ns + 7 * nv + 5 * t.static_count[CLS_ZEXT_MOVE]);
	cls__levers(&t, &l);
	CHECK(!strcmp(l.verdict, "frame traffic"));
	/* proven spills: half of the frame traffic or more is spill-bound */
	cls_table__set_spills(&t, 15 * nl, nl);
	cls__levers(&t, &l);
	CHECK(!strcmp(l.verdict, "frame traffic"));
	cls_table__set_spills(&t, 30 * nl, nl);
	cls__levers(&t, &l);
	CHECK(!strcmp(l.verdict, "spill-bound"));
	t.spills_known = 0;

	/* the class table's view (view/classes.h) in each format */
	CHECK(view_classes__init(&vc, &t, 10 * t.total, 0, &err) == 0);
	hot = view_classes__hottest(&f, s, 3, &t, 10 * t.total, &err);
	CHECK(hot != NULL);
	cls__roles_describe(&f.roles, roles, sizeof(roles));
	mf = open_memstream(&out, &outlen);
	render__classes_text(mf, &vc);
	if (hot)
		render__hottest_text(mf, hot, 80);
	render__roles_text(mf, roles);
	fclose(mf);
	vt_table__delete(hot);
	{
		char want[160];

		snprintf(want, sizeof(want), "  frame_load      %9u ", 30 * nl);
		CHECK_STR_CONTAINS(out, want);
		snprintf(want, sizeof(want), "  vmctx_reload    %9u ", 7 * nv);
		CHECK_STR_CONTAINS(out, want);
	}
	CHECK_STR_CONTAINS(out, "frame traffic   frame_load + frame_store: ");
	CHECK_STR_CONTAINS(out, "=> frame traffic\n");
	CHECK_STR_CONTAINS(out, "sidecar splits it into spills, locals, scratch");
	CHECK_STR_CONTAINS(out, "+0x57    frame_load    mov rax, qword ptr [rbp - 0x38]\n");
	CHECK_STR_CONTAINS(out, "  roles      abi sysv (prologue), vmctx rdi -> [rbp-0x8], in r10; membase r10\n");
	for (char *p = out, *e; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		CHECK((e ? (size_t)(e - p) : strlen(p)) <= 80);
	}
	free(out);

	out = NULL;
	mf = open_memstream(&out, &outlen);
	json_init(&j, mf);
	json_begin_obj(&j);
	json_key(&j, "classes");
	render__classes_json(&j, &vc);
	render__classes_json_levers(&j, &vc);
	hot = view_classes__hottest(&f, s, 2, &t, 10 * t.total, &err);
	json_key(&j, "hottest_instructions");
	if (hot)
		render__hottest_json(&j, hot);
	json_key(&j, "roles");
	render__roles_json(&j, &f.roles);
	json_end_obj(&j);
	vt_table__delete(hot);
	view_classes__exit(&vc);
	json_finish(&j);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "\"frame_load\": {\n      \"samples\": ");
	CHECK_STR_CONTAINS(out, "\"verdict\": \"frame traffic\"");
	CHECK_STR_CONTAINS(out, "\"spills_pct\": null");
	CHECK_STR_CONTAINS(out, "\"helper_class\": \"frame_load_unattributed\"");
	CHECK_STR_CONTAINS(out, "\"vmctx_slot\": \"[rbp-0x8]\"");
	CHECK_STR_CONTAINS(out, "\"abi_source\": \"prologue\"");
	CHECK(strstr(out, "spill_reload") == NULL);
	free(out);

	/* static only: the verdict weighs static counts */
	cls__tabulate(&f, NULL, &t);
	CHECK_EQ_U64(t.total, 0);
	CHECK(t.static_only);
	cls__levers(&t, &l);
	CHECK(l.frame > 0 && !strcmp(l.verdict, "frame traffic"));
	/* and prints and writes no samples: there are none */
	out = NULL;
	CHECK(view_classes__init(&vc, &t, 0, 0, &err) == 0);
	mf = open_memstream(&out, &outlen);
	render__classes_text(mf, &vc);
	fclose(mf);
	{
		char want[160];

		snprintf(want, sizeof(want), "  frame_load      %7u ", nl);
		CHECK_STR_CONTAINS(out, want);
	}
	CHECK_STR_CONTAINS(out, "  class            static  %static\n");
	CHECK_STR_CONTAINS(out, "levers (static) frame ");
	CHECK(strstr(out, "samples") == NULL);
	free(out);
	out = NULL;
	mf = open_memstream(&out, &outlen);
	json_init(&j, mf);
	json_begin_obj(&j);
	json_key(&j, "classes");
	render__classes_json(&j, &vc);
	render__classes_json_levers(&j, &vc);
	json_end_obj(&j);
	view_classes__exit(&vc);
	json_finish(&j);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "\"frame_load\": {\n      \"samples\": null,");
	CHECK_STR_CONTAINS(out, "\"basis\": \"static\"");
	CHECK(strstr(out, "\"samples\": 0") == NULL);
	free(out);
	free(s);
	cls_func__exit(&f);
	cwasm__delete(m);
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
	/* these captures are of kernels in the upstream skill's pinned rbx/r15 idioms */
	static const struct cls_annot_opts pin = { .roles = PINNED };
	static const struct cls_annot_opts text = { .ignore_raw = 1, .roles = PINNED };
	static const struct cls_annot_opts a64text = { .arch = CWASM_ARCH_AARCH64 };
	struct cls_annot a;

	/* spill-heavy kernel: Intel + raw bytes vs AT&T text, and the same file as text */
	same_table("annot-spill-intel-raw.txt", &pin, "annot-spill-att.txt", &pin, "frame traffic");
	same_table("annot-spill-intel-raw.txt", &pin, "annot-spill-intel-raw.txt", &text,
		   "frame traffic");
	/* zero-extend kernel: AT&T percentages vs Intel raw -n counts */
	same_table("annot-zext-intel-raw-n.txt", &pin, "annot-zext-att.txt", &pin, "move-bound");
	same_table("annot-zext-intel-raw-n.txt", &pin, "annot-zext-intel-raw-n.txt", &text,
		   "move-bound");
	/* without the pins the same code has no vmctx to check against */
	same_table("annot-zext-intel-raw-n.txt", NULL, "annot-zext-att.txt", NULL, NULL);
	/* a C loop (gcc's jump table lives in .rodata) */
	same_table("annot-c-hot-intel-raw.txt", NULL, "annot-c-hot-att.txt", NULL, NULL);
	/* the aarch64 idioms: words decoded vs their text, function by function */
	{
		struct cls_annot r, t;

		if (!annot("a64_v11.raw.txt", &(struct cls_annot_opts){ 0 }, &r)) {
			if (!annot("a64_v11.text.txt", &a64text, &t)) {
				CHECK_EQ_U64(r.n, t.n);
				for (uint32_t i = 0; i < r.n && i < t.n; i++) {
					CHECK(!t.funcs[i].raw);
					check_counts(t.funcs[i].symbol, t.funcs[i].table.static_count,
						     r.funcs[i].table.static_count);
					check_samples(t.funcs[i].symbol, t.funcs[i].table.samples,
						      r.funcs[i].table.samples);
				}
				cls_annot__exit(&t);
			}
			cls_annot__exit(&r);
		}
	}

	/* each block (one per function) has exactly the counts its tags say */
	if (!annot("a64_v11.raw.txt", &(struct cls_annot_opts){ 0 }, &a)) {
		size_t len = 0;
		char *want = slurp("a64_v11.expect", &len);

		CHECK_EQ_U64(a.n, 5);
		for (uint32_t i = 0; i < a.n && want; i++) {
			uint32_t exp[CLS__COUNT] = { 0 };
			char fn[64], cname[32], *p = want;
			unsigned k;
			int used;

			CHECK_EQ_U64(a.funcs[i].arch, CWASM_ARCH_AARCH64); /* from the 32-bit words */
			CHECK(a.funcs[i].raw);
			while (sscanf(p, "%63s %31s %u%n", fn, cname, &k, &used) == 3) {
				if (!strcmp(fn, a.funcs[i].symbol) && cls__by_name(cname) >= 0)
					exp[cls__by_name(cname)] = k;
				p += used;
			}
			check_counts(a.funcs[i].symbol, a.funcs[i].table.static_count, exp);
		}
		free(want);
		cls_annot__exit(&a);
	}

	/* br_table kernel: raw bytes find the exact table; the text estimate
	 * of its extent is off by objdump's misdecode at the table's end,
	 * but the dispatch and the verdict agree */
	if (!annot("annot-brtable-intel-raw.txt", &pin, &a)) {
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
		if (!annot("annot-brtable-att.txt", &pin, &b)) {
			const struct cls_table *tb = &b.funcs[0].table;

			CHECK(b.funcs[0].att && !b.funcs[0].raw);
			CHECK_EQ_U64(tb->samples[CLS_DISPATCH], fa->table.samples[CLS_DISPATCH]);
			CHECK_EQ_U64(tb->samples[CLS_BOUNDS_CHECK], fa->table.samples[CLS_BOUNDS_CHECK]);
			CHECK_EQ_U64(tb->samples[CLS_FRAME_LOAD], fa->table.samples[CLS_FRAME_LOAD]);
			CHECK_EQ_U64(tb->static_count[CLS_DISPATCH], 4);
			CHECK_EQ_U64(tb->total, fa->table.total);
			cls_annot__exit(&b);
		}
		/* -n counts: exact samples, same classes as the raw Intel reading */
		if (!annot("annot-brtable-att-raw-n.txt", &pin, &c)) {
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

	if (annot("annot-multi-intel.txt", &(struct cls_annot_opts){ .roles = PINNED }, &a))
		return;
	CHECK_EQ_U64(a.n, 5);
	for (uint32_t i = 0; i < a.n && i < 5; i++) {
		CHECK(!strcmp(a.funcs[i].symbol, syms[i]));
		CHECK(!a.funcs[i].raw && !a.funcs[i].att);
		CHECK(near(a.funcs[i].table.total, a.funcs[i].header_samples));
	}
	if (a.n == 5) {
		CHECK(a.funcs[3].table.samples[CLS_FRAME_LOAD] > 0);
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
		{ "push   rbp", "push   %rbp", CLS_FRAME_SAVE },
		{ "mov    rax,QWORD PTR [rbp-0x18]", "mov    -0x18(%rbp),%rax", CLS_FRAME_LOAD },
		{ "mov    DWORD PTR [rbp-0x38],0x0", "movl   $0x0,-0x38(%rbp)", CLS_FRAME_STORE },
		{ "add    QWORD PTR [rsp+0x8],rax", "add    %rax,0x8(%rsp)", CLS_FRAME_STORE },
		{ "inc    DWORD PTR [rbp-0x4]", "incl   -0x4(%rbp)", CLS_FRAME_STORE },
		{ "mul    DWORD PTR [rbp-0x4]", "mull   -0x4(%rbp)", CLS_FRAME_LOAD },
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
		{ "mov    rcx,QWORD PTR [rbx+0x10]", "mov    0x10(%rbx),%rcx", CLS_VMCTX_FIELD },
		{ "cmp    rcx,QWORD PTR [rbx+0x8]", "cmp    0x8(%rbx),%rcx", CLS_BOUNDS_CHECK },
		{ "ja     1200 <t+0x200>", "ja     1200 <t+0x200>", CLS_BOUNDS_CHECK },
		{ "mov    eax,DWORD PTR fs:0x28", "mov    %fs:0x28,%eax", CLS_OTHER_MEM },
		{ "mov    rax,QWORD PTR [rip+0x2fe2]        # 403ff0 <x>", "mov    0x2fe2(%rip),%rax        # 403ff0 <x>", CLS_OTHER_MEM },
		{ "cdqe", "cltq", CLS_ALU },
		{ "movaps xmm1,xmm0", "movaps %xmm0,%xmm1", CLS_REG_MOVE },
		{ "movss  xmm0,DWORD PTR [rbp-0x4]", "movss  -0x4(%rbp),%xmm0", CLS_FRAME_LOAD },
		{ "mov    eax,0x1", "mov    $0x1,%eax", CLS_ALU },
		{ "jne    1010 <t+0x10>", "jne    1010 <t+0x10>", CLS_COND_BRANCH },
		{ "call   401030 <printf@plt>", "call   401030 <printf@plt>", CLS_CALL_DIRECT },
		{ "call   r11", "call   *%r11", CLS_CALL_INDIRECT },
		{ "call   QWORD PTR [rbx+0x40]", "call   *0x40(%rbx)", CLS_CALL_INDIRECT },
		{ "cs nop WORD PTR [rax+rax*1+0x0]", "cs nopw 0x0(%rax,%rax,1)", CLS_OTHER },
		{ "jmp    r10", "jmp    *%r10", CLS_DISPATCH },
		{ "notrack jmp rax", "notrack jmp *%rax", CLS_DISPATCH },
		{ "jmp    QWORD PTR [rax*8+0x402008]", "jmp    *0x402008(,%rax,8)", CLS_DISPATCH },
		{ "jmp    1020 <t+0x20>", "jmp    1020 <t+0x20>", CLS_BRANCH },
		{ "jmp    40115a <other+0x24>", "jmp    40115a <other+0x24>", CLS_TAIL_CALL },
		{ "ret", "retq", CLS_OTHER },
		{ "ud2", "ud2", CLS_TRAP },
		{ "(bad)", "(bad)", CLS_DATA },
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
		if (cls__annot_parse(buf, len, "lines", &(struct cls_annot_opts){ .roles = PINNED },
				     &a, &err)) {
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

/* The sample count of the entry at addr, or -1 without one there. */
static int64_t at(const struct cls_annot_func *fn, uint64_t addr)
{
	int64_t k = cls__insn_at(&fn->func, addr);

	return k >= 0 && fn->func.insns[k].addr == addr ? (int64_t)fn->samples[k] : -1;
}

/*
 * Lines of perf annotate that objdump began inside a jump table (its
 * decode of the table's words runs past the table's end): samples go to
 * the one instruction starting inside a line; a line over two starts
 * stays out of the table until the recording's own samples split it.
 * The code: a dispatch into a loop's cases (tests/unit/test_loops.c),
 * table at 1016 (entries 101e, 1020), inc ecx 101e, add ecx, 2 1020,
 * dec rdi 1023, jne 1026, ret 1028.
 */
static void test_annotate_lines(void)
{
	static const char listing[] =
		" Samples |\tSource code & Disassembly of t.so for cpu-clock (31 samples, percent: local period)\n"
		"         :      0000000000001000 <f>:\n"
		"       0 :   1000:   83 fe 02                cmp    esi,0x2\n"
		"       0 :   1003:   73 23                   jae    1028 <f+0x28>\n"
		"       0 :   1005:   4c 8d 15 0a 00 00 00    lea    r10,[rip+0xa]\n"
		"       0 :   100c:   4d 63 1c b2             movsxd r11,DWORD PTR [r10+rsi*4]\n"
		"       0 :   1010:   4d 01 da                add    r10,r11\n"
		"       0 :   1013:   41 ff e2                jmp    r10\n"
		"       1 :   1016:   08 00                   or     BYTE PTR [rax],al\n"
		"       0 :   1018:   00 00 0a 00             add    BYTE PTR [rax],al\n"
		"       5 :   101c:   00 00 ff                add    bh,bh\n"
		"      20 :   101f:   c1 83 c1 02 48 ff       rol    DWORD PTR [rbx],0x2\n"
		"       2 :   1025:   cf                      iret\n"
		"       3 :   1026:   75 f6                   jne    101e <f+0x1e>\n"
		"       0 :   1028:   c3                      ret\n";
	static uint64_t bytes[0x29];
	struct cls_annot a, exact = { 0 };
	struct cls_annot_func e = { .symbol = "f", .dso = "t.so", .byte_samples = bytes,
				    .byte_addr = 0x1000, .byte_len = sizeof(bytes) / sizeof(bytes[0]) };
	struct ap_err err = { 0 };
	const struct cls_annot_func *fn;
	char *out = NULL;
	size_t len = 0;
	FILE *mf;

	if (cls__annot_parse(listing, strlen(listing), "lines", &(struct cls_annot_opts){ 0 }, &a,
			     &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return;
	}
	fn = &a.funcs[0];
	CHECK(fn->raw);
	CHECK_EQ_U64(fn->func.static_count[CLS_DATA], 2);
	CHECK_EQ_U64(fn->table.samples[CLS_DATA], 1);	/* a line of table words only */
	CHECK_EQ_U64(at(fn, 0x101e), 5);		/* the one start in [101c, 101f) */
	CHECK_EQ_U64(fn->realigned, 5);
	CHECK_EQ_U64(fn->nrealigned, 1);
	CHECK_EQ_U64(at(fn, 0x1020), 0);		/* [101f, 1025): two starts */
	CHECK_EQ_U64(fn->ambiguous, 20);
	CHECK_EQ_U64(fn->nspans, 1);
	CHECK(fn->nspans == 1 && fn->spans[0].addr == 0x101f && fn->spans[0].end == 0x1025);
	CHECK_EQ_U64(at(fn, 0x1023), 2);		/* no start in [1025, 1026): its holder */
	CHECK_EQ_U64(fn->table.total, 11);
	mf = open_memstream(&out, &len);
	CHECK(render__annot_print(mf, &a, 10, &err) == 0);
	fclose(mf);
	CHECK(strstr(out, "ambiguous  20 samples on 1 line over several") != NULL);
	CHECK(strstr(out, "realigned  5 samples on 1 line") != NULL);
	CHECK(strstr(out, "on data    1 samples at data addresses (inline_data_or_sample_skid)"));
	CHECK(strstr(out, "inline_data_or_sample_skid: .long") != NULL);
	free(out);

	/* the recording's bytes: a sum other than the line's splits nothing */
	exact.funcs = &e;
	exact.n = 1;
	bytes[0x20] = 12;
	bytes[0x23] = 7;
	CHECK_EQ_U64(cls_annot__resolve(&a, &exact), 20);
	CHECK_EQ_U64(at(fn, 0x1020), 0);
	bytes[0x23] = 8;
	CHECK_EQ_U64(cls_annot__resolve(&a, &exact), 0);
	CHECK_EQ_U64(at(fn, 0x1020), 12);
	CHECK_EQ_U64(at(fn, 0x1023), 10);
	CHECK_EQ_U64(fn->resolved, 20);
	CHECK_EQ_U64(fn->table.total, 31);
	CHECK(fn->spans[0].resolved);
	cls_annot__exit(&a);
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
	CHECK_EQ_U64(a.funcs[0].table.samples[CLS_FRAME_LOAD], 7500);
	CHECK_EQ_U64(a.funcs[0].table.samples[CLS_ZEXT_MOVE], 2500);
	CHECK(!strcmp(a.funcs[0].symbol, "f"));
	mf = open_memstream(&out, &outlen);
	CHECK(render__annot_print(mf, &a, 5, &err) == 0);
	fclose(mf);
	CHECK_STR_CONTAINS(out, "  frame_load              -   75.00%        -       1\n");
	CHECK_STR_CONTAINS(out, "percentages only (no total in the header)");
	CHECK_STR_CONTAINS(out, "frame_load + frame_store: 75.00% of function");
	free(out);
	cls_annot__exit(&a);
}

static void test_garbage(void)
{
	static const char *const bad[] = {
		"", "hello world\n", "\177ELF\002\001\001",
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
	/*
	 * A comment marker inside the first word of an instruction once made
	 * the operand length negative (found by fuzzing): these parse.
	 */
	{
		static const struct {
			const char *text;
			enum cwasm_arch arch;
		} cm[] = {
			{ "|Disassembly of \n1:1:#\n", CWASM_ARCH_UNKNOWN },	/* 23 bytes */
			{ " |Disassembly of \n1 :1: a#b c\n", CWASM_ARCH_UNKNOWN },
			{ " |Disassembly of \n1 :1: mov#rax,rbx # 1000\n", CWASM_ARCH_X86_64 },
			{ " |Disassembly of \n1 :1: ldr//x0, [x1]\n", CWASM_ARCH_AARCH64 },
			{ " |Disassembly of \n1 :1: //\n1 :2: b.eq//\n", CWASM_ARCH_AARCH64 },
			{ " |Disassembly of \n1 :1: #\n1 :2: ##\n1 :3: j#mp *%rax\n", CWASM_ARCH_X86_64 },
		};

		for (size_t i = 0; i < sizeof(cm) / sizeof(cm[0]); i++) {
			CHECK(!cls__annot_parse(cm[i].text, strlen(cm[i].text), "cm",
						&(struct cls_annot_opts){ .arch = cm[i].arch }, &a, &err));
			CHECK(a.n == 1 && a.funcs[0].func.ninsns >= 1);
			cls_annot__exit(&a);
		}
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
	test_idioms();
	test_pinned();
	test_kernels();
	test_real();
	test_override();
	test_table();
	test_annotate_captures();
	test_annotate_multi();
	test_text_lines();
	test_annotate_lines();
	test_percent_only();
	test_garbage();
	CHECK_DONE();
}
