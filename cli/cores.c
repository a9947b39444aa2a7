// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include "cli.h"

static int push_mod(struct core_set *cs, struct cwasm_module *m)
{
	struct cwasm_module **mods = realloc(cs->mods, (cs->n + 1) * sizeof(*mods));

	if (!mods)
		return -1;
	cs->mods = mods;
	mods[cs->n++] = m;
	return 0;
}

int core_set__add_cwasm(struct core_set *cs, const char *path, struct ap_err *err)
{
	struct cwasm_module *m, **files;

	if (cwasm__read(path, &m, err))
		return -1;
	files = realloc(cs->files, (cs->nfiles + 1) * sizeof(*files));
	if (!files) {
		cwasm__delete(m);
		return ap_errf(err, "%s: out of memory", path);
	}
	cs->files = files;
	if (push_mod(cs, m)) {
		cwasm__delete(m);
		return ap_errf(err, "%s: out of memory", path);
	}
	files[cs->nfiles++] = m;
	return 0;
}

int core_set__add_manifest(struct core_set *cs, const char *path, struct ap_err *err)
{
	struct cwasm_manifest *man, **mans;

	if (cwasm_manifest__read(path, &man, err))
		return -1;
	mans = realloc(cs->mans, (cs->nmans + 1) * sizeof(*mans));
	if (!mans) {
		cwasm_manifest__delete(man);
		return ap_errf(err, "%s: out of memory", path);
	}
	cs->mans = mans;
	mans[cs->nmans++] = man;
	for (uint32_t i = 0; i < man->ncores; i++)
		if (push_mod(cs, man->cores[i]))
			return ap_errf(err, "%s: out of memory", path);
	return 0;
}

void core_set__exit(struct core_set *cs)
{
	for (uint32_t i = 0; i < cs->nfiles; i++)
		cwasm__delete(cs->files[i]);
	for (uint32_t i = 0; i < cs->nmans; i++)
		cwasm_manifest__delete(cs->mans[i]);
	free(cs->files);
	free(cs->mans);
	free(cs->mods);
}
