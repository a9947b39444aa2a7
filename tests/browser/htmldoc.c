// SPDX-License-Identifier: MIT
/*
 * Test helper for the HTML report (tests/browser/exports.sh): pages of
 * generated documents (a big stack tree, a diff, 20,000 functions) and of
 * bad ones; the real report's pages come from aotperf report --html.
 *
 *   htmldoc page DOC.json OUT.html
 *       html__write() of a document file.
 *   htmldoc gen OUT.html --functions N [--stacks] [--diff] [--doc OUT.json]
 *       A generated document (html__write_emit), values known by
 *       construction; --doc also writes the document itself.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../render/html.h"
#include "../../render/html_data.h"
#include "../../classify/classify.h"
#include "../../util/json_out.h"
#include "../../util/outfile.h"

static void die(const char *msg)
{
	fprintf(stderr, "htmldoc: %s\n", msg);
	exit(2);
}

static void die_err(const struct ap_err *err)
{
	die(err->msg);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);

	if (!f || !buf)
		die("cannot read input");
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				die("out of memory");
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	*len = n;
	return buf;
}

static int cmd_page(int argc, char **argv)
{
	struct ap_err err;
	size_t len;
	char *doc;

	if (argc != 2)
		die("page: DOC.json OUT.html");
	doc = slurp(argv[0], &len);
	if (html__write(argv[1], doc, len, &err))
		die_err(&err);
	free(doc);
	return 0;
}

/* ---- a generated document ---- */

struct gen {
	uint32_t nfuncs;
	int stacks, diff;
	uint64_t *samples;
	uint64_t total, in_wasm;
	uint32_t top[20];
};

/* Self samples of function i, by construction: a few hot, most cold. */
static uint64_t gen_samples(uint32_t i)
{
	if (i % 1000 == 7)
		return 5000 - i / 10;
	if (i % 97 == 3)
		return 40 + i % 50;
	return (i * 2654435761u) % 7 == 0 ? (i % 5) : 0;
}

static void gen_name(uint32_t i, char *buf, size_t len)
{
	if (i % 3 == 0)
		buf[0] = 0;
	else if (i % 1000 == 7)
		snprintf(buf, len, "hot_kernel_%u<T>&\"x\"", i);
	else
		snprintf(buf, len, "fn_%u", i);
}

static void gen_init(struct gen *g)
{
	g->samples = calloc(g->nfuncs, sizeof(uint64_t));
	if (!g->samples)
		die("out of memory");
	for (uint32_t i = 0; i < g->nfuncs; i++) {
		g->samples[i] = gen_samples(i);
		g->in_wasm += g->samples[i];
	}
	g->total = g->in_wasm + 1234;
	for (uint32_t k = 0; k < 20; k++) {
		uint32_t best = 0;
		uint64_t bs = 0;

		for (uint32_t i = 0; i < g->nfuncs; i++) {
			int used = 0;

			for (uint32_t q = 0; q < k; q++)
				used |= g->top[q] == i;
			if (!used && g->samples[i] > bs) {
				bs = g->samples[i];
				best = i;
			}
		}
		g->top[k] = best;
	}
}

/* A listing of 64 instructions cycling through the classes, 24 data bytes at 0x80. */
static void gen_listing(struct json_out *j, const struct gen *g, uint32_t fn)
{
	char text[64], name[64];
	uint64_t left = g->samples[fn];
	uint32_t off = 0;

	gen_name(fn, name, sizeof(name));
	json_begin_obj(j);
	json_key(j, "core");
	json_str(j, "gen.cwasm");
	json_key(j, "local_func");
	json_u64(j, fn);
	json_key(j, "name");
	json_str(j, name[0] ? name : NULL);
	json_key(j, "samples");
	json_u64(j, g->samples[fn]);
	json_key(j, "code_bytes");
	json_u64(j, 64 * 4 + 24);
	json_key(j, "insns");
	json_begin_arr(j);
	for (uint32_t i = 0; i < 65; i++) {
		enum cls_class c = i == 32 ? CLS_DATA : (enum cls_class)(i % CLS_DATA);
		uint64_t s = i == 64 ? left : (i == 32 ? 0 : g->samples[fn] * (i % 7) / 300);
		uint32_t size = c == CLS_DATA ? 24 : 4;

		if (s > left)
			s = left;
		left -= s;
		snprintf(text, sizeof(text), c == CLS_DATA ? "(24 bytes of data)" : "%s_op r%u, r%u",
			 cls__name(c), i % 16, (i * 7) % 16);
		json_begin_obj(j);
		json_key(j, "offset");
		json_u64(j, off);
		json_key(j, "size");
		json_u64(j, size);
		json_key(j, "bytes");
		json_str(j, c == CLS_DATA ? "00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f" : "48 89 c3 90");
		json_key(j, "text");
		json_str(j, text);
		json_key(j, "class");
		json_str(j, cls__name(c));
		json_key(j, "samples");
		json_u64(j, s);
		json_end_obj(j);
		off += size;
	}
	json_end_arr(j);
	json_key(j, "data_ranges");
	json_begin_arr(j);
	json_begin_obj(j);
	json_key(j, "start");
	json_u64(j, 32 * 4);
	json_key(j, "end");
	json_u64(j, 32 * 4 + 24);
	json_end_obj(j);
	json_end_arr(j);
	json_end_obj(j);
}

