// SPDX-License-Identifier: MIT
/*
 * The runtime library as shipped: linked against build/libaotperf-jit.a
 * (JITLIB_KIND "static") or build/libaotperf-jit.so ("shared") and
 * nothing else of aotperf, it registers a hand-made version 11 core the
 * way a runtime does and reads the dump back with its own reader (perf's
 * jitdump specification: 40-byte header, JIT_CODE_LOAD records).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../unit/check.h"
#include "../../jitdump/jitdump.h"

#ifndef JITLIB_KIND
#define JITLIB_KIND "static"
#endif

struct buf {
	uint8_t b[2048];
	size_t n;
};

static void put(struct buf *w, const void *p, size_t n)
{
	memcpy(w->b + w->n, p, n);
	w->n += n;
}

static void u8(struct buf *w, uint8_t v)
{
	put(w, &v, 1);
}

static void u32(struct buf *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put(w, b, 4);
}

static void str(struct buf *w, const char *s)
{
	u32(w, (uint32_t)strlen(s));
	put(w, s, strlen(s));
}

static void section(struct buf *w, uint32_t type, const struct buf *payload)
{
	u32(w, type);
	u32(w, (uint32_t)payload->n);
	put(w, payload->b, payload->n);
}

static uint8_t text[96];

/*
 * Version 11, x86_64 SysV: 3 functions at 0, 32, 64 (the second twice
 * when `equal`), imports of every kind (2 functions), a name section.
 */
static void build(struct buf *w, int equal)
{
	static const uint8_t ti[40] = { 2, 0, 0, 0, 1, 0, 0x3e, 0, [16] = 'x', '8', '6', '_', '6', '4' };
	struct buf s;

	memset(w, 0, sizeof(*w));
	u32(w, 0x746f6100);
	u32(w, 11);
	memset(&s, 0, sizeof(s));
	put(&s, ti, sizeof(ti));
	section(w, 0, &s);
	memset(&s, 0, sizeof(s));
	put(&s, text, sizeof(text));
	section(w, 2, &s);
	memset(&s, 0, sizeof(s));
	u32(&s, 3);
	for (uint32_t i = 0; i < 3; i++) {
		u32(&s, equal && i == 2 ? 32 : i * 32);
		u32(&s, 0);
	}
	section(w, 3, &s);
	memset(&s, 0, sizeof(s));
	u32(&s, 1);
	str(&s, "run");
	u8(&s, 0);
	u32(&s, 4);		/* wasm 4 = local 2 */
	section(w, 4, &s);
	memset(&s, 0, sizeof(s));
	u32(&s, 5);
	str(&s, "env"); str(&s, "f"); u8(&s, 0); u32(&s, 0);
	str(&s, "env"); str(&s, "t"); u8(&s, 1); u8(&s, 0x70); u32(&s, 1); u8(&s, 1); u32(&s, 9);
	str(&s, "env"); str(&s, "m"); u8(&s, 2); u32(&s, 1); u8(&s, 0); u8(&s, 0); u8(&s, 1);
	str(&s, "env"); str(&s, "g"); u8(&s, 3); u8(&s, 0x7f); u8(&s, 1);
	str(&s, "env"); str(&s, "h"); u8(&s, 0); u32(&s, 0);
	section(w, 8, &s);
	memset(&s, 0, sizeof(s));
	u32(&s, 1);
	u32(&s, 2);		/* wasm 2 = local 0 */
	str(&s, "first\nline");
	section(w, 7, &s);
}

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

