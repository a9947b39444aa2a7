// SPDX-License-Identifier: MIT
/*
 * perfdata/tracing_format.h: the pre-check that stands before
 * libtraceevent. A kernel format is rebuilt line for line with an empty
 * print format (whatever its print format held); tracepoints aotperf does
 * not decode are skipped; texts off the kernel's layout are refused.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "perfdata/tracing_format.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char sys_enter[] =
	"name: sys_enter\nID: 443\nformat:\n" COMMON
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx)\", REC->id, REC->args[0 ((((\n";

static enum tracing_format_verdict clean(const char *sys, const char *text, char **out)
{
	size_t len = 0;
	enum tracing_format_verdict v;

	*out = NULL;
	v = tracing_format__clean(sys, text, strlen(text), out, &len);
	if (v == TRACING_FORMAT_OK)
		CHECK_EQ_U64(len, strlen(*out));
	return v;
}

static void check_rebuilt(void)
{
	char *out;

	/* a print format libtraceevent could choke on never reaches it */
	CHECK(clean("raw_syscalls", sys_enter, &out) == TRACING_FORMAT_OK);
	CHECK(out && !strcmp(out, "name: sys_enter\nID: 443\nformat:\n" COMMON
			     "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
			     "\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
			     "print fmt: \"\"\n"));
	free(out);
	CHECK(clean("syscalls", "name: sys_enter_read\nID: 7\nformat:\n" COMMON
		    "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
		    "\tfield:const char * buf;\toffset:16;\tsize:8;\tsigned:0;\n\nprint fmt: x",
		    &out) == TRACING_FORMAT_OK);
	CHECK(out && strstr(out, "field:__data_loc char[] name;") && strstr(out, "const char * buf;"));
	free(out);
}

static void check_unwanted(void)
{
	char *out;

	CHECK(clean("sched", "name: sched_wakeup\nID: 1\nformat:\n" COMMON "\nprint fmt: \"\"\n",
		    &out) == TRACING_FORMAT_UNWANTED && !out);
	CHECK(clean("ftrace", "name: function\nID: 1\n", &out) == TRACING_FORMAT_UNWANTED);
	CHECK(clean("raw_syscalls", "name: sys_enterx\nID: 1\n", &out) == TRACING_FORMAT_UNWANTED);
	CHECK(clean("syscalls", "name: sys_enter_\nID: 1\n", &out) == TRACING_FORMAT_UNWANTED);
}

static void check_malformed(void)
{
	static const char *const bad[] = {
		"",
		"name: sys_enter",					/* cut after the name */
		"name: sys_enter\nID: 4294967296\nformat:\n" COMMON "\nprint fmt: \"\"",
		"name: sys_enter\nID: 1x\nformat:\n" COMMON "\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n\n\nprint fmt: \"\"",	/* no common fields */
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\n",		/* no print format */
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:2;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long id;\toffset:99999;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long (id);\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:id;\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long  id;\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long id[x];\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long *;\toffset:8;\tsize:8;\tsigned:1;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1; \n\nprint fmt: \"\"",
		/* a type that goes on after [N] (libtraceevent leaks on it; fuzzing) */
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:char[16] short id;\toffset:8;\tsize:2;\tsigned:0;\n\nprint fmt: \"\"",
		"name: sys_enter\nID: 1\nformat:\n" COMMON "\tfield:char[2] id[4];\toffset:8;\tsize:8;\tsigned:0;\n\nprint fmt: \"\"",
	};
	char *out;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(clean("raw_syscalls", bad[i], &out) == TRACING_FORMAT_MALFORMED && !out);
}

int main(void)
{
	check_rebuilt();
	check_unwanted();
	check_malformed();
	CHECK_DONE();
}
