// SPDX-License-Identifier: MIT
/*
 * perfdata/tracing_format.h: format texts read into validated fields and
 * the text generated from them. Kernel formats (Linux 6.1's sched_switch,
 * raw_syscalls, syscalls tracepoints with and without BTF's __user
 * attribute, execve's `const char *const *`) read into the fields their
 * lines say; the generated text is exact, the same for texts with the
 * same fields, reads back into itself, and libtraceevent reads it as the
 * fields say; tracepoints aotperf does not decode (or whose name line
 * cannot be read) are skipped; texts off the kernel's layout (among them
 * the lines fuzzing found libtraceevent leaking on) are refused; the
 * header page is checked.
 */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "check.h"
#include "perfdata/tracing_format.h"
#include "tracing_texts.h"

#define COMMON TT_COMMON

#define GEN_COMMON \
	"\tfield:u16 common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:u8 common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:u8 common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:s32 common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char sched_switch[] = TT_SCHED_SWITCH;

static const char sched_switch_gen[] =
	"name: sched_switch\nID: 372\nformat:\n" GEN_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:s32 prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:s64 prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:s32 next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:s32 next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"\"\n";

static const char sys_enter[] =
	"name: sys_enter\nID: 443\nformat:\n" COMMON
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx)\", REC->id, REC->args[0 ((((\n";

/* A system call's arguments are 8 bytes whatever their type says (int dfd). */
static const char openat[] =
	"name: sys_enter_openat\nID: 640\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"dfd: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

static const char execve[] =
	"name: sys_enter_execve\nID: 700\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:const char * filename;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char *const * argv;\toffset:24;\tsize:8;\tsigned:0;\n"
	"\tfield:const char *const * envp;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"\"\n";

