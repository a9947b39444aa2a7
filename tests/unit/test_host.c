// SPDX-License-Identifier: MIT
/*
 * profile/host.h: the samples no core holds, named from mapping records
 * built here (MMAP2, exec COMM, FORK) whose answers are known by
 * construction: a process's files over time, a fork inheriting what its
 * parent had mapped before it, an exec dropping it, a later mapping
 * replacing an earlier one where they overlap, the kernel and its modules,
 * anonymous code, no mapping at all; then symbols from a real ELF file
 * (this test's own executable) and the inode check that refuses another
 * build.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "../../profile/host.h"

static union {
	struct perf_record_mmap2 mmap2;
	struct perf_record_comm comm;
	struct perf_record_fork fork;
	char bytes[8192];
} rec;

static void feed(struct profile_host *h, uint32_t type, uint16_t misc, uint64_t t)
{
	struct pd_event ev = { 0 };

	rec.mmap2.header.type = type;
	rec.mmap2.header.misc = misc;
	rec.mmap2.header.size = sizeof(rec);
	ev.hdr = &rec.mmap2.header;
	ev.ev = (const union perf_event *)&rec;
	CHECK(profile_host__map(h, &ev, t) == 0);
}

static void mmap2(struct profile_host *h, uint32_t pid, uint64_t start, uint64_t len,
		  uint64_t pgoff, uint32_t prot, const char *file, uint64_t t)
{
	memset(&rec, 0, sizeof(rec));
	rec.mmap2.pid = rec.mmap2.tid = pid;
	rec.mmap2.start = start;
	rec.mmap2.len = len;
	rec.mmap2.pgoff = pgoff;
	rec.mmap2.prot = prot;
	snprintf(rec.mmap2.filename, sizeof(rec.mmap2.filename), "%s", file);
	feed(h, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, t);
}

static void do_exec(struct profile_host *h, uint32_t pid, uint64_t t)
{
	memset(&rec, 0, sizeof(rec));
	rec.comm.pid = rec.comm.tid = pid;
	strcpy(rec.comm.comm, "other");
	feed(h, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, t);
}

static void do_fork(struct profile_host *h, uint32_t pid, uint32_t ppid, uint64_t t)
{
	memset(&rec, 0, sizeof(rec));
	rec.fork.pid = rec.fork.tid = pid;
	rec.fork.ppid = rec.fork.ptid = ppid;
	feed(h, PERF_RECORD_FORK, 0, t);
}

static void sample(struct profile_host *h, uint32_t pid, uint64_t ip, uint16_t mode, uint64_t t)
{
	struct pd_sample s = { .sid = { .pid = pid, .tid = pid, .time = t }, .ip = ip,
			       .cpumode = mode, .has_ip = 1 };

	profile_host__sample(h, &s, t);
}

/* The frame of ip named by the last sample (searched: frames are not sorted yet). */
static const char *dso_of(const struct profile_host *h, uint64_t ip, uint64_t *samples)
{
	for (size_t i = 0; i < h->nframes; i++) {
		if (h->frames[i].ip == ip) {
			if (samples)
				*samples = h->frames[i].samples;
			return h->dsos[h->frames[i].dso];
		}
	}
	return "(none)";
}

/* One sample of pid at ip, time t, in a fresh frame table: where did it land? */
static const char *where(struct profile_host *h, uint32_t pid, uint64_t ip, uint16_t mode,
			 uint64_t t)
{
	static char name[256];
	size_t before = h->nframes;

	sample(h, pid, ip, mode, t);
	if (h->nframes == before)
		snprintf(name, sizeof(name), "(merged)");
	else
		snprintf(name, sizeof(name), "%s", h->dsos[h->frames[h->nframes - 1].dso]);
	return name;
}

#define USER PERF_RECORD_MISC_USER
#define KERNEL PERF_RECORD_MISC_KERNEL
#define X (PROT_READ | PROT_EXEC)

