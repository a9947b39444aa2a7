// SPDX-License-Identifier: MIT
/*
 * The pprof builder: interning of strings, functions, locations and stacks,
 * argument checks, gzip on disk, and the message decoded by an independent
 * decoder, `protoc --decode` (protobuf-compiler) with render/pprof.proto:
 * samples add up, stacks are leaf first, names follow docs/pprof.md.
 * (`go tool pprof` is not available on these machines.)
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../../render/pprof.h"

#ifndef PPROF_PROTO
#define PPROF_PROTO "render/pprof.proto"
#endif

static char dir[4096];

/* The decoded message, reduced to what the checks need. */
#define MAXN 64
struct decoded {
	int nsamples;
	uint64_t sample_loc[MAXN][8];
	int sample_nloc[MAXN];
	long long sample_val[MAXN][2];
	int nlocs;
	uint64_t loc_id[MAXN], loc_fn[MAXN], loc_addr[MAXN], loc_map[MAXN];
	long long loc_line[MAXN];
	int nfuncs;
	uint64_t fn_id[MAXN];
	long long fn_name[MAXN], fn_sys[MAXN], fn_file[MAXN];
	int nstrings;
	char strings[MAXN][256];
	int nmaps;
	long long period, period_type, comment, default_type;
	int nsample_types;
};

static const char *str_at(const struct decoded *d, long long i)
{
	return i >= 0 && i < d->nstrings ? d->strings[i] : "(bad index)";
}

static int decode(const char *gz, struct decoded *d)
{
	char cmd[9000], line[512], blk[64] = "";
	int depth = 0;
	FILE *p;

	memset(d, 0, sizeof(*d));
	snprintf(cmd, sizeof(cmd),
		 "gzip -dc '%s' | protoc --decode=perftools.profiles.Profile --proto_path=\"$(dirname '%s')\" '%s'",
		 gz, PPROF_PROTO, PPROF_PROTO);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		char key[64];
		char sval[256];
		unsigned long long v = 0;
		long long sv = 0;
		int n;

		if (sscanf(line, " %63[a-z_] {", key) == 1 && strchr(line, '{')) {
			if (depth++ == 0) {
				snprintf(blk, sizeof(blk), "%s", key);
				if (!strcmp(blk, "sample"))
					d->nsamples++;
				else if (!strcmp(blk, "location"))
					d->nlocs++;
				else if (!strcmp(blk, "function"))
					d->nfuncs++;
				else if (!strcmp(blk, "mapping"))
					d->nmaps++;
				else if (!strcmp(blk, "sample_type"))
					d->nsample_types++;
			}
			continue;
		}
		if (strchr(line, '}')) {
			if (--depth == 0)
				blk[0] = 0;
			continue;
		}
		if (depth == 0 && sscanf(line, "string_table: \"%255[^\"]\"", sval) == 1) {
			if (d->nstrings < MAXN)
				snprintf(d->strings[d->nstrings++], sizeof(d->strings[0]), "%s", sval);
			continue;
		}
		if (depth == 0 && !strncmp(line, "string_table: \"\"", 16)) {
			if (d->nstrings < MAXN)
				d->strings[d->nstrings++][0] = 0;
			continue;
		}
		if (sscanf(line, " %63[a-z_]: %lld", key, &sv) != 2)
			continue;
		v = (unsigned long long)sv;
		if (!strcmp(blk, "sample") && d->nsamples <= MAXN) {
			int s = d->nsamples - 1;

			if (!strcmp(key, "location_id") && (n = d->sample_nloc[s]) < 8) {
				d->sample_loc[s][n] = v;
				d->sample_nloc[s]++;
			} else if (!strcmp(key, "value")) {
				if (!d->sample_val[s][0] && !d->sample_val[s][1])
					d->sample_val[s][0] = sv;
				else
					d->sample_val[s][1] = sv;
			}
		} else if (!strcmp(blk, "location") && d->nlocs <= MAXN) {
			int l = d->nlocs - 1;

			if (!strcmp(key, "id")) d->loc_id[l] = v;
			else if (!strcmp(key, "function_id")) d->loc_fn[l] = v;
			else if (!strcmp(key, "address")) d->loc_addr[l] = v;
			else if (!strcmp(key, "mapping_id")) d->loc_map[l] = v;
			else if (!strcmp(key, "line")) d->loc_line[l] = sv;
		} else if (!strcmp(blk, "function") && d->nfuncs <= MAXN) {
			int f = d->nfuncs - 1;

			if (!strcmp(key, "id")) d->fn_id[f] = v;
			else if (!strcmp(key, "name")) d->fn_name[f] = sv;
			else if (!strcmp(key, "system_name")) d->fn_sys[f] = sv;
			else if (!strcmp(key, "filename")) d->fn_file[f] = sv;
		} else if (!strcmp(blk, "period_type") && !strcmp(key, "type")) {
			d->period_type = sv;
		} else if (!blk[0]) {
			if (!strcmp(key, "period")) d->period = sv;
			else if (!strcmp(key, "comment")) d->comment = sv;
			else if (!strcmp(key, "default_sample_type")) d->default_type = sv;
		}
	}
	return pclose(p) == 0 ? 0 : -1;
}

