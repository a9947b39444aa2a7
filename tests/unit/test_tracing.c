// SPDX-License-Identifier: MIT
/*
 * perfdata/tracing.h: a tracing-data section built here (either
 * endianness) holding the sched_switch format as the kernel prints it,
 * parsed with libtraceevent; fields read by name from a payload whose
 * bytes are placed at the format's offsets, and its validated fields;
 * sections cut or damaged (a mangled header_page, two formats of one id)
 * are refused with a message. The same section in a pipe-mode stream's
 * HEADER_TRACING_DATA record, from a file and through a pipe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include <perf/event.h>
#include "check.h"
#include "perfdata/perfdata.h"
#include "perfdata/tracing.h"
#include "perfdata/tracing_format.h"
#include "tracing_texts.h"

static const char sched_switch_fmt[] = TT_SCHED_SWITCH;
static const char header_page[] = TT_HEADER_PAGE;

struct buf {
	unsigned char b[4096];
	size_t n;
	int big;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (!n)	/* a record without a body: p may be NULL (UBSan) */
		return;
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_num(struct buf *b, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b->b[b->n + i] = (unsigned char)(v >> (8 * (b->big ? n - 1 - i : i)));
	b->n += n;
}

/* The section, a sched_switch format (fmt) n times (twice: two formats of one id). */
static void section_fmt(struct buf *b, int big, const char *fmt, int n)
{
	memset(b, 0, sizeof(*b));
	b->big = big;
	put(b, "\x17\x08\x44tracing", 10);
	put(b, "0.6", 4);
	put_num(b, (uint64_t)big, 1);
	put_num(b, 8, 1);
	put_num(b, 4096, 4);
	put(b, "header_page", 12);
	put_num(b, strlen(header_page), 8);
	put(b, header_page, strlen(header_page));
	put(b, "header_event", 13);
	put_num(b, 0, 8);
	put_num(b, 0, 4);		/* no ftrace formats */
	put_num(b, 1, 4);		/* one system */
	put(b, "sched", 6);
	put_num(b, (uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		put_num(b, strlen(fmt), 8);
		put(b, fmt, strlen(fmt));
	}
	put_num(b, 0, 4);		/* kallsyms */
	put_num(b, 0, 4);		/* printk */
	put_num(b, 0, 8);		/* cmdlines */
}

static void section(struct buf *b, int big)
{
	section_fmt(b, big, sched_switch_fmt, 1);
}

static void check_endian(int big)
{
	struct buf b, raw;
	struct pd_tracing *t = NULL;
	struct ap_err err = { 0 };
	char name[64];
	struct pd_tp_num num;
	int64_t v = 0;

	section(&b, big);
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == 0 && t);
	if (!t)
		return;
	CHECK_EQ_U64(pd_tracing__nevents(t), 1);
	CHECK_EQ_U64(pd_tracing__event_id(t, 0), 372);
	CHECK(pd_tracing__has_event(t, 372) && !pd_tracing__has_event(t, 373));
	CHECK(pd_tracing__event_name(t, 372, name, sizeof(name)) == 0 &&
	      !strcmp(name, "sched:sched_switch"));
	CHECK(!pd_tracing__field(t, 372, "no_such_field"));
	CHECK(!pd_tracing__field(t, 373, "prev_state"));
	CHECK(!!pd_tracing__big_endian(t) == big);
	/* the validated fields, for reading at their offsets */
	CHECK(pd_tracing__format(t, 372) && !pd_tracing__format(t, 373) &&
	      !pd_tracing__format(t, 372 + (1ULL << 32)));
	CHECK(tracing_format__field(pd_tracing__format(t, 372), "prev_state") &&
	      tracing_format__field(pd_tracing__format(t, 372), "prev_state")->offset == 32);

	memset(&raw, 0, sizeof(raw));
	raw.big = big;
	put_num(&raw, 372, 2);
	raw.n = 24;
	put_num(&raw, 4242, 4);			/* prev_pid */
	put_num(&raw, 120, 4);
	put_num(&raw, 2, 8);			/* prev_state: D */
	raw.n = 56;
	put_num(&raw, (uint32_t)-7, 4);		/* next_pid, negative to see sign extension */
	put_num(&raw, 120, 4);
	CHECK(pd_tp_field__read(t, pd_tracing__field(t, 372, "prev_pid"), raw.b, raw.n, &v) == 0 &&
	      v == 4242);
	CHECK(pd_tp_field__read(t, pd_tracing__field(t, 372, "prev_state"), raw.b, raw.n, &v) == 0 &&
	      v == 2);
	CHECK(pd_tp_field__read(t, pd_tracing__field(t, 372, "next_pid"), raw.b, raw.n, &v) == 0 &&
	      v == -7);
	/* a payload that ends inside the field, an array field */
	CHECK(pd_tp_field__read(t, pd_tracing__field(t, 372, "next_pid"), raw.b, 58, &v) == -1);
	CHECK(pd_tp_field__read(t, pd_tracing__field(t, 372, "prev_comm"), raw.b, raw.n, &v) == -1);
	/* the same resolved once (pd_tracing__num): the same values, the same refusals */
	CHECK(pd_tracing__num(t, 372, "prev_pid", &num) == 0 &&
	      pd_tp_num__read(&num, raw.b, raw.n, &v) == 0 && v == 4242);
	CHECK(pd_tracing__num(t, 372, "prev_state", &num) == 0 &&
	      pd_tp_num__read(&num, raw.b, raw.n, &v) == 0 && v == 2);
	CHECK(pd_tracing__num(t, 372, "next_pid", &num) == 0 &&
	      pd_tp_num__read(&num, raw.b, raw.n, &v) == 0 && v == -7);
	CHECK(pd_tp_num__read(&num, raw.b, 58, &v) == -1);
	CHECK(pd_tracing__num(t, 372, "prev_comm", &num) == -1 &&
	      pd_tp_num__read(&num, raw.b, raw.n, &v) == -1);
	CHECK(pd_tracing__num(t, 372, "common_pid", &num) == -1);	/* not the event's own */
	CHECK(pd_tracing__num(t, 373, "prev_state", &num) == -1);
	pd_tracing__delete(t);
}

