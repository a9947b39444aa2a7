// SPDX-License-Identifier: MIT
/*
 * The .cwasm walker (walk.h), the container as docs/formats-cwasm.md
 * describes it, version by version.
 *
 * Input is untrusted: every read goes through a bounded cursor, counts are
 * checked against the bytes that are left, and size arithmetic is done in
 * 64 bits so it cannot wrap. A section the walker interprets must hold
 * exactly its entries: bytes after the last one mean a misread.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "walk.h"

#define BIT(t) ((uint32_t)1 << (t))

static int fail(struct ap_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ap_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->kind = AP_ERR_INPUT;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

const char *cwasm_section__name(uint32_t type)
{
	static const char *const names[CWASM_SEC_COUNT] = {
		"target_info", "init_data", "text", "function", "export", "data",
		"relocation", "name", "import", "memory", "global", "elem", "start",
		"type", "tag", "table",
	};

	return type < CWASM_SEC_COUNT ? names[type] : "unknown";
}

/* ---- a bounded cursor over one section's payload ---- */

struct cur {
	const uint8_t *p;
	size_t len, pos;
	size_t base;		/* file offset of p[0], for messages */
	const char *file;
	uint32_t sec;
	const char *item;	/* "export", "import", ... for messages */
	uint32_t idx;
	struct ap_err *err;
};

static void cur_init(struct cur *c, const struct cwasm_walk *w, uint32_t sec, size_t pos,
		     struct ap_err *err)
{
	memset(c, 0, sizeof(*c));
	c->p = w->sec[sec].p;
	c->len = w->sec[sec].size;
	c->pos = pos;
	c->base = w->sec[sec].off;
	c->file = w->file;
	c->sec = sec;
	c->err = err;
}

static size_t cur_left(const struct cur *c)
{
	return c->len - c->pos;
}

static int cur_bytes(struct cur *c, uint64_t n, const uint8_t **out, const char *what)
{
	if (n > cur_left(c)) {
		if (c->item)
			return fail(c->err, -EINVAL, "%s: section %u (%s) ends early at offset %zu: "
				    "%s %u %s needs %llu bytes, %zu left", c->file, c->sec,
				    cwasm_section__name(c->sec), c->base + c->pos, c->item, c->idx,
				    what, (unsigned long long)n, cur_left(c));
		return fail(c->err, -EINVAL, "%s: section %u (%s) ends early at offset %zu: "
			    "%s needs %llu bytes, %zu left", c->file, c->sec,
			    cwasm_section__name(c->sec), c->base + c->pos, what,
			    (unsigned long long)n, cur_left(c));
	}
	*out = c->p + c->pos;
	c->pos += (size_t)n;
	return 0;
}

static int cur_u8(struct cur *c, uint8_t *v, const char *what)
{
	const uint8_t *p = NULL;
	int ret = cur_bytes(c, 1, &p, what);

	if (!ret)
		*v = p[0];
	return ret;
}

static int cur_u32(struct cur *c, uint32_t *v, const char *what)
{
	const uint8_t *p = NULL;
	int ret = cur_bytes(c, 4, &p, what);

	if (!ret)
		*v = le32(p);
	return ret;
}

/* A byte the compiler writes as 0 or 1 only. */
static int cur_flag(struct cur *c, uint8_t *v, const char *what)
{
	int ret = cur_u8(c, v, what);

	if (ret || *v <= 1)
		return ret;
	return fail(c->err, -EINVAL, "%s: section %u (%s) %s %u: %s byte is %u, expected 0 or 1",
		    c->file, c->sec, cwasm_section__name(c->sec), c->item, c->idx, what, *v);
}

/* u32 length, then that many bytes. */
static int cur_str(struct cur *c, struct cwasm_str *s, const char *lenwhat, const char *what)
{
	int ret = cur_u32(c, &s->len, lenwhat);

	if (!ret)
		ret = cur_bytes(c, s->len, &s->p, what);
	return ret;
}

