// SPDX-License-Identifier: MIT
/*
 * perf.data reader: the file header, attrs and feature sections are read
 * with pread(); the records go through a fixed window that slides forward
 * (internal.h): a regular file's are mapped a window at a time, as perf
 * maps its data section, so no byte is copied and a payload nobody reads
 * (a dwarf sample's stack in a report that does not unwind) is never
 * touched; a stream's are read() into a buffer that keeps a partial record
 * at its front. A record is at most 64 KiB, so neither needs to grow.
 * Pipe-mode streams (from a pipe or a file) go through the same window.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "internal.h"
#include "../util/file.h"

static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static ssize_t pread_full(int fd, void *buf, size_t n, uint64_t off)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Is [off, off+size) inside the file? */
static int in_file(const struct perfdata *pd, uint64_t off, uint64_t size)
{
	uint64_t fs = pd->layout.file_size;

	return off <= fs && size <= fs - off;
}

/* --- the window --------------------------------------------------------- */

/* A stream's buffer; small files get a small one. It must hold the largest record. */
static int win_buffer(struct perfdata *pd, struct ap_err *err)
{
	uint64_t want = PD_WINDOW_SIZE;

	if (pd->seekable && pd->layout.file_size >= pd->start)
		want = pd__min(want, pd->layout.file_size - pd->start);
	want = want < PD_MIN_WINDOW ? PD_MIN_WINDOW : want;
	pd->win.cap = (size_t)want;
	pd->win.buf = malloc(pd->win.cap);
	pd->win.mapped = 0;
	if (!pd->win.buf)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", pd->path);
	return 0;
}

/* A regular file is mapped window by window (win_map); a stream gets a buffer. */
static int win_alloc(struct perfdata *pd, struct ap_err *err)
{
	if (pd->seekable) {
		pd->win.mapped = 1;
		return 0;
	}
	return win_buffer(pd, err);
}

static void win_unmap(struct pd_window *w)
{
	if (!w->mapped)
		return;
	if (w->buf)
		munmap(w->buf, w->len);
	w->buf = NULL;
}

static void win_reset(struct pd_window *w, uint64_t off, uint64_t limit)
{
	win_unmap(w);
	w->pos = w->len = 0;
	w->off = off;
	w->limit = limit;
	w->eof = 0;
}

static ssize_t win_fill_slow(struct perfdata *pd, size_t need, struct ap_err *err);

/*
 * Make at least need bytes available at w->pos unless the stream ends first.
 * Returns the bytes available, -1 on a read error. Inline: twice a record.
 */
static inline ssize_t win_fill(struct perfdata *pd, size_t need, struct ap_err *err)
{
	size_t avail = pd->win.len - pd->win.pos;

	return avail >= need ? (ssize_t)avail : win_fill_slow(pd, need, err);
}

/*
 * The next mapping: from the page that holds the next unread byte,
 * PD_MAP_SIZE bytes (more than a page and the largest record) or up to
 * where the records end. The bytes available, or -1 on an error. A file
 * that cannot be mapped (a file system without mmap) is read instead.
 */
static ssize_t win_map(struct perfdata *pd, size_t need, struct ap_err *err)
{
	struct pd_window *w = &pd->win;
	uint64_t at = w->off + w->pos, last = pd__min(w->limit, pd->layout.file_size), base, end;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	void *m;

	win_unmap(w);
	w->off = at;
	w->pos = w->len = 0;
	if (at >= last) {
		w->eof = 1;
		return 0;
	}
	base = at - at % page;
	end = pd__min(last, base + PD_MAP_SIZE);
	m = mmap(NULL, (size_t)(end - base), PROT_READ, MAP_SHARED, pd->fd, (off_t)base);
	if (m == MAP_FAILED) {
		if (win_buffer(pd, err))
			return -1;
		if (lseek(pd->fd, (off_t)at, SEEK_SET) == (off_t)-1)
			return ap_errk(err, AP_ERR_IO, "%s: seek: %s", pd->path, strerror(errno));
		return win_fill(pd, need, err);
	}
	w->buf = m;
	w->off = base;
	w->pos = (size_t)(at - base);
	w->len = (size_t)(end - base);
	w->eof = end == last;
	return (ssize_t)(w->len - w->pos);
}