static void test_timeline(void)
{
	struct profile_host h = { 0 };
	struct ap_err err;
	uint64_t n = 0;

	mmap2(&h, 100, 0x1000, 0x2000, 0, X, "/usr/bin/wamr", 10);
	mmap2(&h, 100, 0x9000, 0x1000, 0, PROT_READ, "/usr/bin/data", 10);	/* not code */
	mmap2(&h, UINT32_MAX, 0xffffffff81000000ull, 0x1000000, 0xffffffff81000000ull, X,
	      "[kernel.kallsyms]_text", 0);
	mmap2(&h, UINT32_MAX, 0xffffffffc0000000ull, 0x10000, 0, X,
	      "/lib/modules/6.1.0/kernel/drivers/net/virtio_net.ko", 0);
	mmap2(&h, 100, 0x40000, 0x10000, 0x40000, X, "//anon", 12);

	CHECK(!strcmp(where(&h, 100, 0x1500, USER, 20), "/usr/bin/wamr"));
	CHECK(!strcmp(where(&h, 100, 0x1600, USER, 5), "[unknown]"));	/* before the mmap */
	CHECK(!strcmp(where(&h, 100, 0x9100, USER, 20), "[unknown]"));	/* data, not code */
	CHECK(!strcmp(where(&h, 100, 0x40010, USER, 20), "[JIT] tid 100"));
	CHECK(!strcmp(where(&h, 100, 0xffffffff81234567ull, KERNEL, 20), "[kernel.kallsyms]"));
	CHECK(!strcmp(where(&h, 100, 0xffffffffc0001234ull, KERNEL, 20), "[virtio_net]"));
	CHECK(!strcmp(where(&h, 100, 0xffffffffd0000000ull, KERNEL, 20), "[kernel.kallsyms]"));
	CHECK(!strcmp(where(&h, 77, 0x1500, USER, 20), "[unknown]"));	/* another process */

	/* a fork inherits what the parent had mapped before it, not after */
	do_fork(&h, 200, 100, 30);
	mmap2(&h, 100, 0x5000, 0x1000, 0, X, "/lib/late.so", 35);
	CHECK(!strcmp(where(&h, 200, 0x1700, USER, 40), "/usr/bin/wamr"));
	CHECK(!strcmp(where(&h, 200, 0x5100, USER, 40), "[unknown]"));
	CHECK(!strcmp(where(&h, 100, 0x5200, USER, 40), "/lib/late.so"));
	/* a thread (pid == ppid) is no new process */
	do_fork(&h, 100, 100, 36);
	CHECK(!strcmp(where(&h, 100, 0x1800, USER, 41), "/usr/bin/wamr"));

	/* an exec drops the old image; the new one maps its own */
	do_exec(&h, 200, 50);
	mmap2(&h, 200, 0x1000, 0x1000, 0, X, "/bin/other", 55);
	CHECK(!strcmp(where(&h, 200, 0x2100, USER, 60), "[unknown]"));
	CHECK(!strcmp(where(&h, 200, 0x1900, USER, 60), "/bin/other"));
	CHECK(!strcmp(where(&h, 200, 0x1a00, USER, 45), "/usr/bin/wamr"));	/* before the exec */

	/* a later mapping replaces an earlier one where they overlap */
	mmap2(&h, 100, 0x1000, 0x1000, 0, X, "/lib/b.so", 70);
	CHECK(!strcmp(where(&h, 100, 0x1b00, USER, 80), "/lib/b.so"));
	CHECK(!strcmp(where(&h, 100, 0x2b00, USER, 80), "/usr/bin/wamr"));
	CHECK(!strcmp(where(&h, 100, 0x1c00, USER, 65), "/usr/bin/wamr"));

	/* no ip: [unknown] at 0; the same ip twice: one frame */
	{
		struct pd_sample s = { .sid = { .pid = 100 }, .cpumode = USER };

		profile_host__sample(&h, &s, 90);
		profile_host__sample(&h, &s, 91);
	}
	CHECK(!strcmp(dso_of(&h, 0, &n), "[unknown]"));
	CHECK_EQ_U64(n, 2);
	sample(&h, 100, 0x2b00, USER, 95);
	CHECK(!strcmp(dso_of(&h, 0x2b00, &n), "/usr/bin/wamr"));
	CHECK_EQ_U64(n, 2);
	/* the same ip in another file (b.so replaced wamr there): another frame */
	sample(&h, 100, 0x1500, USER, 96);
	CHECK(!strcmp(h.dsos[h.frames[h.nframes - 1].dso], "/lib/b.so"));

	/* the frame keeps its mapping for the symbol lookup */
	for (size_t i = 0; i < h.nframes; i++)
		if (h.frames[i].ip == 0x2b00)
			CHECK(h.frames[i].map_start == 0x1000 && h.frames[i].map_end == 0x3000);

	CHECK(profile_host__finish(&h, &err) == 0);
	CHECK_EQ_U64(h.samples, 22);
	CHECK(h.nframes > 1 && h.frames[0].samples >= h.frames[1].samples);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < h.nframes; i++)
			sum += h.frames[i].samples;
		CHECK_EQ_U64(sum, h.samples);
	}
	profile_host__exit(&h);
}

