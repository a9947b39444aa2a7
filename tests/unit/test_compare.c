// SPDX-License-Identifier: MIT
/*
 * compare/: the numeric helpers against values computed independently,
 * matching of two builds (shifted offsets, a rename, a removal, a name
 * that moved, a changed import count, cores by manifest idx), shares and
 * their tests on counts whose answer is known, four captures aggregated,
 * a simulated change of mix flagged and unchanged functions not, the
 * gate, and the class-table diff.
 *
 * Reference values: tests/unit/test_compare_ref.py (python3, standard
 * library only: statistics.NormalDist, and the t distribution by Simpson
 * integration of its density, not by the continued fraction compare/stats.c
 * uses), or closed forms named next to the check.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "compare/diff.h"
#include "compare/stats.h"
#include "cwasm/cwasm.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol) * (1.0 + fabs(b)))
#define CHECK_NEAR(a, b, tol)                                                      \
	do {                                                                       \
		double cn_a_ = (a), cn_b_ = (b);                                   \
		if (NEAR(cn_a_, cn_b_, tol)) {                                     \
			check_passed++;                                            \
		} else {                                                           \
			check_failed++;                                            \
			fprintf(stderr, "%s:%d: CHECK failed: %s ~ %s (%.17g != %.17g)\n", \
				__FILE__, __LINE__, #a, #b, cn_a_, cn_b_);         \
		}                                                                  \
	} while (0)

/* ---- numeric helpers ---- */

static void test_normal(void)
{
	/* test_compare_ref.py: NormalDist().inv_cdf / .cdf */
	CHECK_NEAR(stats__norm_quantile(0.975), 1.9599639845400536, 1e-13);
	CHECK_NEAR(stats__norm_quantile(0.995), 2.5758293035489, 1e-13);
	CHECK_NEAR(stats__norm_quantile(0.95), 1.6448536269514715, 1e-13);
	CHECK_NEAR(stats__norm_quantile(1e-10), -6.361340902404056, 1e-12);
	CHECK_NEAR(stats__norm_quantile(0.3), -0.5244005127080407, 1e-13);
	CHECK(stats__norm_quantile(0.5) == 0.0);
	CHECK(isinf(stats__norm_quantile(0.0)) && stats__norm_quantile(0.0) < 0);
	CHECK_NEAR(stats__norm_cdf(1.0), 0.8413447460685429, 1e-14);
	CHECK_NEAR(stats__norm_cdf(-2.5), 0.006209665325776159, 1e-13);
	CHECK_NEAR(stats__norm_cdf(3.2), 0.9993128620620841, 1e-14);
	/* round trip over the range */
	for (double p = 1e-8; p < 1.0; p *= 3.0)
		CHECK_NEAR(stats__norm_cdf(stats__norm_quantile(p)), p, 1e-12);
}

static void test_betai(void)
{
	/* closed forms: I_x(1,1) = x, I_x(a,1) = x^a, I_x(1,b) = 1-(1-x)^b,
	 * I_x(2,2) = 3x^2 - 2x^3, I_x(1/2,1/2) = 2/pi asin(sqrt x) */
	for (double x = 0.05; x < 1.0; x += 0.1) {
		CHECK_NEAR(stats__betai(1, 1, x), x, 1e-13);
		CHECK_NEAR(stats__betai(3.5, 1, x), pow(x, 3.5), 1e-13);
		CHECK_NEAR(stats__betai(1, 4.25, x), 1.0 - pow(1.0 - x, 4.25), 1e-13);
		CHECK_NEAR(stats__betai(2, 2, x), 3 * x * x - 2 * x * x * x, 1e-13);
		CHECK_NEAR(stats__betai(0.5, 0.5, x), 2.0 / M_PI * asin(sqrt(x)), 1e-12);
	}
	CHECK(stats__betai(2, 3, 0.0) == 0.0);
	CHECK(stats__betai(2, 3, 1.0) == 1.0);
}

