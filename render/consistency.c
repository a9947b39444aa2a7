// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include "consistency.h"
#include "../util/term.h"

void render__consistency_text(FILE *out, const struct attr_core *c, size_t cols)
{
	const struct attr_consistency *cs = &c->consistency;
	char line[400];

	if (!cs->computed)
		return;
	fprintf(out, "  consistency %" PRIu64 " of %" PRIu64 " sampled addresses fit the code"
		" (%.2f%%)\n", cs->consistent, cs->checked, attr_consistency__pct(cs));
	/* a line of its own: the counts of a big recording would pass 80 columns */
	if (cs->returns)
		fprintf(out, "              %" PRIu64 " of them return addresses\n", cs->returns);
	else if (c->mod->target.arch == CWASM_ARCH_AARCH64)
		/* every aligned word is an instruction start: docs/consistency.md */
		fprintf(out, "              (ips alone on aarch64: -g adds return addresses)\n");
	if (attr_consistency__ok(cs))
		return;
	snprintf(line, sizeof(line), "  NOT consistent: %" PRIu64 " mid-instruction, %" PRIu64
		 " in data, %" PRIu64 " in padding, %" PRIu64 " in trap blocks, %" PRIu64
		 " returns not after a call (need %.0f%%): not the build that was recorded?"
		 " Not authoritative", cs->mid_instruction, cs->in_data, cs->in_padding,
		 cs->in_trap, cs->bad_return, ATTR_CONSISTENT_MIN_PCT);
	ap_term__wrap(out, line, cols, 4);
}

void render__consistency_json(struct json_out *j, const struct attr_core *c)
{
	const struct attr_consistency *cs = &c->consistency;

	if (!cs->computed) {
		json_null(j);
		return;
	}
	json_begin_obj(j);
	json_key(j, "checked"); json_u64(j, cs->checked);
	json_key(j, "consistent"); json_u64(j, cs->consistent);
	json_key(j, "percent"); json_dbl(j, attr_consistency__pct(cs), 4);
	json_key(j, "mid_instruction"); json_u64(j, cs->mid_instruction);
	json_key(j, "in_data"); json_u64(j, cs->in_data);
	json_key(j, "in_padding"); json_u64(j, cs->in_padding);
	json_key(j, "in_trap"); json_u64(j, cs->in_trap);
	json_key(j, "returns"); json_u64(j, cs->returns);
	json_key(j, "bad_return"); json_u64(j, cs->bad_return);
	json_key(j, "threshold_pct"); json_dbl(j, ATTR_CONSISTENT_MIN_PCT, 1);
	json_key(j, "ok"); json_bool(j, attr_consistency__ok(cs));
	json_end_obj(j);
}
