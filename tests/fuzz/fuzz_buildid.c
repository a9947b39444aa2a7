// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=4096
/*
 * Fuzz target: the kernel build id as off-CPU kernel naming reads it
 * (profile/kernel_id.h): the same bytes as a recording's HEADER_BUILD_ID
 * section (pd_build_id__kernel, perfdata/buildid.c) and as a run of ELF
 * notes like /sys/kernel/notes (kernel_id__from_notes), each with a room
 * of 20 bytes and of 4. Seeds: perf 6.1's section of a recording with a
 * kernel entry, and a kernel's notes.
 */
#include <string.h>
#include "perfdata/perfdata.h"
#include "profile/kernel_id.h"
#include "fuzz.h"

static volatile uint64_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t rooms[] = { 20, 4 };

	for (size_t i = 0; i < sizeof(rooms) / sizeof(rooms[0]); i++) {
		uint8_t id[24];
		size_t n;

		memset(id, 0xa5, sizeof(id));
		/* never more than the room, never a byte written past it */
		n = pd_build_id__kernel(data, size, id, rooms[i]);
		FUZZ_ASSERT(n <= rooms[i] && id[rooms[i]] == 0xa5);
		sink += n ? id[0] : 0;
		n = kernel_id__from_notes(data, size, id, rooms[i]);
		FUZZ_ASSERT(n <= rooms[i] && id[rooms[i]] == 0xa5);
		sink += n ? id[n - 1] : 0;
	}
	return 0;
}
