// SPDX-License-Identifier: MIT
/*
 * Host frames from a stack copy (profile/hostunwind.h), on this test's
 * own stack: two assembly functions with their CFI, the inner one saving
 * rbx, which the outer set to a marker (a callee-saved register holding a
 * loop's counter, as in a runtime's call loop), and a helper that copies
 * the stack as perf's --call-graph=dwarf does. The files' CFI comes from
 * /proc/self/maps, as the recording's mappings give it.
 *
 *   - the walk names the two functions' callers in order;
 *   - a remembered walk: the same copy again, and one whose saved marker
 *     changed, are answered without libdw, with the frames libdw gives;
 *   - a changed return address is not: libdw walks again, and gives what
 *     a fresh unwinder gives.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "../../profile/hostmaps.h"
#include "../../profile/hostunwind.h"

#if defined(__x86_64__)

#define MARKER 0x5eed5eed5eed0001ULL
#define COPY 4096

struct snap {
	uint64_t sp, ip, fp;	/* the first frame: tu_level2 after its call */
	uint64_t size;
	uint8_t stack[COPY];
};

void tu_level1(struct snap *s, uint64_t marker);
void tu_level2(struct snap *s);
void tu_capture(struct snap *s);
void tu_copy(struct snap *s);
static uint64_t stack_end;

__asm__(".text\n"
	".globl tu_level1\n.type tu_level1,@function\ntu_level1:\n"
	".cfi_startproc\n"
	"push %rbx\n.cfi_def_cfa_offset 16\n.cfi_offset %rbx, -16\n"
	"mov %rsi, %rbx\n"
	"call tu_level2\n"
	"pop %rbx\n.cfi_def_cfa_offset 8\n"
	"ret\n.cfi_endproc\n.size tu_level1, .-tu_level1\n"
	".globl tu_level2\n.type tu_level2,@function\ntu_level2:\n"
	".cfi_startproc\n"
	"push %rbx\n.cfi_def_cfa_offset 16\n.cfi_offset %rbx, -16\n"
	"xor %ebx, %ebx\n"
	"call tu_capture\n"
	"pop %rbx\n.cfi_def_cfa_offset 8\n"
	"ret\n.cfi_endproc\n.size tu_level2, .-tu_level2\n"
	/* tu_level2's registers after the call returns, then the copy (a tail call) */
	".globl tu_capture\n.type tu_capture,@function\ntu_capture:\n"
	".cfi_startproc\n"
	"lea 8(%rsp), %rax\nmov %rax, 0(%rdi)\n"
	"mov (%rsp), %rax\nmov %rax, 8(%rdi)\n"
	"mov %rbp, 16(%rdi)\n"
	"jmp tu_copy\n.cfi_endproc\n.size tu_capture, .-tu_capture\n");

/*
 * The stack above tu_level2's sp, as far as it goes (below it only this
 * frame), byte by byte: the sanitized build's redzones between the
 * callers' locals are read too, as perf's copy reads them.
 */
__attribute__((no_sanitize_address)) void tu_copy(struct snap *s)
{
	const volatile uint8_t *from = (const volatile uint8_t *)(uintptr_t)s->sp;

	s->size = stack_end - s->sp < COPY ? stack_end - s->sp : COPY;
	for (uint64_t i = 0; i < s->size; i++)
		s->stack[i] = from[i];
}

/* Every executable file mapping of this process into maps; the stack's end. */
static int map_self(struct hostmaps *maps)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096], perms[8], path[4096];
	uint64_t lo, hi, off;
	int n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s", &lo, &hi,
			   perms, &off, path) < 4)
			continue;
		if (!strcmp(path, "[stack]"))
			stack_end = hi;
		if (perms[2] != 'x' || path[0] != '/')
			continue;
		struct attr_map_event ev = { .kind = ATTR_MAP_MMAP, .pid = (uint32_t)getpid(),
					     .start = lo, .len = hi - lo, .pgoff = off,
					     .filename = path };
		if (hostmaps__add(maps, &ev) == 0)
			n++;
	}
	fclose(f);
	return n;
}

static int never_wasm(void *ctx, uint64_t ip)
{
	(void)ctx; (void)ip;
	return 0;
}

struct walked {
	int stop;
	uint32_t n;
	uint64_t frames[64];
};