static void test_student_t(void)
{
	/* df 1 is Cauchy: cdf 1/2 + atan(t)/pi; df 2: 1/2 + t / (2 sqrt(2 + t^2)) */
	for (double t = -30; t <= 30; t += 2.7) {
		CHECK_NEAR(stats__t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		CHECK_NEAR(stats__t_cdf(t, 2), 0.5 + t / (2.0 * sqrt(2.0 + t * t)), 1e-12);
	}
	/* quantiles: df 1 tan(pi (p - 1/2)); df 2 (2p - 1) / sqrt(2 p (1 - p)) */
	for (double p = 0.01; p < 1.0; p += 0.07) {
		CHECK_NEAR(stats__t_quantile(p, 1), tan(M_PI * (p - 0.5)), 1e-10);
		CHECK_NEAR(stats__t_quantile(p, 2), (2 * p - 1) / sqrt(2 * p * (1 - p)), 1e-10);
	}
	/* textbook table, 3 decimals: t(0.975; 1, 5, 30) */
	CHECK(fabs(stats__t_quantile(0.975, 1) - 12.706) < 5e-4);
	CHECK(fabs(stats__t_quantile(0.975, 5) - 2.571) < 5e-4);
	CHECK(fabs(stats__t_quantile(0.975, 30) - 2.042) < 5e-4);
	/* test_compare_ref.py: non-integer df, by integration */
	CHECK_NEAR(stats__t_cdf(1.3, 3.7), 0.8656666379136877, 1e-10);
	CHECK_NEAR(stats__t_cdf(2.1, 17.3), 0.9746558884885643, 1e-10);
	CHECK_NEAR(stats__t_cdf(-0.8, 1.5), 0.26533216700072293, 1e-10);
	CHECK_NEAR(stats__t_cdf(2.042, 30), 0.9749856646718935, 1e-10);
	CHECK_NEAR(stats__t_quantile(0.975, 3.7), 2.8675207071911446, 1e-9);
	CHECK_NEAR(stats__t_quantile(0.995, 9.25), 3.2277295257355707, 1e-9);
	/* two-sided tail, large df is the normal */
	CHECK_NEAR(stats__t_sf2(1.3, 3.7), 2 * (1 - 0.8656666379136877), 1e-9);
	CHECK_NEAR(stats__t_sf2(1.96, INFINITY), erfc(1.96 / M_SQRT2), 1e-14);
	CHECK_NEAR(stats__t_quantile(0.975, 1e6), 1.9599639845400536, 1e-5);
}

static void test_adjust(void)
{
	/* Holm by hand: sorted 0.005 (x4 = 0.02), 0.01 (x3 = 0.03),
	 * 0.03 (x2 = 0.06), 0.04 (x1 = 0.04, raised to 0.06) */
	double p[4] = { 0.01, 0.04, 0.03, 0.005 }, a[4];
	double q[3] = { 0.5, 0.2, 0.9 };

	CHECK(stats__holm(p, 4, a) == 0);
	CHECK_NEAR(a[0], 0.03, 1e-15);
	CHECK_NEAR(a[1], 0.06, 1e-15);
	CHECK_NEAR(a[2], 0.06, 1e-15);
	CHECK_NEAR(a[3], 0.02, 1e-15);
	stats__bonferroni(p, 4, a);
	CHECK_NEAR(a[0], 0.04, 1e-15);
	CHECK_NEAR(a[1], 0.16, 1e-15);
	CHECK_NEAR(a[3], 0.02, 1e-15);
	/* capped at 1, in place */
	CHECK(stats__holm(q, 3, q) == 0);
	CHECK(q[0] == 1.0 && NEAR(q[1], 0.6, 1e-15) && q[2] == 1.0);
}

static void test_tests(void)
{
	struct stats_test t;
	/* test_compare_ref.py z2(30, 1000, 50, 1000) */
	stats__z2prop(30, 1000, 50, 1000, 0.95, &t);
	CHECK_NEAR(t.stat, 2.2821773229381925, 1e-12);
	CHECK_NEAR(t.p, 0.022478873366125196, 1e-10);
	CHECK_NEAR(100 * t.lo, 0.28461157266008763, 1e-10);
	CHECK_NEAR(100 * t.hi, 3.7153884273399136, 1e-10);
	stats__z2prop(2500, 10000, 1500, 10000, 0.95, &t);
	CHECK_NEAR(t.stat, -17.677669529663685, 1e-12);
	CHECK_NEAR(t.p, 6.231942781980466e-70, 1e-8);
	/* nothing in either: no difference */
	stats__z2prop(0, 100, 0, 300, 0.95, &t);
	CHECK(t.p == 1.0 && t.stat == 0.0);

	/* Welch from per-capture shares, test_compare_ref.py welch(A, B) */
	{
		const double a[4] = { .100, .120, .080, .100 }, b[4] = { .110, .135, .095, .130 };
		struct stats_est ea, eb;
		double sd, lo, hi;

		stats__describe(a, 4, &ea.mean, &sd, &lo, &hi);
		ea.var = sd * sd / 4;
		ea.df = 3;
		CHECK_NEAR(sd, 0.016329931618554518, 1e-12);
		CHECK(lo == .080 && hi == .120);
		stats__describe(b, 4, &eb.mean, &sd, &lo, &hi);
		eb.var = sd * sd / 4;
		eb.df = 3;
		stats__welch(&ea, &eb, 0.95, &t);
		CHECK_NEAR(t.stat, 1.4190484946389195, 1e-12);
		CHECK_NEAR(t.df, 5.910166358595194, 1e-12);
		CHECK_NEAR(t.p, 0.20640552190041372, 1e-8);
		CHECK_NEAR(100 * t.lo, -1.2787355663855828, 1e-8);
		CHECK_NEAR(100 * t.hi, 4.77873556638558, 1e-8);
		/* both without spread and different means: no test */
		ea.var = eb.var = 0;
		stats__welch(&ea, &eb, 0.95, &t);
		CHECK(isnan(t.p));
	}
}

/* ---- fixtures: cores built with cwasm__build ---- */

static const struct cwasm_type one_type = { 0, 0, NULL, NULL };
static const struct cwasm_import_spec imports[8] = {
	{ "env", "i0", 0, 0 }, { "env", "i1", 0, 0 }, { "env", "i2", 0, 0 },
	{ "env", "i3", 0, 0 }, { "env", "i4", 0, 0 }, { "env", "i5", 0, 0 },
	{ "env", "i6", 0, 0 }, { "env", "i7", 0, 0 },
};

/* nf functions at offs[], text_size bytes, names[i] for local i (NULL: none) */
static struct cwasm_module *mkcore(uint32_t nimports, uint32_t nf, const uint32_t *offs,
				   uint32_t text_size, const char *const *names, int idx)
{
	struct cwasm_name_spec ns[32];
	uint8_t text[1024];
	struct cwasm_spec s;
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;
	uint32_t nn = 0;

	memset(&s, 0, sizeof(s));
	memset(text, 0x90, sizeof(text));
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = text_size;
	s.nfuncs = nf;
	s.offsets = offs;
	s.ntypes = 1;
	s.types = &one_type;
	s.nimports = nimports;
	s.imports = imports;
	for (uint32_t i = 0; names && i < nf; i++)
		if (names[i])
			ns[nn++] = (struct cwasm_name_spec){ nimports + i, names[i] };
	s.nnames = nn;
	s.names = ns;
	if (cwasm__build(&s, &buf, &len, &err) < 0 ||
	    cwasm__parse(buf, len, "core.cwasm", &m, &err) < 0) {
		fprintf(stderr, "fixture: %s\n", err.msg);
		free(buf);
		exit(2);
	}
	free(buf);
	if (idx >= 0) {
		char label[16];

		snprintf(label, sizeof(label), "mod%d", idx);
		m->manifest_idx = idx;
		m->core_label = strdup(label);
	}
	return m;
}

/* one side of one core and up to 8 captures */
struct side1 {
	const struct cwasm_module *mods[2];
	const uint64_t *self[8][2];
	const uint64_t *incl[8][2];
	const uint64_t *periods[8][2];
	struct cmp_capture caps[8];
	struct cmp_side side;
};

static void side_init(struct side1 *s, const char *label, const struct cwasm_module *m0,
		      const struct cwasm_module *m1)
{
	memset(s, 0, sizeof(*s));
	s->mods[0] = m0;
	s->mods[1] = m1;
	s->side.label = label;
	s->side.ncores = m1 ? 2 : 1;
	s->side.mods = s->mods;
	s->side.captures = s->caps;
}

static void side_add(struct side1 *s, uint64_t total, const uint64_t *c0, const uint64_t *c1,
		     const uint64_t *i0, const uint64_t *i1)
{
	uint32_t k = s->side.ncaptures++;

	s->self[k][0] = c0;
	s->self[k][1] = c1;
	s->incl[k][0] = i0;
	s->incl[k][1] = i1;
	s->caps[k].label = "capture.data";
	s->caps[k].total = total;
	s->caps[k].self = s->self[k];
	s->caps[k].incl = i0 ? s->incl[k] : NULL;
}

static const struct cmp_func *entry(const struct cmp_diff *d, uint32_t pair, uint32_t wasm)
{
	int64_t i = cmp_diff__find(d, pair, wasm);

	return i >= 0 ? &d->funcs[i] : NULL;
}

static int has_warning(const struct cmp_diff *d, const char *needle)
{
	for (uint32_t i = 0; i < d->nwarnings; i++)
		if (strstr(d->warnings[i], needle))
			return 1;
	return 0;
}

/* ---- matching ---- */

static const uint32_t offs_b[6] = { 0, 16, 48, 96, 160, 240 };
static const char *const names_b[6] = { "f0", "f1", "f2", "f3", "f4", "f5" };

static void test_match(void)
{
	/* after: every offset and size moved, f2 renamed g2, f5 gone */
	static const uint32_t offs_a[5] = { 0, 32, 80, 150, 230 };
	static const char *const names_a[5] = { "f0", "f1", "g2", "f3", NULL };
	static const uint64_t sb[6] = { 100, 0, 50, 0, 10, 20 }, sa[5] = { 100, 0, 50, 0, 10 };
	struct cwasm_module *mb = mkcore(3, 6, offs_b, 300, names_b, -1);
	struct cwasm_module *ma = mkcore(3, 5, offs_a, 320, names_a, -1);
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	side_init(&b, "before", mb, NULL);
	side_add(&b, 1000, sb, NULL, NULL, NULL);
	side_init(&a, "after", ma, NULL);
	side_add(&a, 1000, sa, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d) {
		fprintf(stderr, "%s\n", err.msg);
		goto out;
	}
	CHECK_EQ_U64(d->npairs, 1);
	CHECK(d->pairs[0].before == 0 && d->pairs[0].after == 0 && d->pairs[0].manifest_idx == -1);
	CHECK_EQ_U64(d->pairs[0].nmatched, 5);
	CHECK_EQ_U64(d->pairs[0].nremoved, 1);
	CHECK_EQ_U64(d->pairs[0].nadded, 0);
	/* f0, g2, f4 (samples) and f5 (removed); f1, f3: matched, no samples */
	CHECK_EQ_U64(d->nfuncs, 4);
	f = entry(d, 0, 3);
	CHECK(f && f->status == CMP_MATCHED && f->local_before == 0 && f->local_after == 0);
	CHECK(f && f->size_before == 16 && f->size_after == 32);
	CHECK(f && f->self.ch.test == CMP_TEST_Z && f->self.ch.p == 1.0 && !f->self.ch.significant);
	CHECK(f && f->self.before.mean == 10.0 && f->self.after.mean == 10.0);
	f = entry(d, 0, 5);
	CHECK(f && f->status == CMP_RENAMED && !strcmp(f->name_before, "f2") &&
	      !strcmp(f->name_after, "g2"));
	f = entry(d, 0, 7);
	CHECK(f && f->status == CMP_MATCHED && f->name_after == NULL); /* a lost name is no rename */
	f = entry(d, 0, 8);
	CHECK(f && f->status == CMP_REMOVED && f->local_after == -1 && f->local_before == 5);
	CHECK(f && f->self.ch.test == CMP_TEST_NONE && !f->self.ch.significant);
	CHECK(f && f->self.before.mean == 2.0 && f->self.after.mean == 0.0);
	CHECK(entry(d, 0, 4) == NULL);
	CHECK_EQ_U64(d->nrenamed, 1);
	CHECK(d->nrenamed == 1 && d->funcs[d->renamed[0]].wasm_index == 5);
	CHECK_EQ_U64(d->nremoved, 1);
	CHECK(d->nremoved == 1 && d->funcs[d->removed[0]].wasm_index == 8);
	CHECK_EQ_U64(d->nadded, 0);
	CHECK_EQ_U64(d->nmoves, 0);
	CHECK_EQ_U64(d->nwarnings, 1);
	CHECK(has_warning(d, "one recording on a side"));
	/* the removed function's 2 points are the largest change */
	CHECK(d->funcs[0].wasm_index == 8);
	CHECK_EQ_U64(d->ntested_self, 3);
out:
	cmp_diff__delete(d);
	cwasm__delete(mb);
	cwasm__delete(ma);
}

static void test_moves_and_imports(void)
{
	/* names of local 0 and 1 swapped: two renames, two moves, a warning */
	static const char *const swapped[6] = { "f1", "f0", "f2", "f3", "f4", "f5" };
	/* one import fewer, one more local function first: same wasm indices */
	static const uint32_t offs7[7] = { 0, 8, 24, 56, 104, 168, 248 };
	static const char *const names7[7] = { "new", "f0", "f1", "f2", "f3", "f4", "f5" };
	static const uint64_t sb[6] = { 100, 0, 0, 0, 0, 0 }, s7[7] = { 0, 100, 0, 0, 0, 0, 0 };
	struct cwasm_module *mb = mkcore(3, 6, offs_b, 300, names_b, -1);
	struct cwasm_module *ms = mkcore(3, 6, offs_b, 300, swapped, -1);
	struct cwasm_module *m7 = mkcore(2, 7, offs7, 320, names7, -1);
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	side_init(&b, "before", mb, NULL);
	side_add(&b, 1000, sb, NULL, NULL, NULL);
	side_init(&a, "after", ms, NULL);
	side_add(&a, 1000, sb, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK_EQ_U64(d->nrenamed, 2);
		CHECK_EQ_U64(d->nmoves, 2);
		CHECK(d->nmoves == 2 && !strcmp(d->moves[0].name, "f0") &&
		      d->moves[0].wasm_before == 3 && d->moves[0].wasm_after == 4);
		CHECK(d->nmoves == 2 && !strcmp(d->moves[1].name, "f1") &&
		      d->moves[1].wasm_before == 4 && d->moves[1].wasm_after == 3);
		CHECK_EQ_U64(d->nwarnings, 2);
		CHECK(has_warning(d, "core.cwasm: 2 names are at other wasm indices (f0: 3 -> 4)"));
		/* still matched by index: wasm 3 has f0's samples on both sides */
		f = entry(d, 0, 3);
		CHECK(f && f->local_before == 0 && f->local_after == 0 && f->self.ch.delta == 0);
	}
	cmp_diff__delete(d);
	d = NULL;

	side_init(&a, "after", m7, NULL);
	side_add(&a, 1000, s7, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK_EQ_U64(d->pairs[0].nmatched, 6);
		CHECK_EQ_U64(d->pairs[0].nadded, 1);
		CHECK_EQ_U64(d->nadded, 1);
		f = d->nadded ? &d->funcs[d->added[0]] : NULL;
		CHECK(f && f->wasm_index == 2 && f->local_after == 0 && f->local_before == -1 &&
		      f->status == CMP_ADDED); /* an import before */
		f = entry(d, 0, 3);
		CHECK(f && f->local_before == 0 && f->local_after == 1 && f->status == CMP_MATCHED &&
		      f->self.ch.delta == 0);
		CHECK_EQ_U64(d->nmoves, 0);
		CHECK_EQ_U64(d->nrenamed, 0);
	}
	cmp_diff__delete(d);
	cwasm__delete(mb);
	cwasm__delete(ms);
	cwasm__delete(m7);
}

static void test_core_pairs(void)
{
	static const uint32_t o2[2] = { 0, 64 };
	static const uint64_t x[2] = { 10, 20 }, y[2] = { 30, 40 }, z[2] = { 5, 5 };
	struct cwasm_module *b0 = mkcore(1, 2, o2, 128, NULL, 0);
	struct cwasm_module *b1 = mkcore(2, 2, o2, 128, NULL, 1);
	struct cwasm_module *a1 = mkcore(2, 2, o2, 130, NULL, 1);
	struct cwasm_module *a0 = mkcore(1, 2, o2, 130, NULL, 0);
	struct cwasm_module *a2 = mkcore(0, 2, o2, 130, NULL, 2);
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };

	/* by manifest idx: the after side lists them the other way round */
	side_init(&b, "before", b0, b1);
	side_add(&b, 1000, x, y, NULL, NULL);
	side_init(&a, "after", a1, a0);
	side_add(&a, 1000, y, x, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK_EQ_U64(d->npairs, 2);
		CHECK(d->pairs[0].before == 0 && d->pairs[0].after == 1 && d->pairs[0].manifest_idx == 0);
		CHECK(d->pairs[1].before == 1 && d->pairs[1].after == 0 && d->pairs[1].manifest_idx == 1);
		CHECK(cmp_diff__pair_of(d, 1, 0) == 1);
		/* every share unchanged */
		for (uint32_t i = 0; i < d->nfuncs; i++)
			CHECK(d->funcs[i].self.ch.delta == 0 && !d->funcs[i].self.ch.significant);
		CHECK(d->pairs[0].core.before.mean == 3.0 && d->pairs[0].core.after.mean == 3.0);
		CHECK(d->wasm.before.mean == 10.0 && d->wasm.ch.delta == 0);
	}
	cmp_diff__delete(d);
	d = NULL;

	/* a core only after: its pair, its functions with samples added, a warning */
	b.mods[1] = NULL;
	b.side.ncores = 1;
	a.mods[0] = a0;
	a.mods[1] = a2;
	a.self[0][0] = x;
	a.self[0][1] = z;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK_EQ_U64(d->npairs, 2);
		CHECK(d->pairs[1].before == -1 && d->pairs[1].after == 1 && d->pairs[1].manifest_idx == 2);
		CHECK_EQ_U64(d->pairs[1].nadded, 2);
		CHECK_EQ_U64(d->nadded, 2);
		CHECK(has_warning(d, "mod2: a core only the after build has"));
		CHECK(d->pairs[1].core.ch.test == CMP_TEST_NONE && d->pairs[1].core.after.mean == 1.0);
	}
	cmp_diff__delete(d);
	d = NULL;

	/* lone files pair by position */
	b0->manifest_idx = -1;
	a2->manifest_idx = -1;
	a.mods[0] = a2;
	a.side.ncores = 1;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d)
		CHECK(d->npairs == 1 && d->pairs[0].before == 0 && d->pairs[0].after == 0 &&
		      d->pairs[0].manifest_idx == -1);
	cmp_diff__delete(d);
	cwasm__delete(b0);
	cwasm__delete(b1);
	cwasm__delete(a0);
	cwasm__delete(a1);
	cwasm__delete(a2);
}

