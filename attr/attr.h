/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_H
#define AOTPERF_ATTR_H

/*
 * Attribution: which `//anon` r-x mapping of which process holds which core,
 * over record time, and the per-function self samples that follow.
 * Everything downstream (report, perf map, jitdump, classify) consumes the
 * result instead of re-reading perf.data; profile/profile.h wraps it with
 * what the renderers need.
 *
 * Mapping rule (documented in docs/mapping.md):
 *  - a candidate for a core is an executable `//anon` MMAP/MMAP2 whose length
 *    equals the core's text size rounded up to the page size;
 *  - per process, candidates are taken in record time order; the j-th
 *    candidate of a given length goes to the (j mod K)-th core of that
 *    length, K cores counted in command-line / manifest order. One core
 *    mapped twice therefore gets both mappings, and two equal-size cores
 *    are told apart by mapping order. Any non-unique case is reported in
 *    the warnings and makes `authoritative` false;
 *  - a later mapping that overlaps an earlier one replaces it from its
 *    time on; exec (COMM_EXEC) and EXIT end a process's mappings; FORK
 *    copies the parent's.
 *  - a pin (aotperf's --base, the dlfilter's base=) gives a core the
 *    mappings starting at that address (any size); a pid filter keeps one
 *    process.
 */
#include <stdint.h>
#include <stdio.h>
#include "../cwasm/cwasm.h"
#include "../perfdata/perfdata.h"
#include "../session/session.h"
#include "../util/err.h"
#include "consistency.h"
#include "comms.h"
#include "filter.h"
#include "hist.h"
#include "rank.h"

struct attr_core {
	const struct cwasm_module *mod; /* borrowed */
	uint64_t base_override;         /* the pin, 0 = none */
	/* results */
	uint64_t samples;               /* inside this core's text */
	uint64_t *func_samples;         /* [mod->nfuncs] */
	uint64_t *func_period;          /* [mod->nfuncs]: the samples' periods summed (CPU time
	                                 * in ns for cpu-clock; attr_sample_period); NULL when
	                                 * fed sample by sample */
	uint64_t outside_text;          /* in the mapping but past text_size (page tail) */
	uint32_t nmappings;             /* distinct mappings attributed to this core */
	uint64_t first_base;            /* start of the first one, 0 if none */
	uint64_t first_len;
	uint32_t candidates;            /* equal-size candidates seen for it */
	uint32_t sharing;               /* unpinned cores of its page-rounded size, itself included */
	int authoritative;              /* mapping_unique, and the samples fit the code (consistency) */
	int mapping_unique;             /* exactly one exact-size mapping, no override */
	struct attr_consistency consistency; /* the samples against the code (attr/consistency.h) */
	struct attr_ranked *ranked;     /* functions with samples, hottest first (attr__rank_cores) */
	uint32_t nranked;
};

/* One attributed mapping: (pid, [start, start+len)) -> core, from time on. */
struct attr_mapping {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint64_t time;     /* record time (or stream position when no time) */
	uint64_t seq;      /* stream position of the MMAP record */
	uint64_t file_offset;
	int core;          /* index into cores, -1 for a non-candidate */
	int is_mmap2;
	int in_compressed; /* the record sits inside a COMPRESSED record */
	uint32_t rec_size; /* bytes of the MMAP/MMAP2 record in the file */
	/* filled by pass 2 */
	uint64_t samples;           /* attributed through this mapping */
	uint64_t first_sample_time; /* UINT64_MAX when none */
};

/*
 * A sample's period, what it stands for: PERF_SAMPLE_PERIOD when recorded
 * (frequency mode: perf adjusts it sample by sample), else the event's
 * fixed sample_period (perf record -c N). For cpu-clock and task-clock it
 * is nanoseconds of CPU time, so the periods summed are the time sampled.
 */
uint64_t attr_sample_period(const struct pd_sample *s, const struct perf_event_attr *attr);

/* An executable //anon mapping as recorded: where and how long. */
struct attr_span {
	uint64_t start, len;
};