/* win_fill() when the window holds fewer than need bytes: the next mapping, or a read(). */
static ssize_t win_fill_slow(struct perfdata *pd, size_t need, struct ap_err *err)
{
	struct pd_window *w = &pd->win;
	size_t avail = w->len - w->pos;

	if (avail >= need || w->eof)
		return (ssize_t)avail;
	if (w->mapped)
		return win_map(pd, need, err);
	if (w->pos) {
		memmove(w->buf, w->buf + w->pos, avail);
		w->off += w->pos;
		w->pos = 0;
		w->len = avail;
	}
	while (w->len < need && !w->eof) {
		uint64_t end = w->off + w->len;
		size_t want = w->cap - w->len;
		ssize_t r;

		if (w->limit != UINT64_MAX)
			want = (size_t)pd__min(want, w->limit > end ? w->limit - end : 0);
		if (!want) {
			w->eof = 1;
			break;
		}
		r = read(pd->fd, w->buf + w->len, want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ap_errk(err, AP_ERR_IO, "%s: read error at offset %llu: %s", pd->path,
				       (unsigned long long)end, strerror(errno));
		if (r == 0)
			w->eof = 1;
		w->len += (size_t)r;
	}
	return (ssize_t)(w->len - w->pos);
}

/* Drop the payload after AUXTRACE / TRACING_DATA records (a pipe's tracing data is kept). */
static int win_skip(struct perfdata *pd, struct ap_err *err)
{
	struct pd_window *w = &pd->win;

	while (pd->skip) {
		ssize_t avail = win_fill(pd, 1, err);
		size_t n;

		if (avail < 0)
			return -1;
		if (!avail)
			break;
		n = (size_t)pd__min(pd->skip, (uint64_t)avail);
		if (pd->collecting) {
			memcpy(pd->tracing + pd->tracing_got, w->buf + w->pos, n);
			pd->tracing_got += n;
		}
		w->pos += n;
		pd->skip -= n;
		pd->consumed += n;
	}
	if (!pd->skip)
		pd->collecting = 0;
	return 0;
}

/*
 * Next raw record from the stream: 1 with *out and *off set, 0 at the end
 * (complete or not), -1 on a read error.
 */
static int raw_next(struct perfdata *pd, const char **out,
		    uint64_t *off, struct ap_err *err)
{
	struct pd_window *w = &pd->win;
	struct perf_event_header h;
	ssize_t avail;

	if (pd->stopped || win_skip(pd, err))
		return pd->stopped ? 0 : -1;
	if (pd->skip) {
		pd->partial = 1;	/* payload cut short */
		return 0;
	}
	avail = win_fill(pd, sizeof(h), err);
	if (avail < 0)
		return -1;
	if ((size_t)avail < sizeof(h)) {
		pd->partial = (uint64_t)avail;
		return 0;
	}
	memcpy(&h, w->buf + w->pos, sizeof(h));
	if (h.size < sizeof(h)) {
		/* Nothing after a bad size can be trusted: stop here. */
		pd->stopped = 1;
		pd->partial = (uint64_t)avail;
		return 0;
	}
	avail = win_fill(pd, h.size, err);
	if (avail < 0)
		return -1;
	if ((size_t)avail < h.size) {
		pd->partial = (uint64_t)avail;
		return 0;
	}
	*out = w->buf + w->pos;
	*off = w->off + w->pos;
	w->pos += h.size;
	pd->consumed += h.size;
	return 1;
}

/* --- header ------------------------------------------------------------- */

static int check_magic(const struct perfdata *pd, const char *buf, ssize_t n,
		       struct ap_err *err)
{
	uint64_t magic;

	if (n == 0)
		return ap_errf(err, "%s: empty file, not a perf.data file", pd->path);
	if (n < 8)
		return ap_errf(err, "%s: not a perf.data file (too short)", pd->path);
	if (!memcmp(buf, PD_MAGIC1, 8))
		return ap_errf(err, "%s: perf.data version 1 (PERFFILE) is too old, not supported",
			       pd->path);
	memcpy(&magic, buf, sizeof(magic));
	if (magic == PD_MAGIC2_SWAPPED)
		return ap_errf(err, "%s: perf.data from an opposite-endian machine is not supported",
			       pd->path);
	/* the two files a command takes, given the other way round */
	if (!memcmp(buf, "\0aot", 4))
		return ap_errf(err, "%s: a .cwasm, not a perf.data file (swapped -i and --cwasm?)",
			       pd->path);
	if (magic != PD_MAGIC2)
		return ap_errf(err, "%s: not a perf.data file (bad magic)", pd->path);
	if (n < PD_PIPE_HEADER_SIZE)
		return ap_errf(err, "%s: perf.data header cut short", pd->path);
	return 0;
}

static int read_attr_entry(struct perfdata *pd, const struct pd_file_header *fh,
			   size_t i, char *buf, struct ap_err *err)
{
	uint64_t esz = fh->attr_size, asz = esz - sizeof(struct pd_file_section);
	struct pd_file_section ids;
	uint64_t *idv = NULL;
	size_t nids;
	int idx;

	if (pread_full(pd->fd, buf, esz, fh->attrs.offset + i * esz) != (ssize_t)esz)
		return ap_errf(err, "%s: cannot read attr %zu", pd->path, i);
	memcpy(&ids, buf + asz, sizeof(ids));
	if (!in_file(pd, ids.offset, ids.size))
		return ap_errf(err, "%s: ids of attr %zu past end of file", pd->path, i);
	nids = ids.size / sizeof(uint64_t);
	if (nids > UINT32_MAX)
		return ap_errf(err, "%s: attr %zu has too many ids", pd->path, i);
	if (nids) {
		idv = malloc(nids * sizeof(*idv));
		if (!idv)
			return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory for %zu ids", pd->path, nids);
		if (pread_full(pd->fd, idv, nids * sizeof(*idv), ids.offset) !=
		    (ssize_t)(nids * sizeof(*idv))) {
			free(idv);
			return ap_errf(err, "%s: cannot read ids of attr %zu", pd->path, i);
		}
	}
	idx = pd__add_attr(pd, buf, asz, idv, nids);
	free(idv);
	if (idx < 0)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory for attrs", pd->path);
	return 0;
}

static int read_attrs(struct perfdata *pd, const struct pd_file_header *fh,
		      struct ap_err *err)
{
	char *buf;
	uint64_t n, i;

	if (fh->attr_size == 0)
		return ap_errf(err, "%s: attr size is 0 (was perf record killed early?)", pd->path);
	if (fh->attr_size < PERF_ATTR_SIZE_VER0 + sizeof(struct pd_file_section) ||
	    fh->attr_size > PD_MAX_ATTR_ENTRY)
		return ap_errf(err, "%s: unsupported attr size %llu", pd->path,
			       (unsigned long long)fh->attr_size);
	if (!in_file(pd, fh->attrs.offset, fh->attrs.size))
		return ap_errf(err, "%s: attrs section past end of file", pd->path);
	n = fh->attrs.size / fh->attr_size;
	if (!n)
		return ap_errf(err, "%s: no event attributes in the header", pd->path);
	if (n > PD_MAX_ATTRS)
		return ap_errf(err, "%s: too many event attributes (%llu)", pd->path,
			       (unsigned long long)n);
	buf = malloc(fh->attr_size);
	if (!buf)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", pd->path);
	for (i = 0; i < n; i++) {
		if (read_attr_entry(pd, fh, (size_t)i, buf, err)) {
			free(buf);
			return -1;
		}
	}
	free(buf);
	return 0;
}

/* Read feature `bit`'s section into a fresh buffer; NULL if absent or bad. */
static char *read_feature(struct perfdata *pd, int bit, size_t *len)
{
	const uint64_t *f = pd->layout.features;
	struct pd_file_section sec;
	uint64_t idx = 0;
	char *buf;
	int b;

	if (pd->pipe) {
		/* of a pipe, only the machine is kept (HEADER_FEATURE records) */
		if (bit != PD_FEAT_ARCH || !pd->arch || !(buf = malloc(pd->arch_len)))
			return NULL;
		memcpy(buf, pd->arch, pd->arch_len);
		*len = pd->arch_len;
		return buf;
	}
	if (!(f[bit / 64] & (1ULL << (bit % 64))))
		return NULL;
	/* One table entry per set bit, in bit order. */
	for (b = 0; b < bit; b++)
		idx += !!(f[b / 64] & (1ULL << (b % 64)));
	if (!in_file(pd, pd->layout.feat_offset + idx * sizeof(sec), sizeof(sec)) ||
	    pread_full(pd->fd, &sec, sizeof(sec), pd->layout.feat_offset + idx * sizeof(sec)) !=
	    (ssize_t)sizeof(sec))
		return NULL;
	if (!in_file(pd, sec.offset, sec.size) || sec.size > PD_MAX_FEATURE)
		return NULL;
	buf = malloc(sec.size ? sec.size : 1);
	if (!buf)
		return NULL;
	if (pread_full(pd->fd, buf, sec.size, sec.offset) != (ssize_t)sec.size) {
		free(buf);
		return NULL;
	}
	*len = sec.size;
	return buf;
}

char *pd__feature(struct perfdata *pd, int bit, size_t *len)
{
	if (pd->pipe || pd->unfinished)
		return NULL;
	return read_feature(pd, bit, len);
}

int perfdata__feature_string(struct perfdata *pd, int bit, char *out, size_t n)
{
	size_t len = 0;
	uint32_t slen;
	char *buf = pd->unfinished || !n ? NULL : read_feature(pd, bit, &len);

	/* perf's string: u32 length (NUL padding included), then the bytes */
	if (!buf || len < sizeof(slen)) {
		free(buf);
		return -1;
	}
	memcpy(&slen, buf, sizeof(slen));
	if (slen > len - sizeof(slen))
		slen = (uint32_t)(len - sizeof(slen));
	snprintf(out, n, "%.*s", (int)strnlen(buf + sizeof(slen), slen), buf + sizeof(slen));
	free(buf);
	return 0;
}

#define PD_FEAT_SAMPLE_TIME 21

int perfdata__sample_time(struct perfdata *pd, uint64_t *first, uint64_t *last)
{
	size_t len = 0;
	char *buf = pd__feature(pd, PD_FEAT_SAMPLE_TIME, &len);
	uint64_t v[2];

	if (!buf || len < sizeof(v)) {
		free(buf);
		return -1;
	}
	memcpy(v, buf, sizeof(v));
	free(buf);
	*first = v[0];
	*last = v[1];
	return 0;
}

/* HEADER_COMPRESSED: u32 version, type, level, ratio, mmap_len. */
static void parse_comp(struct perfdata *pd, const char *buf, size_t len)
{
	uint32_t v[5];

	if (len < sizeof(v))
		return;
	memcpy(v, buf, sizeof(v));
	pd->has_comp = 1;
	pd->comp_type = v[1];
	pd->comp_level = v[2];
	pd->comp_mmap_len = v[4];
}

/* Features are optional to us: a missing or damaged table just means no names. */
static int read_features(struct perfdata *pd, struct ap_err *err)
{
	size_t len = 0;
	char *buf;

	/* With data.size 0 the table was never written; data sits there. */
	if (pd->unfinished)
		return 0;
	buf = read_feature(pd, PD_FEAT_EVENT_DESC, &len);
	if (buf) {
		int r = pd__event_desc(pd, buf, len);

		free(buf);
		if (r)
			return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory for event names", pd->path);
	}
	buf = read_feature(pd, PD_FEAT_COMPRESSED, &len);
	if (buf) {
		parse_comp(pd, buf, len);
		free(buf);
	}
	return 0;
}

static int open_file_mode(struct perfdata *pd, const char *hbuf, ssize_t n,
			  struct ap_err *err)
{
	struct pd_file_header fh = { 0 };
	struct pd_layout *l = &pd->layout;
	uint64_t hsize;

	if (!pd->seekable)
		return ap_errf(err, "%s: a file-mode perf.data must be seekable (use 'perf record -o -' for pipes)",
			       pd->path);
	memcpy(&fh, hbuf, (size_t)n < sizeof(fh) ? (size_t)n : sizeof(fh));
	hsize = fh.size;
	if (hsize != sizeof(fh) && hsize != PD_OLD_HEADER_SIZE)
		return ap_errf(err, "%s: unsupported perf.data header size %llu", pd->path,
			       (unsigned long long)hsize);
	if ((uint64_t)n < hsize)
		return ap_errf(err, "%s: perf.data header cut short", pd->path);
	if (hsize == PD_OLD_HEADER_SIZE)
		memset(fh.adds_features, 0, sizeof(fh.adds_features));
	if (fh.data.offset + fh.data.size < fh.data.offset)
		return ap_errf(err, "%s: bad data section", pd->path);

	l->attrs_offset = fh.attrs.offset;
	l->attrs_size = fh.attrs.size;
	l->attr_entry_size = fh.attr_size;
	l->data_offset = fh.data.offset;
	l->data_size = fh.data.size;
	l->feat_offset = fh.data.offset + fh.data.size;
	memcpy(l->features, fh.adds_features, sizeof(l->features));

	if (read_attrs(pd, &fh, err))
		return -1;
	pd->nheader_attrs = pd->nattrs;
	pd->start = fh.data.offset;
	if (fh.data.size) {
		pd->expected = fh.data.size;
	} else {
		/* perf died before fixing up the header: read up to EOF. */
		pd->unfinished = 1;
		pd->expected = l->file_size > fh.data.offset ? l->file_size - fh.data.offset : 0;
	}
	return read_features(pd, err);
}

static int open_stream(struct perfdata *pd, struct ap_err *err)
{
	char hbuf[sizeof(struct pd_file_header)];
	ssize_t n;

	if (pd->seekable)
		n = pread_full(pd->fd, hbuf, sizeof(hbuf), 0);
	else
		n = read_full(pd->fd, hbuf, PD_PIPE_HEADER_SIZE);
	uint64_t hsize;

	if (n < 0)
		return ap_errk(err, AP_ERR_IO, "%s: %s", pd->path, strerror(errno));
	if (check_magic(pd, hbuf, n, err))
		return -1;
	memcpy(&hsize, hbuf + 8, sizeof(hsize));
	if (hsize == PD_PIPE_HEADER_SIZE) {
		/* Pipe mode: attrs and names arrive as records. */
		pd->pipe = 1;
		pd->start = PD_PIPE_HEADER_SIZE;
		pd->layout.data_offset = PD_PIPE_HEADER_SIZE;
		return 0;
	}
	return open_file_mode(pd, hbuf, n, err);
}

static int stream_start(struct perfdata *pd, struct ap_err *err)
{
	uint64_t limit = UINT64_MAX;

	if (!pd->pipe && !pd->unfinished)
		limit = pd->layout.data_offset + pd->layout.data_size;
	if (pd->seekable && lseek(pd->fd, (off_t)pd->start, SEEK_SET) == (off_t)-1)
		return ap_errk(err, AP_ERR_IO, "%s: seek: %s", pd->path, strerror(errno));
	win_reset(&pd->win, pd->start, limit);
	pd__decomp_reset(&pd->dec);
	pd->seq = pd->consumed = pd->skip = pd->partial = pd->malformed = 0;
	pd->collecting = 0;
	pd->nrec = 0;
	pd->stopped = pd->ended = 0;
	pd->cleared = NULL;
	return 0;
}

/*
 * A pipe-mode stream in a file: read its leading records up to the first
 * sample now, so that its attrs and event names are known right after open
 * as in file mode (perf writes them all before the first sample), then
 * start over. Those attrs are kept on rewind like a file header's.
 */
static int learn_pipe_header(struct perfdata *pd, struct ap_err *err)
{
	struct pd_event ev;
	int r;

	if (!pd->pipe || !pd->seekable)
		return 0;
	while ((r = perfdata__next(pd, &ev, err)) > 0) {
		if (ev.hdr->type == PERF_RECORD_SAMPLE)
			break;
	}
	if (r < 0)
		return -1;
	/* The sample that stopped us (or the end) is not learnt from. */
	pd->learned = r > 0 ? pd->nrec - 1 : pd->nrec;
	pd->nheader_attrs = pd->nattrs;
	return stream_start(pd, err);
}

int perfdata__open(const char *path, unsigned flags, struct perfdata **out,
		   struct ap_err *err)
{
	struct perfdata *pd;
	struct ap_file f;
	struct stat st;

	*out = NULL;
	pd = calloc(1, sizeof(*pd));
	if (!pd)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", path);
	pd->flags = flags;
	pd->id_pos = -1;
	pd->path = strdup(path);
	pd->scratch = malloc(PD_MAX_RECORD + 1);
	if (!pd->path || !pd->scratch) {
		perfdata__close(pd);
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", path);
	}
	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		perfdata__close(pd);
		return ap_errf(err, "%s: is a directory (perf record --threads output is not supported)",
			       path);
	}
	/* util/file.h: a regular file, or "-": the one stream (a pipe-mode recording) */
	if (ap_file__open(&f, path, strcmp(path, "-") ? 0 : AP_FILE_STREAM, err)) {
		perfdata__close(pd);
		return -1;
	}
	pd->fd = f.fd;
	pd->own_fd = f.own_fd;
	if (!f.stream) {
		pd->seekable = 1;
		pd->layout.file_size = f.size;
	}
	if (open_stream(pd, err) || win_alloc(pd, err) || stream_start(pd, err) ||
	    learn_pipe_header(pd, err)) {
		perfdata__close(pd);
		return -1;
	}
	*out = pd;
	return 0;
}

