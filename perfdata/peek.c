// SPDX-License-Identifier: MIT
/*
 * Reading ahead of the reader (perfdata.h, perfdata__peek): a file's
 * records from an offset, through a buffer of their own, by pread(): the
 * reader's window and position are not touched. session/lookahead.c finds
 * with it the records that introduce a process whose samples came first.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <linux/perf_event.h>
#include "internal.h"
#include "perfdata.h"

/* More than the largest record (its size is 16 bits): one always fits. */
#define PEEK_BUF (128u << 10)
/* What one read asks for: a walk is mostly short (a new process's FORK a few KB on). */
#define PEEK_READ (16u << 10)
#define PD_RECORD_AUXTRACE 71	/* its payload follows the record: not walked */

struct pd_peek {
	struct perfdata *pd;
	char *buf;		/* 8-byte aligned (malloc) */
	uint64_t off;		/* file offset of buf[0] */
	size_t len;
	uint64_t end;		/* where the records end */
	uint64_t bytes;		/* read so far */
};

int perfdata__peek_new(struct perfdata *pd, struct pd_peek **out)
{
	struct pd_peek *pk;

	*out = NULL;
	/* a pipe's attrs come as records: an offset ahead may use one not yet read */
	if (!pd->seekable || pd->pipe)
		return 0;
	pk = calloc(1, sizeof(*pk));
	if (!pk || !(pk->buf = malloc(PEEK_BUF))) {
		free(pk);
		return -1;
	}
	pk->pd = pd;
	pk->end = pd->layout.file_size;
	if (!pd->unfinished && pd->layout.data_offset + pd->layout.data_size < pk->end)
		pk->end = pd->layout.data_offset + pd->layout.data_size;
	*out = pk;
	return 1;
}

void perfdata__peek_delete(struct pd_peek *pk)
{
	if (!pk)
		return;
	free(pk->buf);
	free(pk);
}

uint64_t perfdata__peek_bytes(const struct pd_peek *pk)
{
	return pk->bytes;
}

/*
 * Bytes [at, at + n) in the buffer at an 8-byte aligned place (a record
 * after one whose size is no multiple of 8 is read again to the buffer's
 * start): 1, 0 past the records' end, -1 with err.
 */
static int peek_fill(struct pd_peek *pk, uint64_t at, size_t n, struct ap_err *err)
{
	size_t want;
	ssize_t r;

	if (at >= pk->end || n > pk->end - at)
		return 0;
	if (at >= pk->off && at + n <= pk->off + pk->len && !((at - pk->off) & 7))
		return 1;
	want = n > PEEK_READ ? n : PEEK_READ;
	want = (size_t)(pk->end - at < want ? pk->end - at : want);
	do
		r = pread(pk->pd->fd, pk->buf, want, (off_t)at);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return ap_errk(err, AP_ERR_IO, "%s: read error at offset %llu: %s", pk->pd->path,
			       (unsigned long long)at, strerror(errno));
	pk->off = at;
	pk->len = (size_t)r;
	pk->bytes += (size_t)r;
	return (size_t)r >= n;
}

int perfdata__peek(struct pd_peek *pk, uint64_t *at, struct pd_event *ev, struct ap_err *err)
{
	const struct perf_event_header *h;
	int r = peek_fill(pk, *at, sizeof(*h), err);

	if (r <= 0)
		return r;
	h = (const void *)(pk->buf + (*at - pk->off));
	if (h->size < sizeof(*h) || h->type == PD_RECORD_AUXTRACE)
		return 0;
	r = peek_fill(pk, *at, h->size, err);
	if (r <= 0)
		return r;
	h = (const void *)(pk->buf + (*at - pk->off));	/* the buffer may have been read again */
	memset(ev, 0, sizeof(*ev));
	ev->hdr = h;
	ev->ev = (const union perf_event *)h;
	ev->file_offset = *at;
	ev->sid_off = h->size;
	*at += h->size;
	/* a kernel record's trailer, as the reader parses it; a sample's and the rest unparsed */
	if (h->type != PERF_RECORD_SAMPLE && h->type < PERF_RECORD_USER_TYPE_START &&
	    pd__check_record(pk->pd, h, 0, ev, err) <= 0)
		ev->has_sid = 0;
	return 1;
}