/* An entry count, refused unless that many entries of min_entry bytes fit. */
static int cur_count(struct cur *c, uint32_t *count, size_t min_entry)
{
	int ret = cur_u32(c, count, "its entry count");

	if (ret)
		return ret;
	if ((uint64_t)*count * min_entry > cur_left(c))
		return fail(c->err, -EINVAL, "%s: count %u in section %u (%s) overflows its %zu bytes",
			    c->file, *count, c->sec, cwasm_section__name(c->sec), c->len);
	return 0;
}

static int cur_end(struct cur *c)
{
	if (!cur_left(c))
		return 0;
	return fail(c->err, -EINVAL, "%s: section %u (%s) has %zu byte%s after its last entry",
		    c->file, c->sec, cwasm_section__name(c->sec), cur_left(c),
		    cur_left(c) == 1 ? "" : "s");
}

/* ---- entries ---- */

/* The highest import or export kind a version knows (version 6 had no tags). */
static uint8_t max_kind(const struct cwasm_walk *w)
{
	return w->version <= 6 ? CWASM_KIND_GLOBAL : CWASM_KIND_TAG;
}

static int read_import(struct cur *c, const struct cwasm_walk *w,
		       enum cwasm_import_layout layout, struct cwasm_import_entry *e)
{
	struct cwasm_import_type *t = &e->t;
	int ret;

	memset(e, 0, sizeof(*e));
	ret = cur_str(c, &e->module, "module name length", "module name");
	if (!ret)
		ret = cur_str(c, &e->field, "field name length", "field name");
	if (!ret)
		ret = cur_u8(c, &t->kind, "kind");
	if (ret)
		return ret;
	if (t->kind > max_kind(w))
		return fail(c->err, -EINVAL, "%s: section 8 (import) import %u has kind %u, not an "
			    "import kind of version %u (0 to %u)", c->file, c->idx, t->kind,
			    w->version, max_kind(w));
	if (layout == CWASM_IMPORTS_UNIFORM)
		return cur_u32(c, &t->type_idx, "type index");
	switch (t->kind) {
	case CWASM_KIND_FUNC:
	case CWASM_KIND_TAG:
		return cur_u32(c, &t->type_idx, "type index");
	case CWASM_KIND_TABLE:
		ret = cur_u8(c, &t->elem_type, "element type");
		if (!ret)
			ret = cur_u32(c, &t->min, "minimum");
		if (!ret)
			ret = cur_flag(c, &t->has_max, "has_max");
		if (!ret && t->has_max)
			ret = cur_u32(c, &t->max, "maximum");
		return ret;
	case CWASM_KIND_MEMORY:
		ret = cur_u32(c, &t->min, "minimum");
		if (!ret)
			ret = cur_flag(c, &t->has_max, "has_max");
		if (!ret && t->has_max)
			ret = cur_u32(c, &t->max, "maximum");
		if (!ret)
			ret = cur_flag(c, &t->is64, "is64");
		if (!ret)
			ret = cur_flag(c, &t->shared, "shared");
		return ret;
	default:	/* CWASM_KIND_GLOBAL */
		ret = cur_u8(c, &t->valtype, "value type");
		if (!ret)
			ret = cur_flag(c, &t->is_mutable, "mutable");
		return ret;
	}
}

static int read_export(struct cur *c, const struct cwasm_walk *w, struct cwasm_export_entry *e)
{
	int ret = cur_str(c, &e->name, "name length", "name");

	if (!ret)
		ret = cur_u8(c, &e->kind, "kind");
	if (!ret && e->kind > max_kind(w))
		return fail(c->err, -EINVAL, "%s: section 4 (export) export %u has kind %u, not an "
			    "export kind of version %u (0 to %u)", c->file, c->idx, e->kind,
			    w->version, max_kind(w));
	if (!ret)
		ret = cur_u32(c, &e->index, "index");
	return ret;
}

