// SPDX-License-Identifier: MIT
/*
 * The view table and its emitters (view/table.h, render/table.h): the cut
 * (sort by |value|, percent limit, rows that can be shown first, top N),
 * every cell kind's words, the text at 80 and at 48 columns (the flexible
 * column fitted, a tail cut, no trailing spaces), the Markdown table, and
 * the JSON: keys nested at their dots, a group of absent cells null, an
 * array of "[]" columns, a column without a key left out; a known layout
 * (widths, gaps, '%', footers, a tag after the flexible column).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "render/table.h"
#include "util/json_out.h"
#include "view/table.h"

static const struct vt_col cols[] = {
	{ .key = "name", .head = "function", .kind = VT_TEXT, .flags = VT_FLEX | VT_CODE,
	  .prec = -1, .json_prec = -1 },
	{ .prefix = "t", .key = "before.mean", .head = "before", .kind = VT_NS, .prec = -1,
	  .json_prec = -1 },
	{ .prefix = "t", .key = "change.delta", .head = "change", .kind = VT_NS, .flags = VT_SIGNED,
	  .prec = -1, .json_prec = -1 },
	{ .prefix = "t", .key = "change.rel", .head = "rel", .kind = VT_REL, .prec = -1,
	  .json_prec = -1 },
	{ .prefix = "t", .key = "change.p", .head = "p", .kind = VT_PVALUE, .prec = -1,
	  .json_prec = -1, .absent = "-" },
	{ .head = "", .kind = VT_TEXT, .flags = VT_TIGHT | VT_NO_MD, .prec = -1, .json_prec = -1 },
	{ .prefix = "t", .key = "change.ci[]", .head = "lo", .kind = VT_POINTS,
	  .flags = VT_NO_TEXT | VT_NO_MD, .prec = -1, .json_prec = -1 },
	{ .prefix = "t", .key = "change.ci[]", .head = "hi", .kind = VT_POINTS,
	  .flags = VT_NO_TEXT | VT_NO_MD, .prec = -1, .json_prec = -1 },
	{ .key = "share", .head = "share%", .kind = VT_PERCENT, .prec = 1, .json_prec = -1 },
	{ .key = "n", .head = "samples", .kind = VT_COUNT, .flags = VT_NO_TEXT, .prec = -1,
	  .json_prec = -1 },
	{ .key = "sig", .head = "significant", .kind = VT_BOOL, .flags = VT_NO_TEXT, .prec = -1,
	  .json_prec = -1 },
};
enum { NAME, BEFORE, DELTA, REL, P, MARK, LO, HI, SHARE, N, SIG, NCOLS };

struct row {
	const char *name;
	double before, delta, rel, p, share;
	uint64_t n;
	int tested;
};

static const struct row rows[] = {
	{ "small", 1e6, 0.5e6, 50, 0.5, 2.0, 4, 1 },
	{ "big_and_slower", 100e6, 50e6, 50, 1e-12, 40.0, 400, 1 },
	{ "faster", 80e6, -60e6, -75, 0.003, 30.0, 300, 1 },
	{ "new_one", 0, 10e6, 0, 0, 0.4, 2, 0 },
	{ "unsampled", 0, 0, 0, 0, 0, 0, 0 },
};

static struct vt_table *build(void)
{
	struct vt_table *t = vt_table__new(cols, NCOLS);

	for (size_t i = 0; t && i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];

		CHECK(vt_table__add_row(t) == 0);
		vt_table__str(t, NAME, r->name);
		vt_table__dbl(t, BEFORE, r->before);
		vt_table__dbl(t, DELTA, r->delta);
		if (r->tested) {
			vt_table__dbl(t, REL, r->rel);
			vt_table__dbl(t, P, r->p);
			vt_table__str(t, MARK, r->p < 0.05 ? " *" : "");
			vt_table__dbl(t, LO, r->delta / 2e6);
			vt_table__dbl(t, HI, r->delta / 1e6);
		} else if (r->delta > 0) {
			vt_table__word(t, REL, "new");
		}
		vt_table__dbl(t, SHARE, r->share);
		vt_table__u64(t, N, r->n);
		vt_table__bool(t, SIG, r->tested && r->p < 0.05);
	}
	return t;
}

static char *text_of(const struct vt_table *t, unsigned cols_)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	render__table_text(f, t, cols_, 2, 0);
	fclose(f);
	return buf;
}

static void test_cut_and_text(void)
{
	struct vt_table *t = build();
	struct vt_cut cut = { .sort_col = DELTA, .sort_abs = 1, .descending = 1, .pct_col = SHARE,
			      .min_pct = 0.1, .show_col = N, .top = 3 };
	char *txt, *line;

	if (!t)
		return;
	CHECK(vt_table__cut(t, &cut) == 0);
	/* the percent limit drops "unsampled"; |change| orders the rest; top 3 shown */
	CHECK_EQ_U64(vt_table__nrows(t), 4);
	CHECK_EQ_U64(vt_table__shown(t), 3);
	CHECK(!strcmp(vt_table__cell(t, 0, NAME)->v.s, "faster"));
	CHECK(!strcmp(vt_table__cell(t, 1, NAME)->v.s, "big_and_slower"));
	CHECK(!strcmp(vt_table__cell(t, 2, NAME)->v.s, "new_one"));
	CHECK_EQ_U64(vt_table__row(t, 0), 2);
	txt = text_of(t, 80);
	/* headings, then each kind's words: ms, a sign, rounded relative, %.2g, the marker */
	CHECK_STR_CONTAINS(txt, "  function");
	CHECK_STR_CONTAINS(txt, "  function       before change  rel     p   share%\n");
	CHECK_STR_CONTAINS(txt, "  faster          80.00 -60.00 -75% 0.003 *   30.0\n");
	CHECK_STR_CONTAINS(txt, "  big_and_slower 100.00 +50.00 +50% <1e-9 *   40.0\n");
	CHECK_STR_CONTAINS(txt, "  new_one          0.00 +10.00  new     -      0.4\n");
	CHECK(!strstr(txt, "small"));
	for (line = txt; *line; line = strchr(line, '\n') + 1)
		CHECK(strchr(line, '\n')[-1] != ' ');
	free(txt);
	/* at 48 columns the flexible column gives way, its names cut with "..." */
	txt = text_of(t, 48);
	for (line = txt; *line; line = strchr(line, '\n') + 1)
		CHECK(strchr(line, '\n') - line <= 48);
	CHECK_STR_CONTAINS(txt, "  big_and_s... 100.00");
	free(txt);
	/* rows that cannot be shown (no samples) go last, kept for JSON */
	cut = (struct vt_cut){ .sort_col = -1, .pct_col = -1, .show_col = N, .top = 0 };
	CHECK(vt_table__cut(t, &cut) == 0);
	CHECK_EQ_U64(vt_table__nrows(t), 5);
	CHECK_EQ_U64(vt_table__shown(t), 4);
	CHECK(!strcmp(vt_table__cell(t, 4, NAME)->v.s, "unsampled"));
	vt_table__delete(t);
}

