// SPDX-License-Identifier: MIT
/*
 * The runtime library driven as a runtime drives it, for
 * tests/e2e/static.sh: built for each architecture against that
 * architecture's libaotperf-jit.so (the aarch64 one runs under qemu).
 *
 *   jitdump_core DIR E_MACHINE --cwasm CORE.cwasm
 *       aotjit_register_cwasm: the core's text as mapped at 0x40000000,
 *       default names local_func_N (the call a runtime makes)
 *   jitdump_core DIR E_MACHINE --text TEXT SYMS
 *       aotjit_register_core: the raw text at 0x40000000, function
 *       offsets from SYMS ("index 0xoffset size name" lines, the fixtures'
 *       .syms), named wasm[0]::function[index] as Wasmtime names them, so
 *       that aotperf's engine reader (engines/jitdump_read.c) maps them
 *
 * Prints the dump's path; exit 1 with the library's error otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../jitdump/jitdump.h"

#define BASE 0x40000000u

static void *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *d = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (d = malloc((size_t)n)) && fread(d, 1, (size_t)n, f) != (size_t)n) {
		free(d);
		d = NULL;
	}
	if (d)
		*len = (size_t)n;
	fclose(f);
	return d;
}

/* SYMS lines in index order: offsets and Wasmtime names. */
static int register_text(struct aotjit *j, const void *text, size_t len, const char *syms)
{
	FILE *f = fopen(syms, "r");
	uint32_t *offs = NULL, n = 0, cap = 0;
	char **names = NULL, line[512];
	int rc = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		unsigned idx;
		unsigned long off;

		if (sscanf(line, "%u %lx", &idx, &off) != 2 || idx != n) {
			rc = -EINVAL;
			break;
		}
		if (n == cap) {
			uint32_t *no;
			char **nn;

			cap = cap ? 2 * cap : 1024;
			no = realloc(offs, cap * sizeof(*offs));
			if (no)
				offs = no;
			nn = realloc(names, cap * sizeof(*names));
			if (nn)
				names = nn;
			if (!no || !nn) {
				rc = -ENOMEM;
				break;
			}
		}
		offs[n] = (uint32_t)off;
		names[n] = malloc(40);
		if (!names[n]) {
			rc = -ENOMEM;
			break;
		}
		snprintf(names[n], 40, "wasm[0]::function[%u]", idx);
		n++;
	}
	fclose(f);
	if (!rc)
		rc = aotjit_register_core(j, BASE, text, len, offs, n,
					  (const char *const *)names, NULL);
	for (uint32_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(offs);
	return rc;
}

int main(int argc, char **argv)
{
	char msg[256], path[4096];
	struct aotjit *j;
	size_t len = 0;
	void *in;
	int err = 0, rc, cw = argc == 5 && !strcmp(argv[3], "--cwasm");

	if (!cw && !(argc == 6 && !strcmp(argv[3], "--text"))) {
		fprintf(stderr, "usage: jitdump_core DIR E_MACHINE (--cwasm CORE | --text TEXT SYMS)\n");
		return 2;
	}
	in = slurp(argv[4], &len);
	if (!in) {
		fprintf(stderr, "%s: cannot read\n", argv[4]);
		return 1;
	}
	if (cw && aotjit_check_cwasm(in, len, argv[4], msg, sizeof(msg))) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	j = aotjit_open(argv[1], (uint32_t)strtoul(argv[2], NULL, 0), &err);
	if (!j) {
		fprintf(stderr, "aotjit_open %s: %s\n", argv[1], strerror(-err));
		return 1;
	}
	snprintf(path, sizeof(path), "%s", aotjit_path(j));
	rc = cw ? aotjit_register_cwasm(j, BASE, in, len, NULL, 0) :
		  register_text(j, in, len, argv[5]);
	if (rc)
		fprintf(stderr, "%s: %s\n", argv[4], strerror(-rc));
	if (aotjit_close(j) && !rc)
		rc = -EIO;
	free(in);
	if (rc)
		return 1;
	printf("%s\n", path);
	return 0;
}
