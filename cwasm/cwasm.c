// SPDX-License-Identifier: MIT
/*
 * A .cwasm core as a module (cwasm.h), built from what the walker
 * (walk.c) checked and read: the container format itself lives there
 * and in docs/formats-cwasm.md. Names are sanitized once, here, with the
 * shared sanitizer (name.h), so every output shows the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cwasm.h"
#include "../util/file.h"
#include "../util/sha256.h"
#include "../util/search.h"

static int oom(const char *file, struct ap_err *err)
{
	return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", file);
}

/* A sanitized, NUL-terminated copy (at most CWASM_NAME_MAX bytes). */
static char *name_dup(const struct cwasm_str *s)
{
	size_t cap = s->len < CWASM_NAME_MAX ? s->len : CWASM_NAME_MAX;
	char *d = malloc(cap + 1);

	if (d)
		cwasm_name__sanitize(d, cap + 1, s->p, s->len);
	return d;
}

static uint8_t *bytes_dup(const struct cwasm_str *s)
{
	uint8_t *d;

	if (!s->len)
		return NULL;
	d = malloc(s->len);
	if (d)
		memcpy(d, s->p, s->len);
	return d;
}

static int build_funcs(struct cwasm_module *m, const struct cwasm_walk *w)
{
	uint32_t i;

	m->nfuncs = w->nfuncs;
	m->has_type_idx = w->func_stride == 8;
	if (!w->nfuncs)
		return 0;
	m->funcs = calloc(w->nfuncs, sizeof(*m->funcs));
	if (!m->funcs)
		return -1;
	for (i = 0; i < w->nfuncs; i++) {
		m->funcs[i].offset = cwasm_walk__func_offset(w, i);
		m->funcs[i].size = cwasm_walk__func_size(w, i);
		m->funcs[i].type_idx = cwasm_walk__func_type(w, i);
	}
	return 0;
}

static int build_imports(struct cwasm_module *m, const struct cwasm_walk *w)
{
	struct cwasm_import_entry e;
	struct cwasm_iter it;

	m->import_func_count = w->import_func_count;
	if (!w->nimports)
		return 0;
	m->imports = calloc(w->nimports, sizeof(*m->imports));
	if (!m->imports)
		return -1;
	cwasm_walk__iter(w, CWASM_SEC_IMPORT, &it);
	while (m->nimports < w->nimports && cwasm_iter__import(&it, &e)) {
		struct cwasm_import *im = &m->imports[m->nimports++];

		im->t = e.t;
		im->module = name_dup(&e.module);
		im->field = name_dup(&e.field);
		if (!im->module || !im->field)
			return -1;
	}
	return 0;
}

static int build_exports(struct cwasm_module *m, const struct cwasm_walk *w)
{
	struct cwasm_export_entry e;
	struct cwasm_iter it;

	if (!w->nexports)
		return 0;
	m->exports = calloc(w->nexports, sizeof(*m->exports));
	if (!m->exports)
		return -1;
	cwasm_walk__iter(w, CWASM_SEC_EXPORT, &it);
	while (m->nexports < w->nexports && cwasm_iter__export(&it, &e)) {
		struct cwasm_export *ex = &m->exports[m->nexports++];

		ex->kind = e.kind;
		ex->index = e.index;
		ex->name = name_dup(&e.name);
		if (!ex->name)
			return -1;
	}
	return 0;
}

static int build_types(struct cwasm_module *m, const struct cwasm_walk *w)
{
	struct cwasm_type_entry e;
	struct cwasm_iter it;

	if (!w->ntypes)
		return 0;
	m->types = calloc(w->ntypes, sizeof(*m->types));
	if (!m->types)
		return -1;
	cwasm_walk__iter(w, CWASM_SEC_TYPE, &it);
	while (m->ntypes < w->ntypes && cwasm_iter__type(&it, &e)) {
		struct cwasm_type *t = &m->types[m->ntypes++];

		t->nparams = e.params.len;
		t->nresults = e.results.len;
		t->params = bytes_dup(&e.params);
		t->results = bytes_dup(&e.results);
		if ((t->nparams && !t->params) || (t->nresults && !t->results))
			return -1;
	}
	return 0;
}

