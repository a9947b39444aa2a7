// SPDX-License-Identifier: MIT
/*
 * The kernel's symbols from a kallsyms text (profile/kallsyms.h) and the
 * build-id cache folder perf's config names (util/perfconfig.h):
 *
 *  - texts written here by hand (aliases at one address, data and module
 *    lines, a symbol sized by the next): the index (kallsyms__index) and
 *    the full parse name each address as perf's rules say; a text out of
 *    the kernel's layout (unsorted, short addresses) is left to the parse;
 *  - the same text as a file (kallsyms__index_file, mapped): the same
 *    names, the file unchanged by the lookups; a size a page multiple (no
 *    NUL after the mapped bytes), a text out of layout, a file over the
 *    limit, /proc/kallsyms and a missing file left to the caller's read;
 *  - this machine's /proc/kallsyms, when it shows addresses: every
 *    address around every function symbol named by the index as a
 *    reference computed here from the lines (sorted, the last one listed
 *    at an address, up to the next function's address);
 *  - config texts: sections, quotes, escapes, comments, case, the last
 *    setting; the folder from PERF_BUILDID_DIR, PERF_CONFIG, ~/.perfconfig
 *    and the ~/.debug default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../profile/kallsyms.h"
#include "../../util/file.h"
#include "../../util/perfconfig.h"

static char *dup_text(const char *s)
{
	return strdup(s);
}

/* The name the index gives addr in text (a copy), "-" for none, "!" when not indexed. */
static const char *indexed(const char *text, uint64_t addr, char *out, size_t n)
{
	struct kallsyms *k;
	char *t = dup_text(text);
	const char *name;

	if (!t || kallsyms__index(t, strlen(t), &k) != 1) {
		free(t);
		return "!";
	}
	name = kallsyms__find(k, addr);
	snprintf(out, n, "%s", name ? name : "-");
	kallsyms__delete(k);
	return out;
}

static const char *const kernel_text =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"		/* an alias: the last one listed names it */
	"ffffffff81000010 t local_one\n"
	"ffffffff81000010 D data_here\n"	/* data: not a function */
	"ffffffff81000020 W weak_one\n"
	"ffffffff81000020 T strong_one\n"
	"ffffffff81000040 T last_fn\n"
	"ffffffff81001000 T _etext\n"
	"ffffffffc0000000 t mod_fn\t[some_mod]\n";

static void test_texts(void)
{
	char buf[128];
	struct elf_func *v = NULL;
	size_t n = 0;
	uint64_t a = 0, b = 0;
	char *t;

	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81000000ull, buf, sizeof(buf)), "_text"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff8100000full, buf, sizeof(buf)), "_text"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81000018ull, buf, sizeof(buf)), "local_one"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81000020ull, buf, sizeof(buf)), "strong_one"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81000040ull, buf, sizeof(buf)), "last_fn"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81000fffull, buf, sizeof(buf)), "last_fn"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff80ffffffull, buf, sizeof(buf)), "-"));
	/* the last one reaches to the page after its own; the module's line is not the kernel's */
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81002fffull, buf, sizeof(buf)), "_etext"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffff81003000ull, buf, sizeof(buf)), "-"));
	CHECK(!strcmp(indexed(kernel_text, 0xffffffffc0000004ull, buf, sizeof(buf)), "-"));

	/* the full parse: the same functions, modules' and data left out, sized by the next */
	t = dup_text(kernel_text);
	CHECK(t && kallsyms__parse(t, strlen(t), &v, &n, &a, &b) == 0);
	CHECK_EQ_U64(n, 7);
	CHECK_EQ_U64(a, 0xffffffff81000000ull);
	CHECK_EQ_U64(b, 0xffffffff81001000ull);
	if (n == 7) {
		CHECK(!strcmp(v[1].name, "_text") && v[1].size == 0x10 && v[0].size == 0);
		CHECK(!strcmp(v[4].name, "strong_one") && v[4].size == 0x20);
		CHECK(v[6].size == 0);
	}
	free(v);
	free(t);

	/* out of the kernel's layout: for the full parse */
	CHECK(!strcmp(indexed("ffffffff81000010 T b\nffffffff81000000 T a\n", 0xffffffff81000010ull,
			      buf, sizeof(buf)), "!"));
	CHECK(!strcmp(indexed("81000000 T a\n", 0x81000000ull, buf, sizeof(buf)), "!"));
	t = dup_text("ffffffff81000010 T b\nffffffff81000000 T a\n81000000 T c\n");
	CHECK(t && kallsyms__parse(t, strlen(t), &v, &n, &a, &b) == 0);
	CHECK(n == 3 && v[0].value == 0x81000000ull && !strcmp(v[1].name, "a") &&
	      v[1].size == 0x10);
	free(v);
	free(t);
	/* uppercase or other bytes in an address: not a line */
	CHECK(!strcmp(indexed("ffffffff81000000 T a\nffffffff8100000G T b\n", 0xffffffff81000100ull,
			      buf, sizeof(buf)), "a"));
	t = dup_text("FFFFFFFF81000000 T up\nffffffff81000000 T low\n");
	CHECK(t && kallsyms__parse(t, strlen(t), &v, &n, &a, &b) == 0);
	CHECK(n == 1 && !strcmp(v[0].name, "low"));
	free(v);
	free(t);
}

