// SPDX-License-Identifier: MIT
/*
 * Build ids as the recording holds them (perfdata.h): the
 * HEADER_BUILD_ID feature section is a run of perf_record_header_build_id
 * entries (header, pid, 24 id bytes, a NUL-padded file name), one per DSO
 * with samples; perf writes the running kernel's as "[kernel.kallsyms]"
 * (pid -1, kernel cpumode), `perf buildid-list -i` lists them. aotperf
 * inject adds its images' entries (pd_build_id__entry).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define PD_BID_HEAD (sizeof(struct perf_event_header) + sizeof(int32_t) + 24)
#define PD_BID_NAME_ALIGN 64	/* perf pads each name to this */
#define PD_BID_MAX 20

/* The file name of an entry: the kernel itself (not a module, not a guest's)? */
static int is_kernel(const char *name, size_t n, uint16_t misc)
{
	size_t len = strnlen(name, n);
	const char *base = memrchr(name, '/', len);

	if ((misc & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL)
		return 0;
	if (len == 17 && !memcmp(name, "[kernel.kallsyms]", 17))
		return 1;
	/* a vmlinux perf found and named by its path */
	base = base ? base + 1 : name;
	return (size_t)(name + len - base) >= 7 && !memcmp(base, "vmlinux", 7);
}

size_t pd_build_id__kernel(const void *buf, size_t len, uint8_t *id, size_t cap)
{
	const uint8_t *p = buf;

	for (size_t at = 0; len - at >= PD_BID_HEAD;) {
		struct perf_event_header h;
		const uint8_t *bid = p + at + sizeof(h) + sizeof(int32_t);
		size_t n = 20;

		memcpy(&h, p + at, sizeof(h));
		if (h.size < PD_BID_HEAD || h.size > len - at)
			return 0;	/* a broken table: trust none of it */
		if (h.misc & PERF_RECORD_MISC_BUILD_ID_SIZE)
			n = bid[20] <= 20 ? bid[20] : 20;
		if (n && n <= cap && is_kernel((const char *)p + at + PD_BID_HEAD,
					       h.size - PD_BID_HEAD, h.misc)) {
			memcpy(id, bid, n);
			return n;
		}
		at += h.size;
	}
	return 0;
}

size_t perfdata__kernel_build_id(struct perfdata *pd, uint8_t *id, size_t cap)
{
	size_t len = 0, n;
	char *buf = pd__feature(pd, PD_FEAT_BUILD_ID, &len);

	if (!buf)
		return 0;
	n = pd_build_id__kernel(buf, len, id, cap);
	free(buf);
	return n;
}

size_t pd_build_id__entry(void *buf, size_t cap, const uint8_t *id, size_t id_len,
			  const char *name)
{
	size_t name_len = (strlen(name) + 1 + PD_BID_NAME_ALIGN - 1) & ~(size_t)(PD_BID_NAME_ALIGN - 1);
	size_t size = PD_BID_HEAD + name_len;
	struct perf_event_header h = {
		.type = 0,	/* the section's entries carry no record type */
		.misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_BUILD_ID_SIZE,
		.size = (uint16_t)size,
	};
	int32_t pid = -1;	/* the host machine */
	uint8_t *p = buf;

	if (!id_len || id_len > PD_BID_MAX || size > UINT16_MAX)
		return 0;
	if (size > cap)
		return size;
	memset(p, 0, size);
	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), &pid, sizeof(pid));
	memcpy(p + sizeof(h) + sizeof(pid), id, id_len);
	p[sizeof(h) + sizeof(pid) + PD_BID_MAX] = (uint8_t)id_len;
	memcpy(p + PD_BID_HEAD, name, strlen(name));
	return size;
}
