// SPDX-License-Identifier: MIT
/*
 * The consistency verdict (attr/consistency.h): the share and the slack,
 * at their edges. The figures themselves are tested on real recordings
 * against the assembler's listing and perf script (tests/e2e/consistency.sh).
 */
#include "check.h"
#include "../../attr/consistency.h"

static struct attr_consistency fig(uint64_t checked, uint64_t consistent)
{
	return (struct attr_consistency){ .computed = 1, .checked = checked,
					  .consistent = consistent };
}

int main(void)
{
	struct attr_consistency c = { 0 };
	char msg[640];

	CHECK(attr_consistency__ok(&c));		/* not computed: nothing to say */
	c = fig(0, 0);
	CHECK(attr_consistency__ok(&c));
	CHECK(attr_consistency__pct(&c) == 100.0);
	c = fig(1000, 990);				/* exactly 99% */
	CHECK(attr_consistency__ok(&c));
	c = fig(1000, 989);
	CHECK(!attr_consistency__ok(&c));
	c = fig(10, 8);					/* 2 miss: the slack */
	CHECK(attr_consistency__ok(&c));
	c = fig(10, 7);
	CHECK(!attr_consistency__ok(&c));
	c = fig(3, 1);
	CHECK(attr_consistency__ok(&c));
	c = fig(1218, 339);
	c.mid_instruction = 851;
	CHECK(!attr_consistency__ok(&c));
	attr_consistency__describe(&c, "old.cwasm", msg, sizeof(msg));
	CHECK_STR_CONTAINS(msg, "old.cwasm: only 339 of 1218 sampled addresses (27.83%");
	CHECK_STR_CONTAINS(msg, "851 mid-instruction");
	CHECK_DONE();
}
