// SPDX-License-Identifier: MIT
/*
 * The [aot-spill-metric] log parser: the line grammar (keys in any order,
 * trailing text after values, names with spaces or quotes, extra keys),
 * malformed lines with their line numbers, repeated (mod, local_func)
 * pairs, --lenient, lookup and ranking.
 *
 * The parser lives in cli/ (the unit tests link only the library), so it
 * is compiled into this test directly.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../spills/spills-log.h"

/* Parse text as a whole log; returns spill_log__read_file's result. */
static int parse_text(struct spill_log *log, const char *text, int lenient, struct ap_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	spill_log__init(log, "t.log");
	if (!f)
		return -1;
	ret = spill_log__read_file(log, f, lenient, err);
	fclose(f);
	return ret;
}

static uint64_t get(const struct spill_log *log, const struct spill_rec *r, const char *field)
{
	uint64_t v = ~0ULL;

	spill_log__get(log, r, spill_log__field(log, field), &v);
	return v;
}

static void test_full_line(void)
{
	struct spill_log log;
	struct spill_rec r;
	char why[256];
	const char *line =
		"[aot-spill-metric] local_func=11396 mod=4 name=big insts=9000 clobbers=3 slots=77"
		" spilled_vregs=410 scalar=400 v128=10 slots_scalar=70 slots_v128=7"
		" spill_ld=514965 (emitted reloads) spill_st=2000 remat=12 callee_saved=5";

	spill_log__init(&log, "t.log");
	CHECK_EQ_U64(spill_log__parse_line(&log, line, &r, why, sizeof(why)), 1);
	CHECK_EQ_U64(r.mod, 4);
	CHECK_EQ_U64(r.func, 11396);
	CHECK(r.name && !strcmp(r.name, "big"));
	CHECK_EQ_U64(r.v[SPILL_F_INSTS], 9000);
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_LD], 514965);
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_ST], 2000);
	CHECK_EQ_U64(r.v[SPILL_F_CALLEE_SAVED], 5);
	CHECK_EQ_U64(r.v[SPILL_F_SLOTS_V128], 7);
	CHECK_EQ_U64(r.have, (1ULL << SPILL_F__KNOWN) - 1);
	spill_rec__exit(&r);

	/* not a metric line */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-codegen-timing] local_func=1 spill_ld=3",
					   &r, why, sizeof(why)), 0);
	CHECK_EQ_U64(spill_log__parse_line(&log, "", &r, why, sizeof(why)), 0);
	spill_log__exit(&log);
}

static void test_order_and_trailing(void)
{
	struct spill_log log;
	struct spill_rec r;
	char why[256];

	spill_log__init(&log, "t.log");
	/* any order, a prefix before the tag, CRLF, no mod, trailing punctuation */
	CHECK_EQ_U64(spill_log__parse_line(&log, "12:00:01 wamrc: [aot-spill-metric] spill_st=4;"
					   " spill_ld=9, local_func=3\r", &r, why, sizeof(why)), 1);
	CHECK_EQ_U64(r.func, 3);
	CHECK_EQ_U64(r.mod, 0);
	CHECK(!(r.have & (1ULL << SPILL_F_MOD)));
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_LD], 9);
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_ST], 4);
	CHECK(!r.name);
	spill_rec__exit(&r);
	/* the upstream skill's trap: text glued after spill_ld with no blank */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=1 spill_ld=77(emitted)",
					   &r, why, sizeof(why)), 1);
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_LD], 77);
	spill_rec__exit(&r);
	spill_log__exit(&log);
}

static void test_names(void)
{
	struct spill_log log;
	struct spill_rec r;
	char why[256];

	spill_log__init(&log, "t.log");
	/* a name with spaces runs to the next key= token */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=1 mod=0"
					   " name=<T as core::Foo>::bar  insts=5 spill_ld=2",
					   &r, why, sizeof(why)), 1);
	CHECK(r.name && !strcmp(r.name, "<T as core::Foo>::bar"));
	CHECK_EQ_U64(r.v[SPILL_F_INSTS], 5);
	spill_rec__exit(&r);
	/* '=' inside a name does not end it: only a blank then key= does */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] name=operator=(A const&) local_func=2"
					   " spill_ld=1", &r, why, sizeof(why)), 1);
	CHECK(r.name && !strcmp(r.name, "operator=(A const&)"));
	spill_rec__exit(&r);
	/* quoted, with an escaped quote and something key-like inside */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=3 name=\"a \\\"b\\\" x=1\""
					   " spill_ld=4", &r, why, sizeof(why)), 1);
	CHECK(r.name && !strcmp(r.name, "a \"b\" x=1"));
	CHECK_EQ_U64(r.v[SPILL_F_SPILL_LD], 4);
	spill_rec__exit(&r);
	/* empty name, and a name last on the line */
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=4 name= spill_ld=4",
					   &r, why, sizeof(why)), 1);
	CHECK(!r.name);
	spill_rec__exit(&r);
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=4 spill_ld=4 name=tail end ",
					   &r, why, sizeof(why)), 1);
	CHECK(r.name && !strcmp(r.name, "tail end"));
	spill_rec__exit(&r);
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=4 spill_ld=4 name=\"open",
					   &r, why, sizeof(why)), -1);
	CHECK_STR_CONTAINS(why, "quote");
	spill_log__exit(&log);
}

