// SPDX-License-Identifier: MIT
/*
 * The component manifest `<stem>.cwasm.json` (docs/formats-cwasm.md,
 * "Manifest"): which per-core .cwasm files belong to a component, under
 * which index, with which hash. Every entry is checked before any core is
 * loaded, so a bad manifest fails fast; cores are read as cwasm__read()
 * reads them (regular files only, bounded size).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cwasm.h"
#include "json_read.h"
#include "../util/sha256.h"

/* Real manifests are a few hundred bytes per core. */
#define MANIFEST_MAX ((size_t)16 << 20)

struct entry {
	int idx;
	const char *path;	/* as written in the manifest */
	const char *sha256;
};

/* A member that must appear at most once; NULL if absent or null. */
static int member(const char *file, const char *where, const struct jr_node *obj,
		  const char *key, const struct jr_node **out, struct ap_err *err)
{
	size_t count;
	const struct jr_node *v = jr__get(obj, key, &count);

	if (count > 1)
		return ap_errf(err, "%s: %sduplicate key \"%s\"", file, where, key);
	*out = v && v->type != JR_NULL ? v : NULL;
	return 0;
}

static int need(const char *file, const char *where, const struct jr_node *obj,
		const char *key, enum jr_type type, const struct jr_node **out,
		struct ap_err *err)
{
	if (member(file, where, obj, key, out, err))
		return -1;
	if (!*out)
		return ap_errf(err, "%s: %smissing \"%s\"", file, where, key);
	if ((*out)->type != type)
		return ap_errf(err, "%s: %s\"%s\" is %s, expected %s", file, where, key,
			       jr__type_name((*out)->type), jr__type_name(type));
	return 0;
}

/* An optional string member, copied; stays NULL when absent. */
static int opt_string(const char *file, const struct jr_node *obj, const char *key,
		      char **out, struct ap_err *err)
{
	const struct jr_node *v;

	if (member(file, "", obj, key, &v, err))
		return -1;
	if (!v)
		return 0;
	if (v->type != JR_STRING)
		return ap_errf(err, "%s: \"%s\" is %s, expected a string", file, key,
			       jr__type_name(v->type));
	*out = strdup(v->str);
	if (!*out)
		return ap_errf(err, "%s: out of memory", file);
	return 0;
}

static int is_hex64(const char *s, size_t len)
{
	size_t i;

	if (len != 64)
		return 0;
	for (i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
		      (s[i] >= 'A' && s[i] <= 'F')))
			return 0;
	return 1;
}

static int parse_entry(const char *file, size_t i, const struct jr_node *m,
		       struct entry *e, struct ap_err *err)
{
	const struct jr_node *v;
	char where[48];

	snprintf(where, sizeof(where), "modules[%zu]: ", i);
	if (m->type != JR_OBJECT)
		return ap_errf(err, "%s: %sis %s, expected an object", file, where,
			       jr__type_name(m->type));
	if (need(file, where, m, "idx", JR_NUMBER, &v, err))
		return -1;
	if (!v->is_int || v->integer < 0 || v->integer > INT_MAX)
		return ap_errf(err, "%s: %s\"idx\" is %g, expected a non-negative integer",
			       file, where, v->number);
	e->idx = (int)v->integer;
	if (need(file, where, m, "path", JR_STRING, &v, err))
		return -1;
	if (!v->str_len || strlen(v->str) != v->str_len)
		return ap_errf(err, "%s: %s\"path\" is empty or holds a NUL", file, where);
	e->path = v->str;
	if (need(file, where, m, "sha256", JR_STRING, &v, err))
		return -1;
	if (!is_hex64(v->str, v->str_len))
		return ap_errf(err, "%s: %s\"sha256\" is not 64 hex digits", file, where);
	e->sha256 = v->str;
	/* core_sha256 (the hash of the wasm core) is informational: type-check only. */
	if (member(file, where, m, "core_sha256", &v, err))
		return -1;
	if (v && v->type != JR_STRING)
		return ap_errf(err, "%s: %s\"core_sha256\" is %s, expected a string", file,
			       where, jr__type_name(v->type));
	return 0;
}

static int cmp_entry_idx(const void *a, const void *b)
{
	const struct entry *x = *(const struct entry *const *)a;
	const struct entry *y = *(const struct entry *const *)b;

	return (x->idx > y->idx) - (x->idx < y->idx);
}

static int check_dup_idx(const char *file, struct entry *ents, size_t n, struct ap_err *err)
{
	struct entry **sorted = malloc(n * sizeof(*sorted));
	size_t i;
	int ret = 0;

	if (!sorted)
		return ap_errf(err, "%s: out of memory", file);
	for (i = 0; i < n; i++)
		sorted[i] = &ents[i];
	qsort(sorted, n, sizeof(*sorted), cmp_entry_idx);
	for (i = 1; i < n; i++) {
		if (sorted[i]->idx == sorted[i - 1]->idx) {
			ret = ap_errf(err, "%s: duplicate module idx %d", file, sorted[i]->idx);
			break;
		}
	}
	free(sorted);
	return ret;
}

/*
 * A core path must stay inside the manifest's folder: not absolute, and
 * no "../" that climbs above it (checked on the text: "a/../b" is fine).
 */
