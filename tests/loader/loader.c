// SPDX-License-Identifier: MIT
/*
 * loader: map .cwasm text the way the WAMR runtime does and run the fixture
 * kernels from it, so perf records a real anonymous code mapping.
 *
 *   loader [--ms MILLIS | --trips N] [--wall] [--twice] [--remap] [--adjacent]
 *          [--mix NAME:W,NAME:W,...] [--call-abi sysv|win64]
 *          [--jitdump] [--fork] [--threads N]
 *          [--import CORE:EXPORT] [--nap FROM:TO]
 *          [--manifest M.json | FILE.cwasm ...]
 *
 * --ms      run the mix for about MILLIS ms of this thread's CPU time
 *           (default 1000): what a cpu-clock recording samples, so its
 *           sample counts do not depend on the machine's load
 * --wall    --ms and the mix weights in wall time instead (mixes that sleep
 *           in host calls: their naps use no CPU time)
 * --trips N run N trips of the mix in all instead of for a time: fixed work,
 *           so that a faster build records less time (each round calls each
 *           kernel with TRIPS_CHUNK trips, the last call cut short; no
 *           calibration); "done:" then reports exactly N trips
 * --mix     kernels and weights, weights are shares of run time
 *           (default all four kernels, weight 1)
 * --twice   map every core twice and alternate between the copies
 * --remap   halfway through, munmap the first core's first copy and map it
 *           again (a second MMAP2 record for it)
 * --adjacent  map code regions back to back, so the kernel merges them
 *           (see map_core())
 * --jitdump after each mprotect, register the core with the embeddable
 *           jitdump writer (jitdump/jitdump.h), exactly as a runtime would:
 *           one aotjit_register_cwasm() call, errors only warned about.
 *           Names get "mod<idx>:" in a manifest of several cores, as
 *           `aotperf inject` names them. LOADER_TIMING=1 prints each
 *           call's cost.
 * --fork    map and run in a forked child; the parent only waits
 * --threads N  N threads each map (and register) their own copy of every
 *           core, at the same time, then run the mix
 * --call-abi sysv|win64|aapcs64  the mix names functions of the core
 *           itself (a wasm or export name, or local_func_N), called
 *           directly as the runtime calls them: f(vmctx, 1) in that
 *           convention (aapcs64: built for aarch64, which runs aarch64
 *           cores only and has no entry_<NAME> trampolines), vmctx in
 *           the layout the generated code reads (docs/codegen-idioms.md):
 *           +0 memory base, +8 memory size, +0x10 globals, +0x28 function
 *           pointers (every local function of the mapping), +0x50 and +0x58
 *           trap slots (a trap ends the loader with status 3). For the real
 *           compiler's output and the idiom fixtures, which have no
 *           entry_<NAME> trampolines.
 * --nap FROM:TO  host_nap sleeps TO us when asked for FROM us (one
 *           function's waits made longer or shorter without another
 *           fixture: tests/e2e/offcpu_diff.sh)
 * --import CORE:EXPORT  put the address of core CORE's (0-based) exported
 *           function EXPORT in vmctx field 24, the import slot a core calls
 *           another core through (tests/fixtures/xcore.S)
 *
 * Host imports, always in vmctx fields 32, 40 and 48 (tests/fixtures/offcpu.S,
 * offcpu_sc.S): host_nap(us) sleeps that long in nanosleep, host_burn(us)
 * spins on the clock that long without leaving the CPU, host_poll(us)
 * waits that long (whole ms) in poll on no file descriptors. All keep a
 * frame pointer and make their system calls themselves, so a frame-pointer
 * call chain taken inside runs host import -> wasm caller. At the end the
 * loader prints, per import and length, the calls and the nanoseconds they
 * took ("loader: host_nap 2000 us: N calls, T ns"), measured around the
 * system call.
 *
 * Prints "loader: pid P core PATH mapped at 0xADDR len N" per mapping, N
 * being the page-rounded length perf records. Exit 0, or 2 on any error.
 *
 * The runtime does mmap(RW) + memcpy + mprotect(RX); the mprotect is what
 * makes the kernel emit the //anon r-xp MMAP2 record, so we do exactly
 * that. Kernels are reached through their exported trampolines
 * entry_<NAME> (see tests/fixtures/kernels.S for the calling convention
 * and the vmctx layout).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cwasm/cwasm.h"
#include "jitdump/jitdump.h"

#define MAX_MIX 16
#define MAX_MAPS 2
#define MAX_THREADS 64
#define MEM_SIZE (64 * 1024)
/* One call should last long enough to amortize the loop, short enough to
 * keep the weighted mix fine-grained. */