static void test_md_json(void)
{
	struct vt_table *t = build();
	struct vt_cut cut = { .sort_col = -1, .pct_col = -1, .show_col = -1, .top = 2 };
	struct ap_err err = { 0 };
	struct json_out j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!t)
		return;
	CHECK(vt_table__cut(t, &cut) == 0);
	f = open_memstream(&buf, &len);
	CHECK(render__table_md(f, "mem", t, &err) == 0);
	fclose(f);
	/* the marker column stays out, the flags' columns come in, the code span */
	CHECK_STR_CONTAINS(buf, "| function ");
	CHECK_STR_CONTAINS(buf, "| `small`");
	CHECK_STR_CONTAINS(buf, "| significant |");
	CHECK(strstr(buf, "| `faster`") == NULL);	/* top 2 */
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	json_init(&j, f);
	render__table_json_rows(&j, t);
	json_finish(&j);
	fclose(f);
	/* nested at the dots, the ci array, ns as integers, the marker left out */
	{
		char *flat = calloc(1, len + 1);
		size_t k = 0;

		for (size_t i = 0; flat && i < len; i++)
			if (buf[i] != ' ' && buf[i] != '\n')
				flat[k++] = buf[i];
		CHECK_STR_CONTAINS(flat, "{\"name\":\"small\",\"t\":{\"before\":{\"mean\":1000000},"
				   "\"change\":{\"delta\":500000,\"rel\":50.00,\"p\":0.5,\"ci\":[0.2500,0.5000]}},"
				   "\"share\":2.0000,\"n\":4,\"sig\":false}");
		/* untested: rel and p null (the word "new" is text's), ci null */
		CHECK_STR_CONTAINS(flat, "\"name\":\"new_one\",\"t\":{\"before\":{\"mean\":0},"
				   "\"change\":{\"delta\":10000000,\"rel\":null,\"p\":null,\"ci\":null}}");
		/* every row kept is in the JSON, not only the shown ones */
		CHECK_STR_CONTAINS(flat, "\"name\":\"unsampled\"");
		free(flat);
	}
	free(buf);
	/* a group of absent cells is null */
	buf = NULL;
	f = open_memstream(&buf, &len);
	json_init(&j, f);
	json_begin_obj(&j);
	CHECK(vt_table__add_row(t) == 0);
	vt_table__str(t, NAME, "bare");
	json_key(&j, "row");
	json_begin_obj(&j);
	render__table_json_members(&j, t, vt_table__nrows(t) - 1);
	json_end_obj(&j);
	json_key(&j, "t");
	render__table_json_group(&j, t, vt_table__nrows(t) - 1, "t");
	json_key(&j, "t0");
	render__table_json_group(&j, t, 0, "t.change");
	json_end_obj(&j);
	json_finish(&j);
	fclose(f);
	CHECK_STR_CONTAINS(buf, "\"t\": null");
	CHECK_STR_CONTAINS(buf, "\"t0\": {");
	CHECK_STR_CONTAINS(buf, "\"delta\": 500000");
	free(buf);
	vt_table__delete(t);
}