static void check_bad(void)
{
	char fmt[sizeof(sched_switch_fmt) + 16];
	struct buf b;
	struct pd_tracing *t = NULL;
	struct ap_err err = { 0 };

	section(&b, 0);
	CHECK(pd_tracing__parse(b.b, 100, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "t.data: tracing data: ");
	b.b[0] = 0;
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "bad magic");
	section(&b, 0);
	b.b[15] = 3;		/* long size */
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "bad long size");
	section(&b, 0);
	CHECK(b.b[40] == '\t' && b.b[42] == 'i');
	b.b[42] = '\\';	/* "\tfi\\ld: u64 timestamp;" (fuzzing) */
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "t.data: tracing data: header_page not in the kernel's layout");
	section_fmt(&b, 0, sched_switch_fmt, 2);
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "t.data: tracing data: two tracepoint formats with one id");
	/* a field libtraceevent 1.7.1 leaked on (fuzzing): the view would lose its stacks */
	snprintf(fmt, sizeof(fmt), "%.*sintchar[16]%s",
		 (int)(strstr(sched_switch_fmt, "int next_prio") - sched_switch_fmt),
		 sched_switch_fmt, strstr(sched_switch_fmt, " next_prio"));
	CHECK(strstr(fmt, "\tfield:intchar[16] next_prio;\toffset:60;"));
	section_fmt(&b, 0, fmt, 1);
	CHECK(pd_tracing__parse(b.b, b.n, "t.data", &t, &err) == -1 && !t);
	CHECK_STR_CONTAINS(err.msg, "t.data: tracing data: the format of sched:sched_switch is not"
			   " in the kernel's layout");
}

/* A record header, then its body (n bytes). */
static void put_rec(struct buf *b, uint32_t type, const void *body, size_t n)
{
	struct perf_event_header h = { type, 0, (uint16_t)(sizeof(h) + n) };

	put(b, &h, sizeof(h));
	put(b, body, n);
}

/*
 * A pipe-mode stream as perf 6.1 writes it: the sched_switch attr, the
 * machine (a HEADER_FEATURE), the tracing data record and its section
 * padded to 8 bytes (size says: size), a round. Into out (8 KiB).
 */
static size_t pipe_stream(unsigned char *out, uint32_t size)
{
	struct buf sec, *b = malloc(sizeof(*b) * 2);
	struct perf_event_attr a = { 0 };
	uint64_t magic = 0x32454c4946524550ULL, hsize = 16, id = 7;
	unsigned char body[sizeof(a) + 8];
	size_t n;

	if (!b)
		abort();
	memset(b, 0, sizeof(*b) * 2);
	section(&sec, 0);
	put(b, &magic, 8);
	put(b, &hsize, 8);
	a.size = sizeof(a);
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = 372;
	a.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.context_switch = 1;
	memcpy(body, &a, sizeof(a));
	memcpy(body + sizeof(a), &id, 8);
	put_rec(b, PERF_RECORD_HEADER_ATTR, body, sizeof(body));
	/* feat_id, then perf's string: u32 length with padding, the name */
	memset(body, 0, 24);
	body[0] = 6;
	body[8] = 8;
	memcpy(body + 12, "x86_64", 6);
	put_rec(b, PERF_RECORD_HEADER_FEATURE, body, 24);
	memset(body, 0, 8);
	memcpy(body, &size, 4);
	put_rec(b, PERF_RECORD_HEADER_TRACING_DATA, body, 8);
	put(b, sec.b, sec.n);
	b->n = (b->n + 7) & ~(size_t)7;
	put_rec(b, PERF_RECORD_FINISHED_ROUND, NULL, 0);
	n = b->n;
	memcpy(out, b->b, n);
	free(b);
	return n;
}

