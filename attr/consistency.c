// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdio.h>
#include "consistency.h"

double attr_consistency__pct(const struct attr_consistency *c)
{
	return c->checked ? 100.0 * (double)c->consistent / (double)c->checked : 100.0;
}

int attr_consistency__ok(const struct attr_consistency *c)
{
	uint64_t miss = c->checked - c->consistent;

	return !c->computed || miss <= ATTR_CONSISTENT_SLACK ||
	       (double)c->consistent * 100.0 >= ATTR_CONSISTENT_MIN_PCT * (double)c->checked;
}

void attr_consistency__describe(const struct attr_consistency *c, const char *path, char *buf,
				size_t len)
{
	snprintf(buf, len, "%s: only %" PRIu64 " of %" PRIu64 " sampled addresses (%.2f%%, need %.0f%%)"
		 " fall where its code allows: %" PRIu64 " mid-instruction, %" PRIu64 " in data, %"
		 PRIu64 " in padding, %" PRIu64 " in trap blocks, %" PRIu64 " of %" PRIu64
		 " return addresses not after a call: not the build that was recorded?",
		 path, c->consistent, c->checked, attr_consistency__pct(c), ATTR_CONSISTENT_MIN_PCT,
		 c->mid_instruction, c->in_data, c->in_padding, c->in_trap, c->bad_return,
		 c->returns);
}