void perfdata__close(struct perfdata *pd)
{
	if (!pd)
		return;
	if (pd->own_fd)
		close(pd->fd);
	pd__free_attrs(pd);
	pd_decomp__exit(&pd->dec);
	win_unmap(&pd->win);
	free(pd->win.buf);
	free(pd->scratch);
	free(pd->swbuf);
	free(pd->tracing);
	free(pd->arch);
	free(pd->path);
	free(pd);
}

/* --- records ------------------------------------------------------------ */

/*
 * A pipe's tracing data: perf writes the section's bytes right after the
 * record, padded to 8 (its size counts them); collected as win_skip()
 * passes them. A size past what a file's section may hold is not kept:
 * perfdata__tracing() says so.
 */
static int keep_tracing(struct perfdata *pd, uint64_t size)
{
	pd->has_tracing = 1;
	pd->tracing_size = size;
	if (size > PD_MAX_FEATURE)
		return 0;
	pd->tracing = malloc(size ? size : 1);
	if (!pd->tracing)
		return -1;
	pd->collecting = size != 0;
	return 0;
}

static int keep_arch(struct perfdata *pd, const char *data, size_t len)
{
	pd->arch = malloc(len ? len : 1);
	if (!pd->arch)
		return -1;
	memcpy(pd->arch, data, len);
	pd->arch_len = len;
	return 0;
}

