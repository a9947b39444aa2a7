// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_COMPRESSED: each record carries the next piece of one zstd
 * stream; the decompressed bytes are ordinary records, and one of them can
 * straddle two COMPRESSED records. We decompress into a fixed buffer a piece
 * at a time, hand out the complete records, and keep the tail for the next
 * round, so memory stays bounded whatever the compression ratio.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

void pd__decomp_reset(struct pd_decomp *d)
{
	if (d->ctx)
		ZSTD_DCtx_reset(d->ctx, ZSTD_reset_session_only);
	memset(&d->in, 0, sizeof(d->in));
	d->pos = d->len = 0;
	d->active = 0;
}

void pd_decomp__exit(struct pd_decomp *d)
{
	ZSTD_freeDCtx(d->ctx);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

static int decomp_setup(struct perfdata *pd, uint64_t off, struct ap_err *err)
{
	struct pd_decomp *d = &pd->dec;

	if (pd->has_comp && pd->comp_type != PD_COMP_ZSTD)
		return ap_errf(err, "%s: compressed record at offset %llu: unsupported compression type %u",
			       pd->path, (unsigned long long)off, pd->comp_type);
	if (d->ctx)
		return 0;
	d->ctx = ZSTD_createDCtx();
	/*
	 * Records are handed out as they complete, so any size above the
	 * largest record works; perf's mmap_len is what one write expands to.
	 */
	d->cap = PD_DECOMP_SIZE;
	if (pd->has_comp && pd->comp_mmap_len)
		d->cap = (size_t)pd__min(pd->comp_mmap_len, PD_DECOMP_SIZE);
	if (d->cap < PD_MIN_WINDOW)
		d->cap = PD_MIN_WINDOW;
	d->buf = malloc(d->cap);
	if (!d->ctx || !d->buf)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory for decompression", pd->path);
	return 0;
}

/* Start decompressing the payload of a COMPRESSED record at stream offset off. */
int pd__decomp_feed(struct perfdata *pd, const char *rec, size_t size,
		    uint64_t off, struct ap_err *err)
{
	struct pd_decomp *d = &pd->dec;

	if (decomp_setup(pd, off, err))
		return -1;
	/* The payload stays in the read window until we ask for the next raw record. */
	d->in.src = rec + sizeof(struct perf_event_header);
	d->in.size = size - sizeof(struct perf_event_header);
	d->in.pos = 0;
	d->rec_off = off;
	d->active = 1;
	return 0;
}

static int decomp_more(struct perfdata *pd, struct ap_err *err)
{
	struct pd_decomp *d = &pd->dec;
	size_t avail = d->len - d->pos, in_before = d->in.pos, r;
	ZSTD_outBuffer out;

	if (d->pos) {
		memmove(d->buf, d->buf + d->pos, avail);
		d->pos = 0;
		d->len = avail;
	}
	out.dst = d->buf;
	out.size = d->cap;
	out.pos = d->len;
	r = ZSTD_decompressStream(d->ctx, &out, &d->in);
	if (ZSTD_isError(r))
		return ap_errf(err, "%s: corrupt compressed record at offset %llu: %s",
			       pd->path, (unsigned long long)d->rec_off,
			       ZSTD_getErrorName(r));
	/* A full buffer means zstd may still hold output for this input. */
	d->active = d->in.pos < d->in.size || out.pos == out.size;
	if (out.pos == d->len && d->in.pos == in_before)
		d->active = 0;	/* no progress: nothing more will come */
	d->len = out.pos;
	return 0;
}

/*
 * Next complete record from decompressed data: 1 and *out set, 0 when more
 * input is needed, -1 on corrupt data.
 */
int pd__decomp_next(struct perfdata *pd, const char **out,
		    struct ap_err *err)
{
	struct pd_decomp *d = &pd->dec;

	for (;;) {
		size_t avail = d->len - d->pos;

		if (avail >= sizeof(struct perf_event_header)) {
			struct perf_event_header h;

			memcpy(&h, d->buf + d->pos, sizeof(h));
			if (h.size < sizeof(h))
				return ap_errf(err, "%s: corrupt compressed record at offset %llu: record of size %u inside",
					       pd->path, (unsigned long long)d->rec_off, h.size);
			if (h.size <= avail) {
				*out = d->buf + d->pos;
				d->pos += h.size;
				return 1;
			}
		}
		if (!d->active)
			return 0;
		if (decomp_more(pd, err))
			return -1;
	}
}
