// SPDX-License-Identifier: MIT
/*
 * The exports of a profile (render/report-export.h) without perf: the
 * sample core fed with known samples, as the dlfilter feeds a profile (so
 * no host frames: the samples outside wasm are one [unknown] frame in
 * pprof and no table elsewhere), then Markdown, the HTML page's data
 * document and pprof checked against those numbers; call stacks built by
 * hand (the page's stack tree, its cut past HTML_STACK_NODES, pprof's
 * stacks against the tree's inclusive counts); and failures: a full
 * disk, a missing folder (nothing left behind).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../cwasm/coreset.h"
#include "../../cwasm/json_read.h"
#include "../../profile/host.h"
#include "../../profile/profile.h"
#include "../../render/report-export.h"

#define HOT 1504	/* bounds_checked_mem in tests/fixtures */

/* The report's view of p, as aotperf report --html builds it; NULL on failure. */
static struct view_report *view_of(const struct profile *p)
{
	struct view_report_opts vo = { .top = 20, .hottest = 20, .listings = 1,
				       .nasked = UINT32_MAX };
	struct view_report *v = NULL;
	struct ap_err err = { 0 };

	CHECK(view_report__new(p, &vo, &v, &err) == 0);
	return v;
}

static char *to_string(int (*fn)(FILE *, const char *, const struct view_report *,
				 const struct render_opts *, struct ap_err *),
		       const struct profile *p, const struct render_opts *o)
{
	struct view_report *v = view_of(p);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = v ? open_memstream(&buf, &len) : NULL;
	struct ap_err err = { 0 };

	CHECK(f != NULL);
	if (f) {
		CHECK(fn(f, "mem", v, o, &err) == 0);
		fclose(f);
	}
	view_report__delete(v);
	return buf;
}

/* fn(path, view of p, o) */
static int to_file(int (*fn)(const char *, const struct view_report *, const struct render_opts *,
			     struct ap_err *),
		   const char *path, const struct profile *p, const struct render_opts *o,
		   struct ap_err *err)
{
	struct view_report *v = view_of(p);
	int rc = v ? fn(path, v, o, err) : -1;

	view_report__delete(v);
	return rc;
}

static const struct jr_node *get(const struct jr_node *o, const char *key)
{
	return o ? jr__get(o, key, NULL) : NULL;
}

static void test_html(const struct profile *p, const struct render_opts *o)
{
	char *page = to_string(render__report_html, p, o), *doc, *end;
	struct jr_node *root = NULL;
	const struct jr_node *fns, *l, *insns, *cores, *core0;
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
	cores = get(root, "cores");
	CHECK(cores && cores->n == 1);
	core0 = cores && cores->n ? &cores->items[0] : NULL;
	CHECK(get(root, "functions") == NULL);	/* in cores[0] only: once */
	fns = get(core0, "functions");
	CHECK(fns && fns->type == JR_ARRAY && fns->n == p->cs->mods[0]->nfuncs);
	/* [local_func, samples, code_bytes, name, %run]: 12 of 18 */
	if (fns && fns->n > HOT)
		CHECK(fns->items[HOT].n == 5 && fns->items[HOT].items[1].integer == 12 &&
		      !strcmp(fns->items[HOT].items[3].str, "bounds_checked_mem") &&
		      fns->items[HOT].items[4].number > 66.66 &&
		      fns->items[HOT].items[4].number < 66.67);
	l = get(root, "listings");
	CHECK(l && l->n == 1);
	insns = l && l->n ? get(&l->items[0], "insns") : NULL;
	for (size_t i = 0; insns && i < insns->n; i++)
		sum += (uint64_t)get(&insns->items[i], "samples")->integer;
	CHECK_EQ_U64(sum, 12);
	CHECK(get(root, "outside_wasm") == NULL);	/* fed samples: no host frames */
	CHECK(get(root, "stacks") == NULL);
	CHECK(get(core0, "target") == NULL);	/* one shape: artifact_target, as the JSON's */
	CHECK(get(get(core0, "artifact_target"), "decoded_as") &&
	      !strcmp(get(get(core0, "artifact_target"), "decoded_as")->str, "x86_64"));
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
	CHECK(to_file(render__report_pprof_file, path, p, o, &err) == 0);
	if (system("command -v protoc >/dev/null 2>&1") == 0)
		CHECK(pprof_total(path) == 18);	/* 15 in wasm + 3 [unknown] */
	else
		printf("protoc not installed: the pprof decode check is skipped\n");
	snprintf(bad, sizeof(bad), "%s/missing/p.pb.gz", dir);
	CHECK(to_file(render__report_pprof_file, bad, p, o, &err) == -1);
	CHECK(access(bad, F_OK) != 0);
	unlink(path);
}

/* The page's data document, parsed; NULL on failure (page freed). */
static struct jr_node *page_doc(const struct profile *p, const struct render_opts *o)
{
	char *page = to_string(render__report_html, p, o), *doc, *end;
	struct jr_node *root = NULL;
	struct ap_err err;

