// SPDX-License-Identifier: MIT
/*
 * Is a recording cut short, without a reader: for the dlfilter, whose
 * records perf reads (and which links no perf.data reader, plugin/
 * plugin.mk), and for a read that stopped on an error. The whole records
 * are walked by their headers alone, as the reader counts them
 * (perfdata__truncated), and only when the header's data section does not
 * fit the file: a whole file costs its header.
 */
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfdata.h"
#include "../util/file.h"

#define PD_RECORD_AUXTRACE 71	/* its payload follows the record */

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* Bytes of whole records from data.offset up to limit (at most the file's end). */
static uint64_t whole_records(int fd, uint64_t start, uint64_t limit)
{
	uint64_t pos = start;
	struct perf_event_header h;

	while (pos + sizeof(h) <= limit && !read_at(fd, &h, sizeof(h), pos)) {
		uint64_t next = pos + h.size, payload;

		if (h.size < sizeof(h))
			break;	/* nothing after a bad size can be trusted (reader.c) */
		if (h.type == PD_RECORD_AUXTRACE) {
			if (h.size < sizeof(h) + sizeof(payload) ||
			    read_at(fd, &payload, sizeof(payload), pos + sizeof(h)))
				break;
			next += payload;
		}
		if (next > limit || next < pos)
			break;
		pos = next;
	}
	return pos - start;
}

int perfdata__cut_short(const char *path, uint64_t *read, uint64_t *expected,
			struct ap_err *err)
{
	struct pd_file_header h;
	struct ap_file f;
	uint64_t end;
	int cut = 0;

	*read = *expected = 0;
	if (!strcmp(path, "-"))
		return 0;
	if (ap_file__open(&f, path, 0, err))
		return -1;
	/* a pipe-mode stream, or not a perf.data: its reader says what it is */
	if (read_at(f.fd, &h, sizeof(h), 0) || h.magic != PD_MAGIC2 || h.size != sizeof(h) ||
	    h.data.offset > f.size)
		goto out;
	/* data size 0: perf died before fixing up the header; the records run to the end */
	*expected = h.data.size ? h.data.size : f.size - h.data.offset;
	end = h.data.offset + *expected;
	if (h.data.size && end <= f.size && end >= h.data.offset) {
		*read = *expected;
		goto out;
	}
	*read = whole_records(f.fd, h.data.offset, end < f.size && end >= h.data.offset ? end :
			      f.size);
	cut = *read < *expected || !h.data.size;
out:
	ap_file__close(&f);
	return cut;
}
