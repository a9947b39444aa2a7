/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_REPORT_PERF_H
#define AOTPERF_CLI_REPORT_PERF_H
/*
 * perf report's display options that aotperf report takes with perf's
 * meaning: --percent-limit, -n/--show-nr-samples, --stdio, -s/--sort.
 */
#include <stdint.h>
#include "cli.h"
#include "../profile/sorted.h"

enum { RPERF_OPT_LIMIT = 1200, RPERF_OPT_STDIO };

#define RPERF_SHORTOPTS "ns:"
#define RPERF_LONGOPTS                                                             \
	{ "percent-limit", required_argument, NULL, RPERF_OPT_LIMIT },             \
	{ "show-nr-samples", no_argument, NULL, 'n' },                             \
	{ "stdio", no_argument, NULL, RPERF_OPT_STDIO },                           \
	{ "sort", required_argument, NULL, 's' }

#define RPERF_MAX_KEYS 5

struct report_perf {
	double percent_limit;
	int show_nr, stdio;
	const char *sort;	/* as given; NULL: the default view */
	enum profile_sort_key keys[RPERF_MAX_KEYS];	/* in the order given */
	uint32_t nkeys;
};

/* --sort asks for more than the default view (function alone). */
int report_perf__sorted(const struct report_perf *o);

/* 1 when c was one of ours, 0 when not, -1 on a bad value (err names the option). */
int report_perf__option(struct report_perf *o, int c, const char *arg, struct ap_err *err);

#endif
