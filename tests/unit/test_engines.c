// SPDX-License-Identifier: MIT
/*
 * engines/ tests.
 *
 *   test_engines          built-in tests: name parsers, synthetic ELF files
 *                         and jitdumps with Wasmtime and V8 names, a
 *                         synthetic perf.data mapping them over time, role
 *                         inference and classes on assembled code
 *   test_engines --dump PERF|- [--cwasm F] [--imports N] [--jitdump J]...
 *                [--dir D]... [--elf E]... [--pid P] [--classify WASM_INDEX]...
 *                         the reader's view, one record a line, for
 *                         tests/e2e/engines_v8.sh (PERF "-": jitdumps only):
 *     TOTAL total engine wasm wrappers unresolved
 *     CODE samples wasm_index raw_name          every wasm code object
 *     FUNC wasm local samples tier_word name    every function
 *     WARN text
 *     ROLES wasm status vmctx membase field used_bytes
 *     CLASS wasm class samples static
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "engines/engines.h"
#include "decode/decode.h"
#include "check.h"

/* ---- --dump ---- */

static const char *reg(uint8_t r)
{
	return r ? dc__reg_name(CWASM_ARCH_X86_64, r) : "none";
}

static void dump_classes(const struct eng_profile *p, uint32_t wasm)
{
	const struct eng_func *f = engines__find(p, 0, wasm);
	static const char *const st[] = { "none", "vmctx", "found", "ambiguous" };
	struct eng_classes c;
	struct ap_err err;

	if (!f || engines__classify(p, f, &c, &err)) {
		printf("NOCLASS %u %s\n", wasm, f ? err.msg : "no such function");
		return;
	}
	printf("ROLES %u %s %s %s %" PRId64 " %" PRIu64 "\n", wasm, st[c.roles.status],
	       reg(c.roles.roles.vmctx), reg(c.roles.roles.membase), c.roles.membase_field,
	       c.code_used);
	for (int k = 0; k < CLS__COUNT; k++)
		printf("CLASS %u %s %" PRIu64 " %u%s\n", wasm, cls__name(k), c.table.samples[k],
		       c.table.static_count[k], c.unavailable & (1u << k) ? " n/a" : "");
	engines__print_classes(stdout, &c);
	eng_classes__exit(&c);
}

static int dump(int argc, char **argv)
{
	const char *list[4][32];
	uint32_t nl[4] = { 0 }, ncls = 0, cls_idx[32];
	struct cwasm_module *mod = NULL;
	struct eng_profile *p;
	struct eng_opts o;
	struct ap_err err;
	const char *perf = argv[2];

	eng_opts__init(&o);
	for (int i = 3; i + 1 < argc; i += 2) {
		const char *a = argv[i], *v = argv[i + 1];

		if (!strcmp(a, "--cwasm") && cwasm__read(v, &mod, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			return 2;
		} else if (!strcmp(a, "--imports")) {
			o.import_func_count = atoll(v);
		} else if (!strcmp(a, "--pid")) {
			o.pid = atoi(v);
		} else if (!strcmp(a, "--classify") && ncls < 32) {
			cls_idx[ncls++] = (uint32_t)atoi(v);
		} else if (!strcmp(a, "--jitdump") && nl[0] < 32) {
			list[0][nl[0]++] = v;
		} else if (!strcmp(a, "--dir") && nl[1] < 32) {
			list[1][nl[1]++] = v;
		} else if (!strcmp(a, "--elf") && nl[2] < 32) {
			list[2][nl[2]++] = v;
		}
	}
	o.wamr = mod;
	o.jitdumps = list[0];
	o.njitdumps = nl[0];
	o.dirs = list[1];
	o.ndirs = nl[1];
	o.elf_files = list[2];
	o.nelf_files = nl[2];
	if (engines__open(strcmp(perf, "-") ? perf : NULL, &o, &p, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		cwasm__delete(mod);
		return 2;
	}
	{
		const struct eng_summary *s = engines__summary(p);

		printf("TOTAL %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
		       s->total_samples, s->engine_samples, s->wasm_samples, s->wrapper_samples,
		       s->unresolved_samples, eng_engine__name(s->engine));
	}
	for (uint32_t i = 0; i < engines__ncodes(p); i++) {
		const struct eng_code *c = engines__code(p, i);

		if (c->wasm_index >= 0)
			printf("CODE %" PRIu64 " %" PRId64 " %s\n", c->samples, c->wasm_index,
			       c->raw_name);
	}
	for (uint32_t i = 0; i < engines__nfuncs(p); i++) {
		const struct eng_func *f = engines__func(p, i);
		const struct eng_code *b = engines__code(p, (uint32_t)f->best);

		printf("FUNC %u %" PRId64 " %" PRIu64 " %s %s %s\n", f->wasm_index, f->local_func,
		       f->samples, b->name.tier_name ? b->name.tier_name : "-",
		       f->kind == ENG_KIND_WRAPPER ? "wrapper" : "function",
		       f->name ? f->name : "-");
	}
	for (uint32_t i = 0; i < engines__nwarnings(p); i++)
		printf("WARN %s\n", engines__warning(p, i));
	for (uint32_t i = 0; i < ncls; i++)
		dump_classes(p, cls_idx[i]);
	engines__print_functions(stdout, p, 20);
	engines__delete(p);
	cwasm__delete(mod);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--dump"))
		return dump(argc, argv);
	CHECK_DONE();
}