/* ---- shares, tests, several captures ---- */

static const uint32_t offs3[3] = { 0, 100, 200 };

static void test_shares_z(void)
{
	/* fa 30 -> 50 of 1000: test_compare_ref.py z2(30, 1000, 50, 1000);
	 * fb, fc unchanged: z 0, p 1; Holm over 3: 3 x 0.02248 = 0.0674 */
	static const uint64_t sb[3] = { 30, 200, 300 }, sa[3] = { 50, 200, 300 };
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct cmp_opts none = { 0.95, CMP_ADJ_NONE }, bonf = { 0, CMP_ADJ_BONFERRONI };
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, sb, NULL, NULL, NULL);
	side_init(&a, "after", m, NULL);
	side_add(&a, 1000, sa, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d)
		goto out;
	CHECK(d->level == 0.95 && d->adjust == CMP_ADJ_HOLM);
	CHECK_EQ_U64(d->ntested_self, 3);
	f = &d->funcs[0];
	CHECK(f->wasm_index == 0);
	CHECK_NEAR(f->self.before.mean, 3.0, 1e-15);
	CHECK_NEAR(f->self.after.mean, 5.0, 1e-15);
	CHECK_NEAR(f->self.ch.delta, 2.0, 1e-14);
	CHECK(f->self.ch.has_rel);
	CHECK_NEAR(f->self.ch.rel_pct, 200.0 / 3.0, 1e-13);
	CHECK(f->self.ch.test == CMP_TEST_Z && f->self.ch.df == 0);
	CHECK_NEAR(f->self.ch.stat, 2.2821773229381925, 1e-12);
	CHECK_NEAR(f->self.ch.p, 0.022478873366125196, 1e-10);
	CHECK_NEAR(f->self.ch.p_adj, 3 * 0.022478873366125196, 1e-10);
	CHECK_NEAR(f->self.ch.ci_lo, 0.28461157266008763, 1e-10);
	CHECK_NEAR(f->self.ch.ci_hi, 3.7153884273399136, 1e-10);
	CHECK(!f->self.ch.significant); /* not after adjusting for three tests */
	for (uint32_t i = 1; i < d->nfuncs; i++)
		CHECK(d->funcs[i].self.ch.p == 1.0 && !d->funcs[i].self.ch.significant);
	CHECK_EQ_U64(d->wasm.before.samples, 530);
	CHECK_EQ_U64(d->wasm.after.samples, 550);
	cmp_diff__delete(d);
	d = NULL;

	/* unadjusted it is significant; Bonferroni gives the same 0.0674 here */
	CHECK(cmp_diff__new(&b.side, &a.side, &none, &d, &err) == 0);
	if (d)
		CHECK(d->funcs[0].self.ch.significant && d->funcs[0].self.ch.p_adj == d->funcs[0].self.ch.p);
	cmp_diff__delete(d);
	d = NULL;
	CHECK(cmp_diff__new(&b.side, &a.side, &bonf, &d, &err) == 0);
	if (d)
		CHECK_NEAR(d->funcs[0].self.ch.p_adj, 3 * 0.022478873366125196, 1e-10);
