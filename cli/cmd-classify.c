// SPDX-License-Identifier: MIT
/* aotperf classify: the instruction-class table of `perf annotate --stdio` output. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../cwasm/name.h"
#include "../classify/annotate.h"
#include "../render/annotate.h"
#include "../util/file.h"

/* perf annotate text of one big function is a few MB; a bound all the same */
#define CLASSIFY_INPUT_MAX ((size_t)1 << 30)

static const char classify_usage[] =
	"usage: aotperf classify [--arch ARCH] [--roles SPEC] [--text] [--top N]\n"
	"                        [--json FILE] [--classes] [FILE|-]\n"
	"\n"
	"Read `perf annotate --stdio` output (Intel or AT&T syntax, with or without\n"
	"--asm-raw, percentages or -n counts, one or several symbols) and print the\n"
	"instruction-class table of each symbol. Raw bytes are decoded with capstone;\n"
	"without them the instruction text is parsed, to the same table where the\n"
	"text allows it; where it does not (a jump table's end hidden by objdump's\n"
	"lines, undecodable bytes) an \"approximate:\" line says so and that\n"
	"`aotperf annotate` (--asm-raw) or `aotperf report --func` give the exact\n"
	"table. Registers pinned module-wide (rbx/r15, x19/x20) are found from the\n"
	"bounds checks. Percentages become sample estimates scaled to the header's\n"
	"sample total.\n"
	"\n"
	"      --arch ARCH     x86_64 (default) or aarch64; amd64, x64, x86-64, arm64\n"
	"                      too (automatic when the raw bytes are 32-bit words)\n"
	"      --roles SPEC    pin registers to roles on top of the ones inferred from\n"
	"                      the code, e.g. vmctx=rcx,membase=none,frame=rbp\n"
	"      --text          parse the instruction text even when bytes are present\n"
	"      --top N         hottest instructions to list per symbol (default 10)\n"
	"      --json FILE     also write the tables as JSON (- : to stdout, no text)\n"
	"      --classes       print the class definitions and exit\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input.\n";

struct classify_opts {
	const char *input;
	const char *json;
	uint64_t top;
	struct cls_annot_opts annot;
};

static void print_classes(void)
{
	for (int c = 0; c < CLS__COUNT; c++)
		printf("%-14s %s\n", cls__name(c), cls__desc(c));
}

static int parse_args(int argc, char **argv, struct classify_opts *o, struct ap_err *err)
{
	enum { O_ARCH = 256, O_ROLES, O_TEXT, O_TOP, O_JSON, O_CLASSES };
	static const struct option longopts[] = {
		{ "arch", required_argument, NULL, O_ARCH },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "text", no_argument, NULL, O_TEXT },
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "classes", no_argument, NULL, O_CLASSES },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->input = "-";
	o->top = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'h': cli_usage(classify_usage); exit(EXIT_OK);
		case O_CLASSES: print_classes(); exit(EXIT_OK);
		case O_ARCH:
			if (cli_parse_arch(optarg, &o->annot.arch, err))
				return -1;
			break;
		case O_ROLES: o->annot.roles = optarg; break;
		case O_TEXT: o->annot.ignore_raw = 1; break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top) || o->top > 100000)
				return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", optarg);
			break;
		case O_JSON: o->json = optarg; break;
		default:
			return cli_bad_option(err, argv, optind, "h", longopts);
		}
	}
	if (optind < argc)
		o->input = argv[optind++];
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	return 0;
}

int cmd_classify(int argc, char **argv)
{
	struct classify_opts o = { 0 };
	struct cls_annot a = { 0 };
	struct ap_err err = { 0 };
	const char *name;
	struct ap_input in = { .name = NULL };
	char *buf = NULL;
	size_t len = 0;
	int ret = EXIT_BAD;

	if (parse_args(argc, argv, &o, &err))
		return cli_fail("classify", &err);
	name = strcmp(o.input, "-") ? o.input : "<stdin>";
	in.name = name;
	/* "-" is the one stream meant; a named FIFO or device is refused */
	if (ap_file__read_all(o.input, !strcmp(o.input, "-") ? AP_FILE_STREAM : 0, CLASSIFY_INPUT_MAX,
			      &buf, &len, &in.id, &err) ||
	    (o.json && ap_file__check_output(o.json, &in, 1, &err)) ||
	    /* what it quotes back must not drive the terminal */
	    cls__annot_parse(buf, cwasm_name__scrub_text(buf, len), name, &o.annot, &a, &err))
		goto fail;
	if (o.json && render__annot_write_json(o.json, "aotperf classify", name, &a,
					       (uint32_t)o.top, &err))
		goto fail;
	if (!o.json || strcmp(o.json, "-")) {	/* else stdout holds the JSON */
		printf("aotperf classify: %s", name);
		if (render__annot_print(stdout, &a, (uint32_t)o.top, &err))
			goto fail;
	}
	ret = EXIT_OK;
	goto out;
fail:
	ret = cli_fail("classify", &err);
out:
	cls_annot__exit(&a);
	free(buf);
	return ret;
}
