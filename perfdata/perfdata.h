/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_H
#define AOTPERF_PERFDATA_H

/*
 * Streaming reader for perf.data (file and pipe mode, zstd-compressed
 * records, files cut short). Record layouts come from libperf's
 * <perf/event.h>; no wasm knowledge here.
 *
 * Memory is bounded: records are handed out one at a time from a fixed-size
 * window, so a multi-gigabyte file costs the same as a small one.
 */
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include "../util/err.h"

struct perfdata;

struct pd_evsel {
	struct perf_event_attr attr; /* copied, zero-extended to our size */
	uint64_t *ids;               /* sample ids belonging to this attr */
	uint32_t nids;
	char *name;                  /* from EVENT_DESC / EVENT_UPDATE, else a built-in name, else "unknown" */
};

/* Fields of the sample_id trailer / sample prefix we use. Absent ones are 0. */
struct pd_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint32_t cpu;
	unsigned has_tid : 1, has_time : 1, has_id : 1, has_cpu : 1;
};

struct pd_sample {
	struct pd_sample_id sid;
	uint64_t ip;
	uint64_t period;
	uint64_t addr;
	uint16_t cpumode;       /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	int attr_idx;           /* index into the attrs, -1 if the id matched none */
	unsigned has_ip : 1, has_period : 1;
};

struct pd_event {
	const struct perf_event_header *hdr; /* valid until the next perfdata__next() */
	const union perf_event *ev;          /* same bytes, typed */
	uint64_t seq;                        /* 0,1,2... in stream order (after decompression) */
	uint64_t file_offset;                /* offset of the record in the file; for records
					      * inside a COMPRESSED record, the offset of that
					      * COMPRESSED record */
	int in_compressed;                   /* 1 when it came out of a COMPRESSED record */
	/* Parsed for PERF_RECORD_SAMPLE: */
	struct pd_sample sample;
	/* Parsed trailer for other kernel records when sample_id_all is set: */
	struct pd_sample_id sid;
	int has_sid;
};

enum pd_open_flags {
	/* Hand out PERF_RECORD_COMPRESSED records as they are, do not decompress. */
	PD_OPEN_RAW_COMPRESSED = 1 << 0,
};

/*
 * Open a perf.data file read-only ("-" reads a pipe-mode stream from stdin).
 * Fails with "PATH: not a perf.data file (bad magic)" etc.
 */
int perfdata__open(const char *path, unsigned flags, struct perfdata **out,
		   struct ap_err *err);
void perfdata__close(struct perfdata *pd);

/*
 * Next record: 1 and *ev filled, 0 at the end, -1 on a hard error (err set).
 * A file cut short ends with 0 and perfdata__truncated() true.
 * Records perf synthesizes in the stream (HEADER_ATTR, FINISHED_ROUND,
 * feature records...) are returned too; callers switch on hdr->type.
 */
int perfdata__next(struct perfdata *pd, struct pd_event *ev, struct ap_err *err);

/* Start over from the first record (files only; -1 with err for a pipe). */
int perfdata__rewind(struct perfdata *pd, struct ap_err *err);
int perfdata__seekable(const struct perfdata *pd);

int perfdata__is_pipe(const struct perfdata *pd);
/* Attrs known so far (pipe mode learns them from HEADER_ATTR records). */
size_t perfdata__nevsels(const struct perfdata *pd);
const struct pd_evsel *perfdata__evsel(const struct perfdata *pd, size_t idx);
/* Index of the attr owning a sample id, -1 if none (one attr: always 0). */
int perfdata__evsel_of_id(const struct perfdata *pd, uint64_t id);

/* 1 when the data ended early; how many data bytes were read and expected. */
int perfdata__truncated(const struct perfdata *pd, uint64_t *read, uint64_t *expected);

/*
 * Samples shorter than their attr's sample_type demands (or seen before any
 * attr is known) are not handed out; this counts them.
 */
uint64_t perfdata__malformed(const struct perfdata *pd);

/* The file's header geometry (file mode): data section and feature table. */
struct pd_layout {
	uint64_t file_size;
	uint64_t attrs_offset, attrs_size, attr_entry_size;
	uint64_t data_offset, data_size;
	uint64_t feat_offset;           /* = data_offset + data_size */
	uint64_t features[4];           /* HEADER_FEAT bitmap */
};
int perfdata__layout(const struct perfdata *pd, struct pd_layout *out);

/* "mmap", "mmap2", "sample", ... for diagnostics. */
const char *perfdata__record_name(uint32_t type);

#endif
