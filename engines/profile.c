// SPDX-License-Identifier: MIT
/*
 * The profile's store: files, code objects, functions, warnings; the
 * per-wasm-function view built once every sample is counted.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void eng_opts__init(struct eng_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pid = -1;
	o->import_func_count = -1;
}

int eng_profile__warn(struct eng_profile *p, const char *fmt, ...)
{
	char buf[512], **w;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	w = realloc(p->warnings, (p->nwarnings + 1) * sizeof(*w));
	if (!w)
		return -1;
	p->warnings = w;
	w[p->nwarnings] = strdup(buf);
	if (!w[p->nwarnings])
		return -1;
	p->nwarnings++;
	return 0;
}

/* The WAMR side's local function of that name, when exactly one has it. */
static int64_t wamr_local_named(const struct cwasm_module *m, const char *name)
{
	int64_t found = -1;

	if (!m || !name || !*name)
		return -1;
	for (uint32_t i = 0; i < m->nfuncs; i++) {
		if (!m->funcs[i].name || strcmp(m->funcs[i].name, name))
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

/* Name a code object: an engine's wasm name, or a bare WAMR-side name. */
static void name_code(const struct eng_profile *p, struct eng_code *c, int plain_ok)
{
	int64_t local;

	c->wasm_index = -1;
	if (eng_name__parse(c->raw_name, &c->name)) {
		c->wasm_index = c->name.index;
		return;
	}
	if (!plain_ok || (local = wamr_local_named(p->wamr, c->raw_name)) < 0)
		return;
	c->name.engine = ENG_ENGINE_PLAIN;
	c->name.kind = ENG_KIND_FUNCTION;
	c->name.index = p->wamr->import_func_count + (uint32_t)local;
	c->name.has_index = 1;
	c->name.name = c->raw_name;
	c->name.name_len = strlen(c->raw_name);
	c->wasm_index = c->name.index;
}

int eng_profile__wants_bytes(const struct eng_profile *p, const char *name, int plain_ok)
{
	struct eng_name n;

	return eng_name__parse(name, &n) || (plain_ok && wamr_local_named(p->wamr, name) >= 0);
}

int64_t eng_profile__add_code(struct eng_profile *p, const char *name, const char *file,
			      uint16_t e_machine, uint64_t size, const uint8_t *bytes,
			      int plain_ok)
{
	struct eng_code_rec *r;

	if (p->ncodes == p->ccodes) {
		uint32_t cap = p->ccodes ? p->ccodes * 2 : 1024;
		struct eng_code_rec *v = realloc(p->codes, cap * sizeof(*v));

		if (!v)
			return -1;
		p->codes = v;
		p->ccodes = cap;
	}
	r = &p->codes[p->ncodes];
	memset(r, 0, sizeof(*r));
	r->raw = strdup(name);
	if (!r->raw)
		return -1;
	if (bytes && size) {
		r->bytes = malloc(size);
		if (!r->bytes) {
			free(r->raw);
			return -1;
		}
		memcpy(r->bytes, bytes, size);
	}
	r->pub.raw_name = r->raw;
	r->pub.file = file;
	r->pub.e_machine = e_machine;
	r->pub.size = size;
	r->pub.bytes = r->bytes;
	r->pub.func = -1;
	name_code(p, &r->pub, plain_ok);
	return p->ncodes++;
}

int64_t eng_profile__add_file(struct eng_profile *p, const char *path)
{
	struct eng_file *f;

	if (p->nfiles == p->cfiles) {
		uint32_t cap = p->cfiles ? p->cfiles * 2 : 256;
		struct eng_file *v = realloc(p->files, cap * sizeof(*v));

		if (!v)
			return -1;
		p->files = v;
		p->cfiles = cap;
	}
	f = &p->files[p->nfiles];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return -1;
	return p->nfiles++;
}

/* ---- the per-function view ---- */

static int tier_rank(enum eng_tier t)
{
	return t == ENG_TIER_OPTIMIZED ? 2 : t == ENG_TIER_UNKNOWN ? 1 : 0;
}

/* Is code a a better pick for a comparison than code b? */
static int better(const struct eng_code *a, const struct eng_code *b)
{
	if (tier_rank(a->name.tier) != tier_rank(b->name.tier))
		return tier_rank(a->name.tier) > tier_rank(b->name.tier);
	if (a->samples != b->samples)
		return a->samples > b->samples;
	return a->load_time > b->load_time;
}

static const struct eng_profile *sort_p;

static int key_cmp(const struct eng_code *x, const struct eng_code *y)
{
	if (x->name.module != y->name.module)
		return x->name.module < y->name.module ? -1 : 1;
	if (x->name.index != y->name.index)
		return x->name.index < y->name.index ? -1 : 1;
	if (x->name.kind != y->name.kind)
		return x->name.kind < y->name.kind ? -1 : 1;
	return 0;
}

static int code_idx_cmp(const void *a, const void *b)
{
	const struct eng_code *x = &sort_p->codes[*(const uint32_t *)a].pub;
	const struct eng_code *y = &sort_p->codes[*(const uint32_t *)b].pub;
	int k = key_cmp(x, y);

	if (k)
		return k;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int func_cmp(const void *a, const void *b)
{
	const struct eng_func *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	if (x->wasm_index != y->wasm_index)
		return x->wasm_index < y->wasm_index ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

static int64_t import_count(const struct eng_profile *p)
{
	return p->sum.import_func_count;
}

/* local_func of a function, and what disagrees with the WAMR side. */
static int64_t local_of(struct eng_profile *p, const struct eng_func *f, uint32_t *nbad)
{
	int64_t imports = import_count(p), local;
	const char *wname;

	if (f->kind != ENG_KIND_FUNCTION || imports < 0)
		return -1;
	if (f->wasm_index < imports) {
		if ((*nbad)++ < 5 && eng_profile__warn(p, "wasm function %u: an import by the "
						       "import count (%" PRId64 "), but the engine "
						       "compiled it", f->wasm_index, imports))
			return -2;
		return -1;
	}
	local = (int64_t)f->wasm_index - imports;
	if (!p->wamr)
		return local;
	if ((uint64_t)local >= p->wamr->nfuncs) {
		if ((*nbad)++ < 5 && eng_profile__warn(p, "wasm function %u: past the %u functions "
						       "of %s: another module?", f->wasm_index,
						       p->wamr->nfuncs, p->wamr->path))
			return -2;
		return -1;
	}
	wname = p->wamr->funcs[local].name;
	if (f->name && wname && strcmp(f->name, wname) &&
	    (*nbad)++ < 5 && eng_profile__warn(p, "wasm function %u: the engine calls it '%s', "
					       "%s calls local_func_%" PRId64 " '%s'",
					       f->wasm_index, f->name, p->wamr->path, local, wname))
		return -2;
	return local;
}

/* The wasm name of a group: the first code object's that has one. */
static char *group_name(const struct eng_profile *p, const uint32_t *idx, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_name *nm = &p->codes[idx[i]].pub.name;

		if (nm->name_len)
			return strndup(nm->name, nm->name_len);
	}
	return NULL;
}

static int fill_func(struct eng_profile *p, struct eng_func *f, uint32_t *idx, uint32_t n,
		     uint32_t *nbad)
{
	const struct eng_code *first = &p->codes[idx[0]].pub;
	int64_t best = idx[0];

	memset(f, 0, sizeof(*f));
	f->kind = first->name.kind;
	f->module = first->name.module;
	f->wasm_index = first->name.index;
	f->codes = idx;
	f->ncodes = n;
	for (uint32_t i = 0; i < n; i++) {
		const struct eng_code *c = &p->codes[idx[i]].pub;

		f->samples += c->samples;
		f->tier_samples[c->name.tier] += c->samples;
		if (better(c, &p->codes[best].pub))
			best = idx[i];
	}
	f->best = best;
	f->name = group_name(p, idx, n);
	if (!f->name && first->name.name_len)
		return -1;
	f->local_func = local_of(p, f, nbad);
	return f->local_func == -2 ? -1 : 0;
}

int eng_profile__build_funcs(struct eng_profile *p, struct ap_err *err)
{
	uint32_t n = 0, nf = 0, nbad = 0;

	p->func_codes = malloc((p->ncodes ? p->ncodes : 1) * sizeof(uint32_t));
	if (!p->func_codes)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < p->ncodes; i++)
		if (p->codes[i].pub.wasm_index >= 0)
			p->func_codes[n++] = i;
	sort_p = p;
	if (n)
		qsort(p->func_codes, n, sizeof(uint32_t), code_idx_cmp);
	p->funcs = calloc(n ? n : 1, sizeof(*p->funcs));
	if (!p->funcs)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < n;) {
		uint32_t j = i + 1;

		while (j < n && !key_cmp(&p->codes[p->func_codes[i]].pub,
					 &p->codes[p->func_codes[j]].pub))
			j++;
		if (fill_func(p, &p->funcs[nf++], p->func_codes + i, j - i, &nbad))
			return ap_err_nomem(err);
		i = j;
	}
	p->nfuncs = nf;
	if (nf)
		qsort(p->funcs, nf, sizeof(*p->funcs), func_cmp);
	for (uint32_t i = 0; i < nf; i++)
		for (uint32_t k = 0; k < p->funcs[i].ncodes; k++)
			p->codes[p->funcs[i].codes[k]].pub.func = (int32_t)i;
	if (nbad > 5 && eng_profile__warn(p, "%u more functions disagree with the WAMR side",
					  nbad - 5))
		return ap_err_nomem(err);
	return 0;
}

/* Which engine named the wasm code, and the sample totals by kind. */
void eng_profile__summarize(struct eng_profile *p)
{
	enum eng_engine e = ENG_ENGINE_NONE;

	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct eng_func *f = &p->funcs[i];
		enum eng_engine fe = p->codes[f->codes[0]].pub.name.engine;

		if (f->kind == ENG_KIND_FUNCTION)
			p->sum.wasm_samples += f->samples;
		else
			p->sum.wrapper_samples += f->samples;
		if (e == ENG_ENGINE_NONE)
			e = fe;
		else if (e != fe)
			e = ENG_ENGINE_MIXED;
	}
	p->sum.engine = e;
}

