// SPDX-License-Identifier: MIT
/*
 * The GFM table writer: a table of hostile cells (pipes, backticks,
 * emphasis, HTML, entities, links, math, newlines, UTF-8, long names) is
 * rendered by GitHub's own Markdown implementation, cmark-gfm with its
 * table extension, and every cell must come back as one cell holding
 * exactly the text put in. Without cmark-gfm only the line syntax is
 * checked (and the test says so).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../../render/markdown.h"

#define NCOLS 4

static char dir[4096];

/* name cell, code cell, number (right), centred note */
static const char *const cells[][NCOLS] = {
	{ "local_func_1504", "local_func_1504", "383", "plain" },
	{ "a|b", "a|b`c", "1,234", "pipe" },
	{ "`code` and ``two``", "``", "0", "backticks" },
	{ "*emph* _u_ __init__ **b**", "x*y_z", "12.5%", "emphasis" },
	{ "line1\nline2\r\tend", "a\nb", "-3", "newlines" },
	{ "<script>alert(1)</script>", "<b>", "7", "html" },
	{ "[link](http://x) ![i](y)", "[a]", "8", "links" },
	{ "&amp; &lt; &#124;", "&amp;", "9", "entities" },
	{ "~~strike~~ $x$ \\back\\", "\\", "10", "strike math backslash" },
	{ "caf\xc3\xa9_\xc3\xbcn\xc3\xaf" "code", "\xc3\xa9", "11", "utf-8" },
	{ "a_very_long_wasm_function_name_that_goes_on", "", "12", "long" },
	{ " lead and trail ", " `x` ", "13", "spaces" },
};
#define NROWS (sizeof(cells) / sizeof(cells[0]))

/* What a reader sees in each cell: controls as spaces, surrounding spaces trimmed. */
static void expect(const char *in, char *out, size_t len)
{
	size_t o = 0;

	while (*in == ' ')
		in++;
	for (; *in && o + 1 < len; in++)
		out[o++] = (unsigned char)*in < 0x20 ? ' ' : *in;
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = 0;
}

/* HTML text of a cell: tags dropped, entities decoded. */
static void html_text(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		if (s[i] == '<') {
			while (i < n && s[i] != '>')
				i++;
			continue;
		}
		if (s[i] == '&') {
			static const struct { const char *e; char c; } ents[] = {
				{ "&lt;", '<' }, { "&gt;", '>' }, { "&amp;", '&' }, { "&quot;", '"' },
			};
			int hit = 0;

			for (size_t k = 0; k < 4; k++)
				if (!strncmp(s + i, ents[k].e, strlen(ents[k].e))) {
					out[o++] = ents[k].c;
					i += strlen(ents[k].e) - 1;
					hit = 1;
					break;
				}
			if (hit)
				continue;
		}
		out[o++] = s[i];
	}
	out[o] = 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* GFM line syntax: every line framed by pipes, NCOLS cells (unescaped pipes). */
static void check_syntax(const char *md)
{
	int line = 0;

	for (const char *p = md; *p; line++) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		int pipes = 0;

		CHECK(n >= 2 && p[0] == '|' && p[n - 1] == '|');
		for (size_t i = 0; i < n; i++) {
			if (p[i] == '\\') {
				i++;
				continue;
			}
			pipes += p[i] == '|';
		}
		CHECK_EQ_U64(pipes, NCOLS + 1);
		if (line == 1)	/* the alignment row */
			CHECK(strspn(p, "|-: ") == n);
		p = e ? e + 1 : p + n;
	}
	CHECK_EQ_U64(line, NROWS + 2);
}

