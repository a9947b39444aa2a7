// SPDX-License-Identifier: MIT
/*
 * Reader for the WAMR (Zig runtime) .cwasm container, FORMATS.md section 1.
 *
 * Input is untrusted: every read goes through a bounded cursor, counts are
 * checked against the bytes that are left before anything is allocated, and
 * size arithmetic is done in 64 bits so it cannot wrap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cwasm.h"
#include "../util/sha256.h"

#define CWASM_VERSION_MIN_KNOWN 6
#define CWASM_VERSION_MAX_KNOWN 11
#define CWASM_NAME_MAX 256
/* No real .cwasm comes near this; it stops `cwasm__read /dev/zero` early. */
#define CWASM_FILE_MAX ((uint64_t)4 << 30)

static const char *sec_name(uint32_t type)
{
	switch (type) {
	case CWASM_SEC_TARGET_INFO: return "target_info";
	case CWASM_SEC_INIT_DATA: return "init_data";
	case CWASM_SEC_TEXT: return "text";
	case CWASM_SEC_FUNCTION: return "function";
	case CWASM_SEC_EXPORT: return "export";
	case CWASM_SEC_DATA: return "data";
	case 6: return "relocation";
	case CWASM_SEC_NAMES: return "names";
	case CWASM_SEC_IMPORT: return "import";
	case 9: return "memory";
	case 10: return "global";
	case 11: return "elem";
	case 12: return "start";
	case CWASM_SEC_TYPE: return "type";
	case 14: return "tag";
	case 15: return "table";
	default: return "unknown";
	}
}

/* A bounded view of one section's payload. */
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

static void cur_init(struct cur *c, const uint8_t *p, size_t len, size_t base,
		     const char *file, uint32_t sec, struct ap_err *err)
{
	memset(c, 0, sizeof(*c));
	c->p = p;
	c->len = len;
	c->base = base;
	c->file = file;
	c->sec = sec;
	c->err = err;
}

static size_t cur_left(const struct cur *c)
{
	return c->len - c->pos;
}

static int cur_need(struct cur *c, uint64_t n, const char *what)
{
	if (n <= cur_left(c))
		return 0;
	if (c->item)
		return ap_errf(c->err, "%s: section %u (%s) ends early at offset %zu: %s %u %s needs %llu bytes, %zu left",
			       c->file, c->sec, sec_name(c->sec), c->base + c->pos,
			       c->item, c->idx, what, (unsigned long long)n, cur_left(c));
	return ap_errf(c->err, "%s: section %u (%s) ends early at offset %zu: %s needs %llu bytes, %zu left",
		       c->file, c->sec, sec_name(c->sec), c->base + c->pos, what,
		       (unsigned long long)n, cur_left(c));
}

static int cur_bytes(struct cur *c, uint64_t n, const uint8_t **out, const char *what)
{
	if (cur_need(c, n, what))
		return -1;
	*out = c->p + c->pos;
	c->pos += (size_t)n;
	return 0;
}

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int cur_u8(struct cur *c, uint8_t *v, const char *what)
{
	const uint8_t *p;

	if (cur_bytes(c, 1, &p, what))
		return -1;
	*v = p[0];
	return 0;
}

static int cur_u32(struct cur *c, uint32_t *v, const char *what)
{
	const uint8_t *p;

	if (cur_bytes(c, 4, &p, what))
		return -1;
	*v = get_le32(p);
	return 0;
}

/* Read an entry count and refuse it unless count entries of at least min_entry bytes fit. */
static int cur_count(struct cur *c, uint32_t *count, size_t min_entry)
{
	if (cur_u32(c, count, "count"))
		return -1;
	if ((uint64_t)*count * min_entry > cur_left(c))
		return ap_errf(c->err, "%s: count %u in section %u (%s) overflows its %zu bytes",
			       c->file, *count, c->sec, sec_name(c->sec), c->len);
	return 0;
}

