// SPDX-License-Identifier: MIT
/*
 * The host frames' names (profile/hostmaps.h, hostsyms.h, host.h), from
 * mapping records built here (MMAP2, exec, fork) whose answers are known
 * by construction: a process's files over time, a fork inheriting what its
 * parent had mapped before it, an exec dropping it, a later mapping
 * replacing an earlier one where they overlap, the kernel and its modules,
 * anonymous code, no mapping at all; the samples counted per (dso, ip);
 * then symbols from a real ELF file (this test's own executable) and the
 * inode check that refuses another build.
 */
#include <inttypes.h>
#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "check.h"
#include "../../profile/host.h"
#include "../../profile/hostmaps.h"
#include "../../profile/hostsyms.h"

static void mmap2(struct hostmaps *h, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		  const char *file, uint64_t t)
{
	struct attr_map_event ev = { .kind = ATTR_MAP_MMAP, .pid = pid, .start = start,
				     .len = len, .pgoff = pgoff, .filename = file, .time = t };

	CHECK(hostmaps__add(h, &ev) == 0);
}

static void do_exec(struct hostmaps *h, uint32_t pid, uint64_t t)
{
	struct attr_map_event ev = { .kind = ATTR_MAP_EXEC, .pid = pid, .time = t };

	CHECK(hostmaps__add(h, &ev) == 0);
}

static void do_fork(struct hostmaps *h, uint32_t pid, uint32_t ppid, uint64_t t)
{
	struct attr_map_event ev = { .kind = ATTR_MAP_FORK, .pid = pid, .ppid = ppid, .time = t };

	CHECK(hostmaps__add(h, &ev) == 0);
}

/* The DSO holding ip in pid at time t, "(none)" when no mapping does. */
static const char *where(const struct hostmaps *h, uint32_t pid, uint64_t ip, int kernel,
			 uint64_t t)
{
	const struct hostmap *m = hostmaps__find(h, pid, kernel, ip, t);

	return m ? hostmaps__dso(h, m->dso) : "(none)";
}

#define USER 0
#define KERNEL 1
#define KPID HOSTMAPS_KERNEL_PID