#define CALL_NS 200000.0
/* --trips: trips per call */
#define TRIPS_CHUNK 65536

/* host_nap's and host_poll's calls and time per requested length (a few at most). */
#define NAP_KINDS 8
static struct { const char *import; uint64_t us, calls, ns; } naps[NAP_KINDS];
/* --nap FROM:TO */
static uint64_t nap_from, nap_to;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void count_nap(const char *import, uint64_t us, uint64_t dt)
{
	for (int i = 0; i < NAP_KINDS; i++) {
		if (naps[i].us && (naps[i].us != us || strcmp(naps[i].import, import)))
			continue;
		naps[i].import = import;
		naps[i].us = us;
		naps[i].calls++;
		naps[i].ns += dt;
		break;
	}
}

/* The nanosleep system call made here, not in libc (whose wrapper keeps no frame). */
__attribute__((noinline, optimize("no-omit-frame-pointer")))
static void host_nap(uint64_t us)
{
	struct timespec ts;
	uint64_t t0, dt;
	long ret;

	if (nap_from && us == nap_from)
		us = nap_to;
	ts = (struct timespec){ (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };
	t0 = mono_ns();

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(ret) : "0"(35L /* SYS_nanosleep */), "D"(&ts), "S"(0L)
			 : "rcx", "r11", "memory");
#else
	ret = nanosleep(&ts, NULL);
#endif
	(void)ret;
	dt = mono_ns() - t0;
	count_nap("host_nap", us, dt);
}

/* The poll system call made here, on no descriptors: a wait of us / 1000 ms. */
__attribute__((noinline, optimize("no-omit-frame-pointer")))
static void host_poll(uint64_t us)
{
	uint64_t t0 = mono_ns(), dt;
	long ret;

#if defined(__x86_64__)
	__asm__ volatile("syscall" : "=a"(ret) : "0"(7L /* SYS_poll */), "D"(0L), "S"(0L),
			 "d"((long)(us / 1000)) : "rcx", "r11", "memory");
#else
	ret = poll(NULL, 0, (int)(us / 1000));
#endif
	(void)ret;
	dt = mono_ns() - t0;
	count_nap("host_poll", us, dt);
}

__attribute__((noinline, optimize("no-omit-frame-pointer")))
static void host_burn(uint64_t us)
{
	uint64_t end = mono_ns() + us * 1000;
	volatile uint64_t x = 0;

	while (mono_ns() < end)
		x += 1;
}

static void print_naps(void)
{
	for (int i = 0; i < NAP_KINDS && naps[i].us; i++)
		fprintf(stderr, "loader: %s %" PRIu64 " us: %" PRIu64 " calls, %" PRIu64 " ns\n",
			naps[i].import, naps[i].us, naps[i].calls, naps[i].ns);
}

/* What the kernels read through rbx; must match kernels.S. */
struct vmctx {
	uint64_t mem_base;
	uint64_t mem_size;
	uint64_t trips;
	uint64_t reserved[5];
};

typedef uint32_t (*entry_fn)(struct vmctx *vm, void *mem, uint64_t trips);

/* --call-abi: a generated function called as the runtime calls it. */
enum call_abi { CALL_ENTRY, CALL_SYSV, CALL_WIN64 };
typedef uint64_t (*sysv_fn)(void *vmctx, uint64_t arg);
#if defined(__x86_64__)
typedef uint64_t (__attribute__((ms_abi)) *win64_fn)(void *vmctx, uint64_t arg);
#define HOST_ARCH CWASM_ARCH_X86_64
#define HOST_ARCH_NAME "x86_64"
#define HOST_ABI_NAME "sysv"
#elif defined(__aarch64__)
#define HOST_ARCH CWASM_ARCH_AARCH64
#define HOST_ARCH_NAME "aarch64"
#define HOST_ABI_NAME "aapcs64"
#else
#error "the loader runs x86_64 or aarch64 code"
#endif
#define DVM_WORDS 32		/* the direct-call vmctx: 256 bytes */
#define DVM_GLOBALS 2		/* +0x10 */
#define DVM_FUNCS 5		/* +0x28 */
#define DVM_TRAP_OOB 10		/* +0x50 */
#define DVM_TRAP_UNREACHABLE 11	/* +0x58 */

