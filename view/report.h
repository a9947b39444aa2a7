/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_REPORT_H
#define AOTPERF_VIEW_REPORT_H
/*
 * The view of `aotperf report` for one sampling event (docs/views.md):
 * everything its text, JSON, Markdown and HTML say about a profile
 * (profile/profile.h), computed once: the run card (samples, in wasm,
 * outside wasm, their shares, a cut recording's words), each core's block
 * (its mapping and the one word saying how it was found, its processes,
 * its ranked functions under the --top / --percent-limit cut), the
 * samples outside wasm by DSO and symbol under the same cut, perf's
 * --sort table, and each classified function (view/classes.h: its class
 * table and verdict, hottest instructions, listing, loops), and the
 * run's lever table (levers.h, report --levers). The formats
 * (render/report-*.c) only format it; aotperf report, record and the
 * dlfilter build it from their profiles.
 *
 * The call-graph and off-CPU views of the same profile are their own
 * (render/callgraph-*.c, render/offcpu*.c).
 */
#include <stdint.h>
#include "classes.h"
#include "levers.h"
#include "listing.h"
#include "loops.h"
#include "table.h"
#include "../profile/profile.h"
#include "../profile/sorted.h"
#include "../util/err.h"

struct view_report_opts {
	uint64_t top;			/* rows shown per table (text, Markdown, top_functions); 0: all */
	double percent_limit;		/* rows under this % of the run leave every format (perf's) */
	uint32_t hottest;		/* hottest instructions per classified function */
	const char *pin_word;		/* how the front end names a pin: "--base", "base=" */
	int all_classes;		/* class tables: also the classes without samples or instructions */
	int listings;			/* each classified function's whole listing (HTML) */
	uint32_t nasked;		/* the profile's first nasked functions were asked for
					 * (--func, --hot); those after only the pages show */
	const enum profile_sort_key *sort_keys;	/* --sort: the one table asked for; NULL: none */
	uint32_t nsort_keys;
};

/* A process that mapped a core (the text lists them when there are several). */
struct view_report_proc {
	uint32_t pid;
	const char *command;
	uint64_t base, len;		/* its first mapping */
	int more;			/* it has more than one */
	uint64_t samples;
	double pct;			/* of the run */
};

struct view_report_core {
	const struct attr_core *c;
	const struct cwasm_module *mod;
	const char *name;		/* the label, or the path of a lone core */
	char target[160];		/* what its target info says, in words */
	char how[96];			/* how its mapping was found: "exact size, unique", ... */
	const char *noun;		/* "mapping", or "region" (samples fed) */
	uint64_t expected_size;		/* its text, page-rounded */
	int pin_not_text;		/* pinned to a mapping of another size than its text */
	int authoritative;		/* mapping unique and consistent, not pinned */
	double pct;			/* its samples, of the run */
	double consistency_pct;		/* sampled addresses that fit its code */
	struct vt_table *funcs;		/* ranked functions: the cut applied */
	/* with opts.listings, every function: local_func, samples, code_bytes, name, %run */
	struct vt_table *all_funcs;
	struct vt_table *mappings;	/* each mapping: pid, command, base, size, samples */
	struct view_report_proc *procs;	/* by process, in the order first mapped */
	uint32_t nprocs;
};

/* A function looked at closely (--func, --hot): profile_func with its tables. */
struct view_report_func {
	const struct profile_func *pf;
	int asked;			/* by --func or --hot: every format shows it */
	const struct cwasm_module *mod;
	const char *name;		/* wasm name, or NULL */
	char label[96];			/* "local_func_12", with "modM:" in front of a manifest's */
	uint64_t samples;
	double pct;			/* of the run */
	uint32_t ninsns;		/* instructions, jump-table words not counted */
	char roles[256];		/* the registers' roles in words */
	struct view_classes cls;	/* class table, lines and verdict (classes.h) */
	struct vt_table *hottest;	/* its hottest instructions */
	struct view_listing listing;	/* every instruction (opts.listings), else empty */
	uint64_t address;		/* where the listing puts its first byte */
	struct view_loops *loops;	/* its hot loops and what-if; NULL without */
};

struct view_report {
	const struct profile *p;
	struct view_report_opts o;
	/* the run card */
	const char *event;		/* the samples' event, or NULL */
	uint64_t total;			/* samples of the run */
	uint64_t in_wasm, outside;	/* in any core's text; the others */
	double in_wasm_pct, outside_pct;
	int truncated;			/* cut short: cut_words say how */
	char cut_words[200];
	int authoritative;		/* every core's mapping unique and consistent, none pinned */
	struct view_report_core *cores;
	uint32_t ncores;
	/* the samples outside wasm by (DSO, symbol); NULL without p->host */
	struct vt_table *host;
	uint64_t host_samples;
	double host_pct;
	struct vt_table *sorted;	/* --sort's table; NULL unless asked */
	uint32_t sorted_left;		/* its rows not shown */
	struct view_report_func *funcs;	/* the classified ones, in the order asked */
	uint32_t nfuncs;
	struct view_levers *levers;	/* the run's lever table (p->levers); NULL without */
};

/* Build the view of p (finished; its functions classified); 0 and *out, or -1 with err. */
int view_report__new(const struct profile *p, const struct view_report_opts *o,
		     struct view_report **out, struct ap_err *err);
void view_report__delete(struct view_report *v);

/* The function of the i-th row (cut order) of a core's table, and its share of the run. */
uint32_t view_report__func_of(const struct view_report_core *c, uint32_t i);
double view_report__func_pct(const struct view_report_core *c, uint32_t i);
/* The row of a core's table holding local function func, or -1 (no samples, or cut). */
int64_t view_report__func_row(const struct view_report_core *c, uint32_t func);

#endif