out:
	cmp_diff__delete(d);
	cwasm__delete(m);
}

static void test_captures(void)
{
	/* f0: A before, B2 after (test_compare_ref.py welch2); f1: A before,
	 * B after (welch): f0 flagged, f1 not; Holm over 2 */
	static const uint64_t b0[3] = { 100, 100, 0 }, b1[3] = { 120, 120, 0 },
			      b2[3] = { 80, 80, 0 }, b3[3] = { 100, 100, 0 };
	static const uint64_t a0[3] = { 150, 110, 0 }, a1[3] = { 160, 135, 0 },
			      a2[3] = { 140, 95, 0 }, a3[3] = { 170, 130, 0 };
	static const uint64_t one[3] = { 100, 100, 0 };
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct side1 b, a, s1;
	struct cmp_agg *ag = NULL;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, b0, NULL, NULL, NULL);
	side_add(&b, 1000, b1, NULL, NULL, NULL);
	side_add(&b, 1000, b2, NULL, NULL, NULL);
	side_add(&b, 1000, b3, NULL, NULL, NULL);
	/* four captures aggregate: shares 10, 12, 8, 10 percent */
	CHECK(cmp_agg__new(&b.side, &ag, &err) == 0);
	if (ag) {
		const struct cmp_share *s = &ag->cores[0].self[0];

		CHECK(s->n == 4 && s->samples == 400 && s->total == 4000);
		CHECK_NEAR(s->mean, 10.0, 1e-14);
		CHECK_NEAR(s->sd, 1.6329931618554518, 1e-12); /* sqrt(8/3) */
		CHECK(s->min == 8.0 && s->max == 12.0);
		CHECK_NEAR(ag->wasm.mean, 20.0, 1e-14);
		CHECK_NEAR(ag->cores[0].core.sd, 2 * 1.6329931618554518, 1e-12);
		CHECK_EQ_U64(ag->cores[0].nranked, 2);
		CHECK(ag->cores[0].nranked == 2 && ag->cores[0].rank[0] == 0 && ag->cores[0].rank[1] == 1);
		CHECK(!ag->has_incl && !ag->cores[0].incl);
	}
	cmp_agg__delete(ag);

	side_init(&a, "after", m, NULL);
	side_add(&a, 1000, a0, NULL, NULL, NULL);
	side_add(&a, 1000, a1, NULL, NULL, NULL);
	side_add(&a, 1000, a2, NULL, NULL, NULL);
	side_add(&a, 1000, a3, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		f = entry(d, 0, 0);
		CHECK(f && f->self.ch.test == CMP_TEST_WELCH);
		CHECK(f && NEAR(f->self.ch.stat, 5.284229075567875, 1e-12));
		CHECK(f && NEAR(f->self.ch.df, 5.696629213483146, 1e-12));
		CHECK(f && NEAR(f->self.ch.p, 0.0021803159692810326, 1e-8));
		CHECK(f && NEAR(f->self.ch.p_adj, 2 * 0.0021803159692810326, 1e-8));
		CHECK(f && NEAR(f->self.ch.ci_lo, 2.919932246014541, 1e-8));
		CHECK(f && NEAR(f->self.ch.ci_hi, 8.080067753985459, 1e-8));
		CHECK(f && NEAR(f->self.after.sd, 1.2909944487358056, 1e-12));
		CHECK(f && f->self.ch.significant);
		f = entry(d, 0, 1);
		CHECK(f && NEAR(f->self.ch.p, 0.20640552190041372, 1e-8));
		CHECK(f && !f->self.ch.significant);
		CHECK(d->funcs[0].wasm_index == 0); /* 5 points before 2 */
		CHECK_EQ_U64(d->nwarnings, 0);
	}
	cmp_diff__delete(d);
	d = NULL;

	/* one capture against four: Welch with the binomial variance of the one
	 * (test_compare_ref.py mixed(100, 1000, B)) */
	side_init(&s1, "before", m, NULL);
	side_add(&s1, 1000, one, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&s1.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		f = entry(d, 0, 1);
		CHECK(f && f->self.ch.test == CMP_TEST_WELCH);
		CHECK(f && NEAR(f->self.ch.stat, 1.3213036102288518, 1e-12));
		CHECK(f && NEAR(f->self.ch.df, 12.65254015466984, 1e-12));
		CHECK(f && NEAR(f->self.ch.p, 0.20979644349800441, 1e-8));
		CHECK(f && NEAR(f->self.ch.ci_lo, -1.1193073958348894, 1e-8));
		CHECK(has_warning(d, "one recording on a side"));
	}
	cmp_diff__delete(d);
	cwasm__delete(m);
}