/* ---- accessors ---- */

const struct eng_summary *engines__summary(const struct eng_profile *p)
{
	return &p->sum;
}

uint32_t engines__nfuncs(const struct eng_profile *p)
{
	return p->nfuncs;
}

const struct eng_func *engines__func(const struct eng_profile *p, uint32_t i)
{
	return i < p->nfuncs ? &p->funcs[i] : NULL;
}

uint32_t engines__ncodes(const struct eng_profile *p)
{
	return p->ncodes;
}

const struct eng_code *engines__code(const struct eng_profile *p, uint32_t i)
{
	return i < p->ncodes ? &p->codes[i].pub : NULL;
}

const struct eng_func *engines__find(const struct eng_profile *p, uint32_t module,
				     uint32_t wasm_index)
{
	for (uint32_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].kind == ENG_KIND_FUNCTION && p->funcs[i].module == module &&
		    p->funcs[i].wasm_index == wasm_index)
			return &p->funcs[i];
	return NULL;
}

const struct eng_func *engines__find_local(const struct eng_profile *p, uint32_t module,
					   uint32_t n)
{
	for (uint32_t i = 0; i < p->nfuncs; i++)
		if (p->funcs[i].kind == ENG_KIND_FUNCTION && p->funcs[i].module == module &&
		    p->funcs[i].local_func == (int64_t)n)
			return &p->funcs[i];
	return NULL;
}

uint32_t engines__nwarnings(const struct eng_profile *p)
{
	return p->nwarnings;
}

const char *engines__warning(const struct eng_profile *p, uint32_t i)
{
	return i < p->nwarnings ? p->warnings[i] : NULL;
}

void engines__delete(struct eng_profile *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->nfiles; i++) {
		free(p->files[i].path);
		free(p->files[i].loads);
		free(p->files[i].syms);
	}
	free(p->files);
	for (uint32_t i = 0; i < p->ncodes; i++) {
		free(p->codes[i].raw);
		free(p->codes[i].bytes);
		free(p->codes[i].offs);
	}
	free(p->codes);
	for (uint32_t i = 0; i < p->nfuncs; i++)
		free((char *)p->funcs[i].name);
	free(p->funcs);
	free(p->func_codes);
	for (uint32_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i]);
	free(p->warnings);
	free(p->perf_path);
	free(p);
}
