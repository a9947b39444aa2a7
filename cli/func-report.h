/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_FUNC_REPORT_H
#define AOTPERF_CLI_FUNC_REPORT_H
/*
 * report --func / --hot: per-instruction samples of chosen functions,
 * classified with classify/ (the same table classify and annotate print).
 */
#include <stdio.h>
#include "attr-args.h"
#include "../util/json_out.h"

struct fa_sidecar;

#define FUNC_MAX_PICKS 32

struct func_pick {
	const char *spec;  /* as given: N, NAME, or CORE:N / CORE:NAME */
	int core;          /* resolved */
	uint32_t func;
	/* --frame-attribution: the sidecar, NULL when absent; where it was looked for */
	struct fa_sidecar *fa;
	char *fa_path;
};

struct func_report {
	struct func_pick picks[FUNC_MAX_PICKS];
	uint32_t npicks;
	uint32_t hot;          /* --hot K */
	const char *roles;     /* --roles SPEC */
	const char *frame_attr; /* --frame-attribution PREFIX */
	/* per (core, text offset) sample counts, collected during attribution */
	struct {
		uint64_t *keys;    /* core << 40 | offset, +1 so 0 is empty */
		uint64_t *counts;
		size_t cap, n;
	} ips;
	int oom;
};

int func_report__add_spec(struct func_report *fr, const char *spec, struct ap_err *err);
/* Install the sample hook (before attr_args__run) when anything was asked. */
void func_report__hook(struct func_report *fr, struct attr_opts *opts);
/* Resolve names/indices and --hot after attribution; load the sidecars. */
int func_report__resolve(struct func_report *fr, const struct attr_result *res,
			 struct ap_err *err);
int func_report__print(struct func_report *fr, const struct attr_result *res, FILE *out,
		       struct ap_err *err);
/* "classified_function" (the first) and "classified_functions" (all). */
int func_report__json(struct func_report *fr, const struct attr_result *res,
		      struct json_out *j, struct ap_err *err);
void func_report__exit(struct func_report *fr);

#endif