static void test_timeline(void)
{
	struct hostmaps *h = hostmaps__new();
	const struct hostmap *m;
	uint64_t gen;

	CHECK(h != NULL);
	if (!h)
		return;
	mmap2(h, 100, 0x1000, 0x2000, 0, "/usr/bin/wamr", 10);
	mmap2(h, KPID, 0xffffffff81000000ull, 0x1000000, 0xffffffff81000000ull,
	      "[kernel.kallsyms]_text", 0);
	mmap2(h, KPID, 0xffffffffc0000000ull, 0x10000, 0,
	      "/lib/modules/6.1.0/kernel/drivers/net/virtio_net.ko", 0);
	mmap2(h, 100, 0x40000, 0x10000, 0x40000, "//anon", 12);

	CHECK(!strcmp(where(h, 100, 0x1500, USER, 20), "/usr/bin/wamr"));
	CHECK(!strcmp(where(h, 100, 0x1600, USER, 5), "(none)"));	/* before the mmap */
	CHECK(!strcmp(where(h, 100, 0x40010, USER, 20), "[JIT] tid 100"));
	CHECK(!strcmp(where(h, 100, 0xffffffff81234567ull, KERNEL, 20), "[kernel.kallsyms]"));
	CHECK(!strcmp(where(h, 100, 0xffffffffc0001234ull, KERNEL, 20), "[virtio_net]"));
	CHECK(!strcmp(where(h, 100, 0xffffffffd0000000ull, KERNEL, 20), "(none)"));
	CHECK(!strcmp(where(h, 77, 0x1500, USER, 20), "(none)"));	/* another process */
	CHECK(hostmaps__dso_is_file(h, hostmaps__find(h, 100, 0, 0x1500, 20)->dso));
	CHECK(!hostmaps__dso_is_file(h, hostmaps__find(h, 100, 0, 0x40010, 20)->dso));

	/* a fork inherits what the parent had mapped before it, not after */
	do_fork(h, 200, 100, 30);
	mmap2(h, 100, 0x5000, 0x1000, 0, "/lib/late.so", 35);
	CHECK(!strcmp(where(h, 200, 0x1700, USER, 40), "/usr/bin/wamr"));
	CHECK(!strcmp(where(h, 200, 0x5100, USER, 40), "(none)"));
	CHECK(!strcmp(where(h, 100, 0x5200, USER, 40), "/lib/late.so"));

	/* an exec drops the old image; the new one maps its own */
	do_exec(h, 200, 50);
	mmap2(h, 200, 0x1000, 0x1000, 0, "/bin/other", 55);
	CHECK(!strcmp(where(h, 200, 0x2100, USER, 60), "(none)"));
	CHECK(!strcmp(where(h, 200, 0x1900, USER, 60), "/bin/other"));
	CHECK(!strcmp(where(h, 200, 0x1a00, USER, 45), "/usr/bin/wamr"));	/* before the exec */

	/* a later mapping replaces an earlier one where they overlap */
	gen = hostmaps__generation(h);
	mmap2(h, 100, 0x1000, 0x1000, 0, "/lib/b.so", 70);
	CHECK(hostmaps__generation(h) != gen);
	CHECK(!strcmp(where(h, 100, 0x1b00, USER, 80), "/lib/b.so"));
	CHECK(!strcmp(where(h, 100, 0x2b00, USER, 80), "/usr/bin/wamr"));
	CHECK(!strcmp(where(h, 100, 0x1c00, USER, 65), "/usr/bin/wamr"));
	m = hostmaps__find(h, 100, 0, 0x2b00, 80);
	CHECK(m && m->start == 0x1000 && m->end == 0x3000 && m->time == 10);

	/* a read that starts over forgets the mappings, keeps the names */
	hostmaps__reset(h);
	CHECK(!strcmp(where(h, 100, 0x1500, USER, 20), "(none)"));
	mmap2(h, 100, 0x1000, 0x2000, 0, "/usr/bin/wamr", 10);
	CHECK(!strcmp(where(h, 100, 0x1500, USER, 20), "/usr/bin/wamr"));
	hostmaps__delete(h);
}

/* The samples outside wasm: per (dso, ip), each frame described once. */
static void test_table(void)
{
	struct profile_host t = { 0 };
	struct profile_host_map map = { 0x1000, 0x3000, 0 };
	const char *wamr = "/usr/bin/wamr";
	char copy[32];
	uint64_t sum = 0;

	CHECK(profile_host__add(&t, wamr, 0, 0x1500, &map, "main") == 0);
	CHECK(profile_host__add(&t, "[unknown]", 0, 0, NULL, NULL) == 1);
	CHECK(profile_host__add(&t, "[unknown]", 0, 0, NULL, NULL) == 1);
	/* the same name from another pointer is the same DSO */
	snprintf(copy, sizeof(copy), "%s", wamr);
	CHECK(profile_host__add(&t, copy, 0, 0x1500, &map, "main") == 0);
	CHECK(profile_host__add(&t, "/lib/b.so", 0, 0x1500, NULL, NULL) == 2);
	CHECK(profile_host__add(&t, "[kernel.kallsyms]", 1, 0xffffffff81000000ull, NULL,
				"do_syscall_64") == 3);
	CHECK_EQ_U64(t.nframes, 4);
	CHECK_EQ_U64(t.ndsos, 4);
	CHECK_EQ_U64(t.frames[0].samples, 2);
	CHECK(!strcmp(t.dsos[t.frames[0].dso], wamr) && !strcmp(t.frames[0].sym, "main"));
	CHECK(t.frames[0].map_start == 0x1000 && t.frames[0].map_end == 0x3000);
	CHECK(t.frames[1].sym == NULL && t.frames[1].ip == 0 && t.frames[1].samples == 2);
	CHECK(t.frames[3].kernel && !strcmp(t.frames[3].sym, "do_syscall_64"));
	for (size_t i = 0; i < t.nframes; i++)
		sum += t.frames[i].samples;
	CHECK_EQ_U64(sum, t.samples);
	CHECK_EQ_U64(t.samples, 6);
	/* many frames: the table grows and finds each again */
	for (uint64_t ip = 0; ip < 5000; ip++)
		CHECK(profile_host__add(&t, wamr, 0, 0x10000 + ip, NULL, NULL) == (int64_t)(4 + ip));
	for (uint64_t ip = 0; ip < 5000; ip += 7)
		CHECK(profile_host__add(&t, wamr, 0, 0x10000 + ip, NULL, NULL) == (int64_t)(4 + ip));
	CHECK_EQ_U64(t.nframes, 5004);
	profile_host__reset(&t);
	CHECK_EQ_U64(t.nframes, 0);
	CHECK_EQ_U64(t.samples, 0);
	profile_host__exit(&t);
}

