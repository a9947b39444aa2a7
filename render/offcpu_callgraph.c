// SPDX-License-Identifier: MIT
/* Off-CPU and wall-clock call-graph views (offcpu_callgraph.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "callgraph.h"
#include "offcpu_callgraph.h"
#include "../profile/offcpu.h"
#include "../profile/stacks.h"
#include "../view/callgraph.h"
#include "../util/outfile.h"

int render__cpu_state_parse(const char *s)
{
	return !strcmp(s, "on") ? VIEW_CPU_ON : !strcmp(s, "off") ? VIEW_CPU_OFF :
	       !strcmp(s, "both") ? VIEW_CPU_BOTH : -1;
}

static void put_off(FILE *out, const struct profile *p)
{
	const struct profile_offcpu *oc = p->offcpu;
	char name[256];

	for (uint32_t i = 0; i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];
		const char *sys;

		/* outermost first: frames are innermost first */
		for (uint32_t k = s->n; k-- > 0;) {
			uint64_t f = oc->frames[s->off + k];
			struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(f >> 32),
						 .func = (uint32_t)f };

			render__folded_name(out, view__stack_name(p, &sym, name, sizeof(name)));
			fputc(';', out);
		}
		if (s->via) {
			render__folded_name(out, s->via);
			fputc(';', out);
		}
		/* the system call waited in, inside the import (none: no frame) */
		if ((sys = offcpu_stack__sys_frame(s, name, sizeof(name)))) {
			render__folded_name(out, sys);
			fputc(';', out);
		}
		fprintf(out, "[%s] %" PRIu64 "\n", offcpu_state__name(s->state), s->ns);
	}
}

/*
 * The on-CPU stacks in ns: each node's samples' periods summed (ns of CPU
 * time for cpu-clock), not its count times a mean period of other samples.
 */
static void put_on_ns(FILE *out, const struct profile *p)
{
	const struct profile_stacks *st = p->stacks;

	for (uint32_t n = 1; n < st->nnodes; n++) {
		if (!st->nodes[n].self)
			continue;
		render__folded_path(out, p, n);
		fprintf(out, " %" PRIu64 "\n", st->nodes[n].self_period);
	}
}

int render__folded_state_file(const char *path, const struct profile *p,
			      enum view_cpu_state state, struct ap_err *err)
{
	struct outfile o;

	if (state == VIEW_CPU_ON)
		return render__folded_file(path, p, err);
	if (!p->offcpu)
		return ap_errf(err, "%s: off-CPU stacks need a recording with context switches"
			       " or offcpu-time samples", path);
	if (outfile__open(&o, path, err))
		return -1;
	put_off(o.f, p);
	if (state == VIEW_CPU_BOTH)
		put_on_ns(o.f, p);
	return outfile__commit(&o, err);
}
