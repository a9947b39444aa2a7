// SPDX-License-Identifier: MIT
/* The off-CPU view's accessors (offcpu.h); offcpu_read.c fills it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offcpu.h"

void offcpu__delete(struct profile_offcpu *oc)
{
	if (!oc)
		return;
	for (uint32_t i = 0; i < oc->nnames; i++)
		free(oc->names[i]);
	free(oc->names);
	for (uint32_t i = 0; i < oc->nfuncs; i++)
		free(oc->funcs[i].syscalls);
	free(oc->syscalls);
	free(oc->kernel_syscalls);
	free(oc->kernel_why);
	free(oc->funcs);
	free(oc->procs);
	free(oc->stacks);
	free(oc->frames);
	free(oc->on_event);
	free(oc);
}

const char *offcpu_stack__sys_frame(const struct offcpu_stack *s, char *buf, size_t len)
{
	if (!s->syscall || !strcmp(s->syscall, "none"))
		return NULL;
	snprintf(buf, len, "[sys] %s", s->syscall);
	return buf;
}

const char *offcpu_state__name(enum offcpu_state s)
{
	static const char *const names[OFFCPU_NSTATES] = { "S", "D", "R", "other" };

	return (unsigned)s < OFFCPU_NSTATES ? names[s] : "other";
}

uint64_t offcpu_proc__wall(const struct offcpu_proc *p)
{
	return p->last > p->first ? p->last - p->first : 0;
}

const struct offcpu_func *offcpu__find(const struct profile_offcpu *oc, uint32_t core,
				       uint32_t func)
{
	for (uint32_t i = 0; oc && i < oc->nfuncs; i++)
		if (oc->funcs[i].core == core && oc->funcs[i].func == func)
			return &oc->funcs[i];
	return NULL;
}