/* 0 with the sched_switch tracepoint known, or -1 and the message in err. */
static int tracing_of(struct perfdata *pd, struct ap_err *err)
{
	struct pd_tracing *t = NULL;
	char name[64] = "";
	int r = perfdata__tracing(pd, &t, err);

	if (r)
		return -1;
	r = t && !pd_tracing__event_name(t, 372, name, sizeof(name)) &&
	    !strcmp(name, "sched:sched_switch") ? 0 : -2;
	pd_tracing__delete(t);
	return r;
}

static const char *write_tmp(const char *name, const void *p, size_t n)
{
	static char path[4][512];
	static int k;
	const char *dir = getenv("TMPDIR");
	char *out = path[k++ % 4];
	FILE *f;

	snprintf(out, sizeof(path[0]), "%s/test_tracing.%d.%s", dir && *dir ? dir : "/tmp",
		 (int)getpid(), name);
	f = fopen(out, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f))
		abort();
	return out;
}

static void check_pipe(void)
{
	static unsigned char s[8192];
	struct buf sec;
	struct ap_err err = { 0 };
	struct perfdata *pd;
	struct pd_event ev;
	char arch[16] = "";
	uint32_t size;
	size_t n;
	const char *p;
	int fds[2], saved, status = 0;
	pid_t pid;

	section(&sec, 0);
	size = (uint32_t)((sec.n + 7) & ~(size_t)7);
	n = pipe_stream(s, size);
	/* a pipe-mode file: known at open, and again after a rewind */
	p = write_tmp("pipe.data", s, n);
	CHECK(perfdata__open(p, 0, &pd, &err) == 0);
	CHECK(tracing_of(pd, &err) == 0);
	CHECK(perfdata__feature_string(pd, PD_FEAT_ARCH, arch, sizeof(arch)) == 0 &&
	      !strcmp(arch, "x86_64"));
	while (perfdata__next(pd, &ev, &err) > 0)
		;
	CHECK(perfdata__rewind(pd, &err) == 0 && tracing_of(pd, &err) == 0);
	CHECK(!perfdata__truncated(pd, NULL, NULL));
	perfdata__close(pd);
	unlink(p);

	/* through a pipe: once the record's bytes went by */
	saved = dup(0);
	CHECK(pipe(fds) == 0);
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		_exit(write(fds[1], s, n) == (ssize_t)n ? 0 : 1);
	}
	close(fds[1]);
	dup2(fds[0], 0);
	close(fds[0]);
	CHECK(perfdata__open("-", 0, &pd, &err) == 0);
	CHECK(tracing_of(pd, &err) == -2);	/* none yet */
	while (perfdata__next(pd, &ev, &err) > 0 && ev.hdr->type != PERF_RECORD_FINISHED_ROUND)
		;
	CHECK(tracing_of(pd, &err) == 0);
	CHECK(perfdata__feature_string(pd, PD_FEAT_ARCH, arch, sizeof(arch)) == 0);
	perfdata__close(pd);
	waitpid(pid, &status, 0);
	dup2(saved, 0);
	close(saved);

	/* cut inside the tracing data */
	p = write_tmp("cut.data", s, n - 200);
	CHECK(perfdata__open(p, 0, &pd, &err) == 0);
	CHECK(tracing_of(pd, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "cut.data: tracing data cut short: 872 of 1064 bytes");
	perfdata__close(pd);
	unlink(p);

	/* a size past what a section may hold */
	n = pipe_stream(s, 0xfffffff8u);
	p = write_tmp("huge.data", s, n);
	CHECK(perfdata__open(p, 0, &pd, &err) == 0);
	CHECK(tracing_of(pd, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "tracing data record of 4294967288 bytes, over the 64 MiB limit");
	perfdata__close(pd);
	unlink(p);

	/* a damaged section: the parser's message */
	n = pipe_stream(s, size);
	s[n - 8 - size] ^= 0xff;
	p = write_tmp("magic.data", s, n);
	CHECK(perfdata__open(p, 0, &pd, &err) == 0);
	CHECK(tracing_of(pd, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "magic.data: tracing data: bad magic");
	perfdata__close(pd);
	unlink(p);
}

int main(void)
{
	check_endian(0);
	check_endian(1);
	check_bad();
	check_pipe();
	CHECK_DONE();
}
