// SPDX-License-Identifier: MIT
/*
 * Mapping timelines without perf: merged regions, remaps, exec, fork and
 * the equal-size rule, each on hand-made events.
 */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../../attr/maptable.h"

#define PAGE 4096u

static struct cwasm_module mod_a = { .path = "a.cwasm", .text_size = 3 * PAGE - 10 };
static struct cwasm_module mod_b = { .path = "b.cwasm", .text_size = 5 * PAGE };
static struct cwasm_module mod_c = { .path = "c.cwasm", .text_size = 3 * PAGE - 100 };

static struct mt_event mmap_ev(uint32_t pid, uint64_t start, uint64_t len, uint64_t t, int anon)
{
	static uint64_t seq;

	return (struct mt_event){ .kind = MT_MMAP, .pid = pid, .tid = pid, .start = start,
				  .len = len, .time = t, .seq = seq++, .anon = anon,
				  .is_mmap2 = 1 };
}

static void setup(struct maptable *mt, struct attr_core *cores, uint32_t n,
		  struct attr_result *res)
{
	memset(res, 0, sizeof(*res));
	CHECK(maptable__init(mt, cores, n) == 0);
}

static void teardown(struct maptable *mt, struct attr_result *res)
{
	maptable__exit(mt);
	free(res->mappings);
	free(res->anon);
}

static void test_merge(void)
{
	struct attr_core cores[2] = { { .mod = &mod_a }, { .mod = &mod_b } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;
	uint32_t midx = 99;

	setup(&mt, cores, 2, &res);
	/* core a at 0x100000; then core b right below it, merged by the kernel */
	e = mmap_ev(7, 0x100000, 3 * PAGE, 10, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	e = mmap_ev(7, 0x100000 - 5 * PAGE, 8 * PAGE, 20, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(res.nmappings, 2);
	CHECK_EQ_U64(res.mappings[1].start, 0x100000 - 5 * PAGE);
	CHECK_EQ_U64(res.mappings[1].len, 5 * PAGE);
	CHECK_EQ_U64(res.mappings[1].core, 1);
	/* both cores stay mapped after the merge */
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 30, 0x100010, &midx), 0);
	CHECK_EQ_U64(midx, 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 30, 0x100000 - 5 * PAGE + 8, &midx), 1);
	CHECK_EQ_U64(midx, 1);
	/* before the merge, b's range was not mapped */
	CHECK(maptable__lookup(&mt, 7, 15, 0x100000 - 5 * PAGE + 8, NULL) < 0);
	teardown(&mt, &res);
}

static void test_remap_exec_fork(void)
{
	struct attr_core cores[1] = { { .mod = &mod_a } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;

	setup(&mt, cores, 1, &res);
	e = mmap_ev(7, 0x200000, 3 * PAGE, 10, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	/* a file mapping over the same range replaces it from time 50 on */
	e = mmap_ev(7, 0x200000, PAGE, 50, 0);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 40, 0x200010, NULL), 0);
	CHECK(maptable__lookup(&mt, 7, 60, 0x200010, NULL) < 0);
	/* outside the replaced page the core is still there */
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 60, 0x200000 + PAGE + 8, NULL), 0);
	/* a forked child sees the parent's mappings as of the fork */
	e = (struct mt_event){ .kind = MT_FORK, .pid = 8, .ppid = 7, .time = 30 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 8, 70, 0x200010, NULL), 0);
	/* exec ends everything mapped before it */
	e = (struct mt_event){ .kind = MT_EXEC, .pid = 7, .time = 80 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK(maptable__lookup(&mt, 7, 90, 0x200000 + PAGE + 8, NULL) < 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 70, 0x200000 + PAGE + 8, NULL), 0);
	/*
	 * A child's FORK read after its exec (perf wrote them from two CPUs):
	 * the parent's mappings are still the child's between the two.
	 */
	e = (struct mt_event){ .kind = MT_EXEC, .pid = 9, .time = 40 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	e = (struct mt_event){ .kind = MT_FORK, .pid = 9, .ppid = 7, .time = 35 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 9, 38, 0x200000 + PAGE + 8, NULL), 0);
	CHECK(maptable__lookup(&mt, 9, 45, 0x200000 + PAGE + 8, NULL) < 0);
	/* one older than what the child mapped itself is another process's: not its parent */
	e = (struct mt_event){ .kind = MT_FORK, .pid = 9, .ppid = 7, .time = 50 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	teardown(&mt, &res);
}