struct mix_ent {
	char name[64];
	unsigned weight;
	uint64_t chunk; /* trips per call, from calibration */
};

/* A core as the runtime holds it: parsed, plus the file bytes it registers. */
struct core_src {
	const struct cwasm_module *mod;
	uint8_t *bytes;
	size_t len;
	char prefix[32]; /* "mod<idx>:" or "" */
};

struct core {
	const struct cwasm_module *mod;
	const struct core_src *src;
	uint32_t entry_off[MAX_MIX];
	void *map[MAX_MAPS];
	void *data[MAX_MAPS]; /* per-mapping "instance data" page, see map_core() */
	uint64_t *funcs[MAX_MAPS]; /* --call-abi: each function's address in the mapping */
	size_t map_len; /* page-rounded, as perf will see it */
	int nmaps;
};

struct run {
	long ms;
	uint64_t trips;		/* --trips N, 0: run for --ms */
	int twice, remap, adjacent;
	int jitdump, timing, fork, nthreads;
	enum call_abi abi;
	uint64_t dvm[DVM_WORDS];	/* --call-abi: the vmctx */
	uint64_t globals[16];
	const char *import;	/* --import CORE:EXPORT */
	struct core_src *srcs;
	struct mix_ent mix[MAX_MIX];
	int nmix;
	struct core *cores;
	int ncores;
	struct vmctx vm;
	uint8_t *mem;
	uint64_t calls;
	uint32_t checksum;
};

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "loader: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(2);
}

static void usage(void)
{
	fail("usage: loader [--ms MILLIS | --trips N] [--wall] [--twice] [--remap] [--adjacent] "
	     "[--mix NAME:W,...] [--call-abi sysv|win64|aapcs64] [--jitdump] [--fork] [--threads N] "
	     "[--import CORE:EXPORT] [--nap FROM:TO] "
	     "[--manifest M.json | FILE.cwasm ...]");
}

/* The run's clock: this thread's CPU time, or wall time with --wall. */
static clockid_t run_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(run_clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void parse_mix(struct run *r, const char *spec)
{
	char *copy = strdup(spec), *save = NULL, *tok;

	if (!copy)
		fail("out of memory");
	r->nmix = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		struct mix_ent *m;
		char *colon = strchr(tok, ':'), *end;
		long w = 1;

		if (r->nmix == MAX_MIX)
			fail("--mix: more than %d kernels", MAX_MIX);
		if (colon) {
			*colon = '\0';
			w = strtol(colon + 1, &end, 10);
			if (*end || w < 1 || w > 1000)
				fail("--mix: bad weight for '%s'", tok);
		}
		if (!*tok || strlen(tok) >= sizeof(m->name))
			fail("--mix: bad kernel name '%s'", tok);
		m = &r->mix[r->nmix++];
		snprintf(m->name, sizeof(m->name), "%s", tok);
		m->weight = (unsigned)w;
	}
	free(copy);
	if (r->nmix == 0)
		fail("--mix: empty");
}

/* Text offset of the exported function named want. */
static uint32_t find_export(const struct cwasm_module *mod, const char *want)
{
	for (uint32_t i = 0; i < mod->nexports; i++) {
		const struct cwasm_export *e = &mod->exports[i];
		uint32_t local;

		if (e->kind != 0 || strcmp(e->name, want))
			continue;
		if (e->index < mod->import_func_count)
			fail("%s: export %s names an import", mod->path, want);
		local = e->index - mod->import_func_count;
		if (local >= mod->nfuncs)
			fail("%s: export %s: no local function %" PRIu32,
			     mod->path, want, local);
		return mod->funcs[local].offset;
	}
	fail("%s: no exported function %s", mod->path, want);
}

