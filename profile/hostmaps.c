// SPDX-License-Identifier: MIT
/*
 * Host mappings over time (hostmaps.h): per process, its executable
 * mappings sorted by start with the time each was made, its exec times,
 * and the parent it forked from; DSO names interned once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hostmaps.h"
#include "../util/array.h"
#include "../util/search.h"

#define MAX_FORK_DEPTH 64

struct host_proc {
	uint32_t pid, ppid;
	int has_parent;
	uint64_t fork_time;
	struct hostmap *maps;	/* sorted by start */
	size_t nmaps, cap_maps;
	uint64_t maxlen;	/* the longest map: how far back a lookup looks */
	uint64_t *execs;	/* exec times, as they came */
	size_t nexecs, cap_execs;
};

struct hostmaps {
	char **dsos;		/* names, each once */
	uint32_t ndsos;
	size_t cap_dsos;
	struct host_proc *procs;	/* by pid, sorted */
	uint32_t nprocs;
	size_t cap_procs;
	uint64_t generation;
};

struct hostmaps *hostmaps__new(void)
{
	return calloc(1, sizeof(struct hostmaps));
}

void hostmaps__reset(struct hostmaps *h)
{
	for (uint32_t i = 0; i < h->nprocs; i++) {
		free(h->procs[i].maps);
		free(h->procs[i].execs);
	}
	free(h->procs);
	h->procs = NULL;
	h->nprocs = 0;
	h->cap_procs = 0;
	h->generation++;
}

void hostmaps__delete(struct hostmaps *h)
{
	if (!h)
		return;
	hostmaps__reset(h);
	for (uint32_t i = 0; i < h->ndsos; i++)
		free(h->dsos[i]);
	free(h->dsos);
	free(h);
}

static uint32_t intern(struct hostmaps *h, const char *name)
{
	char *copy;

	for (uint32_t i = h->ndsos; i-- > 0;)
		if (!strcmp(h->dsos[i], name))
			return i;
	copy = strdup(name);
	if (!copy || ap_grow(&h->dsos, &h->cap_dsos, (size_t)h->ndsos + 1, sizeof(*h->dsos))) {
		free(copy);
		return UINT32_MAX;
	}
	h->dsos[h->ndsos] = copy;
	return h->ndsos++;
}

const char *hostmaps__dso(const struct hostmaps *h, uint32_t dso)
{
	return dso < h->ndsos ? h->dsos[dso] : "[unknown]";
}

uint32_t hostmaps__ndsos(const struct hostmaps *h)
{
	return h->ndsos;
}

int hostmaps__dso_is_file(const struct hostmaps *h, uint32_t dso)
{
	return dso < h->ndsos && h->dsos[dso][0] == '/';
}

uint64_t hostmaps__generation(const struct hostmaps *h)
{
	return h->generation;
}

static struct host_proc *proc_find(const struct hostmaps *h, uint32_t pid)
{
	size_t lo = ap_search__lower(h->procs, h->nprocs, AP_SEARCH_FIELD(h->procs, pid), pid);

	return lo < h->nprocs && h->procs[lo].pid == pid ? &h->procs[lo] : NULL;
}

static struct host_proc *proc_get(struct hostmaps *h, uint32_t pid)
{
	struct host_proc *p = proc_find(h, pid);
	uint32_t at = 0;

	if (p)
		return p;
	if (ap_grow(&h->procs, &h->cap_procs, (size_t)h->nprocs + 1, sizeof(*h->procs)))
		return NULL;
	while (at < h->nprocs && h->procs[at].pid < pid)
		at++;
	memmove(&h->procs[at + 1], &h->procs[at], (h->nprocs - at) * sizeof(*h->procs));
	memset(&h->procs[at], 0, sizeof(*h->procs));
	h->procs[at].pid = h->procs[at].ppid = pid;
	h->nprocs++;
	return &h->procs[at];
}