static void test_extra_keys(void)
{
	struct spill_log log;
	struct spill_rec r;
	char why[256];

	spill_log__init(&log, "t.log");
	CHECK_EQ_U64(spill_log__parse_line(&log, "[aot-spill-metric] local_func=1 spill_ld=2"
					   " new_metric=42 note=hello", &r, why, sizeof(why)), 1);
	CHECK(spill_log__field(&log, "new_metric") >= SPILL_F__KNOWN);
	CHECK_EQ_U64(get(&log, &r, "new_metric"), 42);
	/* a text-valued unknown key is free text, not a field */
	CHECK(spill_log__field(&log, "note") < 0);
	CHECK(spill_log__field(&log, "nonesuch") < 0);
	spill_rec__exit(&r);
	spill_log__exit(&log);
}

static void test_malformed(void)
{
	static const struct {
		const char *line, *why;
	} bad[] = {
		{ "[aot-spill-metric] mod=0 spill_ld=3", "no local_func" },
		{ "[aot-spill-metric] local_func=3 spill_st=3", "no spill_ld" },
		{ "[aot-spill-metric] local_func=x spill_ld=3", "local_func: 'x' is not a number" },
		{ "[aot-spill-metric] local_func=1 spill_ld=-3", "not a number" },
		{ "[aot-spill-metric] local_func=1 spill_ld=1.5", "not a number" },
		{ "[aot-spill-metric] local_func=1 spill_ld=0x1f", "not a number" },
		{ "[aot-spill-metric] local_func=1 spill_ld=", "not a number" },
		{ "[aot-spill-metric] local_func=1 spill_ld=99999999999999999999", "not a number" },
		{ "[aot-spill-metric] local_func=4294967296 spill_ld=1", "out of range" },
		{ "[aot-spill-metric] local_func=1 spill_ld=1 spill_ld=2", "twice" },
		{ "[aot-spill-metric] local_func=1 name=a spill_ld=1 name=b", "twice" },
	};
	struct spill_log log;
	struct spill_rec r;
	char why[256];

	spill_log__init(&log, "t.log");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = 0;
		CHECK_EQ_U64(spill_log__parse_line(&log, bad[i].line, &r, why, sizeof(why)),
			     (uint64_t)-1);
		CHECK_STR_CONTAINS(why, bad[i].why);
	}
	spill_log__exit(&log);
}

static void test_log(void)
{
	struct spill_log log;
	struct ap_err err = { 0 };
	const char *text =
		"wamrc: compiling\n"
		"[aot-codegen-timing] func=0 ms=1.5\n"
		"[aot-spill-metric] local_func=0 mod=1 spill_ld=10 insts=5\n"
		"junk = 12\n"
		"[aot-spill-metric] local_func=1 mod=1 spill_ld=30 insts=9\n"
		"[aot-spill-metric] local_func=0 mod=0 spill_ld=30 insts=1\n"
		"[aot-spill-metric] local_func=2 mod=1 spill_ld=20\n";
	const struct spill_rec *r;
	uint32_t *order;

	CHECK_EQ_U64(parse_text(&log, text, 0, &err), 0);
	CHECK_EQ_U64(log.n, 4);
	CHECK_EQ_U64(log.lines, 7);
	CHECK_EQ_U64(log.metric_lines, 4);
	r = spill_log__find(&log, 1, 1);
	CHECK(r && r->line == 5);
	CHECK(spill_log__find(&log, 0, 0) && spill_log__find(&log, 0, 0)->line == 6);
	CHECK(!spill_log__find(&log, 0, 1));
	CHECK(!spill_log__find(&log, 2, 0));
	/* spill_ld descending; the tie 30/30 by (mod, func) */
	order = spill_log__rank(&log, SPILL_F_SPILL_LD);
	CHECK(order);
	if (order) {
		CHECK_EQ_U64(log.recs[order[0]].line, 6);
		CHECK_EQ_U64(log.recs[order[1]].line, 5);
		CHECK_EQ_U64(log.recs[order[2]].line, 7);
		CHECK_EQ_U64(log.recs[order[3]].line, 3);
	}
	free(order);
	/* by insts: the record without insts ranks last */
	order = spill_log__rank(&log, SPILL_F_INSTS);
	CHECK(order);
	if (order) {
		CHECK_EQ_U64(log.recs[order[0]].line, 5);
		CHECK_EQ_U64(log.recs[order[3]].line, 7);
	}
	free(order);
	spill_log__exit(&log);
}