/*
 * Hooks for what profile/ reads along with the attribution: the call
 * stacks (profile/stacks.h) and the samples outside wasm, named as perf
 * names them (profile/host.h, profile/hostmaps.h). Each is optional; all
 * get attr_opts.ctx.
 *
 *   on_sample   every selected sample, in a core or not (core -1);
 *   on_map      every address-space record of any process: executable
 *               MMAP/MMAP2 (files, //anon, the kernel's), exec COMM, FORK,
 *               each once, in file order: the two-pass read hands them all
 *               over before the first sample, the one pass as they come;
 *   on_restart  forget every sample (and every record on_other got): the
 *               one pass falls back (what on_map got stands);
 *   on_other    the records attribution does not count: samples of the
 *               events not selected, context switches (SWITCH,
 *               SWITCH_CPU_WIDE) and FINISHED_ROUND, for the off-CPU view
 *               (profile/offcpu.h);
 *   on_begin    the recording's attrs, event names and tracing data are
 *               known (perfdata__tracing): called once, for a file right
 *               after open, for a stream read once (a pipe) before its
 *               first sample, switch or FINISHED_ROUND (perf writes them
 *               all before those; on_sample and on_other get none
 *               earlier), or at the end of a stream without one. It may
 *               set *event, the event to select when attr_opts.event is
 *               NULL (it must outlive the read); 0, or -1 with err: the
 *               read fails.
 *
 * A hook cannot take back what it was given, so when the one-pass read
 * meets a record it cannot order it falls back (on_restart): the rest of
 * that pass only collects the address-space records (on_map gets them
 * there), and one more pass reads the samples against all of them. In a hooked one pass every lookup that finds no core counts for
 * that check (maptable__late), and with on_map so does a late mapping of
 * a file over an address a lookup missed: no hooked sample misses a
 * mapping that arrives too late, a core's or the host's.
 */
struct attr_lookup;

/*
 * The core holding IP in the hooked sample's process at its time: the
 * core's index and *base, the address of its text offset 0 (the
 * mapping's start); -1 when IP is in no core.
 */
int attr_lookup__core(struct attr_lookup *lk, uint64_t ip, uint64_t *base);
/* The hooked sample's time key: what attr_map_event.time is compared with. */
uint64_t attr_lookup__time(const struct attr_lookup *lk);
/* The hooked sample's period (attr_sample_period). */
uint64_t attr_lookup__period(const struct attr_lookup *lk);

/*
 * A selected sample. core >= 0: its ip is in that core's text, in local
 * function func at text offset text_off; core -1: in no core's text (host
 * or kernel code, a core's page past its text, or no ip). lk resolves the
 * sample's other addresses.
 */
typedef void (*attr_sample_fn)(void *ctx, const struct pd_sample *s, int core, uint32_t func,
			       uint64_t text_off, struct attr_lookup *lk);

/* An address-space record as recorded. */
enum attr_map_kind { ATTR_MAP_MMAP, ATTR_MAP_EXEC, ATTR_MAP_FORK };
struct attr_map_event {
	enum attr_map_kind kind;
	uint32_t pid;		/* UINT32_MAX: the kernel (perf's -1) */
	uint32_t ppid;		/* FORK: the parent */
	uint64_t start, len, pgoff;	/* MMAP */
	const char *filename;	/* MMAP: as recorded ("//anon", "[vdso]", ...); valid during the call */
	uint64_t ino;		/* MMAP2 naming device and inode; else 0 */
	uint32_t maj, min;
	uint64_t time;		/* the time key (the record's time, else its position) */
};
/* 0, or -1 when out of memory (the read fails). */
typedef int (*attr_map_fn)(void *ctx, const struct attr_map_event *m);
typedef void (*attr_restart_fn)(void *ctx);
/* A record on_other takes; lk resolves addresses in its process at its time. */
typedef void (*attr_other_fn)(void *ctx, const struct pd_event *ev, struct attr_lookup *lk);
typedef int (*attr_begin_fn)(void *ctx, struct perfdata *pd, const char **event,
			     struct ap_err *err);

struct attr_opts {
	int pid;                 /* -1 = all */
	const char *event;       /* NULL = all events */
	struct sample_filter *filter; /* perf report's --pid/--tid/--comm/--cpu/--time; NULL: none */
	int require_size_match;  /* fail when a core's mapping is not unique */
	int quiet;               /* no warnings to stderr */
	int two_pass;            /* always read mappings first (tests compare both reads) */
	struct attr_hist *hist;  /* when set, every attributed sample is also counted here */
	/* when set, every return address of a callchain (-g) that lies in a core's text */
	struct attr_hist *ret_hist;
	/* hooks (above), each optional, all with ctx */
	attr_sample_fn on_sample;
	attr_map_fn on_map;
	attr_restart_fn on_restart;
	attr_other_fn on_other;
	attr_begin_fn on_begin;
	void *ctx;
	unsigned needs;          /* what the hooks read of a sample (session.h's enum session_need) */
};

