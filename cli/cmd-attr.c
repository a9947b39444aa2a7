// SPDX-License-Identifier: MIT
/*
 * aotperf attr: a drop-in for the upstream helper aot_jit_attr.py
 * (docs/helper-interface.md): its flags, its mapping rule and gates, its
 * exit statuses (2 usage, 1 any other failure), its text and its schema-2
 * JSON, so a harness that runs the helper runs this unchanged. The
 * analysis is aotperf's own: perf.data read natively, capstone decode,
 * frames/ for the sidecar.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "attr-compat.h"
#include "cli.h"
#include "../cwasm/coreset.h"
#include "../render/helper.h"
#include "../util/num.h"

enum { ATTR_OK = 0, ATTR_FAIL = 1, ATTR_USAGE = 2 };

static const char attr_usage[] =
	"usage: aotperf attr [-h] [--perf PERF] --cwasm CWASM [--func FUNC] [--top TOP]\n"
	"                    [--base BASE] [--arch {aarch64,x86_64}]\n"
	"                    [--json-out JSON_OUT] [--min-samples MIN_SAMPLES]\n"
	"                    [--min-attribution-pct MIN_ATTRIBUTION_PCT]\n"
	"                    [--authoritative] [--frame-metadata FRAME_METADATA]\n"
	"                    [--validate-frame-metadata] [--accept-older] [--accept-cut]\n";

static const char attr_help[] =
	"\n"
	"The upstream helper's command line (aot_jit_attr.py), for harnesses that run\n"
	"it: the same flags, rules, exit statuses and JSON (docs/helper-interface.md).\n"
	"One core per run; aotperf report does a whole manifest.\n"
	"\n"
	"options:\n"
	"  -h, --help            show this help message and exit\n"
	"  --perf PERF           perf.data file (omit only for static validation)\n"
	"  --cwasm CWASM         core .cwasm owning the code\n"
	"  --func FUNC           selected local_func\n"
	"  --top TOP             functions listed (default 20)\n"
	"  --base BASE           explicit text mmap base (hex)\n"
	"  --arch {aarch64,x86_64}\n"
	"                        generated-code architecture (default: current host)\n"
	"  --json-out JSON_OUT   write machine-readable attribution summary\n"
	"  --min-samples MIN_SAMPLES\n"
	"                        fail if the recording holds fewer samples\n"
	"  --min-attribution-pct MIN_ATTRIBUTION_PCT\n"
	"                        fail if fewer than this percentage of self samples map\n"
	"                        to cwasm text\n"
	"  --authoritative       require automatic exact-size mmap selection; disallow\n"
	"                        --base\n"
	"  --frame-metadata FRAME_METADATA\n"
	"                        exact compiler sidecar for --func\n"
	"                        (<prefix>.mod<M>.func<F>.json)\n"
	"  --validate-frame-metadata\n"
	"                        validate cwasm + sidecar + disassembly without perf data\n"
	"\n"
	"aotperf's own (the helper has neither; without them attr refuses what the\n"
	"helper refuses):\n"
	"  --accept-older        read a container of version 6 to 8, or one without\n"
	"                        target info (--arch says the code's), as report does\n"
	"  --accept-cut          read a recording cut short up to its cut (perf stops\n"
	"                        there, so the helper fails); the JSON says truncated,\n"
	"                        nothing is authoritative, --authoritative refuses it\n"
	"\n"
	"A core whose samples do not fit its code (another build of it?\n"
	"docs/consistency.md) gets a warning on stderr; the JSON keeps the helper's keys.\n"
	"\n"
	"Exit status: 0 ok, 1 any failure (message on stderr), 2 usage errors.\n";

struct attr_cmd_opts {
	const char *perf, *cwasm, *base, *arch, *json_out, *frame_metadata;
	int64_t func;			/* -1: none */
	int has_func;
	int64_t top, min_samples;
	double min_pct;
	int authoritative, validate;
	int accept_older, accept_cut;	/* aotperf's: read what the helper refuses */
};

struct attr_run {
	struct attr_cmd_opts o;
	struct core_set cs;
	struct attr_scan scan;
	struct session *s;		/* the recording, opened once: scanned, then attributed */
	struct profile *p;
	struct helper_report r;
	char cut[200];			/* the cut's wording, when the recording is cut short */
};

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(attr_usage, stderr);
	fputs("aotperf attr: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ATTR_USAGE;
}

/* The helper's failure: the message alone on stderr, status 1. */
static int fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return ATTR_FAIL;
}

