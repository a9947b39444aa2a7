// SPDX-License-Identifier: MIT
// fuzz-seeds: fuzz-rec/*.data
// fuzz-options: -max_len=200000 -rss_limit_mb=4096
/*
 * Fuzz target: the perf.data reader, file and pipe mode, compressed
 * records. The input is written to a scratch file and read as `aotperf
 * report -i FILE` does (every record, then a rewind and every record
 * again); a pipe-mode input is also fed through a real pipe on stdin, as
 * `-i -` reads it, and a file-mode one read again without decompression.
 * Every record handed out is checked against what perfdata/perfdata.h
 * promises (sizes, NUL-terminated names, the sample_id trailer and the
 * sample's pointers inside the record, aligned), and its bytes are read;
 * the records are walked again by perfdata__peek and compared, and once
 * more with a switch consumer (perfdata__set_switch_fn): the switch
 * records it is handed and the records perfdata__next() still hands out
 * are the plain walk's, in the plain walk's order.
 * After each walk the tracing data (a file's section, a pipe's
 * HEADER_TRACING_DATA record) is parsed as the off-CPU view asks for it.
 *
 * fuzz-rec/ holds short real recordings of the test loader that
 * tests/fuzz/run.sh makes with perf (file, pipe, -z, -g, dwarf, two
 * events, a pipe with sched_switch, a file with sched_switch and
 * raw_syscalls); fuzz_write_seeds() adds small hand-made streams.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfdata/perfdata.h"
#include "perfdata/tracing.h"
#include "fuzz.h"

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < n; i++)
		s += b[i];
	sink += s;
}

/* A pointer into the record: [p, p + n) inside [rec, rec + size), aligned to 8. */
static void inside(const struct perf_event_header *h, const void *p, uint64_t n)
{
	const uint8_t *r = (const uint8_t *)h, *q = p;

	FUZZ_ASSERT(q >= r && q <= r + h->size && n <= (uint64_t)(r + h->size - q));
	FUZZ_ASSERT(((uintptr_t)q & 7) == 0);
	touch(q, (size_t)n);
}

/* A NUL-terminated string at field offset `at`, ending before the trailer. */
static void string_at(const struct pd_event *ev, size_t at)
{
	const char *s = (const char *)ev->hdr + at;

	FUZZ_ASSERT(ev->sid_off > at && memchr(s, 0, ev->sid_off - at));
	sink += strlen(s);
}

static void check_sample(const struct pd_event *ev)
{
	const struct pd_sample *s = &ev->sample;
	uint64_t v;

	if (s->has_callchain)
		inside(ev->hdr, s->callchain, s->callchain_nr * 8);
	else
		FUZZ_ASSERT(!s->callchain && !s->callchain_nr);
	if (s->regs_user)
		inside(ev->hdr, s->regs_user, (uint64_t)s->nregs_user * 8);
	FUZZ_ASSERT(s->nregs_user == (s->regs_user ? (uint32_t)__builtin_popcountll(s->regs_mask) : 0));
	(void)pd_sample__user_reg(s, 7, &v);
	if (s->stack_user)
		inside(ev->hdr, s->stack_user, s->stack_size);
	FUZZ_ASSERT(s->stack_dyn_size <= s->stack_size);
}

static void check_event(const struct perfdata *pd, const struct pd_event *ev)
{
	const struct perf_event_header *h = ev->hdr;

	FUZZ_ASSERT(h->size >= sizeof(*h) && ((uintptr_t)h & 7) == 0);
	FUZZ_ASSERT(ev->sid_off >= sizeof(*h) && ev->sid_off + ev->sid_len == h->size);
	FUZZ_ASSERT(!ev->sid_len == !ev->has_sid);
	touch(h, h->size);
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		FUZZ_ASSERT(ev->sample.attr_idx < (int)perfdata__nevsels(pd));
		check_sample(ev);
		break;
	case PERF_RECORD_MMAP:
		string_at(ev, offsetof(struct perf_record_mmap, filename));
		break;
	case PERF_RECORD_MMAP2:
		string_at(ev, offsetof(struct perf_record_mmap2, filename));
		break;
	case PERF_RECORD_COMM:
		string_at(ev, offsetof(struct perf_record_comm, comm));
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		FUZZ_ASSERT(ev->sid_off >= sizeof(struct perf_record_fork));
		break;
	default:
		break;
	}
}

