// SPDX-License-Identifier: MIT
/*
 * Writer for .cwasm files, used to make fixtures and test inputs: each
 * version's sections in the order and layout the compiler writes them
 * (docs/formats-cwasm.md). It checks only what it needs to serialize:
 * tests use it to build files the reader must reject (offsets out of
 * order, past the text, inconsistent target info, ...).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cwasm.h"

struct wbuf {
	uint8_t *p;
	size_t len, cap;
	int oom;
};

static void wb_reserve(struct wbuf *w, size_t n)
{
	size_t cap;
	uint8_t *np;

	if (w->oom)
		return;
	if (n > SIZE_MAX / 2 - w->len) {
		w->oom = 1;
		return;
	}
	if (w->len + n <= w->cap)
		return;
	cap = w->cap ? w->cap : 256;
	while (cap < w->len + n)
		cap *= 2;
	np = realloc(w->p, cap);
	if (!np) {
		w->oom = 1;
		return;
	}
	w->p = np;
	w->cap = cap;
}

static void wb_bytes(struct wbuf *w, const void *p, size_t n)
{
	wb_reserve(w, n);
	if (w->oom || !n)
		return;
	memcpy(w->p + w->len, p, n);
	w->len += n;
}

static void wb_u8(struct wbuf *w, uint8_t v)
{
	wb_bytes(w, &v, 1);
}

static void wb_u16(struct wbuf *w, uint16_t v)
{
	uint8_t b[2] = { (uint8_t)v, (uint8_t)(v >> 8) };

	wb_bytes(w, b, 2);
}

static void put_le32(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
	b[2] = (uint8_t)(v >> 16);
	b[3] = (uint8_t)(v >> 24);
}

static void wb_u32(struct wbuf *w, uint32_t v)
{
	uint8_t b[4];

	put_le32(b, v);
	wb_bytes(w, b, 4);
}

static void wb_u64(struct wbuf *w, uint64_t v)
{
	wb_u32(w, (uint32_t)v);
	wb_u32(w, (uint32_t)(v >> 32));
}

/* u32 length then the bytes; a string longer than 4 GiB cannot be encoded. */
static void wb_str(struct wbuf *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	if (n > UINT32_MAX) {
		w->oom = 1;
		return;
	}
	wb_u32(w, (uint32_t)n);
	wb_bytes(w, s, n);
}

/* Start a section; returns the offset of its header for sec_end(). */
static size_t sec_begin(struct wbuf *w, uint32_t type)
{
	size_t at = w->len;

	wb_u32(w, type);
	wb_u32(w, 0);
	return at;
}

static int sec_end(struct wbuf *w, size_t at)
{
	size_t size;

	if (w->oom)
		return -1;
	size = w->len - at - 8;
	if (size > UINT32_MAX)
		return -1;
	put_le32(w->p + at + 4, (uint32_t)size);
	return 0;
}

static int write_target_info(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_TARGET_INFO);
	const struct cwasm_target_info *ti = &s->ti;

	wb_u16(w, ti->bin_type);
	wb_u16(w, ti->abi_type);
	wb_u16(w, ti->e_type);
	wb_u16(w, ti->e_machine);
	wb_u32(w, ti->e_flags);
	wb_u32(w, ti->reserved);
	wb_bytes(w, ti->arch, sizeof(ti->arch));
	wb_u64(w, ti->features);
	return sec_end(w, at);
}

static int write_types(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_TYPE);
	uint32_t i;

	wb_u32(w, s->ntypes);
	for (i = 0; i < s->ntypes; i++) {
		const struct cwasm_type *t = &s->types[i];

		wb_u32(w, t->nparams);
		wb_bytes(w, t->params, t->nparams);
		wb_u32(w, t->nresults);
		wb_bytes(w, t->results, t->nresults);
	}
	return sec_end(w, at);
}

/* The optional maximum of a table or memory: u8 has_max, [u32 max] (flags as given). */
static void wb_max(struct wbuf *w, const struct cwasm_import_type *t)
{
	wb_u8(w, t->has_max);
	if (t->has_max)
		wb_u32(w, t->max);
}

/* Version 6 (and 7): a u32 after every kind; from version 8 on, a payload by kind. */
static int write_imports(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_IMPORT);
	uint32_t i;

	wb_u32(w, s->nimports);
	for (i = 0; i < s->nimports; i++) {
		static const struct cwasm_import_type none;
		const struct cwasm_import_spec *im = &s->imports[i];
		const struct cwasm_import_type *t = s->import_types ? &s->import_types[i] : &none;

		wb_str(w, im->module);
		wb_str(w, im->field);
		wb_u8(w, im->kind);
		if (s->version <= 7) {
			wb_u32(w, im->type_idx);
			continue;
		}
		switch (im->kind) {
		case CWASM_KIND_TABLE:
			wb_u8(w, t->elem_type);
			wb_u32(w, t->min);
			wb_max(w, t);
			break;
		case CWASM_KIND_MEMORY:
			wb_u32(w, t->min);
			wb_max(w, t);
			wb_u8(w, t->is64);
			wb_u8(w, t->shared);
			break;
		case CWASM_KIND_GLOBAL:
			wb_u8(w, t->valtype);
			wb_u8(w, t->is_mutable);
			break;
		default:	/* function, tag */
			wb_u32(w, im->type_idx);
			break;
		}
	}
	return sec_end(w, at);
}

