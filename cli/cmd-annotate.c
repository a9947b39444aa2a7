// SPDX-License-Identifier: MIT
/* aotperf annotate: run perf annotate on one symbol and classify what it prints. */
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "annotate-sym.h"
#include "annotate-fallback.h"
#include "../cwasm/name.h"
#include "../classify/annotate.h"
#include "../render/annotate.h"
#include "../cwasm/coreset.h"
#include "../render/frames.h"
#include "../classify/classify.h"
#include "../util/file.h"
#include "../util/outfile.h"
#include "../util/perf.h"
#include "../util/run.h"

static const char annotate_usage[] =
	"usage: aotperf annotate [-i FILE] [--intel | --att] [--objdump PATH]\n"
	"                        [--arch ARCH] [--roles SPEC] [--top N] [--json FILE]\n"
	"                        [--save FILE] [--cwasm F | --manifest M] [--func F]\n"
	"                        [--frame-attribution P | --frame-metadata FILE] SYMBOL\n"
	"\n"
	"Run `perf annotate -i FILE --stdio --asm-raw -M intel SYMBOL` (perf from $PERF\n"
	"or PATH) and print the instruction-class table of what it disassembles, as\n"
	"`aotperf classify` and `report --func` do. It needs a recording that names\n"
	"the wasm code: the perf.jit.data of `aotperf inject` or `perf inject --jit`.\n"
	"SYMBOL is a symbol of it, or a function as report --func takes it: N,\n"
	"local_func_N, or its wasm name (any name with --cwasm/--manifest).\n"
	"\n"
	"  -i, --input FILE      recording to annotate (default perf.jit.data when it\n"
	"                        exists, else perf.data; one without local_func_N\n"
	"                        symbols is refused for a wasm function, saying what\n"
	"                        to run)\n"
	"      --intel           Intel syntax in the listing (the default)\n"
	"      --att             AT&T syntax in the listing\n"
	"      --objdump PATH    objdump for perf to run (e.g. aarch64-linux-gnu-objdump)\n"
	"      --arch ARCH       x86_64 (default) or aarch64; amd64, x64, x86-64, arm64\n"
	"                        too (automatic from the bytes)\n"
	"      --roles SPEC      pin registers to roles on top of the inferred ones,\n"
	"                        e.g. vmctx=rcx,membase=none,frame=rbp\n"
	"      --top N           hottest instructions to list (default 10)\n"
	"      --json FILE       also write the table as JSON (- : to stdout, no text)\n"
	"      --save FILE       keep perf annotate's output in FILE\n"
	"      --cwasm FILE, --manifest FILE\n"
	"                        the core(s) the symbol's code comes from: to look a\n"
	"                        wasm name up, and for:\n"
	"      --frame-attribution PREFIX\n"
	"                        the compiler's sidecar PREFIX.modM.funcN.json of the\n"
	"                        symbol's function: frame traffic by proven origin, and\n"
	"                        the verdict from them\n"
	"      --frame-metadata FILE  the same from that one sidecar file\n"
	"      --func F          the function when SYMBOL does not name it (N,\n"
	"                        local_func_N, a wasm name, modM:N)\n"
	"\n"
	"When perf annotate crashes or prints no instruction bytes (perf 6.12), the\n"
	"table comes from aotperf's own listing of SYMBOL: the recording's samples on\n"
	"the code of the file that defines SYMBOL; a line on stderr says so.\n"
	"\n"
	"Exit status: 0 ok, 2 bad usage or input, or perf failed.\n";

struct annotate_opts {
	const char *input;
	const char *symbol;
	const char *objdump;
	const char *json;
	const char *save;
	int att;
	uint64_t top;
	struct cls_annot_opts annot;
	struct core_set cs;		/* --cwasm, --manifest */
	const char *func;		/* --func, else the symbol */
	const char *frame_prefix;	/* --frame-attribution */
	const char *frame_meta;		/* --frame-metadata */
	int jit_default;		/* no -i: perf.jit.data was there and is read */
	char perf_symbol[512];		/* the symbol as the recording names it */
};

/* --json and --save must not replace the recording. */
static int check_outputs(const struct annotate_opts *o, struct ap_err *err)
{
	struct ap_input in = { .name = o->input };

	if (ap_file_id__of(o->input, &in.id))
		return 0;
	return (o->json && (ap_file__check_output(o->json, &in, 1, err) ||
			    ap_file__check_output(o->json, o->cs.inputs, o->cs.ninputs, err))) ||
	       (o->save && (ap_file__check_output(o->save, &in, 1, err) ||
			    ap_file__check_output(o->save, o->cs.inputs, o->cs.ninputs, err))) ? -1 : 0;
}