/* xorshift64*: a fixed stream, so the simulation is the same every run */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545f4914f6cdd1dull) >> 11) / 9007199254740992.0;
}

/* n samples over nf functions of probability p[] (the rest: outside wasm) */
static void draw(const double *p, uint32_t nf, uint64_t n, uint64_t *counts)
{
	memset(counts, 0, nf * sizeof(*counts));
	for (uint64_t s = 0; s < n; s++) {
		double u = uniform(), c = 0;

		for (uint32_t f = 0; f < nf; f++) {
			c += p[f];
			if (u < c) {
				counts[f]++;
				break;
			}
		}
	}
}

/*
 * 200 simulated before/after pairs of 20 functions, 5,000 samples a side.
 * Unchanged mix: a diff with any flagged function is a family-wise false
 * positive, at most 5% expected (Holm); allow 20 of 200 (3 sd above 10).
 * Then function 0 goes from 10% to 14% (taken from outside wasm, so the
 * others keep their shares): flagged nearly always (z about 6.1), the 19
 * unchanged ones still rarely.
 */
static void test_simulated_mix(void)
{
	enum { NF = 20, TRIALS = 200, N = 5000 };
	uint32_t offs[NF];
	double pb[NF], pa[NF];
	uint64_t cb[NF], ca[NF];
	struct cwasm_module *m;
	int false_diffs = 0, found = 0, others = 0;

	for (uint32_t f = 0; f < NF; f++) {
		offs[f] = f * 16;
		pb[f] = pa[f] = f == 0 ? 0.10 : 0.02 + 0.002 * f;
	}
	m = mkcore(0, NF, offs, NF * 16, NULL, -1);
	for (int change = 0; change < 2; change++) {
		pa[0] = change ? 0.14 : 0.10;
		for (int t = 0; t < TRIALS; t++) {
			struct side1 b, a;
			struct cmp_diff *d = NULL;
			struct ap_err err = { 0 };
			int any = 0;

			draw(pb, NF, N, cb);
			draw(pa, NF, N, ca);
			side_init(&b, "before", m, NULL);
			side_add(&b, N, cb, NULL, NULL, NULL);
			side_init(&a, "after", m, NULL);
			side_add(&a, N, ca, NULL, NULL, NULL);
			if (cmp_diff__new(&b.side, &a.side, NULL, &d, &err) < 0) {
				CHECK(0);
				continue;
			}
			for (uint32_t i = 0; i < d->nfuncs; i++) {
				const struct cmp_func *f = &d->funcs[i];

				if (!f->self.ch.significant)
					continue;
				if (f->wasm_index == 0 && change)
					found++;
				else
					any = 1;
			}
			others += any && change;
			false_diffs += any && !change;
			cmp_diff__delete(d);
		}
	}
	printf("simulated: %d/%d unchanged diffs flagged, change found %d/%d, "
	       "an unchanged function flagged beside it %d/%d\n",
	       false_diffs, TRIALS, found, TRIALS, others, TRIALS);
	CHECK(false_diffs <= 20);
	CHECK(found >= 190);
	CHECK(others <= 20);
	cwasm__delete(m);
}

