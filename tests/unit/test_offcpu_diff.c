// SPDX-License-Identifier: MIT
/*
 * The off-CPU part of a diff (compare/offcpu_diff.h) on sides whose
 * intervals are known: rows paired by wasm index across cores whose local
 * indices differ, means per recording, wall = on + off, Welch's t-test of
 * the mean interval computed by hand, rows without samples kept, the
 * one-sided line, and the text within 80 columns.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/offcpu_diff.h"
#include "cwasm/cwasm.h"
#include "render/diff.h"

static const struct cwasm_type one_type = { 0, 0, NULL, NULL };
static const struct cwasm_import_spec imports[3] = {
	{ "env", "i0", 0, 0 }, { "env", "i1", 0, 0 }, { "env", "i2", 0, 0 },
};

/* nf functions 32 bytes apart after ni imports, names[i] for local i */
static struct cwasm_module *mkcore(uint32_t ni, uint32_t nf, const char *const *names,
				   const char *path)
{
	struct cwasm_name_spec ns[8];
	uint32_t offs[8];
	uint8_t text[8 * 32];
	struct cwasm_spec s;
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;

	memset(&s, 0, sizeof(s));
	memset(text, 0x90, sizeof(text));
	for (uint32_t i = 0; i < nf; i++) {
		offs[i] = 32 * i;
		ns[i] = (struct cwasm_name_spec){ ni + i, names[i] };
	}
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = 32 * nf;
	s.nfuncs = nf;
	s.offsets = offs;
	s.ntypes = 1;
	s.types = &one_type;
	s.nimports = ni;
	s.imports = imports;
	s.nnames = nf;
	s.names = ns;
	if (cwasm__build(&s, &buf, &len, &err) < 0 ||
	    cwasm__parse(buf, len, path, &m, &err) < 0) {
		fprintf(stderr, "fixture: %s\n", err.msg);
		exit(2);
	}
	free(buf);
	return m;
}

/* a row of intervals of the given ns (ms, n of them) */
static struct cmp_oc_row row(uint32_t func, uint64_t on, const double *ms, int n, uint64_t incl)
{
	struct cmp_oc_row r = { .func = func, .on_ns = on, .on_incl_ns = on };

	for (int i = 0; i < n; i++) {
		double v = ms[i] * 1e6;

		r.off_ns += (uint64_t)v;
		r.off_sq += v * v;
	}
	r.intervals = (uint64_t)n;
	r.off_incl_ns = r.off_ns + incl;
	return r;
}

static const struct cmp_oc_func *by_name(const struct cmp_offcpu *oc, const char *n)
{
	for (uint32_t i = 0; i < oc->nfuncs; i++) {
		const struct cmp_oc_func *f = &oc->funcs[i];
		const char *x = f->name_after ? f->name_after : f->name_before;

		if (x && !strcmp(x, n))
			return f;
	}
	return NULL;
}

/*
 * One wasm, two builds: before 3 imports then nap, wait, main; after 2
 * imports then pad, nap, wait, main. The same wasm index is another local
 * function (nap: local 0 before, 1 after). The after side has two
 * recordings.
 */
