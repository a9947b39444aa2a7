// SPDX-License-Identifier: MIT
/*
 * live_demo: a stand-in runtime for the embeddable jitdump writer. It maps
 * a code blob the way WAMR maps a core (mmap RW, copy, mprotect RX), calls
 * aotjit_register_core right after the mprotect, and runs two of the
 * functions for a while, so that stock `perf record -k mono` + `perf
 * inject --jit` + `perf report` can be checked to name them.
 *
 *   live_demo [--ms MILLIS] [--dir DIR] [--fork] [--prefix P] BLOB NM
 *
 * BLOB  raw text (objcopy -O binary)
 * NM    `nm -n` of the object it came from: one function per line
 * --fork  open the writer, then fork; the child maps, registers and runs
 *         (it must get its own jit-<childpid>.dump)
 *
 * The text must hold hot_a and hot_b (u64 f(u64 trips), SysV); hot_a gets
 * three times hot_b's trips. Prints "live_demo: pid P base 0xADDR size N
 * dump PATH". Exit 0, or 2 on any error.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jitdump/jitdump.h"

#define MAX_FUNCS 64
#define TRIPS 200000

typedef uint64_t (*kernel_fn)(uint64_t trips);

struct blob {
	uint8_t *bytes;
	size_t size;
	uint32_t offsets[MAX_FUNCS];
	char *names[MAX_FUNCS];
	uint32_t n;
};

static void die(const char *what)
{
	fprintf(stderr, "live_demo: %s\n", what);
	exit(2);
}

static void read_blob(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET))
		die("cannot read the blob");
	b->bytes = malloc((size_t)n);
	if (!b->bytes || fread(b->bytes, 1, (size_t)n, f) != (size_t)n)
		die("cannot read the blob");
	b->size = (size_t)n;
	fclose(f);
}

static void read_nm(const char *path, struct blob *b)
{
	FILE *f = fopen(path, "r");
	char line[512], name[256], type;
	unsigned long long addr;

	if (!f)
		die("cannot read the nm listing");
	while (fgets(line, sizeof(line), f) && b->n < MAX_FUNCS) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		b->offsets[b->n] = (uint32_t)addr;
		b->names[b->n] = strdup(name);
		b->n++;
	}
	fclose(f);
	if (!b->n)
		die("no functions in the nm listing");
}

/* What the runtime does: RW, copy, then RX; the mprotect makes the MMAP2. */
static uint8_t *map_code(const struct blob *b)
{
	uint8_t *p = mmap(NULL, b->size, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		die("mmap failed");
	memcpy(p, b->bytes, b->size);
	if (mprotect(p, b->size, PROT_READ | PROT_EXEC))
		die("mprotect failed");
	return p;
}

static kernel_fn find(const struct blob *b, uint8_t *code, const char *name)
{
	kernel_fn fn;
	uint32_t i;

	for (i = 0; i < b->n; i++) {
		if (!strcmp(b->names[i], name)) {
			void *p = code + b->offsets[i];

			memcpy(&fn, &p, sizeof(fn));
			return fn;
		}
	}
	die("hot_a / hot_b missing from the blob");
	return NULL;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int run(struct aotjit *j, const struct blob *b, long ms, const char *prefix)
{
	volatile uint64_t sink = 0;
	uint8_t *code = map_code(b);
	kernel_fn a, c;
	double end;
	int ret;

	/* The line a runtime adds after its mprotect. */
	ret = aotjit_register_core(j, (uintptr_t)code, code, b->size, b->offsets,
				   b->n, (const char *const *)b->names, prefix);
	if (ret) {
		fprintf(stderr, "live_demo: aotjit_register_core: %s\n", strerror(-ret));
		return 2;
	}
	printf("live_demo: pid %d base 0x%" PRIxPTR " size %zu dump %s\n",
	       (int)getpid(), (uintptr_t)code, b->size, aotjit_path(j));
	fflush(stdout);

	a = find(b, code, "hot_a");
	c = find(b, code, "hot_b");
	end = now_ms() + (double)ms;
	while (now_ms() < end) {
		sink += a(3 * TRIPS);
		sink += c(TRIPS);
	}
	(void)sink;
	return 0;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *prefix = NULL;
	struct blob b = { 0 };
	struct aotjit *j;
	int i, forking = 0, err = 0, ret;
	long ms = 1000;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--ms") && i + 1 < argc)
			ms = atol(argv[++i]);
		else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--prefix") && i + 1 < argc)
			prefix = argv[++i];
		else if (!strcmp(argv[i], "--fork"))
			forking = 1;
		else
			die("usage: live_demo [--ms N] [--dir DIR] [--fork] [--prefix P] BLOB NM");
	}
	if (argc - i != 2)
		die("usage: live_demo [--ms N] [--dir DIR] [--fork] [--prefix P] BLOB NM");
	read_blob(argv[i], &b);
	read_nm(argv[i + 1], &b);

	/* A runtime opens the writer once, at start-up. */
	j = aotjit_open(dir, 0, &err);
	if (!j) {
		fprintf(stderr, "live_demo: aotjit_open: %s\n", strerror(-err));
		return 2;
	}
	if (forking) {
		pid_t pid = fork();
		int status = 0;

		if (pid < 0)
			die("fork failed");
		if (pid == 0) {
			ret = run(j, &b, ms, prefix);
			aotjit_close(j);
			_exit(ret);
		}
		waitpid(pid, &status, 0);
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
	} else {
		ret = run(j, &b, ms, prefix);
	}
	if (aotjit_close(j) && !ret)
		ret = 2;
	for (uint32_t k = 0; k < b.n; k++)
		free(b.names[k]);
	free(b.bytes);
	return ret;
}