/* Length of the valid UTF-8 sequence at p, or 0 if it is not one (RFC 3629). */
static size_t utf8_seq(const uint8_t *p, size_t n)
{
	uint8_t b = p[0], lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (b >= 0xc2 && b <= 0xdf)
		len = 2;
	else if (b >= 0xe0 && b <= 0xef)
		len = 3;
	else if (b >= 0xf0 && b <= 0xf4)
		len = 4;
	else
		return 0;
	if (b == 0xe0)
		lo = 0xa0;
	else if (b == 0xed)
		hi = 0x9f;	/* no UTF-16 surrogates */
	else if (b == 0xf0)
		lo = 0x90;
	else if (b == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

/*
 * Copy a wasm name so it can go on a perf map line or into a jitdump or
 * JSON string: control bytes (newlines included), DEL, C1 controls and
 * invalid UTF-8 become '_', and it is cut at CWASM_NAME_MAX bytes on a
 * character boundary. out needs min(n, CWASM_NAME_MAX) + 1 bytes.
 */
static size_t name_sanitize(const uint8_t *in, size_t n, char *out)
{
	size_t i = 0, o = 0, sl;

	while (i < n && o < CWASM_NAME_MAX) {
		uint8_t b = in[i];

		if (b < 0x80) {
			out[o++] = (b < 0x20 || b == 0x7f) ? '_' : (char)b;
			i++;
			continue;
		}
		sl = utf8_seq(in + i, n - i);
		if (!sl || (b == 0xc2 && in[i + 1] < 0xa0)) {
			out[o++] = '_';
			i += sl ? sl : 1;
			continue;
		}
		if (o + sl > CWASM_NAME_MAX)
			break;
		memcpy(out + o, in + i, sl);
		o += sl;
		i += sl;
	}
	out[o] = '\0';
	return o;
}

static char *name_dup(const uint8_t *in, size_t n)
{
	size_t cap = n < CWASM_NAME_MAX ? n : CWASM_NAME_MAX;
	char *s = malloc(cap + 1);

	if (s)
		name_sanitize(in, n, s);
	return s;
}

/* Parse state: sections we can only interpret once the whole file is walked. */
struct parse {
	struct cwasm_module *m;
	const char *file;
	struct ap_err *err;
	const uint8_t *text;
	size_t text_len;
	int have_text;
	struct cur funcs;
	int have_funcs;
	struct cur names;
	int have_names;
	uint32_t seen;		/* bitmask of section types met, for duplicates */
};

static int oom(const struct parse *ps)
{
	return ap_errf(ps->err, "%s: out of memory", ps->file);
}

static int parse_target_info(struct parse *ps, struct cur *c)
{
	struct cwasm_module *m = ps->m;
	const uint8_t *p;
	size_t len = c->len;

	if (cur_bytes(c, len, &p, "target info"))
		return -1;
	if (cwasm_target__parse(p, len, ps->file, &m->ti, &m->target, ps->err))
		return -1;
	m->has_target_info = 1;
	return 0;
}

static int parse_exports(struct parse *ps, struct cur *c)
{
	struct cwasm_module *m = ps->m;
	uint32_t count, i, name_len;
	const uint8_t *name;

	/* name_len, kind, index */
	if (cur_count(c, &count, 9))
		return -1;
	if (!count)
		return 0;
	m->exports = calloc(count, sizeof(*m->exports));
	if (!m->exports)
		return oom(ps);
	c->item = "export";
	for (i = 0; i < count; i++) {
		struct cwasm_export *e = &m->exports[i];

		c->idx = i;
		if (cur_u32(c, &name_len, "name length") ||
		    cur_bytes(c, name_len, &name, "name"))
			return -1;
		e->name = name_dup(name, name_len);
		m->nexports = i + 1;
		if (!e->name)
			return oom(ps);
		if (cur_u8(c, &e->kind, "kind") || cur_u32(c, &e->index, "index"))
			return -1;
	}
	return 0;
}

static int parse_imports(struct parse *ps, struct cur *c)
{
	struct cwasm_module *m = ps->m;
	uint32_t count, i, len, type_idx;
	const uint8_t *s;
	uint8_t kind;

	/* module length, field length, kind */
	if (cur_count(c, &count, 9))
		return -1;
	c->item = "import";
	for (i = 0; i < count; i++) {
		c->idx = i;
		if (cur_u32(c, &len, "module length") || cur_bytes(c, len, &s, "module name") ||
		    cur_u32(c, &len, "field length") || cur_bytes(c, len, &s, "field name") ||
		    cur_u8(c, &kind, "kind"))
			return -1;
		/*
		 * Only function imports have a documented payload. Guessing the
		 * size of the others would silently shift wasm indices, so stop
		 * here: local_func numbering does not depend on imports, and the
		 * flag tells the CLI to warn that wasm indices are a lower bound.
		 */
		if (kind != 0) {
			m->imports_partial = 1;
			m->nimports = i;
			return 0;
		}
		if (cur_u32(c, &type_idx, "type index"))
			return -1;
		m->import_func_count++;
	}
	m->nimports = count;
	return 0;
}

static int parse_types(struct parse *ps, struct cur *c)
{
	struct cwasm_module *m = ps->m;
	uint32_t count, i;
	const uint8_t *p;

	/* nparams, nresults */
	if (cur_count(c, &count, 8))
		return -1;
	if (!count)
		return 0;
	m->types = calloc(count, sizeof(*m->types));
	if (!m->types)
		return oom(ps);
	m->ntypes = count;
	c->item = "type";
	for (i = 0; i < count; i++) {
		struct cwasm_type *t = &m->types[i];

		c->idx = i;
		if (cur_u32(c, &t->nparams, "parameter count") ||
		    cur_bytes(c, t->nparams, &p, "parameters"))
			return -1;
		if (t->nparams) {
			t->params = malloc(t->nparams);
			if (!t->params)
				return oom(ps);
			memcpy(t->params, p, t->nparams);
		}
		if (cur_u32(c, &t->nresults, "result count") ||
		    cur_bytes(c, t->nresults, &p, "results"))
			return -1;
		if (t->nresults) {
			t->results = malloc(t->nresults);
			if (!t->results)
				return oom(ps);
			memcpy(t->results, p, t->nresults);
		}
	}
	return 0;
}

#define SEC_INTERPRETED ((1u << CWASM_SEC_TARGET_INFO) | (1u << CWASM_SEC_TEXT) | \
			 (1u << CWASM_SEC_FUNCTION) | (1u << CWASM_SEC_EXPORT) |  \
			 (1u << CWASM_SEC_NAMES) | (1u << CWASM_SEC_IMPORT) |     \
			 (1u << CWASM_SEC_TYPE))

static int parse_section(struct parse *ps, uint32_t type, const uint8_t *p,
			 size_t size, size_t base)
{
	struct cur c;

	if (type < 32) {
		uint32_t bit = (uint32_t)1 << type;

		/* Sections we skip may repeat; ones we interpret may not. */
		if ((ps->seen & bit) && (SEC_INTERPRETED & bit))
			return ap_errf(ps->err, "%s: duplicate %s section (type %u) at offset %zu",
				       ps->file, sec_name(type), type, base - 8);
		ps->seen |= bit;
	}
	cur_init(&c, p, size, base, ps->file, type, ps->err);
	switch (type) {
	case CWASM_SEC_TARGET_INFO:
		return parse_target_info(ps, &c);
	case CWASM_SEC_TEXT:
		ps->text = p;
		ps->text_len = size;
		ps->have_text = 1;
		return 0;
	case CWASM_SEC_FUNCTION:
		ps->funcs = c;
		ps->have_funcs = 1;
		return 0;
	case CWASM_SEC_EXPORT:
		return parse_exports(ps, &c);
	case CWASM_SEC_NAMES:
		ps->names = c;
		ps->have_names = 1;
		return 0;
	case CWASM_SEC_IMPORT:
		return parse_imports(ps, &c);
	case CWASM_SEC_TYPE:
		return parse_types(ps, &c);
	default:
		return 0;
	}
}

static int walk_sections(struct parse *ps, const uint8_t *buf, size_t len)
{
	size_t pos = 8;

	while (pos < len) {
		uint32_t type, size;

		if (len - pos < 8)
			return ap_errf(ps->err, "%s: truncated section header at offset %zu (%zu bytes left, a header needs 8)",
				       ps->file, pos, len - pos);
		type = get_le32(buf + pos);
		size = get_le32(buf + pos + 4);
		if (size > len - pos - 8)
			return ap_errf(ps->err, "%s: section %u (%s) at offset %zu claims %u bytes, only %zu left",
				       ps->file, type, sec_name(type), pos, size, len - pos - 8);
		if (parse_section(ps, type, buf + pos + 8, size, pos + 8))
			return -1;
		pos += 8 + (size_t)size;
	}
	return 0;
}

static int parse_functions(struct parse *ps)
{
	struct cwasm_module *m = ps->m;
	struct cur *c = &ps->funcs;
	uint64_t pairs, offs;
	uint32_t count, i;
	const uint8_t *p;
	int has_type;

	if (cur_u32(c, &count, "count"))
		return -1;
	pairs = 4 + 8 * (uint64_t)count;
	offs = 4 + 4 * (uint64_t)count;
	if (c->len == pairs && count)
		has_type = 1;
	else if (c->len == offs)
		has_type = count ? 0 : m->version >= 7;
	else if (c->len < offs)
		return ap_errf(ps->err, "%s: count %u in section %u (function) overflows its %zu bytes",
			       ps->file, count, CWASM_SEC_FUNCTION, c->len);
	else
		return ap_errf(ps->err, "%s: function section is %zu bytes for %u functions, expected %llu (offset, type pairs) or %llu (offsets only)",
			       ps->file, c->len, count, (unsigned long long)pairs,
			       (unsigned long long)offs);
	m->has_type_idx = has_type;
	if (!count)
		return 0;
	m->funcs = calloc(count, sizeof(*m->funcs));
	if (!m->funcs)
		return oom(ps);
	m->nfuncs = count;
	if (cur_bytes(c, c->len - 4, &p, "entries"))
		return -1;
	for (i = 0; i < count; i++) {
		struct cwasm_func *f = &m->funcs[i];

		if (has_type) {
			f->offset = get_le32(p + 8 * (size_t)i);
			f->type_idx = get_le32(p + 8 * (size_t)i + 4);
		} else {
			f->offset = get_le32(p + 4 * (size_t)i);
			f->type_idx = CWASM_NO_TYPE;
		}
	}
	return 0;
}

/* Offsets must be strictly ascending and inside the text: we size functions by them. */
static int check_functions(struct parse *ps)
{
	struct cwasm_module *m = ps->m;
	uint32_t i;

	for (i = 0; i < m->nfuncs; i++) {
		struct cwasm_func *f = &m->funcs[i];

		if (f->offset >= m->text_size)
			return ap_errf(ps->err, "%s: function %u offset 0x%x is past the text (0x%x bytes)",
				       ps->file, i, f->offset, m->text_size);
		if (i && f->offset <= m->funcs[i - 1].offset)
			return ap_errf(ps->err, "%s: function offsets out of order at %u (0x%x after 0x%x)",
				       ps->file, i, f->offset, m->funcs[i - 1].offset);
	}
	for (i = 0; i < m->nfuncs; i++) {
		uint32_t end = i + 1 < m->nfuncs ? m->funcs[i + 1].offset : m->text_size;

		m->funcs[i].size = end - m->funcs[i].offset;
	}
	return 0;
}

/* Local function for a wasm index, or -1 for imports and out-of-range indices. */
static int64_t local_of(const struct cwasm_module *m, uint32_t wasm_index)
{
	if (wasm_index < m->import_func_count)
		return -1;
	if (wasm_index - m->import_func_count >= m->nfuncs)
		return -1;
	return wasm_index - m->import_func_count;
}

static int parse_names(struct parse *ps)
{
	struct cwasm_module *m = ps->m;
	struct cur *c = &ps->names;
	uint32_t count, i, idx, len;
	const uint8_t *s;
	size_t used = 0;

	/* wasm index, name length */
	if (cur_count(c, &count, 8))
		return -1;
	/* Sanitized names never grow, so the section size bounds the pool. */
	m->name_pool = malloc(c->len + count + 1);
	if (!m->name_pool)
		return oom(ps);
	c->item = "name";
	for (i = 0; i < count; i++) {
		int64_t n;

		c->idx = i;
		if (cur_u32(c, &idx, "function index") || cur_u32(c, &len, "length") ||
		    cur_bytes(c, len, &s, "bytes"))
			return -1;
		n = local_of(m, idx);
		/* First name for a function wins; import names are not ours to show. */
		if (n < 0 || !len || m->funcs[n].name)
			continue;
		m->funcs[n].name = m->name_pool + used;
		used += name_sanitize(s, len, m->name_pool + used) + 1;
	}
	return 0;
}

static void names_from_exports(struct cwasm_module *m)
{
	uint32_t i;

	for (i = 0; i < m->nexports; i++) {
		const struct cwasm_export *e = &m->exports[i];
		int64_t n;

		if (e->kind != 0 || !e->name[0])
			continue;
		n = local_of(m, e->index);
		if (n >= 0 && !m->funcs[n].name)
			m->funcs[n].name = e->name;
	}
}

static int check_header(struct parse *ps, const uint8_t *buf, size_t len)
{
	uint32_t magic, version;

	if (!len)
		return ap_errf(ps->err, "%s: empty file", ps->file);
	if (len < 4)
		return ap_errf(ps->err, "%s: not a .cwasm file (%zu bytes, too short for the magic)",
			       ps->file, len);
	magic = get_le32(buf);
	if (magic != CWASM_MAGIC)
		return ap_errf(ps->err, "%s: not a .cwasm file (magic 0x%08x, expected 0x%08x)",
			       ps->file, magic, CWASM_MAGIC);
	if (len < 8)
		return ap_errf(ps->err, "%s: truncated .cwasm header (%zu bytes, need 8)",
			       ps->file, len);
	version = get_le32(buf + 4);
	if (version < CWASM_VERSION_MIN_KNOWN)
		return ap_errf(ps->err, "%s: .aot version %u is upstream C WAMR's format, not the Zig runtime's .cwasm (version 6+)",
			       ps->file, version);
	ps->m->version = version;
	ps->m->version_known = version <= CWASM_VERSION_MAX_KNOWN;
	return 0;
}

static int parse_all(struct parse *ps, const uint8_t *buf, size_t len)
{
	struct cwasm_module *m = ps->m;

	if (check_header(ps, buf, len) || walk_sections(ps, buf, len))
		return -1;
	if (!ps->have_text)
		return ap_errf(ps->err, "%s: no text section", ps->file);
	if (!ps->text_len)
		return ap_errf(ps->err, "%s: empty text section", ps->file);
	if (!ps->have_funcs)
		return ap_errf(ps->err, "%s: no function section", ps->file);
	m->text_size = (uint32_t)ps->text_len;
	if (parse_functions(ps) || check_functions(ps))
		return -1;
	if (ps->have_names && parse_names(ps))
		return -1;
	names_from_exports(m);
	m->text = malloc(ps->text_len);
	if (!m->text)
		return oom(ps);
	memcpy(m->text, ps->text, ps->text_len);
	ap_sha256(buf, len, m->sha256);
	return 0;
}

int cwasm__parse(const uint8_t *buf, size_t len, const char *name,
		 struct cwasm_module **out, struct ap_err *err)
{
	struct parse ps;
	struct cwasm_module *m;

	*out = NULL;
	if (!name)
		name = "<memory>";
	if (!buf && len)
		return ap_errf(err, "%s: no buffer", name);
	m = calloc(1, sizeof(*m));
	if (!m)
		return ap_errf(err, "%s: out of memory", name);
	m->manifest_idx = -1;
	m->path = strdup(name);
	if (!m->path) {
		free(m);
		return ap_errf(err, "%s: out of memory", name);
	}
	memset(&ps, 0, sizeof(ps));
	ps.m = m;
	ps.file = name;
	ps.err = err;
	if (parse_all(&ps, buf, len)) {
		cwasm__delete(m);
		return -1;
	}
	*out = m;
	return 0;
}

static int read_all(int fd, const char *path, uint8_t **out, size_t *out_len,
		    struct ap_err *err)
{
	struct stat st;
	size_t cap, len = 0;
	uint8_t *buf, *nb;
	ssize_t n;

	if (fstat(fd, &st))
		return ap_errf(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return ap_errf(err, "%s: %s", path, strerror(EISDIR));
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > CWASM_FILE_MAX)
		return ap_errf(err, "%s: file of %lld bytes is too large for a .cwasm",
			       path, (long long)st.st_size);
	/* +1 so a regular file that did not grow ends with one short read */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536;
	buf = malloc(cap);
	if (!buf)
		return ap_errf(err, "%s: out of memory", path);
	for (;;) {
		if (len == cap) {
			if ((uint64_t)cap * 2 > CWASM_FILE_MAX) {
				free(buf);
				return ap_errf(err, "%s: too large for a .cwasm", path);
			}
			nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				return ap_errf(err, "%s: out of memory", path);
			}
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			return ap_errf(err, "%s: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int cwasm__read(const char *path, struct cwasm_module **out, struct ap_err *err)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ap_errf(err, "%s: %s", path, strerror(errno));
	ret = read_all(fd, path, &buf, &len, err);
	close(fd);
	if (ret)
		return -1;
	ret = cwasm__parse(buf, len, path, out, err);
	free(buf);
	return ret;
}

void cwasm__delete(struct cwasm_module *mod)
{
	uint32_t i;

	if (!mod)
		return;
	for (i = 0; i < mod->nexports; i++)
		free(mod->exports[i].name);
	free(mod->exports);
	for (i = 0; i < mod->ntypes; i++) {
		free(mod->types[i].params);
		free(mod->types[i].results);
	}
	free(mod->types);
	free(mod->funcs);
	free(mod->text);
	free(mod->name_pool);
	free(mod->core_label);
	free(mod->path);
	free(mod);
}

int64_t cwasm__func_at(const struct cwasm_module *mod, uint64_t text_off)
{
	uint32_t lo = 0, hi;
	const struct cwasm_func *f;

	if (!mod || !mod->nfuncs || text_off < mod->funcs[0].offset)
		return -1;
	/* Find the last function starting at or before text_off. */
	hi = mod->nfuncs;
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (mod->funcs[mid].offset <= text_off)
			lo = mid;
		else
			hi = mid;
	}
	f = &mod->funcs[lo];
	if (text_off - f->offset >= f->size)
		return -1;
	return lo;
}

char *cwasm__local_name(uint32_t n, char *buf, size_t len)
{
	if (buf && len)
		snprintf(buf, len, "local_func_%u", n);
	return buf;
}
