// SPDX-License-Identifier: MIT
/* Which recording and which symbol `aotperf annotate` hands to perf annotate. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "annotate-sym.h"
#include "../util/run.h"

#define JIT_NAME "perf.jit.data"

const char *annotate_sym__input(const char *given, int *switched)
{
	*switched = 0;
	if (given)
		return given;
	if (!access(JIT_NAME, R_OK)) {
		*switched = 1;
		return JIT_NAME;
	}
	return "perf.data";
}

/* "local_func_N" or "local_func_N:..." with this N; the N of any when want < 0. */
static int is_local(const char *sym, long long want)
{
	char *end;
	long long n;

	if (strncmp(sym, "local_func_", 11) || !isdigit((unsigned char)sym[11]))
		return 0;
	n = strtoll(sym + 11, &end, 10);
	if (*end && *end != ':')
		return 0;
	return want < 0 || n == want;
}

/* The wasm name after "local_func_N:", or NULL. */
static const char *wasm_part(const char *sym)
{
	const char *c = is_local(sym, -1) ? strchr(sym, ':') : NULL;

	return c ? c + 1 : NULL;
}

/* The function index spec names: N, local_func_N, or through the cores; -1 if none. */
static long long spec_index(const char *spec, const struct core_set *cs)
{
	struct core_func cf;
	struct ap_err e = { 0 };
	char *end;
	long long n;

	if (isdigit((unsigned char)spec[0])) {
		n = strtoll(spec, &end, 10);
		if (!*end)
			return n;
	}
	if (is_local(spec, -1) && !strchr(spec, ':'))
		return strtoll(spec + 11, NULL, 10);
	if (cs && cs->n && !core_set__resolve(cs, spec, &cf, &e))
		return cf.func;
	return -1;
}

int annotate_sym__resolve(const char *perf, const char *input, const char *spec,
			  const struct core_set *cs, char *out, size_t len, struct ap_err *err)
{
	const char *argv[] = { perf, "report", "-i", input, "--stdio", "-q", "--sort", "sym",
			       "-g", "none", NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
			      .stderr_io = AP_IO_NULL, .capture_max = (size_t)1 << 28 };
	long long idx = spec_index(spec, cs);
	int locals = 0, found = 0, nsyms = 0, ret = 0;
	char *line, *next;

	snprintf(out, len, "%s", spec);
	if (ap_child__run(&c, err))
		return -1;
	/* "    45.00%  [.] local_func_3:main" */
	for (line = c.status ? NULL : c.out; line && *line; line = next) {
		char *sym = strstr(line, "] ");
		const char *w;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!sym)
			continue;
		sym += 2;
		nsyms++;
		locals += is_local(sym, -1);
		if (found)
			continue;
		w = wasm_part(sym);
		if (!strcmp(sym, spec) || (idx >= 0 && is_local(sym, idx)) || (w && !strcmp(w, spec))) {
			snprintf(out, len, "%s", sym);
			found = 1;
		}
	}
	/* no symbol listed at all: this perf cannot read it (perf 6.1 and a perf 6.12
	 * recording) or it has no samples; perf annotate says which */
	if (!c.status && nsyms && !locals && !found && (idx >= 0 || (cs && cs->n)))
		ret = ap_errf(err, "%s: the recording is not symbolized (no local_func_N symbol in "
			      "it): run `aotperf inject -i %s --cwasm CORE -o perf.jit.data` and "
			      "annotate perf.jit.data, or `aotperf report -i %s --cwasm CORE "
			      "--func %s` on this one", input, input, input, spec);
	else if (!c.status && locals && !found && idx < 0 && !(cs && cs->n))
		ret = ap_errf(err, "%s: no symbol '%s'; its wasm functions are named local_func_N: "
			      "give N, or the core (--cwasm FILE or --manifest FILE) to look the "
			      "wasm name up", input, spec);
	ap_child__exit(&c);
	return ret;
}