struct ref_sym {
	uint64_t addr;
	const char *name;
};

static int ref_cmp(const void *a, const void *b)
{
	const struct ref_sym *x = a, *y = b;

	/* stable by address: the name pointers follow the text's order */
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

/* The running kernel's text: the index against a reference made here, line by line. */
static void test_proc(void)
{
	struct ap_err err;
	struct kallsyms *k = NULL;
	struct ref_sym *r;
	size_t len, n = 0, bad = 0, checked = 0;
	char *text, *copy, *line, *save = NULL;

	if (ap_file__read_all(KALLSYMS_PROC, 0, (size_t)256 << 20, &text, &len, NULL, &err)) {
		printf("no %s: its check is skipped\n", KALLSYMS_PROC);
		return;
	}
	copy = malloc(len + 1);
	r = calloc(len / 20 + 1, sizeof(*r));
	CHECK(copy && r);
	if (!copy || !r)
		goto out;
	memcpy(copy, text, len + 1);
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a;
		char type, name[256];

		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || strchr(line, '\t') ||
		    !strchr("tTwW", type) || !a)
			continue;
		r[n++] = (struct ref_sym){ a, strrchr(line, ' ') + 1 };
	}
	if (!n) {
		printf("%s shows no addresses: its check is skipped\n", KALLSYMS_PROC);
		goto out;
	}
	qsort(r, n, sizeof(*r), ref_cmp);
	CHECK(kallsyms__index(text, len, &k) == 1);
	if (!k)
		goto out;
	text = NULL;
	/* at each function's address, inside it and at its last byte: the last one listed there */
	for (size_t i = 0; i < n; i++) {
		uint64_t end = i + 1 < n ? r[i + 1].addr : (r[i].addr & ~4095ull) + 8192;
		uint64_t at[3] = { r[i].addr, r[i].addr + (end - r[i].addr) / 2, end - 1 };

		if (i + 1 < n && r[i + 1].addr == r[i].addr)
			continue;	/* an alias listed before another */
		for (int j = 0; j < 3; j++) {
			const char *got = kallsyms__find(k, at[j]);

			checked++;
			if (!got || strcmp(got, r[i].name)) {
				if (bad++ < 5)
					printf("at %llx: %s, want %s\n", (unsigned long long)at[j],
					       got ? got : "(none)", r[i].name);
			}
		}
	}
	CHECK_EQ_U64(bad, 0);
	CHECK(!kallsyms__find(k, r[0].addr - 1));
	printf("%zu lookups in %s\n", checked, KALLSYMS_PROC);
out:
	kallsyms__delete(k);
	free(text);
	free(copy);
	free(r);
}

static void write_file(const char *path, const char *text);

/* The mapped file: kallsyms__index_file()'s answer for text (len bytes) in a file. */
static int index_file(const char *path, const char *text, size_t len, size_t max)
{
	struct kallsyms *k;
	FILE *f = fopen(path, "w");
	int ret;

	CHECK(f != NULL);
	if (!f)
		return -2;
	CHECK(fwrite(text, 1, len, f) == len);
	fclose(f);
	ret = kallsyms__index_file(path, max, &k);
	CHECK(ret == 1 || k == NULL);
	kallsyms__delete(k);
	return ret;
}

static void test_file(void)
{
	static const uint64_t at[] = { 0xffffffff81000000ull, 0xffffffff81000018ull,
		0xffffffff81000020ull, 0xffffffff81000fffull, 0xffffffff81002fffull,
		0xffffffff81003000ull, 0xffffffff80ffffffull, 0xffffffffc0000004ull };
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	size_t len = strlen(kernel_text), page = (size_t)sysconf(_SC_PAGESIZE), got_len;
	char path[600], buf[128], *back = NULL, *padded;
	struct kallsyms *k = NULL;
	struct ap_err err;
	uint64_t a, b;
	int fd;

	snprintf(path, sizeof(path), "%s/kallsyms-file.XXXXXX", tmp);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	write_file(path, kernel_text);
	CHECK(kallsyms__index_file(path, (size_t)1 << 20, &k) == 1);
	if (k) {
		kallsyms__range(k, &a, &b);
		CHECK_EQ_U64(a, 0xffffffff81000000ull);
		CHECK_EQ_U64(b, 0xffffffff81001000ull);
		for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
			const char *name = kallsyms__find(k, at[i]);

			CHECK(!strcmp(name ? name : "-", indexed(kernel_text, at[i], buf, sizeof(buf))));
		}
	}
	kallsyms__delete(k);
	/* the lookups' NULs went to a private copy */
	CHECK(!ap_file__read_all(path, 0, (size_t)1 << 20, &back, &got_len, NULL, &err) &&
	      got_len == len && !memcmp(back, kernel_text, len));
	free(back);

	/* no room for a NUL after a page multiple: read instead (empty lines fill it here) */
	padded = malloc(page);
	CHECK(padded != NULL);
	if (padded) {
		memset(padded, '\n', page);
		memcpy(padded, kernel_text, len);
		CHECK(index_file(path, padded, page, (size_t)1 << 20) == 0);
		CHECK(index_file(path, padded, page - 1, (size_t)1 << 20) == 1);
		free(padded);
	}
	/* not the kernel's layout, over the limit, empty */
	CHECK(index_file(path, "ffffffff81000010 T b\nffffffff81000000 T a\n", 42, 1 << 20) == 0);
	CHECK(index_file(path, kernel_text, len, len - 1) == 0);
	CHECK(index_file(path, kernel_text, len, len) == 1);
	CHECK(index_file(path, "", 0, 1 << 20) == 0);
	remove(path);
	/* missing; a file that cannot be mapped (its size reads as 0) */
	CHECK(kallsyms__index_file(path, (size_t)1 << 20, &k) == 0 && !k);
	CHECK(kallsyms__index_file(KALLSYMS_PROC, (size_t)1 << 30, &k) == 0 && !k);
}