/* Records perf synthesizes that carry attrs, names or trailing payload. */
static int user_record(struct perfdata *pd, const union perf_event *e,
		       int in_compressed, int learn, struct ap_err *err)
{
	const struct perf_event_header *h = &e->header;
	int r = 0;

	/* Sizes were checked by pd__check_record(). */
	switch (h->type) {
	case PERF_RECORD_HEADER_ATTR:
		if (pd->pipe && learn) {
			size_t asz = e->attr.attr.size ? e->attr.attr.size : PERF_ATTR_SIZE_VER0;
			size_t room = h->size - sizeof(*h);

			if (pd__add_attr(pd, &e->attr.attr, asz,
					 (const uint64_t *)((const char *)&e->attr.attr + asz),
					 (room - asz) / sizeof(uint64_t)) < 0)
				r = -1;
		}
		break;
	case PERF_RECORD_EVENT_UPDATE:
		if (learn)
			r = pd__event_update(pd, e);
		break;
	case PERF_RECORD_HEADER_FEATURE:
		if (!learn)
			break;
		if (e->feat.feat_id == PD_FEAT_EVENT_DESC)
			r = pd__event_desc(pd, e->feat.data, h->size - sizeof(e->feat));
		else if (e->feat.feat_id == PD_FEAT_COMPRESSED)
			parse_comp(pd, e->feat.data, h->size - sizeof(e->feat));
		else if (e->feat.feat_id == PD_FEAT_ARCH && pd->pipe && !pd->arch)
			r = keep_arch(pd, e->feat.data, h->size - sizeof(e->feat));
		break;
	case PERF_RECORD_AUXTRACE:
		if (!in_compressed)
			pd->skip = e->auxtrace.size;
		break;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (in_compressed)
			break;
		pd->skip = e->tracing_data.size;
		if (pd->pipe && learn && !pd->has_tracing)
			r = keep_tracing(pd, e->tracing_data.size);
		break;
	default:
		break;
	}
	if (r)
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", pd->path);
	return 0;
}