static void test_table(void)
{
	struct ap_err err;
	struct md_table *t = md_table__new(NCOLS, &err);
	char path[4200], cmd[9000];
	char *md, *html;
	FILE *f;

	CHECK(t != NULL);
	if (!t)
		return;
	CHECK(md_table__column(t, 0, "function | name", MD_LEFT, 30, &err) == 0);
	CHECK(md_table__column(t, 1, "code", MD_LEFT, 0, &err) == 0);
	CHECK(md_table__column(t, 2, "samples", MD_RIGHT, 0, &err) == 0);
	CHECK(md_table__column(t, 3, "note", MD_CENTER, 0, &err) == 0);
	for (size_t r = 0; r < NROWS; r++) {
		CHECK(md_table__cell(t, cells[r][0], &err) == 0);
		CHECK(md_table__cell_code(t, cells[r][1], &err) == 0);
		if (r == 1)	/* the printf form */
			CHECK(md_table__cellf(t, &err, "%d,%03d", 1, 234) == 0);
		else
			CHECK(md_table__cell(t, cells[r][2], &err) == 0);
		CHECK(md_table__cell(t, cells[r][3], &err) == 0);
		CHECK(md_table__end_row(t, &err) == 0);
	}
	snprintf(path, sizeof(path), "%s/t.md", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f) {
		md_table__delete(t);
		return;
	}
	CHECK(md_table__write(t, f, path, &err) == 0);
	fclose(f);
	md_table__delete(t);
	md = slurp(path);
	CHECK(md != NULL);
	if (!md)
		return;
	printf("%s", md);
	check_syntax(md);
	/* readable source: a plain function name is not escaped */
	CHECK_STR_CONTAINS(md, "| local_func_1504 ");
	CHECK_STR_CONTAINS(md, "| `local_func_1504` ");

	if (system("command -v cmark-gfm >/dev/null 2>&1") != 0) {
		printf("cmark-gfm not installed: checked the GFM line syntax only\n");
		free(md);
		unlink(path);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cmark-gfm -e table '%s' > '%s.html'", path, path);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s.html", path);
	html = slurp(cmd);
	CHECK(html != NULL);
	if (html) {
		const char *p = strstr(html, "<table>");
		size_t row = 0;

		CHECK(p != NULL);
		CHECK(!strstr(html, "raw HTML omitted"));
		CHECK_STR_CONTAINS(html, "<th align=\"right\">samples</th>");
		CHECK_STR_CONTAINS(html, "<th align=\"center\">note</th>");
		CHECK_STR_CONTAINS(html, "<th>function | name</th>");
		p = p ? strstr(p, "<tbody>") : NULL;
		while (p && (p = strstr(p, "<tr>")) && row < NROWS) {
			const char *end = strstr(p, "</tr>");
			int col = 0;

			for (const char *c = p; end && (c = strstr(c, "<td")) && c < end; col++) {
				const char *in = strchr(c, '>') + 1, *close = strstr(in, "</td>");
				char got[256], want[256], trunc[64];

				html_text(in, (size_t)(close - in), got, sizeof(got));
				expect(cells[row][col], want, sizeof(want));
				if (row == 10 && col == 0) {
					/* 30 characters: 15, an ellipsis, 14 */
					snprintf(trunc, sizeof(trunc), "%.15s\xe2\x80\xa6%s", want,
						 want + strlen(want) - 14);
					snprintf(want, sizeof(want), "%s", trunc);
				}
				if (col == 1 && !strcmp(cells[row][col], " `x` "))
					snprintf(want, sizeof(want), " `x` ");
				if (strcmp(got, want)) {
					fprintf(stderr, "row %zu col %d: got \"%s\", want \"%s\"\n", row, col, got, want);
					CHECK(!"cell text survives");
				} else {
					CHECK(1);
				}
				if (col == 1 && want[0])
					CHECK(!strncmp(in, "<code>", 6));
				c = close;
			}
			CHECK_EQ_U64(col, NCOLS);
			row++;
			p = end;
		}
		CHECK_EQ_U64(row, NROWS);
	}
	free(html);
	free(md);
	unlink(cmd);
	unlink(path);
}

static void test_errors(void)
{
	struct ap_err err;
	struct md_table *t;

	CHECK(md_table__new(0, &err) == NULL);
	CHECK(md_table__new(MD_MAX_COLS + 1, &err) == NULL);
	t = md_table__new(2, &err);
	CHECK(md_table__column(t, 2, "x", MD_LEFT, 0, &err) == -1);
	CHECK(md_table__column(t, 0, "x", MD_LEFT, 3, &err) == -1);
	CHECK(md_table__cell(t, "a", &err) == 0);
	CHECK(md_table__cell(t, "b", &err) == 0);
	CHECK(md_table__cell(t, "c", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "more than 2 cells in row 1");
	md_table__delete(t);
	t = md_table__new(2, &err);
	/* an empty table is still a table: header and alignment rows */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		CHECK(md_table__write(t, f, "mem", &err) == 0);
		fclose(f);
		CHECK(buf && !strcmp(buf, "|     |     |\n|-----|-----|\n"));
		free(buf);
	}
	md_table__delete(t);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_markdown.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_table();
	test_errors();
	rmdir(dir);
	CHECK_DONE();
}