static int check_inside(const char *file, size_t i, const char *rel, struct ap_err *err)
{
	const char *p = rel;
	long depth = 0;

	if (rel[0] == '/') {
		ap_errf(err, "%s: modules[%zu]: \"path\" is absolute; a core must be inside the"
			" manifest's folder", file, i);
		return ap_err_hint(err, AP_HINT_ANY_PATH);
	}
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0) {
				ap_errf(err, "%s: modules[%zu]: \"path\" climbs out of the"
					" manifest's folder", file, i);
				return ap_err_hint(err, AP_HINT_ANY_PATH);
			}
		} else if (n && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

/* Paths in the manifest are relative to the manifest's folder. */
static char *core_path(const char *manifest, const char *rel)
{
	const char *slash = strrchr(manifest, '/');
	size_t dlen = slash ? (size_t)(slash - manifest) + 1 : 0;
	size_t rlen = strlen(rel);
	char *p;

	if (rel[0] == '/')
		dlen = 0;
	p = malloc(dlen + rlen + 1);
	if (!p)
		return NULL;
	memcpy(p, manifest, dlen);
	memcpy(p + dlen, rel, rlen + 1);
	return p;
}

static int load_core(struct cwasm_manifest *man, const struct entry *e, struct ap_err *err)
{
	struct cwasm_module *mod;
	char got[65], label[32];
	char *p = core_path(man->path, e->path);
	int ret;

	if (!p)
		return ap_errf(err, "%s: out of memory", man->path);
	ret = cwasm__read(p, &mod, err);
	free(p);
	if (ret)
		return -1;
	man->cores[man->ncores++] = mod;
	ap_sha256_hex(mod->sha256, got);
	if (strcasecmp(got, e->sha256))
		return ap_errf(err, "%s: sha256 of %s is %s, manifest says %s", man->path,
			       e->path, got, e->sha256);
	mod->manifest_idx = e->idx;
	snprintf(label, sizeof(label), "mod%d", e->idx);
	mod->core_label = strdup(label);
	if (!mod->core_label)
		return ap_errf(err, "%s: out of memory", man->path);
	return 0;
}

static int parse_manifest(struct cwasm_manifest *man, const struct jr_node *root,
			  unsigned flags, struct ap_err *err)
{
	const char *file = man->path;
	const struct jr_node *v, *mods;
	struct entry *ents;
	size_t i;
	int ret = -1;

	if (root->type != JR_OBJECT)
		return ap_errf(err, "%s: top level is %s, expected an object", file,
			       jr__type_name(root->type));
	if (need(file, "", root, "version", JR_NUMBER, &v, err))
		return -1;
	if (!v->is_int || v->integer < 1 || v->integer > UINT32_MAX)
		return ap_errf(err, "%s: \"version\" is %g, expected a positive integer", file,
			       v->number);
	man->version = (uint32_t)v->integer;
	if (opt_string(file, root, "wamr_build_id", &man->wamr_build_id, err) ||
	    opt_string(file, root, "component_sha256", &man->component_sha256, err))
		return -1;
	if (need(file, "", root, "modules", JR_ARRAY, &mods, err))
		return -1;
	if (!mods->n)
		return ap_errf(err, "%s: \"modules\" is empty", file);
	if (mods->n > UINT32_MAX)
		return ap_errf(err, "%s: too many modules", file);
	ents = calloc(mods->n, sizeof(*ents));
	man->cores = calloc(mods->n, sizeof(*man->cores));
	if (!ents || !man->cores) {
		ap_errf(err, "%s: out of memory", file);
		goto out;
	}
	for (i = 0; i < mods->n; i++)
		if (parse_entry(file, i, &mods->items[i], &ents[i], err) ||
		    (!(flags & CWASM_MANIFEST_ANY_PATH) &&
		     check_inside(file, i, ents[i].path, err)))
			goto out;
	if (check_dup_idx(file, ents, mods->n, err))
		goto out;
	for (i = 0; i < mods->n; i++)
		if (load_core(man, &ents[i], err))
			goto out;
	ret = 0;
out:
	free(ents);
	return ret;
}

int cwasm_manifest__read(const char *path, struct cwasm_manifest **out,
			 struct ap_err *err)
{
	return cwasm_manifest__read_flags(path, 0, out, err);
}

int cwasm_manifest__read_flags(const char *path, unsigned flags,
			       struct cwasm_manifest **out, struct ap_err *err)
{
	struct cwasm_manifest *man;
	struct jr_node *root;
	int ret;

	*out = NULL;
	if (jr__parse_file(path, MANIFEST_MAX, &root, err))
		return -1;
	man = calloc(1, sizeof(*man));
	if (man)
		man->path = strdup(path);
	if (!man || !man->path) {
		free(man);
		jr__delete(root);
		return ap_errf(err, "%s: out of memory", path);
	}
	ret = parse_manifest(man, root, flags, err);
	jr__delete(root);
	if (ret) {
		cwasm_manifest__delete(man);
		return -1;
	}
	*out = man;
	return 0;
}

void cwasm_manifest__delete(struct cwasm_manifest *man)
{
	uint32_t i;

	if (!man)
		return;
	for (i = 0; i < man->ncores; i++)
		cwasm__delete(man->cores[i]);
	free(man->cores);
	free(man->component_sha256);
	free(man->wamr_build_id);
	free(man->path);
	free(man);
}
