/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PERFDATA_INTERNAL_H
#define AOTPERF_PERFDATA_INTERNAL_H

/*
 * Private state of the perf.data reader, shared by reader.c (I/O, header),
 * attrs.c (attrs, ids), sample.c (sample and sample_id parsing), check.c
 * (record sizes per type), decompress.c and names.c.
 */
#include <string.h>
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
#define PD_WINDOW_SIZE		(1u << 20)	/* read() chunk of a stream */
#define PD_MAP_SIZE		(4u << 20)	/* mmap() window of a file's records */
#define PD_SWITCH_BATCH		256		/* switch records handed in one call */
#define PD_MIN_WINDOW		(128u << 10)	/* > PD_MAX_RECORD */
#define PD_DECOMP_SIZE		(1u << 20)	/* decompressed-bytes buffer */
#define PD_MAX_ATTRS		65536u
#define PD_MAX_ATTR_ENTRY	4096u
#define PD_MAX_FEATURE		(64u << 20)	/* EVENT_DESC we are willing to load */

/*
 * Sliding window over the record stream. A regular file's records are
 * mapped (mmap) a window at a time: nothing is copied, and the bytes a
 * reader skips (a dwarf sample's stack when nobody unwinds) are never
 * touched. A stream is read() into a buffer that keeps a partial record
 * at its front.
 */
struct pd_window {
	char *buf;		/* the buffer, or the mapping */
	size_t cap;		/* the buffer's size (0: mapped) */
	size_t pos;		/* next unread byte */
	size_t len;		/* valid bytes in buf */
	uint64_t off;		/* stream offset of buf[0] */
	uint64_t limit;		/* stream offset where records end, UINT64_MAX: EOF */
	int eof;		/* read() returned 0 or limit reached */
	int mapped;		/* buf is a mapping of len bytes (or NULL) */
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

/*
 * Where a sample_id trailer's fields sit for one attr, in u64 words from
 * the trailer's start (-1: absent), worked out once per attr: a
 * recording's records are mostly trailers (a switch record is nothing
 * else), so reading one is a few loads, not a walk of sample_type's bits.
 */
struct pd_sid_layout {
	uint8_t words;		/* the trailer's length; 0: none (sample_id_all off) */
	int8_t tid, time, id, cpu;
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
	struct pd_sid_layout *sidl;	/* per attr */
	size_t nattrs, cattrs;
	size_t nheader_attrs;	/* attrs from the file header (kept on rewind) */
	struct pd_idmap ids;
	int id_pos;		/* u64 index of the id in a sample, -1 none */
	int is_pos;		/* u64 index of the id from the end of a trailer, 0 none */
	uint64_t last_id;	/* the trailer id looked up last, and its attr (-2: none yet) */
	int last_idx;

	struct pd_window win;
	struct pd_decomp dec;
	char *scratch;		/* aligned copy of records at odd addresses */
	const struct pd_event *cleared;	/* an event whose sample part is all zero */
	pd_switch_fn switch_fn;	/* context switches go there (perfdata__set_switch_fn) */
	struct pd_switch *swbuf;	/* a run of them, PD_SWITCH_BATCH long, to hand at once */
	size_t nsw;
	void *switch_ctx;
	int switch_drop;	/* and are skipped unread (perfdata__drop_switches) */
	uint64_t switched;

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

/*
 * The sample_id trailer of a non-sample kernel record: where its fields
 * sit (words 0: none), with *attr_out the attr whose layout it follows.
 * The trailer is the record's last bytes, so the owner is found by the id
 * at is_pos from the end, as perf does; the id looked up last is kept
 * (a CPU's records come in runs of one id). Inline: once a record.
 */
static inline const struct pd_sid_layout *pd__sid_of(struct perfdata *pd,
						     const struct perf_event_header *hdr,
						     const struct perf_event_attr **attr_out)
{
	size_t n = (hdr->size - sizeof(*hdr)) / sizeof(uint64_t);
	int idx = 0;

	*attr_out = NULL;
	if (!pd->nattrs)
		return NULL;
	if (pd->nattrs > 1 && pd->is_pos > 0 && (size_t)pd->is_pos <= n) {
		uint64_t id;

		memcpy(&id, (const uint8_t *)(hdr + 1) + (n - (size_t)pd->is_pos) * 8, sizeof(id));
		if (pd->last_idx == -2 || id != pd->last_id) {
			pd->last_id = id;
			pd->last_idx = pd__idmap_get(&pd->ids, id);
		}
		idx = pd->last_idx;
	}
	idx = idx < 0 ? 0 : idx;
	*attr_out = &pd->attrs[idx].attr;
	return &pd->sidl[idx];
}
void pd__sid_layout(uint64_t sample_type, int sample_id_all, struct pd_sid_layout *l);

/* Fill sid from a trailer laid out as l (its length already checked); inline: once a record. */
static inline void pd__read_sid(const struct pd_sid_layout *l, const uint8_t *p,
				struct pd_sample_id *sid)
{
	uint32_t v[2];

	memset(sid, 0, sizeof(*sid));
	if (l->tid >= 0) {
		memcpy(v, p + 8 * l->tid, sizeof(v));	/* pid, tid: two u32 in memory order */
		sid->pid = v[0];
		sid->tid = v[1];
		sid->has_tid = 1;
	}
	if (l->time >= 0) {
		memcpy(&sid->time, p + 8 * l->time, 8);
		sid->has_time = 1;
	}
	if (l->id >= 0) {
		memcpy(&sid->id, p + 8 * l->id, 8);
		sid->has_id = 1;
	}
	if (l->cpu >= 0) {
		memcpy(v, p + 8 * l->cpu, sizeof(v));
		sid->cpu = v[0];
		sid->has_cpu = 1;
	}
}
int pd__read_format_ok(const void *p, size_t len, uint64_t read_format);

/* check.c */
int pd__check_record(struct perfdata *pd, const struct perf_event_header *h,
		     int in_compressed, struct pd_event *ev, struct ap_err *err);
/*
 * A context switch record for the switch consumer (perfdata__set_switch_fn):
 * 1 with its trailer in sid when it is well formed and has one (a record
 * at an 8-byte aligned address), else 0 (pd__check_record then says what
 * it is). Inline: once a record of a recording that is mostly these.
 */
static inline __attribute__((always_inline)) int
pd__switch_record(struct perfdata *pd, const struct perf_event_header *h,
				    struct pd_sample_id *sid)
{
	const struct perf_event_attr *attr;
	const struct pd_sid_layout *l = pd__sid_of(pd, h, &attr);
	size_t body = h->size - sizeof(*h), len = l ? (size_t)l->words * 8 : 0;
	size_t cpu_wide = sizeof(struct perf_record_switch) - sizeof(struct perf_event_header);

	if (!len || h->size % 8 || len > body ||
	    (h->type == PERF_RECORD_SWITCH_CPU_WIDE && body - len < cpu_wide))
		return 0;
	pd__read_sid(l, (const uint8_t *)h + h->size - len, sid);
	return 1;
}

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