static int read_name(struct cur *c, struct cwasm_name_entry *e)
{
	int ret = cur_u32(c, &e->wasm_index, "function index");

	if (!ret)
		ret = cur_str(c, &e->name, "name length", "name");
	return ret;
}

static int read_type(struct cur *c, struct cwasm_type_entry *e)
{
	int ret = cur_str(c, &e->params, "parameter count", "parameters");

	if (!ret)
		ret = cur_str(c, &e->results, "result count", "results");
	return ret;
}

/* ---- whole sections ---- */

/* The smallest entry of each list section, for the count check. */
#define MIN_IMPORT (4 + 4 + 1 + 2)	/* names, kind, a global's two bytes */
#define MIN_EXPORT (4 + 1 + 4)
#define MIN_NAME (4 + 4)
#define MIN_TYPE (4 + 4)

struct import_scan {
	uint32_t count, read, funcs, others;
};

static int scan_imports(const struct cwasm_walk *w, enum cwasm_import_layout layout,
			struct import_scan *s, struct ap_err *err)
{
	struct cwasm_import_entry e;
	struct cur c;
	int ret;

	memset(s, 0, sizeof(*s));
	cur_init(&c, w, CWASM_SEC_IMPORT, 0, err);
	ret = cur_count(&c, &s->count, MIN_IMPORT);
	if (ret)
		return ret;
	c.item = "import";
	for (c.idx = 0; c.idx < s->count; c.idx++) {
		ret = read_import(&c, w, layout, &e);
		if (ret)
			return ret;
		s->read++;
		if (e.t.kind == CWASM_KIND_FUNC)
			s->funcs++;
		else
			s->others++;
	}
	return cur_end(&c);
}

/*
 * Version 6 writes a u32 after every kind, version 11 a payload by kind.
 * For the versions between, the layout of non-function imports is taken
 * from the bytes: the one layout that reads the section exactly
 * (docs/formats-cwasm.md, "Imports"). Function imports read the same in
 * both, and they alone shift the wasm function index space.
 */
static int check_imports(struct cwasm_walk *w, struct ap_err *err)
{
	struct import_scan u, k;
	struct ap_err eu = { 0 }, ek = { 0 };
	enum cwasm_import_layout layout;
	int ru, rk;

	if (!(w->seen & BIT(CWASM_SEC_IMPORT)))
		return 0;
	if (w->version <= 6) {
		layout = CWASM_IMPORTS_UNIFORM;
		ru = scan_imports(w, layout, &u, err);
		if (ru)
			return ru;
	} else if (w->version >= 11) {
		layout = CWASM_IMPORTS_BY_KIND;
		rk = scan_imports(w, layout, &u, err);
		if (rk)
			return rk;
	} else {
		ru = scan_imports(w, CWASM_IMPORTS_UNIFORM, &u, &eu);
		rk = scan_imports(w, CWASM_IMPORTS_BY_KIND, &k, &ek);
		if (!ru && !rk && u.others)
			return fail(err, -EINVAL, "%s: section 8 (import) of version %u reads both "
				    "in the version 6 and the version 11 import layout",
				    w->file, w->version);
		if (!rk) {
			layout = CWASM_IMPORTS_BY_KIND;
			u = k;
		} else if (!ru) {
			layout = CWASM_IMPORTS_UNIFORM;
		} else {
			if (err)
				*err = u.read > k.read ? eu : ek;
			return u.read > k.read ? ru : rk;
		}
	}
	w->import_layout = layout;
	w->nimports = u.count;
	w->import_func_count = u.funcs;
	return 0;
}

static int check_exports(struct cwasm_walk *w, struct ap_err *err)
{
	struct cwasm_export_entry e;
	struct cur c;
	int ret;

	if (!(w->seen & BIT(CWASM_SEC_EXPORT)))
		return 0;
	cur_init(&c, w, CWASM_SEC_EXPORT, 0, err);
	ret = cur_count(&c, &w->nexports, MIN_EXPORT);
	c.item = "export";
	for (c.idx = 0; !ret && c.idx < w->nexports; c.idx++)
		ret = read_export(&c, w, &e);
	return ret ? ret : cur_end(&c);
}

