// SPDX-License-Identifier: MIT
/* Judging perf annotate runs, and annotate's own listing when perf's fails (annotate-fallback.h). */
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "annotate-fallback.h"
#include "../classify/annot_rec.h"

static int crash_signal(int status)
{
	int sig = status - 128;

	return status > 128 && (sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT ||
				sig == SIGILL || sig == SIGFPE);
}

enum annot_health annot_health__of(const struct ap_child *c, char *why, size_t wlen)
{
	struct cls_annot_opts o = { 0 };
	struct cls_annot a = { 0 };
	struct ap_err err;
	char how[160];
	int raw = 0;

	if (c->timed_out || c->status) {
		ap_child__describe(c, how, sizeof(how));
		snprintf(why, wlen, "perf annotate %s (%s)", crash_signal(c->status) ? "crashed" :
			 "failed", how);
		return !c->timed_out && crash_signal(c->status) ? ANNOT_CRASHES : ANNOT_UNKNOWN;
	}
	if (!c->out || !c->out_len ||
	    cls__annot_parse(c->out, c->out_len, "perf annotate", &o, &a, &err)) {
		snprintf(why, wlen, "perf annotate listed nothing");
		return ANNOT_UNKNOWN;
	}
	for (uint32_t i = 0; i < a.n; i++)
		raw |= a.funcs[i].raw && a.funcs[i].func.ninsns;
	cls_annot__exit(&a);
	snprintf(why, wlen, "%s", raw ? "perf annotate lists instruction bytes" :
		 "perf annotate --asm-raw printed no instruction bytes");
	return raw ? ANNOT_WORKS : ANNOT_NO_BYTES;
}

enum annot_health annot_health__probe(const char *perf, const char *input, const char *symbol,
				      int timeout_ms, char *why, size_t wlen)
{
	static const char *const env[] = { "LC_ALL=C", "PAGER=cat", "PERF_PAGER=cat", NULL };
	const char *argv[] = { perf, "annotate", "-i", input, "--stdio", "-n", "--asm-raw",
			       "-M", "intel", "--", symbol, NULL };
	struct ap_child c = { .argv = argv, .env = env, .stdin_null = 1,
			      .stdout_io = AP_IO_CAPTURE, .stderr_io = AP_IO_CAPTURE,
			      .new_group = 1, .timeout_ms = timeout_ms,
			      .capture_max = (size_t)64 << 20 };
	enum annot_health h;
	struct ap_err err;

	if (ap_child__run(&c, &err)) {
		snprintf(why, wlen, "%.200s", err.msg);
		return ANNOT_UNKNOWN;
	}
	h = annot_health__of(&c, why, wlen);
	ap_child__exit(&c);
	return h;
}

/* symbol listed from the recording itself, its images looked for beside it too */
static int from_recording(const char *input, const char *symbol, const struct cls_annot_opts *o,
			  struct cls_annot *a, struct ap_err *err)
{
	char tmp[PATH_MAX], dir[PATH_MAX], side[PATH_MAX];
	/* where aotperf inject puts the images by default: OUT.d, next to OUT */
	const char *dirs[] = { dir, side, NULL };
	struct session *s = NULL;
	int r;

	snprintf(tmp, sizeof(tmp), "%s", input);
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	snprintf(side, sizeof(side), "%s.d", input);
	r = session__open(input, &s, err) ? -1 : cls__annot_recording(s, symbol, dirs, o, a, err);
	session__delete(s);
	return r;
}

int annot_fallback__run(const char *input, const char *symbol, const struct cls_annot_opts *o,
			const char *why, struct cls_annot *a, struct ap_err *err)
{
	uint64_t n = 0;

	if (from_recording(input, symbol, o, a, err))
		return ap_err_prefix(err, "%s; and without it: ", why);
	for (uint32_t i = 0; i < a->n; i++)
		n += a->funcs[i].header_samples;
	fprintf(stderr, "aotperf annotate: %s; listing '%s' from %s itself (%llu samples)\n",
		why, symbol, input, (unsigned long long)n);
	return 0;
}

int annot_fallback__resolve(const char *input, const char *symbol, const struct cls_annot_opts *o,
			    struct cls_annot *a, struct ap_err *err)
{
	struct cls_annot exact;
	int need = 0;

	for (uint32_t i = 0; i < a->n; i++)
		need |= a->funcs[i].ambiguous != 0;
	if (!need)
		return 0;
	if (from_recording(input, symbol, o, &exact, err))
		return -1;
	cls_annot__resolve(a, &exact);
	cls_annot__exit(&exact);
	return 0;
}