static const char openat_btf[] =
	"name: sys_enter_openat\nID: 640\nformat:\n" COMMON
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:const char __attribute__((btf_type_tag(\"user\"))) * filename;\toffset:24;"
	"\tsize:8;\tsigned:0;\n"
	"\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
	"\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"something else\"\n";

static struct tracing_format *parse(const char *sys, const char *text,
				    enum tracing_format_verdict *v)
{
	struct tracing_format *f = NULL;

	*v = tracing_format__parse(sys, text, strlen(text), &f);
	CHECK((*v == TRACING_FORMAT_OK) == (f != NULL));
	return f;
}

static char *text_of(const struct tracing_format *f)
{
	size_t len = 0;
	char *t = tracing_format__text(f, &len);

	CHECK(t && len == strlen(t));
	return t;
}

/* libtraceevent reads the generated text as f's fields say. */
static void check_tep_reads(const struct tracing_format *f, const char *text)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *e;

	CHECK(tep && tep_parse_event(tep, text, strlen(text), tracing_format__system(f)) == 0);
	e = tep ? tep_find_event(tep, (int)tracing_format__id(f)) : NULL;
	CHECK(e && !strcmp(e->name, tracing_format__name(f)));
	for (size_t i = 0; e && i < tracing_format__nfields(f); i++) {
		const struct tracing_field *fl = tracing_format__field_at(f, i);
		struct tep_format_field *tf = fl->common ? tep_find_common_field(e, fl->name) :
						    tep_find_field(e, fl->name);

		CHECK(tf && tf->offset == (int)fl->offset && tf->size == (int)fl->size);
		CHECK(tf && !!(tf->flags & TEP_FIELD_IS_SIGNED) == fl->is_signed);
		CHECK(tf && !!(tf->flags & TEP_FIELD_IS_ARRAY) == !!fl->array_len &&
		      tf->arraylen == fl->array_len && !(tf->flags & TEP_FIELD_IS_DYNAMIC));
	}
	if (tep)
		tep_free(tep);
}

/* Parsed, generated as expected (when given), read back into the same text. */
static char *check_generated(const char *sys, const char *text, const char *expect)
{
	enum tracing_format_verdict v;
	struct tracing_format *f = parse(sys, text, &v), *g;
	char *gen, *again;

	CHECK(v == TRACING_FORMAT_OK);
	if (!f)
		return NULL;
	gen = text_of(f);
	if (expect)
		CHECK(gen && !strcmp(gen, expect));
	g = gen ? parse(sys, gen, &v) : NULL;
	again = g ? text_of(g) : NULL;
	CHECK(again && !strcmp(again, gen));
	if (gen)
		check_tep_reads(f, gen);
	free(again);
	tracing_format__delete(g);
	tracing_format__delete(f);
	return gen;
}

static void check_fields(void)
{
	enum tracing_format_verdict v;
	struct tracing_format *f = parse("sched", sched_switch, &v);
	const struct tracing_field *fl;

	if (!f)
		return;
	CHECK(!strcmp(tracing_format__name(f), "sched_switch") &&
	      !strcmp(tracing_format__system(f), "sched") && tracing_format__id(f) == 372);
	CHECK_EQ_U64(tracing_format__nfields(f), 11);
	fl = tracing_format__field_at(f, 3);
	CHECK(fl && !strcmp(fl->name, "common_pid") && fl->common && fl->type == TRACING_S32);
	fl = tracing_format__field(f, "prev_comm");
	CHECK(fl && fl->type == TRACING_CHAR && fl->array_len == 16 && fl->offset == 8 &&
	      fl->size == 16 && !fl->is_signed && !fl->common);
	fl = tracing_format__field(f, "prev_state");
	CHECK(fl && fl->type == TRACING_S64 && !fl->array_len && fl->offset == 32 &&
	      fl->size == 8 && fl->is_signed);
	CHECK(!tracing_format__field(f, "no_such") && !tracing_format__field_at(f, 11));
	tracing_format__delete(f);

	f = parse("raw_syscalls", sys_enter, &v);
	fl = f ? tracing_format__field(f, "args") : NULL;
	CHECK(fl && fl->type == TRACING_U64 && fl->array_len == 6 && fl->size == 48);
	tracing_format__delete(f);
	f = parse("syscalls", openat, &v);
	fl = f ? tracing_format__field(f, "filename") : NULL;
	CHECK(fl && fl->type == TRACING_U64 && !fl->array_len);
	fl = f ? tracing_format__field(f, "dfd") : NULL;
	CHECK(fl && fl->type == TRACING_U64 && fl->size == 8);
	tracing_format__delete(f);
}

static void check_generation(void)
{
	char *a, *b;

	free(check_generated("sched", sched_switch, sched_switch_gen));
	free(check_generated("raw_syscalls", sys_enter,
			     "name: sys_enter\nID: 443\nformat:\n" GEN_COMMON
			     "\tfield:s64 id;\toffset:8;\tsize:8;\tsigned:1;\n"
			     "\tfield:u64 args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
			     "print fmt: \"\"\n"));
	/* the same fields, however declared: the same text */
	a = check_generated("syscalls", openat, NULL);
	b = check_generated("syscalls", openat_btf, NULL);
	CHECK(a && b && !strcmp(a, b));
	CHECK(a && strstr(a, "\tfield:u64 filename;\toffset:24;"));
	free(a);
	free(b);
	free(check_generated("syscalls", execve, NULL));
	/* no event fields after the common ones */
	free(check_generated("syscalls", "name: sys_exit_sync\nID: 9\nformat:\n" COMMON
			     "\nprint fmt: \"\"\n",
			     "name: sys_exit_sync\nID: 9\nformat:\n" GEN_COMMON "\nprint fmt: \"\"\n"));
}

static void check_unwanted(void)
{
	static const char *const texts[][2] = {
		{ "sched", "name: sched_wakeup\nID: 1\nformat:\n" COMMON "\nprint fmt: \"\"\n" },
		{ "ftrace", "name: function\nID: 1\n" },
		{ "raw_syscalls", "name: sys_enterx\nID: 1\n" },
		{ "syscalls", "name: sys_enter_\nID: 1\n" },
		/* no name line: which tracepoint it is cannot be known */
		{ "sched", "" },
		{ "sched", "name: sched switch\nID: 1\n" },
	};
	enum tracing_format_verdict v;

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		CHECK(!parse(texts[i][0], texts[i][1], &v));
		CHECK(v == TRACING_FORMAT_UNWANTED);
	}
}

#define HEAD "name: sys_enter\nID: 1\nformat:\n" COMMON
#define TAIL "\nprint fmt: \"\"\n"

static void check_malformed(void)
{
	static const char *const bad[] = {
		"name: sys_enter",					/* cut after the name */
		"name: sys_enter\nID: 4294967296\nformat:\n" COMMON TAIL,
		"name: sys_enter\nID: 1x\nformat:\n" COMMON TAIL,
		"name: sys_enter\nID: 1\nformat:\n\n\nprint fmt: \"\"",	/* no common fields */
		HEAD "\n",						/* no print format */
		HEAD "\tfield:long id;\toffset:8;\tsize:8;\tsigned:2;\n" TAIL,
		HEAD "\tfield:long id;\toffset:99999;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long id;\toffset:65530;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long (id);\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:id;\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:* id;\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long  id;\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long id[x];\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long id[];\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long id[0];\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long *;\toffset:8;\tsize:8;\tsigned:1;\n" TAIL,
		HEAD "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1; \n" TAIL,
		HEAD "\tfield:long id;\toffset:8;\tsize:0;\tsigned:1;\n" TAIL,
		/* sizes the declaration cannot have */
		HEAD "\tfield:long id;\toffset:8;\tsize:3;\tsigned:1;\n" TAIL,
		HEAD "\tfield:char id[16];\toffset:8;\tsize:8;\tsigned:0;\n" TAIL,
		HEAD "\tfield:int id[3];\toffset:8;\tsize:8;\tsigned:0;\n" TAIL,
		HEAD "\tfield:int id[2];\toffset:8;\tsize:24;\tsigned:0;\n" TAIL,
		/* one name twice */
		HEAD "\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
		     "\tfield:long id;\toffset:16;\tsize:8;\tsigned:1;\n" TAIL,
		/* dynamic arrays: none of the decoded tracepoints has one */
		HEAD "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n" TAIL,
		/* a [N] before the name (libtraceevent 1.7.1 leaks on these; fuzzing) */
		HEAD "\tfield:char[16] short id;\toffset:8;\tsize:2;\tsigned:0;\n" TAIL,
		HEAD "\tfield:char[2] id[4];\toffset:8;\tsize:8;\tsigned:0;\n" TAIL,
		HEAD "\tfield:intchar[16] next_prio;\toffset:60;\tsize:4;\tsigned:1;\n" TAIL,
		HEAD "\tfield:const char __attribute__((user)) * f;\toffset:8;\tsize:8;\tsigned:0;\n" TAIL,
		/* names libtraceevent's tokenizer rewrites (it leaked on these; fuzzing) */
		HEAD "\tfield:short LOCAL_PR_FMT;\toffset:8;\tsize:2;\tsigned:1;\n" TAIL,
		HEAD "\tfield:char STA_PR_FMT[4];\toffset:8;\tsize:4;\tsigned:0;\n" TAIL,
		HEAD "\tfield:int VIF_PR_FMT;\toffset:8;\tsize:4;\tsigned:1;\n" TAIL,
	};
	enum tracing_format_verdict v;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct tracing_format *f = parse("raw_syscalls", bad[i], &v);

		if (v != TRACING_FORMAT_MALFORMED)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK(v == TRACING_FORMAT_MALFORMED && !f);
		tracing_format__delete(f);
	}
}