/* --roles before perf runs: valid for the --arch given, else for either. */
static int check_roles(const struct cls_annot_opts *a, struct ap_err *err)
{
	struct cls_roles r;

	if (a->arch != CWASM_ARCH_UNKNOWN) {
		cls__roles_default(a->arch, &r);
		return cls__roles_parse(&r, a->roles, err);
	}
	cls__roles_default(CWASM_ARCH_X86_64, &r);
	if (!cls__roles_parse(&r, a->roles, err))
		return 0;
	cls__roles_default(CWASM_ARCH_AARCH64, &r);
	return cls__roles_parse(&r, a->roles, err);
}

static int parse_args(int argc, char **argv, struct annotate_opts *o, struct ap_err *err)
{
	enum { O_INTEL = 256, O_ATT, O_OBJDUMP, O_ARCH, O_ROLES, O_TOP, O_JSON, O_SAVE, O_CWASM,
	       O_MANIFEST, O_FUNC, O_FRAME_ATTR, O_FRAME_META };
	static const struct option longopts[] = {
		{ "input", required_argument, NULL, 'i' },
		{ "intel", no_argument, NULL, O_INTEL },
		{ "att", no_argument, NULL, O_ATT },
		{ "objdump", required_argument, NULL, O_OBJDUMP },
		{ "arch", required_argument, NULL, O_ARCH },
		{ "roles", required_argument, NULL, O_ROLES },
		{ "top", required_argument, NULL, O_TOP },
		{ "json", required_argument, NULL, O_JSON },
		{ "save", required_argument, NULL, O_SAVE },
		{ "cwasm", required_argument, NULL, O_CWASM },
		{ "manifest", required_argument, NULL, O_MANIFEST },
		{ "func", required_argument, NULL, O_FUNC },
		{ "frame-attribution", required_argument, NULL, O_FRAME_ATTR },
		{ "frame-metadata", required_argument, NULL, O_FRAME_META },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	o->top = 10;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case 'h': cli_usage(annotate_usage); exit(EXIT_OK);
		case O_INTEL: o->att = 0; break;
		case O_ATT: o->att = 1; break;
		case O_OBJDUMP: o->objdump = optarg; break;
		case O_ARCH:
			if (cli_parse_arch(optarg, &o->annot.arch, err))
				return -1;
			break;
		case O_ROLES: o->annot.roles = optarg; break;
		case O_TOP:
			if (cli_parse_u64(optarg, 10, &o->top) || o->top > 100000)
				return ap_errf(err, "--top: '%s' is not a count (a whole number, 0 or more)", optarg);
			break;
		case O_JSON: o->json = optarg; break;
		case O_SAVE: o->save = optarg; break;
		case O_CWASM:
			if (core_set__add_cwasm(&o->cs, optarg, err))
				return -1;
			break;
		case O_MANIFEST:
			if (core_set__add_manifest(&o->cs, optarg, err))
				return -1;
			break;
		case O_FUNC: o->func = optarg; break;
		case O_FRAME_ATTR: o->frame_prefix = optarg; break;
		case O_FRAME_META: o->frame_meta = optarg; break;
		default:
			return cli_bad_option(err, argv, optind, "i:h", longopts);
		}
	}
	if (optind == argc)
		return ap_errf(err, "no symbol: give the function to annotate (see --help)");
	o->symbol = argv[optind++];
	if (optind < argc)
		return ap_errf(err, "unexpected argument '%s'; see --help", argv[optind]);
	if (o->frame_prefix && o->frame_meta)
		return ap_errf(err, "--frame-attribution and --frame-metadata: give one");
	if ((o->frame_prefix || o->frame_meta) && !o->cs.n)
		return ap_errf(err, "--frame-attribution and --frame-metadata need the core: "
			       "--cwasm FILE or --manifest FILE");
	if (o->annot.roles && check_roles(&o->annot, err))
		return -1;
	o->input = annotate_sym__input(o->input, &o->jit_default);
	return check_outputs(o, err);
}

/* perf annotate's stdout and stderr, captured. */
static int run_perf(const char *perf, const struct annotate_opts *o, struct ap_child *c,
		    struct ap_err *err)
{
	char *objdump_arg = NULL;
	const char *argv[16];
	int n = 0, ret;