/* Fill ev from a record; 0 when it is malformed and skipped. */
static int deliver(struct perfdata *pd, const char *rec, size_t size,
		   uint64_t off, int in_compressed, struct pd_event *ev,
		   struct ap_err *err)
{
	const struct perf_event_header *h;
	/* What open already learnt from this record is not learnt twice. */
	int learn = pd->nrec++ >= pd->learned;

	/* Pipe streams and hostile sizes leave records at odd addresses. */
	if ((uintptr_t)rec & 7) {
		memcpy(pd->scratch, rec, size);
		rec = pd->scratch;
	}
	h = (const struct perf_event_header *)rec;
	/*
	 * Field by field, not one memset of the whole event: that one is a
	 * `rep stos` costing more than parsing a switch record. A sample's
	 * part is cleared by its parser, or here (not again while the same
	 * event has held no sample since: callers only read it).
	 */
	ev->hdr = h;
	ev->ev = (const union perf_event *)h;
	ev->seq = 0;
	ev->file_offset = off;
	ev->in_compressed = in_compressed;
	memset(&ev->sid, 0, sizeof(ev->sid));
	ev->has_sid = 0;
	ev->sid_off = h->size;
	ev->sid_len = 0;
	if (h->type != PERF_RECORD_SAMPLE && pd->cleared != ev) {
		memset(&ev->sample, 0, sizeof(ev->sample));
		pd->cleared = ev;
	}
	if (h->type == PERF_RECORD_SAMPLE) {
		pd->cleared = NULL;
		if (pd__parse_sample(pd, h, &ev->sample)) {
			pd->malformed++;
			return 0;
		}
	} else {
		int r = pd__check_record(pd, h, in_compressed, ev, err);

		if (r < 0)
			return -1;
		if (!r) {
			pd->malformed++;
			return 0;
		}
		if (h->type >= PERF_RECORD_USER_TYPE_START &&
		    user_record(pd, ev->ev, in_compressed, learn, err))
			return -1;
	}
	ev->seq = pd->seq++;
	return 1;
}