static void check_evsels(const struct perfdata *pd)
{
	size_t i;

	for (i = 0; i < perfdata__nevsels(pd); i++) {
		const struct pd_evsel *e = perfdata__evsel(pd, i);

		FUZZ_ASSERT(e && e->name);
		sink += strlen(e->name);
		touch(e->ids, (size_t)e->nids * sizeof(*e->ids));
	}
}

/* The tracing data, as offcpu_read.c's learn() asks: a handle, none, or a message. */
static void check_tracing(struct perfdata *pd)
{
	struct ap_err err = { 0 };
	struct pd_tracing *t = NULL;
	char name[128];

	if (perfdata__tracing(pd, &t, &err)) {
		FUZZ_ASSERT(!t && err.msg[0]);
		return;
	}
	for (size_t i = 0; t && i < pd_tracing__nevents(t); i++)
		if (!pd_tracing__event_name(t, pd_tracing__event_id(t, i), name, sizeof(name)))
			sink += strlen(name);
	pd_tracing__delete(t);
}

/* What the reader handed out from the file itself (not from a COMPRESSED record). */
struct seen {
	uint64_t off, time;
	uint32_t type;
	int has_sid;
};
#define SEEN_MAX 8192
static struct seen seen[SEEN_MAX];
static size_t nseen;
static int seen_all;	/* every record of the walk is in seen[] */
static int seen_end;	/* how the walk ended: perfdata__next()'s last return */

static void note_seen(const struct pd_event *ev)
{
	if (ev->in_compressed || nseen == SEEN_MAX) {
		seen_all = 0;
		return;
	}
	seen[nseen++] = (struct seen){ ev->file_offset, ev->sid.time, ev->hdr->type, ev->has_sid };
}

static const struct seen *find_seen(uint64_t off)
{
	for (size_t i = 0; i < nseen; i++)
		if (seen[i].off == off)
			return &seen[i];
	return NULL;
}

/*
 * perfdata__peek from the first record (session/lookahead.c's walk): every
 * record it hands out that the reader handed out too is the same record,
 * its trailer parsed the same; it stops, never reads outside the records.
 */
static void peek_all(struct perfdata *pd)
{
	struct ap_err err = { 0 };
	struct pd_peek *pk;
	struct pd_event ev;
	struct pd_layout l;
	uint64_t at;
	int r, n = 0;

	if (perfdata__layout(pd, &l) || perfdata__peek_new(pd, &pk) <= 0)
		return;
	at = l.data_offset;
	while (n++ < SEEN_MAX && (r = perfdata__peek(pk, &at, &ev, &err)) > 0) {
		const struct seen *s = find_seen(ev.file_offset);

		FUZZ_ASSERT(at == ev.file_offset + ev.hdr->size && at <= l.file_size);
		if (!s)
			continue;
		FUZZ_ASSERT(s->type == ev.hdr->type);
		if (ev.hdr->type == PERF_RECORD_SAMPLE || ev.hdr->type >= PERF_RECORD_USER_TYPE_START)
			continue;
		FUZZ_ASSERT(s->has_sid == ev.has_sid && (!s->has_sid || s->time == ev.sid.time));
		check_event(pd, &ev);
	}
	if (r < 0)
		FUZZ_ASSERT(err.msg[0]);
	perfdata__peek_delete(pk);
}

/* The switch walk's place in the plain walk's records (seen[]). */
static size_t cursor;
static uint64_t nswitched;

static int is_switch(uint32_t type)
{
	return type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE;
}

static void on_switches(void *ctx, const struct pd_switch *sw, size_t n)
{
	(void)ctx;
	FUZZ_ASSERT(n > 0);
	for (size_t i = 0; i < n; i++, cursor++) {
		nswitched++;
		if (!seen_all)
			continue;
		FUZZ_ASSERT(cursor < nseen && is_switch(seen[cursor].type) && seen[cursor].has_sid);
		FUZZ_ASSERT(!sw[i].sid.has_time || sw[i].sid.time == seen[cursor].time);
	}
}

