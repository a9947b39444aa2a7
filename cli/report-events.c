// SPDX-License-Identifier: MIT
/* report: one profile per sampling event (see report-events.h). */
#include <string.h>
#include "report-events.h"
#include "../profile/events.h"
#include "../util/progress.h"

/* The read of an event that has no sample fails with this; such an event is left out. */
#define NO_SAMPLES_OF_EVENT "no samples of the selected event"

static int fail(struct attr_args *a, const struct ap_err *err)
{
	return cli_fail_opt(a->cmd, err->kind == AP_ERR_GATE ? "--require-size-match:" : NULL, err);
}

/* One read of a->input with every event (--event's, or the only one). */
static int read_all(struct report_events *ev, struct attr_args *a)
{
	struct ap_err err = { 0 };
	int rc = attr_args__read(a);

	ev->p[0] = a->p;
	ev->n = rc == EXIT_OK;
	if (rc != EXIT_OK)
		return rc;
	if (!a->p->event && ev->names.n == 1)
		a->p->event = ev->names.names[0];	/* perf's tracking events aside, the one */
	if (!a->p->event && !a->p->attr.have_event) {
		ap_errf(&err, "%s: several sampling events in a stream read once:"
			" choose one with --event", a->input);
		return cli_fail(a->cmd, &err);
	}
	return EXIT_OK;
}

/* Every event's profile from one read of the session, in the recording's order. */
static int read_events(struct report_events *ev, struct attr_args *a)
{
	struct profile *p[REPORT_MAX_EVENTS];
	struct ap_err errs[REPORT_MAX_EVENTS], err = { 0 };
	struct progress pr;
	int rc = EXIT_OK, read;

	progress__init(&pr, stderr, a->quiet);
	a->opts.progress = &pr;
	read = profile__read_events(a->s, &a->cs, &a->opts, (const char *const *)ev->names.names,
				    ev->names.n, p, errs, &err);
	progress__exit(&pr);
	a->opts.progress = NULL;
	if (read)
		return fail(a, &err);
	for (uint32_t i = 0; i < ev->names.n; i++) {
		if (p[i]) {
			/* the profile borrows the name: give it the one its result owns */
			p[i]->event = p[i]->attr.event_name;
			ev->p[ev->n++] = p[i];
		} else if (rc == EXIT_OK && !strstr(errs[i].msg, NO_SAMPLES_OF_EVENT)) {
			rc = fail(a, &errs[i]);	/* the first event's that fails, as read in order */
		}
	}
	return rc;
}

int report_events__read(struct report_events *ev, struct attr_args *a)
{
	struct ap_err err = { 0 };
	int rc;

	memset(ev, 0, sizeof(*ev));
	/* the recording's events, from the header the session read (a pipe's: none) */
	if (!a->opts.event && attr_args__session(a, &err)) {
		if (!a->quiet)
			cli_warnings(a->cmd, &a->cs.warnings);
		return fail(a, &err);
	}
	if (!a->opts.event && profile_events__of(a->s, &ev->names, &err))
		return fail(a, &err);
	/* --event, a pipe, or one event */
	if (a->opts.event || ev->names.n < 2)
		return read_all(ev, a);
	if (ev->names.n > REPORT_MAX_EVENTS) {
		ap_errf(&err, "%s: %u sampling events, at most %d: choose one with --event",
			a->input, ev->names.n, REPORT_MAX_EVENTS);
		return cli_fail(a->cmd, &err);
	}
	if (!a->quiet)
		cli_warnings(a->cmd, &a->cs.warnings);
	rc = read_events(ev, a);
	if (rc == EXIT_OK && !ev->n) {
		ap_errf(&err, "%s: no samples%s", a->input, a->opts.pid >= 0 ?
			" of the selected pid" : "");
		rc = cli_fail(a->cmd, &err);
	}
	a->p = ev->p[0];
	/* the mappings, and so their warnings, are the same for every event */
	if (rc == EXIT_OK && !a->quiet)
		cli_warnings(a->cmd, &a->p->attr.warnings);
	return rc;
}

void report_events__exit(struct report_events *ev)
{
	for (uint32_t i = 1; i < ev->n; i++)
		profile__delete(ev->p[i]);
	profile_events__exit(&ev->names);
	memset(ev, 0, sizeof(*ev));
}