static void test_inclusive(void)
{
	static const uint64_t sb[3] = { 10, 20, 30 }, ib[3] = { 100, 60, 30 };
	static const uint64_t ia[3] = { 300, 60, 30 };
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, sb, NULL, ib, NULL);
	side_init(&a, "after", m, NULL);
	side_add(&a, 1000, sb, NULL, ia, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		f = entry(d, 0, 0);
		CHECK(f && f->incl.valid && f->self.ch.delta == 0 && !f->self.ch.significant);
		CHECK(f && NEAR(f->incl.before.mean, 10.0, 1e-14) && NEAR(f->incl.after.mean, 30.0, 1e-14));
		CHECK(f && NEAR(f->incl.ch.delta, 20.0, 1e-13) && f->incl.ch.significant);
		f = entry(d, 0, 1);
		CHECK(f && f->incl.valid && f->incl.ch.delta == 0 && !f->incl.ch.significant);
		CHECK_EQ_U64(d->ntested_incl, 3);
	}
	cmp_diff__delete(d);
	d = NULL;
	/* one side without call graphs: no inclusive diff */
	a.caps[0].incl = NULL;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK(!d->funcs[0].incl.valid);
		CHECK_EQ_U64(d->ntested_incl, 0);
	}
	cmp_diff__delete(d);
	cwasm__delete(m);
}

static void test_bad_input(void)
{
	static const uint64_t s[3] = { 600, 300, 200 }, ok[3] = { 1, 1, 1 };
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };

	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, s, NULL, NULL, NULL);
	side_init(&a, "after", m, NULL);
	side_add(&a, 10, ok, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == -1 && !d);
	CHECK(err.kind == AP_ERR_INPUT);
	CHECK_STR_CONTAINS(err.msg, "capture.data: more samples in functions (1100)");
	b.caps[0].total = 2000;
	a.caps[0].total = 0;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == -1 && !d);
	CHECK_STR_CONTAINS(err.msg, "capture.data: no samples");
	a.side.ncaptures = 0;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "after: no recordings");
	cwasm__delete(m);
}

/* ---- the gate ---- */