static int check_names(struct cwasm_walk *w, struct ap_err *err)
{
	struct cwasm_name_entry e;
	struct cur c;
	int ret;

	if (!(w->seen & BIT(CWASM_SEC_NAMES)))
		return 0;
	cur_init(&c, w, CWASM_SEC_NAMES, 0, err);
	ret = cur_count(&c, &w->nnames, MIN_NAME);
	c.item = "name";
	for (c.idx = 0; !ret && c.idx < w->nnames; c.idx++)
		ret = read_name(&c, &e);
	return ret ? ret : cur_end(&c);
}

static int check_types(struct cwasm_walk *w, struct ap_err *err)
{
	struct cwasm_type_entry e;
	struct cur c;
	int ret;

	if (!(w->seen & BIT(CWASM_SEC_TYPE)))
		return 0;
	cur_init(&c, w, CWASM_SEC_TYPE, 0, err);
	ret = cur_count(&c, &w->ntypes, MIN_TYPE);
	c.item = "type";
	for (c.idx = 0; !ret && c.idx < w->ntypes; c.idx++)
		ret = read_type(&c, &e);
	return ret ? ret : cur_end(&c);
}

static int check_text(struct cwasm_walk *w, struct ap_err *err)
{
	if (!(w->seen & BIT(CWASM_SEC_TEXT)))
		return fail(err, -EINVAL, "%s: no text section", w->file);
	if (!w->sec[CWASM_SEC_TEXT].size)
		return fail(err, -EINVAL, "%s: empty text section", w->file);
	w->text = w->sec[CWASM_SEC_TEXT].p;
	w->text_size = w->sec[CWASM_SEC_TEXT].size;
	return 0;
}

/* v6: count x u32 offset; v7 on: count x (u32 offset, u32 type_idx). */
static int check_functions(struct cwasm_walk *w, struct ap_err *err)
{
	const struct cwasm_span *s = &w->sec[CWASM_SEC_FUNCTION];
	uint32_t count, i, off, prev = 0;
	uint64_t need;

	if (!(w->seen & BIT(CWASM_SEC_FUNCTION)))
		return fail(err, -EINVAL, "%s: no function section", w->file);
	if (s->size < 4)
		return fail(err, -EINVAL, "%s: section 3 (function) is %u bytes, too short for "
			    "its count", w->file, s->size);
	count = le32(s->p);
	w->func_stride = w->version >= 7 ? 8 : 4;
	need = 4 + (uint64_t)count * w->func_stride;
	if (s->size != need)
		return fail(err, -EINVAL, "%s: section 3 (function) is %u bytes, but %u entries "
			    "take %llu in version %u (%s)", w->file, s->size, count,
			    (unsigned long long)need, w->version,
			    w->func_stride == 8 ? "u32 offset, u32 type index" : "u32 offsets");
	w->nfuncs = count;
	for (i = 0; i < count; i++) {
		off = cwasm_walk__func_offset(w, i);
		if (i && off == prev)
			return fail(err, -EINVAL, "%s: functions %u and %u both start at offset "
				    "0x%x: function offsets must be strictly ascending", w->file,
				    i - 1, i, off);
		if (i && off < prev)
			return fail(err, -EINVAL, "%s: function offsets out of order at %u (0x%x "
				    "after 0x%x)", w->file, i, off, prev);
		if (off >= w->text_size)
			return fail(err, -EINVAL, "%s: function %u offset 0x%x is past the text "
				    "(0x%x bytes)", w->file, i, off, w->text_size);
		prev = off;
	}
	return 0;
}

