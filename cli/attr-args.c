// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "attr-args.h"
#include "census.h"
#include "../util/array.h"
#include "../util/outfile.h"
#include "../util/progress.h"

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
	case 'i':
		if (a->ninputs == ATTR_MAX_INPUTS)
			return ap_errf(err, "-i: at most %d recordings", ATTR_MAX_INPUTS);
		a->inputs[a->ninputs++] = arg;
		a->input = arg;
		return 1;
	case 'q': a->quiet = 1; return 1;
	case ATTR_OPT_CWASM: return core_set__add_cwasm(&a->cs, arg, err) ? -1 : 1;
	case ATTR_OPT_MANIFEST: return core_set__add_manifest(&a->cs, arg, err) ? -1 : 1;
	case ATTR_OPT_PID:
		if (cli_parse_u64(arg, 10, &v) || v > INT32_MAX)
			return ap_errf(err, "--pid: '%s' is not a pid", arg);
		a->opts.pid = (int)v;
		return 1;
	case ATTR_OPT_EVENT: a->opts.event = arg; return 1;
	case ATTR_OPT_BASE:
		return profile_pins__add(&a->pins, arg, err) ? ap_err_prefix(err, "--base: ") : 1;
	case ATTR_OPT_REQ: a->opts.require_size_match = 1; return 1;
	case ATTR_OPT_ARCH: return cli_parse_arch(arg, &a->arch, err) ? -1 : 1;
	case ATTR_OPT_ANY_PATH:
		if (a->cs.nmans)
			return ap_errf(err, "--manifest-any-path: give it before --manifest");
		a->cs.manifest_flags |= CWASM_MANIFEST_ANY_PATH;
		return 1;
	/* undocumented: read mappings first, as a file with late records is read */
	case ATTR_OPT_TWO_PASS: a->opts.two_pass = 1; return 1;
	}
	return 0;
}

int attr_args__check(struct attr_args *a, struct ap_err *err)
{
	if (!a->cs.n)
		return ap_errf(err, "no cores: give --cwasm FILE or --manifest FILE");
	if (core_set__check_once(&a->cs, err))
		return -1;
	if (a->pins.n > a->cs.n)
		return ap_errf(err, "%u --base for %u core(s)", a->pins.n, a->cs.n);
	a->opts.pins = a->pins.base;
	a->opts.npins = a->pins.n;
	core_set__set_arch(&a->cs, a->arch);
	return 0;
}

int attr_args__check_output(const struct attr_args *a, const char *out, struct ap_err *err)
{
	/* before anything is read: another user's file is never replaced */
	if (strcmp(out, "-") && ap_outfile__check(out, err))
		return -1;
	for (uint32_t i = 0; i < (a->ninputs ? a->ninputs : 1); i++) {
		struct ap_input in = { .name = a->ninputs ? a->inputs[i] : a->input };

		if (strcmp(in.name, "-") && !ap_file_id__of(in.name, &in.id) &&
		    ap_file__check_output(out, &in, 1, err))
			return -1;
	}
	return ap_file__check_output(out, a->cs.inputs, a->cs.ninputs, err);
}

int attr_args__session(struct attr_args *a, struct ap_err *err)
{
	if (a->s && !strcmp(session__path(a->s), a->input))
		return 0;
	session__delete(a->s);
	a->s = NULL;
	return session__open(a->input, &a->s, err);
}

int attr_args__read(struct attr_args *a)
{
	struct ap_err err = { 0 };
	struct progress pr;
	int rc;

	if (!a->quiet)
		cli_warnings(a->cmd, &a->cs.warnings);
	/* a big recording takes a while: a progress line on a terminal */
	progress__init(&pr, stderr, a->quiet);
	a->opts.progress = &pr;
	rc = attr_args__session(a, &err) ? -1 : profile__read(a->s, &a->cs, &a->opts, &a->p, &err);
	progress__exit(&pr);
	a->opts.progress = NULL;
	if (rc) {
		/* the one gate attribution has */
		rc = cli_fail_opt(a->cmd, err.kind == AP_ERR_GATE ? "--require-size-match:" : NULL,
				  &err);
		census__explain(a, &err);
		return rc;
	}
	if (!a->quiet)
		cli_warnings(a->cmd, &a->p->attr.warnings);
	return EXIT_OK;
}

void attr_args__exit(struct attr_args *a)
{
	profile__delete(a->p);
	a->p = NULL;
	session__delete(a->s);
	a->s = NULL;
	core_set__exit(&a->cs);
}