/*
 * The stack tree: _start > main > wamr_invoke > (a chain of 1..3 wasm
 * frames) for each hot function, a kernel leaf under some; flat nodes.
 */
static void gen_stacks(struct json_out *j, const struct gen *g)
{
	struct html_stack_node n;
	char name[96], wasm[64];
	uint64_t in_top = 0;
	int64_t idx = 0;

	for (uint32_t k = 0; k < 20; k++)
		in_top += g->samples[g->top[k]];
	json_key(j, "stacks");
	json_begin_obj(j);
	json_key(j, "nodes");
	json_begin_arr(j);
	n = (struct html_stack_node){ -1, "_start", "host", 0, in_top + 300, NULL, -1 };
	html_data__stack_node(j, &n);
	n = (struct html_stack_node){ 0, "main", "host", 0, in_top + 300, NULL, -1 };
	html_data__stack_node(j, &n);
	n = (struct html_stack_node){ 1, "wamr_runtime_invoke", "host", 100, in_top + 100, NULL, -1 };
	html_data__stack_node(j, &n);
	n = (struct html_stack_node){ 1, "load_and_instantiate", "host", 200, 200, NULL, -1 };
	html_data__stack_node(j, &n);
	idx = 4;
	for (uint32_t k = 0; k < 20; k++) {
		uint32_t fn = g->top[k];
		uint64_t s = g->samples[fn], kern = k % 4 == 0 ? s / 5 : 0;
		int64_t parent = 2;
		uint32_t depth = 1 + k % 3;

		for (uint32_t d = 0; d < depth; d++) {
			uint32_t f = d + 1 == depth ? fn : (fn + 1 + d) % g->nfuncs;

			gen_name(f, wasm, sizeof(wasm));
			snprintf(name, sizeof(name), "local_func_%u%s%s", f, wasm[0] ? ":" : "", wasm);
			n = (struct html_stack_node){ parent, name, "wasm",
						      d + 1 == depth ? s - kern : 0, s, "gen.cwasm", f };
			html_data__stack_node(j, &n);
			parent = idx++;
		}
		if (kern) {
			n = (struct html_stack_node){ parent, "asm_sysvec_apic_timer_interrupt", "kernel",
						      kern, kern, NULL, -1 };
			html_data__stack_node(j, &n);
			idx++;
		}
	}
	json_end_arr(j);
	json_end_obj(j);
}