/* 65 fields: one too many. */
static void check_too_many(void)
{
	char text[8192], *p = text;
	enum tracing_format_verdict v;

	p += sprintf(p, "name: sys_enter\nID: 1\nformat:\n" COMMON);
	for (int i = 0; i < 60; i++)
		p += sprintf(p, "\tfield:long f%d;\toffset:%d;\tsize:8;\tsigned:1;\n", i, 8 + 8 * i);
	sprintf(p, TAIL);
	free(check_generated("raw_syscalls", text, NULL));	/* 4 + 60 */
	p = strstr(text, TAIL);
	sprintf(p, "\tfield:long f60;\toffset:1000;\tsize:8;\tsigned:1;\n" TAIL);
	CHECK(!parse("raw_syscalls", text, &v) && v == TRACING_FORMAT_MALFORMED);
}


static void check_header_page(void)
{
	static const char *const good[] = {
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER TT_PAGE_DATA,
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_DATA,
		/* 32-bit */
		TT_PAGE_TS "\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n" TT_PAGE_OVER
		"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:1;\n",
	};
	static const char *const bad[] = {
		"",
		"abc",
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER,
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER TT_PAGE_DATA TT_PAGE_DATA,
		TT_PAGE_COMMIT TT_PAGE_TS TT_PAGE_OVER TT_PAGE_DATA,
		/* fuzzing's mangled line */
		TT_PAGE_TS TT_PAGE_COMMIT
		"\tfi\\ld: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" TT_PAGE_DATA,
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER
		"\tfield: char data;\toffset:12;\tsize:4080;\tsigned:0;\n",
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER
		"\tfield: char data[4];\toffset:16;\tsize:4;\tsigned:0;\n",
		"\tfield: u64 timestamp;\toffset:0;\tsize:4;\tsigned:0;\n"
		TT_PAGE_COMMIT TT_PAGE_OVER TT_PAGE_DATA,
		TT_PAGE_TS TT_PAGE_COMMIT TT_PAGE_OVER TT_PAGE_DATA "\n",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		CHECK(tracing_format__check_header_page(good[i], strlen(good[i])) == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK(tracing_format__check_header_page(bad[i], strlen(bad[i])) == -1);
}

int main(void)
{
	check_fields();
	check_generation();
	check_unwanted();
	check_malformed();
	check_too_many();
	check_header_page();
	CHECK_DONE();
}