/* The records again with a switch consumer, against the plain walk's. */
static void walk_switches(struct perfdata *pd)
{
	struct ap_err err = { 0 };
	struct pd_event ev;
	uint64_t n = 0;
	int r;

	if (perfdata__rewind(pd, &err))
		return;
	cursor = 0;
	nswitched = 0;
	perfdata__set_switch_fn(pd, on_switches, NULL);
	while ((r = perfdata__next(pd, &ev, &err)) > 0) {
		check_event(pd, &ev);
		if (!ev.in_compressed)
			n++;
		if (seen_all && !ev.in_compressed) {
			FUZZ_ASSERT(cursor < nseen && seen[cursor].off == ev.file_offset);
			cursor++;
		}
	}
	perfdata__set_switch_fn(pd, NULL, NULL);
	if (seen_all && r == 0 && seen_end == 0)
		FUZZ_ASSERT(n + nswitched == nseen && cursor == nseen);
}

static void walk(struct perfdata *pd)
{
	struct ap_err err = { 0 };
	struct pd_event ev;
	struct pd_layout l;
	uint64_t rd, exp;
	int r;

	check_evsels(pd);
	nseen = 0;
	seen_all = 1;
	while ((r = perfdata__next(pd, &ev, &err)) > 0) {
		check_event(pd, &ev);
		note_seen(&ev);
	}
	seen_end = r;
	peek_all(pd);
	if (r < 0)
		FUZZ_ASSERT(err.msg[0]);
	check_evsels(pd);
	check_tracing(pd);
	(void)perfdata__truncated(pd, &rd, &exp);
	(void)perfdata__malformed(pd);
	(void)perfdata__layout(pd, &l);
}

static void read_file(const char *path, unsigned flags, int rewind)
{
	struct ap_err err = { 0 };
	struct perfdata *pd;

	if (perfdata__open(path, flags, &pd, &err)) {
		FUZZ_ASSERT(err.msg[0]);
		return;
	}
	walk(pd);
	if (rewind && !perfdata__rewind(pd, &err)) {
		walk(pd);
		if (perfdata__seekable(pd))
			walk_switches(pd);
	}
	perfdata__close(pd);
}

/* perfdata__cut_short, the header and record-header walk without a reader (perfdata/cut.c). */
static void cut_short(const char *path)
{
	struct ap_err err = { 0 };
	uint64_t rd, exp;
	int r = perfdata__cut_short(path, &rd, &exp, &err);

	FUZZ_ASSERT(r >= -1 && r <= 1);
	if (r < 0)
		FUZZ_ASSERT(err.msg[0]);
	else
		FUZZ_ASSERT(rd <= exp);
}

struct feed {
	int fd;
	const uint8_t *data;
	size_t size;
};

