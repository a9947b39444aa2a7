// SPDX-License-Identifier: MIT
/*
 * Where the samples no core holds landed (profile/host.h): a timeline of
 * every process's executable mappings, built from the records attr hands
 * over, and the samples counted per (dso, ip).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "host.h"
#include "../util/array.h"

#define KERNEL_PID UINT32_MAX	/* perf's pid -1: the kernel and its modules */
#define MAX_FORK_DEPTH 64

struct host_map {
	uint64_t start, end, pgoff, time;
	uint32_t dso;
	uint32_t maj, min;
	uint64_t ino;		/* 0: not known */
};

struct host_proc {
	uint32_t pid, ppid;
	int has_parent;
	uint64_t fork_time;
	struct host_map *maps;	/* sorted by start */
	size_t nmaps, cap_maps;
	uint64_t maxlen;	/* the longest map: how far back a lookup looks */
	uint64_t *execs;	/* exec times, as they came */
	size_t nexecs, cap_execs;
};

struct host_slot {
	uint64_t ip;
	uint32_t dso;
	uint32_t frame;		/* index + 1; 0: empty */
};

static uint32_t intern(struct profile_host *h, const char *name)
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

static struct host_proc *proc_find(const struct profile_host *h, uint32_t pid)
{
	uint32_t lo = 0, hi = h->nprocs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (h->procs[mid].pid == pid)
			return &h->procs[mid];
		if (h->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static struct host_proc *proc_get(struct profile_host *h, uint32_t pid)
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

/* perf's name for a mapping's DSO (host.h) */
static void dso_name(uint32_t pid, const char *file, char *buf, size_t len)
{
	const char *base, *dot;

	if (pid == KERNEL_PID) {
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

static int add_map(struct profile_host *h, uint32_t pid, uint64_t start, uint64_t len,
		   uint64_t pgoff, const char *file, uint64_t t, const struct perf_record_mmap2 *m2)
{
	struct host_proc *p;
	struct host_map m = { .start = start, .end = start + len, .pgoff = pgoff, .time = t };
	char name[4200];
	size_t at;

	if (!len || m.end < start)
		return 0;
	if (m2 && !(m2->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		m.maj = m2->maj;
		m.min = m2->min;
		m.ino = m2->ino;
	}
	dso_name(pid, file, name, sizeof(name));
	m.dso = intern(h, name);
	p = proc_get(h, pid);
	if (m.dso == UINT32_MAX || !p ||
	    ap_grow(&p->maps, &p->cap_maps, p->nmaps + 1, sizeof(*p->maps)))
		return -1;
	at = p->nmaps;
	while (at > 0 && p->maps[at - 1].start > start)
		at--;
	memmove(&p->maps[at + 1], &p->maps[at], (p->nmaps - at) * sizeof(*p->maps));
	p->maps[at] = m;
	p->nmaps++;
	if (len > p->maxlen)
		p->maxlen = len;
	return 0;
}

int profile_host__map(void *host, const struct pd_event *ev, uint64_t t)
{
	struct profile_host *h = host;
	const union perf_event *e = ev->ev;
	struct host_proc *p;

	switch (ev->hdr->type) {
	case PERF_RECORD_MMAP:
		if (ev->hdr->misc & PERF_RECORD_MISC_MMAP_DATA)
			return 0;
		return add_map(h, e->mmap.pid, e->mmap.start, e->mmap.len, e->mmap.pgoff,
			       e->mmap.filename, t, NULL);
	case PERF_RECORD_MMAP2:
		if (!(e->mmap2.prot & PROT_EXEC))
			return 0;
		return add_map(h, e->mmap2.pid, e->mmap2.start, e->mmap2.len, e->mmap2.pgoff,
			       e->mmap2.filename, t, &e->mmap2);
	case PERF_RECORD_COMM:
		if (!(ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC))
			return 0;
		p = proc_get(h, e->comm.pid);
		return p ? ap_push(&p->execs, &p->nexecs, &p->cap_execs, &t, sizeof(t)) : -1;
	case PERF_RECORD_FORK:
		if (e->fork.pid == e->fork.ppid)
			return 0;	/* a thread shares its process's maps */
		p = proc_get(h, e->fork.pid);
		if (!p)
			return -1;
		p->ppid = e->fork.ppid;
		p->has_parent = 1;
		p->fork_time = t;
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
static const struct host_map *proc_lookup(const struct host_proc *p, uint64_t ip, uint64_t t,
					  int have_since, uint64_t since)
{
	const struct host_map *best = NULL;
	size_t lo = 0, hi = p->nmaps;

	/* the first map starting after ip; candidates lie before it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo-- > 0) {
		const struct host_map *m = &p->maps[lo];

		if (ip - m->start >= p->maxlen)
			break;
		if (ip >= m->end || m->time > t || (have_since && m->time < since))
			continue;
		if (!best || m->time >= best->time)
			best = m;
	}
	return best;
}

static const struct host_map *lookup(const struct profile_host *h, uint32_t pid, uint64_t ip,
				     uint64_t t)
{
	const struct host_proc *p = proc_find(h, pid);

	for (int depth = 0; p && depth < MAX_FORK_DEPTH; depth++) {
		const struct host_map *m;
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

/* The frame of (dso, ip), made when new; NULL when out of memory. */
static struct profile_host_frame *frame_get(struct profile_host *h, uint32_t dso, uint64_t ip)
{
	size_t k;

	if ((h->nframes + 1) * 2 > h->nslots && grow_slots(h))
		return NULL;
	for (k = slot_hash(dso, ip) & (h->nslots - 1); h->slots[k].frame;
	     k = (k + 1) & (h->nslots - 1)) {
		const struct host_slot *s = &h->slots[k];

		if (s->dso == dso && s->ip == ip)
			return &h->frames[s->frame - 1];
	}
	if (ap_grow(&h->frames, &h->cap_frames, h->nframes + 1, sizeof(*h->frames)))
		return NULL;
	h->slots[k] = (struct host_slot){ ip, dso, (uint32_t)h->nframes + 1 };
	memset(&h->frames[h->nframes], 0, sizeof(*h->frames));
	h->frames[h->nframes].dso = dso;
	h->frames[h->nframes].ip = ip;
	return &h->frames[h->nframes++];
}

void profile_host__sample(void *host, const struct pd_sample *s, uint64_t t)
{
	struct profile_host *h = host;
	int kernel = s->cpumode == PERF_RECORD_MISC_KERNEL ||
		     s->cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	const struct host_map *m = NULL;
	struct profile_host_frame *f;
	uint32_t dso;

	if (s->has_ip)
		m = lookup(h, kernel ? KERNEL_PID : s->sid.pid, s->ip, t);
	if (m) {
		dso = m->dso;
	} else {
		uint32_t *known = kernel && s->has_ip ? &h->kernel_dso : &h->unknown_dso;

		if (!*known)
			*known = intern(h, known == &h->kernel_dso ? "[kernel.kallsyms]" :
					"[unknown]") + 1;
		dso = *known - 1;
	}
	f = dso == UINT32_MAX ? NULL : frame_get(h, dso, s->has_ip ? s->ip : 0);
	if (!f) {
		h->lost++;
		return;
	}
	if (!f->samples && m) {
		f->map_start = m->start;
		f->map_end = m->end;
		f->pgoff = m->pgoff;
		f->ino = m->ino;
		f->dev_major = m->maj;
		f->dev_minor = m->min;
	}
	f->kernel = kernel;
	f->samples++;
	h->samples++;
}

static int frame_cmp(const void *a, const void *b)
{
	const struct profile_host_frame *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->dso != y->dso)
		return x->dso < y->dso ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static void free_timeline(struct profile_host *h)
{
	for (uint32_t i = 0; i < h->nprocs; i++) {
		free(h->procs[i].maps);
		free(h->procs[i].execs);
	}
	free(h->procs);
	h->procs = NULL;
	h->nprocs = 0;
	h->cap_procs = 0;
	free(h->slots);
	h->slots = NULL;
	h->nslots = 0;
}

int profile_host__finish(struct profile_host *h, struct ap_err *err)
{
	free_timeline(h);
	if (h->nframes)
		qsort(h->frames, h->nframes, sizeof(*h->frames), frame_cmp);
	if (h->lost)
		return ap_err_nomem(err);
	return 0;
}

void profile_host__exit(struct profile_host *h)
{
	free_timeline(h);
	for (uint32_t i = 0; i < h->ndsos; i++)
		free(h->dsos[i]);
	free(h->dsos);
	for (size_t i = 0; i < h->nsymstore; i++)
		free(h->symstore[i]);
	free(h->symstore);
	free(h->frames);
	memset(h, 0, sizeof(*h));
}
