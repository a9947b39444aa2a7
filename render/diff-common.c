// SPDX-License-Identifier: MIT
/* What the diff's formats share with compare and report -i (diff.h). */
#include <stdlib.h>
#include <string.h>
#include "diff.h"
#include "html_data.h"
#include "../cwasm/coreset.h"
#include "../util/json_out.h"

/* core c's self samples per function, summed over the side's recordings */
static uint64_t *summed(const struct cmp_side *s, uint32_t c)
{
	uint32_t nf = s->mods[c]->nfuncs;
	uint64_t *v = calloc(nf ? nf : 1, sizeof(*v));

	for (uint32_t k = 0; v && k < s->ncaptures; k++)
		for (uint32_t f = 0; f < nf; f++)
			v[f] += s->captures[k].self[c][f];
	return v;
}

int render__html_core_block(struct json_out *j, const struct cmp_side *s, uint32_t c, int top,
			    struct ap_err *err)
{
	const struct cwasm_module *m = s->mods[c];
	uint64_t *v = summed(s, c), in = 0, total = 0;

	if (!v)
		return ap_err_nomem(err);
	for (uint32_t f = 0; f < m->nfuncs; f++)
		in += v[f];
	for (uint32_t k = 0; k < s->ncaptures; k++)
		total += s->captures[k].total;
	if (!top)
		json_begin_obj(j);
	json_key(j, "core");
	json_str(j, core_set__core_name(m));
	json_key(j, "cwasm");
	json_str(j, m->path);
	json_key(j, "function_count");
	json_u64(j, m->nfuncs);
	json_key(j, "import_function_count");
	json_u64(j, m->import_func_count);
	json_key(j, "target");
	html_data__target(j, m);
	if (!top) {
		json_key(j, "total_samples");
		json_u64(j, total);
	}
	json_key(j, "attributed_samples");
	json_u64(j, in);
	json_key(j, "functions");
	html_data__functions(j, m, v);
	if (!top)
		json_end_obj(j);
	free(v);
	return 0;
}

const char *render__tail(const char *s, size_t width, char *buf, size_t len)
{
	size_t n = strlen(s);

	if (n <= width || width < 4)
		return s;
	snprintf(buf, len, "...%s", s + n - (width - 3));
	return buf;
}