/* A function of this file, to be found by its symbol. */
__attribute__((noinline)) int host_test_marker(int x);
__attribute__((noinline)) int host_test_marker(int x)
{
	return x * 3 + 1;
}

/*
 * This process's mapping of the code at addr, as an mmap record of it
 * (start, length, offset, device, inode; filename = path).
 */
static int own_mapping(uint64_t addr, struct attr_map_event *ev, char *path, size_t plen)
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
		ev->start = lo;
		ev->len = hi - lo;
		ev->pgoff = off;
		ev->maj = ma;
		ev->min = mi;
		ev->ino = inode;
		snprintf(path, plen, "%s", line + pos);
		path[strcspn(path, "\n")] = 0;
		ev->filename = path;
		found = 1;
	}
	fclose(f);
	return found;
}

/*
 * The address of path's .plt (-1 where objdump cannot say: the caller skips
 * its check); in the files tested here it equals its file offset.
 */
static int plt_address(const char *path, unsigned long long *vma)
{
	char cmd[4400];
	unsigned long long off;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "objdump -h '%s' | awk '$2 == \".plt\" { print $4, $6 }'", path);
	p = popen(cmd, "r");
	if (!p || fscanf(p, "%llx %llx", vma, &off) != 2) {
		printf("objdump not usable: the PLT check of %s is skipped\n", path);
		if (p)
			pclose(p);
		return -1;
	}
	pclose(p);
	CHECK(*vma == off);
	return 0;
}

/*
 * The PLT entries, named NAME@plt as perf synthesizes them: against
 * objdump's labels for .plt (and .plt.sec) of the file at path, whose code
 * mapping is m (file offset = address in these sections: objdump -h).
 */
static void check_plt(struct hostsyms *hs, const struct hostmap *m, const char *path)
{
	char cmd[4400], line[512], name[256];
	unsigned long long va, vma;
	int n = 0;
	FILE *p;

	if (plt_address(path, &vma))
		return;
	snprintf(cmd, sizeof(cmd), "objdump -d -j .plt -j .plt.sec '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		const char *sym = NULL;
		uint64_t ip;

		/* entries only: objdump labels the header "<first@plt-0x10>" */
		if (sscanf(line, "%llx <%255[^>]>:", &va, name) != 2 || strlen(name) < 5 ||
		    strcmp(name + strlen(name) - 4, "@plt"))
			continue;
		ip = m->start + va - m->pgoff;
		CHECK(hostsyms__find(hs, m, ip + 4, &sym) == 0 && sym && !strcmp(sym, name));
		n++;
	}
	if (p)
		pclose(p);
	CHECK(n > 10);	/* this test calls libc and libelf through the PLT */
}