/* Text offset of the exported entry_<name> trampoline. */
static uint32_t find_entry(const struct cwasm_module *mod, const char *kernel)
{
	char want[80];

	snprintf(want, sizeof(want), "entry_%s", kernel);
	return find_export(mod, want);
}

/* --import CORE:EXPORT: the function's address in the vmctx import slot. */
static void link_import(struct run *r)
{
	char *end;
	long c = strtol(r->import, &end, 10);
	struct core *core;

	if (end == r->import || *end != ':' || c < 0 || c >= r->ncores)
		fail("--import: '%s' is not CORE:EXPORT with CORE below %d", r->import, r->ncores);
	core = &r->cores[c];
	r->vm.reserved[0] = (uint64_t)(uintptr_t)core->map[0] + find_export(core->mod, end + 1);
}

/* --call-abi: a function by wasm/export name or local_func_N, its text offset. */
static uint32_t find_func(const struct cwasm_module *mod, const char *name)
{
	unsigned long n;
	char *end;

	if (!strncmp(name, "local_func_", 11)) {
		n = strtoul(name + 11, &end, 10);
		if (*end || n >= mod->nfuncs)
			fail("%s: no function %s", mod->path, name);
		return mod->funcs[n].offset;
	}
	for (uint32_t i = 0; i < mod->nfuncs; i++)
		if (mod->funcs[i].name && !strcmp(mod->funcs[i].name, name))
			return mod->funcs[i].offset;
	fail("%s: no function named %s", mod->path, name);
}

/* A trap slot: what the runtime would unwind to; here the run ends (exit 3). */
static void trap(void)
{
	static const char msg[] = "loader: the generated code trapped\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(3);
}

