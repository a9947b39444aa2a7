// SPDX-License-Identifier: MIT
/*
 * The frame-attribution sidecars of a profile's functions: found by
 * prefix or given, checked against the core (frames__read), then joined
 * with the samples into the origins summary. Instructions are decoded at
 * their text offset, so an instruction's address is its histogram key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sidecar.h"

void profile_sidecar__delete(struct profile_sidecar *sc)
{
	if (!sc)
		return;
	frames_summary__delete(sc->sum);
	free(sc->samples);
	dc_vec__exit(&sc->insns);
	frames__delete(sc->fr);
	free(sc->path);
	free(sc);
}

int profile_sidecar__open(struct profile_sidecar **out, const char *path,
			  const struct cwasm_module *m, uint32_t func, int may_be_missing,
			  struct ap_err *err)
{
	struct profile_sidecar *sc = calloc(1, sizeof(*sc));
	struct stat st;

	*out = sc;
	if (!sc || !(sc->path = strdup(path)))
		return ap_err_nomem(err);
	/* the compiler may have written sidecars for some functions only */
	if (may_be_missing && stat(path, &st) && errno == ENOENT)
		return 0;
	return frames__read(path, m, func, &sc->fr, err);
}

static int read_one(struct profile *p, struct profile_func *f, const char *path,
		    int may_be_missing, struct ap_err *err)
{
	profile_sidecar__delete(f->sc);
	return profile_sidecar__open(&f->sc, path, p->attr.cores[f->core].mod, f->func,
				     may_be_missing, err);
}

int profile__find_sidecar(struct profile *p, uint32_t i, const char *prefix, uint32_t mod,
			  struct ap_err *err)
{
	size_t len = strlen(prefix) + 48;
	char *path = malloc(len);
	int r;

	if (i >= p->nfuncs) {
		free(path);
		return ap_errf(err, "no function %u to attach %s to", i, prefix);
	}
	if (!path || frames__path(path, len, prefix, mod, p->funcs[i].func)) {
		free(path);
		return ap_err_nomem(err);
	}
	r = read_one(p, &p->funcs[i], path, 1, err);
	free(path);
	return r;
}

int profile__load_sidecars(struct profile *p, const char *prefix, struct ap_err *err)
{
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct cwasm_module *m = p->attr.cores[p->funcs[i].core].mod;

		if (profile__find_sidecar(p, i, prefix,
					  m->manifest_idx >= 0 ? (uint32_t)m->manifest_idx : 0, err))
			return -1;
	}
	return 0;
}

int profile__set_sidecar(struct profile *p, uint32_t i, const char *path, struct ap_err *err)
{
	if (i >= p->nfuncs)
		return ap_errf(err, "no function %u to attach %s to", i, path);
	return read_one(p, &p->funcs[i], path, 0, err);
}

/* The function as the sidecar sees it, at its text offset, with room for samples. */
static int decode(struct profile_sidecar *sc, const struct cwasm_module *m, struct ap_err *err)
{
	dc_vec__exit(&sc->insns);
	free(sc->samples);
	frames_summary__delete(sc->sum);
	sc->sum = NULL;
	sc->samples = NULL;
	if (frames__decode(sc->fr, m, m->funcs[sc->fr->local_func].offset, &sc->insns, err))
		return -1;
	sc->samples = calloc(sc->insns.n + 1, sizeof(*sc->samples));
	return sc->samples ? 0 : ap_err_nomem(err);
}

static int summarize(struct profile_sidecar *sc, const struct cwasm_module *m,
		     struct ap_err *err)
{
	return frames__summarize(sc->fr, sc->insns.v, sc->insns.n,
				 m->funcs[sc->fr->local_func].offset, sc->samples, &sc->sum, err);
}

int profile_sidecar__join(struct profile_sidecar *sc, const struct cwasm_module *m,
			  const struct attr_hist *hist, uint32_t core, struct ap_err *err)
{
	if (decode(sc, m, err))
		return -1;
	for (uint32_t i = 0; hist && i < sc->insns.n; i++)
		if (sc->insns.v[i].kind != DC_DATA)
			sc->samples[i] = attr_hist__get(hist, core, sc->insns.v[i].addr);
	return summarize(sc, m, err);
}

/* The decoded instruction starting at address addr (not data), or -1. */
static int64_t insn_at(const struct dc_vec *nv, uint64_t addr)
{
	int64_t k = dc_vec__find(nv, addr);

	return k >= 0 && nv->v[k].kind != DC_DATA ? k : -1;
}

int profile_sidecar__join_listing(struct profile_sidecar *sc, const struct cwasm_module *m,
				  const struct cls_func *cf, const uint64_t *samples,
				  uint64_t *unplaced, struct ap_err *err)
{
	uint32_t at = m->funcs[sc->fr->local_func].offset;

	*unplaced = 0;
	if (decode(sc, m, err))
		return -1;
	for (uint32_t i = 0; samples && i < cf->ninsns; i++) {
		int64_t k;

		if (!samples[i])
			continue;
		k = insn_at(&sc->insns, (uint64_t)at + cf->insns[i].offset);
		if (k < 0)
			*unplaced += samples[i];
		else
			sc->samples[k] += samples[i];
	}
	return summarize(sc, m, err);
}
