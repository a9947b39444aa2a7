// SPDX-License-Identifier: MIT
/*
 * The diff's labels (diff.h): a function's and a core pair's, used by the
 * view's parts (diff*.c) and the formats; apart from diff.c, which builds
 * those parts, so that no two files of view/ use each other.
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"
#include "../cwasm/coreset.h"

static const struct cwasm_module *pair_mod(const struct view_diff *v, const struct cmp_pair *p,
					   int after)
{
	int c = after ? p->after : p->before;
	const struct cmp_side *side = v->in.side[after];

	if (c < 0)
		return NULL;
	return side->mods[c];
}

const char *view_diff__pair_label(const struct view_diff *v, uint32_t pair, char *buf,
				  size_t len)
{
	const struct cmp_pair *p = &v->d->pairs[pair];
	const struct cwasm_module *b = pair_mod(v, p, 0), *a = pair_mod(v, p, 1);
	const char *lb = b ? core_set__core_name(b) : NULL, *la = a ? core_set__core_name(a) : NULL;

	if (lb && la && strcmp(lb, la))
		snprintf(buf, len, "%s -> %s", lb, la);
	else
		snprintf(buf, len, "%s", la ? la : lb ? lb : "?");
	return buf;
}

const char *view_diff__label(const struct view_diff *v, const struct cmp_func *f, char *buf,
			     size_t len)
{
	const char *name = f->name_after ? f->name_after : f->name_before;
	const struct cwasm_module *m = pair_mod(v, &v->d->pairs[f->pair], f->local_after >= 0);
	char local[32];

	if (!name) {
		snprintf(local, sizeof(local), "local_func_%lld",
			 (long long)(f->local_after >= 0 ? f->local_after : f->local_before));
		name = local;
	}
	if (v->d->npairs > 1 && m && m->core_label)
		snprintf(buf, len, "%s:%s", m->core_label, name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}
