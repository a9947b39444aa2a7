// SPDX-License-Identifier: MIT
/*
 * The diff's view and formats (view/diff.h, render/diff.h) and the
 * several-captures renderers (captures.h) on diffs whose numbers are
 * known: time per run first, shares second, the order, the inclusive
 * table that call graphs add, renamed/added/removed lists, 80 columns,
 * Markdown tables whose every row has the header's cell count.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "compare/diff.h"
#include "cwasm/cwasm.h"
#include "render/captures.h"
#include "render/diff.h"

static const struct cwasm_type one_type = { 0, 0, NULL, NULL };
static const struct cwasm_import_spec imports[2] = {
	{ "env", "i0", 0, 0 }, { "env", "i1", 0, 0 },
};

/* nf functions 32 bytes apart, 2 imports, names[i] for local i (NULL: none) */
static struct cwasm_module *mkcore(uint32_t nf, const char *const *names, const char *path)
{
	struct cwasm_name_spec ns[16];
	uint32_t offs[16], nn = 0;
	uint8_t text[16 * 32];
	struct cwasm_spec s;
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	uint8_t *buf = NULL;
	size_t len = 0;

	memset(&s, 0, sizeof(s));
	memset(text, 0x90, sizeof(text));
	for (uint32_t i = 0; i < nf; i++) {
		offs[i] = 32 * i;
		if (names[i])
			ns[nn++] = (struct cwasm_name_spec){ 2 + i, names[i] };
	}
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = 32 * nf;
	s.nfuncs = nf;
	s.offsets = offs;
	s.ntypes = 1;
	s.types = &one_type;
	s.nimports = 2;
	s.imports = imports;
	s.nnames = nn;
	s.names = ns;
	if (cwasm__build(&s, &buf, &len, &err) < 0 ||
	    cwasm__parse(buf, len, path, &m, &err) < 0) {
		fprintf(stderr, "fixture: %s\n", err.msg);
		exit(2);
	}
	free(buf);
	return m;
}

/* the text a renderer writes, as a string */
struct capture_out {
	char *buf;
	size_t len;
	FILE *f;
};

static void out_open(struct capture_out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
}

static char *out_close(struct capture_out *o)
{
	fclose(o->f);
	return o->buf;
}

static int widest_line(const char *s)
{
	int w = 0, cur = 0;

	for (; *s; s++) {
		if (*s == '\n') {
			cur = 0;
			continue;
		}
		/* count characters, not UTF-8 continuation bytes */
		if (((unsigned char)*s & 0xc0) != 0x80 && ++cur > w)
			w = cur;
	}
	return w;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* Markdown: every table line has as many unescaped pipes as its table's header */
static int md_tables_ok(const char *md, int *ntables)
{
	int want = -1;

	*ntables = 0;
	for (const char *line = md; *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) : strlen(line);
		int pipes = 0;

		for (size_t i = 0; i < n; i++)
			pipes += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
		if (n && line[0] == '|') {
			if (want < 0) {
				want = pipes;
				++*ntables;
			} else if (pipes != want) {
				fprintf(stderr, "markdown row with %d pipes, header %d: %.*s\n", pipes,
					want, (int)n, line);
				return 0;
			}
		} else {
			want = -1;
		}
		line += n + (end ? 1 : 0);
	}
	return 1;
}

static char tmp_path[512];

static const char *tpath(const char *name)
{
	const char *d = getenv("TMPDIR");

	snprintf(tmp_path, sizeof(tmp_path), "%s/test_diff_render.%d.%s", d ? d : "/tmp",
		 (int)getpid(), name);
	return tmp_path;
}

/* counts x 0.5 ms: each sample's period, as cpu-clock at 2000 Hz records it */
static void periods(const uint64_t *c, uint64_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = c[i] * 500000;
}

/* The view of a and b with the text, JSON and Markdown formats. */
struct rendered {
	char *txt, *js, *md;
};

static void render_all(const struct cmp_diff *d, const struct cmp_side *b, const struct cmp_side *a,
		       struct rendered *out)
{
	struct view_diff_input in = { .tool = "test", .d = d, .side = { b, a }, .top = 20,
				      .event = "cpu-clock", .period_ns = 1 };
	struct view_diff *v = NULL;
	struct ap_err err = { 0 };
	struct capture_out o;

	memset(out, 0, sizeof(*out));
	CHECK(view_diff__new(&in, &v, &err) == 0);
	if (!v)
		return;
	out_open(&o);
	render__diff_text(o.f, v, 80);
	out->txt = out_close(&o);
	CHECK(render__diff_json_file(tpath("d.json"), v, &err) == 0);
	out->js = read_file(tpath("d.json"));
	CHECK(render__diff_markdown_file(tpath("d.md"), v, &err) == 0);
	out->md = read_file(tpath("d.md"));
	unlink(tpath("d.json"));
	unlink(tpath("d.md"));
	view_diff__delete(v);
}