static int check_header(struct cwasm_walk *w, struct ap_err *err)
{
	if (!w->len)
		return fail(err, -ENOEXEC, "%s: not a .cwasm (empty file)", w->file);
	/* the two files a command takes, given the other way round */
	if (w->len >= 8 && !memcmp(w->buf, "PERFILE2", 8))
		return fail(err, -ENOEXEC, "%s: a perf recording, not a .cwasm (swapped -i and "
			    "--cwasm?)", w->file);
	if (w->len < 4 || le32(w->buf) != CWASM_MAGIC)
		return fail(err, -ENOEXEC, "%s: not a .cwasm (no \\0aot magic)", w->file);
	if (w->len < 8)
		return fail(err, -ENOEXEC, "%s: truncated .cwasm header (%zu bytes, a header "
			    "needs 8)", w->file, w->len);
	w->version = le32(w->buf + 4);
	if (w->version < CWASM_VERSION_MIN)
		return fail(err, -ENOTSUP, "%s: version %u is upstream C WAMR's .aot format "
			    "(the same magic), not a .cwasm (versions %d to %d)", w->file,
			    w->version, CWASM_VERSION_MIN, CWASM_VERSION_MAX);
	w->version_known = w->version <= CWASM_VERSION_MAX;
	return 0;
}

/* Sections until EOF: record each known one, refuse repeats and overruns. */
static int walk_sections(struct cwasm_walk *w, struct ap_err *err)
{
	size_t pos = 8, len = w->len;

	while (pos < len) {
		uint32_t type, size;

		if (len - pos < 8)
			return fail(err, -EINVAL, "%s: truncated section header at offset %zu (%zu "
				    "bytes left, a header needs 8)", w->file, pos, len - pos);
		type = le32(w->buf + pos);
		size = le32(w->buf + pos + 4);
		if (size > len - pos - 8)
			return fail(err, -EINVAL, "%s: section %u (%s) at offset %zu claims %u "
				    "bytes, only %zu left", w->file, type,
				    cwasm_section__name(type), pos, size, len - pos - 8);
		if (type == CWASM_SEC_INIT_DATA)
			return fail(err, -ENOTSUP, "%s: section 1 (init_data) at offset %zu is "
				    "upstream C WAMR's .aot layout, not a .cwasm", w->file, pos);
		if (type < CWASM_SEC_COUNT) {
			if (w->seen & BIT(type))
				return fail(err, -EINVAL, "%s: duplicate %s section (type %u) at "
					    "offset %zu", w->file, cwasm_section__name(type),
					    type, pos);
			w->seen |= BIT(type);
			w->sec[type].p = w->buf + pos + 8;
			w->sec[type].size = size;
			w->sec[type].off = pos + 8;
		}
		pos += 8 + (size_t)size;
	}
	return 0;
}

int cwasm_walk__init(struct cwasm_walk *w, const void *buf, size_t len, const char *file,
		     struct ap_err *err)
{
	const struct cwasm_span *ti = &w->sec[CWASM_SEC_TARGET_INFO];
	int ret;

	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->len = len;
	w->file = file ? file : "<memory>";
	if (!buf && len)
		return fail(err, -EINVAL, "%s: no buffer", w->file);
	ret = check_header(w, err);
	if (!ret)
		ret = walk_sections(w, err);
	if (ret)
		return ret;
	if (w->seen & BIT(CWASM_SEC_TARGET_INFO)) {
		if (cwasm_target__parse(ti->p, ti->size, w->file, &w->ti, &w->target, err))
			return -EINVAL;
		w->has_target_info = 1;
	}
	ret = check_text(w, err);
	if (!ret)
		ret = check_functions(w, err);
	if (!ret)
		ret = check_imports(w, err);
	if (!ret)
		ret = check_exports(w, err);
	if (!ret)
		ret = check_types(w, err);
	if (!ret)
		ret = check_names(w, err);
	return ret;
}

/* ---- reading what was checked ---- */

uint32_t cwasm_walk__func_offset(const struct cwasm_walk *w, uint32_t i)
{
	return le32(w->sec[CWASM_SEC_FUNCTION].p + 4 + (size_t)i * w->func_stride);
}

