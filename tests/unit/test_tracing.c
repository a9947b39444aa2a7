// SPDX-License-Identifier: MIT
/*
 * perfdata/tracing.h: a tracing-data section built here (either
 * endianness) holding the sched_switch format as the kernel prints it,
 * parsed with libtraceevent; fields read by name from a payload whose
 * bytes are placed at the format's offsets; sections cut or damaged are
 * refused with a message.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "perfdata/tracing.h"

static const char sched_switch_fmt[] =
	"name: sched_switch\nID: 372\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d next_pid=%d\", REC->prev_pid, REC->next_pid\n";

struct buf {
	unsigned char b[4096];
	size_t n;
	int big;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void put_num(struct buf *b, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b->b[b->n + i] = (unsigned char)(v >> (8 * (b->big ? n - 1 - i : i)));
	b->n += n;
}

static void section(struct buf *b, int big)
{
	memset(b, 0, sizeof(*b));
	b->big = big;
	put(b, "\x17\x08\x44tracing", 10);
	put(b, "0.6", 4);
	put_num(b, (uint64_t)big, 1);
	put_num(b, 8, 1);
	put_num(b, 4096, 4);
	put(b, "header_page", 12);
	put_num(b, 3, 8);
	put(b, "abc", 3);
	put(b, "header_event", 13);
	put_num(b, 0, 8);
	put_num(b, 0, 4);		/* no ftrace formats */
	put_num(b, 1, 4);		/* one system */
	put(b, "sched", 6);
	put_num(b, 1, 4);
	put_num(b, strlen(sched_switch_fmt), 8);
	put(b, sched_switch_fmt, strlen(sched_switch_fmt));
	put_num(b, 0, 4);		/* kallsyms */
	put_num(b, 0, 4);		/* printk */
	put_num(b, 0, 8);		/* cmdlines */
}

static void check_endian(int big)
{
	struct buf b, raw;
	struct pd_tracing *t = NULL;
	struct ap_err err = { 0 };
	char name[64];
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
	pd_tracing__delete(t);
}

static void check_bad(void)
{
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
}

int main(void)
{
	check_endian(0);
	check_endian(1);
	check_bad();
	CHECK_DONE();
}
