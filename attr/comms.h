/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_COMMS_H
#define AOTPERF_ATTR_COMMS_H
/*
 * The command of each process of a recording, as perf names it (its COMM
 * records): the last name a process's main thread (tid == pid) took, an
 * exec's or one the recording synthesized for a process already running;
 * a fork child that never named itself keeps its parent's. Filled by
 * attr__run() from every COMM and FORK record it reads (a record read
 * twice sets the same name again), so a mapping's pid names its command.
 */
#include <stddef.h>
#include <stdint.h>

struct attr_comm {
	uint32_t pid;
	uint32_t ppid;		/* FORK's parent, 0: none seen */
	char comm[16];		/* perf's TASK_COMM_LEN; "" until named */
};

struct attr_comms {
	struct attr_comm *v;
	size_t n, cap;
};

/* A COMM record of thread tid of pid; 0, or -1 when out of memory. */
int attr_comms__comm(struct attr_comms *c, uint32_t pid, uint32_t tid, const char *comm);
/* A FORK record: a new process pid of parent ppid; 0, or -1 when out of memory. */
int attr_comms__fork(struct attr_comms *c, uint32_t pid, uint32_t ppid);
/* pid's command, "" when the recording never named it (nor its parents). */
const char *attr_comms__get(const struct attr_comms *c, uint32_t pid);
void attr_comms__exit(struct attr_comms *c);

#endif