static void test_log_errors(void)
{
	struct spill_log log;
	struct ap_err err = { 0 };

	CHECK_EQ_U64(parse_text(&log, "a\n[aot-spill-metric] local_func=1 spill_ld=2\n"
				"[aot-spill-metric] local_func=2 spill_ld=z\n", 0, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "t.log:3: malformed");
	CHECK_STR_CONTAINS(err.msg, "spill_ld: 'z'");
	spill_log__exit(&log);

	/* lenient: skipped and counted, the rest is read */
	CHECK_EQ_U64(parse_text(&log, "[aot-spill-metric] local_func=1 spill_ld=2\n"
				"[aot-spill-metric] local_func=2 spill_ld=z\n"
				"[aot-spill-metric] spill_ld=5\n", 1, &err), 0);
	CHECK_EQ_U64(log.n, 1);
	CHECK_EQ_U64(log.skipped, 2);
	CHECK_EQ_U64(log.nwarnings, 2);
	CHECK(log.nwarnings && strstr(log.warnings[0], "t.log:2:"));
	spill_log__exit(&log);

	/* a repeated pair names both lines (the earliest repeat) */
	CHECK_EQ_U64(parse_text(&log, "[aot-spill-metric] local_func=7 mod=2 spill_ld=1\n"
				"[aot-spill-metric] local_func=8 mod=2 spill_ld=1\n"
				"x\n"
				"[aot-spill-metric] spill_ld=3 mod=2 local_func=8\n"
				"[aot-spill-metric] spill_ld=3 mod=2 local_func=7\n"
				"[aot-spill-metric] local_func=7 mod=3 spill_ld=1\n", 1, &err),
		     (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "t.log:4: mod 2 local_func 8 repeats line 2");
	spill_log__exit(&log);

	/* nothing to rank */
	CHECK_EQ_U64(parse_text(&log, "[aot-codegen-timing] x=1\nhello\n", 0, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "no usable [aot-spill-metric] lines in 2 line(s)");
	spill_log__exit(&log);
	CHECK_EQ_U64(parse_text(&log, "", 0, &err), (uint64_t)-1);
	spill_log__exit(&log);

	CHECK_EQ_U64(spill_log__read(&log, "/nonexistent/spill.log", 0, &err), (uint64_t)-1);
	CHECK_STR_CONTAINS(err.msg, "/nonexistent/spill.log: No such file");
	spill_log__exit(&log);
}

/* Many distinct extra keys: the table stops growing, the line still parses. */
static void test_field_cap(void)
{
	struct spill_log log;
	struct spill_rec r;
	char line[4096], why[256];
	size_t n = 0;

	n += (size_t)snprintf(line + n, sizeof(line) - n, "[aot-spill-metric] local_func=1 spill_ld=2");
	for (int i = 0; i < 80; i++)
		n += (size_t)snprintf(line + n, sizeof(line) - n, " k%d=%d", i, i);
	spill_log__init(&log, "t.log");
	CHECK_EQ_U64(spill_log__parse_line(&log, line, &r, why, sizeof(why)), 1);
	CHECK_EQ_U64(log.nfields, SPILL_MAX_FIELDS);
	CHECK_EQ_U64(log.ignored_keys, 80 - (SPILL_MAX_FIELDS - SPILL_F__KNOWN));
	CHECK_EQ_U64(get(&log, &r, "k3"), 3);
	spill_rec__exit(&r);
	spill_log__exit(&log);
}

int main(void)
{
	test_full_line();
	test_order_and_trailing();
	test_names();
	test_extra_keys();
	test_malformed();
	test_log();
	test_log_errors();
	test_field_cap();
	CHECK_DONE();
}
