/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_LOOKAHEAD_H
#define AOTPERF_ATTR_LOOKAHEAD_H
/*
 * The records that introduce a process, taken ahead of their place in a
 * file read once. perf orders records only within flush rounds, so a new
 * process's first samples can come before its FORK, COMM and mappings
 * (written from another CPU's buffer, later in the same round or in the
 * next). Looked up then, the samples find no process; the record that
 * would have answered comes too late and the one pass must read the file
 * again (maptable.h, maptable__late). So at the first sample or switch of
 * a process no record has introduced yet (its FORK, or the records perf
 * synthesizes at time 0 for what runs when it starts; not an exec's COMM
 * or a mapping, which perf can write before the FORK), the records after
 * it are walked by their headers (perfdata__peek: the reading's place
 * untouched) to the end of the next round, the latest place perf writes a
 * record older than the sample (docs/formats-perf.md, "One read per run"),
 * and the FORK, COMM and mapping records there with times not after the
 * sample's are handed out at once, in time order: the new process's, and
 * its parent's (a child inherits them; they can come as late as its
 * fork). Where the reading reaches them they are skipped
 * (lookahead__taken). Each process is looked for once, and all walks
 * together read at most an eighth of the file and 16 MiB (the file once
 * more, if smaller): past that the one pass falls back as before.
 * Internal to attr/.
 */
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "../util/err.h"

struct lookahead;

/* 0 and *out (NULL when pd cannot be read ahead: a stream, a pipe-mode file), -1 out of memory. */
int lookahead__new(struct perfdata *pd, struct lookahead **out);
void lookahead__delete(struct lookahead *la);

/* Has a record introduced pid, or was it looked for? */
int lookahead__known(struct lookahead *la, uint32_t pid);
/* A record of pid was read in its place: it needs no looking for. 0, or -1 out of memory. */
int lookahead__introduce(struct lookahead *la, uint32_t pid);

/* What a record found ahead is handed to (ev valid during the call): 0, or -1 to stop. */
typedef int (*lookahead_fn)(void *ctx, const struct pd_event *ev);

/*
 * pid's first record was read at file offset from (the record's end), at
 * time t, stream position seq: hand its introducing records found ahead
 * and every other such record up to t there to fn, in time order, each
 * with seq as its stream position. pid counts
 * as known after. 0, or -1 with err (a read error, out of memory, fn's -1).
 */
int lookahead__find(struct lookahead *la, uint32_t pid, uint64_t from, uint64_t t, uint64_t seq,
		    lookahead_fn fn, void *ctx, struct ap_err *err);

/* Was the record at file offset off handed out ahead? Then it is not taken again. */
int lookahead__taken(const struct lookahead *la, uint64_t off);

/* For tests and measurements: records handed out ahead, bytes walked (either NULL). */
void lookahead__stats(const struct lookahead *la, uint64_t *taken, uint64_t *bytes);

#endif