/* The switches gathered so far to the consumer. */
static void switch_flush(struct perfdata *pd)
{
	if (pd->nsw)
		pd->switch_fn(pd->switch_ctx, pd->swbuf, pd->nsw);
	pd->nsw = 0;
}

/* One switch record gathered for the consumer: 1, or 0 when it is not one for it. */
static inline int switch_lane(struct perfdata *pd, const char *rec)
{
	const struct perf_event_header *h = (const struct perf_event_header *)(const void *)rec;
	struct pd_switch *sw;

	if (pd->switch_drop) {
		/* nobody reads them in this pass: not even their trailer */
		pd->nrec++;
		pd->seq++;
		pd->switched++;
		return 1;
	}
	sw = &pd->swbuf[pd->nsw];
	if ((uintptr_t)rec & 7 || !pd__switch_record(pd, h, &sw->sid))
		return 0;
	sw->misc = h->misc;
	pd->nrec++;
	pd->seq++;
	pd->switched++;
	if (++pd->nsw == PD_SWITCH_BATCH)
		switch_flush(pd);
	return 1;
}

/*
 * The switch records one after the other in the window, to the switch
 * consumer without a round through perfdata__next() each (most records
 * of a recording of switches): up to the first other record, or one
 * that needs the window to move. Handed out before that record is.
 */