/*
 * libc's own PLT, as perf 6.1 names it: slot i (after the header) for
 * relocation i of .rela.plt, NAME@plt, and "@plt" for a relocation without
 * a symbol (IRELATIVE: ifunc calls inside libc). Its IRELATIVE relocations
 * come last while their slots do not, so objdump's labels differ here; perf
 * script's are the reference (tests/browser/exports.sh), readelf's order
 * this test's.
 */
static void check_plt_by_reloc(struct hostsyms *hs, const struct hostmap *m, const char *path)
{
	char cmd[4400], line[512], name[256], type[64];
	unsigned long long vma, got, info;
	int i = 0, in = 0, irel = 0;
	FILE *p;

	if (plt_address(path, &vma))
		return;
	snprintf(cmd, sizeof(cmd), "readelf -W -r '%s'", path);
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		const char *sym = NULL;
		char want[300];
		uint64_t ip;

		if (strstr(line, "Relocation section")) {
			in = strstr(line, "'.rela.plt'") != NULL;
			continue;
		}
		if (!in || sscanf(line, "%llx %llx %63s", &got, &info, type) != 3)
			continue;
		if (!strcmp(type, "R_X86_64_IRELATIVE")) {
			snprintf(want, sizeof(want), "@plt");
			irel++;
		} else if (sscanf(line, "%*x %*x %*s %*x %255s", name) == 1) {
			name[strcspn(name, "@")] = 0;
			snprintf(want, sizeof(want), "%s@plt", name);
		} else {
			continue;
		}
		ip = m->start + vma + 16 * (uint64_t)(i + 1) - m->pgoff;
		CHECK(hostsyms__find(hs, m, ip + 4, &sym) == 0 && sym && !strcmp(sym, want));
		i++;
	}
	if (p)
		pclose(p);
	CHECK(i > 10 && irel > 0);	/* Debian 12's libc: 53, 25 of them IRELATIVE */
}

static void check_libc_plt(void)
{
	/* a libc function no sanitizer intercepts: its address is in libc itself */
	uint64_t addr = (uint64_t)(uintptr_t)&gnu_get_libc_version;
	struct hostmaps *h = hostmaps__new();
	struct hostsyms *hs = h ? hostsyms__new(h) : NULL;
	struct attr_map_event ev = { .kind = ATTR_MAP_MMAP, .time = 1, .pid = 400 };
	const struct hostmap *m;
	char path[4096];

	CHECK(hs != NULL);
#if defined(__x86_64__)
	if (hs && own_mapping(addr, &ev, path, sizeof(path))) {
		CHECK(strstr(path, "/libc.so") != NULL);
		CHECK(hostmaps__add(h, &ev) == 0);
		m = hostmaps__find(h, 400, 0, addr, 2);
		CHECK(m != NULL);
		if (m)
			check_plt_by_reloc(hs, m, path);
	}
#endif
	hostsyms__delete(hs);
	hostmaps__delete(h);
}

