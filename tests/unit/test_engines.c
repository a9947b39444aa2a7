// SPDX-License-Identifier: MIT
/*
 * engines/ tests.
 *
 *   test_engines          built-in tests: name parsers, synthetic ELF files
 *                         and jitdumps with Wasmtime and V8 names, a
 *                         synthetic perf.data mapping them over time, role
 *                         inference and classes on assembled code
 *   test_engines --dump PERF|- [--cwasm F] [--imports N] [--jitdump J]...
 *                [--dir D]... [--elf E]... [--pid P] [--classify WASM_INDEX]...
 *                         the reader's view, one record a line, for
 *                         tests/e2e/engines_v8.sh (PERF "-": jitdumps only):
 *     TOTAL total engine wasm wrappers unresolved
 *     CODE samples wasm_index raw_name          every wasm code object
 *     FUNC wasm local samples tier_word name    every function
 *     WARN text
 *     ROLES wasm status vmctx membase field used_bytes
 *     CLASS wasm class samples static
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include "engines/engines.h"
#include "decode/decode.h"
#include "jitdump/jitdump.h"
#include "symbolize/elfimage.h"
#include "util/json_out.h"
#include "check.h"

/* ---- --dump ---- */

static const char *reg(uint8_t r)
{
	return r ? dc__reg_name(CWASM_ARCH_X86_64, r) : "none";
}

static void dump_classes(const struct eng_profile *p, uint32_t wasm)
{
	const struct eng_func *f = engines__find(p, 0, wasm);
	static const char *const st[] = { "none", "vmctx", "found", "ambiguous" };
	struct eng_classes c;
	struct ap_err err;

	if (!f || engines__classify(p, f, &c, &err)) {
		printf("NOCLASS %u %s\n", wasm, f ? err.msg : "no such function");
		return;
	}
	printf("ROLES %u %s %s %s %" PRId64 " %" PRIu64 "\n", wasm, st[c.roles.status],
	       reg(c.roles.roles.vmctx), reg(c.roles.roles.membase), c.roles.membase_field,
	       c.code_used);
	for (int k = 0; k < CLS__COUNT; k++)
		printf("CLASS %u %s %" PRIu64 " %u%s\n", wasm, cls__name(k), c.table.samples[k],
		       c.table.static_count[k], c.unavailable & (1u << k) ? " n/a" : "");
	eng_classes__exit(&c);
}

static int dump(int argc, char **argv)
{
	const char *list[4][32];
	uint32_t nl[4] = { 0 }, ncls = 0, cls_idx[32];
	struct cwasm_module *mod = NULL;
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;
	const char *perf = argv[2];

	eng_opts__init(&o);
	for (int i = 3; i + 1 < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];

		if (!strcmp(a, "--cwasm") && cwasm__read(v, &mod, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		} else if (!strcmp(a, "--imports")) {
			o.import_func_count = atoll(v);
		} else if (!strcmp(a, "--pid")) {
			o.pid = atoi(v);
		} else if (!strcmp(a, "--classify") && ncls < 32) {
			cls_idx[ncls++] = (uint32_t)atoi(v);
		} else if (!strcmp(a, "--jitdump") && nl[0] < 32) {
			list[0][nl[0]++] = v;
		} else if (!strcmp(a, "--dir") && nl[1] < 32) {
			list[1][nl[1]++] = v;
		} else if (!strcmp(a, "--elf") && nl[2] < 32) {
			list[2][nl[2]++] = v;
		}
	}
	o.wamr = mod;
	o.jitdumps = list[0];
	o.njitdumps = nl[0];
	o.dirs = list[1];
	o.ndirs = nl[1];
	o.elf_files = list[2];
	o.nelf_files = nl[2];
	if (engines__open(strcmp(perf, "-") ? perf : NULL, &o, &p, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		cwasm__delete(mod);
		return 2;
	}
	{
		const struct eng_summary *s = engines__summary(p);

		printf("TOTAL %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
		       s->total_samples, s->engine_samples, s->wasm_samples, s->wrapper_samples,
		       s->unresolved_samples, eng_engine__name(s->engine));
	}
	for (uint32_t i = 0; i < engines__ncodes(p); i++) {
		const struct eng_code *c = engines__code(p, i);

		if (c->wasm_index >= 0)
			printf("CODE %" PRIu64 " %" PRId64 " %s\n", c->samples, c->wasm_index,
			       c->raw_name);
	}
	for (uint32_t i = 0; i < engines__nfuncs(p); i++) {
		const struct eng_func *f = engines__func(p, i);
		const struct eng_code *b = engines__code(p, (uint32_t)f->best);

		printf("FUNC %u %" PRId64 " %" PRIu64 " %s %s %s\n", f->wasm_index, f->local_func,
		       f->samples, b->name.tier_name ? b->name.tier_name : "-",
		       f->kind == ENG_KIND_WRAPPER ? "wrapper" : "function",
		       f->name ? f->name : "-");
	}
	for (uint32_t i = 0; i < engines__nwarnings(p); i++)
		printf("WARN %s\n", engines__warning(p, i));
	for (uint32_t i = 0; i < ncls; i++)
		dump_classes(p, cls_idx[i]);
	engines__delete(p);
	cwasm__delete(mod);
	return 0;
}

/* ---- code, assembled once (source in the comments) ---- */

/*
 * Wasmtime's shape: vmctx in rdi, heap base and bound loaded from it, a
 * bounds check to a ud2 stub; then 8 bytes of data (a constant pool).
 *   0  push rbp / mov rbp,rsp
 *   4  mov r8,[rdi+0x60]       heap base
 *   8  mov r9,[rdi+0x68]       heap bound
 *   c  xor eax,eax / mov ecx,edx
 *  10  lea r10,[rcx+4] / cmp r10,r9 / ja 2d
 *  19  add eax,[r8+rcx*1] / mov [r8+rcx*1],eax
 *  21  add ecx,4 / cmp ecx,esi / jb 10
 *  28  mov rsp,rbp / pop rbp / ret
 *  2d  ud2
 *  2f  de ad be ef 01 00 00 00 (data)
 * and at 0x37 a function with no memory access at all:
 *  37  push rbp / mov rbp,rsp / lea eax,[rdi+rsi*1] / imul eax,edx / pop rbp / ret
 */
static const uint8_t wt_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x4c, 0x8b, 0x47, 0x60, 0x4c, 0x8b, 0x4f, 0x68,
	0x31, 0xc0, 0x89, 0xd1, 0x4c, 0x8d, 0x51, 0x04, 0x4d, 0x39, 0xca, 0x77,
	0x14, 0x41, 0x03, 0x04, 0x08, 0x41, 0x89, 0x04, 0x08, 0x83, 0xc1, 0x04,
	0x39, 0xf1, 0x72, 0xe8, 0x48, 0x89, 0xec, 0x5d, 0xc3, 0x0f, 0x0b, 0xde,
	0xad, 0xbe, 0xef, 0x01, 0x00, 0x00, 0x00, 0x55, 0x48, 0x89, 0xe5, 0x8d,
	0x04, 0x37, 0x0f, 0xaf, 0xc2, 0x5d, 0xc3
};
#define WT_F2_SIZE 0x37
#define WT_F2_USED 0x2f
#define WT_F2_INSNS 18