static void switch_run(struct perfdata *pd)
{
	struct pd_window *w = &pd->win;

	while (w->len - w->pos >= sizeof(struct perf_event_header)) {
		const char *rec = w->buf + w->pos;
		struct perf_event_header h;

		/* the lines a few records on, across a page end too (the hardware stops there) */
		__builtin_prefetch(rec + 1024);
		memcpy(&h, rec, sizeof(h));
		if ((h.type != PERF_RECORD_SWITCH && h.type != PERF_RECORD_SWITCH_CPU_WIDE) ||
		    h.size < sizeof(h) || h.size > w->len - w->pos || !switch_lane(pd, rec))
			break;
		w->pos += h.size;
		pd->consumed += h.size;
	}
	switch_flush(pd);
}

void perfdata__set_switch_fn(struct perfdata *pd, pd_switch_fn fn, void *ctx)
{
	if (fn && !pd->swbuf) {
		pd->swbuf = malloc(PD_SWITCH_BATCH * sizeof(*pd->swbuf));
		if (!pd->swbuf)
			fn = NULL;	/* no room: the switches come out of perfdata__next() */
	}
	pd->nsw = 0;
	pd->switch_fn = fn;
	pd->switch_ctx = ctx;
	pd->switch_drop = 0;
}

void perfdata__drop_switches(struct perfdata *pd, int yes)
{
	pd->switch_drop = yes && pd->switch_fn;
}

uint64_t perfdata__switched(const struct perfdata *pd)
{
	return pd->switched;
}

static void stream_end(struct perfdata *pd)
{
	pd->ended = 1;
	/* A record cut in half inside the decompressed data counts too. */
	if (pd->dec.len > pd->dec.pos)
		pd->partial += pd->dec.len - pd->dec.pos;
}

