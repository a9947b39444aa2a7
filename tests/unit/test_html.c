// SPDX-License-Identifier: MIT
/*
 * The HTML writer without a browser (tests/browser/ renders it in one):
 * the page's structure, the Content-Security-Policy hashes against the
 * inlined assets (recomputed here), nothing in the data can end its script
 * block, whitespace dropped, bad documents refused with no file left, the
 * json_out callback path, and the html_data listing writer on the sample
 * fixture's br_table function (its jump table becomes a data range).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "check.h"
#include "../../render/html.h"
#include "../../render/html_data.h"
#include "../../classify/classify.h"
#include "../../cwasm/cwasm.h"
#include "../../util/json_out.h"
#include "../../util/sha256.h"
#include "../../view/listing.h"

static char dir[4096];

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = (size_t)n;
	}
	return buf;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* base64, written independently of render/html.c */
static void b64(const uint8_t *d, size_t n, char *out)
{
	const char *t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t o = 0, i;

	for (i = 0; i + 2 < n; i += 3) {
		out[o++] = t[d[i] >> 2];
		out[o++] = t[((d[i] & 3) << 4) | (d[i + 1] >> 4)];
		out[o++] = t[((d[i + 1] & 15) << 2) | (d[i + 2] >> 6)];
		out[o++] = t[d[i + 2] & 63];
	}
	if (n - i == 2) {
		out[o++] = t[d[i] >> 2];
		out[o++] = t[((d[i] & 3) << 4) | (d[i + 1] >> 4)];
		out[o++] = t[(d[i + 1] & 15) << 2];
		out[o++] = '=';
	} else if (n - i == 1) {
		out[o++] = t[d[i] >> 2];
		out[o++] = t[(d[i] & 3) << 4];
		out[o++] = '=';
		out[o++] = '=';
	}
	out[o] = 0;
}

/* The text between open and the next close after it, hashed as CSP does. */
static int csp_source_ok(const char *page, const char *open, const char *close,
			 const char *directive)
{
	const char *a = strstr(page, open), *b, *h;
	uint8_t d[32];
	char want[64], got[64];

	if (!a)
		return 0;
	a += strlen(open);
	b = strstr(a, close);
	if (!b)
		return 0;
	ap_sha256(a, (size_t)(b - a), d);
	b64(d, 32, want);
	h = strstr(page, directive);
	if (!h || sscanf(h + strlen(directive), " 'sha256-%63[^']'", got) != 1)
		return 0;
	return strcmp(want, got) == 0;
}

/* No file and no temporary file in dir but the ones named keep*. */
static int dir_clean(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int clean = 1;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strncmp(e->d_name, "keep", 4) != 0)
			clean = 0;
	closedir(d);
	return clean;
}

static void test_page(void)
{
	const char *doc = "{\n  \"title\": \"a </script><!-- b\",\n  \"n\": [1, 2.5e3, -0.1, true, false, null],\n"
			  "  \"s\": \"tab\\t quote\\\" u\\u00e9 \\u003c\"\n}\n";
	char path[4200];
	struct ap_err err;
	char *page, *data;
	size_t len;

	snprintf(path, sizeof(path), "%s/keep-page.html", dir);
	CHECK(html__write(path, doc, strlen(doc), &err) == 0);
	page = slurp(path, &len);
	CHECK(page != NULL);
	if (!page)
		return;
	CHECK(!strncmp(page, "<!DOCTYPE html>", 15));
	CHECK_STR_CONTAINS(page, "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';");
	/* exactly the two script blocks, the data one first */
	CHECK_EQ_U64(count(page, "<script"), 2);
	CHECK_EQ_U64(count(page, "</script"), 2);
	CHECK_EQ_U64(count(page, "<!--"), 0);
	data = strstr(page, "<script type=\"application/json\" id=\"aotperf-data\">");
	CHECK(data != NULL);
	if (data) {
		data += strlen("<script type=\"application/json\" id=\"aotperf-data\">");
		/* minified, '<' escaped, values untouched */
		CHECK(!strncmp(data, "{\"title\":\"a \\u003c/script>\\u003c!-- b\",\"n\":[1,2.5e3,-0.1,true,false,null],"
				     "\"s\":\"tab\\t quote\\\" u\\u00e9 \\u003c\"}</script>", 117));
	}
	CHECK(csp_source_ok(page, "<script>", "</script>", "script-src"));
	CHECK(csp_source_ok(page, "<style>", "</style>", "style-src"));
	/* nothing fetched from anywhere */
	CHECK(!strstr(page, "http://") || strstr(page, "http://www.w3.org/2000/svg"));
	CHECK(!strstr(page, "https://"));
	CHECK(!strstr(page, " src="));
	CHECK(!strstr(page, "<link"));
	free(page);
	CHECK(unlink(path) == 0);
}