/*
 * A layout people know (the report's): each column at least its width,
 * its gap apart, '%' after a share; footer rows under the shown ones, in
 * text and Markdown as their flags say, never in JSON; a tag glued after
 * the flexible column, which is cut shorter on its row.
 */
static void test_layout(void)
{
	static const struct vt_col lc[] = {
		{ .key = "n", .head = "samples", .kind = VT_COUNT, .prec = -1, .json_prec = -1,
		  .width = 9, .absent = "-" },
		{ .key = "pct", .head = "%run", .kind = VT_PERCENT, .flags = VT_PCT, .prec = -1,
		  .json_prec = -1, .width = 8 },
		{ .key = "text", .head = "instruction", .kind = VT_TEXT, .flags = VT_FLEX, .prec = -1,
		  .json_prec = -1, .gap = 2, .max_chars = 200 },
		{ .head = "", .kind = VT_TEXT, .flags = VT_SUFFIX | VT_NO_MD, .prec = -1,
		  .json_prec = -1, .gap = 2 },
	};
	struct vt_cut cut = { .sort_col = -1, .pct_col = 1, .min_pct = 1.0, .show_col = -1,
			      .top = 2 };
	struct vt_table *t = vt_table__new(lc, 4);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	CHECK(t != NULL);
	if (!t)
		return;
	for (int i = 0; i < 4; i++) {
		CHECK(vt_table__add_row(t) == 0);
		vt_table__u64(t, 0, (uint64_t)(40 - 10 * i));
		vt_table__dbl(t, 1, i == 3 ? 0.5 : 40.0 - 10.0 * i - 0.5);
		vt_table__str(t, 2, "mov rax, qword ptr [r10 + 0x18]");
		if (i == 1)
			vt_table__str(t, 3, "(trap block)");
	}
	CHECK(vt_table__cut(t, &cut) == 0);
	CHECK_EQ_U64(vt_table__nrows(t), 3);	/* 9.5% stays, 0.5% leaves every format */
	CHECK_EQ_U64(vt_table__shown(t), 2);
	CHECK(vt_table__add_footer(t, VT_NO_MD) == 0);
	CHECK(vt_table__wordf(t, 2, "(%u more)", 1u) == 0);
	CHECK(vt_table__add_footer(t, VT_NO_TEXT) == 0);
	vt_table__str(t, 2, "markdown only");
	CHECK_EQ_U64(vt_table__nfooters(t), 2);
	f = open_memstream(&buf, &len);
	render__table_text(f, t, 60, 2, 0);
	fclose(f);
	CHECK_STR_CONTAINS(buf, "    samples     %run  instruction\n");
	CHECK_STR_CONTAINS(buf, "         40   39.50%  mov rax, qword ptr [r10 + 0x18]\n");
	/* 60 columns: 38 for the text and its tag, cut with "..." to leave the tag whole */
	CHECK_STR_CONTAINS(buf, "         30   29.50%  mov rax, qword ptr [r...  (trap block)\n");
	CHECK_STR_CONTAINS(buf, "          -           (1 more)\n");
	CHECK(!strstr(buf, "markdown only"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	CHECK(render__table_md(f, "mem", t, NULL) == 0);
	fclose(f);
	CHECK_STR_CONTAINS(buf, "| 39.50% |");
	CHECK_STR_CONTAINS(buf, "markdown only");
	CHECK(!strstr(buf, "more") && !strstr(buf, "trap"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	{
		struct json_out j;

		json_init(&j, f);
		render__table_json_rows(&j, t);
		json_finish(&j);
	}
	fclose(f);
	CHECK_STR_CONTAINS(buf, "\"pct\": 39.5");
	CHECK(!strstr(buf, "more") && !strstr(buf, "trap") && !strstr(buf, "markdown"));
	CHECK(!strstr(buf, "\"n\": 10"));	/* under the limit */
	free(buf);
	vt_table__delete(t);
}

int main(void)
{
	test_cut_and_text();
	test_md_json();
	test_layout();
	CHECK_DONE();
}