	argv[n++] = perf;
	argv[n++] = "annotate";
	argv[n++] = "-i";
	argv[n++] = o->input;
	argv[n++] = "--stdio";
	/* sample counts, not percentages: exact, like report --func */
	argv[n++] = "-n";
	argv[n++] = "--asm-raw";
	if (!o->att) {
		argv[n++] = "-M";
		argv[n++] = "intel";
	}
	if (o->objdump) {
		if (asprintf(&objdump_arg, "--objdump=%s", o->objdump) < 0)
			return ap_err_nomem(err);
		argv[n++] = objdump_arg;
	}
	argv[n++] = "--";
	argv[n++] = o->perf_symbol;
	argv[n] = NULL;
	*c = (struct ap_child){ .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
				.stderr_io = AP_IO_CAPTURE, .capture_max = (size_t)1 << 30 };
	ret = ap_child__run(c, err);
	free(objdump_arg);
	return ret;
}

static int save_output(const char *path, const char *buf, size_t len, struct ap_err *err)
{
	struct outfile of;

	if (outfile__open(&of, path, err))
		return -1;
	if (fwrite(buf, 1, len, of.f) != len) {
		outfile__abort(&of);
		return ap_errk(err, AP_ERR_IO, "%s: write error", path);
	}
	return outfile__commit(&of, err);
}

/*
 * perf annotate printed no listing. Either it found the symbol but could
 * not disassemble it (objdump missing or failing: perf says "Couldn't
 * annotate" and why), or the symbol has no samples (perf says nothing).
 */
static void nothing_printed(const struct annotate_opts *o, const char *said, struct ap_err *err)
{
	char run[160], why[160];
	const char *p = strstr(said, "Couldn't annotate");

	run[0] = why[0] = '\0';
	if (strstr(said, "Error running"))
		ap_first_line(run, sizeof(run), said, "Error running");
	else if (strstr(said, "No output from"))
		ap_first_line(run, sizeof(run), said, "No output from");
	if (p && (p = strchr(p, '\n')))
		ap_first_line(why, sizeof(why), p + 1, NULL);
	if (p || run[0]) {
		ap_errf(err, "%s: perf annotate could not disassemble '%s': %s%s%s", o->input,
			o->perf_symbol, run[0] ? run : "", run[0] && why[0] ? "; " : "", why);
		return;
	}
	ap_errf(err, "%s: perf annotate has no samples in '%s' (perf report -i %s --sort sym"
		" lists the symbols that have some)", o->input, o->perf_symbol, o->input);
}

static int annotate(struct annotate_opts *o, struct cls_annot *a, struct ap_err *err)
{
	char perf[PATH_MAX], why[300];
	enum annot_health h;
	struct ap_err rerr = { 0 };
	struct ap_file in;
	struct ap_child c;
	int ret = -1;

	if (ap_perf__find(NULL, perf, sizeof(perf), err)) {
		ap_errf(err, "perf not found (install linux-perf / kernel-tools, or set"
			" PERF=/path/to/perf)");
		return -1;
	}
	/* perf reads it; make sure it is a file we may read first */
	if (ap_file__open(&in, o->input, 0, err))
		return -1;
	ap_file__close(&in);
	if (annotate_sym__resolve(perf, o->input, o->symbol, &o->cs, o->perf_symbol,
				  sizeof(o->perf_symbol), err) ||
	    run_perf(perf, o, &c, err))
		return -1;
	if (o->save && save_output(o->save, c.out, c.out_len, err))
		goto out;
	/* perf annotate crashed or gave no bytes (perf 6.12): our own listing */
	h = annot_health__of(&c, why, sizeof(why));
	if (h == ANNOT_CRASHES || h == ANNOT_NO_BYTES) {
		ret = annot_fallback__run(o->input, o->perf_symbol, &o->annot, why, a, err);
		goto out;
	}
	if (c.status) {
		ap_child__describe(&c, why, sizeof(why));
		ap_errf(err, "%s: perf annotate failed (%s)", o->input, why);
		goto out;
	}
	if (!memchr(c.out, '|', c.out_len)) {
		nothing_printed(o, c.err_out ? c.err_out : "", err);
		goto out;
	}
	/* what it quotes back (symbol names, instructions) must not drive the terminal */
	c.out_len = cwasm_name__scrub_text(c.out, c.out_len);
	ret = cls__annot_parse(c.out, c.out_len, o->input, &o->annot, a, err);
	/* samples objdump's lines hold for several instructions: by address */
	if (!ret && annot_fallback__resolve(o->input, o->perf_symbol, &o->annot, a, &rerr))
		cli_warn("annotate", "%s: the listing's lines over several instructions stay "
			 "unplaced", rerr.msg);
out:
	ap_child__exit(&c);
	return ret;
}