static void test_config(void)
{
	char out[256];
	const char *t = "# perf's config\n"
			"[core]\n\tdir = /not/this\n"
			"[BuildId]\n"
			"\tDir = \"/first ; dir\"   ; a comment\n"
			"[buildid \"sub\"]\n\tdir = /not/sub\n"
			"[buildid]\n"
			"\tdir = /var/cache/perf-buildid  # the last one\n"
			"\tflag\n";

	CHECK(ap_perfconfig__get(t, strlen(t), "buildid", "dir", out, sizeof(out)) == 1);
	CHECK(!strcmp(out, "/var/cache/perf-buildid"));
	CHECK(ap_perfconfig__get(t, strlen(t) - 60, "buildid", "dir", out, sizeof(out)) == 1);
	CHECK(!strcmp(out, "/first ; dir"));
	CHECK(ap_perfconfig__get(t, strlen(t), "core", "dir", out, sizeof(out)) == 1);
	CHECK(!strcmp(out, "/not/this"));
	CHECK(ap_perfconfig__get(t, strlen(t), "buildid", "flag", out, sizeof(out)) == 0);
	t = "[buildid]\n dir = \"a\\\"b\\\\c\\td\"\n";
	CHECK(ap_perfconfig__get(t, strlen(t), "buildid", "dir", out, sizeof(out)) == 1);
	CHECK(!strcmp(out, "a\"b\\c\td"));
	/* cut to the room */
	CHECK(ap_perfconfig__get(t, strlen(t), "buildid", "dir", out, 3) == 1 && !strcmp(out, "a\""));
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_dir(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char home[512], cfg[600], user[600], dir[4096];

	snprintf(home, sizeof(home), "%s/kallsyms-home.XXXXXX", tmp);
	CHECK(mkdtemp(home) != NULL);
	snprintf(cfg, sizeof(cfg), "%s/perfconfig", home);
	snprintf(user, sizeof(user), "%s/.perfconfig", home);
	setenv("HOME", home, 1);
	unsetenv("PERF_BUILDID_DIR");
	unsetenv("PERF_CONFIG");
	setenv("PERF_CONFIG_NOSYSTEM", "1", 1);
	/* nothing set: ~/.debug */
	CHECK(ap_perf__buildid_dir(dir, sizeof(dir)) == 0);
	CHECK(!strcmp(dir + strlen(home), "/.debug") && !strncmp(dir, home, strlen(home)));
	/* ~/.perfconfig */
	write_file(user, "[buildid]\ndir = /from/user\n");
	CHECK(ap_perf__buildid_dir(dir, sizeof(dir)) == 0 && !strcmp(dir, "/from/user"));
	/* PERF_CONFIG alone when set, /dev/null: none */
	write_file(cfg, "[buildid]\n\tdir = /from/perf_config\n");
	setenv("PERF_CONFIG", cfg, 1);
	CHECK(ap_perf__buildid_dir(dir, sizeof(dir)) == 0 && !strcmp(dir, "/from/perf_config"));
	setenv("PERF_CONFIG", "/dev/null", 1);
	CHECK(ap_perf__buildid_dir(dir, sizeof(dir)) == 0 && !strncmp(dir, home, strlen(home)));
	/* PERF_BUILDID_DIR first */
	setenv("PERF_BUILDID_DIR", "/from/env", 1);
	CHECK(ap_perf__buildid_dir(dir, sizeof(dir)) == 0 && !strcmp(dir, "/from/env"));
	unsetenv("PERF_BUILDID_DIR");
	unsetenv("PERF_CONFIG");
	remove(cfg);
	remove(user);
	remove(home);
}

int main(void)
{
	test_texts();
	test_file();
	test_proc();
	test_config();
	test_dir();
	CHECK_DONE();
}