static void walk(struct hostunwind *h, const struct snap *sn, struct walked *out)
{
	struct unwind_stack st = { sn->sp, sn->stack, sn->size };
	struct hostunwind_start s = {
		.pid = (uint32_t)getpid(), .time = 1, .arch = UNWIND_ARCH_X86_64,
		.regs = { .ip = sn->ip, .sp = sn->sp, .fp = sn->fp }, .return_addr = 1,
		.stack = &st,
	};
	struct unwind_regs wasm;

	out->stop = hostunwind__walk(h, &s, never_wasm, NULL, out->frames, 64, &out->n, &wasm);
}

/* The frames a new unwinder (nothing remembered) gives for sn. */
static void fresh_walk(const struct hostmaps *maps, const struct snap *sn, struct walked *out)
{
	struct hostunwind *h = hostunwind__new(maps);

	CHECK(h != NULL);
	if (h)
		walk(h, sn, out);
	hostunwind__delete(h);
}

static int same(const struct walked *a, const struct walked *b)
{
	return a->stop == b->stop && a->n == b->n &&
	       !memcmp(a->frames, b->frames, a->n * sizeof(a->frames[0]));
}

/* The copy's word equal to v: its offset, or -1. */
static long find_word(const struct snap *sn, uint64_t v)
{
	for (uint64_t o = 0; o + 8 <= sn->size; o += 8) {
		uint64_t w;

		memcpy(&w, sn->stack + o, 8);
		if (w == v)
			return (long)o;
	}
	return -1;
}

static void test_memo(void)
{
	static struct snap sn, changed;
	struct hostmaps *maps = hostmaps__new();
	struct hostunwind *h;
	struct walked first, again, fresh;
	uint64_t walks, libdw;
	long at;

	CHECK(maps && map_self(maps) > 0 && stack_end);
	tu_level1(&sn, MARKER);
	CHECK(sn.size > 64);
	h = hostunwind__new(maps);
	CHECK(h != NULL);
	if (!h)
		return;
	walk(h, &sn, &first);
	/* tu_level2 (the start), then the return addresses into tu_level1 and test_memo */
	CHECK(first.n >= 3);
	CHECK_EQ_U64(first.frames[0], sn.ip);
	CHECK(first.frames[1] > (uint64_t)(uintptr_t)tu_level1 &&
	      first.frames[1] < (uint64_t)(uintptr_t)tu_level2);
	CHECK(first.frames[2] > (uint64_t)(uintptr_t)test_memo &&
	      first.frames[2] < (uint64_t)(uintptr_t)test_memo + 4096);
	hostunwind__stats(h, &walks, &libdw);
	CHECK_EQ_U64(walks, 1);
	CHECK_EQ_U64(libdw, 1);

	/* the same copy: remembered */
	walk(h, &sn, &again);
	CHECK(same(&again, &first));
	hostunwind__stats(h, &walks, &libdw);
	CHECK_EQ_U64(libdw, 1);

	/* the saved rbx (tu_level1's marker) changed: no frame follows from it */
	changed = sn;
	at = find_word(&changed, MARKER);
	CHECK(at >= 0);
	if (at >= 0)
		memcpy(changed.stack + at, &(uint64_t){ MARKER + 41 }, 8);
	walk(h, &changed, &again);
	fresh_walk(maps, &changed, &fresh);
	CHECK(same(&again, &fresh));
	CHECK(same(&again, &first));
	hostunwind__stats(h, &walks, &libdw);
	CHECK_EQ_U64(walks, 3);
	CHECK_EQ_U64(libdw, 1);

	/* the return address into test_memo changed: libdw walks again */
	changed = sn;
	at = find_word(&changed, first.frames[2]);
	CHECK(at >= 0);
	if (at >= 0)
		memcpy(changed.stack + at, &(uint64_t){ (uint64_t)(uintptr_t)tu_level1 + 1 }, 8);
	walk(h, &changed, &again);
	fresh_walk(maps, &changed, &fresh);
	CHECK(same(&again, &fresh));
	CHECK(!same(&again, &first));
	hostunwind__stats(h, &walks, &libdw);
	CHECK_EQ_U64(libdw, 2);

	hostunwind__delete(h);
	hostmaps__delete(maps);
}

int main(void)
{
	test_memo();
	CHECK_DONE();
}

#else

int main(void)
{
	printf("skip: the test's stack is built with x86_64 assembly\n");
	CHECK_DONE();
}

#endif
