// SPDX-License-Identifier: MIT
#include <inttypes.h>
#include <stdio.h>
#include "census.h"
#include "../attr/anonmaps.h"
#include "../cwasm/name.h"
#include "../perfdata/perfdata.h"

#define CENSUS_MAX_LINES 10

static void put_comm(const char *comm)
{
	fputc(' ', stderr);
	cwasm_name__fputs(comm[0] ? comm : "[unnamed]", stderr);
}

static void list_maps(const struct anon_census *c)
{
	size_t n = c->nmaps < CENSUS_MAX_LINES ? c->nmaps : CENSUS_MAX_LINES;

	fprintf(stderr, "  its executable anonymous mappings (pid command base size samples):\n");
	for (size_t i = 0; i < n; i++) {
		const struct anon_map *m = &c->maps[i];

		fprintf(stderr, "    %" PRIu32, m->pid);
		put_comm(m->comm);
		fprintf(stderr, " 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", m->start, m->len,
			m->samples);
	}
	if (c->nmaps > n)
		fprintf(stderr, "    ... and %zu more\n", c->nmaps - n);
}

/* No mapping has a core's size: a wrong recording, or a wrong core? */
static void no_core_map(const struct attr_args *a, const struct anon_census *c)
{
	uint64_t want = UINT64_MAX;
	const struct anon_map *cand = NULL;

	for (uint32_t i = 0; i < a->cs.n; i++)
		if (attr__page_round(a->cs.mods[i]->text_size) < want)
			want = attr__page_round(a->cs.mods[i]->text_size);
	if (!c->nmaps) {
		fprintf(stderr, "  it has no executable anonymous mapping: no process in it mapped"
			" code of its own (the recording of another program?)\n");
		return;
	}
	list_maps(c);
	/* the list is hottest first: the first one large enough to hold the text */
	for (size_t i = 0; i < c->nmaps && !cand; i++)
		if (c->maps[i].len >= want)
			cand = &c->maps[i];
	if (!cand) {
		fprintf(stderr, "  all are smaller than the text (%" PRIu64 " bytes): another core"
			" ran (the wrong --cwasm or manifest, or another build of it?)\n", want);
		return;
	}
	fprintf(stderr, "  none is the text's size (%" PRIu64 " bytes): another build of the"
		" core, or a runtime that maps more than the text\n", want);
	if (!a->pins.n)
		fprintf(stderr, "  if the one at 0x%" PRIx64 " holds the core: --base 0x%" PRIx64
			"%s\n", cand->start, cand->start,
			a->cs.n > 1 ? " (one --base per core, in order)" : "");
}

static void pid_samples(const struct anon_census *c)
{
	size_t n = c->npids < CENSUS_MAX_LINES ? c->npids : CENSUS_MAX_LINES;

	if (!c->npids) {
		fprintf(stderr, "  no process has samples in it\n");
		return;
	}
	fprintf(stderr, "  the pids with samples (pid command samples):\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "    %" PRIu32, c->pids[i].pid);
		put_comm(c->pids[i].comm);
		fprintf(stderr, " %" PRIu64 "\n", c->pids[i].samples);
	}
	if (c->npids > n)
		fprintf(stderr, "    ... and %zu more\n", c->npids - n);
}

/* A read that found nothing to attribute in a recording cut short: the cut may be why. */
static void cut_note(const struct attr_args *a)
{
	uint64_t read, expected;
	struct ap_err why;

	if (a->ninputs > 1 || perfdata__cut_short(a->input, &read, &expected, &why) != 1)
		return;
	fprintf(stderr, "  it is cut short: read %" PRIu64 " of %" PRIu64 " data bytes; what it"
		" lacks may be past the cut\n", read, expected);
}

void census__explain(const struct attr_args *a, const struct ap_err *err)
{
	struct anon_census c;
	struct ap_err why;

	if (err->kind == AP_ERR_INPUT)
		cut_note(a);
	if (err->hint != AP_HINT_NO_CORE_MAP && err->hint != AP_HINT_PID_SAMPLES)
		return;
	if (!a->s || anon_census__read(a->s, &c, &why))
		return;		/* a pipe, or the error already said what is wrong */
	if (err->hint == AP_HINT_NO_CORE_MAP)
		no_core_map(a, &c);
	else
		pid_samples(&c);
	anon_census__exit(&c);
}
