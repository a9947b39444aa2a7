// SPDX-License-Identifier: MIT
/* The samples no core holds, per (dso, ip) (profile/host.h). */
#include <stdlib.h>
#include <string.h>
#include "host.h"
#include "../util/array.h"

struct host_slot {
	uint64_t ip;
	uint32_t dso;
	uint32_t frame;		/* index + 1; 0: empty */
};

static char *own(struct profile_host *h, const char *s)
{
	char *c = strdup(s);

	if (c && ap_push(&h->strs, &h->nstrs, &h->cap_strs, &c, sizeof(c))) {
		free(c);
		return NULL;
	}
	return c;
}

/* The index of DSO name, added when new; UINT32_MAX when out of memory. */
static uint32_t intern(struct profile_host *h, const char *name)
{
	char *copy;

	for (uint32_t i = h->ndsos; i-- > 0;)
		if (h->dso_from[i] == name)
			return i;
	for (uint32_t i = h->ndsos; i-- > 0;)
		if (!strcmp(h->dsos[i], name))
			return i;
	if (ap_grow(&h->dsos, &h->cap_dsos, (size_t)h->ndsos + 1, sizeof(*h->dsos)) ||
	    ap_grow(&h->dso_from, &h->cap_dso_from, (size_t)h->ndsos + 1, sizeof(*h->dso_from)) ||
	    !(copy = own(h, name)))
		return UINT32_MAX;
	h->dsos[h->ndsos] = copy;
	h->dso_from[h->ndsos] = name;
	return h->ndsos++;
}

static uint64_t slot_hash(uint32_t dso, uint64_t ip)
{
	uint64_t x = ip * 0x9e3779b97f4a7c15ull ^ ((uint64_t)dso << 32 | dso);

	return x ^ (x >> 29);
}

static int grow_slots(struct profile_host *h)
{
	size_t n = h->nslots ? h->nslots * 2 : 1024;
	struct host_slot *s = calloc(n, sizeof(*s));

	if (!s)
		return -1;
	for (size_t i = 0; i < h->nslots; i++) {
		const struct host_slot *o = &h->slots[i];
		size_t k;

		if (!o->frame)
			continue;
		for (k = slot_hash(o->dso, o->ip) & (n - 1); s[k].frame; k = (k + 1) & (n - 1))
			;
		s[k] = *o;
	}
	free(h->slots);
	h->slots = s;
	h->nslots = n;
	return 0;
}

int64_t profile_host__add(struct profile_host *h, const char *dso, int kernel, uint64_t ip,
			  const struct profile_host_map *map, const char *sym)
{
	uint32_t d = intern(h, dso);
	struct profile_host_frame *f;
	size_t k;

	if (d == UINT32_MAX || ((h->nframes + 1) * 2 > h->nslots && grow_slots(h)))
		return -1;
	for (k = slot_hash(d, ip) & (h->nslots - 1); h->slots[k].frame;
	     k = (k + 1) & (h->nslots - 1)) {
		const struct host_slot *s = &h->slots[k];

		if (s->dso == d && s->ip == ip) {
			f = &h->frames[s->frame - 1];
			f->samples++;
			h->samples++;
			return s->frame - 1;
		}
	}
	if (ap_grow(&h->frames, &h->cap_frames, h->nframes + 1, sizeof(*h->frames)))
		return -1;
	f = &h->frames[h->nframes];
	memset(f, 0, sizeof(*f));
	f->dso = d;
	f->ip = ip;
	f->kernel = kernel;
	if (map) {
		f->map_start = map->start;
		f->map_end = map->end;
		f->pgoff = map->pgoff;
	}
	if (sym && !(f->sym = own(h, sym)))
		return -1;
	h->slots[k] = (struct host_slot){ ip, d, (uint32_t)h->nframes + 1 };
	f->samples = 1;
	h->samples++;
	return (int64_t)h->nframes++;
}

void profile_host__reset(struct profile_host *h)
{
	profile_host__exit(h);
}

void profile_host__exit(struct profile_host *h)
{
	for (size_t i = 0; i < h->nstrs; i++)
		free(h->strs[i]);
	free(h->strs);
	free(h->dsos);
	free(h->dso_from);
	free(h->frames);
	free(h->slots);
	memset(h, 0, sizeof(*h));
}
