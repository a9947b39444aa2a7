// SPDX-License-Identifier: MIT
/*
 * An instruction as people read it in a listing: a direct branch into its
 * own function names the target by its offset ("jbe +0x4c"), as the
 * offset column does, instead of the address of one run's mapping.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "classify.h"

/* a direct branch or call: x86 j*, call; aarch64 b, b.cond, bl, cbz, cbnz, tbz, tbnz */
static int is_branch(const char *t, size_t mlen)
{
	static const char *const a64[] = { "b", "bl", "cbz", "cbnz", "tbz", "tbnz" };

	if (t[0] == 'j' || (mlen == 4 && !strncmp(t, "call", 4)) || !strncmp(t, "b.", 2))
		return 1;
	for (size_t i = 0; i < sizeof(a64) / sizeof(a64[0]); i++)
		if (strlen(a64[i]) == mlen && !strncmp(t, a64[i], mlen))
			return 1;
	return 0;
}

const char *cls__insn_text(const struct cls_func *f, uint32_t i, char *buf, size_t len)
{
	const struct cls_insn *in = &f->insns[i];
	const char *t = in->text, *last = strrchr(t, ' ');
	uint64_t start = f->insns[0].addr - f->insns[0].offset, end, target;
	const char *hex;
	char *stop;

	if (!last || !f->ninsns)
		return t;
	hex = last + 1 + (last[1] == '#');
	if (strncmp(hex, "0x", 2) || !is_branch(t, strcspn(t, " ")))
		return t;
	target = strtoull(hex + 2, &stop, 16);
	end = f->insns[f->ninsns - 1].addr + f->insns[f->ninsns - 1].size;
	if (*stop || stop == hex + 2 || target < start || target >= end)
		return t;
	snprintf(buf, len, "%.*s+0x%" PRIx64, (int)(hex - t) - (last[1] == '#'), t, target - start);
	return buf;
}
