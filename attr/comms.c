// SPDX-License-Identifier: MIT
/* The command of each process (see comms.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "comms.h"
#include "../util/array.h"

/* Few processes per recording: a linear search, newest first. */
static struct attr_comm *find(const struct attr_comms *c, uint32_t pid)
{
	for (size_t i = c->n; i-- > 0;)
		if (c->v[i].pid == pid)
			return &c->v[i];
	return NULL;
}

static struct attr_comm *get_or_add(struct attr_comms *c, uint32_t pid)
{
	struct attr_comm *e = find(c, pid), add = { .pid = pid };

	if (e)
		return e;
	if (ap_push(&c->v, &c->n, &c->cap, &add, sizeof(add)))
		return NULL;
	return &c->v[c->n - 1];
}

int attr_comms__comm(struct attr_comms *c, uint32_t pid, uint32_t tid, const char *comm)
{
	struct attr_comm *e;

	if (pid != tid)	/* a thread's own name is not the process's command */
		return 0;
	e = get_or_add(c, pid);
	if (!e)
		return -1;
	snprintf(e->comm, sizeof(e->comm), "%s", comm);
	return 0;
}

int attr_comms__fork(struct attr_comms *c, uint32_t pid, uint32_t ppid)
{
	struct attr_comm *e;

	if (pid == ppid)	/* a new thread */
		return 0;
	e = get_or_add(c, pid);
	if (!e)
		return -1;
	e->ppid = ppid;
	return 0;
}

const char *attr_comms__get(const struct attr_comms *c, uint32_t pid)
{
	/* up the fork chain while a process has no name of its own; bounded against cycles */
	for (int depth = 0; depth < 64; depth++) {
		const struct attr_comm *e = find(c, pid);

		if (!e)
			return "";
		if (e->comm[0] || !e->ppid)
			return e->comm;
		pid = e->ppid;
	}
	return "";
}

void attr_comms__exit(struct attr_comms *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}
