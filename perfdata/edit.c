// SPDX-License-Identifier: MIT
/*
 * Copy-with-edits. Only file-mode perf.data is supported: a pipe-mode stream
 * has no header to fix and would be edited by a plain concatenation anyway.
 * Feature sections are copied verbatim (one may grow at its end); of them
 * only AUXTRACE holds offsets into the data section, so a file with that
 * feature is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edit.h"
#include "../util/file.h"
#include "internal.h"
#include "../util/outfile.h"

#define PD_FEAT_AUXTRACE 19
#define COPY_CHUNK (1u << 20)

static int edit_cmp(const void *a, const void *b)
{
	const struct pd_edit *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	/* an insert before a replace at the same offset */
	return (x->old_size > 0) - (y->old_size > 0);
}

static int read_at(int fd, void *buf, size_t len, uint64_t off, const char *path,
		   struct ap_err *err)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return ap_errf(err, "%s: short read at offset %llu", path,
				       (unsigned long long)(off + done));
		done += (size_t)n;
	}
	return 0;
}

static int copy_range(int fd, FILE *out, uint64_t from, uint64_t to, char *buf,
		      const char *path, struct ap_err *err)
{
	while (from < to) {
		size_t n = to - from > COPY_CHUNK ? COPY_CHUNK : (size_t)(to - from);

		if (read_at(fd, buf, n, from, path, err))
			return -1;
		if (fwrite(buf, 1, n, out) != n)
			return ap_errk(err, AP_ERR_IO, "write failed: %s", strerror(errno));
		from += n;
	}
	return 0;
}

static int check_edits(const struct pd_file_header *h, const struct pd_edit *e, size_t n,
		       const char *path, struct ap_err *err)
{
	uint64_t end = h->data.offset + h->data.size, prev_end = h->data.offset;

	for (size_t i = 0; i < n; i++) {
		if (e[i].offset < prev_end || e[i].offset + e[i].old_size > end)
			return ap_errf(err, "%s: edit at offset %llu is outside the data section or"
				       " overlaps another", path, (unsigned long long)e[i].offset);
		if (e[i].new_size < sizeof(struct perf_event_header) || !e[i].rec ||
		    ((const struct perf_event_header *)e[i].rec)->size != e[i].new_size)
			return ap_errf(err, "%s: edit at offset %llu is not a whole record", path,
				       (unsigned long long)e[i].offset);
		prev_end = e[i].offset + e[i].old_size;
	}
	return 0;
}

/* The data section with the edits applied; returns the size change. */
static int copy_data(int fd, FILE *out, const struct pd_file_header *h,
		     const struct pd_edit *e, size_t n, char *buf, const char *path,
		     struct ap_err *err)
{
	uint64_t pos = h->data.offset, end = h->data.offset + h->data.size;

	for (size_t i = 0; i < n; i++) {
		if (copy_range(fd, out, pos, e[i].offset, buf, path, err))
			return -1;
		if (fwrite(e[i].rec, 1, e[i].new_size, out) != e[i].new_size)
			return ap_errk(err, AP_ERR_IO, "write failed: %s", strerror(errno));
		pos = e[i].offset + e[i].old_size;
	}
	return copy_range(fd, out, pos, end, buf, path, err);
}

static int has_feature(const struct pd_file_header *h, int feat)
{
	return (h->adds_features[feat / 64] >> (feat % 64)) & 1;
}

/* Set feature bits below `below`: a feature's slot in the table. */
static uint64_t feature_rank(const struct pd_file_header *h, int below)
{
	uint64_t n = 0;

	for (int i = 0; i < below; i++)
		n += (uint64_t)has_feature(h, i);
	return n;
}

/*
 * The grown section of a present feature ends where the new bytes go, so
 * no other section may straddle that point.
 */
static int check_growth(const struct pd_file_section *secs, uint64_t nfeat, uint64_t slot,
			const char *path, struct ap_err *err)
{
	uint64_t at = secs[slot].offset + secs[slot].size;

	for (uint64_t i = 0; i < nfeat; i++)
		if (i != slot && secs[i].offset < at && secs[i].size > at - secs[i].offset)
			return ap_errf(err, "%s: feature sections %llu and %llu overlap", path,
				       (unsigned long long)i, (unsigned long long)slot);
	return 0;
}

/*
 * The feature table with offsets moved by the data's size change (and by
 * the growth of app's section, or by the new table slot and its section
 * at the end), then the sections, with app's bytes in place.
 */
