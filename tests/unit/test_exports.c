// SPDX-License-Identifier: MIT
/*
 * The exports of a profile (render/report-export.h) without perf: the
 * sample core fed with known samples, as the dlfilter feeds a profile (so
 * no host frames: the samples outside wasm are one [unknown] frame in
 * pprof and no table elsewhere), then Markdown, the HTML page's data
 * document and pprof checked against those numbers; and failures: a full
 * disk, a missing folder (nothing left behind).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../cwasm/coreset.h"
#include "../../cwasm/json_read.h"
#include "../../profile/profile.h"
#include "../../render/report-export.h"

#define HOT 1504	/* bounds_checked_mem in tests/fixtures */

static char *to_string(int (*fn)(FILE *, const char *, const struct profile *,
				 const struct render_opts *, struct ap_err *),
		       const struct profile *p, const struct render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ap_err err = { 0 };

	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK(fn(f, "mem", p, o, &err) == 0);
	fclose(f);
	return buf;
}

static const struct jr_node *get(const struct jr_node *o, const char *key)
{
	return o ? jr__get(o, key, NULL) : NULL;
}

static void test_html(const struct profile *p, const struct render_opts *o)
{
	char *page = to_string(render__report_html, p, o), *doc, *end;
	struct jr_node *root = NULL;
	const struct jr_node *fns, *l, *insns;
	struct ap_err err;
	uint64_t sum = 0;

	if (!page)
		return;
	doc = strstr(page, "id=\"aotperf-data\">");
	end = doc ? strstr(doc, "</script>") : NULL;
	CHECK(doc && end);
	if (!doc || !end) {
		free(page);
		return;
	}
	doc += strlen("id=\"aotperf-data\">");
	CHECK(jr__parse(doc, (size_t)(end - doc), &root, &err) == 0);
	fns = get(root, "functions");
	CHECK(fns && fns->type == JR_ARRAY && fns->n == p->cs->mods[0]->nfuncs);
	if (fns && fns->n > HOT)
		CHECK(fns->items[HOT].n == 4 && fns->items[HOT].items[1].integer == 12 &&
		      !strcmp(fns->items[HOT].items[3].str, "bounds_checked_mem"));
	l = get(root, "listings");
	CHECK(l && l->n == 1);
	insns = l && l->n ? get(&l->items[0], "insns") : NULL;
	for (size_t i = 0; insns && i < insns->n; i++)
		sum += (uint64_t)get(&insns->items[i], "samples")->integer;
	CHECK_EQ_U64(sum, 12);
	CHECK(get(root, "host") == NULL);	/* fed samples: no host frames */
	CHECK(get(root, "stacks") == NULL);
	CHECK(get(get(root, "target"), "arch") && !strcmp(get(get(root, "target"), "arch")->str, "x86_64"));
	CHECK_STR_CONTAINS(page, "Content-Security-Policy");
	jr__delete(root);
	free(page);
}

static void test_md(const struct profile *p, const struct render_opts *o)
{
	char *md = to_string(render__report_md, p, o);

	if (!md)
		return;
	CHECK_STR_CONTAINS(md, "| samples      |");
	CHECK_STR_CONTAINS(md, "|    1 | `local_func_1504` |      12 | 66.67% |");
	CHECK_STR_CONTAINS(md, "|    2 | `local_func_1500` |       3 | 16.67% |");
	CHECK_STR_CONTAINS(md, "#### `local_func_1504` (bounds_checked_mem): 12 samples (66.67% of run)");
	CHECK_STR_CONTAINS(md, "**verdict: ");
	CHECK(strstr(md, "outside wasm: ") == NULL);	/* no host frames to list */
	CHECK_STR_CONTAINS(md, "| outside wasm |  3 (16.67%) |");
	free(md);
}

