// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report-perf.h"

static const struct {
	const char *name;
	enum profile_sort_key key;
} key_names[] = {
	{ "function", PROFILE_SORT_FUNCTION }, { "sym", PROFILE_SORT_FUNCTION },
	{ "symbol", PROFILE_SORT_FUNCTION }, { "dso", PROFILE_SORT_DSO }, { "comm", PROFILE_SORT_COMM },
	{ "pid", PROFILE_SORT_PID }, { "cpu", PROFILE_SORT_CPU },
};

static int parse_sort(struct report_perf *o, const char *arg, struct ap_err *err)
{
	char word[32];

	o->sort = arg;
	o->nkeys = 0;
	for (const char *s = arg;;) {
		size_t len = strcspn(s, ","), k;

		snprintf(word, sizeof(word), "%.*s", (int)len, s);
		for (k = 0; k < sizeof(key_names) / sizeof(key_names[0]); k++)
			if (!strcmp(word, key_names[k].name))
				break;
		if (k == sizeof(key_names) / sizeof(key_names[0]))
			return ap_errf(err, "--sort: '%.*s' is not a key aotperf sorts by (function,"
				       " dso, comm, pid, cpu)", (int)len, s);
		for (uint32_t i = 0; i < o->nkeys; i++)
			if (o->keys[i] == key_names[k].key)
				return ap_errf(err, "--sort: '%s' names a key twice", arg);
		o->keys[o->nkeys++] = key_names[k].key;
		if (!s[len])
			return 0;
		s += len + 1;
	}
}

int report_perf__sorted(const struct report_perf *o)
{
	return o->nkeys > 1 || (o->nkeys == 1 && o->keys[0] != PROFILE_SORT_FUNCTION);
}

int report_perf__option(struct report_perf *o, int c, const char *arg, struct ap_err *err)
{
	char *end;

	switch (c) {
	case RPERF_OPT_LIMIT:
		o->percent_limit = strtod(arg, &end);
		if (end == arg || *end || !(o->percent_limit >= 0.0 && o->percent_limit <= 100.0))
			return ap_errf(err, "--percent-limit: '%s' is not a percentage from 0 to 100",
				       arg);
		return 1;
	case 'n': o->show_nr = 1; return 1;
	case RPERF_OPT_STDIO: o->stdio = 1; return 1;
	case 's': return parse_sort(o, arg, err) ? -1 : 1;
	}
	return 0;
}
