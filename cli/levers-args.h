/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_LEVERS_ARGS_H
#define AOTPERF_CLI_LEVERS_ARGS_H
/*
 * report --levers and its options: the run's lever table (profile/levers.h,
 * docs/levers.md), computed into each event's profile (p->levers).
 */
#include "../cwasm/coreset.h"
#include "../profile/levers.h"
#include "../spills/spills-log.h"

enum { LEVERS_OPT_ON = 1300, LEVERS_OPT_SHARE, LEVERS_OPT_MAX, LEVERS_OPT_LOOP_MIN,
       LEVERS_OPT_SPILLS };

#define LEVERS_LONGOPTS                                                          \
	{ "levers", no_argument, NULL, LEVERS_OPT_ON },                          \
	{ "levers-share", required_argument, NULL, LEVERS_OPT_SHARE },           \
	{ "levers-max", required_argument, NULL, LEVERS_OPT_MAX },               \
	{ "levers-loop-min", required_argument, NULL, LEVERS_OPT_LOOP_MIN },     \
	{ "spill-log", required_argument, NULL, LEVERS_OPT_SPILLS }

#define LEVERS_MAX_CORES 256

struct levers_args {
	int on;				/* --levers (or one of its options) */
	struct lp_levers_opts o;
	const char *spill_path;
	struct spill_log log;
	int log_read;
	uint64_t mods[LEVERS_MAX_CORES];	/* each core's module in the log */
};

void levers_args__init(struct levers_args *l);
/* 1 when c is ours (handled), 0 when not, -1 on a bad value (err names the option). */
int levers_args__option(struct levers_args *l, int c, const char *arg, struct ap_err *err);
/* Once the cores are known: the spill log read and its modules (a manifest's idx, else 0). */
int levers_args__prepare(struct levers_args *l, const struct core_set *cs, const char *roles,
			 struct ap_err *err);
/* The table into p->levers (nothing unless asked). */
int levers_args__run(struct levers_args *l, struct profile *p, struct ap_err *err);
void levers_args__exit(struct levers_args *l);

#endif
