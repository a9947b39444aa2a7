// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"

void attr_args__init(struct attr_args *a, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->input = "perf.data";
	a->opts.pid = -1;
}

int attr_args__option(struct attr_args *a, int c, const char *arg, struct ap_err *err)
{
	uint64_t v;

	switch (c) {
	case 'i': a->input = arg; return 1;
	case 'q': a->opts.quiet = 1; return 1;
	case ATTR_OPT_CWASM: return core_set__add_cwasm(&a->cs, arg, err) ? -1 : 1;
	case ATTR_OPT_MANIFEST: return core_set__add_manifest(&a->cs, arg, err) ? -1 : 1;
	case ATTR_OPT_PID:
		if (cli_parse_u64(arg, 10, &v) || v > INT32_MAX)
			return ap_errf(err, "--pid: '%s' is not a pid", arg);
		a->opts.pid = (int)v;
		return 1;
	case ATTR_OPT_EVENT: a->opts.event = arg; return 1;
	case ATTR_OPT_BASE:
		if (cli_parse_u64(arg, 16, &v) || !v)
			return ap_errf(err, "--base: '%s' is not a hex address", arg);
		if (a->nbases == ATTR_MAX_BASES)
			return ap_errf(err, "--base: at most %d", ATTR_MAX_BASES);
		a->bases[a->nbases++] = v;
		return 1;
	case ATTR_OPT_REQ: a->opts.require_size_match = 1; return 1;
	/* undocumented: read mappings first, as a file with late records is read */
	case ATTR_OPT_TWO_PASS: a->opts.two_pass = 1; return 1;
	}
	return 0;
}

int attr_args__check(struct attr_args *a, struct ap_err *err)
{
	if (!a->cs.n)
		return ap_errf(err, "no cores: give --cwasm FILE or --manifest FILE");
	if (a->nbases > a->cs.n)
		return ap_errf(err, "%u --base for %u core(s)", a->nbases, a->cs.n);
	return 0;
}

int attr_args__run(struct attr_args *a)
{
	struct ap_err err = { 0 };

	a->cores = calloc(a->cs.n, sizeof(*a->cores));
	if (!a->cores) {
		ap_errf(&err, "out of memory");
		return cli_fail(a->cmd, &err);
	}
	for (uint32_t i = 0; i < a->cs.n; i++) {
		const struct cwasm_module *m = a->cs.mods[i];

		a->cores[i].mod = m;
		a->cores[i].base_override = i < a->nbases ? a->bases[i] : 0;
		if (a->opts.quiet)
			continue;
		if (!m->version_known)
			cli_warn(a->cmd, "%s: .cwasm version %u is newer than aotperf knows",
				 m->path, m->version);
	}
	if (attr__run(a->input, a->cores, a->cs.n, &a->opts, &a->res, &err)) {
		fprintf(stderr, "aotperf %s: %s\n", a->cmd, err.msg);
		return a->opts.require_size_match && strstr(err.msg, "--require-size-match")
			       ? EXIT_GATE : EXIT_BAD;
	}
	if (!a->opts.quiet)
		for (uint32_t i = 0; i < a->res.nwarnings; i++)
			cli_warn(a->cmd, "%s", a->res.warnings[i]);
	return EXIT_OK;
}

void attr_args__exit(struct attr_args *a)
{
	attr_result__exit(&a->res);
	free(a->cores);
	core_set__exit(&a->cs);
}