static void test_symbols(void)
{
	uint64_t addr = (uint64_t)(uintptr_t)&host_test_marker, ino;
	struct hostmaps *h = hostmaps__new();
	struct hostsyms *hs = h ? hostsyms__new(h) : NULL;
	struct attr_map_event ev = { .kind = ATTR_MAP_MMAP, .time = 1 };
	const struct hostmap *m;
	const char *sym = "(not set)";
	char path[4096];

	CHECK(hs != NULL);
	CHECK(host_test_marker(1) == 4);
	if (!hs || !own_mapping(addr, &ev, path, sizeof(path))) {
		CHECK(!"this test's own code mapping in /proc/self/maps");
		goto out;
	}
	ino = ev.ino;
	ev.pid = 300;
	CHECK(hostmaps__add(h, &ev) == 0);
	/* the same file as another process whose record names another inode */
	ev.pid = 301;
	ev.ino = ino + 1;
	CHECK(hostmaps__add(h, &ev) == 0);
	/* and one whose record names none (MMAP, or MMAP2 with a build id) */
	ev.pid = 302;
	ev.ino = 0;
	CHECK(hostmaps__add(h, &ev) == 0);

	m = hostmaps__find(h, 300, 0, addr + 1, 2);
	CHECK(m && !strcmp(hostmaps__dso(h, m->dso), path));
	CHECK(m && hostsyms__find(hs, m, addr + 1, &sym) == 0 && sym &&
	      !strcmp(sym, "host_test_marker"));
	m = hostmaps__find(h, 301, 0, addr + 2, 2);
	CHECK(m && hostsyms__find(hs, m, addr + 2, &sym) == 0 && sym == NULL);	/* another build */
	m = hostmaps__find(h, 302, 0, addr + 3, 2);
	CHECK(m && hostsyms__find(hs, m, addr + 3, &sym) == 0 && sym &&
	      !strcmp(sym, "host_test_marker"));
	/* past the function, where the next one (or nothing) is */
	m = hostmaps__find(h, 300, 0, addr, 2);
	CHECK(m && hostsyms__find(hs, m, addr - 1, &sym) == 0 &&
	      (!sym || strcmp(sym, "host_test_marker")));
	if (m)
		check_plt(hs, m, path);
out:
	hostsyms__delete(hs);
	hostmaps__delete(h);
}

/*
 * The kernel's symbols from /proc/kallsyms: at an address two functions
 * share, the one listed last (perf's pick: it sizes them first), when the
 * recorded kernel mapping is this kernel's _text.._etext; another layout
 * names nothing.
 */
static void test_kallsyms(void)
{
	struct hostmaps *h = hostmaps__new();
	struct hostsyms *hs = h ? hostsyms__new(h) : NULL;
	unsigned long long text = 0, etext = 0, a, prev = 0, at = 0;
	char line[512], name[256], type, last[256] = "", want[256] = "";
	struct attr_map_event ev = { .kind = ATTR_MAP_MMAP, .pid = KPID,
				     .filename = "[kernel.kallsyms]_text" };
	const struct hostmap *m;
	const char *sym = NULL;
	int same = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	CHECK(hs != NULL);
	if (hs)
		hostsyms__set_kallsyms(hs, "/proc/kallsyms");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, name) != 3 || strchr(line, '\t'))
			continue;
		if (!strcmp(name, "_text"))
			text = a;
		if (!strcmp(name, "_etext"))
			etext = a;
		if (!strchr("tTwW", type) || !a)
			continue;
		if (a == prev && !at)
			same = 1;
		else if (same && !at)
			at = prev, snprintf(want, sizeof(want), "%s", last);
		else
			same = 0;
		prev = a;
		snprintf(last, sizeof(last), "%s", name);
	}
	if (f)
		fclose(f);
	if (!hs || !text || !etext || !at || at < text || at >= etext) {
		printf("/proc/kallsyms without addresses or aliases: its check is skipped\n");
		goto out;
	}
	ev.start = text;
	ev.len = etext - text;
	ev.pgoff = text;
	CHECK(hostmaps__add(h, &ev) == 0);
	m = hostmaps__find(h, 1, 1, at, 1);
	CHECK(m && hostsyms__find(hs, m, at, &sym) == 0 && sym && !strcmp(sym, want));
	if (sym && strcmp(sym, want))
		printf("at %llx: %s, want %s\n", at, sym, want);
	/* another kernel layout (KASLR elsewhere): no names */
	hostmaps__reset(h);
	ev.start = text + 0x200000;
	CHECK(hostmaps__add(h, &ev) == 0);
	m = hostmaps__find(h, 1, 1, ev.start + 0x1000, 1);
	CHECK(m && hostsyms__find(hs, m, ev.start + 0x1000, &sym) == 0 && sym == NULL);
out:
	hostsyms__delete(hs);
	hostmaps__delete(h);
}

int main(void)
{
	test_timeline();
	test_table();
	test_symbols();
	check_libc_plt();
	test_kallsyms();
	CHECK_DONE();
}
