// SPDX-License-Identifier: MIT
/*
 * perfdata reader tests.
 *
 *   test_perfdata              built-in tests on synthetic and hostile files
 *                              written to $TMPDIR (default /tmp)
 *   test_perfdata --count FILE per-type record counts and per-event sample
 *                              counts, for tests/e2e/perfdata_formats.sh
 *   test_perfdata --chains FILE callchains, user regs and stacks per sample,
 *                              in perf script -D's terms, for the same script
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <zstd.h>
#include "attr/attr.h"
#include "cwasm/cwasm.h"
#include "perfdata/perfdata.h"
#include "check.h"

/* ---- a small perf.data writer ------------------------------------------ */

struct wbuf {
	char *p;
	size_t len, cap;
};

static void wput(struct wbuf *b, const void *d, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;

		while (cap < b->len + n)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (d)
		memcpy(b->p + b->len, d, n);
	else
		memset(b->p + b->len, 0, n);
	b->len += n;
}

static void wput64(struct wbuf *b, uint64_t v)
{
	wput(b, &v, sizeof(v));
}

static void wput32(struct wbuf *b, uint32_t v)
{
	wput(b, &v, sizeof(v));
}

static void wfree(struct wbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/* Where each record went, to check what the reader hands back. */
#define MAX_RECS 310000
struct reclog {
	size_t n;
	size_t off[MAX_RECS];	/* offset inside the data buffer */
};

static struct reclog *reclog_new(void)
{
	struct reclog *l = calloc(1, sizeof(*l));

	if (!l)
		abort();
	return l;
}

struct tsample {
	uint64_t id, ip, time, addr, stream_id, period;
	uint32_t pid, tid, cpu;
};

static uint64_t pack32(uint32_t a, uint32_t b)
{
	uint32_t v[2] = { a, b };
	uint64_t r;

	memcpy(&r, v, sizeof(r));
	return r;
}

/* Append a record exactly as given (perf does not pad COMPRESSED). */
static void put_raw(struct wbuf *b, struct reclog *l, uint32_t type, const void *body,
		    size_t blen)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + blen) };

	if (l && l->n < MAX_RECS)
		l->off[l->n++] = b->len;
	wput(b, &h, sizeof(h));
	wput(b, body, blen);
}

/* Append a record: header, body (padded to 8), then extra u64s. */
static void put_rec(struct wbuf *b, struct reclog *l, uint32_t type, uint16_t misc,
		    const void *body, size_t blen, const uint64_t *tail, size_t ntail)
{
	struct perf_event_header h;
	size_t pad = (8 - blen % 8) % 8;

	h.type = type;
	h.misc = misc;
	h.size = (uint16_t)(sizeof(h) + blen + pad + ntail * 8);
	if (l && l->n < MAX_RECS)
		l->off[l->n++] = b->len;
	wput(b, &h, sizeof(h));
	wput(b, body, blen);
	wput(b, NULL, pad);
	wput(b, tail, ntail * 8);
}

/* The sample_id trailer for sample_type st. */
static size_t make_sid(uint64_t st, const struct tsample *s, uint64_t *v)
{
	size_t n = 0;

	if (st & PERF_SAMPLE_TID)
		v[n++] = pack32(s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME)
		v[n++] = s->time;
	if (st & PERF_SAMPLE_ID)
		v[n++] = s->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		v[n++] = s->stream_id;
	if (st & PERF_SAMPLE_CPU)
		v[n++] = pack32(s->cpu, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		v[n++] = s->id;
	return n;
}

static void put_sample(struct wbuf *b, struct reclog *l, uint64_t st,
		       const struct tsample *s, uint16_t misc)
{
	uint64_t v[32];
	size_t n = 0, i;

	if (st & PERF_SAMPLE_IDENTIFIER)
		v[n++] = s->id;
	if (st & PERF_SAMPLE_IP)
		v[n++] = s->ip;
	if (st & PERF_SAMPLE_TID)
		v[n++] = pack32(s->pid, s->tid);
	if (st & PERF_SAMPLE_TIME)
		v[n++] = s->time;
	if (st & PERF_SAMPLE_ADDR)
		v[n++] = s->addr;
	if (st & PERF_SAMPLE_ID)
		v[n++] = s->id;
	if (st & PERF_SAMPLE_STREAM_ID)
		v[n++] = s->stream_id;
	if (st & PERF_SAMPLE_CPU)
		v[n++] = pack32(s->cpu, 0);
	if (st & PERF_SAMPLE_PERIOD)
		v[n++] = s->period;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		v[n++] = 3;
		for (i = 0; i < 3; i++)
			v[n++] = s->ip + i;
	}
	put_rec(b, l, PERF_RECORD_SAMPLE, misc, v, n * 8, NULL, 0);
}

static void put_comm(struct wbuf *b, struct reclog *l, uint64_t st,
		     const struct tsample *s, const char *comm)
{
	char body[8 + 16] = { 0 };
	uint64_t t[8];

	memcpy(body, &s->pid, 4);
	memcpy(body + 4, &s->tid, 4);
	strncpy(body + 8, comm, 15);
	put_rec(b, l, PERF_RECORD_COMM, 0, body, sizeof(body), t, st ? make_sid(st, s, t) : 0);
}

static void put_mmap2(struct wbuf *b, struct reclog *l, uint64_t st,
		      const struct tsample *s, uint64_t start, uint64_t len,
		      uint64_t pgoff, const char *file, uint16_t misc)
{
	static struct perf_record_mmap2 m;
	size_t fl = strlen(file) + 1, body;
	uint64_t t[8];

	memset(&m, 0, sizeof(m));
	m.pid = s->pid;
	m.tid = s->tid;
	m.start = start;
	m.len = len;
	m.pgoff = pgoff;
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m.build_id_size = 20;
		memset(m.build_id, 0xab, 20);
	} else {
		m.maj = 8;
		m.min = 1;
		m.ino = 12345;
	}
	m.prot = 5;
	m.flags = 2;
	memcpy(m.filename, file, fl);
	body = offsetof(struct perf_record_mmap2, filename) - sizeof(m.header) + fl;
	put_rec(b, l, PERF_RECORD_MMAP2, misc, (char *)&m + sizeof(m.header), body,
		t, st ? make_sid(st, s, t) : 0);
}

static void put_fork(struct wbuf *b, struct reclog *l, uint32_t type, uint64_t st,
		     const struct tsample *s, uint32_t ppid)
{
	uint32_t body[6] = { s->pid, ppid, s->tid, ppid };
	uint64_t t[8];

	memcpy(&body[4], &s->time, 8);
	put_rec(b, l, type, 0, body, sizeof(body), t, st ? make_sid(st, s, t) : 0);
}

struct tattr {
	struct perf_event_attr attr;
	uint64_t ids[4];
	uint32_t nids;
	const char *name;	/* for EVENT_DESC, NULL: none written */
};

static void tattr_init(struct tattr *a, uint32_t type, uint64_t config, uint64_t st,
		       int sid_all)
{
	memset(a, 0, sizeof(*a));
	a->attr.size = sizeof(a->attr);
	a->attr.type = type;
	a->attr.config = config;
	a->attr.sample_type = st;
	a->attr.sample_period = 4000;
	a->attr.sample_id_all = sid_all ? 1 : 0;
}

/* The perf_file_header as perf writes it. */
struct hdr {
	uint64_t magic, size, attr_size;
	uint64_t attrs_off, attrs_size, data_off, data_size, et_off, et_size;
	uint64_t feat[4];
};

#define MAGIC2 0x32454c4946524550ULL

static void put_string(struct wbuf *b, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);

	wput32(b, len);
	wput(b, NULL, len);
	memcpy(b->p + b->len - len, s, strlen(s));
}

static void put_event_desc(struct wbuf *b, const struct tattr *a, int na)
{
	int i;

	wput32(b, (uint32_t)na);
	wput32(b, sizeof(a->attr));
	for (i = 0; i < na; i++) {
		wput(b, &a[i].attr, sizeof(a[i].attr));
		wput32(b, a[i].nids);
		put_string(b, a[i].name ? a[i].name : "");
		wput(b, a[i].ids, a[i].nids * 8);
	}
}

struct fopts {
	int no_desc;		/* skip the feature table */
	int data_size_zero;	/* as if perf was killed */
	const struct wbuf *comp_feat;	/* add HEADER_COMPRESSED */
};

/*
 * Assemble a file-mode perf.data: header, ids, attrs, data, feature table
 * (EVENT_DESC, maybe COMPRESSED). Returns the data offset.
 */
static size_t build_file(struct wbuf *out, const struct tattr *a, int na,
			 const struct wbuf *data, const struct fopts *o)
{
	struct hdr h = { 0 };
	size_t ids_off[8], i, desc_at = 0, comp_at = 0, nfeat = 0;
	struct wbuf desc = { 0 };

	wput(out, NULL, sizeof(h));
	for (i = 0; i < (size_t)na; i++) {
		ids_off[i] = out->len;
		wput(out, a[i].ids, a[i].nids * 8);
	}
	h.attrs_off = out->len;
	for (i = 0; i < (size_t)na; i++) {
		wput(out, &a[i].attr, sizeof(a[i].attr));
		wput64(out, ids_off[i]);
		wput64(out, a[i].nids * 8);
	}
	h.attrs_size = out->len - h.attrs_off;
	h.magic = MAGIC2;
	h.size = sizeof(h);
	h.attr_size = sizeof(a->attr) + 16;
	h.data_off = out->len;
	wput(out, data->p, data->len);
	h.data_size = o && o->data_size_zero ? 0 : data->len;
	if (!o || !o->no_desc) {
		h.feat[0] |= 1ULL << 12;
		put_event_desc(&desc, a, na);
		nfeat++;
	}
	if (o && o->comp_feat) {
		h.feat[0] |= 1ULL << 27;
		nfeat++;
	}
	if (nfeat && !(o && o->data_size_zero)) {
		size_t table = out->len;

		wput(out, NULL, nfeat * 16);
		if (desc.len) {
			desc_at = out->len;
			wput(out, desc.p, desc.len);
		}
		if (o && o->comp_feat) {
			comp_at = out->len;
			wput(out, o->comp_feat->p, o->comp_feat->len);
		}
		i = 0;
		if (desc.len) {
			uint64_t sec[2] = { desc_at, desc.len };

			memcpy(out->p + table + 16 * i++, sec, 16);
		}
		if (comp_at) {
			uint64_t sec[2] = { comp_at, o->comp_feat->len };

			memcpy(out->p + table + 16 * i++, sec, 16);
		}
	}
	memcpy(out->p, &h, sizeof(h));
	wfree(&desc);
	return h.data_off;
}

static char tmpdir[256];

static const char *tpath(const char *name)
{
	static char buf[8][512];
	static int k;

	k = (k + 1) % 8;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", tmpdir, name);
	return buf[k];
}

/* attr__run over a session of path of its own (session/session.h). */
static int attr_run_file(const char *path, struct attr_core *cores, uint32_t n,
			 const struct attr_opts *o, struct attr_result *res, struct ap_err *err)
{
	struct session *se;
	int r;

	if (session__open(path, &se, err))
		return -1;
	r = attr__run(se, cores, n, o, res, err);
	session__delete(se);
	return r;
}

static void write_file(const char *path, const void *p, size_t n)
{
	int fd;

	/* A fresh inode: rewriting a truncated one makes ext4 flush on close. */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || (n && write(fd, p, n) != (ssize_t)n))
		abort();
	close(fd);
}

/* ---- helpers on the reader side ---------------------------------------- */

/* Read everything; returns the record count or -1. */
static long drain(struct perfdata *pd, struct ap_err *err)
{
	struct pd_event ev;
	long n = 0;
	int r;

	while ((r = perfdata__next(pd, &ev, err)) == 1)
		n++;
	return r < 0 ? -1 : n;
}

/* Check the reader hands back exactly the logged records, in order. */
static void check_same_records(struct perfdata *pd, const struct wbuf *data,
			       const struct reclog *l, size_t data_off)
{
	struct ap_err err = { 0 };
	struct pd_event ev;
	size_t i = 0, bad = 0;
	int r;

	while ((r = perfdata__next(pd, &ev, &err)) == 1) {
		struct perf_event_header h;

		if (i >= l->n) {
			bad++;
			break;
		}
		memcpy(&h, data->p + l->off[i], sizeof(h));
		if (ev.seq != i || ev.file_offset != data_off + l->off[i] ||
		    ev.hdr->size != h.size || memcmp(ev.hdr, data->p + l->off[i], h.size) ||
		    ((uintptr_t)ev.hdr & 7))
			bad++;
		i++;
	}
	CHECK_EQ_U64(r, 0);
	CHECK_EQ_U64(i, l->n);
	CHECK_EQ_U64(bad, 0);
}

/* ---- tests ------------------------------------------------------------- */

#define ST_ONE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN)