/* An integer as Python's int() reads one: optional blanks and sign, decimal digits. */
static int parse_int(const char *s, int64_t *out)
{
	char *end;

	if (!*s)
		return -1;
	*out = strtoll(s, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return *end || end == s ? -1 : 0;
}

static int parse_float(const char *s, double *out)
{
	char *end;

	*out = strtod(s, &end);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	return *end || end == s ? -1 : 0;
}

/* The host's architecture, as the helper's default for --arch. */
static const char *host_arch(void)
{
	struct utsname u;
	enum cwasm_arch a;

	if (uname(&u) || cwasm_arch__parse(u.machine, strlen(u.machine), &a))
		return NULL;
	return cwasm_arch__name(a);
}

static int parse_args(int argc, char **argv, struct attr_cmd_opts *o)
{
	enum { O_PERF = 256, O_CWASM, O_FUNC, O_TOP, O_BASE, O_ARCH, O_JSON, O_MIN, O_MINPCT,
	       O_AUTH, O_REQ, O_META, O_VALIDATE, O_OLDER, O_CUT };
	static const struct option longopts[] = {
		{ "perf", required_argument, NULL, O_PERF },
		{ "cwasm", required_argument, NULL, O_CWASM },
		{ "func", required_argument, NULL, O_FUNC },
		{ "top", required_argument, NULL, O_TOP },
		{ "base", required_argument, NULL, O_BASE },
		{ "arch", required_argument, NULL, O_ARCH },
		{ "json-out", required_argument, NULL, O_JSON },
		{ "min-samples", required_argument, NULL, O_MIN },
		{ "min-attribution-pct", required_argument, NULL, O_MINPCT },
		{ "authoritative", no_argument, NULL, O_AUTH },
		{ "require-size-match", no_argument, NULL, O_REQ },
		{ "frame-metadata", required_argument, NULL, O_META },
		{ "validate-frame-metadata", no_argument, NULL, O_VALIDATE },
		{ "accept-older", no_argument, NULL, O_OLDER },
		{ "accept-cut", no_argument, NULL, O_CUT },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->top = 20;
	o->arch = host_arch();
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			cli_usage(attr_usage);
			fputs(attr_help, stdout);
			exit(ATTR_OK);
		case O_PERF: o->perf = optarg; break;
		case O_CWASM: o->cwasm = optarg; break;
		case O_FUNC:
			if (parse_int(optarg, &o->func))
				return usage_error("argument --func: invalid int value: '%s'", optarg);
			o->has_func = 1;
			break;
		case O_TOP:
			if (parse_int(optarg, &o->top) || o->top < 0)
				return usage_error("argument --top: invalid int value: '%s'", optarg);
			break;
		case O_BASE: o->base = optarg; break;
		case O_ARCH:
			if (strcmp(optarg, "x86_64") && strcmp(optarg, "aarch64"))
				return usage_error("argument --arch: invalid choice: '%s' (choose from "
						   "'aarch64', 'x86_64')", optarg);
			o->arch = optarg;
			break;
		case O_JSON: o->json_out = optarg; break;
		case O_MIN:
			if (parse_int(optarg, &o->min_samples))
				return usage_error("argument --min-samples: invalid int value: '%s'",
						   optarg);
			break;
		case O_MINPCT:
			if (parse_float(optarg, &o->min_pct))
				return usage_error("argument --min-attribution-pct: invalid float value:"
						   " '%s'", optarg);
			break;
		case O_AUTH: o->authoritative = 1; break;
		case O_REQ: break;	/* accepted; the size rule always holds */
		case O_META: o->frame_metadata = optarg; break;
		case O_VALIDATE: o->validate = 1; break;
		case O_OLDER: o->accept_older = 1; break;
		case O_CUT: o->accept_cut = 1; break;
		default:
			if (optopt >= 256)	/* one of ours, its value missing */
				return usage_error("argument %s: expected one argument",
						   argv[optind - 1]);
			return usage_error("unrecognized arguments: %s", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error("unrecognized arguments: %s", argv[optind]);
	if (!o->cwasm)
		return usage_error("the following arguments are required: --cwasm");
	if (!o->perf && !o->validate)
		return usage_error("--perf is required unless --validate-frame-metadata is set");
	if (o->validate && (!o->has_func || !o->frame_metadata))
		return usage_error("--validate-frame-metadata requires --func and --frame-metadata");
	if (o->frame_metadata && !o->has_func)
		return usage_error("--frame-metadata requires --func");
	if (!(o->min_pct >= 0.0 && o->min_pct <= 100.0))
		return usage_error("--min-attribution-pct must be between 0 and 100");
	if (o->authoritative && o->base)
		return usage_error("--base is a non-authoritative diagnostic override");
	return ATTR_OK;
}

/* "0x7f00/0x5000, 0x7e00/0x1000" or "none", size descending as the helper lists them. */
static void render_candidates(const struct attr_scan *s, char *buf, size_t len)
{
	size_t n = 0;
	uint32_t *order = calloc(s->nanon + 1, sizeof(*order)), k = 0;

	buf[0] = 0;
	for (uint32_t i = 0; order && i < s->nanon; i++) {
		uint32_t j = k++;

		while (j > 0 && (s->anon[order[j - 1]].len < s->anon[i].len ||
				 (s->anon[order[j - 1]].len == s->anon[i].len &&
				  s->anon[order[j - 1]].start > s->anon[i].start))) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	for (uint32_t i = 0; order && i < k && n + 48 < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s0x%" PRIx64 "/0x%" PRIx64, i ? ", " : "",
				      s->anon[order[i]].start, s->anon[order[i]].len);
	if (!k)
		snprintf(buf, len, "none");
	else if (k && n + 48 >= len)
		snprintf(buf + n, len - n, ", ...");
	free(order);
}

/* The helper's mapping rule: exactly one candidate of the expected size, or the one at --base. */
static int choose_mapping(struct attr_run *a)
{
	struct helper_report *r = &a->r;
	const struct attr_scan *s = &a->scan;
	uint32_t text = a->cs.mods[0]->text_size, matches = 0, pick = 0;
	char cands[2048];
	uint64_t base = 0;

	r->page_size = render__page_size();
	r->expected_size = ((uint64_t)text + r->page_size - 1) & ~(r->page_size - 1);
	render_candidates(s, cands, sizeof(cands));
	if (a->o.base) {
		if (ap_parse_u64(a->o.base, 16, &base))
			return fail("manual --base must be hexadecimal, got '%s'", a->o.base);
		for (uint32_t i = 0; i < s->nanon; i++)
			if (s->anon[i].start == base) {
				matches++;
				pick = i;
			}
		if (matches != 1)
			return fail("manual --base 0x%" PRIx64 " must identify exactly one anonymous "
				    "executable mmap; candidates: %s", base, cands);
		r->override = a->o.base;
	} else {
		for (uint32_t i = 0; i < s->nanon; i++)
			if (s->anon[i].len == r->expected_size) {
				matches++;
				pick = i;
			}
		if (matches != 1)
			return fail("expected exactly one anonymous executable mmap of page-rounded "
				    "size 0x%" PRIx64 " for text_size=0x%x and page_size=0x%" PRIx64
				    "; found %u exact matches among candidates: %s", r->expected_size,
				    text, r->page_size, matches, cands);
		r->map_authoritative = 1;
	}
	r->base = s->anon[pick].start;
	r->size = s->anon[pick].len;
	return ATTR_OK;
}

/* The samples: counted, gated, then attributed through the chosen mapping alone. */
static int read_perf(struct attr_run *a)
{
	struct profile_opts po = { .pid = -1, .npins = 1 };
	struct ap_err err = { 0 };
	int ret;

	/* the helper reads the file twice too; a stream cannot be */
	if (!strcmp(a->o.perf, "-"))
		return fail("--perf -: a pipe cannot be read twice; save the recording to a file");
	if (session__open(a->o.perf, &a->s, &err) || attr__scan(a->s, &a->scan, &err))
		return fail("%s", err.msg);
	if (attr_compat__recording(a->o.perf, &a->scan, a->o.accept_cut, &err))
		return fail("%s", err.msg);
	if (a->scan.truncated) {
		/* part of the run: said, never authoritative (docs/helper-interface.md) */
		profile__cut_words(a->scan.bytes_read, a->scan.bytes_expected, a->cut,
				   sizeof(a->cut));
		if (a->o.authoritative)
			return fail("--authoritative: %s: cut short: %s", a->o.perf, a->cut);
		cli_warn("attr", "%s: cut short: %s", a->o.perf, a->cut);
	}
	if (!a->scan.samples)
		return fail("no samples in perf data");
	if (a->o.min_samples > 0 && a->scan.samples < (uint64_t)a->o.min_samples)
		return fail("perf data has only %" PRIu64 " self samples; --min-samples requires "
			    "at least %" PRId64, a->scan.samples, a->o.min_samples);
	ret = choose_mapping(a);
	if (ret)
		return ret;
	po.pins = &a->r.base;
	if (profile__read(a->s, &a->cs, &po, &a->p, &err))
		return fail("%s", err.msg);
	/* the helper's keys keep their meaning; another build is said on stderr, as report says it */
	if (profile__require_consistent(a->p, &err))
		cli_warn("attr", "%s", err.msg);
	return ATTR_OK;
}

static int static_profile(struct attr_run *a)
{
	struct ap_err err = { 0 };

	if (profile__new(&a->cs, NULL, 0, NULL, &a->p, &err) || profile__finish(a->p, &err))
		return fail("%s", err.msg);
	return ATTR_OK;
}

static int classify(struct attr_run *a)
{
	const struct cwasm_module *m = a->cs.mods[0];
	struct ap_err err = { 0 };

	if (a->o.func < 0 || a->o.func >= m->nfuncs)
		return fail("--func %" PRId64 " out of range (0..%d)", a->o.func, (int)m->nfuncs - 1);
	if (!m->funcs[a->o.func].size)
		return fail("local_func=%" PRId64 " has an empty or ambiguous native range",
			    a->o.func);
	if (profile__add_func(a->p, NULL, 0, (uint32_t)a->o.func, &err) ||
	    (a->o.frame_metadata && profile__set_sidecar(a->p, 0, a->o.frame_metadata, &err)) ||
	    profile__classify(a->p, NULL, &err))
		return fail("%s", err.msg);
	a->r.f = &a->p->funcs[0];
	return ATTR_OK;
}

static int check_target(const struct attr_run *a)
{
	const struct cwasm_module *m = a->cs.mods[0];
	const char *arch = cwasm_arch__name(m->target.arch);

	if (!a->o.arch)
		return fail("unsupported disassembly architecture; expected x86_64 or aarch64");
	/* a container without target info (v6 and older) leaves it to --arch */
	if (m->has_target_info && arch && strcmp(arch, a->o.arch))
		return fail("artifact target architecture %s does not match --arch %s", arch,
			    a->o.arch);
	return ATTR_OK;
}

/* --json-out replaces none of the inputs (the helper would; aotperf never does). */
static int check_output(const struct attr_run *a, struct ap_err *err)
{
	struct ap_input in[2] = { { .name = a->o.perf }, { .name = a->o.frame_metadata } };
	size_t n = 0;

	for (size_t i = 0; i < 2; i++)
		if (in[i].name && !ap_file_id__of(in[i].name, &in[i].id))
			in[n++] = in[i];
	if (ap_file__check_output(a->o.json_out, in, n, err))
		return -1;
	return ap_file__check_output(a->o.json_out, a->cs.inputs, a->cs.ninputs, err);
}

static int run(struct attr_run *a)
{
	struct helper_report *r = &a->r;
	struct ap_err err = { 0 };
	const struct attr_core *c;
	int ret;

	if (core_set__add_cwasm(&a->cs, a->o.cwasm, &err)) {
		struct ap_err first;	/* the helper reads the version before any section */

		if (attr_compat__container(a->o.cwasm, NULL, a->o.accept_older, &first))
			return fail("%s", first.msg);
		return fail("%s", err.msg);
	}
	if (attr_compat__container(a->o.cwasm, a->cs.mods[0], a->o.accept_older, &err))
		return fail("%s", err.msg);
	if (a->o.json_out && check_output(a, &err))
		return fail("%s", err.msg);
	ret = check_target(a);
	if (!ret)
		ret = a->o.perf ? read_perf(a) : static_profile(a);
	if (ret)
		return ret;
	r->p = a->p;
	r->arch = a->o.arch;
	r->perf = a->o.perf;
	r->cwasm = a->o.cwasm;
	r->min_pct = a->o.min_pct;
	r->top = (uint64_t)a->o.top;
	if (a->scan.truncated) {
		/* a mapping past the cut could have been another candidate */
		r->map_authoritative = 0;
		r->truncated = 1;
		r->bytes_read = a->scan.bytes_read;
		r->bytes_expected = a->scan.bytes_expected;
	}
	r->authoritative = a->o.authoritative && a->o.perf && r->map_authoritative;
	c = &a->p->attr.cores[0];
	if (a->o.perf) {
		double pct = ap_pct(c->samples, a->p->attr.total_samples);

		render__helper_text_head(stdout, r);
		if (pct < a->o.min_pct)
			return fail("cwasm attribution coverage %.4f%% (%" PRIu64 "/%" PRIu64 ") is "
				    "below required %.4f%%", pct, c->samples,
				    a->p->attr.total_samples, a->o.min_pct);
		render__helper_text_top(stdout, r);
	}
	if (a->o.has_func) {
		ret = classify(a);
		if (ret)
			return ret;
		render__helper_text_func(stdout, r);
	}
	fflush(stdout);
	if (a->o.json_out && render__helper_json_file(a->o.json_out, r, &err))
		return fail("%s", err.msg);
	return ATTR_OK;
}

int cmd_attr(int argc, char **argv)
{
	struct attr_run a = { .o = { .func = -1 } };
	int ret = parse_args(argc, argv, &a.o);

	if (ret)
		return ret;
	ret = run(&a);
	profile__delete(a.p);
	session__delete(a.s);
	attr_scan__exit(&a.scan);
	core_set__exit(&a.cs);
	return ret;
}