/* The function name of location id, through the decoded tables. */
static const char *loc_name(const struct decoded *d, uint64_t id)
{
	for (int l = 0; l < d->nlocs; l++)
		if (d->loc_id[l] == id)
			for (int f = 0; f < d->nfuncs; f++)
				if (d->fn_id[f] == d->loc_fn[l])
					return str_at(d, d->fn_name[f]);
	return "(none)";
}

static long long loc_line(const struct decoded *d, uint64_t id)
{
	for (int l = 0; l < d->nlocs; l++)
		if (d->loc_id[l] == id)
			return d->loc_line[l];
	return -1;
}

static void test_build_and_decode(void)
{
	struct ap_err err;
	struct pprof *p = pprof__new(&err);
	uint64_t map, w5, w7, w5b, host, kern, l5a, l5b, l7, lmain, lkern, lmain2;
	int64_t one[2] = { 1, 1000000 };
	char path[4200];
	struct decoded d;
	FILE *f;
	unsigned char magic[2] = { 0, 0 };

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(pprof__add_sample_type(p, "samples", "count", &err) == 0);
	CHECK(pprof__add_sample_type(p, "cpu", "nanoseconds", &err) == 0);
	CHECK(pprof__set_period(p, "cpu", "nanoseconds", 1000000, &err) == 0);
	CHECK(pprof__set_default_sample_type(p, "cpu", &err) == 0);
	CHECK(pprof__add_comment(p, "perf record -e cpu-clock", &err) == 0);
	pprof__set_time(p, 1700000000000000000ll, 2000000000ll);

	map = pprof__mapping(p, 0x10000, 0x20000, 0, "core.cwasm", NULL, &err);
	CHECK_EQ_U64(map, 1);
	w5 = pprof__wasm_function(p, "core.cwasm", NULL, 5, "bounds_checked_mem", &err);
	w7 = pprof__wasm_function(p, "core.cwasm", NULL, 7, NULL, &err);
	w5b = pprof__wasm_function(p, "core.cwasm", NULL, 5, "bounds_checked_mem", &err);
	CHECK(w5 && w7 && w5 != w7);
	CHECK_EQ_U64(w5b, w5);	/* the same function once */
	host = pprof__function(p, "main", NULL, "/usr/bin/wamr", 0, &err);
	CHECK(host != 0);
	kern = pprof__function(p, "do_syscall_64", NULL, "[kernel.kallsyms]", 0, &err);
	l5a = pprof__wasm_location(p, map, w5, 0x10110, 0x10, &err);
	l5b = pprof__wasm_location(p, map, w5, 0x10120, 0x20, &err);
	l7 = pprof__wasm_location(p, map, w7, 0x10204, 0x4, &err);
	lmain = pprof__location(p, 0, 0x401000, host, 0, &err);
	lmain2 = pprof__location(p, 0, 0x401000, host, 0, &err);
	lkern = pprof__location(p, 0, 0xffffffff81000000ull, kern, 0, &err);
	CHECK(l5a && l5b && l7 && lmain && lkern);
	CHECK_EQ_U64(lmain2, lmain);	/* the same location once */
	CHECK_EQ_U64(pprof__nlocations(p), 5);

	/* 3 + 2 + 1 + 1 samples on 4 distinct stacks (one empty) */
	{
		uint64_t s1[] = { l5a, lmain }, s2[] = { l7, l5b, lmain }, s3[] = { lkern, l7, lmain };

		for (int i = 0; i < 3; i++)
			CHECK(pprof__sample(p, s1, 2, one, &err) == 0);
		for (int i = 0; i < 2; i++)
			CHECK(pprof__sample(p, s2, 3, one, &err) == 0);
		CHECK(pprof__sample(p, s3, 3, one, &err) == 0);
		CHECK(pprof__sample(p, NULL, 0, one, &err) == 0);
	}
	CHECK_EQ_U64(pprof__nsamples(p), 4);
	/* host frames as perf names them */
	CHECK(pprof__host_location(p, 0, 0x402000, NULL, NULL, &err) != 0);

	snprintf(path, sizeof(path), "%s/p.pb.gz", dir);
	CHECK(pprof__write(p, path, &err) == 0);
	f = fopen(path, "rb");
	CHECK(f && fread(magic, 1, 2, f) == 2);
	if (f)
		fclose(f);
	CHECK(magic[0] == 0x1f && magic[1] == 0x8b);

	if (system("command -v protoc >/dev/null 2>&1 && command -v gzip >/dev/null 2>&1") != 0) {
		printf("protoc not installed: the decode checks are skipped\n");
		pprof__delete(p);
		unlink(path);
		return;
	}
	CHECK(decode(path, &d) == 0);
	CHECK_EQ_U64(d.nsample_types, 2);
	CHECK_EQ_U64(d.nsamples, 4);
	CHECK_EQ_U64(d.nlocs, 6);
	CHECK_EQ_U64(d.nfuncs, 5);
	CHECK_EQ_U64(d.nmaps, 1);
	CHECK(d.nstrings > 0 && d.strings[0][0] == 0);
	CHECK_EQ_U64(d.period, 1000000);
	CHECK(!strcmp(str_at(&d, d.period_type), "cpu"));
	CHECK(!strcmp(str_at(&d, d.default_type), "cpu"));
	CHECK(!strcmp(str_at(&d, d.comment), "perf record -e cpu-clock"));
	{
		long long total = 0, ns = 0;

		for (int s = 0; s < d.nsamples; s++) {
			total += d.sample_val[s][0];
			ns += d.sample_val[s][1];
		}
		CHECK_EQ_U64(total, 7);
		CHECK_EQ_U64(ns, 7000000);
	}
	/* sample 0: leaf first, names and lines as docs/pprof.md */
	CHECK_EQ_U64(d.sample_nloc[0], 2);
	CHECK_EQ_U64(d.sample_val[0][0], 3);
	CHECK(!strcmp(loc_name(&d, d.sample_loc[0][0]), "local_func_5:bounds_checked_mem"));
	CHECK_EQ_U64(loc_line(&d, d.sample_loc[0][0]), 0x10);
	CHECK(!strcmp(loc_name(&d, d.sample_loc[0][1]), "main"));
	CHECK_EQ_U64(d.sample_nloc[1], 3);
	CHECK(!strcmp(loc_name(&d, d.sample_loc[1][0]), "local_func_7"));
	CHECK(!strcmp(loc_name(&d, d.sample_loc[1][1]), "local_func_5:bounds_checked_mem"));
	CHECK_EQ_U64(loc_line(&d, d.sample_loc[1][1]), 0x20);
	CHECK(!strcmp(loc_name(&d, d.sample_loc[2][0]), "do_syscall_64"));
	CHECK_EQ_U64(d.sample_nloc[3], 0);
	/* system name and file of a wasm function */
	for (int fi = 0; fi < d.nfuncs; fi++)
		if (!strcmp(str_at(&d, d.fn_name[fi]), "local_func_5:bounds_checked_mem")) {
			CHECK(!strcmp(str_at(&d, d.fn_sys[fi]), "local_func_5"));
			CHECK(!strcmp(str_at(&d, d.fn_file[fi]), "core.cwasm"));
		}
	/* the unnamed host frame */
	{
		int found = 0;

		for (int fi = 0; fi < d.nfuncs; fi++)
			found |= !strcmp(str_at(&d, d.fn_name[fi]), "[unknown]");
		CHECK(found);
	}
	pprof__delete(p);
	CHECK(unlink(path) == 0);
}