/* One attr, no IDENTIFIER: every field of every record. */
static void test_one_attr(void)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct reclog *l = reclog_new();
	struct tsample s = { .pid = 100, .tid = 101, .time = 5000, .cpu = 3,
			     .ip = 0x401000, .period = 250000 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a;
	struct pd_layout lay;
	size_t doff;
	int i, r;

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	a.ids[0] = 7;
	a.nids = 1;
	put_comm(&data, l, ST_ONE, &s, "busy");
	put_mmap2(&data, l, ST_ONE, &s, 0x400000, 0x2000, 0x1000, "/usr/bin/busy", 0);
	put_mmap2(&data, l, ST_ONE, &s, 0x7f0000, 0x1000, 0, "/lib/x86_64-linux-gnu/libc.so.6",
		  PERF_RECORD_MISC_MMAP_BUILD_ID);
	put_fork(&data, l, PERF_RECORD_FORK, ST_ONE, &s, 99);
	for (i = 0; i < 3; i++) {
		s.time = 6000 + i;
		s.ip = 0x401000 + i;
		put_sample(&data, l, ST_ONE, &s, PERF_RECORD_MISC_USER);
	}
	put_fork(&data, l, PERF_RECORD_EXIT, ST_ONE, &s, 99);
	put_rec(&data, l, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL, 0);
	doff = build_file(&file, &a, 1, &data, &(struct fopts){ .no_desc = 1 });
	write_file(tpath("one.data"), file.p, file.len);

	r = perfdata__open(tpath("one.data"), 0, &pd, &err);
	CHECK_EQ_U64(r, 0);
	if (r) {
		fprintf(stderr, "%s\n", err.msg);
		return;
	}
	CHECK_EQ_U64(perfdata__nevsels(pd), 1);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "cpu-clock"));
	CHECK_EQ_U64(perfdata__evsel(pd, 0)->nids, 1);
	CHECK_EQ_U64(perfdata__evsel(pd, 0)->ids[0], 7);
	CHECK_EQ_U64(perfdata__evsel(pd, 0)->attr.sample_type, ST_ONE);
	CHECK(perfdata__evsel(pd, 1) == NULL);
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 12345), 0);
	CHECK(!perfdata__is_pipe(pd));
	CHECK(perfdata__seekable(pd));
	perfdata__layout(pd, &lay);
	CHECK_EQ_U64(lay.data_offset, doff);
	CHECK_EQ_U64(lay.data_size, data.len);
	CHECK_EQ_U64(lay.file_size, file.len);
	CHECK_EQ_U64(lay.feat_offset, doff + data.len);
	CHECK_EQ_U64(lay.attr_entry_size, sizeof(struct perf_event_attr) + 16);

	/* comm */
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_COMM);
	CHECK(!strcmp(ev.ev->comm.comm, "busy"));
	CHECK_EQ_U64(ev.has_sid, 1);
	CHECK_EQ_U64(ev.sid.pid, 100);
	CHECK_EQ_U64(ev.sid.tid, 101);
	CHECK_EQ_U64(ev.sid.time, 5000);
	CHECK_EQ_U64(ev.sid.cpu, 3);
	CHECK(ev.sid.has_tid && ev.sid.has_time && ev.sid.has_cpu && !ev.sid.has_id);
	CHECK_EQ_U64(ev.seq, 0);
	CHECK_EQ_U64(ev.file_offset, doff);
	CHECK_EQ_U64(ev.in_compressed, 0);
	/* mmap2, plain and build-id flavoured */
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_MMAP2);
	CHECK_EQ_U64(ev.ev->mmap2.start, 0x400000);
	CHECK_EQ_U64(ev.ev->mmap2.len, 0x2000);
	CHECK_EQ_U64(ev.ev->mmap2.pgoff, 0x1000);
	CHECK_EQ_U64(ev.ev->mmap2.prot, 5);
	CHECK(!strcmp(ev.ev->mmap2.filename, "/usr/bin/busy"));
	CHECK_EQ_U64(ev.sid.time, 5000);
	CHECK_EQ_U64(ev.sid.cpu, 3);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->misc & PERF_RECORD_MISC_MMAP_BUILD_ID, PERF_RECORD_MISC_MMAP_BUILD_ID);
	CHECK_EQ_U64(ev.ev->mmap2.start, 0x7f0000);
	CHECK(!strcmp(ev.ev->mmap2.filename, "/lib/x86_64-linux-gnu/libc.so.6"));
	CHECK_EQ_U64(ev.sid.tid, 101);
	CHECK_EQ_U64(ev.seq, 2);
	/* fork */
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_FORK);
	CHECK_EQ_U64(ev.ev->fork.ppid, 99);
	CHECK_EQ_U64(ev.has_sid, 1);
	/* samples */
	for (i = 0; i < 3; i++) {
		CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
		CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_SAMPLE);
		CHECK_EQ_U64(ev.sample.ip, 0x401000 + i);
		CHECK_EQ_U64(ev.sample.has_ip, 1);
		CHECK_EQ_U64(ev.sample.sid.pid, 100);
		CHECK_EQ_U64(ev.sample.sid.tid, 101);
		CHECK_EQ_U64(ev.sample.sid.time, 6000 + i);
		CHECK_EQ_U64(ev.sample.sid.cpu, 3);
		CHECK_EQ_U64(ev.sample.period, 250000);
		CHECK_EQ_U64(ev.sample.has_period, 1);
		CHECK_EQ_U64(ev.sample.cpumode, PERF_RECORD_MISC_USER);
		CHECK_EQ_U64(ev.sample.attr_idx, 0);
		CHECK_EQ_U64(ev.has_sid, 0);
	}
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_EXIT);
	CHECK_EQ_U64(ev.sid.time, 6002);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_FINISHED_ROUND);
	CHECK_EQ_U64(ev.has_sid, 0);
	CHECK_EQ_U64(ev.seq, 8);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
	CHECK_EQ_U64(perfdata__malformed(pd), 0);

	/* Rewind replays the same sequence. */
	CHECK_EQ_U64(perfdata__rewind(pd, &err), 0);
	check_same_records(pd, &data, l, doff);
	CHECK_EQ_U64(perfdata__rewind(pd, &err), 0);
	check_same_records(pd, &data, l, doff);
	perfdata__close(pd);

	/* Every cut of the file: clean end, truncated reported, never a crash. */
	{
		size_t cut, bad = 0, opened = 0;
		const char *p = tpath("cut.data");

		for (cut = 0; cut < file.len; cut++) {
			uint64_t rd = 0, exp = 0;
			size_t whole = 0, k;
			long n;

			write_file(p, file.p, cut);
			memset(&err, 0, sizeof(err));
			if (perfdata__open(p, 0, &pd, &err)) {
				if (!strstr(err.msg, p) || cut >= doff)
					bad++;
				continue;
			}
			opened++;
			for (k = 0; k < l->n; k++) {
				size_t end = doff + l->off[k] +
					((const struct perf_event_header *)(data.p + l->off[k]))->size;

				whole += end <= cut;
			}
			n = drain(pd, &err);
			if (n != (long)whole)
				bad++;
			if (perfdata__truncated(pd, &rd, &exp) != (cut < doff + data.len))
				bad++;
			if (exp != data.len || rd > exp)
				bad++;
			perfdata__close(pd);
		}
		CHECK_EQ_U64(bad, 0);
		CHECK(opened >= data.len);
	}
	/* data.size 0 (perf killed): read to EOF, report it. */
	{
		struct wbuf f2 = { 0 };
		uint64_t rd, exp;

		build_file(&f2, &a, 1, &data, &(struct fopts){ .data_size_zero = 1 });
		write_file(tpath("zero.data"), f2.p, f2.len);
		CHECK_EQ_U64(perfdata__open(tpath("zero.data"), 0, &pd, &err), 0);
		check_same_records(pd, &data, l, doff);
		CHECK_EQ_U64(perfdata__truncated(pd, &rd, &exp), 1);
		CHECK_EQ_U64(rd, data.len);
		CHECK_EQ_U64(exp, data.len);
		perfdata__close(pd);
		/* ... and cut mid-record */
		write_file(tpath("zero.data"), f2.p, f2.len - 5);
		CHECK_EQ_U64(perfdata__open(tpath("zero.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), (long)l->n - 1);
		CHECK_EQ_U64(perfdata__truncated(pd, &rd, &exp), 1);
		CHECK_EQ_U64(rd, l->off[l->n - 1]);
		perfdata__close(pd);
		wfree(&f2);
	}
	free(l);
	wfree(&data);
	wfree(&file);
}

#define ST_A (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	      PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define ST_B (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	      PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | \
	      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* Two attrs with IDENTIFIER and different sample_types; EVENT_DESC names. */
static void test_two_attrs(void)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct reclog *l = reclog_new();
	struct tsample s = { .pid = 1, .tid = 2, .time = 10, .cpu = 1, .ip = 0x10,
			     .period = 1000 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a[2];
	size_t doff;
	int i;

	tattr_init(&a[0], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_A, 1);
	tattr_init(&a[1], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ST_B, 1);
	a[0].ids[0] = 10;
	a[0].ids[1] = 11;
	a[0].nids = 2;
	a[0].name = "cpu-clock:u";
	a[1].ids[0] = 20;
	a[1].ids[1] = 21;
	a[1].nids = 2;
	a[1].name = "task-clock";
	s.id = 21;
	s.stream_id = 77;
	put_mmap2(&data, l, ST_B, &s, 0x1000, 0x1000, 0, "/x", 0);
	s.id = 11;
	put_comm(&data, l, ST_A, &s, "worker");
	for (i = 0; i < 20; i++) {
		s.id = (i % 2) ? 20 + i % 4 / 2 : 10 + i % 4 / 2;
		s.ip = 0x1000 + i;
		s.cpu = (uint32_t)i;
		s.addr = 0xdead0000 + i;
		put_sample(&data, l, (i % 2) ? ST_B : ST_A, &s, PERF_RECORD_MISC_KERNEL);
	}
	s.id = 99;	/* unknown id */
	put_sample(&data, l, ST_A, &s, PERF_RECORD_MISC_USER);
	doff = build_file(&file, a, 2, &data, NULL);
	write_file(tpath("two.data"), file.p, file.len);

	CHECK_EQ_U64(perfdata__open(tpath("two.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(perfdata__nevsels(pd), 2);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "cpu-clock:u"));
	CHECK(!strcmp(perfdata__evsel(pd, 1)->name, "task-clock"));
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 10), 0);
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 11), 0);
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 20), 1);
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 21), 1);
	CHECK_EQ_U64(perfdata__evsel_of_id(pd, 22), (uint64_t)-1);

	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_MMAP2);
	CHECK(!strcmp(ev.ev->mmap2.filename, "/x"));
	CHECK_EQ_U64(ev.has_sid, 1);
	/* Trailer of ST_B, found through the IDENTIFIER: all fields */
	CHECK_EQ_U64(ev.sid.id, 21);
	CHECK_EQ_U64(ev.sid.cpu, 1);
	CHECK_EQ_U64(ev.sid.time, 10);
	CHECK_EQ_U64(ev.sid.tid, 2);
	CHECK(ev.sid.has_cpu && ev.sid.has_id);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_COMM);
	CHECK_EQ_U64(ev.sid.id, 11);
	CHECK_EQ_U64(ev.sid.has_cpu, 0);
	CHECK_EQ_U64(ev.sid.pid, 1);
	for (i = 0; i < 20; i++) {
		CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
		CHECK_EQ_U64(ev.sample.attr_idx, i % 2);
		CHECK_EQ_U64(ev.sample.ip, 0x1000 + i);
		CHECK_EQ_U64(ev.sample.sid.has_cpu, i % 2);
		CHECK_EQ_U64(ev.sample.sid.cpu, (i % 2) ? i : 0);
		CHECK_EQ_U64(ev.sample.addr, (i % 2) ? 0xdead0000 + i : 0);
		CHECK_EQ_U64(ev.sample.period, 1000);
		CHECK_EQ_U64(ev.sample.cpumode, PERF_RECORD_MISC_KERNEL);
		CHECK_EQ_U64(ev.sample.sid.id, (i % 2) ? 20 + i % 4 / 2 : 10 + i % 4 / 2);
	}
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.sample.attr_idx, (uint64_t)-1);
	CHECK_EQ_U64(ev.sample.ip, 0x1000 + 19);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__rewind(pd, &err), 0);
	check_same_records(pd, &data, l, doff);
	perfdata__close(pd);
	free(l);
	wfree(&data);
	wfree(&file);
}

/* Two attrs without IDENTIFIER: the ID field at a shared position. */
static void test_id_pos(void)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
			    PERF_SAMPLE_PERIOD;
	struct wbuf data = { 0 }, file = { 0 };
	struct tsample s = { .pid = 5, .tid = 6, .ip = 0x99, .period = 3 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a[2];

	tattr_init(&a[0], PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, st, 1);
	tattr_init(&a[1], PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, st, 1);
	a[0].ids[0] = 1;
	a[0].nids = 1;
	a[1].ids[0] = 2;
	a[1].nids = 1;
	s.id = 2;
	put_sample(&data, NULL, st, &s, 0);
	put_fork(&data, NULL, PERF_RECORD_EXIT, st, &s, 1);
	s.id = 1;
	put_sample(&data, NULL, st, &s, 0);
	/* No EVENT_DESC: built-in names */
	build_file(&file, a, 2, &data, &(struct fopts){ .no_desc = 1 });
	write_file(tpath("idpos.data"), file.p, file.len);
	CHECK_EQ_U64(perfdata__open(tpath("idpos.data"), 0, &pd, &err), 0);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "cycles"));
	CHECK(!strcmp(perfdata__evsel(pd, 1)->name, "instructions"));
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.sample.attr_idx, 1);
	CHECK_EQ_U64(ev.sample.sid.id, 2);
	CHECK_EQ_U64(ev.sample.ip, 0x99);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.has_sid, 1);
	CHECK_EQ_U64(ev.sid.id, 2);
	CHECK_EQ_U64(ev.sid.tid, 6);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.sample.attr_idx, 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	perfdata__close(pd);
	wfree(&data);
	wfree(&file);
}