static int write_raw(struct wbuf *w, const struct cwasm_raw_section *r)
{
	size_t at = sec_begin(w, r->type);

	wb_bytes(w, r->data, r->size);
	return sec_end(w, at);
}

/* Raw sections that go before the imports (data, relocation) or after. */
static int write_raws(struct wbuf *w, const struct cwasm_spec *s, int before_imports)
{
	int ret = 0;
	uint32_t i;

	for (i = 0; i < s->nraw; i++) {
		int before = s->raw[i].type == CWASM_SEC_DATA || s->raw[i].type == CWASM_SEC_RELOCATION;

		if (before == before_imports)
			ret |= write_raw(w, &s->raw[i]);
	}
	return ret;
}

static int write_text(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_TEXT);

	wb_bytes(w, s->text, s->text_size);
	return sec_end(w, at);
}

static int write_functions(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_FUNCTION);
	uint32_t i;

	wb_u32(w, s->nfuncs);
	for (i = 0; i < s->nfuncs; i++) {
		wb_u32(w, s->offsets[i]);
		if (s->version >= 7)
			wb_u32(w, s->type_idx ? s->type_idx[i] : 0);
	}
	return sec_end(w, at);
}

static int write_exports(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_EXPORT);
	uint32_t i;

	wb_u32(w, s->nexports);
	for (i = 0; i < s->nexports; i++) {
		wb_str(w, s->exports[i].name);
		wb_u8(w, s->exports[i].kind);
		wb_u32(w, s->exports[i].index);
	}
	return sec_end(w, at);
}

static int write_names(struct wbuf *w, const struct cwasm_spec *s)
{
	size_t at = sec_begin(w, CWASM_SEC_NAMES);
	uint32_t i;

	wb_u32(w, s->nnames);
	for (i = 0; i < s->nnames; i++) {
		wb_u32(w, s->names[i].wasm_index);
		wb_str(w, s->names[i].name);
	}
	return sec_end(w, at);
}

static int check_spec(const struct cwasm_spec *s, struct ap_err *err)
{
	uint32_t i;

	if ((s->text_size && !s->text) || (s->nfuncs && !s->offsets) ||
	    (s->ntypes && !s->types) || (s->nimports && !s->imports) ||
	    (s->nexports && !s->exports) || (s->nnames && !s->names) ||
	    (s->nraw && !s->raw))
		return ap_errf(err, "cwasm writer: a spec count is set but its array is NULL");
	for (i = 0; i < s->ntypes; i++)
		if ((s->types[i].nparams && !s->types[i].params) ||
		    (s->types[i].nresults && !s->types[i].results))
			return ap_errf(err, "cwasm writer: type %u has a count but no array", i);
	for (i = 0; i < s->nraw; i++)
		if (s->raw[i].size && !s->raw[i].data)
			return ap_errf(err, "cwasm writer: raw section %u has a size but no data", i);
	return 0;
}

int cwasm__build(const struct cwasm_spec *spec, uint8_t **buf, size_t *len,
		 struct ap_err *err)
{
	struct wbuf w = { 0 };
	int ret = 0;

	*buf = NULL;
	*len = 0;
	if (check_spec(spec, err))
		return -1;
	wb_u32(&w, CWASM_MAGIC);
	wb_u32(&w, spec->version);
	if (!spec->no_target_info)
		ret |= write_target_info(&w, spec);
	ret |= write_text(&w, spec);
	if (spec->version >= 7 && spec->ntypes)
		ret |= write_types(&w, spec);
	ret |= write_functions(&w, spec);
	ret |= write_exports(&w, spec);
	ret |= write_raws(&w, spec, 1);
	if (spec->nimports)
		ret |= write_imports(&w, spec);
	ret |= write_raws(&w, spec, 0);
	if (spec->version >= 7 && spec->nnames)
		ret |= write_names(&w, spec);
	if (ret || w.oom) {
		free(w.p);
		return ap_errf(err, "cwasm writer: out of memory or a section over 4 GiB");
	}
	*buf = w.p;
	*len = w.len;
	return 0;
}

static int write_fd(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Create a fresh temp file next to path; O_EXCL|O_NOFOLLOW so nothing pre-placed is reused. */
static int open_temp(const char *path, char *tmp, size_t tmplen)
{
	unsigned int i;
	int fd;

	for (i = 0; i < 100; i++) {
		if ((size_t)snprintf(tmp, tmplen, "%s.tmp.%ld.%u", path, (long)getpid(), i) >= tmplen) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int cwasm__write(const char *path, const struct cwasm_spec *spec, struct ap_err *err)
{
	char tmp[4096];
	uint8_t *buf;
	size_t len;
	int fd, e;

	if (cwasm__build(spec, &buf, &len, err))
		return -1;
	fd = open_temp(path, tmp, sizeof(tmp));
	if (fd < 0) {
		e = errno;
		free(buf);
		return ap_errf(err, "%s: cannot create a temporary file: %s", path, strerror(e));
	}
	if (write_fd(fd, buf, len)) {
		e = errno;
		close(fd);
		goto fail;
	}
	if (close(fd)) {
		e = errno;
		goto fail;
	}
	if (rename(tmp, path)) {
		e = errno;
		goto fail;
	}
	free(buf);
	return 0;
fail:
	unlink(tmp);
	free(buf);
	return ap_errf(err, "%s: %s", path, strerror(e));
}