static void rendered_exit(struct rendered *r)
{
	free(r->txt);
	free(r->js);
	free(r->md);
}

/*
 * before: f0 f1 f2 f3; after: f0 f1 g2 (renamed), f3 gone. Two captures a
 * side of 1000 samples, each sample 0.5 ms; self and inclusive counts.
 */
static void test_diff(void)
{
	static const char *const nb[4] = { "f0", "f1", "f2", "f3" };
	static const char *const na[3] = { "f0", "f1", "g2" };
	static const uint64_t sb1[4] = { 100, 300, 50, 10 }, sb2[4] = { 110, 290, 50, 12 };
	static const uint64_t sa1[4] = { 100, 500, 50, 40 }, sa2[4] = { 104, 520, 48, 30 };
	static const uint64_t ib1[4] = { 900, 300, 50, 10 }, ib2[4] = { 900, 290, 50, 12 };
	static const uint64_t ia1[4] = { 700, 500, 50, 40 }, ia2[4] = { 702, 520, 48, 30 };
	uint64_t pb[2][2][4], pa[2][2][4];	/* [capture][self, incl][func] */
	struct cwasm_module *mb = mkcore(4, nb, "old.cwasm"), *ma = mkcore(3, na, "new.cwasm");
	const struct cwasm_module *mbs[1] = { mb }, *mas[1] = { ma };
	const uint64_t *selfb[2][1] = { { sb1 }, { sb2 } }, *selfa[2][1] = { { sa1 }, { sa2 } };
	const uint64_t *inclb[2][1] = { { ib1 }, { ib2 } }, *incla[2][1] = { { ia1 }, { ia2 } };
	const uint64_t *psb[2][1], *pib[2][1], *psa[2][1], *pia[2][1];
	struct cmp_capture cb[2] = {
		{ .label = "b1.data", .total = 1000, .self = selfb[0], .incl = inclb[0] }, { .label = "b2.data", .total = 1000, .self = selfb[1], .incl = inclb[1] },
	};
	struct cmp_capture ca[2] = {
		{ .label = "a1.data", .total = 1000, .self = selfa[0], .incl = incla[0] }, { .label = "a2.data", .total = 1000, .self = selfa[1], .incl = incla[1] },
	};
	struct cmp_side b = { "before", 1, mbs, 2, cb }, a = { "after", 1, mas, 2, ca };
	struct cmp_diff *d = NULL;
	struct ap_err err = { 0 };
	struct rendered r;
	int ntables = 0;

	for (int k = 0; k < 2; k++) {
		periods(selfb[k][0], pb[k][0], 4);
		periods(inclb[k][0], pb[k][1], 4);
		periods(selfa[k][0], pa[k][0], 4);
		periods(incla[k][0], pa[k][1], 4);
		psb[k][0] = pb[k][0];
		pib[k][0] = pb[k][1];
		psa[k][0] = pa[k][0];
		pia[k][0] = pa[k][1];
		cb[k].total_period = ca[k].total_period = 1000 * 500000;
		cb[k].self_period = psb[k];
		cb[k].incl_period = pib[k];
		ca[k].self_period = psa[k];
		ca[k].incl_period = pia[k];
	}
	CHECK(cmp_diff__new(&b, &a, NULL, &d, &err) == 0);
	if (!d) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	render_all(d, &b, &a, &r);
	/*
	 * f1: 295 -> 510 samples a run of 0.5 ms: 147.50 -> 255.00 ms, +107.50
	 * (+73%); 29.5% -> 51.0% of the run; the largest change, first
	 */
	CHECK_STR_CONTAINS(r.txt, "Self: CPU time per run (ms) and share (%)");
	CHECK_STR_CONTAINS(r.txt, "  f1                         147.50 255.00 +107.50  +73%  0.029 *"
			   "   29.50  51.00");
	CHECK(strstr(r.txt, "  f1 ") < strstr(r.txt, "  f0 "));
	/* the runs: 500 ms each side, no note */
	CHECK_STR_CONTAINS(r.txt, "  the run (every sample)");
	CHECK(!strstr(r.txt, "NOTE:"));
	/* inclusive: f0 450.00 -> 350.50 ms is the largest inclusive change */
	CHECK_STR_CONTAINS(r.txt, "Inclusive (call graphs): CPU time per run");
	CHECK_STR_CONTAINS(r.txt, "  f0                         450.00 350.50  -99.50  -22% 0.0096 *"
			   "   90.00  70.10");
	CHECK_STR_CONTAINS(r.txt, "Renamed (same wasm index, another name): 1");
	CHECK_STR_CONTAINS(r.txt, "local_func_2 f2");
	CHECK_STR_CONTAINS(r.txt, "local_func_2 g2");
	CHECK_STR_CONTAINS(r.txt, "Removed (only in the before build): 1");
	CHECK(widest_line(r.txt) <= 80);
	CHECK_STR_CONTAINS(r.js, "\"inclusive\": {");
	CHECK_STR_CONTAINS(r.js, "\"inclusive_time\": {");
	CHECK_STR_CONTAINS(r.js, "\"tested_functions_inclusive\": 3");
	CHECK_STR_CONTAINS(r.js, "\"status\": \"renamed\"");
	CHECK_STR_CONTAINS(r.js, "\"time_unit\": \"ns\"");
	/* f1 self time before: mean 147.5 ms, sd of 150 and 145 ms */
	CHECK_STR_CONTAINS(r.js, "\"mean\": 147500000,");
	CHECK(r.md && md_tables_ok(r.md, &ntables));
	/* per side recordings and cores, the totals, self, inclusive, renamed, removed */
	CHECK_EQ_U64(ntables, 9);
	CHECK_STR_CONTAINS(r.md, "## Inclusive CPU time per run and share by function");
	/* the same numbers in Markdown */
	CHECK_STR_CONTAINS(r.md, "147.50");
	CHECK_STR_CONTAINS(r.md, "+107.50");
	CHECK_STR_CONTAINS(r.md, "| `f1`");
	rendered_exit(&r);

	/* without call graphs on one side: no inclusive table anywhere */
	ca[0].incl = ca[1].incl = NULL;
	ca[0].incl_period = ca[1].incl_period = NULL;
	cmp_diff__delete(d);
	d = NULL;
	CHECK(cmp_diff__new(&b, &a, NULL, &d, &err) == 0);
	render_all(d, &b, &a, &r);
	CHECK(r.txt && !strstr(r.txt, "Inclusive"));
	CHECK(r.js && strstr(r.js, "\"inclusive\": null"));
	rendered_exit(&r);
	cmp_diff__delete(d);
	cwasm__delete(mb);
	cwasm__delete(ma);
}

