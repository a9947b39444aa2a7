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

/*
 * A PERF_RECORD_SAMPLE, every field of its attr's sample_type checked
 * against the record's size (perf's order and sizes, read_format and
 * branch_sample_type included). The pointers point into the record: valid
 * until the next perfdata__next(), 8-byte aligned (the reader copies a
 * record at an odd address, and a sample whose variable parts would break
 * the alignment is malformed), never past the record.
 */
struct pd_sample {
	struct pd_sample_id sid;
	uint64_t ip;
	uint64_t period;
	uint64_t addr;
	uint16_t cpumode;       /* header.misc & PERF_RECORD_MISC_CPUMODE_MASK */
	int attr_idx;           /* index into the attrs, -1 if the id matched none */
	/* PERF_SAMPLE_CALLCHAIN: ips, PERF_CONTEXT_* markers included */
	const uint64_t *callchain;
	uint64_t callchain_nr;
	/*
	 * PERF_SAMPLE_REGS_USER: regs_abi is PERF_SAMPLE_REGS_ABI_*; with
	 * ABI_NONE (a kernel thread) there are no registers. regs_mask is
	 * attr.sample_regs_user; regs_user[i] is the i-th set bit's register.
	 */
	uint64_t regs_abi, regs_mask;
	const uint64_t *regs_user;
	uint32_t nregs_user;
	/* PERF_SAMPLE_RAW: the tracepoint payload (perfdata/tracing.h), not aligned */
	const uint8_t *raw;
	uint32_t raw_size;
	/* PERF_SAMPLE_STACK_USER: stack_size bytes copied, stack_dyn_size valid */
	const uint8_t *stack_user;
	uint64_t stack_size, stack_dyn_size;
	unsigned has_ip : 1, has_period : 1;
	/* the field is in the sample (for an attr_idx of -1, none is parsed) */
	unsigned has_callchain : 1, has_regs_user : 1, has_stack_user : 1;
};

/* The value of register bit `reg` (PERF_REG_X86_SP...); 0 when absent. */
int pd_sample__user_reg(const struct pd_sample *s, unsigned reg, uint64_t *val);

