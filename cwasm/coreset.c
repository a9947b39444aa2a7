// SPDX-License-Identifier: MIT
/* Core sets and function specs (see coreset.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "coreset.h"
#include "../util/array.h"

#define CANDIDATES_LISTED 8

static int push_mod(struct core_set *cs, struct cwasm_module *m)
{
	if (ap_grow(&cs->mods, &cs->cap_mods, (size_t)cs->n + 1, sizeof(*cs->mods)))
		return -1;
	cs->mods[cs->n++] = m;
	return 0;
}

/* Remember which file this was, so no output may replace it. */
static int note_id(struct core_set *cs, const char *path)
{
	return ap_inputs__add(&cs->inputs, &cs->ninputs, &cs->cap_inputs, path);
}

static int note_module(struct core_set *cs, const struct cwasm_module *m)
{
	if (!m->version_known &&
	    ap_warnings__add(&cs->warnings, AP_HINT_NONE,
			     "%s: .cwasm version %u is newer than aotperf knows", m->path, m->version))
		return -1;
	return note_id(cs, m->path);
}

int core_set__add_cwasm(struct core_set *cs, const char *path, struct ap_err *err)
{
	struct cwasm_module *m;

	if (cwasm__read(path, &m, err))
		return -1;
	if (ap_grow(&cs->files, &cs->cap_files, cs->nfiles + 1, sizeof(*cs->files))) {
		cwasm__delete(m);
		return ap_err_nomem(err);
	}
	cs->files[cs->nfiles++] = m;
	if (push_mod(cs, m) || note_module(cs, m))
		return ap_err_nomem(err);
	return 0;
}

int core_set__add_manifest(struct core_set *cs, const char *path, struct ap_err *err)
{
	struct cwasm_manifest *man;

	if (cwasm_manifest__read_flags(path, cs->manifest_flags, &man, err))
		return -1;
	if (ap_grow(&cs->mans, &cs->cap_mans, cs->nmans + 1, sizeof(*cs->mans))) {
		cwasm_manifest__delete(man);
		return ap_err_nomem(err);
	}
	cs->mans[cs->nmans++] = man;
	if (note_id(cs, man->path ? man->path : path))
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < man->ncores; i++)
		if (push_mod(cs, man->cores[i]) || note_module(cs, man->cores[i]))
			return ap_err_nomem(err);
	return 0;
}

int core_set__add(struct core_set *cs, const char *path, struct ap_err *err)
{
	size_t n = strlen(path);

	if (n >= 5 && !strcmp(path + n - 5, ".json"))
		return core_set__add_manifest(cs, path, err);
	return core_set__add_cwasm(cs, path, err);
}

int core_set__check_once(const struct core_set *cs, struct ap_err *err)
{
	for (uint32_t i = 1; i < cs->n; i++)
		for (uint32_t k = 0; k < i; k++)
			if (!memcmp(cs->mods[i]->sha256, cs->mods[k]->sha256,
				    sizeof(cs->mods[i]->sha256)))
				return ap_errf(err, "%s: the same core as %s (the same bytes):"
					       " give each core once", core_set__core_name(cs->mods[i]),
					       core_set__core_name(cs->mods[k]));
	return 0;
}

void core_set__set_arch(struct core_set *cs, enum cwasm_arch arch)
{
	for (uint32_t i = 0; i < cs->n; i++)
		cwasm_target__override(&cs->mods[i]->target, arch);
}

void core_set__exit(struct core_set *cs)
{
	for (size_t i = 0; i < cs->nfiles; i++)
		cwasm__delete(cs->files[i]);
	for (size_t i = 0; i < cs->nmans; i++)
		cwasm_manifest__delete(cs->mans[i]);
	free(cs->files);
	free(cs->mans);
	free(cs->mods);
	free(cs->inputs);
	ap_warnings__exit(&cs->warnings);
	memset(cs, 0, sizeof(*cs));
}

