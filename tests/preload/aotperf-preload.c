// SPDX-License-Identifier: MIT
/*
 * aotperf-preload.so: an LD_PRELOAD agent that writes the jitdump for a
 * runtime that cannot be changed, built on the embeddable writer
 * (jitdump/jitdump.h).
 *
 *   perf record -k mono -- env LD_PRELOAD=/path/to/aotperf-preload.so \
 *	AOTPERF_CWASM=core.cwasm[:other.cwasm...] RUNTIME ARGS...
 *   perf inject --jit -i perf.data -o perf.jit.data
 *
 * (preloaded inside the command, not into perf itself)
 *
 * It wraps mprotect(): when a region becomes executable and its length is
 * a listed core's text size (exact or page-rounded) and its bytes are that
 * text, the core is registered at that address, as the runtime itself
 * would with aotjit_register_cwasm().
 *
 * When it applies: only to a dynamically linked runtime that calls libc's
 * mprotect (upstream C WAMR, or the Zig runtime built with
 * -Dlink-libc=true). The runtime's default Linux build is static and makes
 * raw system calls, so no preload ever sees its mappings: there, use
 * `aotperf record` or `aotperf inject` (docs/formats-perf.md, "How the
 * runtime maps code").
 *
 * Never changes the runtime's behaviour: mprotect's result and errno are
 * the kernel's; the agent's own failures are silent unless AOTPERF_DEBUG
 * is set.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* the agent exports mprotect alone, not the writer's interface */
#define AOTJIT_API
#include "jitdump/jitdump.h"
#include "cwasm/walk.h"

#define EXPORT __attribute__((visibility("default")))
#define MAX_CORES 64

struct core {
	const char *path;
	uint8_t *bytes;		/* the whole .cwasm, what the writer parses */
	size_t len;
	const uint8_t *text;	/* its text section, what the runtime maps */
	uint32_t text_size;
};

static struct core cores[MAX_CORES];
static int ncores;
static int debug;

static void say(const char *path, const char *msg)
{
	if (debug)
		fprintf(stderr, "aotperf-preload: %s: %s\n", path, msg);
}

/* Its text section, through the writer's own .cwasm walker. */
static int find_text(struct core *c)
{
	struct cwasm_walk w;
	struct ap_err err = { 0 };

	if (cwasm_walk__init(&w, c->bytes, c->len, c->path, &err)) {
		if (debug)
			fprintf(stderr, "aotperf-preload: %s\n", err.msg);
		return -1;
	}
	c->text = w.text;
	c->text_size = w.text_size;
	return 0;
}

static int load_core(struct core *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	c->path = path;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) ||
	    !(c->bytes = malloc((size_t)n)) || fread(c->bytes, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(c->bytes);
		c->bytes = NULL;
		return -1;
	}
	fclose(f);
	c->len = (size_t)n;
	return find_text(c);
}

__attribute__((constructor)) static void preload_init(void)
{
	const char *env = getenv("AOTPERF_CWASM");
	char *list, *save = NULL, *path;

	debug = getenv("AOTPERF_DEBUG") != NULL;
	if (!env || !*env || !(list = strdup(env)))
		return;
	/* list is kept: cores[].path points into it for the process's life */
	for (path = strtok_r(list, ":", &save); path && ncores < MAX_CORES;
	     path = strtok_r(NULL, ":", &save)) {
		if (load_core(&cores[ncores], path))
			say(path, "not a readable .cwasm");
		else
			ncores++;
	}
}

static int matches(const struct core *c, const void *addr, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t rounded = ((size_t)c->text_size + page - 1) / page * page;

	return (len == c->text_size || len == rounded) && !memcmp(addr, c->text, c->text_size);
}

/* Registers after the kernel said yes; the caller sees only the kernel's answer. */
EXPORT int mprotect(void *addr, size_t len, int prot)
{
	long ret = syscall(SYS_mprotect, addr, len, prot);
	int saved = errno, err;

	if (ret || !(prot & PROT_EXEC) || !(prot & PROT_READ))
		return (int)ret;
	for (int i = 0; i < ncores; i++) {
		if (!matches(&cores[i], addr, len))
			continue;
		err = aotjit_register_cwasm(NULL, (uintptr_t)addr, cores[i].bytes, cores[i].len,
					    NULL, 0);
		if (err)
			say(cores[i].path, strerror(-err));
		break;
	}
	errno = saved;
	return 0;
}

__attribute__((destructor)) static void preload_fini(void)
{
	if (ncores)
		aotjit_close(NULL);
}
