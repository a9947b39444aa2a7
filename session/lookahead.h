/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SESSION_LOOKAHEAD_H
#define AOTPERF_SESSION_LOOKAHEAD_H
/*
 * The records that introduce a thread, taken ahead of their place in a
 * file read once. perf orders records only within flush rounds, so a new
 * thread's first samples can come before its FORK, its process's COMM
 * and mappings (written from another CPU's buffer, later in the same
 * round or in the next). Looked up then, the samples find no mapping; the
 * record that would have answered comes too late and the one pass must
 * read the file again (maptable.h, maptable__late). So at the first
 * sample or switch of a thread no record has introduced yet (its FORK, or
 * the records perf synthesizes at time 0 for what runs when it starts,
 * but for the workload's "perf-exec" COMM; not an exec's COMM or a
 * mapping, which perf can write before the FORK), the records after it
 * are walked by their headers (perfdata__peek: the reading's place
 * untouched) to the end of the next round, the latest place perf writes a
 * record older than the sample (docs/formats-perf.md, "One read per
 * run"), and the FORK, COMM and mapping records there with times not
 * after the sample's are handed out at once, in time order: the new
 * thread's, and its parent's (a child inherits them; they can come as
 * late as its fork). Where the reading reaches them they are skipped
 * (lookahead__taken). Each thread is looked for once, and all walks
 * together read at most an eighth of the file and 16 MiB (the file once
 * more, if smaller): past that the one pass falls back as before.
 *
 * One per session (session__lookahead), shared by its readers: readers
 * of one pass meet each record in turn, so where one walked, the next at
 * the same record is handed the same finds without a second walk. Each
 * reader keeps the range of walks it was handed (struct lookahead_seen)
 * and skips, in their place, only the records of those.
 */
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "../util/err.h"

struct lookahead;

/* 0 and *out (NULL when pd cannot be read ahead: a stream, a pipe-mode file), -1 out of memory. */
int lookahead__new(struct perfdata *pd, struct lookahead **out);
void lookahead__delete(struct lookahead *la);

/* Has a record introduced thread tid, or was it looked for? */
int lookahead__known(struct lookahead *la, uint32_t tid);
/* A record of tid was read in its place: it needs no looking for. 0, or -1 out of memory. */
int lookahead__introduce(struct lookahead *la, uint32_t tid);

/* The walks one reader was handed: [lo, hi). */
struct lookahead_seen {
	uint32_t lo, hi;
};
/* A reader starts: it has been handed none of the walks so far. */
void lookahead__join(const struct lookahead *la, struct lookahead_seen *seen);

/* What a record found ahead is handed to (ev valid during the call): 0, or -1 to stop. */
typedef int (*lookahead_fn)(void *ctx, const struct pd_event *ev);

/*
 * A reader met a record of thread tid that ends at file offset from, at
 * time t, stream position seq. If tid was not known, or another reader
 * walked at this record: hand tid's introducing records found ahead and
 * every other such record up to t there to fn, in time order, each with
 * seq as its stream position. tid counts as known after. 0, or -1 with
 * err (a read error, out of memory, fn's -1, a walk the reader missed):
 * the reader must read twice.
 */
int lookahead__at(struct lookahead *la, struct lookahead_seen *seen, uint32_t tid, uint64_t from,
		  uint64_t t, uint64_t seq, lookahead_fn fn, void *ctx, struct ap_err *err);

/* Was the record at file offset off handed to this reader ahead? Then it is not taken again. */
int lookahead__taken(const struct lookahead *la, const struct lookahead_seen *seen, uint64_t off);

/* For tests and measurements: records handed out ahead, bytes walked (either NULL). */
void lookahead__stats(const struct lookahead *la, uint64_t *taken, uint64_t *bytes);

#endif