	if (!page)
		return NULL;
	doc = strstr(page, "id=\"aotperf-data\">");
	end = doc ? strstr(doc, "</script>") : NULL;
	if (doc && end) {
		doc += strlen("id=\"aotperf-data\">");
		CHECK(jr__parse(doc, (size_t)(end - doc), &root, &err) == 0);
	}
	free(page);
	return root;
}

/* Samples whose stack holds function NAME (once each), from protoc's decoding; -1 on failure. */
static long long pprof_incl(const char *gz, const char *name)
{
	char cmd[4096];
	long long t = -1;
	FILE *pp;

	snprintf(cmd, sizeof(cmd),
		 "gzip -dc '%s' | protoc --decode=perftools.profiles.Profile"
		 " --proto_path=\"$(dirname '%s')\" '%s' | gawk -v want='%s' '"
		 "/^sample \\{/ { b = \"s\"; nl = 0; nv = 0; next }"
		 " /^location \\{/ { b = \"l\"; next } /^function \\{/ { b = \"f\"; next }"
		 " /^\\}/ { if (b == \"s\") { ns++; v[ns] = v0; n[ns] = nl;"
		 "   for (k = 1; k <= nl; k++) L[ns, k] = loc[k] } b = \"\"; next }"
		 " b == \"s\" && $1 == \"location_id:\" { loc[++nl] = $2 }"
		 " b == \"s\" && $1 == \"value:\" { if (!nv++) v0 = $2 }"
		 " b == \"l\" && $1 == \"id:\" { lid = $2 }"
		 " b == \"l\" && $1 == \"function_id:\" { lf[lid] = $2 }"
		 " b == \"f\" && $1 == \"id:\" { fid = $2 }"
		 " b == \"f\" && $1 == \"name:\" { fn[fid] = $2 }"
		 " /^string_table:/ { x = $0; sub(/^string_table: \"/, \"\", x); sub(/\"$/, \"\", x);"
		 "   str[nstr++] = x }"
		 " END { for (i = 1; i <= ns; i++) { h = 0;"
		 "   for (k = 1; k <= n[i]; k++) if (str[fn[lf[L[i, k]]]] == want) h = 1;"
		 "   t += h * v[i] } print t + 0 }'",
		 gz, PPROF_PROTO, PPROF_PROTO, name);
	pp = popen(cmd, "r");
	if (!pp)
		return -1;
	if (fscanf(pp, "%lld", &t) != 1)
		t = -1;
	pclose(pp);
	return t;
}

/*
 * Stacks by hand for the fed samples: main > HOT (its 12: 10 at its start,
 * 2 at +4) > local_func_1500 (its 3), and the 3 outside wasm in libc's read
 * under main; the host table and the leaves as profile__read makes them.
 */
