// SPDX-License-Identifier: MIT
/* The recording's kernel against the running one (kernel_id.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernel_id.h"
#include "../util/file.h"

#define KID_MAX 20		/* SHA-1: the longest build id perf keeps */
#define KID_NOTES_MAX (1u << 16)
#define NT_GNU_BUILD_ID_TYPE 3

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

size_t kernel_id__from_notes(const void *buf, size_t len, uint8_t *id, size_t cap)
{
	const uint8_t *p = buf;

	/* Elf64_Nhdr and Elf32_Nhdr alike: namesz, descsz, type; name and desc 4-aligned */
	for (size_t at = 0; len - at >= 12;) {
		uint32_t h[3];
		size_t name, desc;

		memcpy(h, p + at, sizeof(h));
		at += sizeof(h);
		name = pad4(h[0]);
		desc = pad4(h[1]);
		if (name > len - at || desc > len - at - name)
			return 0;
		if (h[2] == NT_GNU_BUILD_ID_TYPE && h[0] == 4 && !memcmp(p + at, "GNU", 4) &&
		    h[1] && h[1] <= cap) {
			memcpy(id, p + at + name, h[1]);
			return h[1];
		}
		at += name + desc;
	}
	return 0;
}

static void hex(char *out, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = 0;
}

int kernel_id__same(struct perfdata *pd, const char *notes, char *why, size_t n)
{
	uint8_t rec[KID_MAX], run[KID_MAX];
	char a[2 * KID_MAX + 1], b[2 * KID_MAX + 1];
	size_t nrec = perfdata__kernel_build_id(pd, rec, sizeof(rec)), nrun = 0, len;
	struct ap_err err;
	char *buf;

	if (!ap_file__read_all(notes, 0, KID_NOTES_MAX, &buf, &len, NULL, &err)) {
		nrun = kernel_id__from_notes(buf, len, run, sizeof(run));
		free(buf);
	}
	if (!nrec) {
		snprintf(why, n, "the recording holds no kernel build id (perf record -B?)");
		return 0;
	}
	if (!nrun) {
		snprintf(why, n, "no build id of the running kernel (%s)", notes);
		return 0;
	}
	if (nrec == nrun && !memcmp(rec, run, nrun))
		return 1;
	hex(a, rec, nrec);
	hex(b, run, nrun);
	snprintf(why, n, "recorded on another kernel (build id %s, running %s)", a, b);
	return 0;
}
