// SPDX-License-Identifier: MIT
/* One recording read once per run, its records fed to tools (see session.h). */
#include <stdlib.h>
#include <string.h>
#include "session.h"
#include "lookahead.h"
#include "../perfdata/tracing.h"
#include "../util/progress.h"

#define SESSION_TICK 4096	/* records between progress updates */

struct session {
	char *path;
	struct perfdata *pd;
	int read;		/* records were read since the open or the last rewind */
	/* the tracing data, parsed once */
	int tracing_done;
	struct pd_tracing *tracing;
	struct ap_err tracing_err;
	int tracing_bad;
	struct progress *progress;
	unsigned needs;
	struct session_stats stats;
	/* the readers' walks ahead, made on first request */
	struct lookahead *la;
	int la_done;
};

int session__open(const char *path, struct session **out, struct ap_err *err)
{
	struct session *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s || !(s->path = strdup(path))) {
		free(s);
		return ap_errk(err, AP_ERR_NOMEM, "%s: out of memory", path);
	}
	if (perfdata__open(path, 0, &s->pd, err)) {
		session__delete(s);
		return -1;
	}
	*out = s;
	return 0;
}

void session__delete(struct session *s)
{
	if (!s)
		return;
	pd_tracing__delete(s->tracing);
	lookahead__delete(s->la);
	perfdata__close(s->pd);
	free(s->path);
	free(s);
}

const char *session__path(const struct session *s)
{
	return s->path;
}

struct perfdata *session__data(const struct session *s)
{
	return s->pd;
}

int session__stream(const struct session *s)
{
	return !perfdata__seekable(s->pd);
}

int session__stdin(const struct session *s)
{
	return !strcmp(s->path, "-");
}

int session__tracing(struct session *s, const struct pd_tracing **out, struct ap_err *err)
{
	if (!s->tracing_done) {
		s->tracing_done = 1;
		s->tracing_bad = perfdata__tracing(s->pd, &s->tracing, &s->tracing_err) != 0;
	}
	*out = s->tracing;
	if (s->tracing_bad) {
		*err = s->tracing_err;
		return -1;
	}
	return 0;
}

int session__lookahead(struct session *s, struct lookahead **out, struct ap_err *err)
{
	if (!s->la_done) {
		if (lookahead__new(s->pd, &s->la))
			return ap_err_nomem(err);
		s->la_done = 1;
	}
	*out = s->la;
	return 0;
}

void session__set_progress(struct session *s, struct progress *pr)
{
	s->progress = pr;
}

void session__set_switch_fn(struct session *s, pd_switch_fn fn, void *ctx)
{
	perfdata__set_switch_fn(s->pd, fn, ctx);
}

void session__drop_switches(struct session *s, int yes)
{
	perfdata__drop_switches(s->pd, yes);
}

unsigned session__needs(const struct session *s)
{
	return s->needs;
}

void session__stats(const struct session *s, struct session_stats *out)
{
	*out = s->stats;
}

/* The progress line of a pass: the data bytes of the file, read so far. */
static void progress_phase(struct session *s, const char *phase)
{
	struct pd_layout l;
	uint64_t total = 0;

	if (!s->progress)
		return;
	if (!perfdata__layout(s->pd, &l))
		total = l.data_size ? l.data_size :
			l.file_size > l.data_offset ? l.file_size - l.data_offset : 0;
	progress__phase(s->progress, phase ? phase : "reading perf.data", total, "B");
}

static void progress_tick(struct session *s, uint64_t nrec)
{
	uint64_t done;

	if (!s->progress || nrec % SESSION_TICK)
		return;
	perfdata__truncated(s->pd, &done, NULL);
	progress__update(s->progress, done);
}

/* From the first record again (a file), or -1 with err (a stream). */
static int start_pass(struct session *s, struct ap_err *err)
{
	if (!s->read)
		return 0;
	if (session__stream(s))
		return ap_errf(err, "%s: a stream cannot be read twice", s->path);
	if (perfdata__rewind(s->pd, err))
		return -1;
	s->read = 0;
	return 0;
}

/* One pass: every record to every tool in it that still wants the pass. */
static int one_pass(struct session *s, struct session_tool *const *tools, size_t n,
		    struct ap_err *err)
{
	struct pd_event ev;
	const char *phase = NULL;
	size_t live = 0;
	uint64_t nrec = 0, switched = perfdata__switched(s->pd);
	int r = 0;

	s->needs = 0;
	for (size_t i = 0; i < n; i++) {
		if (!tools[i]->in_pass)
			continue;
		live++;
		s->needs |= tools[i]->needs;
		if (!phase)
			phase = tools[i]->phase;
	}
	if (start_pass(s, err))
		return -1;
	progress_phase(s, phase);
	s->stats.passes++;
	while (live && (r = perfdata__next(s->pd, &ev, err)) > 0) {
		s->read = 1;
		s->stats.records++;
		progress_tick(s, ++nrec);
		for (size_t i = 0; i < n; i++) {
			struct session_tool *t = tools[i];

			if (!t->in_pass || t->done)
				continue;
			r = t->record(t, &ev, err);
			if (r < 0)
				return -1;
			if (r) {
				t->done = 1;
				live--;
			}
		}
	}
	s->stats.records += perfdata__switched(s->pd) - switched;
	if (live && r < 0)
		return -1;
	/* a pass the tools left early has read: the next one starts over */
	s->read = 1;
	return 0;
}

int session_tool__twice(struct session_tool *t, struct ap_err *err)
{
	(void)err;
	return !t->pass;
}

int session__process(struct session *s, struct session_tool *const *tools, size_t n,
		     struct ap_err *err)
{
	size_t more = n;
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		tools[i]->in_pass = 1;
		tools[i]->pass = 0;
	}
	while (more && !ret) {
		ret = one_pass(s, tools, n, err);
		more = 0;
		for (size_t i = 0; i < n && !ret; i++) {
			struct session_tool *t = tools[i];
			int r;

			if (!t->in_pass)
				continue;
			t->done = 0;
			r = t->pass_end ? t->pass_end(t, err) : 0;
			if (r < 0)
				ret = -1;
			t->in_pass = r > 0;
			t->pass += r > 0;
			more += r > 0;
		}
	}
	if (s->progress)
		progress__clear(s->progress);
	return ret;
}
