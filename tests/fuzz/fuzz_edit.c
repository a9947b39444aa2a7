// SPDX-License-Identifier: MIT
// fuzz-seeds: fuzz-rec/*.data
// fuzz-options: -max_len=200000
/*
 * Fuzz target: the copy-with-edits of a perf.data (perfdata/edit.c), as
 * aotperf inject makes it: one record inserted at the start of the data
 * section and one replacing nothing, and entries appended to the
 * HEADER_BUILD_ID feature section (added when missing). The input is a
 * scratch file. When the copy is written, its size must be the input's
 * plus what was added (and a table slot for a new feature), and its
 * build-id section must read back with perf's entry for the image.
 * Seeds: the short real recordings run.sh makes, and a hand-made file
 * with and without the feature.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata/edit.h"
#include "perfdata/perfdata.h"
#include "perfdata/internal.h"
#include "fuzz.h"

static long file_size(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long)st.st_size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t id[20] = { 0xaa, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
					11, 12, 13, 14, 15, 16, 17, 18, 0xbb };
	struct pd_file_header h;
	struct perf_event_header rec = { .type = PERF_RECORD_FINISHED_ROUND,
					 .size = sizeof(rec) };
	uint8_t entry[256];
	struct pd_feat_append app = { PD_FEAT_BUILD_ID, entry, 0 };
	struct pd_edit e;
	struct perfdata *pd;
	struct ap_err err = { 0 };
	const char *in = fuzz_file("in.data", data, size), *out;
	char outpath[4200];
	int had;
	long got;

	snprintf(outpath, sizeof(outpath), "%s/out.data", fuzz_dir());
	out = outpath;
	unlink(out);
	app.len = pd_build_id__entry(entry, sizeof(entry), id, sizeof(id), "/x/core0.aotperf.so");
	FUZZ_ASSERT(app.len == 36 + 64);
	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	had = (int)((h.adds_features[0] >> PD_FEAT_BUILD_ID) & 1);
	e = (struct pd_edit){ h.data.offset, 0, &rec, sizeof(rec) };
	if (perfdata__write_edited(in, 0, out, &e, 1, &app, &err)) {
		FUZZ_ASSERT(err.msg[0] && access(out, F_OK) != 0);
		return 0;
	}
	got = file_size(out);
	FUZZ_ASSERT(got == (long)(size + sizeof(rec) + app.len) +
			   (had ? 0 : (long)sizeof(struct pd_file_section)));
	/* the copy reads back, and the section ends with our entry */
	if (!perfdata__open(out, 0, &pd, &err)) {
		size_t len = 0;
		char *sec = pd__feature(pd, PD_FEAT_BUILD_ID, &len);

		if (sec) {
			FUZZ_ASSERT(len >= app.len && !memcmp(sec + len - app.len, entry, app.len));
			free(sec);
		}
		perfdata__close(pd);
	}
	unlink(out);
	return 0;
}

/* A header, one record of data, a feature table of `nfeat` slots. */
static void seed(const char *dir, const char *name, int with_bid)
{
	uint8_t buf[sizeof(struct pd_file_header) + 8 + 2 * 16 + 100 + 8];
	struct pd_file_header h = { .magic = PD_MAGIC2, .size = sizeof(h) };
	struct perf_event_header rec = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };
	struct pd_file_section secs[2];
	size_t at = sizeof(h), n = 0;
	uint8_t entry[128];
	size_t elen = pd_build_id__entry(entry, sizeof(entry), (const uint8_t *)"0123456789abcdefghij",
					 20, "[kernel.kallsyms]");

	h.data.offset = sizeof(h);
	h.data.size = sizeof(rec);
	h.adds_features[0] = (with_bid ? 1ull << PD_FEAT_BUILD_ID : 0) | 1ull << 3;
	memcpy(buf + at, &rec, sizeof(rec));
	at += sizeof(rec);
	n = with_bid ? 2 : 1;
	/* sections after the table: the build ids (kernel misc), then 8 bytes of feature 3 */
	secs[0] = (struct pd_file_section){ at + n * 16, with_bid ? elen : 8 };
	secs[1] = (struct pd_file_section){ at + n * 16 + elen, 8 };
	memcpy(buf + at, secs, n * 16);
	at += n * 16;
	if (with_bid) {
		((struct perf_event_header *)entry)->misc = PERF_RECORD_MISC_KERNEL;
		memcpy(buf + at, entry, elen);
		at += elen;
	}
	memset(buf + at, 0x11, 8);
	at += 8;
	memcpy(buf, &h, sizeof(h));
	fuzz_write(dir, name, buf, at);
}

int fuzz_write_seeds(const char *dir)
{
	seed(dir, "gen-bid", 1);
	seed(dir, "gen-nobid", 0);
	return 0;
}