/*
 * V8 liftoff's shape: instance in rsi, the memory start at [rsi+0x3f]
 * loaded into two registers (rdx twice used, rax once), then int3 padding.
 *   0  push rbp / mov rbp,rsp / push 8 / push rsi
 *   7  mov rcx,[rsi+0x4f] / cmp rsp,[rcx]
 *   e  mov rdx,[rsi+0x3f] / mov ebx,[rdx+rdi*1]
 *  15  mov rax,[rsi+0x3f] / mov [rax+rdi*1],ebx / mov [rdx+rdi*1+4],ebx
 *  20  mov rsp,rbp / pop rbp / ret / int3 / int3
 */
static const uint8_t v8_code[] = {
	0x55, 0x48, 0x89, 0xe5, 0x6a, 0x08, 0x56, 0x48, 0x8b, 0x4e, 0x4f, 0x48,
	0x3b, 0x21, 0x48, 0x8b, 0x56, 0x3f, 0x8b, 0x1c, 0x3a, 0x48, 0x8b, 0x46,
	0x3f, 0x89, 0x1c, 0x38, 0x89, 0x5c, 0x3a, 0x04, 0x48, 0x89, 0xec, 0x5d,
	0xc3, 0xcc, 0xcc
};

/* ---- names ---- */

static void test_names(void)
{
	static const struct {
		const char *sym;
		int ok;
		enum eng_engine engine;
		enum eng_kind kind;
		uint32_t module, index;
		const char *name;
		enum eng_tier tier;
	} cases[] = {
		{ "wasm[0]::function[3]", 1, ENG_ENGINE_WASMTIME, ENG_KIND_FUNCTION, 0, 3, "", 0 },
		{ "wasm[2]::function[17]::hot_loop", 1, ENG_ENGINE_WASMTIME, ENG_KIND_FUNCTION, 2,
		  17, "hot_loop", 0 },
		{ "wasm[0]::function[5]::a::b<c>", 1, ENG_ENGINE_WASMTIME, ENG_KIND_FUNCTION, 0, 5,
		  "a::b<c>", 0 },
		{ "wasm[1]::array_to_wasm_trampoline[4]", 1, ENG_ENGINE_WASMTIME,
		  ENG_KIND_WRAPPER, 1, 4, "", 0 },
		{ "JS:sum-2-turbofan", 1, ENG_ENGINE_V8, ENG_KIND_FUNCTION, 0, 2, "sum",
		  ENG_TIER_OPTIMIZED },
		{ "JS:sum-2-liftoff", 1, ENG_ENGINE_V8, ENG_KIND_FUNCTION, 0, 2, "sum",
		  ENG_TIER_BASELINE },
		{ "JS:wasm-function[7]-7-liftoff", 1, ENG_ENGINE_V8, ENG_KIND_FUNCTION, 0, 7, "",
		  ENG_TIER_BASELINE },
		{ "JS:wasm-function[7]-8-liftoff", 1, ENG_ENGINE_V8, ENG_KIND_FUNCTION, 0, 8,
		  "wasm-function[7]", ENG_TIER_BASELINE },
		{ "JS:my-func-12-turbofan", 1, ENG_ENGINE_V8, ENG_KIND_FUNCTION, 0, 12, "my-func",
		  ENG_TIER_OPTIMIZED },
		{ "JS:wasm-to-js:i:-log-0-turbofan", 1, ENG_ENGINE_V8, ENG_KIND_WRAPPER, 0, 0,
		  "wasm-to-js:i:-log", ENG_TIER_OPTIMIZED },
		{ "JS:^resolve node:path:1217:10", 0, 0, 0, 0, 0, NULL, 0 },
		{ "JS:* /tmp/a-1-b.js:1:1", 0, 0, 0, 0, 0, NULL, 0 },
		{ "JS:foo-1-interpreted", 0, 0, 0, 0, 0, NULL, 0 },
		{ "JS:foo-x-turbofan", 0, 0, 0, 0, 0, NULL, 0 },
		{ "JS:turbofan", 0, 0, 0, 0, 0, NULL, 0 },
		{ "wasm[0]::function[", 0, 0, 0, 0, 0, NULL, 0 },
		{ "wasm[x]::function[1]", 0, 0, 0, 0, 0, NULL, 0 },
		{ "wasm[0]::function[99999999999]", 0, 0, 0, 0, 0, NULL, 0 },
		{ "wasm[0]::function[3]x", 0, 0, 0, 0, 0, NULL, 0 },
		{ "wasm[0]::global[3]", 0, 0, 0, 0, 0, NULL, 0 },
		{ "Builtin:WasmStackGuard", 0, 0, 0, 0, 0, NULL, 0 },
		{ "local_func_3", 0, 0, 0, 0, 0, NULL, 0 },
		{ "", 0, 0, 0, 0, 0, NULL, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct eng_name n;
		int ok = eng_name__parse(cases[i].sym, &n);

		CHECK_EQ_U64(ok, cases[i].ok);
		if (!ok || !cases[i].ok) {
			CHECK_EQ_U64(n.engine, ENG_ENGINE_NONE);
			continue;
		}
		CHECK_EQ_U64(n.engine, cases[i].engine);
		CHECK_EQ_U64(n.kind, cases[i].kind);
		CHECK_EQ_U64(n.module, cases[i].module);
		CHECK_EQ_U64(n.index, cases[i].index);
		CHECK_EQ_U64(n.tier, cases[i].tier);
		CHECK(n.has_index);
		CHECK_EQ_U64(n.name_len, strlen(cases[i].name));
		CHECK(!strncmp(n.name, cases[i].name, n.name_len));
	}
	CHECK(!eng_name__parse(NULL, &(struct eng_name){ 0 }));
	CHECK(!strcmp(eng_engine__name(ENG_ENGINE_V8), "v8"));
	CHECK(!strcmp(eng_tier__name(ENG_TIER_OPTIMIZED), "optimized"));
}

/* ---- roles and classes on assembled code ---- */

static void test_roles(void)
{
	struct eng_roles r;
	struct ap_err err;

	CHECK_EQ_U64(eng_roles__infer(CWASM_ARCH_X86_64, wt_code, WT_F2_SIZE, 0x1000, &r, &err), 0);
	CHECK_EQ_U64(r.status, ENG_ROLES_FOUND);
	CHECK_EQ_U64(r.roles.vmctx, X86_RDI);
	CHECK_EQ_U64(r.roles.membase, X86_R8);
	CHECK_EQ_U64(r.membase_field, 0x60);
	CHECK_EQ_U64(r.vmctx_loads, 2);
	CHECK_EQ_U64(r.membase_uses, 2);
	CHECK_STR_CONTAINS(r.why, "membase r8 = [rdi+0x60]");

	CHECK_EQ_U64(eng_roles__infer(CWASM_ARCH_X86_64, v8_code, sizeof(v8_code), 0, &r, &err), 0);
	CHECK_EQ_U64(r.status, ENG_ROLES_AMBIGUOUS);
	CHECK_EQ_U64(r.roles.vmctx, X86_RSI);
	CHECK_EQ_U64(r.roles.membase, X86_RDX);
	CHECK_EQ_U64(r.membase_field, 0x3f);
	CHECK_EQ_U64(r.vmctx_loads, 3);
	CHECK_EQ_U64(r.membase_uses, 2);
	CHECK_EQ_U64(r.membase_regs, 2);

	CHECK_EQ_U64(eng_roles__infer(CWASM_ARCH_X86_64, wt_code + WT_F2_SIZE,
				      sizeof(wt_code) - WT_F2_SIZE, 0, &r, &err), 0);
	CHECK_EQ_U64(r.status, ENG_ROLES_NONE);
	CHECK_EQ_U64(r.roles.vmctx, 0);
	CHECK_EQ_U64(r.roles.membase, 0);

	CHECK_EQ_U64(eng_roles__infer(CWASM_ARCH_AARCH64, v8_code, 4, 0, &r, &err), 0);
	CHECK_EQ_U64(r.status, ENG_ROLES_NONE);
	CHECK_STR_CONTAINS(r.why, "x86_64");
}

/* ---- a small perf.data writer ---- */

struct buf {
	uint8_t *p;
	size_t n, cap;
};

static void put(struct buf *b, const void *d, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	if (d)
		memcpy(b->p + b->n, d, n);
	else
		memset(b->p + b->n, 0, n);
	b->n += n;
}

static void put64(struct buf *b, uint64_t v)
{
	put(b, &v, 8);
}

/* A record: header, body padded to 8, the sample_id trailer (pid/tid, time). */
static void rec(struct buf *b, uint32_t type, uint16_t misc, const void *body, size_t n,
		uint32_t pid, uint64_t t)
{
	struct perf_event_header h = { type, misc, 0 };
	size_t pad = (8 - n % 8) % 8;
	uint32_t tid[2] = { pid, pid };

	h.size = (uint16_t)(sizeof(h) + n + pad + 16);
	put(b, &h, sizeof(h));
	put(b, body, n);
	put(b, NULL, pad);
	put(b, tid, 8);
	put64(b, t);
}

static void mmap2(struct buf *b, uint32_t pid, uint64_t t, uint64_t start, uint64_t len,
		  uint64_t pgoff, const char *file)
{
	struct perf_record_mmap2 m;
	size_t n = offsetof(struct perf_record_mmap2, filename) + strlen(file) + 1;

	memset(&m, 0, sizeof(m));
	m.pid = m.tid = pid;
	m.start = start;
	m.len = len;
	m.pgoff = pgoff;
	m.prot = 5; /* r-x */
	m.flags = 2;
	strcpy(m.filename, file);
	rec(b, PERF_RECORD_MMAP2, 0, (char *)&m + sizeof(m.header), n - sizeof(m.header), pid, t);
}

static void sample(struct buf *b, uint32_t pid, uint64_t t, uint64_t ip, uint16_t mode,
		   int times)
{
	struct perf_event_header h = { PERF_RECORD_SAMPLE, mode, 8 + 32 };
	uint32_t tid[2] = { pid, pid };

	while (times-- > 0) {
		put(b, &h, sizeof(h));
		put64(b, ip);
		put(b, tid, 8);
		put64(b, t);
		put64(b, 1);
	}
}

static void fork_rec(struct buf *b, uint32_t pid, uint32_t ppid, uint64_t t)
{
	uint32_t body[6] = { pid, ppid, pid, ppid };

	memcpy(&body[4], &t, 8);
	rec(b, PERF_RECORD_FORK, 0, body, sizeof(body), pid, t);
}

static void exec_rec(struct buf *b, uint32_t pid, uint64_t t)
{
	char body[8 + 16] = { 0 };

	memcpy(body, &pid, 4);
	memcpy(body + 4, &pid, 4);
	strcpy(body + 8, "node");
	rec(b, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, body, sizeof(body), pid, t);
}

/* Header, one cpu-clock attr (-k mono), the data; no feature sections. */
static void write_perf(const char *path, const struct buf *data, int mono)
{
	struct perf_event_attr a;
	struct buf f = { 0 };
	uint64_t h[13] = { 0 };
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.sample_period = 1;
	a.sample_id_all = 1;
	a.use_clockid = mono ? 1 : 0;
	a.clockid = mono ? 1 : 0; /* CLOCK_MONOTONIC */
	memcpy(&h[0], "PERFILE2", 8);
	h[1] = sizeof(h);
	h[2] = sizeof(a) + 16;
	h[3] = sizeof(h);
	h[4] = sizeof(a) + 16;
	h[5] = sizeof(h) + sizeof(a) + 16;
	h[6] = data->n;
	put(&f, h, sizeof(h));
	put(&f, &a, sizeof(a));
	put64(&f, 0);
	put64(&f, 0);
	put(&f, data->p, data->n);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, f.p, f.n) != (ssize_t)f.n)
		abort();
	close(fd);
	free(f.p);
}