/* mmap(RW) + copy + mprotect(RX), as the runtime maps a core's text. */
static void *map_text(const struct cwasm_module *mod)
{
	void *p = mmap(NULL, mod->text_size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("%s: mmap: %s", mod->path, strerror(errno));
	memcpy(p, mod->text, mod->text_size);
	if (mprotect(p, mod->text_size, PROT_READ | PROT_EXEC) < 0)
		fail("%s: mprotect: %s", mod->path, strerror(errno));
	return p;
}

/*
 * Map one copy of a core's text. Unless --adjacent, also allocate a small
 * read-write page right after it, as a runtime does for module instance
 * data: mmap places the next code region below it, so two code regions
 * never touch. Touching anonymous r-x regions get merged by the kernel
 * into one VMA, and the MMAP2 record of the second then covers both.
 */
static void map_core_locked(struct run *r, struct core *c, int slot)
{
	long page = sysconf(_SC_PAGESIZE);

	c->map[slot] = map_text(c->mod);
	if (r->abi != CALL_ENTRY) {
		free(c->funcs[slot]);
		c->funcs[slot] = calloc(c->mod->nfuncs + 1, sizeof(uint64_t));
		if (!c->funcs[slot])
			fail("out of memory");
		for (uint32_t i = 0; i < c->mod->nfuncs; i++)
			c->funcs[slot][i] = (uint64_t)(uintptr_t)c->map[slot] + c->mod->funcs[i].offset;
	}
	fprintf(stderr, "loader: pid %d core %s mapped at %p len %zu\n",
		(int)getpid(), c->mod->path, c->map[slot], c->map_len);
	if (r->adjacent || c->data[slot])
		return;
	/* A hint just below the code: where the next mmap would look first. */
	c->data[slot] = mmap((uint8_t *)c->map[slot] - page, page,
			     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c->data[slot] == MAP_FAILED)
		fail("instance data: mmap: %s", strerror(errno));
	memset(c->data[slot], 0, page);
}

/*
 * What a runtime adds right after its mprotect: one call; a failure costs
 * the names, never the run.
 */
static void register_jit(struct run *r, struct core *c, void *text)
{
	const struct core_src *s = c->src;
	double t0 = now_ns(), dt;
	int err;

	err = aotjit_register_cwasm(NULL, (uintptr_t)text, s->bytes, s->len,
				    s->prefix[0] ? s->prefix : NULL, 0);
	dt = now_ns() - t0;
	if (err) {
		fprintf(stderr, "loader: warning: jitdump: registering %s: %s\n",
			c->mod->path, strerror(-err));
		return;
	}
	fprintf(stderr, "loader: pid %d jitdump %s\n", (int)getpid(), aotjit_path(NULL));
	if (r->timing)
		fprintf(stderr, "loader: jitdump register %s: %" PRIu32 " functions in %.0f us"
			" (%.0f ns per function)\n", c->mod->path, c->mod->nfuncs, dt / 1e3,
			c->mod->nfuncs ? dt / c->mod->nfuncs : 0.0);
}

/*
 * Threads map under one lock (a runtime's mmap path is serialized by the
 * kernel anyway): two text regions mapped back to back before their data
 * pages would merge into one VMA. Registration runs outside it, truly
 * concurrently.
 */
static pthread_mutex_t map_lock = PTHREAD_MUTEX_INITIALIZER;

static void map_core(struct run *r, struct core *c, int slot)
{
	pthread_mutex_lock(&map_lock);
	map_core_locked(r, c, slot);
	pthread_mutex_unlock(&map_lock);
	if (r->jitdump)
		register_jit(r, c, c->map[slot]);
}

static void setup_core(struct run *r, struct core *c, const struct core_src *src)
{
	const struct cwasm_module *mod = src->mod;
	long page = sysconf(_SC_PAGESIZE);

	if (mod->target.arch != HOST_ARCH)
		fail("%s: not " HOST_ARCH_NAME " code", mod->path);
	if (mod->text_size == 0)
		fail("%s: empty text", mod->path);
	c->mod = mod;
	c->src = src;
	c->map_len = ((size_t)mod->text_size + page - 1) / page * page;
	for (int k = 0; k < r->nmix; k++)
		c->entry_off[k] = r->abi != CALL_ENTRY ? find_func(mod, r->mix[k].name)
						       : find_entry(mod, r->mix[k].name);
	c->nmaps = r->twice ? 2 : 1;
	for (int i = 0; i < c->nmaps; i++)
		map_core(r, c, i);
}

/* --call-abi: trips calls of the function itself, as the runtime makes them. */
static uint32_t call_direct(struct run *r, const uint64_t *funcs, void *p, uint64_t trips)
{
	uint64_t sum = 0;

	r->dvm[DVM_FUNCS] = (uint64_t)(uintptr_t)funcs;
	r->vm.trips += trips;
#if defined(__x86_64__)
	if (r->abi == CALL_WIN64) {
		win64_fn fn;

		memcpy(&fn, &p, sizeof(fn));
		for (uint64_t i = 0; i < trips; i++)
			sum += fn(r->dvm, 1);
	} else
#endif
	{
		sysv_fn fn;

		memcpy(&fn, &p, sizeof(fn));
		for (uint64_t i = 0; i < trips; i++)
			sum += fn(r->dvm, 1);
	}
	return (uint32_t)sum;
}

static uint32_t call_entry(struct run *r, const struct core *c, int slot, uint32_t off,
			   uint64_t trips)
{
	void *p = (uint8_t *)c->map[slot] + off;
	entry_fn fn;

	r->calls++;
	if (r->abi != CALL_ENTRY)
		return call_direct(r, c->funcs[slot], p, trips);
	memcpy(&fn, &p, sizeof(fn));
	return fn(&r->vm, r->mem, trips);
}

static double time_call(struct run *r, int k, uint64_t trips)
{
	struct core *c = &r->cores[0];
	double t0 = now_ns();

	r->checksum ^= call_entry(r, c, 0, c->entry_off[k], trips);
	return now_ns() - t0;
}

/* Pick trips per call so that each call takes about CALL_NS: the mix
 * weights are then shares of run time, not of calls. */
static void calibrate(struct run *r)
{
	for (int k = 0; k < r->nmix; k++) {
		uint64_t trips = 256;
		double dt, best;

		time_call(r, k, trips); /* fault the code and memory in */
		while ((dt = time_call(r, k, trips)) < CALL_NS / 2 && trips < (1u << 30))
			trips *= 2;
		best = dt;
		for (int i = 0; i < 3; i++) {
			dt = time_call(r, k, trips);
			if (dt < best)
				best = dt;
		}
		r->mix[k].chunk = (uint64_t)(trips * (CALL_NS / (best > 1 ? best : 1)));
		/* Kernels loop do-while on a 32-bit count. */
		if (r->mix[k].chunk == 0)
			r->mix[k].chunk = 1;
		if (r->mix[k].chunk > (1u << 30))
			r->mix[k].chunk = 1u << 30;
	}
}

static void remap_first(struct run *r)
{
	struct core *c = &r->cores[0];

	if (munmap(c->map[0], c->mod->text_size) < 0)
		fail("%s: munmap: %s", c->mod->path, strerror(errno));
	map_core(r, c, 0);
}

/* Trips a call may still make: its chunk, cut to what --trips leaves. */
static uint64_t chunk_of(const struct run *r, int k)
{
	if (!r->trips)
		return r->mix[k].chunk;
	return r->trips - r->vm.trips < r->mix[k].chunk ? r->trips - r->vm.trips : r->mix[k].chunk;
}

/* One weighted round over every mapping of every core. */
static void round_once(struct run *r)
{
	for (int ci = 0; ci < r->ncores; ci++) {
		struct core *c = &r->cores[ci];

		for (int mi = 0; mi < c->nmaps; mi++)
			for (int k = 0; k < r->nmix; k++)
				for (unsigned w = 0; w < r->mix[k].weight && chunk_of(r, k); w++)
					r->checksum ^= call_entry(r, c, mi,
						c->entry_off[k], chunk_of(r, k));
	}
}

static void run_mix(struct run *r)
{
	double start = now_ns(), end = start + r->ms * 1e6;
	double half = start + r->ms * 0.5e6;
	int remapped = 0;

	if (r->trips) {
		for (int k = 0; k < r->nmix; k++)
			r->mix[k].chunk = TRIPS_CHUNK;
	} else {
		calibrate(r);
	}
	while (r->trips ? r->vm.trips < r->trips : now_ns() < end) {
		round_once(r);
		if (r->remap && !remapped && now_ns() >= half) {
			remap_first(r);
			remapped = 1;
		}
	}
	if (r->remap && !remapped)
		remap_first(r);
}

static void setup_memory(struct run *r)
{
	long page = sysconf(_SC_PAGESIZE);
	/* A PROT_NONE guard after the memory, like the runtime's reservation. */
	uint8_t *p = mmap(NULL, MEM_SIZE + page, PROT_NONE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		fail("linear memory: mmap: %s", strerror(errno));
	if (mprotect(p, MEM_SIZE, PROT_READ | PROT_WRITE) < 0)
		fail("linear memory: mprotect: %s", strerror(errno));
	for (size_t i = 0; i < MEM_SIZE; i++)
		p[i] = (uint8_t)(i * 131 + 7);
	r->mem = p;
	memset(&r->vm, 0, sizeof(r->vm));
	r->vm.mem_base = (uint64_t)(uintptr_t)p;
	r->vm.mem_size = MEM_SIZE;
	r->vm.reserved[1] = (uint64_t)(uintptr_t)host_nap;
	r->vm.reserved[2] = (uint64_t)(uintptr_t)host_burn;
	r->vm.reserved[3] = (uint64_t)(uintptr_t)host_poll;
	memset(r->dvm, 0, sizeof(r->dvm));
	memset(r->globals, 0, sizeof(r->globals));
	for (size_t i = 0; i < sizeof(r->globals) / sizeof(r->globals[0]); i++)
		r->globals[i] = i + 1;
	r->dvm[0] = r->vm.mem_base;
	r->dvm[1] = MEM_SIZE;
	r->dvm[DVM_GLOBALS] = (uint64_t)(uintptr_t)r->globals;
	r->dvm[DVM_TRAP_OOB] = r->dvm[DVM_TRAP_UNREACHABLE] = (uint64_t)(uintptr_t)trap;
}

/* Map every core and run the mix: one process's, or one thread's, work. */
static void run_all(struct run *r)
{
	setup_memory(r);
	r->cores = calloc((size_t)r->ncores, sizeof(*r->cores));
	if (!r->cores)
		fail("out of memory");
	for (int c = 0; c < r->ncores; c++)
		setup_core(r, &r->cores[c], &r->srcs[c]);
	if (r->import)
		link_import(r);
	run_mix(r);
}

static void print_done(const struct run *r)
{
	fprintf(stderr, "loader: pid %d done: %" PRIu64 " calls, %" PRIu64
		" trips, checksum 0x%08" PRIx32 "\n", (int)getpid(), r->calls,
		r->vm.trips, r->checksum);
	print_naps();
}

static void teardown(struct run *r)
{
	for (int c = 0; r->cores && c < r->ncores; c++)
		for (int m = 0; m < r->cores[c].nmaps; m++) {
			munmap(r->cores[c].map[m], r->cores[c].mod->text_size);
			if (r->cores[c].data[m])
				munmap(r->cores[c].data[m], sysconf(_SC_PAGESIZE));
			free(r->cores[c].funcs[m]);
		}
	if (r->mem)
		munmap(r->mem, MEM_SIZE + sysconf(_SC_PAGESIZE));
	free(r->cores);
	r->cores = NULL;
}

static void *thread_main(void *arg)
{
	run_all(arg);
	return NULL;
}

/* --threads: each thread runs a private copy of the run on its own mappings;
 * the done line sums them. */
static void run_threads(struct run *r)
{
	struct run *t = calloc((size_t)r->nthreads, sizeof(*t));
	pthread_t *tids = calloc((size_t)r->nthreads, sizeof(*tids));
	int i, err;

	if (!t || !tids)
		fail("out of memory");
	for (i = 0; i < r->nthreads; i++) {
		t[i] = *r;
		err = pthread_create(&tids[i], NULL, thread_main, &t[i]);
		if (err)
			fail("pthread_create: %s", strerror(err));
	}
	for (i = 0; i < r->nthreads; i++) {
		pthread_join(tids[i], NULL);
		r->calls += t[i].calls;
		r->vm.trips += t[i].vm.trips;
		r->checksum ^= t[i].checksum;
	}
	print_done(r);
	for (i = 0; i < r->nthreads; i++)
		teardown(&t[i]);
	free(tids);
	free(t);
}

static int run_process(struct run *r)
{
	int err;

	if (r->nthreads) {
		run_threads(r);
	} else {
		run_all(r);
		print_done(r);
		teardown(r);
	}
	/* a runtime may ignore this too; the dump stays usable without it */
	if (r->jitdump && (err = aotjit_close(NULL)))
		fprintf(stderr, "loader: warning: jitdump close: %s\n", strerror(-err));
	return 0;
}

/* --fork: the child maps, registers and runs; the parent only waits. */
static int run_forked(struct run *r)
{
	int status;
	pid_t pid;

	fflush(stderr);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (pid == 0)
		return run_process(r);
	fprintf(stderr, "loader: pid %d forked child %d\n", (int)getpid(), (int)pid);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			fail("waitpid: %s", strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	fprintf(stderr, "loader: child %d killed by signal %d\n", (int)pid, WTERMSIG(status));
	return 2;
}

static uint8_t *read_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		fail("%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		fail("%s: cannot size it", path);
	buf = malloc(n ? (size_t)n : 1);
	if (!buf)
		fail("out of memory");
	if (fread(buf, 1, (size_t)n, f) != (size_t)n)
		fail("%s: short read", path);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The runtime's view of each core; with --jitdump, the bytes it registers. */
static void setup_srcs(struct run *r, struct cwasm_module **mods)
{
	r->srcs = calloc((size_t)r->ncores, sizeof(*r->srcs));
	if (!r->srcs)
		fail("out of memory");
	for (int c = 0; c < r->ncores; c++) {
		struct core_src *s = &r->srcs[c];

		s->mod = mods[c];
		/* prefix as `aotperf inject` does: only when several cores */
		if (s->mod->core_label && r->ncores > 1)
			snprintf(s->prefix, sizeof(s->prefix), "%s:", s->mod->core_label);
		if (r->jitdump)
			s->bytes = read_bytes(s->mod->path, &s->len);
	}
}

int main(int argc, char **argv)
{
	static const char *default_mix =
		"spill_heavy:1,zext_heavy:1,br_table_dispatch:1,bounds_checked_mem:1";
	struct run r;
	struct ap_err err;
	struct cwasm_manifest *man = NULL;
	struct cwasm_module **mods = NULL;
	const char *manifest = NULL, *timing = getenv("LOADER_TIMING");
	int i, ret;
	size_t nfiles;

	memset(&r, 0, sizeof(r));
	r.ms = 1000;
	r.timing = timing && *timing && strcmp(timing, "0");
	parse_mix(&r, default_mix);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--twice")) {
			r.twice = 1;
		} else if (!strcmp(a, "--wall")) {
			run_clock = CLOCK_MONOTONIC;
		} else if (!strcmp(a, "--adjacent")) {
			r.adjacent = 1;
		} else if (!strcmp(a, "--remap")) {
			r.remap = 1;
		} else if (!strcmp(a, "--jitdump")) {
			r.jitdump = 1;
		} else if (!strcmp(a, "--fork")) {
			r.fork = 1;
		} else if (!strcmp(a, "--threads") && i + 1 < argc) {
			char *end;
			long n = strtol(argv[++i], &end, 10);

			if (*end || n < 1 || n > MAX_THREADS)
				fail("--threads: bad value '%s' (1..%d)", argv[i], MAX_THREADS);
			r.nthreads = (int)n;
		} else if (!strcmp(a, "--ms") && i + 1 < argc) {
			char *end;

			r.ms = strtol(argv[++i], &end, 10);
			if (*end || r.ms < 1 || r.ms > 3600 * 1000)
				fail("--ms: bad value '%s'", argv[i]);
		} else if (!strcmp(a, "--trips") && i + 1 < argc) {
			char *end;

			r.trips = strtoull(argv[++i], &end, 10);
			if (*end || !r.trips)
				fail("--trips: bad value '%s'", argv[i]);
		} else if (!strcmp(a, "--call-abi") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], HOST_ABI_NAME))
				r.abi = CALL_SYSV;
#if defined(__x86_64__)
			else if (!strcmp(argv[i], "win64"))
				r.abi = CALL_WIN64;
			else
				fail("--call-abi: '%s' is not sysv or win64", argv[i]);
#else
			else
				fail("--call-abi: '%s' is not " HOST_ABI_NAME, argv[i]);
#endif
		} else if (!strcmp(a, "--nap") && i + 1 < argc) {
			char *end;

			nap_from = strtoull(argv[++i], &end, 10);
			nap_to = *end == ':' ? strtoull(end + 1, &end, 10) : 0;
			if (*end || !nap_from || !nap_to || nap_to > 10000000)
				fail("--nap: bad value '%s' (FROM:TO, microseconds)", argv[i]);
		} else if (!strcmp(a, "--import") && i + 1 < argc) {
			r.import = argv[++i];
		} else if (!strcmp(a, "--mix") && i + 1 < argc) {
			parse_mix(&r, argv[++i]);
		} else if (!strcmp(a, "--manifest") && i + 1 < argc) {
			manifest = argv[++i];
		} else {
			usage();
		}
	}
	nfiles = (size_t)(argc - i);
	if ((manifest && nfiles) || (!manifest && !nfiles))
		usage();

	if (manifest) {
		if (cwasm_manifest__read(manifest, &man, &err) < 0)
			fail("%s", err.msg);
		if (man->ncores == 0)
			fail("%s: no cores", manifest);
		r.ncores = (int)man->ncores;
	} else {
		if (nfiles > 64)
			fail("too many files");
		r.ncores = (int)nfiles;
		mods = calloc(nfiles, sizeof(*mods));
		if (!mods)
			fail("out of memory");
		for (size_t f = 0; f < nfiles; f++)
			if (cwasm__read(argv[i + (int)f], &mods[f], &err) < 0)
				fail("%s", err.msg);
	}
	setup_srcs(&r, man ? man->cores : mods);

	ret = r.fork ? run_forked(&r) : run_process(&r);

	for (int c = 0; c < r.ncores; c++)
		free(r.srcs[c].bytes);
	free(r.srcs);
	if (man)
		cwasm_manifest__delete(man);
	for (size_t f = 0; mods && f < nfiles; f++)
		cwasm__delete(mods[f]);
	free(mods);
	return ret;
}