static void test_bad_documents(void)
{
	static const char *const bad[] = {
		"",
		"   ",
		"[1, 2]",
		"\"s\"",
		"{\"a\": ",
		"{\"a\": \"x}",
		"{\"a\": 1}}",
		"{\"a\": 1} x",
		"{\"a\": [1}",
		"{\"a\": \"\x01\"}",
		"{\"a\": @}",
		"{\"a\": \"\\x\"}",
		"{\"a\": \"\\u12g4\"}",
		"{\"a\": <b>}",
	};
	char path[4200];

	snprintf(path, sizeof(path), "%s/bad.html", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ap_err err;

		memset(&err, 0, sizeof(err));
		err.kind = AP_ERR_IO;
		CHECK(html__write(path, bad[i], strlen(bad[i]), &err) == -1);
		CHECK(err.kind == AP_ERR_INPUT);
		CHECK_STR_CONTAINS(err.msg, "bad.html: ");
		CHECK_STR_CONTAINS(err.msg, "data document");
		CHECK(access(path, F_OK) != 0);
		CHECK(dir_clean());
	}
	/* nesting deeper than json_out's 16 levels is fine here */
	{
		char deep[3000];
		size_t n = 0;
		struct ap_err err;

		deep[n++] = '{';
		memcpy(deep + n, "\"a\":", 4);
		n += 4;
		for (int i = 0; i < 1000; i++)
			deep[n++] = '[';
		for (int i = 0; i < 1000; i++)
			deep[n++] = ']';
		deep[n++] = '}';
		CHECK(html__write(path, deep, n, &err) == 0);
		CHECK(unlink(path) == 0);
	}
}

struct emit_arg {
	int fail;
};

static int emit_doc(struct json_out *j, void *arg, struct ap_err *err)
{
	struct emit_arg *a = arg;

	json_begin_obj(j);
	json_key(j, "title");
	json_str(j, "emitted </script>");
	json_key(j, "total_samples");
	json_u64(j, 42);
	if (a->fail)
		return ap_errf(err, "emit: made to fail");
	json_end_obj(j);
	json_finish(j);
	return 0;
}

static int emit_unbalanced(struct json_out *j, void *arg, struct ap_err *err)
{
	(void)arg;
	(void)err;
	json_begin_obj(j);
	json_key(j, "a");
	json_begin_arr(j);
	return 0;
}

