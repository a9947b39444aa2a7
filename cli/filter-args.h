/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_FILTER_ARGS_H
#define AOTPERF_CLI_FILTER_ARGS_H
/*
 * perf report's sample filters on aotperf's command line (report, diff):
 * --pid and --tid (lists, repeatable), -c/--comm(s), -C/--cpu, --time,
 * into the reading's filter (attr/filter.h), which every view shares.
 */
#include "attr-args.h"

enum { FILTER_OPT_TID = 1100, FILTER_OPT_COMM, FILTER_OPT_CPU, FILTER_OPT_TIME };

/* Spliced into a getopt_long table after ATTR_LONGOPTS; -c and -C are the short forms. */
#define FILTER_SHORTOPTS "c:C:"
#define FILTER_LONGOPTS                                                            \
	{ "tid", required_argument, NULL, FILTER_OPT_TID },                        \
	{ "comm", required_argument, NULL, FILTER_OPT_COMM },                      \
	{ "comms", required_argument, NULL, FILTER_OPT_COMM },                     \
	{ "cpu", required_argument, NULL, FILTER_OPT_CPU },                        \
	{ "time", required_argument, NULL, FILTER_OPT_TIME }

/*
 * c one of FILTER_OPT_*, 'c', 'C' or --pid (ATTR_OPT_PID, taken before
 * attr_args__option sees it): 1 when handled, 0 when not ours, -1 on a bad
 * value (err names the option).
 */
int filter_args__option(struct attr_args *a, int c, const char *arg, struct ap_err *err);
/* --comm, --cpu, --time: diff gives them to both sides; --pid and --tid stay per side. */
int filter_args__shared(int c);
/* After the options: one --pid is attribution's pid too (its mappings only). */
void filter_args__finish(struct attr_args *a);
/* The threads' commands followed for the reading (report --sort comm/pid). 0, or -1 (memory). */
int filter_args__track_comms(struct attr_args *a, struct ap_err *err);
void filter_args__exit(struct attr_args *a);

#endif
