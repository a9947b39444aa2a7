// SPDX-License-Identifier: MIT
/*
 * The kernel build id from both sides (profile/kernel_id.h): a
 * HEADER_BUILD_ID section as perf writes it (entries of header, pid, 24
 * id bytes, a padded name; the kernel's "[kernel.kallsyms]" with kernel
 * cpumode, a module's and a user DSO's beside it), and ELF notes as
 * /sys/kernel/notes holds them (another note before the GNU build id).
 * Byte layouts written here from the formats, not by the code under test.
 */
#include <string.h>
#include "check.h"
#include "../../perfdata/perfdata.h"
#include "../../profile/kernel_id.h"

static size_t entry(uint8_t *at, uint16_t misc, int32_t pid, uint8_t fill, uint8_t idlen,
		    const char *name)
{
	size_t nlen = (strlen(name) + 1 + 7) & ~(size_t)7, size = 8 + 4 + 24 + nlen;
	uint32_t type = PERF_RECORD_HEADER_BUILD_ID;
	uint16_t sz = (uint16_t)size;

	memset(at, 0, size);
	memcpy(at, &type, 4);
	memcpy(at + 4, &misc, 2);
	memcpy(at + 6, &sz, 2);
	memcpy(at + 8, &pid, 4);
	memset(at + 12, fill, 20);
	at[12 + 20] = idlen;
	memcpy(at + 36, name, strlen(name));
	return size;
}

static void test_section(void)
{
	uint8_t buf[512], id[20];
	size_t n = 0;

	n += entry(buf + n, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE, 7, 0x11, 20,
		   "/usr/lib/libc.so.6");
	n += entry(buf + n, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE, -1, 0x22,
		   20, "/lib/modules/6.1/kernel/fs/ext4.ko");
	n += entry(buf + n, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE, -1, 0x33,
		   20, "[kernel.kallsyms]");
	CHECK_EQ_U64(pd_build_id__kernel(buf, n, id, sizeof(id)), 20);
	CHECK(id[0] == 0x33 && id[19] == 0x33);
	/* cut inside the kernel's entry: nothing trusted */
	CHECK_EQ_U64(pd_build_id__kernel(buf, n - 1, id, sizeof(id)), 0);
	/* an id longer than the room */
	CHECK_EQ_U64(pd_build_id__kernel(buf, n, id, 8), 0);
	/* a guest's kernel is not ours; a user DSO named like it neither */
	n = entry(buf, PERF_RECORD_MISC_GUEST_KERNEL, -1, 0x44, 20, "[kernel.kallsyms]");
	n += entry(buf + n, PERF_RECORD_MISC_USER, 5, 0x55, 20, "[kernel.kallsyms]");
	CHECK_EQ_U64(pd_build_id__kernel(buf, n, id, sizeof(id)), 0);
	/* without the size flag: 20 bytes; a vmlinux path */
	n = entry(buf, PERF_RECORD_MISC_KERNEL, -1, 0x66, 0, "/usr/lib/debug/boot/vmlinux-6.1");
	CHECK_EQ_U64(pd_build_id__kernel(buf, n, id, sizeof(id)), 20);
	CHECK(id[0] == 0x66);
	/* a short id (the size flag) */
	n = entry(buf, PERF_RECORD_MISC_KERNEL | PERF_RECORD_MISC_BUILD_ID_SIZE, -1, 0x77, 16,
		  "[kernel.kallsyms]");
	CHECK_EQ_U64(pd_build_id__kernel(buf, n, id, sizeof(id)), 16);
	CHECK_EQ_U64(pd_build_id__kernel(buf, 0, id, sizeof(id)), 0);
}

static size_t note(uint8_t *at, uint32_t type, const char *name, const uint8_t *desc,
		   uint32_t descsz)
{
	uint32_t h[3] = { (uint32_t)strlen(name) + 1, descsz, type };
	size_t nsz = (h[0] + 3) & ~3u, dsz = (descsz + 3) & ~3u;

	memset(at, 0, 12 + nsz + dsz);
	memcpy(at, h, 12);
	memcpy(at + 12, name, h[0]);
	memcpy(at + 12 + nsz, desc, descsz);
	return 12 + nsz + dsz;
}

static void test_notes(void)
{
	uint8_t buf[256], id[20], desc[20], ver[6] = { 1, 2, 3, 4, 5, 6 };
	size_t n = 0;

	for (int i = 0; i < 20; i++)
		desc[i] = (uint8_t)(0xa0 + i);
	n += note(buf + n, 0x101, "Linux", ver, sizeof(ver));
	n += note(buf + n, 1, "GNU", ver, 4);		/* NT_GNU_ABI_TAG: not it */
	n += note(buf + n, 3, "GNU", desc, 20);		/* NT_GNU_BUILD_ID */
	CHECK_EQ_U64(kernel_id__from_notes(buf, n, id, sizeof(id)), 20);
	CHECK(!memcmp(id, desc, 20));
	CHECK_EQ_U64(kernel_id__from_notes(buf, n - 1, id, sizeof(id)), 0);
	CHECK_EQ_U64(kernel_id__from_notes(buf, n, id, 19), 0);
	n = note(buf, 3, "Xen", desc, 20);
	CHECK_EQ_U64(kernel_id__from_notes(buf, n, id, sizeof(id)), 0);
}

int main(void)
{
	test_section();
	test_notes();
	CHECK_DONE();
}