uint32_t cwasm_walk__func_type(const struct cwasm_walk *w, uint32_t i)
{
	if (w->func_stride != 8)
		return UINT32_MAX;
	return le32(w->sec[CWASM_SEC_FUNCTION].p + 8 + (size_t)i * 8);
}

uint32_t cwasm_walk__func_size(const struct cwasm_walk *w, uint32_t i)
{
	uint32_t end = i + 1 < w->nfuncs ? cwasm_walk__func_offset(w, i + 1) : w->text_size;

	return end - cwasm_walk__func_offset(w, i);
}

void cwasm_walk__iter(const struct cwasm_walk *w, uint32_t sec, struct cwasm_iter *it)
{
	memset(it, 0, sizeof(*it));
	it->w = w;
	it->sec = sec;
	it->pos = 4;
	if (sec < CWASM_SEC_COUNT && (w->seen & BIT(sec)) && w->sec[sec].size >= 4)
		it->left = le32(w->sec[sec].p);
}

/* One entry of a checked section; a failure (impossible after init) ends it. */
static int iter_step(struct cwasm_iter *it, uint32_t sec, void *e)
{
	const struct cwasm_walk *w = it->w;
	struct cur c;
	int ret;

	if (!it->left || it->sec != sec)
		return 0;
	cur_init(&c, w, sec, it->pos, NULL);
	switch (sec) {
	case CWASM_SEC_IMPORT:
		ret = read_import(&c, w, w->import_layout, e);
		break;
	case CWASM_SEC_EXPORT:
		ret = read_export(&c, w, e);
		break;
	case CWASM_SEC_NAMES:
		ret = read_name(&c, e);
		break;
	default:
		ret = read_type(&c, e);
		break;
	}
	if (ret) {
		it->left = 0;
		return 0;
	}
	it->pos = c.pos;
	it->left--;
	return 1;
}

int cwasm_iter__import(struct cwasm_iter *it, struct cwasm_import_entry *e)
{
	return iter_step(it, CWASM_SEC_IMPORT, e);
}

int cwasm_iter__export(struct cwasm_iter *it, struct cwasm_export_entry *e)
{
	return iter_step(it, CWASM_SEC_EXPORT, e);
}

int cwasm_iter__name(struct cwasm_iter *it, struct cwasm_name_entry *e)
{
	return iter_step(it, CWASM_SEC_NAMES, e);
}

int cwasm_iter__type(struct cwasm_iter *it, struct cwasm_type_entry *e)
{
	return iter_step(it, CWASM_SEC_TYPE, e);
}

/* names[n] for wasm function index widx when that is a local function not named yet. */
static int name_local(const struct cwasm_walk *w, struct cwasm_str *names, uint32_t widx,
		      const struct cwasm_str *s)
{
	uint32_t n;

	if (!s->len || widx < w->import_func_count)
		return 0;
	n = widx - w->import_func_count;
	if (n >= w->nfuncs || names[n].len)
		return 0;
	names[n] = *s;
	return 1;
}

uint32_t cwasm_walk__func_names(const struct cwasm_walk *w, struct cwasm_str *names)
{
	struct cwasm_export_entry ex;
	struct cwasm_name_entry nm;
	struct cwasm_iter it;
	uint32_t named = 0;

	if (w->nfuncs)
		memset(names, 0, (size_t)w->nfuncs * sizeof(*names));
	cwasm_walk__iter(w, CWASM_SEC_NAMES, &it);
	while (cwasm_iter__name(&it, &nm))
		named += (uint32_t)name_local(w, names, nm.wasm_index, &nm.name);
	cwasm_walk__iter(w, CWASM_SEC_EXPORT, &it);
	while (cwasm_iter__export(&it, &ex))
		if (ex.kind == CWASM_KIND_FUNC)
			named += (uint32_t)name_local(w, names, ex.index, &ex.name);
	return named;
}