/* perf's name for a mapping's DSO (hostmaps.h) */
static void dso_name(uint32_t pid, const char *file, char *buf, size_t len)
{
	const char *base, *dot;

	if (pid == HOSTMAPS_KERNEL_PID) {
		if (!strncmp(file, "[kernel.kallsyms]", 17) || !*file) {
			snprintf(buf, len, "[kernel.kallsyms]");
			return;
		}
		/* a module: /lib/modules/.../name.ko[.xz] -> [name] */
		base = strrchr(file, '/');
		base = base ? base + 1 : file;
		dot = strstr(base, ".ko");
		if (file[0] == '/' && dot) {
			snprintf(buf, len, "[%.*s]", (int)(dot - base), base);
			return;
		}
	} else if (!strncmp(file, "//anon", 6) || !strcmp(file, "/dev/zero") ||
		   !strncmp(file, "/anon_hugepage", 14)) {
		snprintf(buf, len, "[JIT] tid %" PRIu32, pid);
		return;
	}
	snprintf(buf, len, "%s", file);
}

static int add_map(struct hostmaps *h, const struct attr_map_event *ev)
{
	struct hostmap m = { .start = ev->start, .end = ev->start + ev->len, .pgoff = ev->pgoff,
			     .time = ev->time, .maj = ev->maj, .min = ev->min, .ino = ev->ino };
	struct host_proc *p;
	char name[4200];
	size_t at;

	if (!ev->len || m.end < m.start)
		return 0;
	dso_name(ev->pid, ev->filename ? ev->filename : "", name, sizeof(name));
	m.dso = intern(h, name);
	p = proc_get(h, ev->pid);
	if (m.dso == UINT32_MAX || !p ||
	    ap_grow(&p->maps, &p->cap_maps, p->nmaps + 1, sizeof(*p->maps)))
		return -1;
	at = p->nmaps;
	while (at > 0 && p->maps[at - 1].start > m.start)
		at--;
	memmove(&p->maps[at + 1], &p->maps[at], (p->nmaps - at) * sizeof(*p->maps));
	p->maps[at] = m;
	p->nmaps++;
	if (ev->len > p->maxlen)
		p->maxlen = ev->len;
	return 0;
}

int hostmaps__add(struct hostmaps *h, const struct attr_map_event *ev)
{
	struct host_proc *p;

	h->generation++;
	switch (ev->kind) {
	case ATTR_MAP_MMAP:
		return add_map(h, ev);
	case ATTR_MAP_EXEC:
		p = proc_get(h, ev->pid);
		return p ? ap_push(&p->execs, &p->nexecs, &p->cap_execs, &ev->time,
				   sizeof(ev->time)) : -1;
	case ATTR_MAP_FORK:
		p = proc_get(h, ev->pid);
		if (!p)
			return -1;
		p->ppid = ev->ppid;
		p->has_parent = 1;
		p->fork_time = ev->time;
		return 0;
	}
	return 0;
}

/* The newest exec of p at or before t; 0 and *at, or -1 when none. */
static int last_exec(const struct host_proc *p, uint64_t t, uint64_t *at)
{
	int found = -1;

	for (size_t i = 0; i < p->nexecs; i++) {
		if (p->execs[i] <= t && (found < 0 || p->execs[i] > *at)) {
			*at = p->execs[i];
			found = 0;
		}
	}
	return found;
}

/* The newest mapping of p holding ip, made at or before t and not before since. */
static const struct hostmap *proc_lookup(const struct host_proc *p, uint64_t ip, uint64_t t,
					 int have_since, uint64_t since)
{
	const struct hostmap *best = NULL;
	/* the first map starting after ip; candidates lie before it */
	size_t lo = ap_search__upper(p->maps, p->nmaps, AP_SEARCH_FIELD(p->maps, start), ip);

	while (lo-- > 0) {
		const struct hostmap *m = &p->maps[lo];

		if (ip - m->start >= p->maxlen)
			break;
		if (ip >= m->end || m->time > t || (have_since && m->time < since))
			continue;
		if (!best || m->time >= best->time)
			best = m;
	}
	return best;
}

const struct hostmap *hostmaps__find(const struct hostmaps *h, uint32_t pid, int kernel,
				     uint64_t ip, uint64_t t)
{
	const struct host_proc *p = proc_find(h, kernel ? HOSTMAPS_KERNEL_PID : pid);

	for (int depth = 0; p && depth < MAX_FORK_DEPTH; depth++) {
		const struct hostmap *m;
		uint64_t since = 0;
		int have_since = !last_exec(p, t, &since);

		m = proc_lookup(p, ip, t, have_since, since);
		if (m || have_since || !p->has_parent)
			return m;
		/* inherited: what the parent had when it forked this one */
		if (p->fork_time < t)
			t = p->fork_time;
		p = proc_find(h, p->ppid);
	}
	return NULL;
}