/* A function of this file, to be found by its symbol. */
__attribute__((noinline)) int host_test_marker(int x);
__attribute__((noinline)) int host_test_marker(int x)
{
	return x * 3 + 1;
}

/* This executable's mapping of the code at addr: start, length, offset, device, inode. */
static int own_mapping(uint64_t addr, uint64_t *start, uint64_t *len, uint64_t *pgoff,
		       uint32_t *maj, uint32_t *min, uint64_t *ino, char *path, size_t plen)
{
	char line[4400];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, off, inode;
		unsigned ma, mi;
		char perm[8];
		int pos = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n", &lo,
			   &hi, perm, &off, &ma, &mi, &inode, &pos) < 7 || addr < lo || addr >= hi)
			continue;
		*start = lo;
		*len = hi - lo;
		*pgoff = off;
		*maj = ma;
		*min = mi;
		*ino = inode;
		snprintf(path, plen, "%s", line + pos);
		path[strcspn(path, "\n")] = 0;
		found = 1;
	}
	fclose(f);
	return found;
}

static void test_symbols(void)
{
	uint64_t addr = (uint64_t)(uintptr_t)&host_test_marker, start, len, pgoff, ino;
	struct profile_host h = { 0 };
	uint32_t maj, min;
	struct ap_err err;
	char path[4096];

	CHECK(host_test_marker(1) == 4);
	if (!own_mapping(addr, &start, &len, &pgoff, &maj, &min, &ino, path, sizeof(path))) {
		CHECK(!"this test's own code mapping in /proc/self/maps");
		return;
	}
	memset(&rec, 0, sizeof(rec));
	rec.mmap2.pid = rec.mmap2.tid = 300;
	rec.mmap2.start = start;
	rec.mmap2.len = len;
	rec.mmap2.pgoff = pgoff;
	rec.mmap2.prot = X;
	rec.mmap2.maj = maj;
	rec.mmap2.min = min;
	rec.mmap2.ino = ino;
	snprintf(rec.mmap2.filename, sizeof(rec.mmap2.filename), "%s", path);
	feed(&h, PERF_RECORD_MMAP2, USER, 1);
	/* the same file as another process whose record names another inode */
	rec.mmap2.pid = rec.mmap2.tid = 301;
	rec.mmap2.ino = ino + 1;
	feed(&h, PERF_RECORD_MMAP2, USER, 1);

	sample(&h, 300, addr + 4, USER, 2);
	sample(&h, 301, addr + 5, USER, 2);
	CHECK(profile_host__finish(&h, &err) == 0);
	CHECK(profile_host__symbols(&h, &err) == 0);
	for (size_t i = 0; i < h.nframes; i++) {
		const struct profile_host_frame *f = &h.frames[i];

		CHECK(!strcmp(h.dsos[f->dso], path));
		if (f->ip == addr + 4)
			CHECK(f->sym && !strcmp(f->sym, "host_test_marker"));
		else
			CHECK(f->sym == NULL);	/* the inode says: another build */
	}
	CHECK_EQ_U64(h.nframes, 2);
	profile_host__exit(&h);
}

int main(void)
{
	test_timeline();
	test_symbols();
	CHECK_DONE();
}
