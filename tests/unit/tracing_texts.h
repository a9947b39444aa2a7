/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_TESTS_TRACING_TEXTS_H
#define AOTPERF_TESTS_TRACING_TEXTS_H
/*
 * Tracing-data texts as Linux 6.1 on x86_64 prints them (tracefs
 * events/sched/sched_switch/format, header_page), for the unit tests of
 * perfdata/tracing.h and perfdata/tracing_format.h.
 */

#define TT_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define TT_SCHED_SWITCH \
	"name: sched_switch\nID: 372\nformat:\n" TT_COMMON \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n" \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"prev_comm=%s prev_pid=%d next_pid=%d\", REC->prev_comm," \
	" REC->prev_pid, REC->next_pid\n"

#define TT_PAGE_TS	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
#define TT_PAGE_COMMIT	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
#define TT_PAGE_OVER	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
#define TT_PAGE_DATA	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n"
#define TT_HEADER_PAGE	TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER TT_PAGE_DATA

#endif