/* funcs[].name: section 7, else a function export; one pool for all. */
static int build_names(struct cwasm_module *m, const struct cwasm_walk *w)
{
	struct cwasm_str *names;
	size_t need = 0, used = 0;
	uint32_t i;

	if (!w->nfuncs)
		return 0;
	names = calloc(w->nfuncs, sizeof(*names));
	if (!names)
		return -1;
	if (!cwasm_walk__func_names(w, names)) {
		free(names);
		return 0;
	}
	/* sanitizing never grows a name */
	for (i = 0; i < w->nfuncs; i++)
		if (names[i].len)
			need += (names[i].len < CWASM_NAME_MAX ? names[i].len : CWASM_NAME_MAX) + 1;
	m->name_pool = malloc(need);
	if (!m->name_pool) {
		free(names);
		return -1;
	}
	for (i = 0; i < w->nfuncs; i++) {
		size_t cap;

		if (!names[i].len)
			continue;
		cap = names[i].len < CWASM_NAME_MAX ? names[i].len : CWASM_NAME_MAX;
		m->funcs[i].name = m->name_pool + used;
		used += cwasm_name__sanitize(m->name_pool + used, cap + 1, names[i].p,
					     names[i].len) + 1;
	}
	free(names);
	return 0;
}

int cwasm__parse(const uint8_t *buf, size_t len, const char *name,
		 struct cwasm_module **out, struct ap_err *err)
{
	struct cwasm_walk w;
	struct cwasm_module *m;

	*out = NULL;
	if (!name)
		name = "<memory>";
	if (cwasm_walk__init(&w, buf, len, name, err))
		return -1;
	m = calloc(1, sizeof(*m));
	if (!m)
		return oom(name, err);
	m->manifest_idx = -1;
	m->path = strdup(name);
	m->version = w.version;
	m->version_known = w.version_known;
	m->sections = w.seen;
	m->has_target_info = w.has_target_info;
	m->ti = w.ti;
	m->target = w.target;
	m->text_size = w.text_size;
	m->text = malloc(w.text_size);
	if (!m->path || !m->text || build_funcs(m, &w) || build_imports(m, &w) ||
	    build_exports(m, &w) || build_types(m, &w) || build_names(m, &w)) {
		cwasm__delete(m);
		return oom(name, err);
	}
	memcpy(m->text, w.text, w.text_size);
	ap_sha256(buf, len, m->sha256);
	*out = m;
	return 0;
}

int cwasm__read(const char *path, struct cwasm_module **out, struct ap_err *err)
{
	char *buf;
	size_t len;
	int ret;

	*out = NULL;
	/* util/file.h: a regular file only, refused unread otherwise */
	if (ap_file__read_all(path, 0, CWASM_FILE_MAX, &buf, &len, NULL, err))
		return -1;
	ret = cwasm__parse((const uint8_t *)buf, len, path, out, err);
	free(buf);
	return ret;
}

void cwasm__delete(struct cwasm_module *mod)
{
	uint32_t i;

	if (!mod)
		return;
	for (i = 0; i < mod->nimports; i++) {
		free(mod->imports[i].module);
		free(mod->imports[i].field);
	}
	free(mod->imports);
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
	uint32_t lo;
	const struct cwasm_func *f;

	if (!mod || !mod->nfuncs || text_off < mod->funcs[0].offset)
		return -1;
	/* the last function starting at or before text_off (the first does) */
	lo = (uint32_t)ap_search__upper(mod->funcs, mod->nfuncs,
					AP_SEARCH_FIELD(mod->funcs, offset), text_off) - 1;
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