static void test_equal_sizes(void)
{
	/* a and c have the same page-rounded size: mapping order decides */
	struct attr_core cores[2] = { { .mod = &mod_a }, { .mod = &mod_c } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;

	setup(&mt, cores, 2, &res);
	for (int i = 0; i < 3; i++) {
		e = mmap_ev(7, 0x400000 + (uint64_t)i * 0x100000, 3 * PAGE, 10 + (uint64_t)i, 1);
		CHECK(maptable__add(&mt, &e, &res) == 0);
	}
	/* another process starts counting from 0 again */
	e = mmap_ev(9, 0x400000, 3 * PAGE, 5, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(res.nmappings, 4);
	CHECK_EQ_U64(res.mappings[0].core, 0);
	CHECK_EQ_U64(res.mappings[1].core, 1);
	CHECK_EQ_U64(res.mappings[2].core, 0);
	CHECK_EQ_U64(res.mappings[3].core, 0);
	/* a non-anonymous mapping of that size is no candidate */
	e = mmap_ev(7, 0x900000, 3 * PAGE, 20, 0);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(res.nmappings, 4);
	teardown(&mt, &res);
}

static void test_base_override(void)
{
	struct attr_core cores[1] = { { .mod = &mod_b, .base_override = 0x700000 } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;

	setup(&mt, cores, 1, &res);
	e = mmap_ev(7, 0x600000, 5 * PAGE, 10, 1); /* right size, wrong place */
	CHECK(maptable__add(&mt, &e, &res) == 0);
	e = mmap_ev(7, 0x700000, 9 * PAGE, 11, 1); /* the given base, any size */
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK_EQ_U64(res.nmappings, 1);
	CHECK_EQ_U64(res.mappings[0].start, 0x700000);
	CHECK(maptable__lookup(&mt, 7, 20, 0x600010, NULL) < 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 20, 0x700010, NULL), 0);
	teardown(&mt, &res);
}

/* A hooked read: a mapping or fork older than a lookup it would have answered is late. */
static void test_misses_late(void)
{
	struct attr_core cores[1] = { { .mod = &mod_b } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;

	setup(&mt, cores, 1, &res);
	mt.track_misses = 1;
	e = mmap_ev(7, 0x500000, 5 * PAGE, 10, 1);
	CHECK(!maptable__late(&mt, &e));
	/* host code of pid 7 looked up at 50, far from the core: nothing is late */
	CHECK(maptable__lookup(&mt, 7, 50, 0x900010, NULL) < 0);
	CHECK(!maptable__late(&mt, &e));
	/* an address in the coming mapping looked up at 50: the mapping at 10 is late */
	CHECK(maptable__lookup(&mt, 7, 50, 0x501010, NULL) < 0);
	CHECK(maptable__late(&mt, &e));
	e = mmap_ev(7, 0x500000, 5 * PAGE, 60, 1);
	CHECK(!maptable__late(&mt, &e));	/* after the lookup: in order */
	e = mmap_ev(8, 0x500000, 5 * PAGE, 10, 1);
	CHECK(!maptable__late(&mt, &e));	/* another process */
	/* a fork older than a miss of the child: the parent's maps would have answered */
	e = (struct mt_event){ .kind = MT_FORK, .pid = 7, .ppid = 3, .time = 40 };
	CHECK(maptable__late(&mt, &e));
	e = (struct mt_event){ .kind = MT_FORK, .pid = 7, .ppid = 3, .time = 55 };
	CHECK(!maptable__late(&mt, &e));
	/* the parent's mapping, older than the child's miss, arriving now */
	e = (struct mt_event){ .kind = MT_FORK, .pid = 7, .ppid = 3, .time = 5 };
	CHECK(maptable__add(&mt, &e, &res) == 0);
	e = mmap_ev(3, 0x500000, 5 * PAGE, 8, 1);
	CHECK(maptable__late(&mt, &e));
	/* without the tracking (a plain read) none of this is late */
	mt.track_misses = 0;
	CHECK(!maptable__late(&mt, &e));
	CHECK(!mt.miss_oom);
	teardown(&mt, &res);
}

/*
 * A read that names host frames (track_files): a file's mapping over a
 * page a lookup missed after the mapping's time is late too; without it a
 * file's code is never a core's, so it is not.
 */
static void test_file_misses_late(void)
{
	struct attr_core cores[1] = { { .mod = &mod_b } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e;

	setup(&mt, cores, 1, &res);
	mt.track_misses = 1;
	CHECK(maptable__lookup(&mt, 7, 50, 0x7f0000001010ull, NULL) < 0);	/* libc's page */
	e = mmap_ev(7, 0x7f0000000000ull, 64 * PAGE, 10, 0);	/* libc, recorded late */
	CHECK(!maptable__late(&mt, &e));
	mt.track_files = 1;
	CHECK(maptable__late(&mt, &e));
	e = mmap_ev(7, 0x7f0000000000ull, 64 * PAGE, 70, 0);	/* after the lookup */
	CHECK(!maptable__late(&mt, &e));
	e = mmap_ev(7, 0x7f1000000000ull, 64 * PAGE, 10, 0);	/* elsewhere */
	CHECK(!maptable__late(&mt, &e));
	teardown(&mt, &res);
}

/*
 * Candidates that come out of time order (two threads mapping cores, their
 * records from two CPUs' buffers): late only when the order picks the core.
 */
static void test_candidates_out_of_order(void)
{
	struct attr_core one[1] = { { .mod = &mod_b } };
	struct attr_core two[2] = { { .mod = &mod_a }, { .mod = &mod_c } };
	struct maptable mt;
	struct attr_result res;
	struct mt_event e, exec = { .kind = MT_EXEC, .pid = 7, .time = 30, .seq = 1000 };
	uint32_t midx = 99;

	setup(&mt, one, 1, &res);
	e = mmap_ev(7, 0x800000, 5 * PAGE, 20, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	CHECK(maptable__add(&mt, &exec, &res) == 0);
	e = mmap_ev(7, 0x400000, 5 * PAGE, 10, 1);	/* older, read after: one core takes both */
	CHECK(!maptable__late(&mt, &e));
	CHECK(maptable__add(&mt, &e, &res) == 0);
	/* kept in time order: mapped before the exec, gone after it */
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 25, 0x400010, NULL), 0);
	CHECK(maptable__lookup(&mt, 7, 35, 0x400010, NULL) < 0);
	CHECK(maptable__lookup(&mt, 7, 5, 0x400010, NULL) < 0);
	/* res->mappings put in time order, the lookups' indices with them */
	CHECK_EQ_U64(res.mappings[0].start, 0x800000);
	CHECK(maptable__order_mappings(&mt, &res) == 0);
	CHECK_EQ_U64(res.nmappings, 2);
	CHECK_EQ_U64(res.mappings[0].start, 0x400000);
	CHECK_EQ_U64(res.mappings[1].start, 0x800000);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 25, 0x400010, &midx), 0);
	CHECK_EQ_U64(midx, 0);
	CHECK_EQ_U64(maptable__lookup(&mt, 7, 25, 0x800010, &midx), 0);
	CHECK_EQ_U64(midx, 1);
	teardown(&mt, &res);

	/* two cores of one size, taken in turn: the order decides, so it is late */
	setup(&mt, two, 2, &res);
	e = mmap_ev(7, 0x800000, 3 * PAGE, 20, 1);
	CHECK(maptable__add(&mt, &e, &res) == 0);
	e = mmap_ev(7, 0x400000, 3 * PAGE, 10, 1);
	CHECK(maptable__late(&mt, &e));
	teardown(&mt, &res);
}

int main(void)
{
	test_merge();
	test_remap_exec_fork();
	test_equal_sizes();
	test_base_override();
	test_misses_late();
	test_file_misses_late();
	test_candidates_out_of_order();
	CHECK_DONE();
}
