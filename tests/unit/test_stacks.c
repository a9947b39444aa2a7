// SPDX-License-Identifier: MIT
/*
 * The call-stack tree (profile/stacks.h) against a brute-force count over
 * the same samples kept whole: inclusive samples and caller -> callee
 * edges once per sample (recursion, repeated edges), self samples,
 * caller-unknown samples, the tree's totals; symbols interned; a reset;
 * the collapsed-stack and --children renderers on a real core's names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../profile/profile.h"
#include "../../render/callgraph.h"
#include "../../view/callgraph.h"

#define NSAMPLES 4000
#define MAXDEPTH 14

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint32_t next(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

struct sample {
	uint32_t n;
	uint32_t f[MAXDEPTH];	/* leaf first */
};

/* Brute force: does the sample hold sym / the call a -> b? */
static int holds(const struct sample *s, uint32_t sym)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->f[i] == sym)
			return 1;
	return 0;
}

static int holds_call(const struct sample *s, uint32_t a, uint32_t b)
{
	for (uint32_t i = 0; i + 1 < s->n; i++)
		if (s->f[i + 1] == a && s->f[i] == b)
			return 1;
	return 0;
}

static void check_tree(const struct profile_stacks *st)
{
	int ok = 1;

	for (uint32_t n = 0; n < st->nnodes; n++) {
		uint64_t sum = st->nodes[n].self;

		for (uint32_t c = st->nodes[n].child; c; c = st->nodes[c].next) {
			sum += st->nodes[c].total;
			ok &= st->nodes[c].parent == n;
		}
		ok &= sum == st->nodes[n].total;
	}
	CHECK(ok);
	CHECK_EQ_U64(st->nodes[0].total, st->samples);
}

static void test_against_brute_force(void)
{
	static struct sample smp[NSAMPLES];
	struct profile_stacks *st = stacks__new();
	uint32_t syms[9];
	struct ap_err err;
	int ok = 1;

	CHECK(st != NULL);
	for (uint32_t i = 0; i < 6; i++)
		syms[i] = (uint32_t)stacks__sym_wasm(st, i / 3, i % 3);
	syms[6] = (uint32_t)stacks__sym_host(st, "main", "/bin/app");
	syms[7] = (uint32_t)stacks__sym_kind(st, STACK_KERNEL);
	syms[8] = (uint32_t)stacks__sym_kind(st, STACK_UNKNOWN);
	/* interned: the same name, the same symbol; another file, another */
	CHECK_EQ_U64(stacks__sym_wasm(st, 1, 2), syms[5]);
	CHECK_EQ_U64(stacks__sym_host(st, "main", "/bin/app"), syms[6]);
	CHECK(stacks__sym_host(st, "main", "/bin/other") != (int64_t)syms[6]);
	CHECK(stacks__sym_host(st, "main", NULL) != (int64_t)syms[6]);
	CHECK_EQ_U64(stacks__sym_kind(st, STACK_UNKNOWN), syms[8]);
	CHECK_EQ_U64(stacks__find_wasm(st, 0, 1), syms[1]);

	/* outermost main, then 1..12 frames drawn from 6 functions (recursion
	 * and repeated calls arise), a caller-unknown marker or the kernel
	 * now and then */
	for (uint32_t i = 0; i < NSAMPLES; i++) {
		struct sample *s = &smp[i];
		uint32_t depth = 1 + next(12), k = 0;

		if (!next(10))
			s->f[k++] = syms[7];
		s->f[k++] = syms[next(6)];
		if (!next(8))
			s->f[k++] = syms[8];
		while (k < depth + 1 && k < MAXDEPTH - 1)
			s->f[k++] = syms[next(4)];	/* few names: recursion */
		s->f[k++] = syms[6];
		s->n = k;
		CHECK(stacks__add(st, s->f, s->n) == 0);
	}
	CHECK(stacks__finish(st, &err) == 0);
	CHECK_EQ_U64(st->samples, NSAMPLES);
	check_tree(st);
	for (uint32_t k = 0; k < 9; k++) {
		uint64_t self = 0, total = 0, unknown = 0;

		for (uint32_t i = 0; i < NSAMPLES; i++) {
			self += smp[i].f[0] == syms[k];
			total += holds(&smp[i], syms[k]);
			/* taken in it, the next frame the marker */
			unknown += smp[i].f[0] == syms[k] && smp[i].n > 1 && smp[i].f[1] == syms[8];
		}
		ok &= st->syms[syms[k]].self == self && st->syms[syms[k]].total == total &&
		      st->syms[syms[k]].caller_unknown == unknown;
	}
	CHECK(ok);
	/* every edge, once per sample, and no edge the samples lack */
	ok = 1;
	for (uint32_t e = 0; e < st->nedges; e++) {
		uint64_t want = 0;

		for (uint32_t i = 0; i < NSAMPLES; i++)
			want += holds_call(&smp[i], st->edges[e].caller, st->edges[e].callee);
		ok &= st->edges[e].samples == want && want > 0;
		ok &= !e || st->edges[e - 1].samples >= st->edges[e].samples;
	}
	CHECK(ok);
	ok = 1;
	for (uint32_t a = 0; a < 9; a++)
		for (uint32_t b = 0; b < 9; b++) {
			int found = 0, any = 0;

			for (uint32_t e = 0; e < st->nedges; e++)
				found |= st->edges[e].caller == syms[a] && st->edges[e].callee == syms[b];
			for (uint32_t i = 0; i < NSAMPLES && !any; i++)
				any = holds_call(&smp[i], syms[a], syms[b]);
			ok &= found == any;
		}
	CHECK(ok);
	/* finishing twice gives the same views */
	{
		uint64_t t = st->syms[syms[0]].total, n = st->nedges;

		CHECK(stacks__finish(st, &err) == 0);
		CHECK_EQ_U64(st->syms[syms[0]].total, t);
		CHECK_EQ_U64(st->nedges, n);
	}
	stacks__reset(st);
	CHECK_EQ_U64(st->samples, 0);
	CHECK_EQ_U64(st->nnodes, 1);
	CHECK_EQ_U64(st->nsyms, 1);
	CHECK(stacks__find_wasm(st, 0, 1) < 0);
	stacks__delete(st);
}

