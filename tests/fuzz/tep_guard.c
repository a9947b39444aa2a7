// SPDX-License-Identifier: MIT
/*
 * libtraceevent's format parser, watched (linked into every fuzz target
 * and replay test; the executable's definitions come before the shared
 * library's). Every text aotperf hands tep_parse_event() must be one of
 * the generated forms (perfdata/tracing_format.h): it reads back into
 * fields that generate it byte for byte, and libtraceevent accepts it.
 * libtraceevent's other parsers of outside text are never called.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "perfdata/tracing_format.h"
#include "fuzz.h"

typedef enum tep_errno (*parse_event_fn)(struct tep_handle *, const char *, unsigned long,
					 const char *);

/* Is buf (size bytes) the text generated from the fields it reads into? */
static int is_generated(const char *sys, const char *buf, unsigned long size)
{
	struct tracing_format *f = NULL;
	char *text = NULL;
	size_t len = 0;
	int yes;

	yes = tracing_format__parse(sys, buf, size, &f) == TRACING_FORMAT_OK &&
	      (text = tracing_format__text(f, &len)) && len == size && !memcmp(text, buf, len);
	free(text);
	tracing_format__delete(f);
	return yes;
}

enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
			       const char *sys)
{
	static parse_event_fn real;
	enum tep_errno r;

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "tep_parse_event");
	FUZZ_ASSERT(real && sys && is_generated(sys, buf, size));
	r = real(tep, buf, size, sys);
	FUZZ_ASSERT(r == 0);
	return r;
}

enum tep_errno tep_parse_format(struct tep_handle *tep, struct tep_event **eventp,
				const char *buf, unsigned long size, const char *sys)
{
	(void)tep, (void)eventp, (void)buf, (void)size, (void)sys;
	FUZZ_ASSERT(0);
	return TEP_ERRNO__MEM_ALLOC_FAILED;
}

int tep_parse_header_page(struct tep_handle *tep, char *buf, unsigned long size, int long_size)
{
	(void)tep, (void)buf, (void)size, (void)long_size;
	FUZZ_ASSERT(0);
	return -1;
}