static void gen_diff(struct json_out *j, const struct gen *g)
{
	char name[64];

	json_key(j, "diff");
	json_begin_obj(j);
	json_key(j, "before");
	json_begin_obj(j);
	json_key(j, "label");
	json_str(j, "before.data");
	json_key(j, "total_samples");
	json_u64(j, g->total);
	json_end_obj(j);
	json_key(j, "after");
	json_begin_obj(j);
	json_key(j, "label");
	json_str(j, "after.data");
	json_key(j, "total_samples");
	json_u64(j, g->total);
	json_end_obj(j);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t k = 0; k < 20; k++) {
		uint32_t fn = g->top[k];
		/* the 1st gets 30% slower, the 2nd 50% faster, the rest move a little */
		uint64_t b = g->samples[fn], a = k == 0 ? b * 13 / 10 : k == 1 ? b / 2 : b + k;
		struct html_diff_func d;

		gen_name(fn, name, sizeof(name));
		d = (struct html_diff_func){ .core = "gen.cwasm", .local_func = fn,
					     .name = name[0] ? name : NULL, .before = b, .after = a };
		html_data__diff_func(j, &d);
	}
	json_end_arr(j);
	json_key(j, "classes");
	json_begin_arr(j);
	for (uint32_t k = 0; k < 2; k++) {
		json_begin_obj(j);
		json_key(j, "core");
		json_str(j, "gen.cwasm");
		json_key(j, "local_func");
		json_u64(j, g->top[k]);
		for (int side = 0; side < 2; side++) {
			json_key(j, side ? "after" : "before");
			json_begin_obj(j);
			for (int c = 0; c < CLS__COUNT; c++) {
				json_key(j, cls__name((enum cls_class)c));
				json_u64(j, (uint64_t)((c * 7 + k + 1) % 11) * (side ? (c == CLS_FRAME_LOAD ? 1 : 3) : 3));
			}
			json_end_obj(j);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
	json_end_obj(j);
}

static int gen_emit(struct json_out *j, void *arg, struct ap_err *err)
{
	const struct gen *g = arg;
	char name[64];

	(void)err;
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, "htmldoc gen");
	json_key(j, "perf");
	json_str(j, "generated.data");
	json_key(j, "event");
	json_str(j, "cpu-clock");
	json_key(j, "cwasm");
	json_str(j, "gen.cwasm");
	json_key(j, "core");
	json_str(j, "gen.cwasm");
	json_key(j, "text_base");
	json_hex(j, 0x7f0000000000ull);
	json_key(j, "text_size");
	json_u64(j, (uint64_t)g->nfuncs * 200);
	json_key(j, "function_count");
	json_u64(j, g->nfuncs);
	json_key(j, "total_samples");
	json_u64(j, g->total);
	json_key(j, "attributed_samples");
	json_u64(j, g->in_wasm);
	json_key(j, "attribution_coverage_pct");
	json_dbl(j, 100.0 * (double)g->in_wasm / (double)g->total, 4);
	json_key(j, "mapping");
	json_begin_obj(j);
	json_key(j, "authoritative");
	json_bool(j, 1);
	json_key(j, "override");
	json_null(j);
	json_key(j, "size");
	json_u64(j, ((uint64_t)g->nfuncs * 200 + 4095) / 4096 * 4096);
	json_key(j, "count");
	json_u64(j, 1);
	json_end_obj(j);
	json_key(j, "top_functions");
	json_begin_arr(j);
	for (uint32_t k = 0; k < 20; k++) {
		gen_name(g->top[k], name, sizeof(name));
		json_begin_obj(j);
		json_key(j, "local_func");
		json_u64(j, g->top[k]);
		json_key(j, "name");
		json_str(j, name[0] ? name : NULL);
		json_key(j, "samples");
		json_u64(j, g->samples[g->top[k]]);
		json_end_obj(j);
	}
	json_end_arr(j);
	json_key(j, "functions");
	json_begin_arr(j);
	for (uint32_t i = 0; i < g->nfuncs; i++) {
		gen_name(i, name, sizeof(name));
		json_begin_arr(j);
		json_u64(j, i);
		json_u64(j, g->samples[i]);
		json_u64(j, 16 + (i * 37) % 500);
		json_str(j, name[0] ? name : NULL);
		json_end_arr(j);
	}
	json_end_arr(j);
	json_key(j, "listings");
	json_begin_arr(j);
	for (uint32_t k = 0; k < 3; k++)
		gen_listing(j, g, g->top[k]);
	json_end_arr(j);
	if (g->stacks)
		gen_stacks(j, g);
	if (g->diff)
		gen_diff(j, g);
	json_end_obj(j);
	json_finish(j);
	return 0;
}

static int cmd_gen(int argc, char **argv)
{
	struct gen g = { 0 };
	const char *out = NULL, *docpath = NULL;
	struct ap_err err;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--functions") && i + 1 < argc)
			g.nfuncs = (uint32_t)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--stacks"))
			g.stacks = 1;
		else if (!strcmp(argv[i], "--diff"))
			g.diff = 1;
		else if (!strcmp(argv[i], "--doc") && i + 1 < argc)
			docpath = argv[++i];
		else if (!out && argv[i][0] != '-')
			out = argv[i];
		else
			die("gen: OUT.html --functions N [--stacks] [--diff] [--doc OUT.json]");
	}
	if (!out || g.nfuncs < 100)
		die("gen: OUT.html and --functions N (at least 100) are needed");
	gen_init(&g);
	if (html__write_emit(out, gen_emit, &g, &err))
		die_err(&err);
	if (docpath) {
		struct outfile o;
		struct json_out j;

		if (outfile__open(&o, docpath, &err))
			die_err(&err);
		json_init(&j, o.f);
		gen_emit(&j, &g, &err);
		if (outfile__commit(&o, &err))
			die_err(&err);
	}
	free(g.samples);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		die("usage: htmldoc page|gen ...");
	if (!strcmp(argv[1], "page"))
		return cmd_page(argc - 2, argv + 2);
	if (!strcmp(argv[1], "gen"))
		return cmd_gen(argc - 2, argv + 2);
	die("usage: htmldoc page|gen ...");
	return 2;
}
