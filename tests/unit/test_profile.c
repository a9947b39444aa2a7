// SPDX-License-Identifier: MIT
/*
 * The shared analysis without perf: core sets and function specs (an
 * ambiguous index or name is an error listing the candidates), pins, the
 * per-offset histogram, a profile fed sample by sample as the dlfilter
 * feeds it (counts, rankings, --hot picks, classification weighted by the
 * histogram) and its report, text and JSON. Every expected number is known
 * by construction from the samples fed in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../cwasm/coreset.h"
#include "../../cwasm/json_read.h"
#include "../../profile/profile.h"
#include "../../render/report.h"
#include "../../util/sha256.h"

static char dir[256];

static const char *path_in(const char *name)
{
	static char buf[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

/* A core of nfuncs functions at offs in 64 zero bytes of text, named names[i]. */
static void write_core(const char *name, uint32_t nfuncs, const uint32_t *offs,
		       const char *const *names, char hex[65])
{
	static const uint8_t text[64];
	struct cwasm_name_spec ns[8];
	struct cwasm_spec s;
	struct ap_err err;
	uint8_t *buf, d[32];
	size_t len;

	memset(&s, 0, sizeof(s));
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = nfuncs;
	s.offsets = offs;
	for (uint32_t i = 0; i < nfuncs; i++)
		ns[i] = (struct cwasm_name_spec){ i, names[i] };
	s.nnames = nfuncs;
	s.names = ns;
	CHECK(cwasm__write(path_in(name), &s, &err) == 0);
	CHECK(cwasm__build(&s, &buf, &len, &err) == 0);
	ap_sha256(buf, len, d);
	ap_sha256_hex(d, hex);
	free(buf);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* a.cwasm alone, then the manifest comp.cwasm.json of b (mod4) and c (mod7). */
static void make_cores(struct core_set *cs)
{
	static const uint32_t oa[] = { 0, 16, 32 }, ob[] = { 0, 16, 32, 48, 56 }, oc[] = { 0, 32 };
	static const char *const na[] = { "alpha", "dup", "gamma" };
	static const char *const nb[] = { "dup", "b1", "twice", "twice", "b4" };
	static const char *const nc[] = { "dup", "c1" };
	char ha[65], hb[65], hc[65], json[1024];
	struct ap_err err = { 0 };

	write_core("a.cwasm", 3, oa, na, ha);
	write_core("comp.4.cwasm", 5, ob, nb, hb);
	write_core("comp.7.cwasm", 2, oc, nc, hc);
	snprintf(json, sizeof(json),
		 "{\"version\": 2, \"modules\": ["
		 "{\"idx\": 4, \"path\": \"comp.4.cwasm\", \"sha256\": \"%s\"},"
		 "{\"idx\": 7, \"path\": \"comp.7.cwasm\", \"sha256\": \"%s\"}]}\n", hb, hc);
	write_text(path_in("comp.cwasm.json"), json);
	memset(cs, 0, sizeof(*cs));
	CHECK(core_set__add(cs, path_in("a.cwasm"), &err) == 0);
	CHECK(core_set__add(cs, path_in("comp.cwasm.json"), &err) == 0);
	if (err.msg[0])
		fprintf(stderr, "core set: %s\n", err.msg);
}

static void expect_spec(const struct core_set *cs, const char *spec, int core, int func)
{
	struct core_func f = { 99, 99 };
	struct ap_err err = { 0 };
	int ret = core_set__resolve(cs, spec, &f, &err);

	if (ret || (int)f.core != core || (int)f.func != func)
		fprintf(stderr, "  spec %s: ret %d core %u func %u (%s)\n", spec, ret, f.core,
			f.func, err.msg);
	CHECK(ret == 0 && (int)f.core == core && (int)f.func == func);
}

static void expect_bad_spec(const struct core_set *cs, const char *spec, const char *phrase)
{
	struct core_func f;
	struct ap_err err = { 0 };

	CHECK(core_set__resolve(cs, spec, &f, &err) == -1);
	CHECK(err.kind == AP_ERR_INPUT);
	CHECK(!strncmp(err.msg, spec, strlen(spec)));	/* the front end puts its option first */
	CHECK_STR_CONTAINS(err.msg, phrase);
}

static void test_coreset(const struct core_set *cs)
{
	CHECK_EQ_U64(cs->n, 3);
	CHECK_EQ_U64(cs->nfiles, 1);
	CHECK_EQ_U64(cs->nmans, 1);
	CHECK_EQ_U64(cs->ninputs, 4);	/* a, the manifest, its two cores */
	CHECK_EQ_U64(cs->warnings.n, 0);
	CHECK(!strcmp(core_set__core_name(cs->mods[1]), "mod4"));
	CHECK(!strcmp(core_set__core_name(cs->mods[0]), path_in("a.cwasm")));

	expect_spec(cs, "gamma", 0, 2);
	expect_spec(cs, "4", 1, 4);		/* only mod4 has a function 4 */
	expect_spec(cs, "local_func_4", 1, 4);
	expect_spec(cs, "mod7:dup", 2, 0);
	expect_spec(cs, "mod7:local_func_1", 2, 1);
	expect_spec(cs, "mod4:2", 1, 2);
	expect_spec(cs, "b4", 1, 4);
	/* the same index in several cores: never a silent pick */
	expect_bad_spec(cs, "1", "3 functions match");
	expect_bad_spec(cs, "1", "mod4:1 (b1)");
	expect_bad_spec(cs, "1", "mod7:1 (c1)");
	expect_bad_spec(cs, "1", "a.cwasm local_func_1 (dup)");
	expect_bad_spec(cs, "1", "name one as modM:N");
	expect_bad_spec(cs, "2", "2 functions match");
	expect_bad_spec(cs, "dup", "3 functions match");
	/* a name two functions of one core share */
	expect_bad_spec(cs, "mod4:twice", "2 functions match: mod4:2 (twice), mod4:3 (twice)");
	expect_bad_spec(cs, "mod4:twice", "give the index N instead of the name");
	expect_bad_spec(cs, "mod7:9", "no such function");
	expect_bad_spec(cs, "mod9:1", "no core 'mod9'");
	expect_bad_spec(cs, "nope", "no such function");
	expect_bad_spec(cs, "local_func_", "no such function");
}

static void test_pins(void)
{
	struct profile_pins p = { .n = 0 };
	struct ap_err err = { 0 };
	int ok = 1;

	CHECK(profile_pins__add(&p, "7f3a0000", &err) == 0 && p.base[0] == 0x7f3a0000);
	CHECK(profile_pins__add(&p, "0x1000", &err) == 0 && p.base[1] == 0x1000);
	CHECK(profile_pins__add(&p, "zz", &err) == -1);
	CHECK(!strcmp(err.msg, "'zz' is not a hex address"));
	CHECK(profile_pins__add(&p, "0", &err) == -1);
	CHECK(profile_pins__add(&p, "-1", &err) == -1);
	while (p.n < PROFILE_MAX_PINS)
		ok &= profile_pins__add(&p, "1000", &err) == 0;
	CHECK(ok);
	CHECK(profile_pins__add(&p, "1000", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "at most 64");
}

static void test_hist(void)
{
	struct attr_hist h = { 0 };
	int ok = 1;

	CHECK_EQ_U64(attr_hist__get(&h, 0, 5), 0);
	for (uint32_t i = 0; i < 5000; i++)
		for (uint32_t k = 0; k <= i % 3; k++)
			ok &= attr_hist__add(&h, i % 2, i) == 0;
	CHECK(ok);
	CHECK_EQ_U64(h.n, 5000);
	CHECK_EQ_U64(h.lost, 0);
	for (uint32_t i = 0; i < 5000; i++)
		ok &= attr_hist__get(&h, i % 2, i) == i % 3 + 1 && !attr_hist__get(&h, 1 - i % 2, i);
	CHECK(ok);
	/* [0, 6) of core 0: offsets 0, 2, 4 with 1, 3, 2 samples */
	CHECK_EQ_U64(attr_hist__sum(&h, 0, 0, 6), 1 + 3 + 2);
	attr_hist__exit(&h);
	CHECK(h.keys == NULL && h.n == 0);
}

/* core 1 (mod4): func0 x3 at 0, func1 x5 at 20, func3 x5 at 50, func4 x1 at 60, one past the
 * text; core 0: func2 x2 at 40; 4 samples in no core. */
static void feed(struct profile *p)
{
	static const struct { int core; uint64_t off; int n; int64_t fn; } s[] = {
		{ 1, 0, 3, 0 }, { 1, 20, 5, 1 }, { 1, 50, 5, 3 }, { 1, 60, 1, 4 }, { 1, 70, 1, -1 },
		{ 0, 40, 2, 2 }, { -1, 0, 4, -1 },
	};
	int ok = 1;

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		for (int k = 0; k < s[i].n; k++)
			ok &= profile__sample(p, s[i].core, s[i].off) == s[i].fn;
	CHECK(ok);
}

/* The report's view of p with --top top; NULL on failure. */
static struct view_report *view_of(const struct profile *p, uint64_t top)
{
	struct view_report_opts vo = { .top = top, .hottest = 20, .pin_word = "--base",
				       .nasked = UINT32_MAX };
	struct view_report *v = NULL;
	struct ap_err err = { 0 };

	CHECK(view_report__new(p, &vo, &v, &err) == 0);
	return v;
}

static char *render_text(const struct profile *p, uint64_t top, const struct render_opts *o)
{
	struct view_report *v = view_of(p, top);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = v ? open_memstream(&buf, &len) : NULL;

	if (f) {
		render__report_coverage(f, v);
		render__report_body(f, v, o);
		fclose(f);
	}
	view_report__delete(v);
	return buf;
}

static void extra(struct json_out *j, const struct profile *p, void *ctx)
{
	(void)p;
	json_key(j, "front_end");
	json_str(j, ctx);
}

static void test_profile(const struct core_set *cs)
{
	struct render_opts ro = { .fa_listed = 20, .tool = "test", .json_extra = extra,
				  .ctx = "here" };
	struct view_report *v;
	struct ap_err err = { 0 };
	struct profile *p = NULL;
	uint32_t core = 9, func = 9;
	struct jr_node *root = NULL;
	char *text, *json = NULL;
	size_t len = 0;

	CHECK(profile__new(cs, NULL, 0, "cpu-clock", &p, &err) == 0);
	if (!p)
		return;
	feed(p);
	CHECK_EQ_U64(p->attr.total_samples, 21);
	CHECK_EQ_U64(p->attr.attributed_samples, 16);
	CHECK_EQ_U64(p->attr.cores[1].samples, 14);
	CHECK_EQ_U64(p->attr.cores[1].outside_text, 1);
	CHECK_EQ_U64(p->attr.cores[0].samples, 2);
	CHECK_EQ_U64(attr_hist__get(&p->hist, 1, 20), 5);
	CHECK_EQ_U64(attr_hist__sum(&p->hist, 1, 16, 16), 5);	/* func1's bytes */
	CHECK_EQ_U64(attr_hist__sum(&p->hist, 1, 0, 64), 14);
	profile__set_mapping(p, 1, 1, 0x7f0000, 0x1000, 0);
	profile__set_mapping(p, 0, 1, 0x7e0000, 0x1000, 0);
	CHECK(profile__finish(p, &err) == 0);
	CHECK_EQ_U64(p->attr.cores[1].sharing, 3);	/* three unpinned one-page cores */
	CHECK_EQ_U64(p->attr.cores[1].nranked, 4);
	/* hottest first, ties by the lower index */
	CHECK(p->attr.cores[1].ranked[0].func == 1 && p->attr.cores[1].ranked[1].func == 3);
	CHECK(p->attr.cores[1].ranked[2].func == 0 && p->attr.cores[1].ranked[3].func == 4);
	CHECK(profile__hottest(p, &core, &func) == 1 && core == 1 && func == 1);

	/* --hot picks over all cores, skipping what is already there */
	CHECK(profile__add_func(p, "gamma", 0, 2, &err) == 0);
	CHECK(profile__add_hot(p, 2, &err) == 0);
	CHECK_EQ_U64(p->nfuncs, 3);
	CHECK(p->funcs[1].core == 1 && p->funcs[1].func == 1 && !p->funcs[1].spec);
	CHECK(p->funcs[2].core == 1 && p->funcs[2].func == 3);
	CHECK(profile__add_hot(p, 10, &err) == 0);	/* only what has samples */
	CHECK_EQ_U64(p->nfuncs, 5);
	CHECK(p->funcs[3].func == 0 && p->funcs[4].func == 4);
	CHECK(profile__add_func(p, NULL, 1, 9, &err) == -1);

	/* classification weighs each instruction with its bytes' samples */
	CHECK(profile__classify(p, NULL, &err) == 0);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct profile_func *f = &p->funcs[i];
		uint64_t sum = 0;

		for (uint32_t k = 0; k < f->cls.f.ninsns; k++)
			sum += f->cls.insn_samples[k];
		CHECK(f->classified);
		CHECK_EQ_U64(sum, f->samples);
		CHECK_EQ_U64(f->cls.t.total, f->samples);
		CHECK_EQ_U64(f->cls.f.insns[0].addr, p->attr.cores[f->core].first_base +
				     p->attr.cores[f->core].mod->funcs[f->func].offset);
	}
	CHECK_EQ_U64(p->funcs[0].samples, 2);

	text = render_text(p, 0, &ro);
	CHECK_STR_CONTAINS(text, "  in wasm code            16  (76.19% of run)\n");
	CHECK_STR_CONTAINS(text, "\ncore mod4 (");
	CHECK_STR_CONTAINS(text, "  mapping     0x7f0000 +0x1000 (NOT unique: 3 cores, 1 region)\n");
	CHECK_STR_CONTAINS(text, "  samples     14  (66.67% of run)\n");
	/* rank, function, samples, %run (5 of 21), bytes (16..32), name */
	CHECK_STR_CONTAINS(text, "     1  local_func_1              5   23.81%       16  b1\n");
	CHECK_STR_CONTAINS(text, "     4  local_func_4              1    4.76%        8  b4\n");
	CHECK_STR_CONTAINS(text, "\nfunction local_func_2 (gamma): 2 samples (9.52% of run),");
	CHECK_STR_CONTAINS(text, "  core mod4\n");
	free(text);
	text = render_text(p, 1, &ro);
	CHECK(strstr(text, "local_func_1  ") && !strstr(text, "     2  local_func_3"));
	free(text);

	{
		FILE *f = open_memstream(&json, &len);
		struct json_out j;

		json_init(&j, f);
		v = view_of(p, 1);
		if (v)
			render__report_json(&j, v, &ro);
		view_report__delete(v);
		fclose(f);
	}
	CHECK(jr__parse(json, len, &root, &err) == 0);
	if (root) {
		const struct jr_node *cores = jr__get(root, "cores", NULL);
		const struct jr_node *cf = jr__get(root, "classified_functions", NULL);
		const struct jr_node *c1 = cores && cores->n == 3 ? &cores->items[1] : NULL;
		const struct jr_node *top = c1 ? jr__get(c1, "top_functions", NULL) : NULL;

		CHECK(!strcmp(jr__get(root, "tool", NULL)->str, "test"));
		CHECK(!strcmp(jr__get(root, "event", NULL)->str, "cpu-clock"));
		CHECK(jr__get(root, "perf", NULL)->type == JR_NULL);	/* fed, not read */
		CHECK(jr__get(root, "passes", NULL) == NULL);
		CHECK_EQ_U64(jr__get(root, "total_samples", NULL)->integer, 21);
		CHECK(!strcmp(jr__get(root, "front_end", NULL)->str, "here"));
		CHECK(c1 && jr__get(c1, "attributed_samples", NULL)->integer == 14);
		CHECK(top && top->n == 1 && jr__get(&top->items[0], "local_func", NULL)->integer == 1);
		CHECK(cf && cf->n == 5);
		CHECK_EQ_U64(jr__get(jr__get(root, "classified_function", NULL), "local_func",
				     NULL)->integer, 2);
		jr__delete(root);
	}
	free(json);
	profile__delete(p);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct core_set cs;

	snprintf(dir, sizeof(dir), "%s/test_profile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	make_cores(&cs);
	test_coreset(&cs);
	test_pins();
	test_hist();
	if (cs.n == 3)
		test_profile(&cs);
	core_set__exit(&cs);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	CHECK_DONE();
}