/* The first value of every sample, summed, from protoc's decoding. */
static long long pprof_total(const char *gz)
{
	char cmd[2048];
	long long t = -1;
	FILE *pp;

	snprintf(cmd, sizeof(cmd),
		 "gzip -dc '%s' | protoc --decode=perftools.profiles.Profile"
		 " --proto_path=\"$(dirname '%s')\" '%s' | awk '/^sample \\{/ { s = 1; n = 0 }"
		 " s && $1 == \"value:\" { if (!n++) t += $2 } /^\\}/ { s = 0 } END { print t + 0 }'",
		 gz, PPROF_PROTO, PPROF_PROTO);
	pp = popen(cmd, "r");
	if (!pp)
		return -1;
	if (fscanf(pp, "%lld", &t) != 1)
		t = -1;
	pclose(pp);
	return t;
}

static void test_pprof(const struct profile *p, const struct render_opts *o, const char *dir)
{
	char path[512], bad[512];
	struct ap_err err = { 0 };

	snprintf(path, sizeof(path), "%s/p.pb.gz", dir);
	CHECK(render__report_pprof_file(path, p, o, &err) == 0);
	if (system("command -v protoc >/dev/null 2>&1") == 0)
		CHECK(pprof_total(path) == 18);	/* 15 in wasm + 3 [unknown] */
	else
		printf("protoc not installed: the pprof decode check is skipped\n");
	snprintf(bad, sizeof(bad), "%s/missing/p.pb.gz", dir);
	CHECK(render__report_pprof_file(bad, p, o, &err) == -1);
	CHECK(access(bad, F_OK) != 0);
	unlink(path);
}

static void test_failures(const struct profile *p, const struct render_opts *o, const char *dir)
{
	struct ap_err err = { 0 };
	char bad[512];
	FILE *full = fopen("/dev/full", "w");

	if (full) {
		CHECK(render__report_md(full, "/dev/full", p, o, &err) == -1);
		CHECK(err.kind == AP_ERR_IO);
		CHECK_STR_CONTAINS(err.msg, "/dev/full");
		fclose(full);
	}
	snprintf(bad, sizeof(bad), "%s/missing/r.html", dir);
	CHECK(render__report_html_file(bad, p, o, &err) == -1);
	CHECK(access(bad, F_OK) != 0);
	snprintf(bad, sizeof(bad), "%s/missing/r.md", dir);
	CHECK(render__report_md_file(bad, p, o, &err) == -1);
}

int main(void)
{
	const char *fx = getenv("FIXTURES");
	char path[512], dir[256];
	struct render_opts ro = { .top = 20, .hottest = 20, .fa_listed = 20, .tool = "test" };
	struct core_set cs = { 0 };
	struct ap_err err = { 0 };
	struct profile *p = NULL;
	const struct cwasm_module *m;

	snprintf(path, sizeof(path), "%s/sample.cwasm", fx ? fx : "build/fixtures");
	snprintf(dir, sizeof(dir), "%s/test_exports.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	CHECK(core_set__add_cwasm(&cs, path, &err) == 0);
	if (!cs.n || profile__new(&cs, NULL, 0, "cpu-clock", &p, &err)) {
		CHECK(!"the sample core and a profile of it");
		core_set__exit(&cs);
		CHECK_DONE();
	}
	m = cs.mods[0];
	/* 12 samples in bounds_checked_mem (10 at its first byte, 2 at +4),
	 * 3 in local_func_1500, 3 outside every core */
	for (int i = 0; i < 10; i++)
		CHECK(profile__sample(p, 0, m->funcs[HOT].offset) == HOT);
	for (int i = 0; i < 2; i++)
		profile__sample(p, 0, m->funcs[HOT].offset + 4);
	for (int i = 0; i < 3; i++)
		CHECK(profile__sample(p, 0, m->funcs[1500].offset) == 1500);
	for (int i = 0; i < 3; i++)
		CHECK(profile__sample(p, -1, 0) == -1);
	profile__set_mapping(p, 0, 1, 0x7f0000000000, 0x8a000, 1);
	CHECK(profile__finish(p, &err) == 0);
	CHECK(profile__add_hot(p, 1, &err) == 0 && profile__classify(p, NULL, &err) == 0);

	test_html(p, &ro);
	test_md(p, &ro);
	test_pprof(p, &ro, dir);
	test_failures(p, &ro, dir);
	rmdir(dir);
	profile__delete(p);
	core_set__exit(&cs);
	CHECK_DONE();
}
