/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_PROGRESS_H
#define AOTPERF_UTIL_PROGRESS_H
/*
 * A one-line progress display for long steps (reading a big perf.data,
 * perf inject --jit over thousands of functions, record's
 * post-processing): "phase  45%  12.3 of 27.1 MB  2.1 s", redrawn in place
 * with a carriage return at most every PROGRESS_INTERVAL_MS, cut to the
 * terminal's width, and cleared again when the phase or the display ends,
 * so the next output starts on a clean line. Silent (every call a no-op)
 * unless the stream is a terminal and quiet is 0. Not thread-safe: one
 * thread updates it.
 */
#include <stdint.h>
#include <stdio.h>

#define PROGRESS_INTERVAL_MS 100

struct progress {
	FILE *out;
	int enabled;
	const char *phase;	/* not copied */
	const char *unit;	/* "B": bytes (KB/MB/GB), else a plural noun or NULL */
	uint64_t total;		/* 0: unknown */
	uint64_t done;
	uint64_t start_ns, last_ns;
	size_t shown;		/* characters on the line now */
	unsigned width;		/* terminal columns */
};

/* out: usually stderr; quiet: -q. */
void progress__init(struct progress *p, FILE *out, int quiet);
/* Clear the line. */
void progress__exit(struct progress *p);
/* Is anything ever shown? */
int progress__enabled(const struct progress *p);

/*
 * Start a phase (clears the previous one's line and draws this one):
 * total units of unit ("B" for bytes, "functions", ...; total 0: unknown).
 */
void progress__phase(struct progress *p, const char *phase, uint64_t total, const char *unit);
/* done units so far; redraws when PROGRESS_INTERVAL_MS have passed. */
void progress__update(struct progress *p, uint64_t done);
/* Clear the line, e.g. before printing a warning; the next update redraws. */
void progress__clear(struct progress *p);

#endif