static void test_gate(void)
{
	static const uint64_t sb[3] = { 30, 200, 300 }, sa[3] = { 50, 200, 300 };
	static const uint64_t small_b[3] = { 3, 20, 30 }, small_a[3] = { 5, 20, 30 };
	static const uint64_t wb[3] = { 1500, 2000, 0 }, wa[3] = { 2500, 2000, 0 };
	struct cwasm_module *mb = mkcore(3, 6, offs_b, 300, names_b, -1);
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct cmp_gate_target fa = { 0, 0 }, two[2] = { { 0, 0 }, { 0, 1 } };
	struct cmp_gate_opts go;
	struct cmp_gate g;
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };

	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, sb, NULL, NULL, NULL);
	side_init(&a, "after.data", m, NULL);
	side_add(&a, 1000, sa, NULL, NULL, NULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d)
		goto out;
	/* fa grew 66.7%, p 0.0225 (one prespecified test: not adjusted); no times: by share */
	memset(&go, 0, sizeof(go));
	CHECK(cmp_diff__gate(d, &(struct cmp_gate_opts){ .pct = 10 }, &g, &err) == -1 &&
	      err.kind == AP_ERR_INPUT);
	CHECK_STR_CONTAINS(err.msg, "no sample periods to time the runs by");
	go.by_share = 1;
	go.pct = 10;
	go.ntargets = 1;
	go.targets = &fa;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1);
	CHECK(err.kind == AP_ERR_GATE && g.failed && g.nchecks == 1 && g.checks[0].slower);
	CHECK_STR_CONTAINS(err.msg, "after.data: core.cwasm local_func_0: share 3.00% -> 5.00% "
			   "(+66.7%, p=0.022): slower by more than 10% by share");
	cmp_gate__exit(&g);
	/* 66.7% is not more than 100% */
	go.pct = 100;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == 0 && !g.failed && !g.checks[0].grew);
	cmp_gate__exit(&g);
	/* two targets are one family: 2 x 0.0225 still below 0.05 */
	go.pct = 10;
	go.ntargets = 2;
	go.targets = two;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1 && g.nchecks == 2);
	CHECK(g.nchecks == 2 && NEAR(g.checks[0].m.ch.p_adj, 2 * 0.022478873366125196, 1e-10));
	CHECK(g.nchecks == 2 && !g.checks[1].grew && !g.checks[1].slower);
	cmp_gate__exit(&g);
	/* default: the hottest function before (fc, unchanged) */
	go.ntargets = 0;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == 0);
	CHECK(g.nchecks == 1 && g.checks[0].wasm_index == 2 && !g.checks[0].slower);
	cmp_gate__exit(&g);
	/* the wasm share: 53% -> 55% (+3.8%), not significant (z 0.90) */
	go.whole_wasm = 1;
	go.pct = 1;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == 0 && g.nchecks == 1 && g.checks[0].func == -1);
	CHECK(g.checks[0].grew && !g.checks[0].slower);
	cmp_gate__exit(&g);
	/* bad thresholds and targets */
	go.whole_wasm = 0;
	go.pct = -1;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1 && err.kind == AP_ERR_INPUT);
	go.pct = 10;
	go.ntargets = 1;
	fa.wasm_index = 3;
	go.targets = &fa;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1 && err.kind == AP_ERR_INPUT);
	CHECK_STR_CONTAINS(err.msg, "wasm function 3 is not in both builds");
	fa.wasm_index = 0;
	cmp_diff__delete(d);
	d = NULL;

	/* the same growth on a tenth of the samples: not significant, passes */
	b.caps[0].self = b.self[0];
	b.self[0][0] = small_b;
	b.caps[0].total = 100;
	a.self[0][0] = small_a;
	a.caps[0].total = 100;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		CHECK(cmp_diff__gate(d, &go, &g, &err) == 0 && g.checks[0].grew && !g.checks[0].slower);
		cmp_gate__exit(&g);
	}
	cmp_diff__delete(d);
	d = NULL;

	/* the wasm share 35% -> 45% of 10,000: slower */
	b.self[0][0] = wb;
	b.caps[0].total = 10000;
	a.self[0][0] = wa;
	a.caps[0].total = 10000;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (d) {
		go.whole_wasm = 1;
		CHECK(cmp_diff__gate(d, &go, &g, &err) == -1 && err.kind == AP_ERR_GATE);
		CHECK_STR_CONTAINS(err.msg, "wasm code: share 35.00% -> 45.00% (+28.6%");
		cmp_gate__exit(&g);
		go.pct = 30;
		CHECK(cmp_diff__gate(d, &go, &g, &err) == 0);
		cmp_gate__exit(&g);
	}
out:
	cmp_diff__delete(d);
	cwasm__delete(mb);
	cwasm__delete(m);
}

/* ---- time per run ---- */

/* p[i] = c[i] * period: each sample weighs period ns */
static void weigh(const uint64_t *c, uint64_t *p, uint32_t n, uint64_t period)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = c[i] * period;
}

static void side_time(struct side1 *s, uint32_t k, const uint64_t *p0, uint64_t total_period)
{
	s->caps[k].total_period = total_period;
	s->caps[k].self_period = &s->periods[k][0];
	s->periods[k][0] = p0;
}

/*
 * The same work done twice over (each function twice the samples, the
 * shares unchanged): time per run doubles and the time gate fails, the
 * share gate passes. Then Welch on per-capture times, and one capture
 * against three.
 */