static void test_offcpu(void)
{
	static const char *const nb[3] = { "nap", "wait", "main" };
	static const char *const na[4] = { "pad", "nap", "wait", "main" };
	static const double nap_b[4] = { 2.0, 2.2, 1.8, 2.0 }, nap_a[4] = { 6.0, 6.2, 5.8, 6.0 };
	static const double wait_b[1] = { 3.0 }, wait_a[2] = { 3.0, 3.0 };
	/* wasm: before nap 3, wait 4, main 5; after pad 2, nap 3, wait 4, main 5 */
	struct cwasm_module *mb = mkcore(3, 3, nb, "old.cwasm"), *ma = mkcore(2, 4, na, "new.cwasm");
	const struct cwasm_module *mbs[1] = { mb }, *mas[1] = { ma };
	static const uint64_t sb[3] = { 1, 0, 50 }, sa[4] = { 0, 1, 0, 60 };
	const uint64_t *selfb[1] = { sb }, *selfa[1] = { sa };
	struct cmp_capture cb = { .label = "b.data", .total = 100, .self = selfb, .incl = NULL }, ca = { .label = "a.data", .total = 100, .self = selfa, .incl = NULL };
	struct cmp_side b = { "before", 1, mbs, 1, &cb }, a = { "after", 1, mas, 1, &ca };
	struct cmp_oc_side ob = { .has = 1, .nwith = 1, .ncaptures = 1, .on_ns = 1000, .off_ns = 9000,
				  .intervals = 6 };
	struct cmp_oc_side oa = { .has = 1, .nwith = 2, .ncaptures = 2, .on_ns = 2000, .off_ns = 40000,
				  .intervals = 7 };
	struct view_diff_input in = { .tool = "test", .side = { &b, &a }, .top = 20 };
	struct view_diff *v = NULL;
	struct cmp_oc_row x;
	struct cmp_diff *d = NULL;
	struct cmp_offcpu *oc = NULL;
	const struct cmp_oc_func *nap, *wait, *main_;
	struct ap_err err = { 0 };
	char *txt = NULL, line[256];
	size_t len = 0;
	FILE *f;

	CHECK(cmp_diff__new(&b, &a, NULL, &d, &err) == 0);
	if (!d)
		return;
	x = row(0, 500000, nap_b, 4, 0);
	CHECK(cmp_oc_side__add(&ob, &x, 1) == 0);
	x = row(1, 0, wait_b, 1, 0);
	CHECK(cmp_oc_side__add(&ob, &x, 1) == 0);
	x = row(2, 50000000, NULL, 0, 11000000);
	CHECK(cmp_oc_side__add(&ob, &x, 1) == 0);
	/* after: two recordings, the nap's intervals split over them */
	x = row(1, 400000, nap_a, 2, 0);
	CHECK(cmp_oc_side__add(&oa, &x, 1) == 0);
	x = row(1, 400000, nap_a + 2, 2, 0);
	CHECK(cmp_oc_side__add(&oa, &x, 1) == 0);
	CHECK_EQ_U64(oa.nrows, 1);
	x = row(2, 0, wait_a, 2, 0);
	CHECK(cmp_oc_side__add(&oa, &x, 1) == 0);
	x = row(3, 120000000, NULL, 0, 60000000);
	CHECK(cmp_oc_side__add(&oa, &x, 1) == 0);

	CHECK(cmp_offcpu__new(d, &ob, &oa, &oc, &err) == 0);
	if (!oc)
		goto out;
	CHECK_EQ_U64(oc->nfuncs, 3);
	nap = by_name(oc, "nap");
	wait = by_name(oc, "wait");
	main_ = by_name(oc, "main");
	CHECK(nap && wait && main_);
	if (!nap || !wait || !main_)
		goto out;
	/* paired by wasm index 3: local 0 before, 1 after */
	CHECK(nap->wasm_index == 3 && nap->local_before == 0 && nap->local_after == 1);
	/* means per recording: after 24 ms over 2 recordings = 12 ms */
	CHECK(fabs(nap->before.off_ns - 8e6) < 1 && fabs(nap->after.off_ns - 12e6) < 1);
	CHECK(fabs(nap->change_ns - 4e6) < 1 && nap->has_rel && fabs(nap->rel_pct - 50) < 1e-9);
	CHECK(fabs(nap->after.on_ns - 400000) < 1e-9);
	CHECK(fabs(nap->after.wall_ns - 12.4e6) < 1);
	CHECK(fabs(nap->before.mean_interval_ns - 2e6) < 1 && fabs(nap->after.mean_interval_ns - 6e6) < 1);
	/*
	 * by hand: means 2 and 6 ms, each variance 0.08/3 ms^2, of the mean
	 * /4: se = sqrt(2 * 0.02/3) = 0.11547 ms, t = 4 / se = 34.641, df 6
	 */
	CHECK(nap->tested && fabs(nap->stat - 34.641) < 1e-3 && fabs(nap->df - 6) < 1e-6);
	CHECK(nap->p < 1e-6 && nap->significant);
	/* one interval before: not tested */
	CHECK(!wait->tested && wait->p == 1 && !wait->significant);
	/* main: inclusive only, never sampled as self off-CPU; the on-CPU table has it */
	CHECK(fabs(main_->change_incl_ns - (30e6 - 11e6)) < 1 && main_->func >= 0);
	CHECK(main_->change_ns == 0);
	/* "wait" has no samples: not in the on-CPU table, still here */
	CHECK(wait->func < 0);
	CHECK_EQ_U64(oc->ntested, 1);
	/* largest |change| first */
	CHECK(oc->funcs[0].change_ns == nap->change_ns);
	/* the runs: per recording */
	CHECK(fabs(oc->after.off_ns - 20000) < 1e-9 && fabs(oc->after.wall_ns - 21000) < 1e-9);
	CHECK(fabs(oc->before.wall_ns - 10000) < 1e-9);
	CHECK(cmp_offcpu__of(oc, (uint32_t)main_->func) == main_);

	in.d = d;
	in.oc = oc;
	CHECK(view_diff__new(&in, &v, &err) == 0);
	if (!v)
		goto out;
	f = open_memstream(&txt, &len);
	render__diff_offcpu_text(f, v, 80);
	fclose(f);
	view_diff__delete(v);
	/* the change, relative, the mean waits before and after */
	CHECK_STR_CONTAINS(txt, "  nap                  8.00 12.00  +4.00 +50%     2.00     6.00 3.9e-08 *");
	f = fmemopen(txt, len, "r");
	while (f && fgets(line, sizeof(line), f))
		CHECK(strlen(line) <= 81);
	if (f)
		fclose(f);
	free(txt);
out:
	{
		struct cmp_oc_side none = { .ncaptures = 2 };
		char buf[256];

		CHECK(cmp_offcpu__one_sided(&ob, &oa, buf, sizeof(buf)) == NULL);
		CHECK(cmp_offcpu__one_sided(&ob, &none, buf, sizeof(buf)) != NULL);
		CHECK_STR_CONTAINS(buf, "only the before recordings have off-CPU data (0 of 2");
		/* some of each side's recordings: still one line */
		none.nwith = 1;
		CHECK(cmp_offcpu__one_sided(&none, &none, buf, sizeof(buf)) != NULL);
		CHECK_STR_CONTAINS(buf, "only 1 of 2 before and 1 of 2 after recordings");
		none.nwith = 0;
		CHECK(cmp_offcpu__one_sided(&none, &none, buf, sizeof(buf)) == NULL);
	}
	cmp_offcpu__delete(oc);
	cmp_oc_side__exit(&ob);
	cmp_oc_side__exit(&oa);
	cmp_diff__delete(d);
	cwasm__delete(mb);
	cwasm__delete(ma);
}

int main(void)
{
	test_offcpu();
	CHECK_DONE();
}
