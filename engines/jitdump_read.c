// SPDX-License-Identifier: MIT
/*
 * An engine's own jit-<pid>.dump (perf's jitdump format, the layout
 * jitdump/jitdump.c writes): header, then records u32 id, u32 size,
 * u64 timestamp. JIT_CODE_LOAD (0) gives pid, tid, vma, code address,
 * size, index, a NUL-terminated name and the code; JIT_CODE_MOVE (1)
 * moves an index's code; the rest (debug info, unwinding, close) is
 * skipped by size. A dump cut short ends at its last whole record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "../util/file.h"

#define JD_MAGIC	0x4A695444u
#define JD_MAGIC_SWAP	0x4454694Au
#define JD_HEADER_SIZE	40
#define JD_ARCH_TS	1ull
#define JD_RECORD_MAX	(256u << 20)

enum { JD_CODE_LOAD = 0, JD_CODE_MOVE = 1 };

struct jd_index {
	uint64_t index;
	uint32_t code;
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

static int push_load(struct eng_jit_loads *o, const struct eng_jit_load *l)
{
	if (o->n == o->cap) {
		uint32_t cap = o->cap ? o->cap * 2 : 256;
		struct eng_jit_load *v = realloc(o->v, cap * sizeof(*v));

		if (!v)
			return -1;
		o->v = v;
		o->cap = cap;
	}
	o->v[o->n++] = *l;
	return 0;
}

static int push_index(struct jd_index **v, uint32_t *n, uint32_t *cap, uint64_t index,
		      uint32_t code)
{
	if (*n == *cap) {
		uint32_t c = *cap ? *cap * 2 : 256;
		struct jd_index *nv = realloc(*v, c * sizeof(**v));

		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = (struct jd_index){ index, code };
	return 0;
}

struct jd_read {
	struct eng_profile *p;
	const char *path;
	struct eng_jit_loads *out;
	struct jd_index *idx;
	uint32_t nidx, cidx;
};

static int code_load(struct jd_read *r, const uint8_t *rec, uint32_t size, uint64_t ts,
		     struct ap_err *err)
{
	const uint8_t *name = rec + 56, *end = rec + size, *nul;
	uint64_t code_size;
	struct eng_jit_load l;
	int64_t c;

	/* no field before the size is known to hold it (fuzz regress/engines) */
	if (size < 57)
		return ap_errf(err, "%s: a code-load record of %u bytes is too short", r->path, size);
	code_size = rd64(rec + 40);
	nul = memchr(name, '\0', (size_t)(end - name));
	if (!nul || code_size > (uint64_t)(end - nul - 1))
		return ap_errf(err, "%s: a code-load record holds less than its name and "
			       "%llu code bytes", r->path, (unsigned long long)code_size);
	c = eng_profile__add_code(r->p, (const char *)name, r->path, r->out->e_machine,
				  code_size, eng_profile__wants_bytes(r->p, (const char *)name, 1) ?
				  nul + 1 : NULL, 1);
	if (c < 0)
		return ap_err_nomem(err);
	l = (struct eng_jit_load){ rd32(rec + 16), ts, rd64(rec + 32), code_size, (uint32_t)c };
	if (push_load(r->out, &l) || push_index(&r->idx, &r->nidx, &r->cidx, rd64(rec + 48),
						(uint32_t)c))
		return ap_err_nomem(err);
	return 0;
}

static int code_move(struct jd_read *r, const uint8_t *rec, uint32_t size, uint64_t ts,
		     struct ap_err *err)
{
	uint64_t index;
	struct eng_jit_load l;

	if (size < 64)
		return ap_errf(err, "%s: a code-move record of %u bytes is too short", r->path, size);
	index = rd64(rec + 56);
	for (uint32_t i = r->nidx; i-- > 0;) {
		if (r->idx[i].index != index)
			continue;
		l = (struct eng_jit_load){ rd32(rec + 16), ts, rd64(rec + 40), rd64(rec + 48),
					   r->idx[i].code };
		return push_load(r->out, &l) ? ap_err_nomem(err) : 0;
	}
	return 0; /* a move of code the dump never loaded: nothing to place */
}

static int read_records(struct jd_read *r, FILE *f, struct ap_err *err)
{
	uint8_t *rec = NULL;
	size_t cap = 0;
	int ret = 0;

	for (;;) {
		uint8_t h[16];
		uint32_t id, size;
		size_t got = fread(h, 1, sizeof(h), f);

		if (got < sizeof(h))
			break; /* the end, or a dump cut short */
		id = rd32(h);
		size = rd32(h + 4);
		if (size < 16 || size > JD_RECORD_MAX) {
			ret = ap_errf(err, "%s: a record of %u bytes (id %u)", r->path, size, id);
			break;
		}
		if (size > cap) {
			uint8_t *n = realloc(rec, size);

			if (!n) {
				ret = ap_err_nomem(err);
				break;
			}
			rec = n;
			cap = size;
		}
		memcpy(rec, h, sizeof(h));
		if (fread(rec + 16, 1, size - 16, f) < size - 16)
			break;
		if (id == JD_CODE_LOAD)
			ret = code_load(r, rec, size, rd64(h + 8), err);
		else if (id == JD_CODE_MOVE)
			ret = code_move(r, rec, size, rd64(h + 8), err);
		if (ret)
			break;
	}
	free(rec);
	return ret;
}

int eng_jitdump__read(struct eng_profile *p, const char *path, struct eng_jit_loads *out,
		      struct ap_err *err)
{
	struct jd_read r = { .p = p, .path = path, .out = out };
	uint8_t h[JD_HEADER_SIZE] = { 0 };	/* a short file leaves the rest zero */
	uint32_t hsize;
	struct ap_file af;
	FILE *f;
	int ret;

	/* util/file.h: a regular file only, never blocking on a FIFO */
	if (ap_file__open(&af, path, 0, err))
		return -1;
	f = fdopen(af.fd, "rb");
	if (!f) {
		ap_file__close(&af);
		return ap_errk(err, AP_ERR_IO, "%s: %s", path, strerror(errno));
	}
	if (fread(h, 1, sizeof(h), f) < sizeof(h) || rd32(h) != JD_MAGIC) {
		int swapped = rd32(h) == JD_MAGIC_SWAP;

		fclose(f);
		return ap_errf(err, "%s: %s", path, swapped ?
			       "a jitdump of the other byte order" : "not a jitdump (bad magic)");
	}
	hsize = rd32(h + 8);
	if (hsize < JD_HEADER_SIZE || hsize > 4096 ||
	    fseek(f, (long)hsize, SEEK_SET)) {
		fclose(f);
		return ap_errf(err, "%s: a jitdump header of %u bytes", path, hsize);
	}
	out->e_machine = (uint16_t)rd32(h + 12);
	out->arch_timestamps = (rd64(h + 32) & JD_ARCH_TS) != 0;
	ret = read_records(&r, f, err);
	free(r.idx);
	fclose(f);
	return ret;
}