static void test_errors(void)
{
	struct ap_err err;
	struct pprof *p = pprof__new(&err);
	int64_t v[1] = { 1 };
	uint64_t fn, loc, bogus = 99;
	char path[4200];

	CHECK(pprof__sample(p, NULL, 0, v, &err) == -1);	/* no sample type yet */
	CHECK_STR_CONTAINS(err.msg, "before any sample type");
	CHECK(pprof__add_sample_type(p, "samples", "count", &err) == 0);
	CHECK(pprof__mapping(p, 0x2000, 0x1000, 0, "x", NULL, &err) == 0);
	CHECK_STR_CONTAINS(err.msg, "ends before it starts");
	CHECK(pprof__location(p, 0, 0x1000, 42, 0, &err) == 0);
	CHECK_STR_CONTAINS(err.msg, "unknown function");
	CHECK(pprof__location(p, 3, 0x1000, 0, 0, &err) == 0);
	CHECK_STR_CONTAINS(err.msg, "unknown mapping");
	CHECK(pprof__sample(p, &bogus, 1, v, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "unknown location");
	fn = pprof__function(p, "f", NULL, "x", 0, &err);
	loc = pprof__location(p, 0, 1, fn, 0, &err);
	CHECK(pprof__sample(p, &loc, 1, v, &err) == 0);
	CHECK(pprof__add_sample_type(p, "late", "count", &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "after the first sample");
	/* no folder: an error, no file */
	snprintf(path, sizeof(path), "%s/none/p.pb.gz", dir);
	CHECK(pprof__write(p, path, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "none/p.pb.gz");
	CHECK(access(path, F_OK) != 0);
	pprof__delete(p);
}

/* Many stacks: interning keeps the tables small and the values exact. */
static void test_many(void)
{
	struct ap_err err;
	struct pprof *p = pprof__new(&err);
	uint64_t fns[100], locs[100];
	uint8_t *buf = NULL;
	size_t len = 0;

	CHECK(pprof__add_sample_type(p, "samples", "count", &err) == 0);
	for (int i = 0; i < 100; i++) {
		fns[i] = pprof__wasm_function(p, "c.cwasm", "mod1", (uint32_t)i, NULL, &err);
		locs[i] = pprof__wasm_location(p, 0, fns[i], 0x1000 + (uint64_t)i * 16, 0, &err);
	}
	for (int r = 0; r < 200000; r++) {
		uint64_t st[3] = { locs[r % 100], locs[(r / 7) % 100], locs[(r / 49) % 100] };
		int64_t v[1] = { 1 + r % 3 };

		if (pprof__sample(p, st, 3, v, &err)) {
			CHECK(!"sample");
			break;
		}
	}
	CHECK(pprof__nsamples(p) <= 100 * 100 * 100);
	CHECK(pprof__nfunctions(p) == 100);
	CHECK(pprof__nstrings(p) < 220);
	CHECK(pprof__encode(p, &buf, &len, &err) == 0);
	CHECK(len > 0);
	free(buf);
	pprof__delete(p);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_pprof.XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	test_build_and_decode();
	test_errors();
	test_many();
	rmdir(dir);
	CHECK_DONE();
}
