// SPDX-License-Identifier: MIT
/*
 * Collapsed stacks (callgraph.h): "outer;...;leaf COUNT" for every node
 * of the stack tree that samples ended in, the format of Brendan Gregg's
 * stackcollapse scripts that flamegraph.pl, inferno and speedscope read.
 * A ';' or a line break inside a name would split a frame: it becomes '_'.
 */
#include <inttypes.h>
#include <stdlib.h>
#include "callgraph.h"
#include "../util/outfile.h"
#include "../view/callgraph.h"

void render__folded_name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

void render__folded_path(FILE *out, const struct profile *p, uint32_t n)
{
	const struct profile_stacks *st = p->stacks;
	char name[256];

	if (st->nodes[n].parent) {
		render__folded_path(out, p, st->nodes[n].parent);
		fputc(';', out);
	}
	render__folded_name(out, view__stack_name(p, &st->syms[st->nodes[n].sym], name, sizeof(name)));
}

void render__folded(FILE *out, const struct profile *p)
{
	const struct profile_stacks *st = p->stacks;

	for (uint32_t n = 1; n < st->nnodes; n++) {
		if (!st->nodes[n].self)
			continue;
		render__folded_path(out, p, n);
		fprintf(out, " %" PRIu64 "\n", st->nodes[n].self);
	}
}

int render__folded_file(const char *path, const struct profile *p, struct ap_err *err)
{
	struct outfile o;

	if (outfile__open(&o, path, err))
		return -1;
	render__folded(o.f, p);
	return outfile__commit(&o, err);
}