static int copy_features(int fd, FILE *out, const struct pd_file_header *h, uint64_t fsize,
			 int64_t delta, const struct pd_feat_append *app, char *buf,
			 const char *path, struct ap_err *err)
{
	uint64_t table = h->data.offset + h->data.size;
	uint64_t nfeat = feature_rank(h, PD_FEAT_BITS), nout = nfeat;
	uint64_t slot = app ? feature_rank(h, app->feat) : 0, at = fsize;
	int present = app && has_feature(h, app->feat);
	int64_t shift = delta;
	struct pd_file_section *secs;

	if (table + nfeat * sizeof(*secs) > fsize)
		return ap_errf(err, "%s: feature table past the end of the file", path);
	secs = calloc(nfeat + 1, sizeof(*secs));
	if (!secs)
		return ap_err_nomem(err);
	if (read_at(fd, secs, nfeat * sizeof(*secs), table, path, err))
		goto fail;
	for (uint64_t i = 0; i < nfeat; i++) {
		if (secs[i].offset < table + nfeat * sizeof(*secs)) {
			ap_errf(err, "%s: feature section %llu lies inside the data or the feature"
				" table", path, (unsigned long long)i);
			goto fail;
		}
		/* so that moving it cannot overflow */
		if (secs[i].offset > fsize || secs[i].size > fsize - secs[i].offset) {
			ap_errf(err, "%s: feature section %llu runs past the end of the file", path,
				(unsigned long long)i);
			goto fail;
		}
	}
	if (present) {
		if (check_growth(secs, nfeat, slot, path, err))
			goto fail;
		at = secs[slot].offset + secs[slot].size;
	} else if (app) {
		shift += (int64_t)sizeof(*secs);	/* one more slot in the table */
		nout++;
	}
	for (uint64_t i = 0; i < nfeat; i++) {
		int64_t by = shift;

		if (present && i != slot && secs[i].offset >= at)
			by += (int64_t)app->len;
		secs[i].offset = (uint64_t)((int64_t)secs[i].offset + by);
	}
	if (present) {
		secs[slot].size += app->len;
	} else if (app) {
		memmove(secs + slot + 1, secs + slot, (nfeat - slot) * sizeof(*secs));
		secs[slot].offset = (uint64_t)((int64_t)fsize + shift);
		secs[slot].size = app->len;
	}
	if (fwrite(secs, sizeof(*secs), nout, out) != nout) {
		ap_errk(err, AP_ERR_IO, "write failed: %s", strerror(errno));
		goto fail;
	}
	free(secs);
	if (copy_range(fd, out, table + nfeat * sizeof(*secs), at, buf, path, err))
		return -1;
	if (app && app->len && fwrite(app->buf, 1, app->len, out) != app->len)
		return ap_errk(err, AP_ERR_IO, "write failed: %s", strerror(errno));
	return copy_range(fd, out, at, fsize, buf, path, err);
fail:
	free(secs);
	return -1;
}

/* whole (perfdata__check_editable): the data section is its first whole bytes, no features. */
static int check_header(struct pd_file_header *h, uint64_t fsize, uint64_t whole,
			const char *path, struct ap_err *err)
{
	if (h->magic != PD_MAGIC2 || h->size != sizeof(*h))
		return ap_errf(err, "%s: not a file-mode perf.data (pipe-mode streams cannot be"
			       " edited; record with -o FILE)", path);
	if (whole) {
		h->data.size = whole;
		memset(h->adds_features, 0, sizeof(h->adds_features));
	}
	if (h->data.offset < sizeof(*h) || h->data.offset + h->data.size > fsize ||
	    h->data.offset + h->data.size < h->data.offset)
		return ap_errf(err, "%s: data section past the end of the file (cut short?)", path);
	if (!h->data.size)
		return ap_errf(err, "%s: perf did not finish writing this file (data size 0)", path);
	if ((h->adds_features[0] >> PD_FEAT_AUXTRACE) & 1)
		return ap_errf(err, "%s: has AUXTRACE data, whose index aotperf cannot move", path);
	if (h->attrs.offset + h->attrs.size > h->data.offset)
		return ap_errf(err, "%s: attrs after the data section are not supported", path);
	return 0;
}

int perfdata__check_editable(const char *in, uint64_t whole, struct ap_err *err)
{
	struct pd_file_header h;
	struct ap_file f;
	int ret;

	if (ap_file__open(&f, in, 0, err))
		return -1;
	ret = read_at(f.fd, &h, sizeof(h), 0, in, err) || check_header(&h, f.size, whole, in, err);
	ap_file__close(&f);
	return ret ? -1 : 0;
}

int perfdata__write_edited(const char *in, uint64_t whole, const char *out,
			   const struct pd_edit *edits, size_t nedits,
			   const struct pd_feat_append *app, struct ap_err *err)
{
	struct pd_file_header h;
	struct pd_edit *e = NULL;
	struct outfile of;
	struct ap_file f;
	char *buf = NULL;
	int64_t delta = 0;
	int fd, ret = -1;

	if (app && (app->feat <= 0 || app->feat >= PD_FEAT_BITS || (app->len && !app->buf)))
		return ap_errf(err, "%s: no feature %d to add to", in, app->feat);
	if (ap_file__open(&f, in, 0, err))	/* util/file.h: a regular file only */
		return -1;
	fd = f.fd;
	if (read_at(fd, &h, sizeof(h), 0, in, err) || check_header(&h, f.size, whole, in, err))
		goto out_close;
	e = malloc((nedits ? nedits : 1) * sizeof(*e));
	buf = malloc(COPY_CHUNK);
	if (!e || !buf) {
		ap_err_nomem(err);
		goto out_close;
	}
	memcpy(e, edits, nedits * sizeof(*e));
	qsort(e, nedits, sizeof(*e), edit_cmp);
	if (check_edits(&h, e, nedits, in, err))
		goto out_close;
	for (size_t i = 0; i < nedits; i++)
		delta += (int64_t)e[i].new_size - (int64_t)e[i].old_size;
	/* the copy is as private as the recording (perf writes 0600) */
	if (outfile__open_mode(&of, out, outfile__mode_of(in), err))
		goto out_close;
	{
		struct pd_file_header nh = h;

		nh.data.size = (uint64_t)((int64_t)h.data.size + delta);
		if (app)
			nh.adds_features[app->feat / 64] |= 1ull << (app->feat % 64);
		if (fwrite(&nh, sizeof(nh), 1, of.f) != 1 ||
		    copy_range(fd, of.f, sizeof(h), h.data.offset, buf, in, err) ||
		    copy_data(fd, of.f, &h, e, nedits, buf, in, err) ||
		    (!whole && copy_features(fd, of.f, &h, f.size, delta, app, buf, in, err))) {
			if (!err || !err->msg[0])
				ap_errk(err, AP_ERR_IO, "%s: write failed", out);
			outfile__abort(&of);
			goto out_close;
		}
	}
	ret = outfile__commit(&of, err);
out_close:
	free(e);
	free(buf);
	close(fd);
	return ret;
}
