/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PLUGIN_DLF_H
#define AOTPERF_PLUGIN_DLF_H
/*
 * State of one loaded aotperf dlfilter: perf hands it back to every entry
 * point through the `void *data` that start() sets. Nothing global.
 */
#include <stdint.h>
#include <stdio.h>
#include "hist.h"
#include "regions.h"
#include "../cwasm/cwasm.h"
#include "../util/err.h"

#define DLF_NAME "aotperf-dlfilter"
#define DLF_TOP_DEFAULT 20
#define DLF_HOTTEST 20

struct dlf_core {
	const struct cwasm_module *mod;	/* owned through dlf's files/mans */
	uint64_t base;			/* base= pin, 0 = none */
	uint64_t samples;		/* in its text */
	uint64_t outside_text;		/* in its region, past the text (page tail) */
	uint64_t *func_samples;		/* [mod->nfuncs] */
	uint64_t first_base;		/* start of its first region, in discovery order */
	uint32_t nregions;
};

struct dlf {
	struct dlf_core *cores;
	uint32_t ncores;
	struct cwasm_module **files;
	uint32_t nfiles;
	struct cwasm_manifest **mans;
	uint32_t nmans;
	uint64_t *lens, *bases;		/* per core, for the region table */
	struct rg_table rg;
	struct hist hist;

	/* dlargs */
	char *func_spec;		/* func=N | func=modM:N | func=NAME */
	int func_core;			/* -1: no function filter */
	uint32_t func;
	char *event;			/* event=NAME */
	char *out_path;			/* out=FILE, else stderr */
	FILE *out;			/* opened by start(): fail before the run */
	char *json_path;		/* json=FILE */
	char *roles;			/* roles=SPEC for the class table */
	uint64_t top;
	int quiet;

	/* counts */
	uint64_t total;			/* samples of the selected event seen */
	uint64_t attributed;		/* of those, in some core's text */
	uint64_t kept;			/* passed on to perf script's output */
	uint64_t anon_other;		/* in an anonymous exec map that is no core */
	uint64_t other_start, other_len; /* the first such map, for the note */
	int oom;			/* a count was lost */
};

/* stop(): the per-core tables, the class mix, and json= if asked. */
int dlf__summary(struct dlf *d, struct ap_err *err);

#endif
