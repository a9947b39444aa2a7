// SPDX-License-Identifier: MIT
/* Stack symbols by name, as every call-graph format names them (callgraph.h). */
#include <stdio.h>
#include <string.h>
#include "callgraph.h"
#include "../cwasm/coreset.h"

const char *view__wasm_name(const struct profile *p, uint32_t core, uint32_t func, char *buf,
			    size_t len)
{
	const struct cwasm_module *m = p->attr.cores[core].mod;
	const char *wname = func < m->nfuncs ? m->funcs[func].name : NULL;

	snprintf(buf, len, "%s%slocal_func_%u%s%s",
		 p->attr.ncores > 1 ? core_set__core_name(m) : "", p->attr.ncores > 1 ? ":" : "",
		 func, wname ? ":" : "", wname ? wname : "");
	return buf;
}

const char *view__stack_name(const struct profile *p, const struct stack_sym *s, char *buf,
			     size_t len)
{
	if (s->kind != STACK_WASM)
		return s->name;
	return view__wasm_name(p, s->core, s->func, buf, len);
}

int64_t view__stack_find(const struct profile *p, const char *spec)
{
	const struct profile_stacks *st = p->stacks;
	struct core_func cf;
	struct ap_err err;
	char buf[256];

	if (!core_set__resolve(p->cs, spec, &cf, &err))
		return stacks__find_wasm(st, cf.core, cf.func);
	for (uint32_t i = 1; i < st->nsyms; i++)
		if (!strcmp(view__stack_name(p, &st->syms[i], buf, sizeof(buf)), spec))
			return i;
	return -1;
}