/* Hostile records inside a valid header. */
static void test_hostile_records(void)
{
	struct tsample s = { .pid = 1, .tid = 1, .ip = 0x42, .time = 9, .cpu = 2,
			     .period = 1 };
	struct ap_err err = { 0 };
	struct wbuf data = { 0 }, file = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a;
	uint64_t rd, exp;
	size_t doff;
	char odd[36] = { 0 };

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	/* An odd-sized record knocks everything after it off alignment. */
	{
		struct perf_event_header h = { PERF_RECORD_HEADER_FEATURE, 0, 8 + sizeof(odd) };

		wput(&data, &h, sizeof(h));
		wput(&data, odd, sizeof(odd));
	}
	put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	put_comm(&data, NULL, ST_ONE, &s, "odd");
	/* A sample too short for its sample_type: skipped and counted. */
	{
		uint64_t v[2] = { 0x42, pack32(1, 1) };

		put_rec(&data, NULL, PERF_RECORD_SAMPLE, 0, v, sizeof(v), NULL, 0);
	}
	/* A record too short for its fixed fields: skipped and counted too. */
	put_rec(&data, NULL, PERF_RECORD_EXIT, 0, NULL, 0, NULL, 0);
	put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	/* Size 4: the rest is unreadable. */
	{
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, 4 };

		wput(&data, &h, sizeof(h));
		put_sample(&data, NULL, ST_ONE, &s, 0);
	}
	doff = build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("hostile.data"), file.p, file.len);
	CHECK_EQ_U64(perfdata__open(tpath("hostile.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_HEADER_FEATURE);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_SAMPLE);
	CHECK_EQ_U64(ev.file_offset, doff + 44);
	CHECK_EQ_U64((uintptr_t)ev.hdr & 7, 0);
	CHECK_EQ_U64(ev.sample.ip, 0x42);
	CHECK_EQ_U64(ev.sample.sid.time, 9);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_COMM);
	CHECK(!strcmp(ev.ev->comm.comm, "odd"));
	CHECK_EQ_U64(ev.sid.cpu, 2);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_SAMPLE);
	CHECK_EQ_U64(ev.seq, 3);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__malformed(pd), 2);
	CHECK_EQ_U64(perfdata__truncated(pd, &rd, &exp), 1);
	CHECK(rd < exp);
	CHECK_EQ_U64(exp, data.len);
	perfdata__close(pd);

	/* A record running past data.size stops the walk, the rest is features. */
	{
		struct wbuf d2 = { 0 }, f2 = { 0 };
		struct hdr h;

		put_sample(&d2, NULL, ST_ONE, &s, 0);
		put_sample(&d2, NULL, ST_ONE, &s, 0);
		build_file(&f2, &a, 1, &d2, NULL);
		memcpy(&h, f2.p, sizeof(h));
		h.data_size -= 8;
		memcpy(f2.p, &h, sizeof(h));
		write_file(tpath("past.data"), f2.p, f2.len);
		CHECK_EQ_U64(perfdata__open(tpath("past.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), 1);
		CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 1);
		perfdata__close(pd);
		/* Feature table past EOF: no names but no failure. */
		memcpy(&h, f2.p, sizeof(h));
		h.data_size += 8;
		h.feat[0] = ~0ULL;
		h.feat[3] = ~0ULL;
		memcpy(f2.p, &h, sizeof(h));
		write_file(tpath("past.data"), f2.p, f2.len);
		CHECK_EQ_U64(perfdata__open(tpath("past.data"), 0, &pd, &err), 0);
		CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "cpu-clock"));
		CHECK_EQ_U64(drain(pd, &err), 2);
		CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
		perfdata__close(pd);
		/* A garbled EVENT_DESC: names stay built-in. */
		{
			size_t tab = h.data_off + h.data_size;
			uint64_t sec[2];

			h.feat[0] = 1ULL << 12;
			h.feat[3] = 0;
			memcpy(f2.p, &h, sizeof(h));
			memcpy(sec, f2.p + tab, 16);
			memset(f2.p + sec[0], 0xff, 8);	/* nr and attr_size huge */
			write_file(tpath("past.data"), f2.p, f2.len);
			CHECK_EQ_U64(perfdata__open(tpath("past.data"), 0, &pd, &err), 0);
			CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "cpu-clock"));
			CHECK_EQ_U64(drain(pd, &err), 2);
			perfdata__close(pd);
		}
		wfree(&d2);
		wfree(&f2);
	}
	wfree(&data);
	wfree(&file);
}

static void expect_open_fail(const char *name, const void *p, size_t n, const char *what)
{
	struct ap_err err = { 0 };
	struct perfdata *pd = (void *)1;
	const char *path = tpath(name);

	if (p)
		write_file(path, p, n);
	CHECK_EQ_U64(perfdata__open(path, 0, &pd, &err), (uint64_t)-1);
	CHECK(pd == NULL);
	CHECK_STR_CONTAINS(err.msg, path);
	CHECK_STR_CONTAINS(err.msg, what);
}

/* Broken files: -1 and a message naming the file. */
static void test_garbage(void)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct tsample s = { .pid = 1 };
	struct tattr a;
	struct hdr h, h0;
	char buf[4096];

	expect_open_fail("empty.data", "", 0, "empty");
	expect_open_fail("tiny.data", "PERF", 4, "not a perf.data file");
	memset(buf, 'x', sizeof(buf));
	expect_open_fail("magic.data", buf, sizeof(buf), "not a perf.data file (bad magic)");
	memcpy(buf, "PERFFILE", 8);
	expect_open_fail("v1.data", buf, sizeof(buf), "too old");
	memcpy(buf, "2ELIFREP", 8);
	expect_open_fail("swapped.data", buf, sizeof(buf), "not supported");
	memcpy(buf, "PERFILE2", 8);
	expect_open_fail("short.data", buf, 12, "cut short");
	expect_open_fail("nonexistent.data", NULL, 0, "No such file");
	{
		struct ap_err err = { 0 };
		struct perfdata *pd;

		CHECK_EQ_U64(perfdata__open(tmpdir, 0, &pd, &err), (uint64_t)-1);
		CHECK_STR_CONTAINS(err.msg, "directory");
	}

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	a.ids[0] = 1;
	a.nids = 1;
	put_sample(&data, NULL, ST_ONE, &s, 0);
	build_file(&file, &a, 1, &data, NULL);
	memcpy(&h0, file.p, sizeof(h0));
	expect_open_fail("hdrcut.data", file.p, 50, "cut short");

#define MUTATE(name, stmt, what)                                       \
	do {                                                           \
		h = h0;                                                \
		stmt;                                                  \
		memcpy(file.p, &h, sizeof(h));                         \
		expect_open_fail(name, file.p, file.len, what);        \
	} while (0)
	MUTATE("hsize.data", h.size = 77, "header size");
	MUTATE("attr0.data", h.attr_size = 0, "attr size is 0");
	MUTATE("attrhuge.data", h.attr_size = 1ULL << 40, "unsupported attr size");
	MUTATE("attrsmall.data", h.attr_size = 20, "unsupported attr size");
	MUTATE("attrspast.data", h.attrs_off = file.len - 8, "attrs section past end");
	MUTATE("attrswrap.data", h.attrs_size = ~0ULL - 4, "attrs section past end");
	MUTATE("noattrs.data", h.attrs_size = 0, "no event attributes");
	MUTATE("datawrap.data", (h.data_off = ~0ULL - 8, h.data_size = 100), "bad data section");
	{
		/* ids section past EOF and ids count overflow */
		size_t sec = h0.attrs_off + sizeof(struct perf_event_attr);
		uint64_t v[2];

		memcpy(v, file.p + sec, 16);
		memcpy(file.p, &h0, sizeof(h0));
		memcpy(file.p + sec, (uint64_t[2]){ file.len + 100, 8 }, 16);
		expect_open_fail("idspast.data", file.p, file.len, "past end of file");
		memcpy(file.p + sec, (uint64_t[2]){ 8, ~0ULL - 7 }, 16);
		expect_open_fail("idshuge.data", file.p, file.len, "past end of file");
		memcpy(file.p + sec, v, 16);
	}
	/* Many attrs: bounded by the file size, then by a cap. */
	{
		struct wbuf big = { 0 };

		wput(&big, NULL, (PERF_ATTR_SIZE_VER0 + 16) * 65537 + sizeof(h));
		h = h0;
		h.attr_size = PERF_ATTR_SIZE_VER0 + 16;
		h.attrs_off = sizeof(h);
		h.attrs_size = big.len - sizeof(h);
		memcpy(big.p, &h, sizeof(h));
		expect_open_fail("manyattrs.data", big.p, big.len, "too many");
		wfree(&big);
	}
	wfree(&data);
	wfree(&file);
}

/* A pipe-mode stream: from a file, then through stdin. */
static void build_pipe(struct wbuf *out, struct reclog *l, int nsamples)
{
	const uint64_t st = ST_ONE;
	struct tsample s = { .pid = 4, .tid = 4, .ip = 0x500, .time = 1, .cpu = 0,
			     .period = 9 };
	struct perf_event_attr attr = { 0 };
	char feat[76] = { 0 };
	uint64_t ids[2] = { 33, 34 };
	int i;

	wput64(out, MAGIC2);
	wput64(out, 16);
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_type = st;
	attr.sample_id_all = 1;
	{
		char body[sizeof(attr) + sizeof(ids)];

		memcpy(body, &attr, sizeof(attr));
		memcpy(body + sizeof(attr), ids, sizeof(ids));
		put_rec(out, l, PERF_RECORD_HEADER_ATTR, 0, body, sizeof(body), NULL, 0);
	}
	/* perf's feature records are 84 bytes: the stream goes off alignment. */
	{
		struct perf_event_header h = { PERF_RECORD_HEADER_FEATURE, 0, 84 };

		if (l)
			l->off[l->n++] = out->len;
		wput(out, &h, sizeof(h));
		wput(out, feat, sizeof(feat));
	}
	/* Names through a HEADER_FEATURE EVENT_DESC, then an EVENT_UPDATE. */
	{
		struct tattr ta = { .attr = attr, .ids = { 33, 34 }, .nids = 2,
				    .name = "desc-clock" };
		struct wbuf d = { 0 };

		wput64(&d, 12);
		put_event_desc(&d, &ta, 1);
		put_rec(out, l, PERF_RECORD_HEADER_FEATURE, 0, d.p, d.len, NULL, 0);
		wfree(&d);
	}
	{
		char body[16 + 16] = { 0 };
		uint64_t v[2] = { PERF_EVENT_UPDATE__NAME, 34 };

		memcpy(body, v, 16);
		strcpy(body + 16, "my-clock");
		put_rec(out, l, PERF_RECORD_EVENT_UPDATE, 0, body, sizeof(body), NULL, 0);
	}
	put_comm(out, l, st, &s, "piped");
	for (i = 0; i < nsamples; i++) {
		s.ip = 0x500 + (uint64_t)i;
		put_sample(out, l, st, &s, PERF_RECORD_MISC_USER);
	}
	put_rec(out, l, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL, 0);
}

/*
 * learned: a seekable stream, whose attrs and names open read ahead; they
 * hold from the start and the records do not change them again.
 */
static void check_pipe_stream(struct perfdata *pd, int nsamples, int learned)
{
	struct ap_err err = { 0 };
	struct pd_event ev;
	int i, bad = 0;

	CHECK(perfdata__is_pipe(pd));
	CHECK_EQ_U64(perfdata__nevsels(pd), learned ? 1 : 0);
	if (learned)
		CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "my-clock"));
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_HEADER_ATTR);
	CHECK_EQ_U64(ev.file_offset, 16);
	CHECK_EQ_U64(perfdata__nevsels(pd), 1);
	CHECK_EQ_U64(perfdata__evsel(pd, 0)->nids, 2);
	CHECK_EQ_U64(perfdata__evsel(pd, 0)->ids[1], 34);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, learned ? "my-clock" : "task-clock"));
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_HEADER_FEATURE);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_HEADER_FEATURE);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, learned ? "my-clock" : "desc-clock"));
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_EVENT_UPDATE);
	CHECK(!strcmp(perfdata__evsel(pd, 0)->name, "my-clock"));
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_COMM);
	CHECK_EQ_U64((uintptr_t)ev.hdr & 7, 0);
	CHECK(!strcmp(ev.ev->comm.comm, "piped"));
	CHECK_EQ_U64(ev.sid.cpu, 0);
	CHECK_EQ_U64(ev.sid.time, 1);
	for (i = 0; i < nsamples; i++) {
		if (perfdata__next(pd, &ev, &err) != 1 || ev.hdr->type != PERF_RECORD_SAMPLE ||
		    ev.sample.ip != 0x500 + (uint64_t)i || ev.sample.period != 9 ||
		    ev.sample.attr_idx != 0 || ((uintptr_t)ev.hdr & 7))
			bad++;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_FINISHED_ROUND);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
}