static char tmp[256];

static const char *tpath(const char *name)
{
	static char bufs[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(bufs[k], sizeof(bufs[k]), "%s/%s", tmp, name);
	return bufs[k];
}

/* The WAMR side: 5 local functions after 2 imports, some named. */
static struct cwasm_module *wamr_side(void)
{
	static const uint8_t text[5 * 16] = { 0xc3 };
	static const uint32_t offs[5] = { 0, 16, 32, 48, 64 };
	static const struct cwasm_import_spec imps[2] = { { "env", "log", 0, 0 },
							  { "env", "tick", 0, 0 } };
	static const struct cwasm_name_spec names[3] = { { 2, "hot" }, { 3, "other" },
							 { 5, "warm" } };
	static const struct cwasm_type ty = { 0, 0, NULL, NULL };
	struct cwasm_spec s;
	struct cwasm_module *m = NULL;
	struct ap_err err;
	uint8_t *b;
	size_t n;

	memset(&s, 0, sizeof(s));
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = 5;
	s.offsets = offs;
	s.ntypes = 1;
	s.types = &ty;
	s.nimports = 2;
	s.imports = imps;
	s.nnames = 3;
	s.names = names;
	if (cwasm__build(&s, &b, &n, &err) || cwasm__parse(b, n, "wamr.cwasm", &m, &err))
		abort();
	free(b);
	return m;
}

static void write_elf(const char *path, const uint8_t *text, uint32_t size, uint32_t n,
		      const uint32_t *offs, const char *const *names)
{
	struct ap_err err;

	if (elfimage__write(path, 62, text, size, offs, n, names, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		abort();
	}
}

static const struct eng_code *code_named(const struct eng_profile *p, const char *name,
					 uint64_t samples)
{
	for (uint32_t i = 0; i < engines__ncodes(p); i++) {
		const struct eng_code *c = engines__code(p, i);

		if (!strcmp(c->raw_name, name) && c->samples == samples)
			return c;
	}
	return NULL;
}

static int has_warning(const struct eng_profile *p, const char *needle)
{
	for (uint32_t i = 0; i < engines__nwarnings(p); i++)
		if (strstr(engines__warning(p, i), needle))
			return 1;
	return 0;
}

/* The JSON members of one classified function and its headroom. */
static void check_json(const struct eng_classes *c)
{
	struct eng_headroom h;
	struct json_out j;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return;
	engines__headroom(&c->table, 100, c, 1, &h);
	json_init(&j, f);
	json_begin_obj(&j);
	engines__json_classes(&j, c);
	json_key(&j, "headroom");
	json_begin_obj(&j);
	engines__json_headroom(&j, &h);
	json_end_obj(&j);
	json_end_obj(&j);
	json_finish(&j);
	fclose(f);
	CHECK_STR_CONTAINS(text, "\"engine\": \"wasmtime\"");
	CHECK_STR_CONTAINS(text, "\"wasm_func\": 2");
	CHECK_STR_CONTAINS(text, "\"local_func\": 0");
	CHECK_STR_CONTAINS(text, "\"membase\": \"r8\"");
	CHECK_STR_CONTAINS(text, "\"membase_field\": 96");
	CHECK_STR_CONTAINS(text, "\"estimate\": true");
	CHECK_STR_CONTAINS(text, "\"lever\": \"bounds\"");
	free(text);
}

/*
 * Wasmtime names in an ELF the engine mapped (listed by the caller) and in
 * jitted-<pid>-<k>.so files, mapped over time: re-jitted code at one
 * address, a replacement by an //anon map, a fork, an exec, a missing
 * file, a kernel sample, a sample before its mapping. Counts by
 * construction (see each line).
 */
static void test_wasmtime_recording(void)
{
	static const uint32_t two[2] = { 0, WT_F2_SIZE }, one[1] = { 0 };
	const char *const wt_names[2] = { "wasm[0]::function[2]::hot", "wasm[0]::function[3]" };
	const char *const f4[1] = { "wasm[0]::function[4]" };
	const char *const f5[1] = { "wasm[0]::function[5]::cold" };
	const char *const f6[1] = { "wasm[0]::function[6]" };
	char elf[512], j1[512], j2[512], j3[512], j9[512], j300[512];
	const char *elfs[1];
	struct cwasm_module *m = wamr_side();
	struct buf b = { 0 };
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;
	const struct eng_func *f;
	const struct eng_summary *s;

	snprintf(elf, sizeof(elf), "%s", tpath("module.cwasm"));
	snprintf(j1, sizeof(j1), "%s", tpath("jitted-100-1.so"));
	snprintf(j2, sizeof(j2), "%s", tpath("jitted-100-2.so"));
	snprintf(j3, sizeof(j3), "%s", tpath("jitted-100-3.so"));
	snprintf(j9, sizeof(j9), "%s", tpath("jitted-100-9.so"));
	snprintf(j300, sizeof(j300), "%s", tpath("jitted-300-1.so"));
	write_elf(elf, wt_code, sizeof(wt_code), 2, two, wt_names);
	write_elf(j1, v8_code, sizeof(v8_code), 1, one, f4);
	write_elf(j2, v8_code, sizeof(v8_code), 1, one, f4);
	write_elf(j3, wt_code, WT_F2_SIZE, 1, one, f5);
	write_elf(j300, wt_code, WT_F2_SIZE, 1, one, f6);
	unlink(j9);

	mmap2(&b, 100, 10, 0x400000, 0x1000, 0x1000, elf);
	mmap2(&b, 100, 20, 0x500000, 0x1000, 0x1000, j1);
	mmap2(&b, 100, 20, 0x600000, 0x1000, 0x1000, j3);
	mmap2(&b, 100, 20, 0x800000, 0x1000, 0x1000, j9);
	mmap2(&b, 300, 10, 0x700000, 0x1000, 0x1000, j300);
	sample(&b, 100, 5, 0x400019, PERF_RECORD_MISC_USER, 1);	/* before its map: not engine */
	sample(&b, 100, 15, 0x400019, PERF_RECORD_MISC_USER, 3);	/* f2 +0x19 (3 of 4) */
	sample(&b, 100, 16, 0x40003b, PERF_RECORD_MISC_USER, 1);	/* f3 */
	sample(&b, 100, 20, 0x400019, PERF_RECORD_MISC_KERNEL, 1);	/* kernel mode: not engine */
	sample(&b, 100, 25, 0x500012, PERF_RECORD_MISC_USER, 2);	/* f4, first code */
	sample(&b, 100, 30, 0x600010, PERF_RECORD_MISC_USER, 1);	/* f5 */
	sample(&b, 100, 30, 0x800000, PERF_RECORD_MISC_USER, 1);	/* missing file: unresolved */
	sample(&b, 300, 20, 0x700000, PERF_RECORD_MISC_USER, 1);	/* f6 */
	exec_rec(&b, 300, 30);
	sample(&b, 300, 35, 0x700000, PERF_RECORD_MISC_USER, 1);	/* after exec: not engine */
	fork_rec(&b, 200, 100, 40);
	sample(&b, 200, 45, 0x400019, PERF_RECORD_MISC_USER, 1);	/* child: parent's f2 */
	mmap2(&b, 100, 50, 0x500000, 0x1000, 0x1000, j2);		/* f4 re-jitted */
	sample(&b, 100, 55, 0x500012, PERF_RECORD_MISC_USER, 4);	/* f4, second code */
	sample(&b, 200, 55, 0x500012, PERF_RECORD_MISC_USER, 1);	/* child: f4, first code */
	mmap2(&b, 100, 60, 0x600000, 0x1000, 0, "//anon");		/* replaces f5's code */
	sample(&b, 100, 70, 0x600010, PERF_RECORD_MISC_USER, 1);	/* not engine */
	write_perf(tpath("wt.data"), &b, 1);
	free(b.p);

	eng_opts__init(&o);
	elfs[0] = "module.cwasm"; /* by base name */
	o.elf_files = elfs;
	o.nelf_files = 1;
	o.wamr = m;
	CHECK_EQ_U64(engines__open(tpath("wt.data"), &o, &p, &err), 0);
	if (!p) {
		fprintf(stderr, "%s\n", err.msg);
		cwasm__delete(m);
		return;
	}
	s = engines__summary(p);
	CHECK_EQ_U64(s->total_samples, 19);
	CHECK_EQ_U64(s->engine_samples, 15);
	CHECK_EQ_U64(s->unresolved_samples, 1);
	CHECK_EQ_U64(s->wasm_samples, 14);
	CHECK_EQ_U64(s->engine, ENG_ENGINE_WASMTIME);
	CHECK_EQ_U64(s->nmissing, 1);
	CHECK_EQ_U64(s->nfiles, 6);
	CHECK_EQ_U64(s->import_func_count, 2);
	CHECK(has_warning(p, "jitted-100-9.so"));
	/* wasm 5: the engine says cold, the WAMR side local 3 "warm" */
	CHECK(has_warning(p, "'cold'"));
	CHECK(!has_warning(p, "wasm function 2:"));

	f = engines__find(p, 0, 2);
	CHECK(f && f->samples == 4 && f->local_func == 0 && f->name && !strcmp(f->name, "hot"));
	CHECK(f == engines__find_local(p, 0, 0));
	f = engines__find(p, 0, 3);
	CHECK(f && f->samples == 1 && f->local_func == 1 && !f->name);
	f = engines__find(p, 0, 4);
	CHECK(f && f->samples == 7 && f->ncodes == 2 && f->local_func == 2);
	CHECK(code_named(p, "wasm[0]::function[4]", 3)); /* 2 + the child's 1 */
	CHECK(code_named(p, "wasm[0]::function[4]", 4));
	if (f)
		CHECK_EQ_U64(engines__code(p, (uint32_t)f->best)->samples, 4);
	f = engines__find(p, 0, 5);
	CHECK(f && f->samples == 1 && f->local_func == 3);
	f = engines__find(p, 0, 6);
	CHECK(f && f->samples == 1 && f->local_func == 4);
	CHECK(engines__func(p, 0) == engines__find(p, 0, 4)); /* most samples first */
	CHECK(!engines__find(p, 0, 9));

	/* the listed ELF's code, its bytes and where it ran */
	{
		const struct eng_code *c = code_named(p, "wasm[0]::function[2]::hot", 4);

		CHECK(c && c->size == WT_F2_SIZE && c->addr == 0x400000 && c->pid == 100);
		CHECK(c && c->bytes && !memcmp(c->bytes, wt_code, WT_F2_SIZE));
		CHECK(c && c->offset_samples && c->offset_samples[0x19] == 4);
	}

	/* classes: Wasmtime's function 2; function 4 merges both identical codes */
	{
		struct eng_classes c;

		CHECK_EQ_U64(engines__classify(p, engines__find(p, 0, 2), &c, &err), 0);
		CHECK_EQ_U64(c.roles.status, ENG_ROLES_FOUND);
		CHECK_EQ_U64(c.code_used, WT_F2_USED);
		CHECK_EQ_U64(cls__insn_count(&c.f), WT_F2_INSNS);
		CHECK_EQ_U64(c.table.static_count[CLS_LINEAR_MEM], 2);
		CHECK(c.table.static_count[CLS_BOUNDS_CHECK] >= 2);
		CHECK_EQ_U64(c.table.samples[CLS_LINEAR_MEM], 4); /* all at +0x19 */
		CHECK_EQ_U64(c.table.total, 4);
		CHECK_EQ_U64(c.unavailable, 0);
		check_json(&c);
		eng_classes__exit(&c);

		CHECK_EQ_U64(engines__classify(p, engines__find(p, 0, 4), &c, &err), 0);
		CHECK_EQ_U64(c.nmerged, 1);
		CHECK_EQ_U64(c.samples, 7);
		CHECK_EQ_U64(c.table.samples[CLS_LINEAR_MEM], 7); /* mov ebx,[rdx+rdi*1] */
		CHECK_EQ_U64(c.roles.status, ENG_ROLES_AMBIGUOUS);
		eng_classes__exit(&c);

		CHECK_EQ_U64(engines__classify(p, engines__find(p, 0, 3), &c, &err), 0);
		CHECK_EQ_U64(c.roles.status, ENG_ROLES_NONE);
		CHECK(c.unavailable & (1u << CLS_LINEAR_MEM));
		CHECK(c.unavailable & (1u << CLS_OTHER_MEM));
		CHECK(c.unavailable & (1u << CLS_BOUNDS_CHECK));
		CHECK(!(c.unavailable & (1u << CLS_FRAME_LOAD)));
		eng_classes__exit(&c);
	}
	engines__delete(p);

	/* one pid only; moved files found through a folder */
	eng_opts__init(&o);
	o.pid = 300;
	o.import_func_count = 2;
	CHECK_EQ_U64(engines__open(tpath("wt.data"), &o, &p, &err), 0);
	if (p) {
		CHECK_EQ_U64(engines__summary(p)->total_samples, 2);
		CHECK_EQ_U64(engines__nfuncs(p), 1);
		CHECK(engines__find(p, 0, 6) && engines__find(p, 0, 6)->local_func == 4);
		engines__delete(p);
	}
	cwasm__delete(m);
}

/* A moved jitted file is found by base name in a given folder. */
static void test_moved_files(void)
{
	static const uint32_t one[1] = { 0 };
	const char *const f2[1] = { "wasm[0]::function[2]" };
	const char *dirs[1] = { tmp };
	struct buf b = { 0 };
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;

	write_elf(tpath("jitted-500-1.so"), wt_code, WT_F2_SIZE, 1, one, f2);
	mmap2(&b, 500, 10, 0x400000, 0x1000, 0x1000, "/gone/away/jitted-500-1.so");
	sample(&b, 500, 15, 0x400019, PERF_RECORD_MISC_USER, 2);
	write_perf(tpath("moved.data"), &b, 1);
	free(b.p);
	eng_opts__init(&o);
	CHECK(engines__open(tpath("moved.data"), &o, &p, &err) == -1 && !p);
	CHECK_STR_CONTAINS(err.msg, "/gone/away/jitted-500-1.so");
	o.dirs = dirs;
	o.ndirs = 1;
	CHECK_EQ_U64(engines__open(tpath("moved.data"), &o, &p, &err), 0);
	if (p) {
		CHECK_EQ_U64(engines__summary(p)->nmissing, 0);
		CHECK(engines__find(p, 0, 2) && engines__find(p, 0, 2)->samples == 2);
		CHECK_EQ_U64(engines__find(p, 0, 2)->local_func, -1); /* no import count */
		engines__delete(p);
	}
}

/*
 * The engine's own jitdump: a bare name resolved through the WAMR side's
 * names, a V8 name, a recording of the same run without perf inject.
 */
static void test_jitdump(void)
{
	struct cwasm_module *m = wamr_side();
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;
	struct aotjit *j;
	const char *dumps[1];
	struct buf b = { 0 };
	int e = 0;

	unlink(tpath("jit-400.dump"));
	j = aotjit_open_file(tpath("jit-400.dump"), 400, 62, 1, &e);
	CHECK(j != NULL);
	if (!j) {
		cwasm__delete(m);
		return;
	}
	CHECK_EQ_U64(aotjit_code_load(j, 0x900000, wt_code, WT_F2_SIZE, "hot", 12), 0);
	CHECK_EQ_U64(aotjit_code_load(j, 0x910000, v8_code, sizeof(v8_code), "JS:other-3-turbofan",
				      13), 0);
	CHECK_EQ_U64(aotjit_code_load(j, 0x920000, v8_code, sizeof(v8_code), "Builtin:Foo", 13), 0);
	CHECK_EQ_U64(aotjit_close(j), 0);
	dumps[0] = tpath("jit-400.dump");

	/* the dump alone: code and names, no samples */
	eng_opts__init(&o);
	o.jitdumps = dumps;
	o.njitdumps = 1;
	o.wamr = m;
	CHECK_EQ_U64(engines__open(NULL, &o, &p, &err), 0);
	if (p) {
		const struct eng_func *f = engines__find(p, 0, 2);

		CHECK_EQ_U64(engines__ncodes(p), 3);
		CHECK_EQ_U64(engines__nfuncs(p), 2);
		CHECK(f && f->local_func == 0 && f->samples == 0);
		CHECK(f && engines__code(p, (uint32_t)f->best)->name.engine == ENG_ENGINE_PLAIN);
		CHECK(f && engines__code(p, (uint32_t)f->best)->addr == 0x900000);
		CHECK_EQ_U64(engines__summary(p)->engine, ENG_ENGINE_MIXED);
		engines__delete(p);
	}
	/* without the WAMR side a bare name means nothing */
	o.wamr = NULL;
	CHECK_EQ_U64(engines__open(NULL, &o, &p, &err), 0);
	if (p) {
		CHECK_EQ_U64(engines__nfuncs(p), 1);
		CHECK_EQ_U64(engines__summary(p)->engine, ENG_ENGINE_V8);
		engines__delete(p);
	}

	/* with the plain recording: placed at the dump's timestamps */
	sample(&b, 400, 11, 0x900019, PERF_RECORD_MISC_USER, 1);	/* before the load */
	sample(&b, 400, 20, 0x900019, PERF_RECORD_MISC_USER, 3);	/* hot */
	sample(&b, 400, 20, 0x910012, PERF_RECORD_MISC_USER, 2);	/* other */
	sample(&b, 400, 20, 0x920000, PERF_RECORD_MISC_USER, 1);	/* a builtin */
	write_perf(tpath("jd.data"), &b, 1);
	write_perf(tpath("jd-real.data"), &b, 0);
	free(b.p);
	o.wamr = m;
	CHECK_EQ_U64(engines__open(tpath("jd.data"), &o, &p, &err), 0);
	if (p) {
		const struct eng_summary *s = engines__summary(p);

		CHECK_EQ_U64(s->total_samples, 7);
		CHECK_EQ_U64(s->engine_samples, 6);
		CHECK_EQ_U64(s->wasm_samples, 5);
		CHECK(engines__find(p, 0, 2) && engines__find(p, 0, 2)->samples == 3);
		CHECK(engines__find(p, 0, 3) && engines__find(p, 0, 3)->samples == 2);
		engines__delete(p);
	}
	/* a recording not on CLOCK_MONOTONIC cannot place the dump's code */
	CHECK(engines__open(tpath("jd-real.data"), &o, &p, &err) == -1 && !p);
	CHECK_STR_CONTAINS(err.msg, "CLOCK_MONOTONIC");
	cwasm__delete(m);
}

static void write_bytes(const char *path, const void *d, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, d, n) != (ssize_t)n)
		abort();
	close(fd);
}

