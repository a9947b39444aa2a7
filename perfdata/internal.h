/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_INTERNAL_H
#define AOTPERF_PERFDATA_INTERNAL_H

/*
 * Private state of the perf.data reader, shared by reader.c (I/O, header),
 * attrs.c (attrs, ids), sample.c (sample and sample_id parsing), check.c
 * (record sizes per type), decompress.c and names.c.
 */
#include <zstd.h>
#include "perfdata.h"

/*
 * The on-disk file header (tools/perf/util/header.h). libperf does not
 * export it, so it is spelled out here; all fields are u64.
 */
struct pd_file_section {
	uint64_t offset;
	uint64_t size;
};

struct pd_file_header {
	uint64_t magic;
	uint64_t size;
	uint64_t attr_size;
	struct pd_file_section attrs;
	struct pd_file_section data;
	struct pd_file_section event_types;	/* unused */
	uint64_t adds_features[4];
};

#define PD_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" little endian */
#define PD_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define PD_MAGIC1		"PERFFILE"
#define PD_PIPE_HEADER_SIZE	16
/* Header written before adds_features existed. */
#define PD_OLD_HEADER_SIZE	offsetof(struct pd_file_header, adds_features)

/* Feature bits (enum of tools/perf/util/header.h). */
#define PD_FEAT_TRACING_DATA	1
#define PD_FEAT_EVENT_DESC	12
#define PD_FEAT_COMPRESSED	27
#define PD_FEAT_BITS		256

#define PD_COMP_ZSTD		1

#define PD_MAX_RECORD		65535u		/* header.size is a u16 */
#define PD_WINDOW_SIZE		(1u << 20)	/* read() chunk for the data section */
#define PD_MIN_WINDOW		(128u << 10)	/* > PD_MAX_RECORD */
#define PD_DECOMP_SIZE		(1u << 20)	/* decompressed-bytes buffer */
#define PD_MAX_ATTRS		65536u
#define PD_MAX_ATTR_ENTRY	4096u
#define PD_MAX_FEATURE		(64u << 20)	/* EVENT_DESC we are willing to load */

/* Sliding read window over the record stream. */
struct pd_window {
	char *buf;
	size_t cap;
	size_t pos;		/* next unread byte */
	size_t len;		/* valid bytes in buf */
	uint64_t off;		/* stream offset of buf[0] */
	uint64_t limit;		/* stream offset where records end, UINT64_MAX: EOF */
	int eof;		/* read() returned 0 or limit reached */
};

/* Streaming zstd state: one context for the whole file, as perf writes it. */
struct pd_decomp {
	ZSTD_DCtx *ctx;
	ZSTD_inBuffer in;	/* payload of the current COMPRESSED record */
	char *buf;
	size_t cap, pos, len;
	uint64_t rec_off;	/* file offset of the current COMPRESSED record */
	int active;		/* input left, or zstd may hold more output */
};

/* Open-addressing map sample id -> attr index. */
struct pd_idmap {
	uint64_t *keys;
	uint32_t *vals;		/* attr index + 1, 0 = empty slot */
	size_t cap, n;
};

static inline size_t pd__idmap_slot(uint64_t id, size_t cap)
{
	/* Ids are small sequential numbers: mix them before masking. */
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

/* The attr index of a sample id, -1 when unknown; inline: it runs per record. */
static inline int pd__idmap_get(const struct pd_idmap *m, uint64_t id)
{
	if (!m->cap)
		return -1;
	for (size_t i = pd__idmap_slot(id, m->cap); m->vals[i]; i = (i + 1) & (m->cap - 1)) {
		if (m->keys[i] == id)
			return (int)m->vals[i] - 1;
	}
	return -1;
}

struct perfdata {
	char *path;
	int fd;
	int own_fd;
	unsigned flags;
	int pipe;		/* pipe-mode stream (from a pipe or a file) */
	int seekable;
	struct pd_layout layout;
	uint64_t start;		/* stream offset of the first record */

	struct pd_evsel *attrs;
	size_t nattrs, cattrs;
	size_t nheader_attrs;	/* attrs from the file header (kept on rewind) */
	struct pd_idmap ids;
	int id_pos;		/* u64 index of the id in a sample, -1 none */
	int is_pos;		/* u64 index of the id from the end of a trailer, 0 none */

	struct pd_window win;
	struct pd_decomp dec;
	char *scratch;		/* aligned copy of records at odd addresses */

	uint64_t seq;
	uint64_t consumed;	/* stream bytes of complete records */
	uint64_t expected;	/* stream bytes the header promised */
	uint64_t skip;		/* payload bytes after a record (AUXTRACE...) */
	uint64_t partial;	/* bytes of an incomplete record at the end */
	uint64_t malformed;
	uint64_t nrec;		/* records seen, handed out or not */
	uint64_t learned;	/* the first records already read at open */
	int unfinished;		/* data.size == 0: perf did not finish */
	int stopped;		/* bad record size: the rest is unreadable */
	int ended;

	int has_comp;
	uint32_t comp_type, comp_level, comp_mmap_len;

	/*
	 * Pipe mode: the payload after the first HEADER_TRACING_DATA record
	 * (the file header section's bytes, tracing.h), collected as the
	 * window skips it; tracing.c parses it on request.
	 */
	char *tracing;
	uint64_t tracing_size;	/* the record's size field */
	uint64_t tracing_got;	/* bytes of it read so far */
	int has_tracing;	/* such a record was seen */
	int collecting;		/* the skipped bytes go to tracing */
	/* pipe mode: the HEADER_FEATURE record of the machine (uname -m) */
	char *arch;
	size_t arch_len;
};

/* reader.c: feature `bit`'s section of a file (malloc'ed), NULL if absent or bad */
char *pd__feature(struct perfdata *pd, int bit, size_t *len);

/* attrs.c */
int pd__add_attr(struct perfdata *pd, const void *attr, size_t attr_size,
		 const uint64_t *ids, size_t nids);
void pd__drop_attrs(struct perfdata *pd, size_t keep);
void pd__free_attrs(struct perfdata *pd);

/* sample.c */
int pd__parse_sample(const struct perfdata *pd,
		     const struct perf_event_header *hdr, struct pd_sample *s);
size_t pd__sid_len(const struct perfdata *pd, const struct perf_event_header *hdr,
		   const struct perf_event_attr **attr_out);
void pd__read_sid(uint64_t sample_type, const uint8_t *p, struct pd_sample_id *sid);
int pd__read_format_ok(const void *p, size_t len, uint64_t read_format);

/* check.c */
int pd__check_record(const struct perfdata *pd, const struct perf_event_header *h,
		     int in_compressed, struct pd_event *ev, struct ap_err *err);

/* names.c */
const char *pd__builtin_name(const struct perf_event_attr *attr);
/* event_names.c */
int pd__set_name(struct perfdata *pd, size_t idx, const char *name, size_t max);
int pd__event_desc(struct perfdata *pd, const char *buf, size_t len);
int pd__event_update(struct perfdata *pd, const union perf_event *ev);

/* decompress.c */
void pd__decomp_reset(struct pd_decomp *d);
void pd_decomp__exit(struct pd_decomp *d);
int pd__decomp_feed(struct perfdata *pd, const char *rec, size_t size,
		    uint64_t off, struct ap_err *err);
int pd__decomp_next(struct perfdata *pd, const char **out, struct ap_err *err);

static inline uint64_t pd__min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

#endif