static void test_pipe(void)
{
	struct wbuf p = { 0 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_layout lay;
	const int ns = 100000;	/* several windows' worth through a real pipe */
	uint64_t rd, exp;

	build_pipe(&p, NULL, ns);
	write_file(tpath("pipe.data"), p.p, p.len);
	CHECK_EQ_U64(perfdata__open(tpath("pipe.data"), 0, &pd, &err), 0);
	check_pipe_stream(pd, ns, 1);
	perfdata__layout(pd, &lay);
	CHECK_EQ_U64(lay.data_offset, 16);
	CHECK_EQ_U64(lay.data_size, 0);
	CHECK_EQ_U64(perfdata__rewind(pd, &err), 0);
	check_pipe_stream(pd, ns, 1);
	perfdata__close(pd);

	/* Cut mid-record. */
	write_file(tpath("pipecut.data"), p.p, p.len - 3);
	CHECK_EQ_U64(perfdata__open(tpath("pipecut.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(drain(pd, &err), 5 + ns);
	CHECK_EQ_U64(perfdata__truncated(pd, &rd, &exp), 1);
	CHECK_EQ_U64(rd, p.len - 16 - 8);
	CHECK_EQ_U64(exp, p.len - 16 - 3);
	perfdata__close(pd);

	/* Through stdin, written by a child. */
	{
		int fds[2], saved = dup(0), status = 0;
		pid_t pid;

		CHECK_EQ_U64(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			size_t off = 0;

			close(fds[0]);
			while (off < p.len) {
				ssize_t w = write(fds[1], p.p + off, p.len - off);

				if (w <= 0)
					_exit(1);
				off += (size_t)w;
			}
			_exit(0);
		}
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		CHECK_EQ_U64(perfdata__open("-", 0, &pd, &err), 0);
		CHECK(!perfdata__seekable(pd));
		check_pipe_stream(pd, ns, 0);
		CHECK_EQ_U64(perfdata__rewind(pd, &err), (uint64_t)-1);
		CHECK_STR_CONTAINS(err.msg, "-: cannot rewind");
		perfdata__close(pd);
		waitpid(pid, &status, 0);
		CHECK_EQ_U64(status, 0);
		dup2(saved, 0);
		close(saved);
	}
	wfree(&p);
}

/* Split a zstd stream of data into COMPRESSED records of at most chunk bytes. */
static void compress_records(struct wbuf *out, struct reclog *cl, const struct wbuf *data,
			     size_t push, size_t chunk)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	struct wbuf z = { 0 };
	size_t off, zoff;

	for (off = 0; off < data->len; off += push) {
		ZSTD_inBuffer in = { data->p + off, push < data->len - off ? push : data->len - off, 0 };
		size_t r;

		do {
			char tmp[65536];
			ZSTD_outBuffer o = { tmp, sizeof(tmp), 0 };

			r = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
			if (ZSTD_isError(r))
				abort();
			wput(&z, tmp, o.pos);
		} while (r);
		/* One push's output goes out as records of up to chunk bytes. */
		for (zoff = 0; zoff < z.len; zoff += chunk) {
			size_t n = z.len - zoff < chunk ? z.len - zoff : chunk;

			put_raw(out, cl, PERF_RECORD_COMPRESSED, z.p + zoff, n);
		}
		z.len = 0;
	}
	wfree(&z);
	ZSTD_freeCCtx(c);
}

static struct wbuf comp_feature(uint32_t type)
{
	struct wbuf f = { 0 };

	wput32(&f, 1);		/* version */
	wput32(&f, type);
	wput32(&f, 1);		/* level */
	wput32(&f, 10);		/* ratio */
	wput32(&f, 528384);	/* mmap_len */
	return f;
}

/* Walk a compressed file: plain COMM, the decompressed records, FINISHED_ROUND. */
static void check_compressed(const char *path, const struct wbuf *plain,
			     const struct reclog *pl, const struct reclog *cl, size_t doff)
{
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	uint64_t last_off = 0;
	size_t i = 0, bad = 0, k;
	int r;

	CHECK_EQ_U64(perfdata__open(path, 0, &pd, &err), 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_COMM);
	CHECK_EQ_U64(ev.in_compressed, 0);
	while ((r = perfdata__next(pd, &ev, &err)) == 1 && ev.in_compressed) {
		const struct perf_event_header *h = (const void *)(plain->p + pl->off[i]);
		int found = 0;

		for (k = 0; k < cl->n && !found; k++)
			found = ev.file_offset == doff + cl->off[k];
		if (i >= pl->n || !found || ev.file_offset < last_off || ev.seq != i + 1 ||
		    memcmp(ev.hdr, h, h->size) || ((uintptr_t)ev.hdr & 7))
			bad++;
		last_off = ev.file_offset;
		i++;
	}
	CHECK_EQ_U64(bad, 0);
	CHECK_EQ_U64(i, pl->n);
	CHECK_EQ_U64(r, 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_FINISHED_ROUND);
	CHECK_EQ_U64(ev.in_compressed, 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
	/* Rewind restarts the zstd stream too. */
	CHECK_EQ_U64(perfdata__rewind(pd, &err), 0);
	CHECK_EQ_U64(drain(pd, &err), (long)pl->n + 2);
	perfdata__close(pd);

	/* Raw: COMPRESSED records as they are. */
	CHECK_EQ_U64(perfdata__open(path, PD_OPEN_RAW_COMPRESSED, &pd, &err), 0);
	k = 0;
	while (perfdata__next(pd, &ev, &err) == 1)
		k += ev.hdr->type == PERF_RECORD_COMPRESSED;
	CHECK_EQ_U64(k, cl->n);
	perfdata__close(pd);
}

static void test_compressed(void)
{
	struct tsample s = { .pid = 8, .tid = 9, .cpu = 1, .period = 5 };
	struct ap_err err = { 0 };
	struct wbuf plain = { 0 }, data = { 0 }, file = { 0 };
	struct wbuf feat = comp_feature(1);
	struct reclog *pl = reclog_new(), *cl = reclog_new();
	struct perfdata *pd;
	struct tattr a;
	size_t doff;
	int i;

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	for (i = 0; i < 3000; i++) {
		s.ip = 0x1000 + (uint64_t)i * 7;
		s.time = (uint64_t)i;
		if (i % 100 == 0)
			put_mmap2(&plain, pl, ST_ONE, &s, 0x1000, 0x100, 0, "/tmp/lib.so", 0);
		put_sample(&plain, pl, ST_ONE, &s, PERF_RECORD_MISC_USER);
	}
	/* Small pushes, small chunks: records straddle COMPRESSED records. */
	put_comm(&data, NULL, ST_ONE, &s, "plain");
	compress_records(&data, cl, &plain, 10007, 1500);
	put_rec(&data, NULL, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL, 0);
	doff = build_file(&file, &a, 1, &data, &(struct fopts){ .comp_feat = &feat });
	write_file(tpath("z1.data"), file.p, file.len);
	check_compressed(tpath("z1.data"), &plain, pl, cl, doff);

	/* Every 61st cut: clean end, truncated, never an error. */
	{
		size_t cut, bad = 0;
		const char *p = tpath("zcut.data");

		for (cut = doff; cut < doff + data.len; cut += 61) {
			write_file(p, file.p, cut);
			if (perfdata__open(p, 0, &pd, &err)) {
				bad++;
				continue;
			}
			if (drain(pd, &err) < 0 || !perfdata__truncated(pd, NULL, NULL))
				bad++;
			perfdata__close(pd);
		}
		CHECK_EQ_U64(bad, 0);
	}

	/* One huge push: a COMPRESSED record expands past our buffer. */
	{
		struct reclog *pl2 = reclog_new(), *cl2 = reclog_new();
		struct wbuf plain2 = { 0 };

		s.ip = 0x77;
		for (i = 0; i < 300000; i++)
			put_sample(&plain2, pl2, ST_ONE, &s, PERF_RECORD_MISC_USER);
		data.len = file.len = 0;
		put_comm(&data, NULL, ST_ONE, &s, "plain");
		compress_records(&data, cl2, &plain2, plain2.len, 65000);
		put_rec(&data, NULL, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0, NULL, 0);
		doff = build_file(&file, &a, 1, &data, NULL);
		write_file(tpath("z2.data"), file.p, file.len);
		check_compressed(tpath("z2.data"), &plain2, pl2, cl2, doff);
		wfree(&plain2);
		free(pl2);
		free(cl2);
	}

	/* Garbage payload: a clear error. */
	{
		char junk[200];
		char want[64];
		size_t k;

		memset(junk, 0x5a, sizeof(junk));
		data.len = file.len = 0;
		put_comm(&data, NULL, ST_ONE, &s, "plain");
		k = data.len;
		put_raw(&data, NULL, PERF_RECORD_COMPRESSED, junk, sizeof(junk));
		doff = build_file(&file, &a, 1, &data, NULL);
		write_file(tpath("zbad.data"), file.p, file.len);
		CHECK_EQ_U64(perfdata__open(tpath("zbad.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), (uint64_t)-1);
		snprintf(want, sizeof(want), "corrupt compressed record at offset %zu:", doff + k);
		CHECK_STR_CONTAINS(err.msg, want);
		CHECK_STR_CONTAINS(err.msg, tpath("zbad.data"));
		perfdata__close(pd);

		/* Another compression type than zstd. */
		wfree(&feat);
		feat = comp_feature(7);
		file.len = 0;
		build_file(&file, &a, 1, &data, &(struct fopts){ .comp_feat = &feat });
		write_file(tpath("zbad.data"), file.p, file.len);
		CHECK_EQ_U64(perfdata__open(tpath("zbad.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), (uint64_t)-1);
		CHECK_STR_CONTAINS(err.msg, "unsupported compression type 7");
		perfdata__close(pd);
	}
	wfree(&feat);
	wfree(&plain);
	wfree(&data);
	wfree(&file);
	free(pl);
	free(cl);
}

/* Many windows' worth: big records, odd sizes, an AUXTRACE payload to skip. */
static void test_big(void)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct reclog *l = reclog_new();
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct tattr a;
	char *body = malloc(65536);
	uint32_t x = 1;
	size_t doff, i, k;

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	for (i = 0; i < 400; i++) {
		/* the shortest AUXTRACE_ERROR is 112 bytes */
		size_t n = i % 7 == 0 ? 65527 : (x % 9000) + 104;

		for (k = 0; k < n; k++) {
			x = x * 1103515245 + 12345;
			body[k] = (char)(x >> 16);
		}
		put_raw(&data, l, PERF_RECORD_AUXTRACE_ERROR, body, n);
		if (i == 200) {
			struct perf_record_auxtrace at = { 0 };
			size_t pay = 5u << 20;

			at.size = pay;
			put_raw(&data, l, PERF_RECORD_AUXTRACE, (char *)&at + 8, sizeof(at) - 8);
			wput(&data, NULL, pay);
		}
	}
	doff = build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("big.data"), file.p, file.len);
	CHECK_EQ_U64(perfdata__open(tpath("big.data"), 0, &pd, &err), 0);
	check_same_records(pd, &data, l, doff);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
	perfdata__close(pd);
	/* Cut inside the AUXTRACE payload. */
	write_file(tpath("big.data"), file.p, doff + l->off[202] - 100);
	CHECK_EQ_U64(perfdata__open(tpath("big.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(drain(pd, &err), 202);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 1);
	perfdata__close(pd);
	free(body);
	free(l);
	wfree(&data);
	wfree(&file);
}

static void test_names(void)
{
	CHECK(!strcmp(perfdata__record_name(PERF_RECORD_SAMPLE), "sample"));
	CHECK(!strcmp(perfdata__record_name(PERF_RECORD_MMAP2), "mmap2"));
	CHECK(!strcmp(perfdata__record_name(PERF_RECORD_COMPRESSED), "compressed"));
	CHECK(!strcmp(perfdata__record_name(PERF_RECORD_FINISHED_INIT), "finished_init"));
	CHECK(!strcmp(perfdata__record_name(0), "unknown"));
	CHECK(!strcmp(perfdata__record_name(50), "unknown"));
	CHECK(!strcmp(perfdata__record_name(100000), "unknown"));
}

/* ---- every record type against its minimum size ------------------------ */

/*
 * Read a file of one attr (sample_type st, sample_id_all) whose data is the
 * record under test, then (unless last) a COMM "next" marker. Returns how
 * many times the record under test was handed out (0 or 1) and checks the
 * marker still comes and the malformed count says the same.
 */
static int handed_out(const char *what, uint64_t st, const struct wbuf *rec, int last,
		      struct pd_event *out)
{
	struct tsample s = { .pid = 3, .tid = 4, .time = 77, .cpu = 1 };
	struct wbuf data = { 0 }, file = { 0 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a;
	int got = 0, marker = 0, r;
	static char keep[70000];

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, st, 1);
	wput(&data, rec->p, rec->len);
	if (!last)
		put_comm(&data, NULL, st, &s, "next");
	build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("short.data"), file.p, file.len);
	if (perfdata__open(tpath("short.data"), 0, &pd, &err)) {
		fprintf(stderr, "%s: %s\n", what, err.msg);
		CHECK(0);
		return -1;
	}
	while ((r = perfdata__next(pd, &ev, &err)) == 1) {
		if (ev.hdr->type == PERF_RECORD_COMM && !strcmp(ev.ev->comm.comm, "next")) {
			marker++;
			continue;
		}
		got++;
		if (out) {
			/* keep the bytes: ev points into the reader */
			memcpy(keep, ev.hdr, ev.hdr->size);
			*out = ev;
			out->hdr = (const struct perf_event_header *)keep;
			out->ev = (const union perf_event *)keep;
		}
	}
	if (r != 0 || marker != !last || perfdata__malformed(pd) != (uint64_t)!got)
		fprintf(stderr, "%s: r=%d marker=%d got=%d malformed=%llu\n", what, r, marker, got,
			(unsigned long long)perfdata__malformed(pd));
	CHECK_EQ_U64(r, 0);
	CHECK_EQ_U64(marker, !last);
	CHECK_EQ_U64(perfdata__malformed(pd), !got);
	perfdata__close(pd);
	wfree(&data);
	wfree(&file);
	return got;
}

/* A kernel record: header, body, then the ST_ONE trailer (ntrail of its u64s). */
static void kernel_rec(struct wbuf *b, uint32_t type, uint16_t misc, const void *body,
		       size_t blen, size_t ntrail)
{
	struct tsample s = { .pid = 3, .tid = 4, .time = 77, .cpu = 1 };
	uint64_t t[8];
	size_t n = make_sid(ST_ONE, &s, t);

	b->len = 0;
	put_rec(b, NULL, type, misc, body, blen, t + (n - ntrail), ntrail);
}

struct kcase {
	uint32_t type;
	uint16_t misc;
	size_t body;		/* the shortest valid body */
	int str_at;		/* a string starts at this body offset, -1: none */
};

#define KBODY(t, m) (offsetof(t, m) - 8)

static void test_short_kernel_records(void)
{
	const struct kcase cases[] = {
		{ PERF_RECORD_MMAP, 0, KBODY(struct perf_record_mmap, filename) + 8,
		  KBODY(struct perf_record_mmap, filename) },
		{ PERF_RECORD_MMAP2, 0, KBODY(struct perf_record_mmap2, filename) + 8,
		  KBODY(struct perf_record_mmap2, filename) },
		{ PERF_RECORD_COMM, 0, 16, 8 },
		{ PERF_RECORD_LOST, 0, 16, -1 },
		{ PERF_RECORD_EXIT, 0, 24, -1 },
		{ PERF_RECORD_FORK, 0, 24, -1 },
		{ PERF_RECORD_THROTTLE, 0, 24, -1 },
		{ PERF_RECORD_UNTHROTTLE, 0, 24, -1 },
		{ PERF_RECORD_READ, 0, 16, -1 },	/* pid, tid, value */
		{ PERF_RECORD_AUX, 0, 24, -1 },
		{ PERF_RECORD_ITRACE_START, 0, 8, -1 },
		{ PERF_RECORD_LOST_SAMPLES, 0, 8, -1 },
		{ PERF_RECORD_SWITCH_CPU_WIDE, 0, 8, -1 },
		{ PERF_RECORD_NAMESPACES, 0, 16, -1 },
		{ PERF_RECORD_KSYMBOL, 0, KBODY(struct perf_record_ksymbol, name) + 8,
		  KBODY(struct perf_record_ksymbol, name) },
		{ PERF_RECORD_BPF_EVENT, 0, 16, -1 },
		{ PERF_RECORD_CGROUP, 0, 16, 8 },
		{ PERF_RECORD_TEXT_POKE, 0, 16, -1 },
		{ PERF_RECORD_AUX_OUTPUT_HW_ID, 0, 8, -1 },
	};
	uint8_t body[256];
	struct wbuf b = { 0 };
	struct pd_event ev;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kcase *c = &cases[i];
		const char *name = perfdata__record_name(c->type);
		int last;

		memset(body, 0, sizeof(body));
		if (c->str_at >= 0)
			memcpy(body + c->str_at, "abcdefg", 8);
		/* the shortest valid form is handed out with its trailer */
		kernel_rec(&b, c->type, c->misc, body, c->body, 3);
		if (handed_out(name, ST_ONE, &b, 0, &ev) == 1) {
			CHECK_EQ_U64(ev.hdr->type, c->type);
			CHECK_EQ_U64(ev.sid_off, 8 + c->body);
			CHECK_EQ_U64(ev.sid_len, 24);
			CHECK_EQ_U64(ev.has_sid, 1);
			CHECK_EQ_U64(ev.sid.time, 77);
			CHECK_EQ_U64(ev.sid.cpu, 1);
			CHECK_EQ_U64(ev.sid.tid, 4);
		} else {
			fprintf(stderr, "%s: the valid form was refused\n", name);
			CHECK(0);
		}
		for (last = 0; last < 2; last++) {
			/* 8 bytes short of the fixed fields (or of the string) */
			kernel_rec(&b, c->type, c->misc, body,
				   c->str_at >= 0 ? (size_t)c->str_at : c->body - 8, 3);
			CHECK_EQ_U64(handed_out(name, ST_ONE, &b, last, NULL), 0);
			/* the body is all there but the trailer misses a u64 */
			kernel_rec(&b, c->type, c->misc, body, c->body, 2);
			CHECK_EQ_U64(handed_out(name, ST_ONE, &b, last, NULL), 0);
			/* the string runs into the trailer: no NUL inside the record */
			if (c->str_at >= 0) {
				memset(body + c->str_at, 'A', 8);
				kernel_rec(&b, c->type, c->misc, body, c->body, 3);
				CHECK_EQ_U64(handed_out(name, ST_ONE, &b, last, NULL), 0);
				memcpy(body + c->str_at, "abcdefg", 8);
			}
		}
		/* a size that is not a multiple of 8 */
		kernel_rec(&b, c->type, c->misc, body, c->body, 3);
		wput(&b, NULL, 4);
		((struct perf_event_header *)b.p)->size += 4;
		CHECK_EQ_U64(handed_out(name, ST_ONE, &b, 1, NULL), 0);
	}

	/* Counts and lengths that run past the record. */
	memset(body, 0, sizeof(body));
	body[8] = 1;	/* NAMESPACES nr 1, no link_info */
	kernel_rec(&b, PERF_RECORD_NAMESPACES, 0, body, 16, 3);
	CHECK_EQ_U64(handed_out("namespaces nr", ST_ONE, &b, 0, NULL), 0);
	kernel_rec(&b, PERF_RECORD_NAMESPACES, 0, body, 32, 3);
	CHECK_EQ_U64(handed_out("namespaces nr 1", ST_ONE, &b, 0, NULL), 1);
	memset(body, 0, sizeof(body));
	body[8] = 2;	/* TEXT_POKE old_len 2, new_len 3: 12 + 5 > 16 */
	body[10] = 3;
	kernel_rec(&b, PERF_RECORD_TEXT_POKE, 0, body, 16, 3);
	CHECK_EQ_U64(handed_out("text_poke lens", ST_ONE, &b, 0, NULL), 0);
	body[10] = 2;
	kernel_rec(&b, PERF_RECORD_TEXT_POKE, 0, body, 16, 3);
	CHECK_EQ_U64(handed_out("text_poke lens ok", ST_ONE, &b, 0, NULL), 1);
	/* MMAP2 with a build id longer than its 20-byte field */
	memset(body, 0, sizeof(body));
	body[KBODY(struct perf_record_mmap2, build_id_size)] = 21;
	kernel_rec(&b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID, body,
		   KBODY(struct perf_record_mmap2, filename) + 8, 3);
	CHECK_EQ_U64(handed_out("mmap2 build id", ST_ONE, &b, 0, NULL), 0);
	/* a READ of a group: nr values that are not there */
	{
		struct wbuf data = { 0 }, file = { 0 };
		struct ap_err err = { 0 };
		struct perfdata *pd;
		struct tattr a;
		uint64_t v[4] = { pack32(3, 4), 5, 0, 0 };	/* nr 5 */

		tattr_init(&a, PERF_TYPE_SOFTWARE, 0, ST_ONE, 0);
		a.attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		put_rec(&data, NULL, PERF_RECORD_READ, 0, v, sizeof(v), NULL, 0);
		v[1] = 1;	/* nr 1: value and id fit */
		put_rec(&data, NULL, PERF_RECORD_READ, 0, v, sizeof(v), NULL, 0);
		build_file(&file, &a, 1, &data, NULL);
		write_file(tpath("read.data"), file.p, file.len);
		CHECK_EQ_U64(perfdata__open(tpath("read.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), 1);
		CHECK_EQ_U64(perfdata__malformed(pd), 1);
		perfdata__close(pd);
		wfree(&data);
		wfree(&file);
	}
	wfree(&b);
}

/* The phantom mapping: an MMAP shorter than its fixed fields, then a sample. */
static void test_phantom_mmap(void)
{
	struct tsample s = { .pid = 3, .tid = 4, .time = 77, .cpu = 1, .ip = 0x1234,
			     .period = 1 };
	struct wbuf data = { 0 }, file = { 0 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a;
	uint64_t body[2] = { pack32(3, 4), 0x7f0000000000ULL };	/* pid, tid, start */

	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 0);
	/* What the old reader took as len, pgoff and name came from the sample. */
	put_rec(&data, NULL, PERF_RECORD_MMAP, 0, body, sizeof(body), NULL, 0);
	put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	put_rec(&data, NULL, PERF_RECORD_MMAP2, 0, body, sizeof(body), NULL, 0);
	build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("phantom.data"), file.p, file.len);
	CHECK_EQ_U64(perfdata__open(tpath("phantom.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_SAMPLE);
	CHECK_EQ_U64(ev.sample.ip, 0x1234);
	CHECK_EQ_U64(ev.seq, 0);
	/* and the last record of the file, short: not handed out either */
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 0);
	CHECK_EQ_U64(perfdata__malformed(pd), 2);
	CHECK_EQ_U64(perfdata__truncated(pd, NULL, NULL), 0);
	perfdata__close(pd);
	wfree(&data);
	wfree(&file);
}

/* A core of two functions (offsets 0 and 2048) in one page of text; *buf backs it. */
static struct cwasm_module *two_func_core(uint8_t **buf)
{
	static const uint8_t text[4096] = { 0xc3 };
	uint32_t offs[2] = { 0, 2048 };
	struct cwasm_spec spec = { 0 };
	struct cwasm_module *m = NULL;
	struct ap_err err = { 0 };
	size_t len = 0;

	spec.version = 7;
	cwasm_target__spec(&spec.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	spec.text = text;
	spec.text_size = sizeof(text);
	spec.nfuncs = 2;
	spec.offsets = offs;
	CHECK_EQ_U64(cwasm__build(&spec, buf, &len, &err), 0);
	CHECK_EQ_U64(cwasm__parse(*buf, len, "core.cwasm", &m, &err), 0);
	return m;
}

/*
 * Attribution over such a file: pid -1 (the kernel's maps) and 0 (idle)
 * map no core, so no perf map or jitdump is ever written for them; the
 * same mapping in a real process is taken. A file inject wrote (a
 * jitted-*.so over the core) makes a recording whose samples no core gets:
 * said, not reported as 0 samples.
 */
static void test_attr_pids_and_injected(void)
{
	const uint64_t base = 0x7f0000000000ULL;
	uint32_t pids[3] = { (uint32_t)-1, 0, 42 };
	struct wbuf data = { 0 }, file = { 0 };
	struct attr_core core = { 0 };
	struct attr_opts o = { .pid = -1 };
	struct attr_result res;
	struct ap_err err = { 0 };
	struct cwasm_module *m;
	struct tattr a;
	uint8_t *buf;

	m = two_func_core(&buf);
	tattr_init(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	for (int i = 0; i < 3; i++) {
		struct tsample s = { .pid = pids[i], .tid = pids[i], .time = 10 + (uint64_t)i,
				     .period = 1 };

		put_mmap2(&data, NULL, ST_ONE, &s, base, 4096, 0, "//anon", 0);
		s.time += 100;
		s.ip = base + 2048 + (uint64_t)i;
		put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	}
	build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("pids.data"), file.p, file.len);
	core.mod = m;
	CHECK_EQ_U64(attr_run_file(tpath("pids.data"), &core, 1, &o, &res, &err), 0);
	CHECK_EQ_U64(res.nmappings, 1);
	CHECK_EQ_U64(res.nmappings ? res.mappings[0].pid : 0, 42);
	CHECK_EQ_U64(res.total_samples, 3);
	CHECK_EQ_U64(res.attributed_samples, 1);
	CHECK_EQ_U64(core.func_samples[1], 1);
	CHECK_EQ_U64(res.injected, 0);
	attr_result__exit(&res);
	free(core.func_samples);

	/* the same, with perf inject --jit's file over pid 42's core */
	{
		struct tsample s = { .pid = 42, .tid = 42, .time = 50, .period = 1 };

		wfree(&file);
		put_mmap2(&data, NULL, ST_ONE, &s, base + 2048, 64, 0x80,
			  "/tmp/x/jitted-42-2.so", 0);
		s.time = 200;
		s.ip = base + 2049;
		put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	}
	build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("inj.data"), file.p, file.len);
	memset(&core, 0, sizeof(core));
	core.mod = m;
	CHECK_EQ_U64(attr_run_file(tpath("inj.data"), &core, 1, &o, &res, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "written by perf inject --jit");
	CHECK_EQ_U64(err.hint, AP_HINT_INJECTED);
	attr_result__exit(&res);
	free(core.func_samples);
	CHECK_EQ_U64(attr__injected_name("/a/b/jitted-7-12.so"), ATTR_INJECTED_JIT);
	CHECK_EQ_U64(attr__injected_name("x.d/sample.core0.aotperf.so"), ATTR_INJECTED_IMAGE);
	CHECK_EQ_U64(attr__injected_name("jitted-.so"), 0);
	CHECK_EQ_U64(attr__injected_name("//anon"), 0);
	cwasm__delete(m);
	free(buf);
	wfree(&data);
	wfree(&file);
}

/* ---- the session (session/session.h): one read, tools fed, passes on request ---- */

struct ttool {
	struct session_tool tool;	/* first: the session hands it back */
	uint64_t records[4];		/* per pass */
	int pass, passes_wanted, stop_after;
};

static int ttool_record(struct session_tool *t, const struct pd_event *ev, struct ap_err *err)
{
	struct ttool *tt = (struct ttool *)t;

	(void)ev;
	(void)err;
	tt->records[tt->pass]++;
	return tt->stop_after && tt->records[tt->pass] == (uint64_t)tt->stop_after;
}

static int ttool_pass_end(struct session_tool *t, struct ap_err *err)
{
	struct ttool *tt = (struct ttool *)t;

	(void)err;
	return ++tt->pass < tt->passes_wanted;
}

static void ttool_init(struct ttool *tt, int passes, int stop_after)
{
	memset(tt, 0, sizeof(*tt));
	tt->tool.record = ttool_record;
	tt->tool.pass_end = ttool_pass_end;
	tt->passes_wanted = passes;
	tt->stop_after = stop_after;
}

/* A hook of the attribution: samples and mapping records it was handed. */
struct thooks {
	uint64_t samples, in_core, maps, restarts;
};

static void th_sample(void *ctx, const struct pd_sample *s, int core, uint32_t func,
		      uint64_t off, struct attr_lookup *lk)
{
	struct thooks *h = ctx;

	(void)s, (void)func, (void)off, (void)lk;
	h->samples++;
	h->in_core += core >= 0;
}

static int th_map(void *ctx, const struct attr_map_event *m)
{
	(void)m;
	((struct thooks *)ctx)->maps++;
	return 0;
}

static void th_restart(void *ctx)
{
	struct thooks *h = ctx;

	h->restarts++;
	h->samples = h->in_core = 0;
}

/*
 * Two new processes' first samples (pid 50 at time 30 in base's first
 * function, pid 51 at time t51 in base + 0x10000's second), then pid 51's
 * FORK from 50 at fork51 (0: none) and mapping at map51, then pid 50's
 * mapping at time 5: every introducing record after the samples.
 */
static void put_two_new(struct wbuf *w, uint64_t base, uint64_t t51, uint64_t fork51,
			uint64_t map51)
{
	struct tsample pa = { .pid = 50, .tid = 50, .time = 30, .period = 1, .ip = base + 16 };
	struct tsample pb = { .pid = 51, .tid = 51, .time = t51, .period = 1,
			      .ip = base + 0x10000 + 2048 };

	put_sample(w, NULL, ST_ONE, &pa, PERF_RECORD_MISC_USER);
	put_sample(w, NULL, ST_ONE, &pb, PERF_RECORD_MISC_USER);
	if (fork51) {
		pb.time = fork51;
		put_fork(w, NULL, PERF_RECORD_FORK, ST_ONE, &pb, 50);
	}
	pb.time = map51;
	put_mmap2(w, NULL, ST_ONE, &pb, base + 0x10000, 4096, 0, "//anon", 0);
	pa.time = 5;
	put_mmap2(w, NULL, ST_ONE, &pa, base, 4096, 0, "//anon", 0);
}

/*
 * Two hooked readers of one session (two events' attributions): one
 * walk ahead, its finds handed to both (session/lookahead.h); each reads
 * once with what one reader alone got (one).
 */
static void check_two_readers(const char *name, struct cwasm_module *m,
			      const struct attr_result *one)
{
	struct thooks h[2] = { 0 };
	struct attr_opts o[2];
	struct attr_core core[2] = { { .mod = m }, { .mod = m } };
	struct attr_result res[2];
	struct attr_reader *rd[2] = { 0 };
	struct session_tool *tools[2];
	struct session *se;
	struct ap_err err = { 0 };

	CHECK_EQ_U64(session__open(tpath(name), &se, &err), 0);
	for (int i = 0; i < 2; i++) {
		o[i] = (struct attr_opts){ .pid = -1, .on_sample = th_sample, .on_map = th_map,
					   .on_restart = th_restart, .ctx = &h[i] };
		CHECK_EQ_U64(attr_reader__new(se, &core[i], 1, &o[i], &res[i], &rd[i], &err), 0);
		tools[i] = attr_reader__tool(rd[i]);
	}
	CHECK_EQ_U64(session__process(se, tools, 2, &err), 0);
	for (int i = 0; i < 2; i++) {
		CHECK_EQ_U64(attr_reader__finish(rd[i], &err), 0);
		CHECK_EQ_U64(res[i].passes, 1);
		CHECK_EQ_U64(res[i].read_ahead, one->read_ahead);
		CHECK_EQ_U64(res[i].read_ahead_bytes, one->read_ahead_bytes);
		CHECK_EQ_U64(res[i].nmappings, one->nmappings);
		CHECK_EQ_U64(h[i].restarts, 0);
		CHECK_EQ_U64(res[i].attributed_samples, one->attributed_samples);
		CHECK_EQ_U64(core[i].func_samples[0], 1);
		CHECK_EQ_U64(core[i].func_samples[1], 1);
		attr_reader__delete(rd[i]);
		attr_result__exit(&res[i]);
		free(core[i].func_samples);
		free(core[i].func_period);
	}
	session__delete(se);
}

/*
 * recs, samples and the records that introduce them out of order, read
 * hooked in one pass with `ahead` records taken ahead of their place
 * (session/lookahead.h): nmaps mappings, the map hook called once for each
 * mapping and fork (nhooked), one sample in each of m's functions. recs
 * is freed.
 */
static void check_read_once(const char *name, struct wbuf *recs, const struct tattr *at,
			    struct cwasm_module *m, uint64_t ahead, uint64_t nmaps,
			    uint64_t nhooked)
{
	struct thooks h = { 0 };
	struct attr_opts o = { .pid = -1, .on_sample = th_sample, .on_map = th_map,
			       .on_restart = th_restart, .ctx = &h };
	struct attr_core core = { .mod = m };
	struct attr_result res;
	struct ap_err err = { 0 };
	struct wbuf file = { 0 };

	build_file(&file, at, 1, recs, NULL);
	write_file(tpath(name), file.p, file.len);
	CHECK_EQ_U64(attr_run_file(tpath(name), &core, 1, &o, &res, &err), 0);
	CHECK_EQ_U64(res.passes, 1);
	CHECK_EQ_U64(res.read_ahead, ahead);
	CHECK_EQ_U64(h.restarts, 0);
	CHECK_EQ_U64(res.nmappings, nmaps);
	CHECK_EQ_U64(h.maps, nhooked);
	CHECK_EQ_U64(res.attributed_samples, 2);
	CHECK_EQ_U64(core.func_samples[0], 1);
	CHECK_EQ_U64(core.func_samples[1], 1);
	check_two_readers(name, m, &res);
	attr_result__exit(&res);
	free(core.func_samples);
	wfree(&file);
	wfree(recs);
}

static void test_session(void)
{
	const uint64_t base = 0x7f0000000000ULL;
	struct wbuf data = { 0 }, file = { 0 };
	struct ttool a, b, c;
	struct session_tool *tools[3] = { &a.tool, &b.tool, &c.tool };
	struct session_stats st;
	struct session *se;
	struct ap_err err = { 0 };
	struct cwasm_module *m;
	struct tattr at;
	uint8_t *buf;
	/* records: the process named, two samples, one mapping, a sample */
	const uint64_t n = 5;
	size_t named;

	tattr_init(&at, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ONE, 1);
	{
		/* a sample before the mapping that holds it (another CPU's buffer) */
		struct tsample s = { .pid = 42, .tid = 42, .time = 0, .period = 1,
				     .ip = base + 2048 };

		/* named as perf names a process already running: synthesized, time 0 */
		put_comm(&data, NULL, ST_ONE, &s, "runtime");
		named = data.len;
		s.time = 20;
		put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
		s.ip = 0x1000;	/* in no core */
		put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
		s.time = 10;
		put_mmap2(&data, NULL, ST_ONE, &s, base, 4096, 0, "//anon", 0);
		s.time = 30;
		s.ip = base + 16;
		put_sample(&data, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
	}
	build_file(&file, &at, 1, &data, NULL);
	write_file(tpath("session.data"), file.p, file.len);

	/* three tools, one pass for all but the one that asks for a second */
	CHECK_EQ_U64(session__open(tpath("session.data"), &se, &err), 0);
	ttool_init(&a, 1, 0);
	ttool_init(&b, 2, 0);
	ttool_init(&c, 1, 1);	/* has what it needs after one record */
	CHECK_EQ_U64(session__process(se, tools, 3, &err), 0);
	CHECK_EQ_U64(a.records[0], n);
	CHECK_EQ_U64(a.records[1], 0);
	CHECK_EQ_U64(b.records[0], n);
	CHECK_EQ_U64(b.records[1], n);
	CHECK_EQ_U64(c.records[0], 1);
	session__stats(se, &st);
	CHECK_EQ_U64(st.passes, 2);
	CHECK_EQ_U64(st.records, 2 * n);
	/* a pass every tool left early reads no further */
	ttool_init(&c, 1, 1);
	CHECK_EQ_U64(session__process(se, &tools[2], 1, &err), 0);
	session__stats(se, &st);
	CHECK_EQ_U64(st.passes, 3);
	CHECK_EQ_U64(st.records, 2 * n + 1);
	/* and the next starts from the first record */
	ttool_init(&a, 1, 0);
	CHECK_EQ_U64(session__process(se, tools, 1, &err), 0);
	CHECK_EQ_U64(a.records[0], n);
	session__delete(se);

	/*
	 * The attribution as a tool, hooked: the mapping comes after a sample
	 * it holds, so the one pass falls back; the rest of that pass is its
	 * mappings pass, the samples are read once more (2 passes, not 3), and
	 * the hook gets each mapping once.
	 */
	m = two_func_core(&buf);
	{
		struct thooks h = { 0 };
		struct attr_opts o = { .pid = -1, .on_sample = th_sample, .on_map = th_map,
				       .on_restart = th_restart, .ctx = &h };
		struct attr_core core = { .mod = m };
		struct attr_result res;

		CHECK_EQ_U64(attr_run_file(tpath("session.data"), &core, 1, &o, &res, &err), 0);
		CHECK_EQ_U64(res.passes, 2);
		CHECK_EQ_U64(h.restarts, 1);
		CHECK_EQ_U64(h.maps, 1);
		CHECK_EQ_U64(h.samples, 3);
		CHECK_EQ_U64(h.in_core, 2);
		CHECK_EQ_U64(res.total_samples, 3);
		CHECK_EQ_U64(res.attributed_samples, 2);
		CHECK_EQ_U64(core.func_samples[0], 1);
		CHECK_EQ_U64(core.func_samples[1], 1);
		attr_result__exit(&res);
		free(core.func_samples);

		/* the passes of that read, counted by the session */
		memset(&h, 0, sizeof(h));
		memset(&core, 0, sizeof(core));
		core.mod = m;
		CHECK_EQ_U64(session__open(tpath("session.data"), &se, &err), 0);
		CHECK_EQ_U64(attr__run(se, &core, 1, &o, &res, &err), 0);
		session__stats(se, &st);
		CHECK_EQ_U64(st.passes, 2);
		CHECK_EQ_U64(st.records, 2 * n);
		session__delete(se);
		attr_result__exit(&res);
		free(core.func_samples);

		/*
		 * The same records without that COMM: the first sample is of a
		 * process nothing has introduced, so the mapping is taken ahead
		 * of its place (session/lookahead.h): one pass, the same counts.
		 * (An exec's COMM with a time would not introduce it either:
		 * perf can write one before the process's FORK.)
		 */
		file.len = 0;
		data.p += named;
		data.len -= named;
		build_file(&file, &at, 1, &data, NULL);
		data.p -= named;
		data.len += named;
		write_file(tpath("intro.data"), file.p, file.len);
		memset(&h, 0, sizeof(h));
		memset(&core, 0, sizeof(core));
		core.mod = m;
		CHECK_EQ_U64(attr_run_file(tpath("intro.data"), &core, 1, &o, &res, &err), 0);
		CHECK_EQ_U64(res.passes, 1);
		CHECK_EQ_U64(res.read_ahead, 1);
		CHECK_EQ_U64(h.restarts, 0);
		CHECK_EQ_U64(h.maps, 1);
		CHECK_EQ_U64(h.samples, 3);
		CHECK_EQ_U64(h.in_core, 2);
		CHECK_EQ_U64(res.attributed_samples, 2);
		CHECK_EQ_U64(core.func_samples[0], 1);
		CHECK_EQ_U64(core.func_samples[1], 1);
		attr_result__exit(&res);
		free(core.func_samples);

		/*
		 * Two new processes, both mappings after both first samples: the
		 * first walk takes both, the second process's walk finds them
		 * again and takes neither twice (one mapping each).
		 */
		{
			struct wbuf two = { 0 };

			put_two_new(&two, base, 40, 0, 10);
			check_read_once("two-new.data", &two, &at, m, 2, 2, 2);
		}

		/*
		 * The first process's walk takes the second's FORK (older than
		 * its sample) but not the second's mapping (newer): the second
		 * is not known by that FORK, and its own walk takes the mapping.
		 */
		{
			struct wbuf two = { 0 };

			put_two_new(&two, base, 50, 20, 40);
			check_read_once("fork-ahead.data", &two, &at, m, 3, 2, 3);
		}

		/*
		 * The workload perf starts, named perf-exec at time 0 (perf's
		 * name for its child before the exec): that COMM introduces
		 * nothing, its exec and mapping come after its first samples.
		 */
		{
			struct wbuf w = { 0 };
			struct tsample s = { .pid = 60, .tid = 60, .time = 0, .period = 1,
					     .ip = base + 16 };

			put_comm(&w, NULL, ST_ONE, &s, "perf-exec");
			s.time = 30;
			put_sample(&w, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
			s.ip = base + 2048;
			put_sample(&w, NULL, ST_ONE, &s, PERF_RECORD_MISC_USER);
			s.time = 10;
			put_comm(&w, NULL, ST_ONE, &s, "runtime");
			put_mmap2(&w, NULL, ST_ONE, &s, base, 4096, 0, "//anon", 0);
			check_read_once("perf-exec.data", &w, &at, m, 2, 1, 1);
		}

		/*
		 * A process perf found running (synthesized COMM): a new
		 * thread's samples before its FORK and before the mapping it
		 * made. Threads, not processes, are looked for.
		 */
		{
			struct wbuf w = { 0 };
			struct tsample main = { .pid = 70, .tid = 70, .time = 0, .period = 1 };
			struct tsample th = { .pid = 70, .tid = 71, .time = 30, .period = 1,
					      .ip = base + 16 };

			put_comm(&w, NULL, ST_ONE, &main, "runtime");
			put_sample(&w, NULL, ST_ONE, &th, PERF_RECORD_MISC_USER);
			th.ip = base + 2048;
			put_sample(&w, NULL, ST_ONE, &th, PERF_RECORD_MISC_USER);
			th.time = 10;
			put_fork(&w, NULL, PERF_RECORD_FORK, ST_ONE, &th, 70);
			th.time = 20;
			put_mmap2(&w, NULL, ST_ONE, &th, base, 4096, 0, "//anon", 0);
			check_read_once("new-thread.data", &w, &at, m, 2, 1, 1);
		}
	}
	cwasm__delete(m);
	free(buf);
	wfree(&data);
	wfree(&file);

	/* a stream is read once: a second pass fails */
	{
		struct wbuf p = { 0 };
		int fds[2], saved = dup(0), status = 0;
		pid_t pid;

		build_pipe(&p, NULL, 10);
		CHECK_EQ_U64(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			_exit(write(fds[1], p.p, p.len) == (ssize_t)p.len ? 0 : 1);
		}
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		CHECK_EQ_U64(session__open("-", &se, &err), 0);
		CHECK(session__stream(se));
		ttool_init(&b, 2, 0);
		CHECK_EQ_U64(session__process(se, &tools[1], 1, &err), (uint64_t)-1);
		CHECK_STR_CONTAINS(err.msg, "-: a stream cannot be read twice");
		CHECK(b.records[0] > 10);
		session__delete(se);
		waitpid(pid, &status, 0);
		CHECK_EQ_U64(status, 0);
		dup2(saved, 0);
		close(saved);
		wfree(&p);
	}
}

struct ucase {
	uint32_t type;
	size_t body;		/* the shortest valid body */
	int str_at;		/* -1 or a string's body offset */
};

static void test_short_user_records(void)
{
	const struct ucase cases[] = {
		{ PERF_RECORD_HEADER_EVENT_TYPE, 72, -1 },
		{ PERF_RECORD_HEADER_BUILD_ID, KBODY(struct perf_record_header_build_id, filename) + 4,
		  KBODY(struct perf_record_header_build_id, filename) },
		{ PERF_RECORD_ID_INDEX, 8, -1 },
		{ PERF_RECORD_AUXTRACE_INFO, 8, -1 },
		{ PERF_RECORD_AUXTRACE_ERROR, KBODY(struct perf_record_auxtrace_error, machine_pid), -1 },
		{ PERF_RECORD_THREAD_MAP, 8, -1 },
		{ PERF_RECORD_CPU_MAP, 2, -1 },
		{ PERF_RECORD_STAT_CONFIG, 8, -1 },
		{ PERF_RECORD_STAT, 40, -1 },
		{ PERF_RECORD_STAT_ROUND, 16, -1 },
		{ PERF_RECORD_TIME_CONV, 24, -1 },
		{ PERF_RECORD_HEADER_FEATURE, 8, -1 },
		{ PERF_RECORD_HEADER_ATTR, PERF_ATTR_SIZE_VER0, -1 },	/* file mode: ignored */
	};
	uint8_t body[512];
	struct wbuf b = { 0 };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ucase *c = &cases[i];
		const char *name = perfdata__record_name(c->type);
		int last;

		memset(body, 0, sizeof(body));
		if (c->str_at >= 0)
			memcpy(body + c->str_at, "abc", 4);
		b.len = 0;
		put_raw(&b, NULL, c->type, body, c->body);
		CHECK_EQ_U64(handed_out(name, ST_ONE, &b, 0, NULL), 1);
		for (last = 0; last < 2; last++) {
			b.len = 0;
			put_raw(&b, NULL, c->type, body, c->str_at >= 0 ? (size_t)c->str_at : c->body - 1);
			CHECK_EQ_U64(handed_out(name, ST_ONE, &b, last, NULL), 0);
			if (c->str_at >= 0) {
				memset(body + c->str_at, 'A', 4);
				b.len = 0;
				put_raw(&b, NULL, c->type, body, c->body);
				CHECK_EQ_U64(handed_out(name, ST_ONE, &b, last, NULL), 0);
				memcpy(body + c->str_at, "abc", 4);
			}
		}
	}
	/* Arrays: nr entries must fit. */
	{
		const struct { uint32_t type; size_t entry; } arr[] = {
			{ PERF_RECORD_ID_INDEX, 32 }, { PERF_RECORD_THREAD_MAP, 24 },
			{ PERF_RECORD_STAT_CONFIG, 16 },
		};

		for (i = 0; i < 3; i++) {
			uint64_t nr = 2;

			memset(body, 0, sizeof(body));
			memcpy(body, &nr, 8);
			b.len = 0;
			put_raw(&b, NULL, arr[i].type, body, 8 + 2 * arr[i].entry - 1);
			CHECK_EQ_U64(handed_out("array short", ST_ONE, &b, 0, NULL), 0);
			b.len = 0;
			put_raw(&b, NULL, arr[i].type, body, 8 + 2 * arr[i].entry);
			CHECK_EQ_U64(handed_out("array", ST_ONE, &b, 0, NULL), 1);
			nr = ~0ULL / 4;		/* nr * size overflows */
			memcpy(body, &nr, 8);
			b.len = 0;
			put_raw(&b, NULL, arr[i].type, body, 8 + 2 * arr[i].entry);
			CHECK_EQ_U64(handed_out("array huge", ST_ONE, &b, 0, NULL), 0);
		}
	}
	/* EVENT_UPDATE per kind: the name and unit NUL-terminated, a scale's 8 bytes. */
	{
		const struct { uint64_t kind; size_t len; int ok; } eu[] = {
			{ PERF_EVENT_UPDATE__NAME, 16 + 8, 1 }, { PERF_EVENT_UPDATE__NAME, 16, 0 },
			{ PERF_EVENT_UPDATE__UNIT, 16 + 8, 1 }, { PERF_EVENT_UPDATE__UNIT, 16 + 4, 0 },
			{ PERF_EVENT_UPDATE__SCALE, 16 + 8, 1 }, { PERF_EVENT_UPDATE__SCALE, 16 + 7, 0 },
			{ PERF_EVENT_UPDATE__CPUS, 16 + 4, 1 }, { PERF_EVENT_UPDATE__CPUS, 16 + 1, 0 },
			{ 99, 16, 1 }, { 99, 15, 0 },
		};

		for (i = 0; i < sizeof(eu) / sizeof(eu[0]); i++) {
			memset(body, 'x', sizeof(body));
			memcpy(body, &eu[i].kind, 8);
			memset(body + 8, 0, 8);
			if (eu[i].kind == PERF_EVENT_UPDATE__NAME || eu[i].kind == PERF_EVENT_UPDATE__UNIT)
				body[16 + 7] = 0;	/* "xxxxxxx\0" when 8 bytes are there */
			b.len = 0;
			put_raw(&b, NULL, PERF_RECORD_EVENT_UPDATE, body, eu[i].len);
			CHECK_EQ_U64(handed_out("event_update", ST_ONE, &b, 0, NULL), eu[i].ok);
		}
	}
	/* HEADER_FEATURE: a COMPRESSED payload must hold its five u32. */
	{
		uint64_t id = 27;

		memset(body, 0, sizeof(body));
		memcpy(body, &id, 8);
		b.len = 0;
		put_raw(&b, NULL, PERF_RECORD_HEADER_FEATURE, body, 8 + 19);
		CHECK_EQ_U64(handed_out("feature compressed", ST_ONE, &b, 0, NULL), 0);
		b.len = 0;
		put_raw(&b, NULL, PERF_RECORD_HEADER_FEATURE, body, 8 + 20);
		CHECK_EQ_U64(handed_out("feature compressed ok", ST_ONE, &b, 0, NULL), 1);
	}
	/* A HEADER_ATTR whose attr.size says more than the record holds (file mode). */
	{
		struct perf_event_attr at = { 0 };

		at.size = sizeof(at) + 8;
		b.len = 0;
		put_raw(&b, NULL, PERF_RECORD_HEADER_ATTR, &at, sizeof(at));
		CHECK_EQ_U64(handed_out("attr size", ST_ONE, &b, 0, NULL), 0);
	}
	/* AUXTRACE and TRACING_DATA too short to say their payload: an error. */
	{
		const uint32_t types[2] = { PERF_RECORD_AUXTRACE, PERF_RECORD_HEADER_TRACING_DATA };

		for (i = 0; i < 2; i++) {
			struct wbuf data = { 0 }, file = { 0 };
			struct ap_err err = { 0 };
			struct perfdata *pd;
			struct tattr a;
			char want[128];
			size_t doff;

			tattr_init(&a, PERF_TYPE_SOFTWARE, 0, ST_ONE, 1);
			memset(body, 0, sizeof(body));
			put_raw(&data, NULL, types[i], body, 4);
			doff = build_file(&file, &a, 1, &data, NULL);
			write_file(tpath("aux.data"), file.p, file.len);
			CHECK_EQ_U64(perfdata__open(tpath("aux.data"), 0, &pd, &err), 0);
			CHECK_EQ_U64(drain(pd, &err), (uint64_t)-1);
			snprintf(want, sizeof(want), "%s record at offset %zu is too short",
				 perfdata__record_name(types[i]), doff);
			CHECK_STR_CONTAINS(err.msg, want);
			CHECK_EQ_U64(err.kind, AP_ERR_INPUT);
			perfdata__close(pd);
			wfree(&data);
			wfree(&file);
		}
	}
	wfree(&b);
}

/* A pipe-mode HEADER_ATTR that does not hold its attr: nothing after it can be read. */
static void test_pipe_bad_attr(void)
{
	struct perf_event_attr at = { 0 };
	struct wbuf p = { 0 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct tsample s = { .pid = 1, .tid = 1, .ip = 5, .period = 1 };

	wput64(&p, MAGIC2);
	wput64(&p, 16);
	at.size = sizeof(at);
	at.sample_type = ST_ONE;
	put_raw(&p, NULL, PERF_RECORD_HEADER_ATTR, &at, PERF_ATTR_SIZE_VER0 - 8);
	put_sample(&p, NULL, ST_ONE, &s, 0);
	write_file(tpath("pbad.data"), p.p, p.len);
	/* A file: open reads the attrs ahead and fails there. */
	CHECK_EQ_U64(perfdata__open(tpath("pbad.data"), 0, &pd, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "attr record at offset 16 is too short or inconsistent");
	CHECK_STR_CONTAINS(err.msg, tpath("pbad.data"));
	/* The attr's own size past the record. */
	p.len = 16;
	put_raw(&p, NULL, PERF_RECORD_HEADER_ATTR, &at, sizeof(at) - 8);
	write_file(tpath("pbad.data"), p.p, p.len);
	CHECK_EQ_U64(perfdata__open(tpath("pbad.data"), 0, &pd, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "too short or inconsistent");
	/* A trailing partial id. */
	p.len = 16;
	{
		char body[sizeof(at) + 4] = { 0 };

		memcpy(body, &at, sizeof(at));
		put_raw(&p, NULL, PERF_RECORD_HEADER_ATTR, body, sizeof(body));
	}
	write_file(tpath("pbad.data"), p.p, p.len);
	CHECK_EQ_U64(perfdata__open(tpath("pbad.data"), 0, &pd, &err), (uint64_t)-1);
	/* Through a pipe: the read fails at that record. */
	{
		int fds[2], saved = dup(0), status = 0;
		pid_t pid;

		CHECK_EQ_U64(pipe(fds), 0);
		pid = fork();
		if (pid == 0) {
			close(fds[0]);
			_exit(write(fds[1], p.p, p.len) != (ssize_t)p.len);
		}
		close(fds[1]);
		dup2(fds[0], 0);
		close(fds[0]);
		CHECK_EQ_U64(perfdata__open("-", 0, &pd, &err), 0);
		CHECK_EQ_U64(drain(pd, &err), (uint64_t)-1);
		CHECK_STR_CONTAINS(err.msg, "-: attr record at offset 16");
		perfdata__close(pd);
		waitpid(pid, &status, 0);
		dup2(saved, 0);
		close(saved);
	}
	wfree(&p);
}

/* ---- samples: every sample_type field, and each one cut short ---------- */

#define ST_ALL (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
		PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
		PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | \
		PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | \
		PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | \
		PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | \
		PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | \
		PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_AUX)

struct sfield {
	uint64_t bit;
	size_t at, n;		/* where its u64s start in the sample, how many */
};

/*
 * A sample with every field, values known by construction. Returns the
 * u64 count; f[] says where each field sits.
 */
static size_t build_all_fields(uint64_t *v, struct sfield *f, size_t *nf)
{
	size_t n = 0, k = 0;

#define FIELD(b, ...) do { \
		uint64_t vals_[] = { __VA_ARGS__ }; \
		f[k].bit = (b); \
		f[k].at = n; \
		f[k].n = sizeof(vals_) / 8; \
		memcpy(v + n, vals_, sizeof(vals_)); \
		n += sizeof(vals_) / 8; \
		k++; \
	} while (0)
	FIELD(PERF_SAMPLE_IDENTIFIER, 5);
	FIELD(PERF_SAMPLE_IP, 0x401000);
	FIELD(PERF_SAMPLE_TID, pack32(10, 11));
	FIELD(PERF_SAMPLE_TIME, 1000);
	FIELD(PERF_SAMPLE_ADDR, 0xadd0);
	FIELD(PERF_SAMPLE_ID, 5);
	FIELD(PERF_SAMPLE_STREAM_ID, 6);
	FIELD(PERF_SAMPLE_CPU, pack32(2, 0));
	FIELD(PERF_SAMPLE_PERIOD, 4000);
	/* read_format GROUP|ID|ENABLED: nr, enabled, 2 x (value, id) */
	FIELD(PERF_SAMPLE_READ, 2, 50, 100, 5, 200, 6);
	FIELD(PERF_SAMPLE_CALLCHAIN, 4, (uint64_t)PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200);
	FIELD(PERF_SAMPLE_RAW, 12 | (0xabcdULL << 32), 0x1111);	/* u32 12 + 12 bytes */
	/* branch_sample_type HW_INDEX: nr, hw_idx, nr x (from, to, flags) */
	FIELD(PERF_SAMPLE_BRANCH_STACK, 1, 0, 0x10, 0x20, 0);
	/* abi, regs of mask bp|sp|ip */
	FIELD(PERF_SAMPLE_REGS_USER, PERF_SAMPLE_REGS_ABI_64, 0x7ffd0010, 0x7ffd0000, 0x401000);
	/* size 16, 16 bytes, dyn_size 12 */
	FIELD(PERF_SAMPLE_STACK_USER, 16, 0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL, 12);
	FIELD(PERF_SAMPLE_WEIGHT, 33);
	FIELD(PERF_SAMPLE_DATA_SRC, 44);
	FIELD(PERF_SAMPLE_TRANSACTION, 55);
	FIELD(PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_REGS_ABI_64, 1, 2);	/* mask ax|bx */
	FIELD(PERF_SAMPLE_PHYS_ADDR, 0x1000);
	FIELD(PERF_SAMPLE_CGROUP, 7);
	FIELD(PERF_SAMPLE_DATA_PAGE_SIZE, 4096);
	FIELD(PERF_SAMPLE_CODE_PAGE_SIZE, 4096);
	FIELD(PERF_SAMPLE_AUX, 8, 0x99);
#undef FIELD
	*nf = k;
	return n;
}

static void all_fields_attr(struct tattr *a)
{
	tattr_init(a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_ALL, 1);
	a->attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a->attr.sample_regs_user = (1ULL << 6) | (1ULL << 7) | (1ULL << 8);
	a->attr.sample_regs_intr = 3;
	a->attr.sample_stack_user = 16;
}

/* Read the one sample of a file with the all-fields attr; 1 if handed out. */
static int read_all_fields(const uint64_t *v, size_t nbytes, struct pd_sample *out,
			   uint64_t *copy)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a;
	int got = 0;

	all_fields_attr(&a);
	put_rec(&data, NULL, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, v, nbytes, NULL, 0);
	build_file(&file, &a, 1, &data, NULL);
	write_file(tpath("all.data"), file.p, file.len);
	if (perfdata__open(tpath("all.data"), 0, &pd, &err))
		abort();
	while (perfdata__next(pd, &ev, &err) == 1) {
		if (ev.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		got++;
		if (out) {
			/* re-point the sample's pointers into a copy that outlives the reader */
			const uint8_t *base = (const uint8_t *)ev.hdr;

			memcpy(copy, base, ev.hdr->size);
			*out = ev.sample;
#define REBASE(p) ((p) ? (void *)((uint8_t *)copy + ((const uint8_t *)(p) - base)) : NULL)
			out->callchain = REBASE(ev.sample.callchain);
			out->regs_user = REBASE(ev.sample.regs_user);
			out->stack_user = REBASE(ev.sample.stack_user);
#undef REBASE
		}
	}
	CHECK_EQ_U64(perfdata__malformed(pd), !got);
	perfdata__close(pd);
	wfree(&data);
	wfree(&file);
	return got;
}

static void test_sample_fields(void)
{
	uint64_t v[128], w[128], copy[128 + 2];
	struct sfield f[32];
	struct pd_sample s;
	size_t n, nf, i;
	uint64_t reg = 0;

	n = build_all_fields(v, f, &nf);
	CHECK_EQ_U64(read_all_fields(v, n * 8, &s, copy), 1);
	CHECK_EQ_U64(s.attr_idx, 0);
	CHECK_EQ_U64(s.ip, 0x401000);
	CHECK_EQ_U64(s.sid.pid, 10);
	CHECK_EQ_U64(s.sid.tid, 11);
	CHECK_EQ_U64(s.sid.time, 1000);
	CHECK_EQ_U64(s.sid.cpu, 2);
	CHECK_EQ_U64(s.period, 4000);
	CHECK_EQ_U64(s.has_callchain, 1);
	CHECK_EQ_U64(s.callchain_nr, 4);
	CHECK(s.callchain && s.callchain[0] == (uint64_t)PERF_CONTEXT_USER &&
	      s.callchain[1] == 0x401000 && s.callchain[3] == 0x401200);
	CHECK_EQ_U64(s.has_regs_user, 1);
	CHECK_EQ_U64(s.regs_abi, PERF_SAMPLE_REGS_ABI_64);
	CHECK_EQ_U64(s.regs_mask, 0x1c0);
	CHECK_EQ_U64(s.nregs_user, 3);
	CHECK(s.regs_user && s.regs_user[0] == 0x7ffd0010 && s.regs_user[2] == 0x401000);
	CHECK_EQ_U64(pd_sample__user_reg(&s, 7, &reg), 1);	/* sp */
	CHECK_EQ_U64(reg, 0x7ffd0000);
	CHECK_EQ_U64(pd_sample__user_reg(&s, 8, &reg), 1);	/* ip */
	CHECK_EQ_U64(reg, 0x401000);
	CHECK_EQ_U64(pd_sample__user_reg(&s, 0, &reg), 0);	/* ax: not asked for */
	CHECK_EQ_U64(pd_sample__user_reg(&s, 64, &reg), 0);
	CHECK_EQ_U64(s.has_stack_user, 1);
	CHECK_EQ_U64(s.stack_size, 16);
	CHECK_EQ_U64(s.stack_dyn_size, 12);
	CHECK(s.stack_user && s.stack_user[0] == 0 && s.stack_user[15] == 15);
	CHECK_EQ_U64(((uintptr_t)s.callchain | (uintptr_t)s.regs_user) & 7, 0);

	/* Each field cut in half: the sample stops there and is refused. */
	for (i = 0; i < nf; i++) {
		size_t cut = f[i].at + (f[i].n + 1) / 2 - (f[i].n == 1);

		if (read_all_fields(v, cut * 8, NULL, copy) != 0) {
			fprintf(stderr, "sample cut in field %#llx at u64 %zu handed out\n",
				(unsigned long long)f[i].bit, cut);
			CHECK(0);
		}
	}
	/* Counts and sizes that cannot be right. */
	{
		const struct { uint64_t bit; size_t k; uint64_t val; const char *what; } bad[] = {
			{ PERF_SAMPLE_CALLCHAIN, 0, 1ULL << 61, "callchain nr * 8 overflows" },
			{ PERF_SAMPLE_CALLCHAIN, 0, 200, "callchain nr past the record" },
			{ PERF_SAMPLE_READ, 0, 1ULL << 60, "read group nr huge" },
			{ PERF_SAMPLE_RAW, 0, 13 | (0xabcdULL << 32), "raw size breaks alignment" },
			{ PERF_SAMPLE_RAW, 0, 0xfffffff4, "raw size past the record" },
			{ PERF_SAMPLE_BRANCH_STACK, 0, 1ULL << 62, "branch nr huge" },
			{ PERF_SAMPLE_STACK_USER, 0, 12, "stack size not a u64 multiple" },
			{ PERF_SAMPLE_STACK_USER, 0, 1ULL << 63, "stack size huge" },
			{ PERF_SAMPLE_STACK_USER, 3, 17, "dyn_size above size" },
			{ PERF_SAMPLE_AUX, 0, 1ULL << 40, "aux size huge" },
		};

		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			size_t j;

			memcpy(w, v, n * 8);
			for (j = 0; j < nf; j++)
				if (f[j].bit == bad[i].bit)
					w[f[j].at + bad[i].k] = bad[i].val;
			if (read_all_fields(w, n * 8, NULL, copy) != 0) {
				fprintf(stderr, "%s: handed out\n", bad[i].what);
				CHECK(0);
			}
		}
	}
	/* User regs with ABI_NONE (a kernel thread): no registers follow. */
	{
		size_t j, at = 0;

		for (j = 0; j < nf; j++)
			if (f[j].bit == PERF_SAMPLE_REGS_USER)
				at = f[j].at;
		memcpy(w, v, at * 8);
		w[at] = PERF_SAMPLE_REGS_ABI_NONE;
		memcpy(w + at + 1, v + at + 4, (n - at - 4) * 8);
		CHECK_EQ_U64(read_all_fields(w, (n - 3) * 8, &s, copy), 1);
		CHECK_EQ_U64(s.has_regs_user, 1);
		CHECK_EQ_U64(s.nregs_user, 0);
		CHECK(s.regs_user == NULL);
		CHECK_EQ_U64(pd_sample__user_reg(&s, 7, &reg), 0);
		CHECK_EQ_U64(s.stack_size, 16);
	}
	/* An empty user stack: size 0 and no dyn_size. */
	{
		size_t j, at = 0;

		for (j = 0; j < nf; j++)
			if (f[j].bit == PERF_SAMPLE_STACK_USER)
				at = f[j].at;
		memcpy(w, v, at * 8);
		w[at] = 0;
		memcpy(w + at + 1, v + at + 4, (n - at - 4) * 8);
		CHECK_EQ_U64(read_all_fields(w, (n - 3) * 8, &s, copy), 1);
		CHECK_EQ_U64(s.has_stack_user, 1);
		CHECK_EQ_U64(s.stack_size, 0);
		CHECK(s.stack_user == NULL);
	}
	/* The record at an odd address (after an 84-byte record): pointers still aligned. */
	{
		struct wbuf data = { 0 }, file = { 0 };
		struct ap_err err = { 0 };
		struct perfdata *pd;
		struct pd_event ev;
		struct tattr a;
		char odd[76] = { 0 };

		all_fields_attr(&a);
		put_raw(&data, NULL, PERF_RECORD_HEADER_FEATURE, odd, sizeof(odd));
		put_rec(&data, NULL, PERF_RECORD_SAMPLE, 0, v, n * 8, NULL, 0);
		build_file(&file, &a, 1, &data, NULL);
		write_file(tpath("allodd.data"), file.p, file.len);
		CHECK_EQ_U64(perfdata__open(tpath("allodd.data"), 0, &pd, &err), 0);
		CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
		CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
		CHECK_EQ_U64(ev.hdr->type, PERF_RECORD_SAMPLE);
		CHECK_EQ_U64(((uintptr_t)ev.sample.callchain | (uintptr_t)ev.sample.regs_user |
			      (uintptr_t)ev.sample.stack_user) & 7, 0);
		CHECK_EQ_U64(ev.sample.callchain[1], 0x401000);
		perfdata__close(pd);
		wfree(&data);
		wfree(&file);
	}
}

/* The trailer's place comes from the owning attr, found by the IDENTIFIER. */
static void test_sid_span(void)
{
	struct wbuf data = { 0 }, file = { 0 };
	struct tsample s = { .pid = 1, .tid = 2, .time = 10, .cpu = 1, .id = 21 };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	struct tattr a[2];

	tattr_init(&a[0], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, ST_A, 1);
	tattr_init(&a[1], PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, ST_B, 1);
	a[0].ids[0] = 11;
	a[0].nids = 1;
	a[1].ids[0] = 21;
	a[1].nids = 1;
	/* a name padded with 16 more zero bytes than needed: the trailer is at the end */
	{
		struct perf_record_mmap2 m;
		size_t fixed = offsetof(struct perf_record_mmap2, filename) - 8;
		uint64_t t[8];

		memset(&m, 0, sizeof(m));
		m.pid = 1;
		m.start = 0x1000;
		m.len = 0x1000;
		m.prot = 5;
		strcpy(m.filename, "/lib/x.so");
		put_rec(&data, NULL, PERF_RECORD_MMAP2, 0, (char *)&m + 8, fixed + 32, t,
			make_sid(ST_B, &s, t));
	}
	s.id = 11;
	put_mmap2(&data, NULL, ST_A, &s, 0x1000, 0x1000, 0, "/y", 0);
	build_file(&file, a, 2, &data, NULL);
	write_file(tpath("span.data"), file.p, file.len);
	CHECK_EQ_U64(perfdata__open(tpath("span.data"), 0, &pd, &err), 0);
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	/* ST_B: tid, time, id, stream_id, cpu, identifier */
	CHECK_EQ_U64(ev.sid_len, 48);
	CHECK_EQ_U64(ev.sid_off, offsetof(struct perf_record_mmap2, filename) + 32);
	CHECK_EQ_U64(ev.sid_off + ev.sid_len, ev.hdr->size);
	CHECK_EQ_U64(ev.sid.id, 21);
	CHECK_EQ_U64(ev.sid.cpu, 1);
	{
		uint64_t last;

		memcpy(&last, (const char *)ev.hdr + ev.sid_off + ev.sid_len - 8, 8);
		CHECK_EQ_U64(last, 21);	/* the IDENTIFIER closes the trailer */
	}
	CHECK_EQ_U64(perfdata__next(pd, &ev, &err), 1);
	/* ST_A: tid, time, identifier */
	CHECK_EQ_U64(ev.sid_len, 24);
	CHECK_EQ_U64(ev.sid_off, offsetof(struct perf_record_mmap2, filename) + 8);
	CHECK_EQ_U64(ev.sid.id, 11);
	/* a sample has no trailer */
	perfdata__close(pd);
	wfree(&data);
	wfree(&file);
}

/* ---- --count FILE ------------------------------------------------------ */

static int count_file(const char *path, unsigned flags)
{
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	uint64_t types[256] = { 0 }, total = 0, rd, exp;
	uint64_t *per_attr = NULL, unknown = 0;
	size_t i, n = 0;
	int r;

	if (perfdata__open(path, flags, &pd, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	while ((r = perfdata__next(pd, &ev, &err)) == 1) {
		total++;
		types[ev.hdr->type & 255]++;
		if (ev.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		if (ev.sample.attr_idx < 0) {
			unknown++;
			continue;
		}
		if ((size_t)ev.sample.attr_idx >= n) {
			size_t nn = (size_t)ev.sample.attr_idx + 1;

			per_attr = realloc(per_attr, nn * sizeof(*per_attr));
			if (!per_attr)
				abort();
			memset(per_attr + n, 0, (nn - n) * sizeof(*per_attr));
			n = nn;
		}
		per_attr[ev.sample.attr_idx]++;
	}
	if (r < 0) {
		fprintf(stderr, "%s\n", err.msg);
		perfdata__close(pd);
		free(per_attr);
		return 1;
	}
	printf("records %llu\n", (unsigned long long)total);
	for (i = 0; i < 256; i++) {
		if (types[i])
			printf("type %zu %llu %s\n", i, (unsigned long long)types[i],
			       perfdata__record_name((uint32_t)i));
	}
	/* Several attrs can share a name (perf merges them when printing too). */
	for (i = 0; i < perfdata__nevsels(pd); i++) {
		const char *name = perfdata__evsel(pd, i)->name;
		uint64_t sum = 0;
		size_t j;
		int first = 1;

		for (j = 0; j < i; j++)
			first &= strcmp(perfdata__evsel(pd, j)->name, name) != 0;
		if (!first)
			continue;
		for (j = i; j < perfdata__nevsels(pd); j++) {
			if (j < n && !strcmp(perfdata__evsel(pd, j)->name, name))
				sum += per_attr[j];
		}
		if (sum)
			printf("event %s %llu\n", name, (unsigned long long)sum);
	}
	if (unknown)
		printf("event ? %llu\n", (unsigned long long)unknown);
	printf("malformed %llu\n", (unsigned long long)perfdata__malformed(pd));
	r = perfdata__truncated(pd, &rd, &exp);
	printf("truncated %d %llu %llu\n", r, (unsigned long long)rd, (unsigned long long)exp);
	perfdata__close(pd);
	free(per_attr);
	return 0;
}

/* Raw walk speed: records and bytes per second, best of a few passes. */
static int walk_file(const char *path)
{
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	uint64_t n = 0, bytes = 0, ips = 0;
	double best = 1e9;
	int r = 0, pass;

	if (perfdata__open(path, 0, &pd, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	for (pass = 0; pass < 5 && r >= 0; pass++) {
		struct timespec t0, t1;
		double s;

		if (pass && perfdata__rewind(pd, &err))
			break;
		n = bytes = 0;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while ((r = perfdata__next(pd, &ev, &err)) == 1) {
			n++;
			bytes += ev.hdr->size;
			ips += ev.sample.ip;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
		best = s < best ? s : best;
	}
	if (r < 0)
		fprintf(stderr, "%s\n", err.msg);
	else
		printf("%llu records, %llu bytes in %.4f s: %.0f MB/s, %.1f Mrecords/s (%llx)\n",
		       (unsigned long long)n, (unsigned long long)bytes, best,
		       (double)bytes / best / 1e6, (double)n / best / 1e6,
		       (unsigned long long)(ips & 0xf));
	perfdata__close(pd);
	return r < 0;
}

/*
 * --chains FILE: per sample, in the form of perf script -D, the record's file
 * offset and ip, its raw callchain, user registers and the user stack's
 * dyn_size and offset in the record:
 *
 *   @0x408 misc 0x2 ip 0x7f9c13a70f38
 *   chain 3 fffffffffffffe00 00007f9c13a70f38 007ffc35c09ae000
 *   regs 0xff0fff 64-bit 0x... (one per mask bit)
 *   ustack 8192 0xe0
 *   stacksize 8192                 (bytes copied; perf -D does not print it)
 */
static int chains_file(const char *path)
{
	static const char *const abi[3] = { "none", "32-bit", "64-bit" };
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	uint64_t i;
	int r;

	if (perfdata__open(path, 0, &pd, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	while ((r = perfdata__next(pd, &ev, &err)) == 1) {
		const struct pd_sample *s = &ev.sample;

		if (ev.hdr->type != PERF_RECORD_SAMPLE)
			continue;
		printf("@%#llx misc 0x%x ip %#llx\n", (unsigned long long)ev.file_offset,
		       ev.hdr->misc, (unsigned long long)s->ip);
		if (s->has_callchain) {
			printf("chain %llu", (unsigned long long)s->callchain_nr);
			for (i = 0; i < s->callchain_nr; i++)
				printf(" %016llx", (unsigned long long)s->callchain[i]);
			printf("\n");
		}
		if (s->regs_user) {
			printf("regs %#llx %s", (unsigned long long)s->regs_mask,
			       s->regs_abi < 3 ? abi[s->regs_abi] : "unknown");
			for (i = 0; i < s->nregs_user; i++)
				printf(" 0x%016llx", (unsigned long long)s->regs_user[i]);
			printf("\n");
		}
		if (s->has_stack_user) {
			/* perf -D: the offset of the size field in the record */
			size_t off = s->stack_user ? (size_t)(s->stack_user - (const uint8_t *)ev.hdr) - 8 : 0;

			printf("ustack %llu %#zx\n", (unsigned long long)s->stack_dyn_size, off);
			printf("stacksize %llu\n", (unsigned long long)s->stack_size);
		}
	}
	if (r < 0)
		fprintf(stderr, "%s\n", err.msg);
	perfdata__close(pd);
	return r < 0;
}

int main(int argc, char **argv)
{
	const char *t = getenv("TMPDIR");
	char cmd[400];

	if (argc == 3 && !strcmp(argv[1], "--count"))
		return count_file(argv[2], 0);
	if (argc == 3 && !strcmp(argv[1], "--count-raw"))
		return count_file(argv[2], PD_OPEN_RAW_COMPRESSED);
	if (argc == 3 && !strcmp(argv[1], "--walk"))
		return walk_file(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "--chains"))
		return chains_file(argv[2]);
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--count|--count-raw|--walk|--chains FILE]\n", argv[0]);
		return 2;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_perfdata.XXXXXX", t && *t ? t : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror(tmpdir);
		return 1;
	}
	test_names();
	test_one_attr();
	test_two_attrs();
	test_id_pos();
	test_hostile_records();
	test_garbage();
	test_pipe();
	test_compressed();
	test_big();
	test_short_kernel_records();
	test_phantom_mmap();
	test_attr_pids_and_injected();
	test_session();
	test_short_user_records();
	test_pipe_bad_attr();
	test_sample_fields();
	test_sid_span();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", tmpdir);
	CHECK_DONE();
}
