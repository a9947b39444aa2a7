// SPDX-License-Identifier: MIT
/*
 * jitdump/: the jitdump writer (read back with an independent reader that
 * follows perf's jitdump specification, not our code), the perf map writer
 * and the per-core ELF image (read back with libelf).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "symbolize/elfimage.h"
#include "jitdump/jitdump.h"
#include "symbolize/perfmap.h"

static char scratch[1024];

/* ---- an independent jitdump reader ---- */

struct rec {
	uint32_t id, size;
	uint64_t ts;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_size, code_index;
	const char *name;
	const uint8_t *code;
};

struct dump {
	uint8_t *buf;
	size_t len;
	uint32_t magic, version, hsize, elf_mach, pad1, pid;
	uint64_t ts, flags;
	struct rec *recs;
	size_t n;
	int ok;		/* every byte accounted for, every record well formed */
};

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* Whole file; reads until EOF, so /proc files (size 0) work too. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0, got;
	uint8_t *b, *nb;

	*len = 0;
	if (!f)
		return NULL;
	b = malloc(cap + 1);
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			nb = realloc(b, cap + 1);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	fclose(f);
	if (b) {
		b[n] = 0;
		*len = n;
	}
	return b;
}

static int parse_load(struct rec *r, const uint8_t *p)
{
	const uint8_t *nul;
	size_t room;

	if (r->size < 56)
		return 0;
	r->pid = rd32(p + 16);
	r->tid = rd32(p + 20);
	r->vma = rd64(p + 24);
	r->code_addr = rd64(p + 32);
	r->code_size = rd64(p + 40);
	r->code_index = rd64(p + 48);
	room = r->size - 56;
	nul = memchr(p + 56, 0, room);
	if (!nul)
		return 0;
	r->name = (const char *)(p + 56);
	r->code = nul + 1;
	/* total_size covers header, fixed fields, name + NUL and the code */
	return (size_t)(nul + 1 - (p + 56)) + r->code_size == room;
}

static int read_dump(const char *path, struct dump *d)
{
	size_t off = 40, cap = 0;

	memset(d, 0, sizeof(*d));
	d->buf = slurp(path, &d->len);
	if (!d->buf || d->len < 40)
		return -1;
	d->magic = rd32(d->buf);
	d->version = rd32(d->buf + 4);
	d->hsize = rd32(d->buf + 8);
	d->elf_mach = rd32(d->buf + 12);
	d->pad1 = rd32(d->buf + 16);
	d->pid = rd32(d->buf + 20);
	d->ts = rd64(d->buf + 24);
	d->flags = rd64(d->buf + 32);
	d->ok = 1;
	while (off < d->len) {
		struct rec r;

		memset(&r, 0, sizeof(r));
		if (d->len - off < 16) {
			d->ok = 0;
			break;
		}
		r.id = rd32(d->buf + off);
		r.size = rd32(d->buf + off + 4);
		r.ts = rd64(d->buf + off + 8);
		if (r.size < 16 || r.size > d->len - off) {
			d->ok = 0;
			break;
		}
		if (r.id == 0 && !parse_load(&r, d->buf + off))
			d->ok = 0;
		if (r.id == 3 && r.size != 16)
			d->ok = 0;
		if (d->n == cap) {
			cap = cap ? cap * 2 : 64;
			d->recs = realloc(d->recs, cap * sizeof(*d->recs));
		}
		d->recs[d->n++] = r;
		off += r.size;
	}
	return 0;
}

static void free_dump(struct dump *d)
{
	free(d->buf);
	free(d->recs);
}

static size_t count_loads(const struct dump *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->recs[i].id == 0;
	return n;
}

static off_t file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : st.st_size;
}

static int mapped(const char *path)
{
	size_t len;
	char *maps = (char *)slurp("/proc/self/maps", &len);
	int found = 0;
	char *line;

	for (line = maps ? strtok(maps, "\n") : NULL; line; line = strtok(NULL, "\n"))
		if (strstr(line, path) && strstr(line, "r-xp"))
			found = 1;
	free(maps);
	return found;
}

static char *subdir(const char *name)
{
	static char buf[8][2048];
	static int k;
	char *p = buf[k++ % 8];

	snprintf(p, 2048, "%s/%s", scratch, name);
	mkdir(p, 0755);
	return p;
}

/* A text blob whose bytes tell where they are. */
static uint8_t *pattern(size_t n, unsigned seed)
{
	uint8_t *t = malloc(n ? n : 1);
	size_t i;

	for (i = 0; i < n; i++)
		t[i] = (uint8_t)(i * 7 + seed);
	return t;
}

/* ---- jitdump ---- */

