// SPDX-License-Identifier: MIT
/*
 * The builder's tables as a protobuf-c Profile message (render/pprof.proto,
 * compiled at build time), then gzip (zlib) into a file.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "pprof.h"
#include "pprof_internal.h"
#include "pprof.pb-c.h"
#include "../util/outfile.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Mapping pb_mapping;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;

/* Every array the message points into, freed together. */
struct pb_arena {
	pb_value_type *vt, **vtp, period;
	pb_sample *s, **sp;
	pb_mapping *m, **mp;
	pb_location *l, **lp;
	pb_line *ln, **lnp;
	pb_function *f, **fp;
};

static void arena_exit(struct pb_arena *a)
{
	free(a->vt);
	free(a->vtp);
	free(a->s);
	free(a->sp);
	free(a->m);
	free(a->mp);
	free(a->l);
	free(a->lp);
	free(a->ln);
	free(a->lnp);
	free(a->f);
	free(a->fp);
}

/* calloc of n (at least one, so a NULL means out of memory) */
static void *alloc_n(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int build(struct pprof *p, pb_profile *pb, struct pb_arena *a)
{
	size_t nvt = p->sample_types.n, ns = p->samples.n, nm = p->mappings.n;
	size_t nl = p->locations.n, nf = p->functions.n;

	memset(a, 0, sizeof(*a));
	a->vt = alloc_n(nvt, sizeof(*a->vt));
	a->vtp = alloc_n(nvt, sizeof(*a->vtp));
	a->s = alloc_n(ns, sizeof(*a->s));
	a->sp = alloc_n(ns, sizeof(*a->sp));
	a->m = alloc_n(nm, sizeof(*a->m));
	a->mp = alloc_n(nm, sizeof(*a->mp));
	a->l = alloc_n(nl, sizeof(*a->l));
	a->lp = alloc_n(nl, sizeof(*a->lp));
	a->ln = alloc_n(nl, sizeof(*a->ln));
	a->lnp = alloc_n(nl, sizeof(*a->lnp));
	a->f = alloc_n(nf, sizeof(*a->f));
	a->fp = alloc_n(nf, sizeof(*a->fp));
	if (!a->vt || !a->vtp || !a->s || !a->sp || !a->m || !a->mp || !a->l || !a->lp ||
	    !a->ln || !a->lnp || !a->f || !a->fp)
		return -1;

	perftools__profiles__profile__init(pb);
	for (size_t i = 0; i < nvt; i++) {
		perftools__profiles__value_type__init(&a->vt[i]);
		a->vt[i].type = p->sample_types.v[i].type;
		a->vt[i].unit = p->sample_types.v[i].unit;
		a->vtp[i] = &a->vt[i];
	}
	pb->n_sample_type = nvt;
	pb->sample_type = a->vtp;

	for (size_t i = 0; i < ns; i++) {
		const struct pprof_sample *s = &p->samples.v[i];

		perftools__profiles__sample__init(&a->s[i]);
		a->s[i].n_location_id = s->nlocs;
		a->s[i].location_id = s->nlocs ? p->stacks.v + s->stack : NULL;
		a->s[i].n_value = nvt;
		a->s[i].value = p->values.v + s->values;
		a->sp[i] = &a->s[i];
	}
	pb->n_sample = ns;
	pb->sample = a->sp;

	for (size_t i = 0; i < nm; i++) {
		const struct pprof_mapping *m = &p->mappings.v[i];

		perftools__profiles__mapping__init(&a->m[i]);
		a->m[i].id = i + 1;
		a->m[i].memory_start = m->start;
		a->m[i].memory_limit = m->limit;
		a->m[i].file_offset = m->file_offset;
		a->m[i].filename = m->filename;
		a->m[i].build_id = m->build_id;
		a->m[i].has_functions = 1;
		a->mp[i] = &a->m[i];
	}
	pb->n_mapping = nm;
	pb->mapping = a->mp;

	for (size_t i = 0; i < nl; i++) {
		const struct pprof_location *l = &p->locations.v[i];

		perftools__profiles__location__init(&a->l[i]);
		a->l[i].id = i + 1;
		a->l[i].mapping_id = l->mapping_id;
		a->l[i].address = l->address;
		if (l->function_id) {
			perftools__profiles__line__init(&a->ln[i]);
			a->ln[i].function_id = l->function_id;
			a->ln[i].line = l->line;
			a->lnp[i] = &a->ln[i];
			a->l[i].n_line = 1;
			a->l[i].line = &a->lnp[i];
		}
		a->lp[i] = &a->l[i];
	}
	pb->n_location = nl;
	pb->location = a->lp;

	for (size_t i = 0; i < nf; i++) {
		const struct pprof_function *f = &p->functions.v[i];

		perftools__profiles__function__init(&a->f[i]);
		a->f[i].id = i + 1;
		a->f[i].name = f->name;
		a->f[i].system_name = f->system_name;
		a->f[i].filename = f->filename;
		a->f[i].start_line = f->start_line;
		a->fp[i] = &a->f[i];
	}
	pb->n_function = nf;
	pb->function = a->fp;

	pb->n_string_table = p->strings.n;
	pb->string_table = p->strings.v;
	pb->time_nanos = p->time_nanos;
	pb->duration_nanos = p->duration_nanos;
	if (p->period_type.type || p->period_type.unit) {
		perftools__profiles__value_type__init(&a->period);
		a->period.type = p->period_type.type;
		a->period.unit = p->period_type.unit;
		pb->period_type = &a->period;
	}
	pb->period = p->period;
	pb->n_comment = p->comments.n;
	pb->comment = p->comments.v;
	pb->default_sample_type = p->default_sample_type;
	return 0;
}

int pprof__encode(struct pprof *p, uint8_t **out, size_t *len, struct ap_err *err)
{
	struct pb_arena a;
	pb_profile pb;
	uint8_t *buf;
	size_t n;

	*out = NULL;
	*len = 0;
	if (build(p, &pb, &a)) {
		arena_exit(&a);
		return ap_err_nomem(err);
	}
	n = perftools__profiles__profile__get_packed_size(&pb);
	buf = malloc(n ? n : 1);
	if (!buf) {
		arena_exit(&a);
		return ap_err_nomem(err);
	}
	if (perftools__profiles__profile__pack(&pb, buf) != n) {
		free(buf);
		arena_exit(&a);
		return ap_errk(err, AP_ERR_IO, "pprof: encoder wrote an unexpected size");
	}
	arena_exit(&a);
	*out = buf;
	*len = n;
	return 0;
}

/* gzip buf[0..len) into f. */
static int gzip_to(FILE *f, const uint8_t *buf, size_t len, const char *name,
		   struct ap_err *err)
{
	unsigned char chunk[65536];
	z_stream zs;
	int rc;

	memset(&zs, 0, sizeof(zs));
	/* 15 + 16: the largest window, with a gzip header and trailer */
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return ap_err_nomem(err);
	zs.next_in = (unsigned char *)buf;
	zs.avail_in = (uInt)len;	/* profiles stay far below 4 GB */
	do {
		zs.next_out = chunk;
		zs.avail_out = sizeof(chunk);
		rc = deflate(&zs, Z_FINISH);
		if (rc == Z_STREAM_ERROR) {
			deflateEnd(&zs);
			return ap_errk(err, AP_ERR_IO, "%s: gzip failed", name);
		}
		if (fwrite(chunk, 1, sizeof(chunk) - zs.avail_out, f) != sizeof(chunk) - zs.avail_out) {
			deflateEnd(&zs);
			return ap_errk(err, AP_ERR_IO, "%s: write failed", name);
		}
	} while (rc != Z_STREAM_END);
	deflateEnd(&zs);
	return 0;
}

int pprof__fwrite(struct pprof *p, FILE *f, const char *name, struct ap_err *err)
{
	uint8_t *buf;
	size_t len;
	int rc;

	if (pprof__encode(p, &buf, &len, err))
		return -1;
	if (len > UINT32_MAX) {
		free(buf);
		return ap_errf(err, "%s: profile of %zu bytes is too large", name, len);
	}
	rc = gzip_to(f, buf, len, name, err);
	free(buf);
	return rc;
}

int pprof__write(struct pprof *p, const char *path, struct ap_err *err)
{
	struct outfile o;

	if (outfile__open(&o, path, err))
		return -1;
	if (pprof__fwrite(p, o.f, path, err)) {
		outfile__abort(&o);
		return -1;
	}
	return outfile__commit(&o, err);
}