static void test_time(void)
{
	static const uint64_t cb[3] = { 100, 300, 0 }, ca[3] = { 200, 600, 0 };
	static const uint64_t w1[3] = { 100, 0, 0 }, w2[3] = { 110, 0, 0 }, w3[3] = { 90, 0, 0 };
	static const uint64_t x1[3] = { 200, 0, 0 }, x2[3] = { 210, 0, 0 }, x3[3] = { 190, 0, 0 };
	uint64_t pb[3], pa[3], pw[3][3], px[3][3];
	struct cwasm_module *m = mkcore(0, 3, offs3, 300, NULL, -1);
	struct cmp_gate_target f0 = { 0, 0 };
	struct cmp_gate_opts go = { .pct = 5, .ntargets = 1, .targets = &f0 };
	const uint64_t *ws[3] = { w1, w2, w3 }, *xs[3] = { x1, x2, x3 };
	struct cmp_gate g;
	struct side1 b, a;
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	const struct cmp_func *f;

	weigh(cb, pb, 3, 1000000);
	weigh(ca, pa, 3, 1000000);
	side_init(&b, "before", m, NULL);
	side_add(&b, 1000, cb, NULL, NULL, NULL);
	side_time(&b, 0, pb, 1000 * 1000000ULL);
	side_init(&a, "after.data", m, NULL);
	side_add(&a, 2000, ca, NULL, NULL, NULL);
	side_time(&a, 0, pa, 2000 * 1000000ULL);
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d)
		goto out;
	f = entry(d, 0, 0);
	CHECK(d->has_time && f && f->self_time.valid);
	if (!f)
		goto out;
	/* 100 ms -> 200 ms; shares 10% -> 10% */
	CHECK(NEAR(f->self_time.before.mean, 1e8, 1e-12) && NEAR(f->self_time.after.mean, 2e8, 1e-12));
	CHECK(NEAR(f->self.ch.delta, 0.0, 1e-12));
	/*
	 * Poisson: variances (1e8)^2 / 100 and (2e8)^2 / 200, se sqrt(3e14),
	 * z = 1e8 / 1.7320508e7 = 5.7735027, P = erfc(z / sqrt 2) = 7.7602e-9
	 */
	CHECK(f->self_time.ch.test == CMP_TEST_POISSON);
	CHECK(NEAR(f->self_time.ch.stat, 5.773502691896258, 1e-9));
	CHECK(NEAR(f->self_time.ch.p, erfc(5.773502691896258 / sqrt(2.0)), 1e-15));
	CHECK(NEAR(f->self_time.ch.rel_pct, 100.0, 1e-9));
	/* the run: 1 s -> 2 s */
	CHECK(d->run_time.valid && NEAR(d->run_time.ch.delta, 1e9, 1e-3) && d->run_time.ch.significant);
	CHECK(NEAR(d->wasm_time.before.mean, 4e8, 1e-3));
	/* the time gate: slower by more than 5%; by share: the shares did not move */
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1 && err.kind == AP_ERR_GATE && g.checks[0].slower);
	/* no unit given: the periods' own */
	CHECK_STR_CONTAINS(err.msg, "after.data: core.cwasm local_func_0: time per run 100000000.00 "
			   "-> 200000000.00 (+100.0%, p=7.8e-09): slower by more than 5%");
	cmp_gate__exit(&g);
	go.unit_scale = 1e6;
	go.unit = "ms";
	CHECK(cmp_diff__gate(d, &go, &g, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "time per run 100.00 -> 200.00 ms (+100.0%");
	cmp_gate__exit(&g);
	go.by_share = 1;
	CHECK(cmp_diff__gate(d, &go, &g, &err) == 0 && !g.checks[0].grew && !g.failed);
	cmp_gate__exit(&g);
	cmp_diff__delete(d);
	d = NULL;

	/* three captures a side: 100, 110, 90 ms -> 200, 210, 190 ms; Welch */
	side_init(&b, "before", m, NULL);
	side_init(&a, "after", m, NULL);
	for (uint32_t k = 0; k < 3; k++) {
		weigh(ws[k], pw[k], 3, 1000000);
		weigh(xs[k], px[k], 3, 1000000);
		side_add(&b, 1000, ws[k], NULL, NULL, NULL);
		side_time(&b, k, pw[k], 1000 * 1000000ULL);
		side_add(&a, 1000, xs[k], NULL, NULL, NULL);
		side_time(&a, k, px[k], 1000 * 1000000ULL);
	}
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d)
		goto out;
	f = entry(d, 0, 0);
	/* sd 10 ms each: se sqrt(2 * 100 / 3) ms = 8.1650 ms, t = 100 / 8.1650 = 12.2474, df 4 */
	CHECK(f && f->self_time.ch.test == CMP_TEST_WELCH);
	CHECK(f && NEAR(f->self_time.before.sd, 1e7, 1e-3) && NEAR(f->self_time.ch.stat, 12.247448713915889, 1e-9));
	CHECK(f && NEAR(f->self_time.ch.df, 4.0, 1e-9) && f->self_time.ch.significant);
	/* the interval: 100 ms +- t(0.975, 4) 2.7764451 x 8.1649658 ms */
	CHECK(f && NEAR(f->self_time.ch.ci_lo, 1e8 - 2.7764451051977987 * 8.16496580927726e6, 1e-9));
	cmp_diff__delete(d);
	d = NULL;

	/* one capture (100 ms of 100 samples) against three: Poisson variance 1e14 for the one */
	b.side.ncaptures = 1;
	CHECK(cmp_diff__new(&b.side, &a.side, NULL, &d, &err) == 0);
	if (!d)
		goto out;
	f = entry(d, 0, 0);
	/* se^2 = 1e14 + (1e7)^2 / 3 = 1.3333e14: t = 1e8 / 1.1547e7 = 8.6603 */
	CHECK(f && f->self_time.ch.test == CMP_TEST_WELCH &&
	      NEAR(f->self_time.ch.stat, 1e8 / sqrt(1e14 + 1e14 / 3.0), 1e-9));
out:
	cmp_diff__delete(d);
	cwasm__delete(m);
}

/* ---- class tables ---- */

static void test_classes(void)
{
	struct cls_table tb, ta;
	struct cmp_cls_diff cd;
	struct ap_err err = { 0 };
	const int zx = 3, alu = 4, fr = 0, last = CLS__COUNT - 1;

	/* by index only: whatever the classes are called */
	memset(&tb, 0, sizeof(tb));
	memset(&ta, 0, sizeof(ta));
	tb.samples[zx] = 270;
	tb.samples[alu] = 500;
	tb.samples[fr] = 230;
	tb.total = 1000;
	tb.static_count[zx] = 12;
	tb.static_count[alu] = 40;
	tb.static_count[last] = 2;
	ta.samples[zx] = 90;
	ta.samples[alu] = 680;
	ta.samples[fr] = 230;
	ta.total = 1000;
	ta.static_count[zx] = 4;
	ta.static_count[alu] = 41;
	CHECK(cmp_cls__diff(&tb, &ta, NULL, &cd, &err) == 0);
	CHECK(cd.tested && cd.ntested == 3);
	CHECK(cd.cls[zx].static_before == 12 && cd.cls[zx].static_after == 4 &&
	      cd.cls[zx].static_change == -8);
	CHECK(cd.cls[last].static_change == -2);
	CHECK_NEAR(cd.cls[zx].share.before.mean, 27.0, 1e-14);
	CHECK_NEAR(cd.cls[zx].share.after.mean, 9.0, 1e-14);
	CHECK_NEAR(cd.cls[zx].share.ch.delta, -18.0, 1e-13);
	CHECK(cd.cls[zx].share.ch.significant && cd.cls[alu].share.ch.significant);
	CHECK(!cd.cls[fr].share.ch.significant && cd.cls[fr].share.ch.p == 1.0);
	/* a tie of 18 points: the lower index first */
	CHECK(cd.order[0] == zx && cd.order[1] == alu);
	CHECK(cd.cls[last].share.ch.test == CMP_TEST_NONE);
	/* percentages only: shares and points, no test */
	ta.percent_only = 1;
	CHECK(cmp_cls__diff(&tb, &ta, NULL, &cd, &err) == 0);
	CHECK(!cd.tested && cd.ntested == 0 && !cd.cls[zx].share.ch.significant);
	CHECK_NEAR(cd.cls[zx].share.ch.delta, -18.0, 1e-13);
}

int main(void)
{
	test_normal();
	test_betai();
	test_student_t();
	test_adjust();
	test_tests();
	test_match();
	test_moves_and_imports();
	test_core_pairs();
	test_shares_z();
	test_captures();
	test_simulated_mix();
	test_inclusive();
	test_bad_input();
	test_gate();
	test_time();
	test_classes();
	CHECK_DONE();
}