int perfdata__next(struct perfdata *pd, struct pd_event *ev, struct ap_err *err)
{
	struct perf_event_header h;
	const char *rec;
	uint64_t off;
	int r;

	for (;;) {
		int inc = 1;

		if (pd->ended)
			return 0;
		if (pd->switch_fn && !pd->dec.active && pd->dec.len == pd->dec.pos && !pd->skip &&
		    !pd->stopped)
			switch_run(pd);
		/* records from a COMPRESSED one first, when one is being read */
		r = pd->dec.active || pd->dec.len > pd->dec.pos ? pd__decomp_next(pd, &rec, err) : 0;
		if (r < 0)
			return -1;
		if (r) {
			off = pd->dec.rec_off;
		} else {
			r = raw_next(pd, &rec, &off, err);
			if (r < 0)
				return -1;
			if (!r) {
				stream_end(pd);
				return 0;
			}
			inc = 0;
		}
		memcpy(&h, rec, sizeof(h));
		if (!inc && h.type == PERF_RECORD_COMPRESSED &&
		    !(pd->flags & PD_OPEN_RAW_COMPRESSED)) {
			if (pd__decomp_feed(pd, rec, h.size, off, err))
				return -1;
			continue;
		}
		if (pd->switch_fn && (h.type == PERF_RECORD_SWITCH ||
				      h.type == PERF_RECORD_SWITCH_CPU_WIDE) && switch_lane(pd, rec)) {
			switch_flush(pd);
			continue;
		}
		r = deliver(pd, rec, h.size, off, inc, ev, err);
		if (r)
			return r;
	}
}

int perfdata__rewind(struct perfdata *pd, struct ap_err *err)
{
	if (!pd->seekable)
		return ap_errf(err, "%s: cannot rewind a pipe", pd->path);
	/* Pipe-mode attrs are learned from the stream again. */
	pd__drop_attrs(pd, pd->nheader_attrs);
	return stream_start(pd, err);
}

int perfdata__pread(struct perfdata *pd, void *buf, size_t n, uint64_t off, struct ap_err *err)
{
	ssize_t r;

	if (!pd->seekable)
		return ap_errf(err, "%s: a stream cannot be read again", pd->path);
	if (!in_file(pd, off, n))
		return ap_errf(err, "%s: %zu bytes at offset %llu: past the end of the file", pd->path,
			       n, (unsigned long long)off);
	r = pread_full(pd->fd, buf, n, off);
	if (r < 0)
		return ap_errk(err, AP_ERR_IO, "%s: read error at offset %llu: %s", pd->path,
			       (unsigned long long)off, strerror(errno));
	if ((size_t)r != n)
		return ap_errf(err, "%s: cut short at offset %llu", pd->path, (unsigned long long)off);
	return 0;
}

int perfdata__seekable(const struct perfdata *pd)
{
	return pd->seekable;
}

int perfdata__is_pipe(const struct perfdata *pd)
{
	return pd->pipe;
}

size_t perfdata__nevsels(const struct perfdata *pd)
{
	return pd->nattrs;
}

const struct pd_evsel *perfdata__evsel(const struct perfdata *pd, size_t idx)
{
	return idx < pd->nattrs ? &pd->attrs[idx] : NULL;
}

/*
 * File mode: truncated when the data section ended before data.size bytes,
 * or when data.size is 0 (perf did not finish) and records follow. Pipe
 * mode: when the stream ended inside a record. expected is data.size, the
 * bytes after data.offset for unfinished files, or what the pipe delivered.
 * Meaningful once perfdata__next() returned 0.
 */
int perfdata__truncated(const struct perfdata *pd, uint64_t *read, uint64_t *expected)
{
	uint64_t exp = pd->expected;
	int t;

	if (pd->pipe)
		exp = pd->consumed + pd->partial;
	t = pd->partial || pd->stopped || pd->consumed < exp ||
	    (pd->unfinished && pd->expected);
	if (read)
		*read = pd->consumed;
	if (expected)
		*expected = exp;
	return t;
}

/*
 * Pipe mode: data_offset = 16 (right after the pipe header), data_size = 0
 * (unknown), no attrs section or feature table, file_size when it is a file.
 */
int perfdata__layout(const struct perfdata *pd, struct pd_layout *out)
{
	*out = pd->layout;
	return 0;
}

uint64_t perfdata__malformed(const struct perfdata *pd)
{
	return pd->malformed;
}
