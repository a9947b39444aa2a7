// SPDX-License-Identifier: MIT
/* util/suggest: distances worked out by hand, and the suggestions a user
 * gets for the misspellings a newcomer made. */
#include "check.h"
#include "../../util/suggest.h"

static const char *const commands[] = {
	"report", "perfmap", "jitdump", "inject", "record", "classify", "annotate",
	"doctor", "spills", "attr", "diff", "compare",
};
#define NCMD (sizeof(commands) / sizeof(commands[0]))

static const char *const report_opts[] = {
	"input", "cwasm", "manifest", "func", "hot", "top", "json", "base", "pid",
	"event", "wide",
};
#define NOPT (sizeof(report_opts) / sizeof(report_opts[0]))

static int same(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

int main(void)
{
	CHECK_EQ_U64(ap_edit_distance("", ""), 0);
	CHECK_EQ_U64(ap_edit_distance("abc", ""), 3);
	CHECK_EQ_U64(ap_edit_distance("repot", "report"), 1);	/* one insertion */
	CHECK_EQ_U64(ap_edit_distance("cwams", "cwasm"), 1);	/* one swap */
	CHECK_EQ_U64(ap_edit_distance("kitten", "sitting"), 3);
	CHECK_EQ_U64(ap_edit_distance("abc", "ca"), 3);	/* OSA: no edit inside a swap */

	CHECK(same(ap_suggest("repot", commands, NCMD), "report"));
	CHECK(same(ap_suggest("injcet", commands, NCMD), "inject"));
	CHECK(same(ap_suggest("anotate", commands, NCMD), "annotate"));
	CHECK(same(ap_suggest("cwams", report_opts, NOPT), "cwasm"));
	CHECK(same(ap_suggest("manfest", report_opts, NOPT), "manifest"));
	/* too far from everything: no guess */
	CHECK(same(ap_suggest("frobnicate", commands, NCMD), NULL));
	CHECK(same(ap_suggest("x", report_opts, NOPT), NULL));
	/* as close to two candidates: no guess ("hop" is 1 from "hot" and "top") */
	CHECK(same(ap_suggest("hop", report_opts, NOPT), NULL));
	CHECK(same(ap_suggest("tip", report_opts, NOPT), "top"));
	CHECK(same(ap_suggest("", commands, NCMD), NULL));
	/* an exact word is not "misspelt" */
	CHECK(same(ap_suggest("report", commands, 1), NULL));
	CHECK_DONE();
}
