/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SESSION_H
#define AOTPERF_SESSION_H
/*
 * One recording, read once per run, as perf reads one: perf's
 * perf_session__process_events() streams a perf.data through the
 * callbacks of a struct perf_tool; here every consumer of a run (the
 * attribution of each sampling event, its call stacks, off-CPU time and
 * host rows, the threads' commands, the census of //anon mappings) is a
 * session_tool, and the session:
 *
 *   - opens the file once (perfdata/perfdata.h: "-" reads standard input)
 *     and keeps its header: attrs, event names, features (build ids,
 *     cpuid, sample times), and the tracing data, parsed once on request;
 *   - streams the records once through every tool of the run, in file
 *     order, handing each record to each tool in the order the tools were
 *     given (perf_tool's callbacks, one record at a time);
 *   - reads the records again only for a tool that asks at the end of a
 *     pass (attribution when a mapping record came after the samples it
 *     holds, attr/attr.h; the census on the failure path), and only with
 *     the tools that asked. A stream (a pipe) cannot be read again: asking
 *     fails the read.
 *
 * docs/formats-perf.md ("One read per run") says which runs read twice
 * and why. Errors are returned (util/err.h); nothing is printed.
 */
#include <stddef.h>
#include <stdint.h>
#include "../perfdata/perfdata.h"
#include "../util/err.h"

struct session;
struct pd_tracing;
struct progress;

/*
 * What of a sample a tool reads beyond its ip, ids, time and cpu: the
 * reader may skip the rest of the payload (issue 32's stack skipping uses
 * session__needs()). A tool sets them for the coming pass.
 */
enum session_need {
	SESSION_NEED_CALLCHAIN	= 1u << 0,	/* PERF_SAMPLE_CALLCHAIN (-g) */
	SESSION_NEED_STACK	= 1u << 1,	/* user registers and stack bytes (dwarf) */
	SESSION_NEED_RAW	= 1u << 2,	/* tracepoint payloads (PERF_SAMPLE_RAW) */
	SESSION_NEED_ALL	= (1u << 3) - 1,
};

/*
 * A consumer of the records. record() gets each record of a pass in file
 * order (ev is valid during the call): 0 goes on, 1 says the tool needs no
 * more of this pass, -1 fails the read with err. pass_end() follows every
 * pass the tool was in: 0 when it is done, 1 when it wants the records
 * once more from the first, -1 with err; without one, a tool is done
 * after one pass (session_tool__twice: after two).
 */
struct session_tool {
	int (*record)(struct session_tool *t, const struct pd_event *ev, struct ap_err *err);
	int (*pass_end)(struct session_tool *t, struct ap_err *err);
	unsigned needs;		/* enum session_need, for the coming pass */
	const char *phase;	/* the progress line's words for it; NULL: "reading perf.data" */
	/* the session's: which of the tool's passes this is (0: the first) */
	unsigned pass;
	int in_pass, done;
};

/* A pass_end for a tool that reads the records twice (say, mappings, then samples). */
int session_tool__twice(struct session_tool *t, struct ap_err *err);

/* Open path ("-": standard input) and read its header. 0 and *out, or -1 with err. */
int session__open(const char *path, struct session **out, struct ap_err *err);
void session__delete(struct session *s);

/* As given to session__open. */
const char *session__path(const struct session *s);
/*
 * The recording: its attrs, names and features (perfdata.h). Its records
 * are the session's: read them through session__process() only.
 */
struct perfdata *session__data(const struct session *s);
/* Read once (standard input that is a pipe): no second pass. */
int session__stream(const struct session *s);
/* "-": the one read of standard input, whatever it is. */
int session__stdin(const struct session *s);

/*
 * The tracing data (perfdata/tracing.h), parsed at the first call and
 * kept: 0 and *out (NULL when the recording has none; the session owns
 * it), or -1 with err (the same error at every call). A pipe's is known
 * once its HEADER_TRACING_DATA record has been read (a tool's record()
 * may ask from its first sample on).
 */
int session__tracing(struct session *s, const struct pd_tracing **out, struct ap_err *err);

/*
 * The readers' walks ahead of their place (lookahead.h), one for the
 * session, made at the first call: 0 and *out (NULL for a stream, which
 * cannot be read ahead; the session owns it), or -1 out of memory.
 */
struct lookahead;
int session__lookahead(struct session *s, struct lookahead **out, struct ap_err *err);

/* A progress line for the passes (util/progress.h), or NULL. */
void session__set_progress(struct session *s, struct progress *pr);

/*
 * Stream the records through tools[0..n) as above until none asks for
 * another pass. 0, or -1 with err: a read error, a tool's error, or a
 * second pass of a stream. A session may process several times (a tool
 * that must see every record before another starts, e.g. the threads'
 * commands before a --comm filter): each starts from the first record.
 */
int session__process(struct session *s, struct session_tool *const *tools, size_t n,
		     struct ap_err *err);

/*
 * The context switch records go to fn instead of the tools, in their place
 * in the stream (perfdata.h, perfdata__set_switch_fn: a recording of
 * switches is mostly these, and one consumer alone reads them): for a
 * reader that knows no tool of the coming passes wants them. NULL: to the
 * tools again. Counted in the stats' records.
 */
void session__set_switch_fn(struct session *s, pd_switch_fn fn, void *ctx);
/* While yes, those records are skipped unread (a pass fn's reader drops). */
void session__drop_switches(struct session *s, int yes);

/* What the tools of the pass under way (or the last one) need: enum session_need. */
unsigned session__needs(const struct session *s);

/* For tests and measurements: passes over the records so far, records handed out. */
struct session_stats {
	uint32_t passes;
	uint64_t records;
};
void session__stats(const struct session *s, struct session_stats *out);

#endif