static void test_basic(void)
{
	static const uint32_t offs[4] = { 0, 16, 16, 40 };
	const char *names[4] = { "alpha", "empty", NULL, "bad\nname\r" };
	uint64_t base = 0x7f0000100000ull, t0, t1;
	uint8_t *text = pattern(64, 1);
	const char *dir = subdir("basic");
	char path[4200];
	struct aotjit *j;
	struct dump d;
	int err = 1;

	t0 = aotjit_now();
	j = aotjit_open(dir, 0, &err);
	CHECK(j != NULL);
	CHECK_EQ_U64(err, 0);
	if (!j)
		return;
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	CHECK(!strcmp(aotjit_path(j), path));
	CHECK(mapped(path));	/* the marker perf inject looks for */
	CHECK_EQ_U64(aotjit_register_core(j, base, text, 64, offs, 4, names, "mod4:"), 0);
	CHECK_EQ_U64(aotjit_code_load(j, 0x1234, text, 8, "single", 12345), 0);
	CHECK_EQ_U64(aotjit_code_load(j, 0x9999, NULL, 0, "", 0), 0);
	CHECK_EQ_U64(aotjit_code_load(j, 0x9999, NULL, 8, "x", 0), (uint64_t)-EINVAL);
	t1 = aotjit_now();
	CHECK_EQ_U64(aotjit_close(j), 0);
	CHECK(!mapped(path));

	CHECK_EQ_U64(read_dump(path, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(d.magic, 0x4A695444);
	CHECK_EQ_U64(d.version, 1);
	CHECK_EQ_U64(d.hsize, 40);
	CHECK_EQ_U64(d.elf_mach, 62);	/* EM_X86_64 on this host */
	CHECK_EQ_U64(d.pad1, 0);
	CHECK_EQ_U64(d.pid, (uint64_t)getpid());
	CHECK(d.ts >= t0 && d.ts <= t1);
	CHECK_EQ_U64(d.flags, 0);
	CHECK_EQ_U64(d.n, 6);		/* 3 of the core, 2 singles, close */
	if (d.n == 6) {
		struct rec *r = d.recs;

		CHECK(!strcmp(r[0].name, "mod4:alpha"));
		CHECK(!strcmp(r[1].name, "mod4:local_func_2"));
		CHECK(!strcmp(r[2].name, "mod4:bad_name_"));
		CHECK_EQ_U64(r[0].vma, base);
		CHECK_EQ_U64(r[1].vma, base + 16);
		CHECK_EQ_U64(r[2].vma, base + 40);
		CHECK_EQ_U64(r[1].code_addr, r[1].vma);
		CHECK_EQ_U64(r[0].code_size, 16);
		CHECK_EQ_U64(r[1].code_size, 24);
		CHECK_EQ_U64(r[2].code_size, 24);
		CHECK(!memcmp(r[1].code, text + 16, 24));
		CHECK(!memcmp(r[2].code, text + 40, 24));
		CHECK_EQ_U64(r[0].code_index, 1);
		CHECK_EQ_U64(r[2].code_index, 3);
		CHECK_EQ_U64(r[0].ts, r[2].ts);
		CHECK(r[0].ts >= d.ts && r[0].ts <= t1);
		CHECK_EQ_U64(r[0].pid, (uint64_t)getpid());
		CHECK_EQ_U64(r[3].ts, 12345);
		CHECK(!strcmp(r[3].name, "single"));
		CHECK(!strcmp(r[4].name, "_"));
		CHECK_EQ_U64(r[4].code_size, 0);
		CHECK_EQ_U64(r[5].id, 3);
	}
	free_dump(&d);
	free(text);
}

static void test_open_errors(void)
{
	const char *dir = subdir("symlink");
	char path[4200], target[4200];
	struct aotjit *j;
	int err = 0;

	/* a symlink planted at the dump path is never followed */
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	snprintf(target, sizeof(target), "%s/target", dir);
	CHECK_EQ_U64(symlink(target, path), 0);
	j = aotjit_open(dir, 0, &err);
	CHECK(j == NULL);
	CHECK_EQ_U64(err, (uint64_t)-EEXIST);
	CHECK_EQ_U64(errno, EEXIST);
	CHECK(access(target, F_OK) != 0);

	/* a leftover dump is not clobbered */
	dir = subdir("exists");
	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, (int)getpid());
	close(open(path, O_CREAT | O_WRONLY, 0600));
	j = aotjit_open(dir, 0, &err);
	CHECK(j == NULL && err == -EEXIST);
	CHECK_EQ_U64(file_size(path), 0);

	j = aotjit_open("/nonexistent/dir", 0, &err);
	CHECK(j == NULL && err == -ENOENT);
}

static void test_bad_core(void)
{
	static const uint32_t desc[3] = { 0, 32, 16 }, past[2] = { 0, 65 };
	uint8_t *text = pattern(64, 2);
	struct aotjit *j = aotjit_open(subdir("badcore"), 0, NULL);
	off_t before;

	CHECK(j != NULL);
	if (!j)
		return;
	before = file_size(aotjit_path(j));
	CHECK_EQ_U64(aotjit_register_core(j, 0x1000, text, 64, desc, 3, NULL, NULL),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(aotjit_register_core(j, 0x1000, text, 64, past, 2, NULL, NULL),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(aotjit_register_core(j, UINT64_MAX - 8, text, 64, desc, 1, NULL, NULL),
		     (uint64_t)-EINVAL);
	CHECK_EQ_U64(file_size(aotjit_path(j)), before);
	aotjit_close(j);
	free(text);
}

/* ---- .cwasm built by hand (docs/formats-cwasm.md) ---- */

struct wb {
	uint8_t b[4096];
	size_t n;
};

static void w32(struct wb *w, uint32_t v)
{
	memcpy(w->b + w->n, &v, 4);
	w->n += 4;
}

static void wbytes(struct wb *w, const void *p, size_t n)
{
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void wstr(struct wb *w, const char *s)
{
	w32(w, (uint32_t)strlen(s));
	wbytes(w, s, strlen(s));
}

static void wsec(struct wb *w, uint32_t type, const struct wb *payload)
{
	w32(w, type);
	w32(w, (uint32_t)payload->n);
	wbytes(w, payload->b, payload->n);
}

/* version, 3 functions over 48 bytes of text, 2 function imports
 * (+ one of kind import_kind, in the version 6 layout: a u32 after the
 * kind), names and exports */
static void build_cwasm(struct wb *w, uint32_t version, int v6, uint8_t import_kind,
			const uint8_t *text)
{
	struct wb s;
	uint8_t ti[40] = { 0 };
	uint8_t k0 = 0;

	memset(w, 0, sizeof(*w));
	w32(w, 0x746f6100);
	w32(w, version);

	memset(&s, 0, sizeof(s));	/* x86_64 SysV ELF64 */
	ti[0] = 2;
	ti[4] = 1;
	ti[6] = 0x3e;
	memcpy(ti + 16, "x86_64", 6);
	wbytes(&s, ti, sizeof(ti));
	wsec(w, 0, &s);

	memset(&s, 0, sizeof(s));	/* imports: 2 functions, then import_kind */
	w32(&s, 3);
	wstr(&s, "env");
	wstr(&s, "f");
	wbytes(&s, &k0, 1);
	w32(&s, 0);
	wstr(&s, "env");
	wstr(&s, "g");
	wbytes(&s, &k0, 1);
	w32(&s, 1);
	wstr(&s, "env");
	wstr(&s, "h");
	wbytes(&s, &import_kind, 1);
	w32(&s, 0);
	wsec(w, 8, &s);

	memset(&s, 0, sizeof(s));
	wbytes(&s, text, 48);
	wsec(w, 2, &s);

	memset(&s, 0, sizeof(s));
	w32(&s, 3);
	for (uint32_t i = 0; i < 3; i++) {
		w32(&s, i * 16);
		if (!v6)
			w32(&s, i);
	}
	wsec(w, 3, &s);

	memset(&s, 0, sizeof(s));	/* exports: kind 0, wasm index 5 = local 2 */
	w32(&s, 2);
	wstr(&s, "exp_gamma");
	wbytes(&s, &k0, 1);
	w32(&s, 5);
	wstr(&s, "beta_export");	/* loses to the name section */
	wbytes(&s, &k0, 1);
	w32(&s, 4);
	wsec(w, 4, &s);

	memset(&s, 0, sizeof(s));	/* names: wasm 0 is an import, 4 = local 1 */
	w32(&s, 2);
	w32(&s, 0);
	wstr(&s, "imported");
	w32(&s, 4);
	wstr(&s, "beta\n");
	wsec(w, 7, &s);
}

static void test_cwasm(void)
{
	uint8_t *text = pattern(48, 3);
	struct aotjit *j = aotjit_open(subdir("cwasm"), 183, NULL);
	struct wb w;
	struct dump d;
	char path[4200];

	CHECK(j != NULL);
	if (!j)
		return;
	snprintf(path, sizeof(path), "%s", aotjit_path(j));
	build_cwasm(&w, 7, 0, 0, text);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0x10000, w.b, w.n, "m:", AOTJIT_WASM_NAMES), 0);
	build_cwasm(&w, 6, 1, 0, text);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0x20000, w.b, w.n, NULL, 0), 0);
	/* a table import: read whole, so 2 function imports shift the names */
	build_cwasm(&w, 7, 0, 1, text);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0x30000, w.b, w.n, NULL, AOTJIT_WASM_NAMES), 0);

	build_cwasm(&w, 7, 0, 0, text);
	w.b[0] = 0x7f;
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0, w.b, w.n, NULL, 0), (uint64_t)-ENOEXEC);
	build_cwasm(&w, 3, 0, 0, text);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0, w.b, w.n, NULL, 0), (uint64_t)-ENOTSUP);
	build_cwasm(&w, 7, 0, 0, text);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0, w.b, w.n - 3, NULL, 0), (uint64_t)-EINVAL);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0, w.b, 6, NULL, 0), (uint64_t)-ENOEXEC);
	aotjit_close(j);

	CHECK_EQ_U64(read_dump(path, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(d.elf_mach, 183);
	CHECK_EQ_U64(count_loads(&d), 9);
	if (count_loads(&d) == 9) {
		struct rec *r = d.recs;

		CHECK(!strcmp(r[0].name, "m:local_func_0"));
		CHECK(!strcmp(r[1].name, "m:local_func_1:beta_"));
		CHECK(!strcmp(r[2].name, "m:local_func_2:exp_gamma"));
		CHECK_EQ_U64(r[2].vma, 0x10000 + 32);
		CHECK_EQ_U64(r[2].code_size, 16);
		CHECK(!memcmp(r[2].code, text + 32, 16));
		CHECK(!strcmp(r[3].name, "local_func_0"));
		CHECK(!strcmp(r[4].name, "local_func_1"));
		CHECK_EQ_U64(r[4].vma, 0x20000 + 16);
		CHECK(!strcmp(r[6].name, "local_func_0"));
		CHECK(!strcmp(r[7].name, "local_func_1"));
		CHECK(!strcmp(r[8].name, "local_func_2:beta_"));
	}
	free_dump(&d);
	free(text);
}

/* ---- fork: a child writes its own dump, never its parent's ---- */

static void test_fork(void)
{
	static const uint32_t offs[2] = { 0, 32 };
	const char *dir = subdir("fork");
	uint8_t *text = pattern(64, 4);
	struct aotjit *j = aotjit_open(dir, 0, NULL);
	char ppath[4200], cpath[4300];
	struct dump d;
	off_t before;
	int status = -1;
	pid_t pid;

	CHECK(j != NULL);
	if (!j)
		return;
	snprintf(ppath, sizeof(ppath), "%s", aotjit_path(j));
	CHECK_EQ_U64(aotjit_register_core(j, 0x1000, text, 64, offs, 2, NULL, "parent:"), 0);
	before = file_size(ppath);

	pid = fork();
	if (pid == 0) {
		int ret = aotjit_register_core(j, 0x5000, text, 64, offs, 2, NULL, "child:");

		ret |= aotjit_close(j);
		_exit(ret ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_U64(file_size(ppath), before);

	snprintf(cpath, sizeof(cpath), "%s/jit-%d.dump", dir, (int)pid);
	CHECK_EQ_U64(read_dump(cpath, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(d.pid, (uint64_t)pid);
	CHECK_EQ_U64(count_loads(&d), 2);
	if (d.n >= 2) {
		CHECK(!strcmp(d.recs[0].name, "child:local_func_0"));
		CHECK_EQ_U64(d.recs[0].pid, (uint64_t)pid);
		CHECK_EQ_U64(d.recs[0].tid, (uint64_t)pid);
		CHECK_EQ_U64(d.recs[0].vma, 0x5000);
		CHECK_EQ_U64(d.recs[0].code_index, 1);
	}
	free_dump(&d);

	/* a child that only closes leaves the parent's dump alone */
	pid = fork();
	if (pid == 0)
		_exit(aotjit_close(j) ? 1 : 0);
	waitpid(pid, &status, 0);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_EQ_U64(file_size(ppath), before);

	/* the parent goes on */
	CHECK_EQ_U64(aotjit_register_core(j, 0x9000, text, 64, offs, 2, NULL, "again:"), 0);
	aotjit_close(j);
	CHECK_EQ_U64(read_dump(ppath, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(count_loads(&d), 4);
	CHECK_EQ_U64(d.pid, (uint64_t)getpid());
	if (d.n >= 4)
		CHECK_EQ_U64(d.recs[3].code_index, 4);
	free_dump(&d);
	free(text);
}

/* ---- threads registering at once ---- */

#define NTHREADS 8
#define TFUNCS 300

struct targ {
	struct aotjit *j;
	int idx, ret;
	uint8_t *text;
	uint32_t offs[TFUNCS];
};

static void *thread_main(void *p)
{
	struct targ *a = p;
	char prefix[16];
	int k;

	snprintf(prefix, sizeof(prefix), "t%d:", a->idx);
	for (k = 0; k < 3; k++)
		a->ret |= aotjit_register_core(a->j, 0x100000ull * (uint64_t)(a->idx + 1),
					       a->text, TFUNCS * 100, a->offs,
					       TFUNCS, NULL, prefix);
	a->ret |= aotjit_code_load(a->j, 0xdead0000ull + (uint64_t)a->idx, a->text, 10,
				   prefix, 0);
	return NULL;
}

static void test_threads(void)
{
	struct aotjit *j = aotjit_open(subdir("threads"), 0, NULL);
	static struct targ args[NTHREADS];
	pthread_t th[NTHREADS];
	uint8_t *seen;
	struct dump d;
	char path[4200];
	size_t i, n, total = NTHREADS * (3 * TFUNCS + 1);
	int ok = 1, contiguous = 1;

	CHECK(j != NULL);
	if (!j)
		return;
	snprintf(path, sizeof(path), "%s", aotjit_path(j));
	for (i = 0; i < NTHREADS; i++) {
		args[i].j = j;
		args[i].idx = (int)i;
		args[i].text = pattern(TFUNCS * 100, (unsigned)i);
		for (n = 0; n < TFUNCS; n++)
			args[i].offs[n] = (uint32_t)(n * 100);
		pthread_create(&th[i], NULL, thread_main, &args[i]);
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_EQ_U64(args[i].ret, 0);
	}
	aotjit_close(j);

	CHECK_EQ_U64(read_dump(path, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(count_loads(&d), total);
	seen = calloc(total + 1, 1);
	for (i = 0; i < d.n; i++) {
		struct rec *r = &d.recs[i];
		int t;

		if (r->id != 0)
			continue;
		if (r->code_index < 1 || r->code_index > total || seen[r->code_index]++)
			ok = 0;
		if (sscanf(r->name, "t%d:", &t) != 1 || t < 0 || t >= NTHREADS) {
			ok = 0;
			continue;
		}
		/* the bytes are the thread's own text at that offset */
		if (r->code_size == 100) {
			uint64_t off = r->vma - 0x100000ull * (uint64_t)(t + 1);

			if (off >= TFUNCS * 100 || memcmp(r->code, args[t].text + off, 100))
				ok = 0;
			/* a core's records are not interleaved with another's */
			if (off && (i == 0 || strncmp(d.recs[i - 1].name, r->name, 3)))
				contiguous = 0;
		}
	}
	CHECK(ok);
	CHECK(contiguous);
	free(seen);
	free_dump(&d);
	for (i = 0; i < NTHREADS; i++)
		free(args[i].text);
}

/* ---- the post-hoc writer and the process-wide writer ---- */

static void test_open_file(void)
{
	static const uint32_t offs[2] = { 0, 8 };
	uint8_t *text = pattern(16, 5);
	char path[4200];
	struct aotjit *j;
	struct dump d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/jit-4242.dump", subdir("posthoc"));
	j = aotjit_open_file(path, 4242, 62, 1000, &err);
	CHECK(j != NULL);
	if (!j)
		return;
	CHECK(!mapped(path));
	CHECK_EQ_U64(aotjit_register_core_at(j, 0x4000, text, 16, offs, 2, NULL, NULL, 2000), 0);
	CHECK_EQ_U64(aotjit_close(j), 0);
	CHECK(aotjit_open_file(path, 4242, 62, 1000, &err) == NULL && err == -EEXIST);

	CHECK_EQ_U64(read_dump(path, &d), 0);
	CHECK(d.ok);
	CHECK_EQ_U64(d.pid, 4242);
	CHECK_EQ_U64(d.ts, 1000);
	CHECK_EQ_U64(count_loads(&d), 2);
	if (d.n >= 2) {
		CHECK_EQ_U64(d.recs[1].pid, 4242);
		CHECK_EQ_U64(d.recs[1].tid, 4242);
		CHECK_EQ_U64(d.recs[1].ts, 2000);
		CHECK_EQ_U64(d.recs[1].vma, 0x4008);
	}
	if (d.n == 3) {
		CHECK_EQ_U64(d.recs[2].id, 3);
		CHECK_EQ_U64(d.recs[2].ts, 2000);	/* no wall-clock time leaks in */
	}
	CHECK_EQ_U64(d.n, 3);
	free_dump(&d);
	free(text);
}

static void test_default_writer(void)
{
	static const uint32_t offs[1] = { 0 };
	uint8_t *text = pattern(16, 6);
	const char *base = subdir("default");
	char want[4200];
	const char *p;
	struct dump d;

	setenv("JITDUMPDIR", base, 1);
	CHECK(aotjit_path(NULL) == NULL);
	CHECK_EQ_U64(aotjit_register_core(NULL, 0x4000, text, 16, offs, 1, NULL, NULL), 0);
	p = aotjit_path(NULL);
	snprintf(want, sizeof(want), "%s/.debug/jit/wasm-jit-", base);
	CHECK(p && !strncmp(p, want, strlen(want)));
	CHECK_STR_CONTAINS(p, "/jit-");
	if (p) {
		snprintf(want, sizeof(want), "%s", p);
		CHECK(mapped(want));
	}
	CHECK_EQ_U64(aotjit_code_load(NULL, 0x5000, text, 4, "x", 0), 0);
	CHECK_EQ_U64(aotjit_close(NULL), 0);
	CHECK(aotjit_path(NULL) == NULL);
	CHECK_EQ_U64(read_dump(want, &d), 0);
	CHECK(d.ok && count_loads(&d) == 2 && d.n == 3);
	free_dump(&d);
	unsetenv("JITDUMPDIR");
	free(text);
}

static void test_sanitize(void)
{
	char b[AOTJIT_NAME_MAX], small[6], big[2000];
	struct aotjit *j;
	struct dump d;
	char path[4200];
	size_t n;

	aotjit_sanitize_name(b, sizeof(b), "a\nb\rc\td", SIZE_MAX);
	CHECK(!strcmp(b, "a_b_c_d"));
	aotjit_sanitize_name(b, sizeof(b), "h\xc3\xa9llo \xe2\x9c\x93", SIZE_MAX);
	CHECK(!strcmp(b, "h\xc3\xa9llo \xe2\x9c\x93"));		/* UTF-8 kept */
	aotjit_sanitize_name(b, sizeof(b), "x\xff\xc2\x85\x7fy\xed\xa0\x80", SIZE_MAX);
	CHECK(!strcmp(b, "x___y___"));	/* invalid, C1 (one character), DEL, surrogate */
	n = aotjit_sanitize_name(small, sizeof(small), "\xc3\xa9\xc3\xa9\xc3\xa9", SIZE_MAX);
	CHECK_EQ_U64(n, 4);			/* cut between characters */
	CHECK(!strcmp(small, "\xc3\xa9\xc3\xa9"));
	n = aotjit_sanitize_name(b, sizeof(b), "abcdef", 3);
	CHECK(n == 3 && !strcmp(b, "abc"));
	CHECK_EQ_U64(aotjit_sanitize_name(b, sizeof(b), NULL, 5), 0);

	/* a long name is bounded in the dump */
	memset(big, 'n', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	j = aotjit_open(subdir("sanitize"), 0, NULL);
	CHECK(j != NULL);
	if (!j)
		return;
	snprintf(path, sizeof(path), "%s", aotjit_path(j));
	CHECK_EQ_U64(aotjit_code_load(j, 0x1000, big, 4, big, 0), 0);
	aotjit_close(j);
	CHECK_EQ_U64(read_dump(path, &d), 0);
	CHECK(d.ok && d.n == 2);
	if (d.n)
		CHECK_EQ_U64(strlen(d.recs[0].name), AOTJIT_NAME_MAX - 1);
	free_dump(&d);
}

static void bench_register(void)
{
	enum { N = 20000, SZ = 100 };
	uint32_t *offs = malloc(N * sizeof(*offs));
	uint8_t *text = pattern((size_t)N * SZ, 7);
	struct aotjit *j = aotjit_open(subdir("bench"), 0, NULL);
	struct timespec a, b;
	double ms;
	uint32_t i;

	CHECK(j != NULL);
	for (i = 0; i < N; i++)
		offs[i] = i * SZ;
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK_EQ_U64(aotjit_register_core(j, 0x10000000, text, (uint64_t)N * SZ, offs, N,
					  NULL, "mod0:"), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	printf("aotjit_register_core: %d functions of %d bytes in %.2f ms (%.0f ns each)\n",
	       N, SZ, ms, ms * 1e6 / N);
	aotjit_close(j);
	free(offs);
	free(text);
}

/* ---- perf map ---- */

static char *read_text(const char *path)
{
	size_t n;

	return (char *)slurp(path, &n);
}

static void write_text(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");

	fputs(s, f);
	fclose(f);
}

static void test_perfmap(void)
{
	const char *dir = subdir("perfmap");
	struct perfmap_entry e[3] = {
		{ 0x7f0000001000ull, 0x10, "local_func_0" },
		{ 0x7f0000001010ull, 0x2a0, "mod1:we\nird\r" },
		{ 0x7f00000012b0ull, 0x8, NULL },
	};
	char path[4200], target[4200], dpath[64];
	struct ap_err err = { 0 };
	struct stat st;
	char *s;

	CHECK_EQ_U64(perfmap__default_path(dpath, sizeof(dpath), 123), 0);
	CHECK(!strcmp(dpath, "/tmp/perf-123.map"));

	snprintf(path, sizeof(path), "%s/perf-123.map", dir);
	CHECK_EQ_U64(perfmap__write(path, 123, e, 3, 0, &err), 0);
	s = read_text(path);
	CHECK(s && !strcmp(s, PERFMAP_MARKER "\n"
			      "7f0000001000 10 local_func_0\n"
			      "7f0000001010 2a0 mod1:we_ird_\n"
			      "7f00000012b0 8 _\n"));
	free(s);
	CHECK_EQ_U64(perfmap__is_ours(path, &err), 1);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~(mode_t)022));
	/* ours: rewritten without force */
	CHECK_EQ_U64(perfmap__write(path, 123, e, 1, 0, &err), 0);
	s = read_text(path);
	CHECK(s && !strcmp(s, PERFMAP_MARKER "\n7f0000001000 10 local_func_0\n"));
	free(s);

	/* someone else's map: refused without force, replaced with it */
	write_text(path, "1000 10 java_thing\n");
	CHECK_EQ_U64(perfmap__is_ours(path, &err), 0);
	CHECK(perfmap__write(path, 123, e, 1, 0, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "not written by aotperf");
	s = read_text(path);
	CHECK(s && !strcmp(s, "1000 10 java_thing\n"));
	free(s);
	CHECK_EQ_U64(perfmap__write(path, 123, e, 1, 1, &err), 0);
	CHECK_EQ_U64(perfmap__is_ours(path, &err), 1);

	/* a symlink: refused even with force, its target untouched */
	snprintf(target, sizeof(target), "%s/victim", dir);
	write_text(target, "precious\n");
	unlink(path);
	CHECK_EQ_U64(symlink(target, path), 0);
	CHECK(perfmap__write(path, 123, e, 3, 1, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "is a symlink, refusing to follow it");
	CHECK_STR_CONTAINS(err.msg, path);
	s = read_text(target);
	CHECK(s && !strcmp(s, "precious\n"));
	free(s);
	unlink(path);

	/* not a regular file */
	CHECK_EQ_U64(mkdir(path, 0755), 0);
	CHECK(perfmap__write(path, 123, e, 3, 1, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "not a regular file");
	rmdir(path);

	/* a missing folder is an error, not a crash */
	CHECK(perfmap__write("/nonexistent/perf-1.map", 1, e, 1, 0, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/nonexistent/perf-1.map");
}

/* ---- ELF image ---- */

static Elf_Scn *find_scn(Elf *e, const char *name, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		const char *n;

		gelf_getshdr(scn, sh);
		n = elf_strptr(e, shstrndx, sh->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

static void test_elfimage(void)
{
	static const uint32_t offs[5] = { 0, 0x10, 0x10, 0x40, 0x7f };
	const char *names[5] = { "first", "empty", NULL, "we\nird", "" };
	const char *dir = subdir("elf");
	uint8_t *text = pattern(0x90, 8);
	uint8_t id1[20], id2[20], id3[20];
	struct ap_err err = { 0 };
	char path[4200];
	GElf_Ehdr eh;
	GElf_Phdr ph;
	GElf_Shdr sh;
	Elf_Scn *scn;
	Elf_Data *data;
	Elf *e;
	int fd;
	size_t nph = 0, i;

	snprintf(path, sizeof(path), "%s/core0.so", dir);
	CHECK_EQ_U64(elfimage__write_id(path, 62, text, 0x90, offs, 5, names, id1, &err), 0);

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	e = elf_begin(fd, ELF_C_READ, NULL);
	CHECK(e != NULL);
	if (!e)
		return;
	CHECK(gelf_getehdr(e, &eh) != NULL);
	CHECK_EQ_U64(eh.e_ident[EI_CLASS], ELFCLASS64);
	CHECK_EQ_U64(eh.e_ident[EI_DATA], ELFDATA2LSB);
	CHECK_EQ_U64(eh.e_type, ET_DYN);
	CHECK_EQ_U64(eh.e_machine, 62);
	CHECK(elf_getphdrnum(e, &nph) == 0 && nph == 2);
	CHECK(gelf_getphdr(e, 0, &ph) != NULL);
	CHECK_EQ_U64(ph.p_type, PT_LOAD);
	CHECK_EQ_U64(ph.p_offset, 0x1000);
	CHECK_EQ_U64(ph.p_vaddr, ph.p_offset);
	CHECK_EQ_U64(ph.p_filesz, 0x90);
	CHECK_EQ_U64(ph.p_flags, PF_R | PF_X);
	/* the build id for tools that read segments: PT_NOTE over the note section */
	CHECK(gelf_getphdr(e, 1, &ph) != NULL);
	CHECK_EQ_U64(ph.p_type, PT_NOTE);
	CHECK_EQ_U64(ph.p_filesz, 36);
	scn = find_scn(e, ".note.gnu.build-id", &sh);
	CHECK(scn != NULL && sh.sh_offset == ph.p_offset);

	scn = find_scn(e, ".text", &sh);
	CHECK(scn != NULL);
	if (scn) {
		data = elf_getdata(scn, NULL);
		CHECK_EQ_U64(sh.sh_addr, 0x1000);
		CHECK_EQ_U64(sh.sh_offset, 0x1000);
		CHECK(data && data->d_size == 0x90 && !memcmp(data->d_buf, text, 0x90));
	}

	scn = find_scn(e, ".symtab", &sh);
	CHECK(scn != NULL);
	if (scn) {
		static const struct { const char *name; uint64_t value, size; } want[] = {
			{ "first", 0x1000, 0x10 },
			{ "local_func_2", 0x1010, 0x30 },	/* 1 is empty: left out */
			{ "we_ird", 0x1040, 0x3f },
			{ "local_func_4", 0x107f, 0x11 },
		};
		size_t nsym = sh.sh_size / sh.sh_entsize;

		data = elf_getdata(scn, NULL);
		CHECK_EQ_U64(nsym, 5);
		for (i = 1; data && i < nsym && i <= 4; i++) {
			GElf_Sym sym;
			const char *n;

			gelf_getsym(data, (int)i, &sym);
			n = elf_strptr(e, sh.sh_link, sym.st_name);
			CHECK(n && !strcmp(n, want[i - 1].name));
			CHECK_EQ_U64(sym.st_value, want[i - 1].value);
			CHECK_EQ_U64(sym.st_size, want[i - 1].size);
			CHECK_EQ_U64(GELF_ST_TYPE(sym.st_info), STT_FUNC);
			CHECK_EQ_U64(GELF_ST_BIND(sym.st_info), STB_GLOBAL);
		}
	}

	scn = find_scn(e, ".note.gnu.build-id", &sh);
	CHECK(scn != NULL);
	if (scn) {
		data = elf_getdata(scn, NULL);
		CHECK(data && data->d_size == 36);
		if (data && data->d_size == 36) {
			const uint8_t *p = data->d_buf;

			CHECK_EQ_U64(rd32(p), 4);
			CHECK_EQ_U64(rd32(p + 4), 20);
			CHECK_EQ_U64(rd32(p + 8), 3);	/* NT_GNU_BUILD_ID */
			CHECK(!memcmp(p + 12, "GNU", 4));
			CHECK(!memcmp(p + 16, id1, 20));
		}
	}
	elf_end(e);
	close(fd);

	/* same input, same id; other names, other id */
	CHECK_EQ_U64(elfimage__write_id(path, 62, text, 0x90, offs, 5, names, id2, &err), 0);
	CHECK(!memcmp(id1, id2, 20));
	CHECK_EQ_U64(elfimage__write_id(path, 62, text, 0x90, offs, 5, NULL, id3, &err), 0);
	CHECK(memcmp(id1, id3, 20) != 0);

	/* bad tables leave nothing behind */
	snprintf(path, sizeof(path), "%s/bad.so", dir);
	CHECK(elfimage__write(path, 62, text, 0x40, offs, 5, NULL, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "past the end of text");
	CHECK(access(path, F_OK) != 0);
	{
		static const uint32_t desc[2] = { 0x20, 0x10 };

		CHECK(elfimage__write(path, 62, text, 0x90, desc, 2, NULL, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "ascend");
	}
	CHECK(elfimage__write("/nonexistent/x.so", 62, text, 0x90, offs, 5, NULL, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/nonexistent/x.so");
	free(text);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch, sizeof(scratch), "%s/test_jitdump.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 1;
	}
	umask(022);
	test_basic();
	test_open_errors();
	test_bad_core();
	test_cwasm();
	test_fork();
	test_threads();
	test_open_file();
	test_default_writer();
	test_sanitize();
	bench_register();
	test_perfmap();
	test_elfimage();
	{
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
		if (system(cmd) != 0)
			fprintf(stderr, "could not remove %s\n", scratch);
	}
	CHECK_DONE();
}
