/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PLUGIN_DLF_H
#define AOTPERF_PLUGIN_DLF_H
/*
 * State of one loaded aotperf dlfilter: perf hands it back to every entry
 * point through the `void *data` that start() sets. Nothing global. The
 * analysis is the library's: the cores (cwasm/coreset.h), the regions
 * found from samples (attr/regions.h), the profile they feed
 * (profile/profile.h) and its report (render/report.h).
 */
#include <stdint.h>
#include <stdio.h>
#include "../attr/regions.h"
#include "../cwasm/coreset.h"
#include "../profile/profile.h"
#include "../util/err.h"
#include "../util/outset.h"

#define DLF_NAME "aotperf-dlfilter"

struct dlf {
	struct core_set cs;
	struct profile *p;		/* its cores carry the pins the regions need */
	struct rg_table rg;

	/* dlargs */
	char *func_spec;		/* func=N | func=modM:N | func=NAME */
	int has_func;			/* 0: no function filter */
	struct core_func func;
	char *event;			/* event=NAME */
	char *out_path;			/* out=FILE, else stderr */
	FILE *out;			/* opened by start(): fail before the run */
	char *json_path;		/* json=FILE */
	const char *json_name;		/* the name json= is written under */
	struct outset outs;		/* out= and json=: renamed into place at stop(), together */
	char *roles;			/* roles=SPEC for the class table */
	enum cwasm_arch arch;		/* arch=: decode as this, whatever the target info says */
	char *frame_prefix;		/* frame-attribution=PREFIX: sidecars by name */
	char *frame_meta;		/* frame-metadata=FILE: func='s sidecar */
	uint64_t top;
	int quiet;

	/* the recording perf script reads, when it is cut short (docs/damaged-recordings.md) */
	char *input;			/* perf script's -i, else perf.data; NULL: stdin */
	int cut;			/* cut short (perfdata__cut_short) */
	uint64_t cut_read, cut_expected; /* its data bytes (whole or not) */

	/* counts the profile does not keep */
	uint64_t kept;			/* passed on to perf script's output */
	uint64_t anon_other;		/* in an anonymous exec map that is no core */
	uint64_t other_start, other_len; /* the first such map, for the note */
	uint64_t injected;		/* in a file an inject step wrote: the wrong input */
	int oom;			/* a region was lost */
};

/* stop(): the per-core tables, the class mix, and json= if asked. */
int dlf__summary(struct dlf *d, struct ap_err *err);
/* Close out= (written under its temporary name): 0, or -1 when a write failed. */
int dlf__close_out(struct dlf *d, struct ap_err *err);

#endif