struct attr_result {
	uint32_t ncores;
	struct attr_core *cores;
	uint64_t total_samples;       /* of the selected events/pids */
	uint64_t attributed_samples;  /* inside any core's text */
	uint64_t total_period;        /* the selected samples' periods summed (attr_sample_period) */
	uint64_t attributed_period;   /* of those inside any core's text */
	uint32_t nmappings;
	struct attr_mapping *mappings; /* candidate mappings attributed to cores, time order */
	size_t cap_mappings;
	/*
	 * Every executable //anon mapping record of the selected processes,
	 * any size, each (start, len) once, in the order first seen: the
	 * candidates the upstream helper lists (docs/helper-interface.md).
	 */
	struct attr_span *anon;
	uint32_t nanon;
	size_t cap_anon;
	int truncated;
	uint64_t bytes_read, bytes_expected;
	int passes;                   /* reads of the file: 1, or 2 when records came too late */
	uint64_t read_ahead;          /* records the one pass took ahead of their place (lookahead.h) */
	uint64_t read_ahead_bytes;    /* and the bytes its walks read for them */
	int injected;                 /* ATTR_INJECTED_*: mappings of files an inject step wrote */
	struct ap_warnings warnings;  /* non-unique mappings, cores never mapped, a cut file */
	/* what the samples are of: the selected event, or the recording's only one */
	int have_event;               /* 0: several events, none selected */
	char *event_name;             /* as perf names it ("cpu-clock") */
	struct perf_event_attr event_attr; /* its sample_period / sample_freq, type, config */
	struct attr_comms comms;      /* each process's command (comms.h): mappings' pids name it */
};

/*
 * Attribute the samples of the recording s reads (one pass when it can,
 * else mappings first, then samples). cores[] is filled by the caller
 * (mod, base_override); results are written into it. Returns 0 or -1 with
 * err ("perf.data: no samples", ...; AP_ERR_GATE when require_size_match
 * failed; the hint AP_HINT_PIN_CORE when a pin would help,
 * AP_HINT_NO_CORE_MAP when no mapping has a core's size,
 * AP_HINT_PID_SAMPLES when the pid has no samples: attr/anonmaps.h lists
 * what there is). res holds the cores from the start, on failure too.
 */
int attr__run(struct session *s, struct attr_core *cores, uint32_t ncores,
	      const struct attr_opts *opts, struct attr_result *res, struct ap_err *err);

/*
 * attr__run in steps, so that several readings share one pass of the
 * session (report: one reading per sampling event, all fed by one read):
 * __new (a file's attrs are checked now: an unknown opts->event fails
 * here), its tool among the others to session__process(), then __finish
 * (what attr__run returns). opts and res must outlive the reader.
 */
struct attr_reader;
int attr_reader__new(struct session *s, struct attr_core *cores, uint32_t ncores,
		     const struct attr_opts *opts, struct attr_result *res,
		     struct attr_reader **out, struct ap_err *err);
struct session_tool *attr_reader__tool(struct attr_reader *r);
/*
 * Will the pass under way be read again (a mapping record came too late:
 * on_restart follows its end)? What its hooks are given from here on is
 * forgotten; a consumer fed the same records another way drops them too.
 */
int attr_reader__dropping(const struct attr_reader *r);
int attr_reader__finish(struct attr_reader *r, struct ap_err *err);
/* NULL is fine. */
void attr_reader__delete(struct attr_reader *r);
void attr_result__exit(struct attr_result *res);

/* Fill every core's ranked[] from its func_samples; -1 when out of memory. */
int attr__rank_cores(struct attr_result *res);

/*
 * One quick pass of s for what the upstream helper decides before
 * it attributes anything (docs/helper-interface.md): every sample
 * counted, and the executable //anon mappings (attr_result.anon's rule).
 */
struct attr_scan {
	uint64_t samples;
	struct attr_span *anon;
	uint32_t nanon;
	size_t cap_anon;
	int truncated, pipe;		/* cut short (perfdata__truncated); a pipe-mode stream */
	uint64_t bytes_read, bytes_expected;
};
int attr__scan(struct session *s, struct attr_scan *out, struct ap_err *err);
void attr_scan__exit(struct attr_scan *s);
/* Append (start, len) unless it is there already; -1 when out of memory. */
int attr_spans__add(struct attr_span **v, uint32_t *n, size_t *cap, uint64_t start,
		    uint64_t len);

/*
 * A mapped file perf inject --jit (jitted-<pid>-<n>.so) or aotperf inject
 * (*.aotperf.so) wrote: a recording holding one has been injected already,
 * and its samples point into those files. ATTR_INJECTED_* or 0.
 */
enum { ATTR_INJECTED_JIT = 1, ATTR_INJECTED_IMAGE = 2 };
int attr__injected_name(const char *path);

uint64_t attr__page_round(uint64_t len);
/* Unpinned cores of core i's page-rounded text size, core i included. */
uint32_t attr__sharing(const struct attr_core *cores, uint32_t ncores, uint32_t i);

#endif