static void *feeder(void *arg)
{
	struct feed *f = arg;
	size_t off = 0;

	while (off < f->size) {
		ssize_t w = write(f->fd, f->data + off, f->size - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;	/* the reader stopped early: EPIPE */
		off += (size_t)w;
	}
	close(f->fd);
	return NULL;
}

/* The bytes through a real pipe on stdin, as `-i -` reads them. */
static void read_pipe(const uint8_t *data, size_t size, unsigned flags)
{
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct feed f = { -1, data, size };
	pthread_t t;
	int fds[2], saved = dup(0);

	if (saved < 0 || pipe(fds)) {
		perror("pipe");
		abort();
	}
	f.fd = fds[1];
	dup2(fds[0], 0);
	close(fds[0]);
	if (pthread_create(&t, NULL, feeder, &f))
		abort();
	if (!perfdata__open("-", flags, &pd, &err)) {
		FUZZ_ASSERT(!perfdata__seekable(pd));
		walk(pd);
		perfdata__close(pd);
	}
	/* Unblock the feeder if the reader stopped before the end. */
	dup2(saved, 0);
	close(saved);
	pthread_join(t, NULL);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p;
	uint64_t hsize = 0;

	signal(SIGPIPE, SIG_IGN);
	p = fuzz_file("in.data", data, size);
	read_file(p, 0, 1);
	cut_short(p);
	if (size >= 16)
		memcpy(&hsize, data + 8, sizeof(hsize));
	if (hsize == 16)
		read_pipe(data, size, size && (data[size - 1] & 1) ? PD_OPEN_RAW_COMPRESSED : 0);
	else
		read_file(p, PD_OPEN_RAW_COMPRESSED, 0);
	return 0;
}

/* ---- hand-made seeds: what the real recordings rarely hold ---- */

struct sbuf {
	uint8_t b[4096];
	size_t n;
};

static void put(struct sbuf *s, const void *p, size_t n)
{
	if (s->n + n > sizeof(s->b))
		abort();
	if (n)
		memcpy(s->b + s->n, p, n);
	s->n += n;
}

static void put64(struct sbuf *s, uint64_t v)
{
	put(s, &v, 8);
}

static void rec(struct sbuf *s, uint32_t type, uint16_t misc, const void *body, size_t n)
{
	struct perf_event_header h = { type, misc, (uint16_t)(8 + n) };

	put(s, &h, 8);
	put(s, body, n);
}

/*
 * A pipe-mode stream as perf 6.1 writes one with sched_switch: its attr,
 * the HEADER_TRACING_DATA record and the section (the tracing target's
 * real seed) padded to 8, a switch record; and the same cut inside the
 * section.
 */
static int write_tracing_seeds(const char *dir)
{
	static uint8_t sec[16384], out[20000];
	struct perf_event_attr a = { 0 };
	struct perf_event_header h;
	size_t n = 0, len;
	uint64_t v[2] = { 0x32454c4946524550ULL, 16 }, id = 5;
	uint32_t size[2];
	FILE *f = fopen(FUZZ_SRCDIR "/seeds/tracing/sched-syscalls-x86_64", "rb");

	if (!f)
		return -1;
	len = fread(sec, 1, sizeof(sec), f);
	fclose(f);
	memcpy(out, v, 16);
	n = 16;
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 372;	/* sched_switch in that section */
	a.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.sample_id_all = 1;
	a.context_switch = 1;
	h = (struct perf_event_header){ PERF_RECORD_HEADER_ATTR, 0, sizeof(h) + sizeof(a) + 8 };
	memcpy(out + n, &h, 8);
	memcpy(out + n + 8, &a, sizeof(a));
	memcpy(out + n + 8 + sizeof(a), &id, 8);
	n += h.size;
	size[0] = (uint32_t)((len + 7) & ~(size_t)7);
	size[1] = 0;
	h = (struct perf_event_header){ PERF_RECORD_HEADER_TRACING_DATA, 0, 16 };
	memcpy(out + n, &h, 8);
	memcpy(out + n + 8, size, 8);
	n += 16;
	memcpy(out + n, sec, len);
	memset(out + n + len, 0, size[0] - len);
	n += size[0];
	h = (struct perf_event_header){ PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT, 24 };
	memcpy(out + n, &h, 8);
	v[0] = 7 | (7ULL << 32);	/* pid, tid; time */
	v[1] = 100;
	memcpy(out + n + 8, v, 16);
	n += 24;
	fuzz_write(dir, "pipe-tracing.data", out, n);
	fuzz_write(dir, "pipe-tracing-cut.data", out, n - 24 - size[0] / 2);
	return 0;
}

/* A pipe-mode stream: one attr with every sample field we parse. */
int fuzz_write_seeds(const char *dir)
{
	const uint64_t st = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			    PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW |
			    PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |
			    PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
			    PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_AUX;
	struct perf_event_attr a = { 0 };
	struct sbuf s = { .n = 0 };
	uint8_t body[512] = { 0 };
	uint64_t *v = (uint64_t *)(void *)body;
	size_t n = 0, i;

	put64(&s, 0x32454c4946524550ULL);
	put64(&s, 16);
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.sample_type = st;
	a.sample_id_all = 1;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	a.sample_regs_user = 0x1c0;	/* bp, sp, ip */
	a.sample_regs_intr = 0x1;
	a.sample_stack_user = 16;
	memcpy(body, &a, sizeof(a));
	v = (uint64_t *)(void *)(body + sizeof(a));
	v[0] = 5;	/* the id */
	rec(&s, PERF_RECORD_HEADER_ATTR, 0, body, sizeof(a) + 8);
	/* EVENT_UPDATE name, a COMM and an MMAP2 with their trailers */
	memset(body, 0, sizeof(body));
	v = (uint64_t *)(void *)body;
	v[0] = PERF_EVENT_UPDATE__NAME;
	v[1] = 5;
	memcpy(body + 16, "seed-clock", 11);
	rec(&s, PERF_RECORD_EVENT_UPDATE, 0, body, 32);
	memset(body, 0, sizeof(body));
	memcpy(body, "\x07\0\0\0\x07\0\0\0seed\0\0\0\0", 16);
	v = (uint64_t *)(void *)(body + 16);
	v[0] = 7 | (7ULL << 32);	/* tid, time, cpu, identifier */
	v[1] = 100;
	v[2] = 0;
	v[3] = 5;
	rec(&s, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, body, 48);
	memset(body, 0, sizeof(body));
	{
		struct perf_record_mmap2 m;

		memset(&m, 0, sizeof(m));
		m.pid = m.tid = 7;
		m.start = 0x7f0000000000ULL;
		m.len = 0x10000;
		m.prot = 5;
		memcpy(m.filename, "//anon\0\0", 8);
		memcpy(body, (uint8_t *)&m + 8, offsetof(struct perf_record_mmap2, filename) - 8 + 8);
		n = offsetof(struct perf_record_mmap2, filename) - 8 + 8;
		v = (uint64_t *)(void *)(body + n);
		v[0] = 7 | (7ULL << 32);
		v[1] = 101;
		v[2] = 0;
		v[3] = 5;
		rec(&s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, body, n + 32);
	}
	/* the sample */
	memset(body, 0, sizeof(body));
	v = (uint64_t *)(void *)body;
	n = 0;
	v[n++] = 5;				/* identifier */
	v[n++] = 0x7f0000000100ULL;		/* ip */
	v[n++] = 7 | (7ULL << 32);		/* pid, tid */
	v[n++] = 102;				/* time */
	v[n++] = 0;				/* cpu */
	v[n++] = 4000;				/* period */
	v[n++] = 1; v[n++] = 2; v[n++] = 5;	/* read: value, enabled, id */
	v[n++] = 3;				/* callchain */
	v[n++] = (uint64_t)-512;		/* PERF_CONTEXT_USER */
	v[n++] = 0x7f0000000100ULL;
	v[n++] = 0x7f0000000200ULL;
	v[n++] = 4;				/* raw: u32 size 4 + 4 bytes */
	v[n++] = 1;				/* branch stack: nr */
	v[n++] = 0;				/* hw_idx */
	v[n++] = 1; v[n++] = 2; v[n++] = 3;	/* from, to, flags */
	v[n++] = PERF_SAMPLE_REGS_ABI_64;	/* user regs: bp, sp, ip */
	v[n++] = 0x7ffc0010; v[n++] = 0x7ffc0000; v[n++] = 0x7f0000000100ULL;
	v[n++] = 16;				/* user stack: size, data, dyn */
	v[n++] = 0x7f0000000200ULL; v[n++] = 0;
	v[n++] = 16;
	v[n++] = 9;				/* weight */
	v[n++] = 0;				/* data_src */
	v[n++] = PERF_SAMPLE_REGS_ABI_64;	/* intr regs: one */
	v[n++] = 1;
	v[n++] = 0x1000;			/* phys_addr */
	v[n++] = 8; v[n++] = 0;			/* aux */
	rec(&s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, body, n * 8);
	rec(&s, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0);
	fuzz_write(dir, "pipe-all-fields.data", s.b, s.n);
	/* the same stream, one byte of each record size smaller at the end */
	for (i = 1; i <= 3; i++) {
		char name[64];

		snprintf(name, sizeof(name), "pipe-cut-%zu.data", i);
		fuzz_write(dir, name, s.b, s.n - i * 13);
	}
	return write_tracing_seeds(dir);
}