/*
 * The symbol's function in the cores and its sidecar joined with the
 * listing's samples; the class table's verdict then knows the proven
 * spills. *sc stays NULL without --frame-attribution/--frame-metadata.
 */
static int frames(const struct annotate_opts *o, struct cls_annot *a,
		  struct profile_sidecar **sc, uint64_t *unplaced, struct ap_err *err)
{
	const struct cwasm_module *m;
	struct cls_annot_func *af;
	struct core_func cf;
	const struct frames_summary *s;
	char path[4096];

	*sc = NULL;
	if (!o->frame_prefix && !o->frame_meta)
		return 0;
	if (a->n != 1)
		return ap_errf(err, "%s: perf annotate listed %u symbols for '%s'; a sidecar "
			       "needs one", o->input, a->n, o->symbol);
	if (core_set__resolve(&o->cs, o->func ? o->func : o->symbol, &cf, err))
		return ap_err_prefix(err, o->func ? "--func " : "");
	m = o->cs.mods[cf.core];
	if (o->frame_meta)
		snprintf(path, sizeof(path), "%s", o->frame_meta);
	else if (frames__path(path, sizeof(path), o->frame_prefix,
			      m->manifest_idx >= 0 ? (uint32_t)m->manifest_idx : 0, cf.func))
		return ap_errf(err, "--frame-attribution: '%s' is too long", o->frame_prefix);
	if (profile_sidecar__open(sc, path, m, cf.func, o->frame_prefix != NULL, err))
		return -1;
	if (!(*sc)->fr)
		return 0;
	af = &a->funcs[0];
	if (profile_sidecar__join_listing(*sc, m, &af->func, af->samples, unplaced, err))
		return -1;
	s = (*sc)->sum;
	cls_table__set_spills(&af->table, s->sampled_allocator_loads + s->sampled_allocator_stores,
			      s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_LOAD].insns +
				      s->origin[FRAMES_ALLOCATOR_SPILL][FRAMES_STORE].insns);
	return 0;
}

/* annotate's JSON; with a sidecar the helper's frame keys (render/frames.h) at the top. */
static int write_json(const struct annotate_opts *o, const struct cls_annot *a,
		      const struct profile_sidecar *sc, struct ap_err *err)
{
	struct json_doc d;

	if (!sc)
		return render__annot_write_json(o->json, "aotperf annotate", o->input, a,
						(uint32_t)o->top, err);
	if (json_doc__open(&d, o->json, "aotperf annotate", err))
		return -1;
	json_key(&d.j, "input"); json_str(&d.j, o->input);
	if (render__annot_json(&d.j, a, (uint32_t)o->top, err)) {
		json_doc__abort(&d);
		return -1;
	}
	if (sc->fr) {
		render__frames_json(&d.j, sc, 0, 1);
	} else {
		json_key(&d.j, "frame_metadata"); json_str(&d.j, sc->path);
		json_key(&d.j, "frame_metadata_present"); json_bool(&d.j, 0);
	}
	return json_doc__commit(&d, err);
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { 0 };
	struct cls_annot a = { 0 };
	struct ap_err err = { 0 };
	struct profile_sidecar *sc = NULL;
	uint64_t unplaced = 0;
	int ret = EXIT_BAD;

	if (parse_args(argc, argv, &o, &err) || annotate(&o, &a, &err) ||
	    frames(&o, &a, &sc, &unplaced, &err))
		goto fail;
	if (o.json && write_json(&o, &a, sc, &err))
		goto fail;
	if (!o.json || strcmp(o.json, "-")) {	/* else stdout holds the JSON */
		printf("aotperf annotate: %s %s", o.input, o.perf_symbol);
		if (render__annot_print(stdout, &a, (uint32_t)o.top, &err))
			goto fail;
		if (sc)
			render__frames_text(stdout, sc, a.funcs[0].table.total,
					    RENDER_FRAMES_LISTED);
	}
	if (unplaced)
		cli_warn("annotate", "%" PRIu64 " listed samples at offsets where the sidecar's "
			 "decode of the core starts no instruction: is the listing of this core?",
			 unplaced);
	ret = EXIT_OK;
	goto out;
fail:
	ret = cli_fail("annotate", &err);
out:
	profile_sidecar__delete(sc);
	cls_annot__exit(&a);
	core_set__exit(&o.cs);
	return ret;
}