/* The code loads of a dump: names, addresses, sizes, code. */
static void check_dump(const char *path)
{
	static const char *const want[3] = {
		"c:local_func_0:first_line", "c:local_func_1", "c:local_func_2:run",
	};
	FILE *f = fopen(path, "rb");
	uint8_t *d = malloc(1 << 16);
	size_t n = f ? fread(d, 1, 1 << 16, f) : 0, off = 40;
	int loads = 0, closes = 0;

	if (f)
		fclose(f);
	CHECK(n >= 40);
	CHECK_EQ_U64(rd32(d), 0x4A695444);
	CHECK_EQ_U64(rd32(d + 4), 1);
	CHECK_EQ_U64(rd32(d + 8), 40);
	CHECK_EQ_U64(rd32(d + 12), 62);
	CHECK_EQ_U64(rd32(d + 20), (uint32_t)getpid());
	while (n >= 40 && off + 16 <= n) {
		uint32_t id = rd32(d + off), size = rd32(d + off + 4);

		if (size < 16 || off + size > n)
			break;
		if (id == 0 && size >= 56 && loads < 3) {
			const char *name = (const char *)d + off + 56;
			size_t nl = strnlen(name, size - 56);
			uint64_t vma = rd64(d + off + 24), csize = rd64(d + off + 40);

			CHECK(nl < size - 56 && !strcmp(name, want[loads]));
			CHECK_EQ_U64(vma, 0x40000 + 32 * (uint64_t)loads);
			CHECK_EQ_U64(rd64(d + off + 32), vma);
			CHECK_EQ_U64(csize, 32);
			CHECK_EQ_U64(56 + nl + 1 + csize, size);
			CHECK(!memcmp(d + off + 56 + nl + 1, text + 32 * loads, 32));
			loads++;
		} else if (id == 3) {
			closes++;
		}
		off += size;
	}
	CHECK_EQ_U64(off, n);
	CHECK_EQ_U64(loads, 3);
	CHECK_EQ_U64(closes, 1);
	free(d);
}

int main(void)
{
	char dir[256], path[512], msg[256];
	struct aotjit *j;
	struct buf w;
	int err = 0;

	for (size_t i = 0; i < sizeof(text); i++)
		text[i] = (uint8_t)(i * 13 + 1);
	snprintf(dir, sizeof(dir), "%s/jitlib." JITLIB_KIND ".XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	CHECK(mkdtemp(dir) != NULL);
	j = aotjit_open(dir, 62, &err);
	CHECK(j != NULL);
	if (!j)
		CHECK_DONE();
	snprintf(path, sizeof(path), "%s", aotjit_path(j));

	build(&w, 0);
	CHECK_EQ_U64(aotjit_check_cwasm(w.b, w.n, "core", msg, sizeof(msg)), 0);
	CHECK(!strcmp(msg, ""));
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0x40000, w.b, w.n, "c:", AOTJIT_WASM_NAMES), 0);

	/* refused whole, with the reason, and nothing written */
	build(&w, 1);
	CHECK_EQ_U64(aotjit_register_cwasm(j, 0x80000, w.b, w.n, "c:", 0), (uint64_t)-EINVAL);
	CHECK_EQ_U64(aotjit_check_cwasm(w.b, w.n, "core", msg, sizeof(msg)), (uint64_t)-EINVAL);
	CHECK_STR_CONTAINS(msg, "core: functions 1 and 2 both start at offset 0x20");
	CHECK_EQ_U64(aotjit_check_cwasm("\x7f" "ELF", 4, NULL, msg, sizeof(msg)),
		     (uint64_t)-ENOEXEC);
	CHECK_STR_CONTAINS(msg, "<memory>: not a .cwasm (no \\0aot magic)");
	CHECK_EQ_U64(aotjit_close(j), 0);
	check_dump(path);

	if (!strcmp(JITLIB_KIND, "shared")) {
		/* the interface is exported, the walker it is built on is not */
		CHECK(dlsym(RTLD_DEFAULT, "aotjit_register_cwasm") != NULL);
		CHECK(dlsym(RTLD_DEFAULT, "cwasm_walk__init") == NULL);
		CHECK(dlsym(RTLD_DEFAULT, "ap_errf") == NULL);
	}
	unlink(path);
	rmdir(dir);
	CHECK_DONE();
}