const char *core_set__core_name(const struct cwasm_module *m)
{
	return m->core_label ? m->core_label : m->path;
}

/* "N" or "local_func_N": 1 and *n; 0 when s is not an index spelling. */
static int parse_index(const char *s, uint64_t *n)
{
	const char *d = !strncmp(s, "local_func_", 11) ? s + 11 : s;

	if (!*d || strspn(d, "0123456789") != strlen(d) || strlen(d) > 10)
		return 0;
	*n = strtoull(d, NULL, 10);
	return 1;
}

struct matches {
	struct core_func f[CANDIDATES_LISTED];
	uint32_t n;	/* all of them, even past the listed ones */
};

static void match(struct matches *m, uint32_t core, uint32_t func)
{
	if (m->n < CANDIDATES_LISTED)
		m->f[m->n] = (struct core_func){ core, func };
	m->n++;
}

static void find_in(const struct cwasm_module *mod, uint32_t core, const char *spec,
		    struct matches *m)
{
	uint64_t n;

	if (parse_index(spec, &n)) {
		if (n < mod->nfuncs)
			match(m, core, (uint32_t)n);
		return;
	}
	for (uint32_t i = 0; i < mod->nfuncs; i++)
		if (mod->funcs[i].name && !strcmp(mod->funcs[i].name, spec))
			match(m, core, i);
}

/* "mod4:6145 (name), a.cwasm local_func_7, ... and 3 more" */
static void list_candidates(const struct core_set *cs, const struct matches *m, char *buf,
			    size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < m->n && i < CANDIDATES_LISTED && at < len; i++) {
		const struct cwasm_module *mod = cs->mods[m->f[i].core];
		const char *name = mod->funcs[m->f[i].func].name;
		int w;

		if (mod->core_label)
			w = snprintf(buf + at, len - at, "%s%s:%u%s%s%s", i ? ", " : "",
				     mod->core_label, m->f[i].func, name ? " (" : "",
				     name ? name : "", name ? ")" : "");
		else
			w = snprintf(buf + at, len - at, "%s%s local_func_%u%s%s%s", i ? ", " : "",
				     mod->path, m->f[i].func, name ? " (" : "", name ? name : "",
				     name ? ")" : "");
		if (w < 0)
			break;
		at += (size_t)w;
	}
	if (m->n > CANDIDATES_LISTED && at < len)
		snprintf(buf + at, len - at, " and %u more", m->n - CANDIDATES_LISTED);
}

int core_set__resolve(const struct core_set *cs, const char *spec, struct core_func *out,
		      struct ap_err *err)
{
	const char *colon = strchr(spec, ':'), *fn = spec;
	struct matches m = { .n = 0 };
	char list[300];
	int core = -1;

	if (colon && !strncmp(spec, "mod", 3)) {
		size_t n = (size_t)(colon - spec);

		for (uint32_t c = 0; c < cs->n && core < 0; c++) {
			const char *label = cs->mods[c]->core_label;

			if (label && strlen(label) == n && !strncmp(label, spec, n))
				core = (int)c;
		}
		if (core < 0)
			return ap_errf(err, "%s: no core '%.*s'", spec, (int)n, spec);
		fn = colon + 1;
		find_in(cs->mods[core], (uint32_t)core, fn, &m);
	} else {
		for (uint32_t c = 0; c < cs->n; c++)
			find_in(cs->mods[c], c, fn, &m);
	}
	if (!m.n)
		return ap_errf(err, "%s: no such function (give N, local_func_N, a wasm"
			       " name, or modM:N for a manifest core)", spec);
	if (m.n > 1) {
		list_candidates(cs, &m, list, sizeof(list));
		return ap_errf(err, "%s: %u functions match: %s; %s", spec, m.n, list,
			       core >= 0 || m.f[0].core == m.f[1].core
				       ? "give the index N instead of the name"
				       : "name one as modM:N");
	}
	*out = m.f[0];
	return 0;
}