static void test_stacks(struct profile *p, const struct render_opts *o, const char *dir)
{
	struct profile_stacks *st = stacks__new();
	struct profile_host *h = calloc(1, sizeof(*h));
	const struct cwasm_module *m = p->cs->mods[0];
	struct jr_node *root;
	const struct jr_node *nodes;
	struct ap_err err = { 0 };
	uint32_t fr[3];
	uint64_t roots = 0;
	int64_t s_main, s_hot, s_1500, s_read, hf;
	char path[512], name[64];

	CHECK(st && h);
	if (!st || !h) {
		stacks__delete(st);
		free(h);
		return;
	}
	s_main = stacks__sym_host(st, "main", "/usr/bin/wamr");
	s_hot = stacks__sym_wasm(st, 0, HOT);
	s_1500 = stacks__sym_wasm(st, 0, 1500);
	s_read = stacks__sym_host(st, "read", "/usr/lib/libc.so.6");
	for (int i = 0; i < 12; i++) {
		fr[0] = (uint32_t)s_hot;
		fr[1] = (uint32_t)s_main;
		CHECK(stacks__add(st, fr, 2) == 0);
		CHECK(stacks__add_leaf(st, 0, m->funcs[HOT].offset + (i < 10 ? 0 : 4)) == 0);
	}
	for (int i = 0; i < 3; i++) {
		fr[0] = (uint32_t)s_1500;
		fr[1] = (uint32_t)s_hot;	/* 1500 called from HOT */
		fr[2] = (uint32_t)s_main;
		CHECK(stacks__add(st, fr, 3) == 0);
		CHECK(stacks__add_leaf(st, 0, m->funcs[1500].offset) == 0);
	}
	for (int i = 0; i < 3; i++) {
		struct profile_host_map map = { 0x7000, 0x9000, 0 };

		hf = profile_host__add(h, "/usr/lib/libc.so.6", 0, 0x7100, &map, "read");
		fr[0] = (uint32_t)s_read;
		fr[1] = (uint32_t)s_main;
		CHECK(stacks__add(st, fr, 2) == 0);
		CHECK(stacks__add_leaf(st, -1, (uint64_t)hf) == 0);
	}
	st->mode = STACKS_FP;
	st->fp_samples = st->samples;
	CHECK(stacks__finish(st, &err) == 0);
	p->stacks = st;
	p->host = h;

	root = page_doc(p, o);
	nodes = get(get(root, "stacks"), "nodes");
	CHECK(nodes && nodes->n == 4);	/* main, HOT, 1500 under HOT, read */
	for (size_t i = 0; nodes && i < nodes->n; i++) {
		const struct jr_node *nd = &nodes->items[i];
		int64_t parent = get(nd, "parent")->integer;

		CHECK(parent < (int64_t)i);
		if (parent < 0)
			roots += (uint64_t)get(nd, "total")->integer;
		if (!strcmp(get(nd, "name")->str, "local_func_1504:bounds_checked_mem")) {
			CHECK(get(nd, "total")->integer == 15 && get(nd, "self")->integer == 12);
			CHECK(!strcmp(get(nd, "kind")->str, "wasm") && get(nd, "local_func")->integer == HOT);
			CHECK(!strcmp(get(nd, "core")->str, core_set__core_name(m)));
		}
	}
	CHECK_EQ_U64(roots, 18);
	CHECK(get(get(root, "stacks"), "left_out")->integer == 0);
	jr__delete(root);

	snprintf(path, sizeof(path), "%s/s.pb.gz", dir);
	CHECK(to_file(render__report_pprof_file, path, p, o, &err) == 0);
	if (system("command -v protoc >/dev/null 2>&1") == 0) {
		CHECK(pprof_total(path) == 18);
		CHECK(pprof_incl(path, "main") == 18);
		CHECK(pprof_incl(path, "local_func_1504:bounds_checked_mem") == 15);
		CHECK(pprof_incl(path, "local_func_1500:helper_mix") == 3 ||
		      pprof_incl(path, "local_func_1500") == 3);
		CHECK(pprof_incl(path, "read") == 3);
	}
	unlink(path);

	/* a tree too big for the page: the frames with the fewest samples go */
	p->stacks = stacks__new();
	CHECK(p->stacks != NULL);
	for (uint32_t i = 0; p->stacks && i < 6000; i++) {
		int64_t leaf;

		snprintf(name, sizeof(name), "f%u", i);
		leaf = stacks__sym_host(p->stacks, name, NULL);
		fr[0] = (uint32_t)leaf;
		fr[1] = (uint32_t)stacks__sym_host(p->stacks, "main", NULL);
		for (uint32_t k = 0; k < 1 + (i % 3 == 0); k++)
			CHECK(stacks__add(p->stacks, fr, 2) == 0);
	}
	if (p->stacks) {
		p->stacks->mode = STACKS_FP;
		CHECK(stacks__finish(p->stacks, &err) == 0);
		root = page_doc(p, o);
		nodes = get(get(root, "stacks"), "nodes");
		CHECK(nodes && nodes->n == 5000);
		CHECK(get(get(root, "stacks"), "left_out")->integer == 6001 - 5000);
		for (size_t i = 1; nodes && i < nodes->n; i++) {
			CHECK(get(&nodes->items[i], "parent")->integer == 0);
			/* the 2,000 frames with 2 samples are all in */
			if (i <= 2000)
				CHECK(get(&nodes->items[i], "total")->integer >= 1);
		}
		{
			uint64_t twos = 0;

			for (size_t i = 1; nodes && i < nodes->n; i++)
				twos += get(&nodes->items[i], "total")->integer == 2;
			CHECK_EQ_U64(twos, 2000);
		}
		jr__delete(root);
	}
	stacks__delete(p->stacks);
	stacks__delete(st);
	p->stacks = NULL;
	profile_host__exit(h);
	free(h);
	p->host = NULL;
}

static void test_failures(const struct profile *p, const struct render_opts *o, const char *dir)
{
	struct ap_err err = { 0 };
	char bad[512];
	FILE *full = fopen("/dev/full", "w");

	struct view_report *v = view_of(p);

	if (full && v) {
		CHECK(render__report_md(full, "/dev/full", v, o, &err) == -1);
		CHECK(err.kind == AP_ERR_IO);
		CHECK_STR_CONTAINS(err.msg, "/dev/full");
	}
	if (full)
		fclose(full);
	view_report__delete(v);
	snprintf(bad, sizeof(bad), "%s/missing/r.html", dir);
	CHECK(to_file(render__report_html_file, bad, p, o, &err) == -1);
	CHECK(access(bad, F_OK) != 0);
	snprintf(bad, sizeof(bad), "%s/missing/r.md", dir);
	CHECK(to_file(render__report_md_file, bad, p, o, &err) == -1);
}

int main(void)
{
	const char *fx = getenv("FIXTURES");
	char path[512], dir[256];
	struct render_opts ro = { .top = 20, .fa_listed = 20, .tool = "test" };
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
	test_stacks(p, &ro, dir);
	test_failures(p, &ro, dir);
	rmdir(dir);
	profile__delete(p);
	core_set__exit(&cs);
	CHECK_DONE();
}
