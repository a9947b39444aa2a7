/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_VIEW_FRAMES_H
#define AOTPERF_VIEW_FRAMES_H
/*
 * The frames view (docs/views.md, docs/sidecar.md): a function's frame
 * traffic by proven origin (frames/summary.h) with every share computed
 * once: coverage of the frame instructions and samples, each origin's
 * share of the frame samples, of the function's samples and of the run,
 * the allocator's sampled share of the function. aotperf's own views
 * (render/frames-*.c) and the upstream helper's (render/helper-*.c)
 * print these numbers, each in its own words and format.
 *
 * And the helper view of `aotperf attr` (docs/helper-interface.md): the
 * run's coverage, the top functions', the classified function's classes'
 * and hottest instructions' shares of the run.
 */
#include <stdint.h>
#include "../frames/frames.h"
#include "../frames/summary.h"
#include "../profile/profile.h"
#include "../profile/sidecar.h"
#include "../util/err.h"

/* One origin's frame instructions and samples, and their shares. */
struct vf_origin {
	const char *name;		/* frames__origin_name, or "not listed (unknown)" */
	uint32_t insns, loads, stores;
	uint64_t samples;
	double pct_func;		/* of the function's samples (0 without) */
	double pct_frame;		/* of its frame samples */
	double pct_run;			/* of the run's samples (0 without) */
};

struct view_frames {
	const struct profile_sidecar *sc;
	const struct frames_summary *s;	/* NULL: the sidecar is not read or not summarized */
	int has_func_samples;		/* %func applies */
	/* coverage, percent: listed and proven, of the frame instructions and samples */
	double static_coverage_pct, sample_coverage_pct;
	double origin_coverage_pct, origin_sample_coverage_pct;
	uint32_t unknown_insns;		/* without a proven origin */
	uint64_t unknown_samples;
	/* the allocator's sampled loads and stores, percent of the function */
	double alloc_pct_func;
	/*
	 * aotperf's rows: each origin with frame instructions ("unknown
	 * (listed)" for the unknown listed), then the frame instructions no
	 * access lists ("not listed (unknown)")
	 */
	struct vf_origin rows[FRAMES__NORIGINS + 1];
	uint32_t nrows;
	/* the helper's: per origin (enum order), unknown holding the unlisted ones too */
	struct vf_origin origin[FRAMES__NORIGINS];
	/* origins with instructions, by samples then name (the helper's text) */
	uint32_t by_samples[FRAMES__NORIGINS];
	uint32_t nby_samples;
};

/* The frames view of sc (its sum may be NULL); func_samples, run_total 0: none. */
void view_frames__init(struct view_frames *v, const struct profile_sidecar *sc,
		       uint64_t func_samples, uint64_t run_total);

/* The helper's shares of one classified function (helper_view, profile/sidecar.h). */
struct view_helper_func {
	const struct helper_view *hv;
	uint32_t func;
	double pct_run;			/* the function's samples, of the run */
	double class_pct[HV_MAX_CLASSES];	/* hv->classes' order */
	uint32_t class_by_samples[HV_MAX_CLASSES];	/* by samples, then name */
	double hot_pct[HV_HOT_MAX];
};

void view_helper_func__init(struct view_helper_func *v, uint32_t func,
			    const struct helper_view *hv, uint64_t run_total);

/* What `aotperf attr` found (cli/cmd-attr.c decides the mapping and the gates). */
struct view_helper_input {
	const struct profile *p;	/* one core: p->attr.cores[0] */
	const char *arch;		/* --arch */
	const char *perf;		/* as given; NULL in static validation */
	const char *cwasm;		/* as given */
	int authoritative;		/* --authoritative and an automatic exact-size mapping */
	double min_pct;			/* --min-attribution-pct */
	uint64_t base, size, page_size, expected_size;	/* the mapping chosen (perf only) */
	int map_authoritative;		/* chosen by the exact-size rule, not --base */
	const char *override;		/* --base as typed, or NULL */
	uint64_t top;			/* --top */
	int truncated;			/* cut short: the data bytes read of those expected */
	uint64_t bytes_read, bytes_expected;
	const struct profile_func *f;	/* --func, or NULL */
};

struct view_helper_top {
	uint32_t func, code_bytes;
	uint64_t samples;
	double pct_run;
};

struct view_helper {
	struct view_helper_input in;
	double read_pct;		/* cut short: the bytes read, percent of those expected */
	double text_mb;			/* the core's text in MB (2^20 bytes) */
	double coverage_pct;		/* the core's samples, percent of the run */
	struct view_helper_top *top;	/* the top --top functions (none in static validation) */
	uint32_t ntop;
	int has_func;			/* --func classified */
	struct view_helper_func func;
	int has_frames;			/* ... with its sidecar read */
	struct view_frames frames;
};

/* The run's part (in->f is read later: view_helper__set_func); 0, or -1 with err. */
int view_helper__new(const struct view_helper_input *in, struct view_helper **out,
		     struct ap_err *err);
/* --func classified (f->hv set): its shares and its sidecar's. */
void view_helper__set_func(struct view_helper *v, const struct profile_func *f);
void view_helper__delete(struct view_helper *v);

#endif