static void test_emit(void)
{
	struct emit_arg a = { 0 };
	char path[4200];
	struct ap_err err;
	char *page;

	snprintf(path, sizeof(path), "%s/keep-emit.html", dir);
	CHECK(html__write_emit(path, emit_doc, &a, &err) == 0);
	page = slurp(path, NULL);
	CHECK_STR_CONTAINS(page, "id=\"aotperf-data\">{\"title\":\"emitted \\u003c/script>\",\"total_samples\":42}</script>");
	free(page);
	CHECK(unlink(path) == 0);

	snprintf(path, sizeof(path), "%s/failed.html", dir);
	a.fail = 1;
	CHECK(html__write_emit(path, emit_doc, &a, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "made to fail");
	CHECK(access(path, F_OK) != 0);
	CHECK(html__write_emit(path, emit_unbalanced, NULL, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "ends inside 2 bracket(s)");
	CHECK(access(path, F_OK) != 0);
	CHECK(dir_clean());
}

static void test_assets(void)
{
	extern const unsigned char html_viewer_js[], html_viewer_css[];
	extern const size_t html_viewer_js_len, html_viewer_css_len;
	const char *js = (const char *)html_viewer_js, *css = (const char *)html_viewer_css;

	/* the inlined assets cannot end their own blocks */
	CHECK(strlen(js) == html_viewer_js_len);
	CHECK(strlen(css) == html_viewer_css_len);
	CHECK(!strstr(js, "</"));
	CHECK(!strstr(js, "<!--"));
	CHECK(!strstr(css, "</"));
	/* and use no eval-like construct the CSP would block */
	CHECK(!strstr(js, "eval("));
	CHECK(!strstr(js, "new Function"));
	CHECK(!strstr(js, "innerHTML"));
	CHECK(!strstr(js, "setAttribute('style'"));
	CHECK(!strstr(css, "@import"));
	CHECK(!strstr(css, "url("));
}

/*
 * html_data__listing of the listing view (view/listing.h) of sample.cwasm's
 * br_table function: every entry, branches into it by offset, the
 * instruction count without the jump table's words.
 */
static void test_listing(void)
{
	const char *fx = getenv("FIXTURES");
	char path[4200], *text = NULL;
	struct cwasm_module *m = NULL;
	struct cls_roles roles;
	struct cls_func f;
	struct view_listing l;
	struct json_out j;
	struct ap_err err;
	uint64_t *samples;
	size_t len = 0;
	int64_t func = -1;
	FILE *mem;

	if (!fx) {
		printf("test_listing: FIXTURES not set, skipped\n");
		return;
	}
	snprintf(path, sizeof(path), "%s/sample.cwasm", fx);
	if (cwasm__read(path, &m, &err)) {
		CHECK(!"read sample.cwasm");
		return;
	}
	for (uint32_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].name && !strcmp(m->funcs[i].name, "br_table_dispatch"))
			func = i;
	CHECK(func >= 0);
	if (func < 0) {
		cwasm__delete(m);
		return;
	}
	cls__roles_default(m->target.arch, &roles);
	memset(&f, 0, sizeof(f));
	CHECK(cls__decode(m->target.arch, &roles, m->text + m->funcs[func].offset,
			  m->funcs[func].size, 0x10000 + m->funcs[func].offset, &f, &err) == 0);
	samples = calloc(f.ninsns, sizeof(*samples));
	for (uint32_t i = 0; samples && i < f.ninsns; i++)
		samples[i] = i % 3;
	CHECK(view_listing__init(&l, m, (uint32_t)func, &f, samples, &err) == 0);
	mem = open_memstream(&text, &len);
	json_init(&j, mem);
	html_data__listing(&j, "sample.cwasm", (uint32_t)func, m->funcs[func].name,
			   m->funcs[func].size, &l);
	json_finish(&j);
	fclose(mem);
	view_listing__exit(&l);
	CHECK_STR_CONTAINS(text, "\"name\": \"br_table_dispatch\"");
	{
		char want[64];
		uint32_t ndata = 0;

		for (uint32_t i = 0; i < f.ninsns; i++)
			ndata += f.insns[i].cls == CLS_DATA;
		CHECK(ndata > 0);
		snprintf(want, sizeof(want), "\"instruction_count\": %u", f.ninsns - ndata);
		CHECK_STR_CONTAINS(text, want);
	}
	/* branches inside the function by offset, as the text's listings: never 0x10000 + ... */
	CHECK_STR_CONTAINS(text, "\"text\": \"jmp +0x");
	for (const char *t = strstr(text, "\"text\": \"j"); t; t = strstr(t + 1, "\"text\": \"j"))
		CHECK(!strstr(t, " 0x") || strstr(t, " 0x") > strchr(t + 10, '"'));
	CHECK_STR_CONTAINS(text, "\"class\": \"dispatch\"");
	CHECK_STR_CONTAINS(text, "\"class\": \"data\"");
	CHECK_EQ_U64(count(text, "\"offset\""), f.ninsns);
	/* one data range, starting at the first data entry */
	{
		char want[64];
		uint32_t first = 0, end = 0;

		for (uint32_t i = 0; i < f.ninsns; i++)
			if (f.insns[i].cls == CLS_DATA) {
				if (!end)
					first = f.insns[i].offset;
				end = f.insns[i].offset + f.insns[i].size;
			}
		snprintf(want, sizeof(want), "\"start\": %u,\n      \"end\": %u", first, end);
		CHECK(end > first);
		CHECK_STR_CONTAINS(text, want);
	}
	/* the first instruction's bytes, from the module's text */
	{
		char want[64];
		const uint8_t *b = m->text + m->funcs[func].offset;

		snprintf(want, sizeof(want), "\"bytes\": \"%02x", b[0]);
		CHECK_STR_CONTAINS(text, want);
	}
	free(text);
	free(samples);
	cls_func__exit(&f);
	cwasm__delete(m);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_html.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_page();
	test_bad_documents();
	test_emit();
	test_assets();
	test_listing();
	rmdir(dir);
	CHECK_DONE();
}