static void test_words(void)
{
	char buf[32];

	CHECK(!strcmp(render__tail("short", 10, buf, sizeof(buf)), "short"));
	CHECK(!strcmp(render__tail("/a/very/long/path.data", 12, buf, sizeof(buf)),
		      "...path.data"));
}

/* four captures of one build: the report's mean and spread table */
static void test_captures(void)
{
	static const char *const nb[4] = { "f0", "f1", "f2", "f3" };
	static const uint64_t c1[4] = { 100, 0, 0, 0 }, c2[4] = { 120, 5, 0, 0 };
	static const uint64_t c3[4] = { 80, 0, 0, 0 }, c4[4] = { 100, 0, 0, 1 };
	struct cwasm_module *m = mkcore(4, nb, "one.cwasm");
	const struct cwasm_module *ms[1] = { m };
	const uint64_t *self[4][1] = { { c1 }, { c2 }, { c3 }, { c4 } };
	struct cmp_capture caps[4] = {
		{ .label = "1.data", .total = 1000, .self = self[0], .incl = NULL }, { .label = "2.data", .total = 1000, .self = self[1], .incl = NULL },
		{ .label = "3.data", .total = 1000, .self = self[2], .incl = NULL }, { .label = "4.data", .total = 1000, .self = self[3], .incl = NULL },
	};
	struct cmp_side s = { NULL, 1, ms, 4, caps };
	struct view_captures_input in = { .tool = "test", .side = &s, .top = 2 };
	struct view_captures *v = NULL;
	struct cmp_agg *agg = NULL;
	struct ap_err err = { 0 };
	struct capture_out o;
	char *txt;

	CHECK(cmp_agg__new(&s, &agg, &err) == 0);
	if (!agg)
		return;
	in.agg = agg;
	CHECK(view_captures__new(&in, &v, &err) == 0);
	out_open(&o);
	if (v)
		render__captures_text(o.f, v);
	txt = out_close(&o);
	view_captures__delete(v);
	/* f0: 10, 12, 8, 10% -> mean 10, sd sqrt(8/3) = 1.63 */
	CHECK_STR_CONTAINS(txt, "aotperf report: 4 recordings of one build");
	CHECK_STR_CONTAINS(txt, "     1  local_func_0      10.00   1.63   8.00  12.00       400  f0");
	CHECK_STR_CONTAINS(txt, "     2  local_func_1       0.12   0.25   0.00   0.50         5  f1");
	CHECK_STR_CONTAINS(txt, "1 more functions with samples");
	CHECK(widest_line(txt) <= 80);
	free(txt);
	cmp_agg__delete(agg);
	cwasm__delete(m);
}

int main(void)
{
	test_diff();
	test_words();
	test_captures();
	CHECK_DONE();
}