static const char *fixture(const char *name)
{
	static char buf[4096];
	const char *dir = getenv("FIXTURES");

	snprintf(buf, sizeof(buf), "%s/%s", dir ? dir : "build/fixtures", name);
	return buf;
}

/* Folded lines and the --children table through a real core's names. */
static void test_render(void)
{
	struct core_set cs = { 0 };
	struct profile *p = NULL;
	struct ap_err err;
	uint32_t s[4], a[3], b[2];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(core_set__add(&cs, fixture("sample.cwasm"), &err) == 0);
	CHECK(profile__new(&cs, NULL, 0, NULL, &p, &err) == 0);
	if (!p)
		return;
	p->stacks = stacks__new();
	s[0] = (uint32_t)stacks__sym_wasm(p->stacks, 0, 7);
	s[1] = (uint32_t)stacks__sym_wasm(p->stacks, 0, 8);
	s[2] = (uint32_t)stacks__sym_host(p->stacks, "run;it", "/bin/app");
	s[3] = (uint32_t)stacks__sym_kind(p->stacks, STACK_KERNEL);
	a[0] = s[3]; a[1] = s[0]; a[2] = s[2];	/* leaf first */
	b[0] = s[1]; b[1] = s[2];
	for (int i = 0; i < 3; i++)
		CHECK(stacks__add(p->stacks, a, 3) == 0);
	CHECK(stacks__add(p->stacks, b, 2) == 0);
	CHECK(stacks__finish(p->stacks, &err) == 0);
	f = open_memstream(&buf, &len);
	render__folded(f, p);
	fclose(f);
	/* a ';' inside a name would split the frame */
	CHECK_STR_CONTAINS(buf, "run_it;local_func_7");
	CHECK_STR_CONTAINS(buf, ";[kernel.kallsyms] 3\n");
	CHECK_STR_CONTAINS(buf, "run_it;local_func_8");
	CHECK(strstr(buf, "run;it") == NULL);
	free(buf);
	buf = NULL;
	{
		struct view_callgraph_input in = { .p = p };
		struct view_callgraph *v;

		CHECK(view_callgraph__new(&in, &v, &err) == 0);
		f = open_memstream(&buf, &len);
		render__callgraph_text(f, v, 1, 80);
		fclose(f);
		view_callgraph__delete(v);
	}
	CHECK_STR_CONTAINS(buf, "100.00%");
	CHECK_STR_CONTAINS(buf, "75.00%");
	for (char *l = buf; l && *l;) {
		char *nl = strchr(l, '\n');

		CHECK((nl ? (size_t)(nl - l) : strlen(l)) <= 80);
		l = nl ? nl + 1 : NULL;
	}
	free(buf);
	CHECK_EQ_U64(view__stack_find(p, "local_func_8"), s[1]);
	CHECK_EQ_U64(view__stack_find(p, "run;it"), s[2]);
	CHECK(view__stack_find(p, "local_func_9") < 0);
	profile__delete(p);
	core_set__exit(&cs);
}

int main(void)
{
	test_against_brute_force();
	test_render();
	CHECK_DONE();
}