struct pd_event {
	const struct perf_event_header *hdr; /* valid until the next perfdata__next() */
	const union perf_event *ev;          /* same bytes, typed */
	uint64_t seq;                        /* 0,1,2... in stream order (after decompression) */
	uint64_t file_offset;                /* offset of the record in the file; for records
					      * inside a COMPRESSED record, the offset of that
					      * COMPRESSED record */
	int in_compressed;                   /* 1 when it came out of a COMPRESSED record */
	/*
	 * Parsed for PERF_RECORD_SAMPLE; all zero for other records (cleared
	 * once while the caller passes the same event, which it only reads).
	 */
	struct pd_sample sample;
	/* Parsed trailer for other kernel records when sample_id_all is set: */
	struct pd_sample_id sid;
	int has_sid;
	/*
	 * Where that trailer sits: bytes [sid_off, sid_off + sid_len) of the
	 * record, always after the type's fixed fields (and an MMAP/MMAP2's
	 * NUL-terminated name). sid_len is 0 when there is none; then sid_off
	 * is the record size. Code that copies a record's trailer into a new
	 * record takes it from here.
	 */
	uint16_t sid_off, sid_len;
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

/*
 * Context switch records (SWITCH, SWITCH_CPU_WIDE) for one consumer alone,
 * the off-CPU view's: a recording of switches is mostly these (25 million
 * in a 953 MB one), each a header and a sample_id trailer. With fn set,
 * each such record that passes its checks and has a trailer goes to fn
 * where it stands in the stream (its misc bits: PERF_RECORD_MISC_SWITCH_OUT
 * and _PREEMPT; its trailer), not out of perfdata__next(); seq counts it
 * all the same. A run of them comes in one call, in file order (sw valid
 * during the call), always before the record after the run is handed out:
 * a call per record cost more than the record's own work. fn NULL: handed
 * out again.
 */
struct pd_switch {
	struct pd_sample_id sid;
	uint16_t misc;
};
typedef void (*pd_switch_fn)(void *ctx, const struct pd_switch *sw, size_t n);
void perfdata__set_switch_fn(struct perfdata *pd, pd_switch_fn fn, void *ctx);
/*
 * With a switch consumer set: yes skips those records without reading
 * more than their header (a pass whose switches nobody counts), until
 * called with 0 or the consumer is set again.
 */
void perfdata__drop_switches(struct perfdata *pd, int yes);
/* The records handed to it (or skipped) so far (since open). */
uint64_t perfdata__switched(const struct perfdata *pd);

/*
 * n bytes of the file at off (a record again, at its pd_event.file_offset),
 * through the open descriptor. 0, or -1 with err: past the end, a stream.
 */
int perfdata__pread(struct perfdata *pd, void *buf, size_t n, uint64_t off, struct ap_err *err);

/*
 * Reading ahead, the reader's place untouched: the records of a file from
 * a file offset, each read into a buffer of the peek's own and handed out
 * with its kernel trailer parsed (sid; a sample is not parsed, a record
 * perf synthesizes is given as it is). For the records a file holds after
 * the samples they belong before (session/lookahead.c).
 *
 * perfdata__peek_new: 1 and *out, 0 for a stream or a pipe-mode file (its
 * attrs come as records), -1 when out of memory.
 * perfdata__peek: 1 and ev (valid until the next call) for the record at
 * *at, *at moved past it; 0 at the end of the records, at a record that
 * cannot be walked by its header (a bad size, an AUXTRACE's payload); -1
 * with err on a read error.
 */
struct pd_peek;
int perfdata__peek_new(struct perfdata *pd, struct pd_peek **out);
int perfdata__peek(struct pd_peek *pk, uint64_t *at, struct pd_event *ev, struct ap_err *err);
/* The bytes it has read (for the caller's budget). */
uint64_t perfdata__peek_bytes(const struct pd_peek *pk);
void perfdata__peek_delete(struct pd_peek *pk);

/* Start over from the first record (files only; -1 with err for a pipe). */
int perfdata__rewind(struct perfdata *pd, struct ap_err *err);
int perfdata__seekable(const struct perfdata *pd);

int perfdata__is_pipe(const struct perfdata *pd);
/*
 * Attrs known so far. Pipe mode learns them from HEADER_ATTR records; a
 * pipe-mode stream stored in a file has its leading records (attrs, event
 * names) read at open, so the attrs and names are known before the first
 * perfdata__next(), as in file mode. From a real pipe they arrive as the
 * stream is read (all of them before the first sample).
 */
size_t perfdata__nevsels(const struct perfdata *pd);
const struct pd_evsel *perfdata__evsel(const struct perfdata *pd, size_t idx);
/* Index of the attr owning a sample id, -1 if none (one attr: always 0). */
int perfdata__evsel_of_id(const struct perfdata *pd, uint64_t id);

/* 1 when the data ended early; how many data bytes were read and expected. */
int perfdata__truncated(const struct perfdata *pd, uint64_t *read, uint64_t *expected);
/*
 * perfdata__truncated of the file-mode perf.data at path, without a reader
 * (perfdata/cut.c): 1 with *read and *expected data bytes, 0 when whole,
 * -1 with err. Whole by its header when the data section fits the file;
 * else its records are walked by their headers. A pipe-mode stream (and
 * "-"): 0, its end is known only to its reader.
 */
int perfdata__cut_short(const char *path, uint64_t *read, uint64_t *expected,
			struct ap_err *err);

/*
 * Records checked against their type before any field is read: a record
 * shorter than its type's fixed fields (kernel records: plus the sample_id
 * trailer their attr asks for), an MMAP/MMAP2/COMM/KSYMBOL/CGROUP whose
 * string is not NUL-terminated inside the record, a sample shorter than its
 * sample_type demands (or seen before any attr is known), a count field
 * that runs past the record, is not handed out; this counts them. Where
 * the format leaves no way on, perfdata__next() fails instead (AP_ERR_INPUT):
 * a pipe-mode HEADER_ATTR that does not hold its attr, an AUXTRACE or
 * TRACING_DATA record too short to say how much payload follows, corrupt
 * compressed data. The rules per record type are in perfdata/check.c.
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

/*
 * A string feature section of a file-mode perf.data into out (cut to n):
 * PD_FEAT_CPUID "AuthenticAMD,26,17,0" or an aarch64 MIDR, PD_FEAT_CPUDESC
 * the model name, PD_FEAT_ARCH the recording machine's uname -m. 0, or -1
 * when the file has none. A pipe-mode stream: PD_FEAT_ARCH only, from its
 * HEADER_FEATURE record once read.
 */
#define PD_FEAT_ARCH	6
#define PD_FEAT_CPUDESC	8
#define PD_FEAT_CPUID	9
int perfdata__feature_string(struct perfdata *pd, int bit, char *out, size_t n);
/*
 * HEADER_SAMPLE_TIME (perf 4.19 on): the first and last sample's time of a
 * file-mode perf.data. 0, or -1 when the file has none (a pipe).
 */
int perfdata__sample_time(struct perfdata *pd, uint64_t *first, uint64_t *last);

/*
 * The recorded kernel's build id (HEADER_BUILD_ID, the "[kernel.kallsyms]"
 * entry; perfdata/buildid.c) into id: its length, 0 when the file has none
 * (perf record -B, a pipe) or it is longer than cap.
 */
size_t perfdata__kernel_build_id(struct perfdata *pd, uint8_t *id, size_t cap);
/* The same from a HEADER_BUILD_ID section's bytes (buf, len). */
size_t pd_build_id__kernel(const void *buf, size_t len, uint8_t *id, size_t cap);
/*
 * One HEADER_BUILD_ID entry as perf writes a user-space DSO's (the host's,
 * pid -1; the id's length in the entry; the name NUL-padded to 64): its
 * size, the bytes written into buf only when they fit in cap. 0 for an
 * id of 0 or over 20 bytes, or a name too long for an entry.
 */
#define PD_FEAT_BUILD_ID 2
size_t pd_build_id__entry(void *buf, size_t cap, const uint8_t *id, size_t id_len,
			  const char *name);

/* "mmap", "mmap2", "sample", ... for diagnostics. */
const char *perfdata__record_name(uint32_t type);

#endif
