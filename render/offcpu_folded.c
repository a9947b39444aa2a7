// SPDX-License-Identifier: MIT
/* Off-CPU and wall-clock collapsed stacks (offcpu_folded.h). */
#include <inttypes.h>
#include <string.h>
#include "callgraph.h"
#include "offcpu_folded.h"
#include "../profile/offcpu.h"
#include "../profile/stacks.h"
#include "../util/outfile.h"

int render__cpu_state_parse(const char *s)
{
	return !strcmp(s, "on") ? RENDER_CPU_ON : !strcmp(s, "off") ? RENDER_CPU_OFF :
	       !strcmp(s, "both") ? RENDER_CPU_BOTH : -1;
}

static void put_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

static void put_off(FILE *out, const struct profile *p)
{
	const struct profile_offcpu *oc = p->offcpu;
	char name[256];

	for (uint32_t i = 0; i < oc->nstacks; i++) {
		const struct offcpu_stack *s = &oc->stacks[i];

		/* outermost first: frames are innermost first */
		for (uint32_t k = s->n; k-- > 0;) {
			uint64_t f = oc->frames[s->off + k];
			struct stack_sym sym = { .kind = STACK_WASM, .core = (uint32_t)(f >> 32),
						 .func = (uint32_t)f };

			put_name(out, render__stack_name(p, &sym, name, sizeof(name)));
			fputc(';', out);
		}
		if (s->via) {
			put_name(out, s->via);
			fputc(';', out);
		}
		fprintf(out, "[%s] %" PRIu64 "\n", offcpu_state__name(s->state), s->ns);
	}
}

/* The path from the root's child down to node n. */
static void put_path(FILE *out, const struct profile *p, uint32_t n)
{
	const struct profile_stacks *st = p->stacks;
	char name[256];

	if (st->nodes[n].parent) {
		put_path(out, p, st->nodes[n].parent);
		fputc(';', out);
	}
	put_name(out, render__stack_name(p, &st->syms[st->nodes[n].sym], name, sizeof(name)));
}

/* The on-CPU stacks, each node's samples x the mean on-CPU period in ns. */
static void put_on_ns(FILE *out, const struct profile *p)
{
	const struct profile_stacks *st = p->stacks;
	const struct profile_offcpu *oc = p->offcpu;
	double on_ns = 0;

	for (uint32_t i = 0; i < oc->nprocs; i++)
		on_ns += (double)oc->procs[i].on_ns;
	if (!st->samples)
		return;
	for (uint32_t n = 1; n < st->nnodes; n++) {
		if (!st->nodes[n].self)
			continue;
		put_path(out, p, n);
		fprintf(out, " %.0f\n", (double)st->nodes[n].self * on_ns / (double)st->samples);
	}
}

int render__folded_state_file(const char *path, const struct profile *p,
			      enum render_cpu_state state, struct ap_err *err)
{
	struct outfile o;

	if (state == RENDER_CPU_ON)
		return render__folded_file(path, p, err);
	if (!p->offcpu)
		return ap_errf(err, "%s: off-CPU stacks need a recording with context switches"
			       " or offcpu-time samples", path);
	if (outfile__open(&o, path, err))
		return -1;
	put_off(o.f, p);
	if (state == RENDER_CPU_BOTH)
		put_on_ns(o.f, p);
	return outfile__commit(&o, err);
}