static void test_errors(void)
{
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;
	const char *dumps[1];
	struct buf b = { 0 };
	uint8_t hdr[40] = { 0 };
	uint32_t swapped = 0x4454694Au;

	eng_opts__init(&o);
	CHECK(engines__open(tpath("nonexistent.data"), &o, &p, &err) == -1 && !p);
	CHECK_STR_CONTAINS(err.msg, "nonexistent.data");
	CHECK(engines__open(NULL, &o, &p, &err) == -1);

	/* a recording with no engine mappings */
	mmap2(&b, 7, 1, 0x400000, 0x1000, 0, "/usr/lib/libc.so.6");
	sample(&b, 7, 2, 0x400010, PERF_RECORD_MISC_USER, 1);
	write_perf(tpath("plain.data"), &b, 1);
	free(b.p);
	CHECK(engines__open(tpath("plain.data"), &o, &p, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "no code of another engine");
	o.event = "cycles";
	CHECK(engines__open(tpath("plain.data"), &o, &p, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "no event 'cycles'");
	o.event = NULL;

	/* jitdumps: bad magic, the other byte order, cut short */
	write_bytes(tpath("bad.dump"), "not a jitdump at all, not at all, no....", 40);
	dumps[0] = tpath("bad.dump");
	o.jitdumps = dumps;
	o.njitdumps = 1;
	CHECK(engines__open(NULL, &o, &p, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "bad magic");
	memcpy(hdr, &swapped, 4);
	write_bytes(tpath("swap.dump"), hdr, sizeof(hdr));
	dumps[0] = tpath("swap.dump");
	CHECK(engines__open(NULL, &o, &p, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "byte order");
	{
		int e = 0;
		struct aotjit *j;
		struct stat st;

		unlink(tpath("cut.dump"));
		j = aotjit_open_file(tpath("cut.dump"), 9, 62, 1, &e);
		CHECK(j != NULL);
		if (j) {
			aotjit_code_load(j, 0x1000, wt_code, WT_F2_SIZE, "wasm[0]::function[2]", 5);
			aotjit_code_load(j, 0x2000, wt_code, WT_F2_SIZE, "wasm[0]::function[3]", 6);
			aotjit_close(j);
		}
		CHECK(!stat(tpath("cut.dump"), &st));
		CHECK(!truncate(tpath("cut.dump"), st.st_size - 30 - 16)); /* into the 2nd load */
		dumps[0] = tpath("cut.dump");
		CHECK_EQ_U64(engines__open(NULL, &o, &p, &err), 0);
		if (p) {
			CHECK_EQ_U64(engines__nfuncs(p), 1);
			engines__delete(p);
		}
	}
}

/* ---- headroom ---- */

static void test_headroom(void)
{
	struct cls_table w = { 0 };
	struct eng_classes o;
	struct eng_headroom h;

	memset(&o, 0, sizeof(o));
	/* WAMR: 500 of a 1000-sample run; 40% stack, 10% moves, 10% bounds */
	w.total = 500;
	w.samples[CLS_FRAME_LOAD] = 150;
	w.samples[CLS_FRAME_STORE] = 50;
	w.samples[CLS_REG_MOVE] = 50;
	w.samples[CLS_BOUNDS_CHECK] = 50;
	w.samples[CLS_ALU] = 200;
	w.static_count[CLS_FRAME_LOAD] = 8;
	w.static_count[CLS_ALU] = 8;
	/* other engine: 10% stack, 20% moves, no bounds checks */
	o.table.total = 400;
	o.table.samples[CLS_FRAME_LOAD] = 40;
	o.table.samples[CLS_REG_MOVE] = 80;
	o.table.samples[CLS_ALU] = 280;
	o.table.static_count[CLS_FRAME_LOAD] = 2;
	o.table.static_count[CLS_ALU] = 6;
	engines__headroom(&w, 1000, &o, 100, &h);
	CHECK(h.sampled);
	CHECK(h.hot_pct > 49.99 && h.hot_pct < 50.01);
	CHECK(h.lever[ENG_LEVER_STACK].wamr_pct > 39.99 && h.lever[ENG_LEVER_STACK].wamr_pct < 40.01);
	CHECK(h.lever[ENG_LEVER_STACK].reduction > 0.7499 &&
	      h.lever[ENG_LEVER_STACK].reduction < 0.7501);
	/* 50% hot x 40% stack x 0.75 = 15% of the run */
	CHECK(h.lever[ENG_LEVER_STACK].headroom_pct > 14.99 &&
	      h.lever[ENG_LEVER_STACK].headroom_pct < 15.01);
	CHECK_EQ_U64((uint64_t)(h.lever[ENG_LEVER_MOVES].reduction * 1000), 0); /* the other does more */
	CHECK(h.lever[ENG_LEVER_BOUNDS].reduction > 0.9999);
	CHECK(h.lever[ENG_LEVER_BOUNDS].headroom_pct > 4.99 &&
	      h.lever[ENG_LEVER_BOUNDS].headroom_pct < 5.01);
	CHECK(h.class_delta[CLS_FRAME_LOAD] < -19.99 && h.class_delta[CLS_FRAME_LOAD] > -20.01);
	CHECK(!strcmp(eng_lever__name(ENG_LEVER_DISPATCH), "dispatch"));

	/* bounds unavailable on the other side: no estimate for that lever */
	o.unavailable = 1u << CLS_BOUNDS_CHECK;
	engines__headroom(&w, 1000, &o, 100, &h);
	CHECK(!h.lever[ENG_LEVER_BOUNDS].available);
	CHECK(h.lever[ENG_LEVER_BOUNDS].headroom_pct == 0.0);
	CHECK(h.lever[ENG_LEVER_STACK].available);

	/* too few samples: static instruction shares (8/16 vs 2/8) */
	engines__headroom(&w, 1000, &o, 1000, &h);
	CHECK(!h.sampled);
	CHECK(h.lever[ENG_LEVER_STACK].wamr_pct > 49.99 && h.lever[ENG_LEVER_STACK].wamr_pct < 50.01);
	CHECK(h.lever[ENG_LEVER_STACK].other_pct > 24.99 && h.lever[ENG_LEVER_STACK].other_pct < 25.01);
	CHECK(h.lever[ENG_LEVER_STACK].reduction > 0.4999 &&
	      h.lever[ENG_LEVER_STACK].reduction < 0.5001);
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");

	if (argc >= 3 && !strcmp(argv[1], "--dump"))
		return dump(argc, argv);
	snprintf(tmp, sizeof(tmp), "%s/test_engines.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmp)) {
		perror(tmp);
		return 1;
	}
	test_names();
	test_roles();
	test_wasmtime_recording();
	test_moved_files();
	test_jitdump();
	test_errors();
	test_headroom();
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", tmp);
	}
	CHECK_DONE();
}
