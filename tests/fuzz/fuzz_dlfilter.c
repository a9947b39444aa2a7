// SPDX-License-Identifier: MIT
// fuzz-options: -max_len=1024
/*
 * Fuzz target: the dlfilter's arguments (plugin/). The input is a list of
 * --dlarg values, one per line, handed to the plugin's start() through a
 * fake perf_dlfilter_fns.args, in a scratch folder holding two small cores
 * (a.cwasm, b.cwasm) and a manifest of both (m.cwasm.json) that arguments
 * may name. When start() accepts them, a few samples go through
 * filter_event() (resolve_ip finds no map: nothing is located) and stop()
 * writes the summary: what a `perf script --dlfilter` run does with them.
 *
 * The plugin's sources are compiled into the target, as into the .so.
 * out= and json= may only name files in the scratch folder (no '/' in the
 * value): a fuzzed path must not overwrite anything outside it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"

#if __has_include(<perf/perf_dlfilter.h>)
#include "../../plugin/aotperf-dlfilter.c"
#include "../../plugin/summary.c"
#include "../../util/sha256.h"

#define MAX_ARGS 32

static char *args[MAX_ARGS + 2];
static int nargs;
static int ready;

static char **fake_args(void *ctx, int *dlargc)
{
	(void)ctx;
	*dlargc = nargs;
	return args;
}

static const struct perf_dlfilter_al *fake_resolve_ip(void *ctx)
{
	(void)ctx;
	return NULL;
}

/* One core of n functions; the same bytes every run. */
static void make_core(const char *name, uint32_t n, char hex[65])
{
	static const uint8_t text[256] = { 0xc3 };
	uint32_t offs[8];
	struct cwasm_spec s = { 0 };
	struct ap_err err = { 0 };
	uint8_t *buf, d[32];
	size_t len;

	for (uint32_t i = 0; i < n; i++)
		offs[i] = i * 16;
	s.version = 7;
	cwasm_target__spec(&s.ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	s.text = text;
	s.text_size = sizeof(text);
	s.nfuncs = n;
	s.offsets = offs;
	if (cwasm__build(&s, &buf, &len, &err)) {
		fprintf(stderr, "%s: %s\n", name, err.msg);
		abort();
	}
	fuzz_file(name, buf, len);
	ap_sha256(buf, len, d);
	ap_sha256_hex(d, hex);
	free(buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char sa[65], sb[65], man[512];

	(void)argc;
	(void)argv;
	make_core("a.cwasm", 3, sa);
	make_core("b.cwasm", 8, sb);
	snprintf(man, sizeof(man), "{\"version\":2,\"modules\":["
		 "{\"idx\":0,\"path\":\"a.cwasm\",\"sha256\":\"%s\"},"
		 "{\"idx\":4,\"path\":\"b.cwasm\",\"sha256\":\"%s\"}]}", sa, sb);
	fuzz_file("m.cwasm.json", man, strlen(man));
	/* arguments name the scratch files by their bare names */
	if (chdir(fuzz_dir()))
		abort();
	perf_dlfilter_fns.args = fake_args;
	perf_dlfilter_fns.resolve_ip = fake_resolve_ip;
	ready = 1;
	return 0;
}

/* An output argument that could reach outside the scratch folder. */
static int escapes(const char *a)
{
	return (!strncmp(a, "out=", 4) || !strncmp(a, "json=", 5)) && strchr(a, '/');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *p, *nl;
	struct perf_dlfilter_sample s;
	void *d = NULL;
	int has_out = 0;

	if (!ready)
		LLVMFuzzerInitialize(NULL, NULL);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	nargs = 0;
	for (p = text; nargs < MAX_ARGS; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		else if (!*p)
			break;	/* nothing after the last newline */
		if (escapes(p))
			goto out;
		has_out |= !strncmp(p, "out=", 4);
		args[nargs++] = p;
		if (!nl)
			break;
	}
	/* the summary goes to a file, not the fuzzer's stderr */
	if (!has_out)
		args[nargs++] = "out=/dev/null";
	args[nargs] = NULL;
	if (start(&d, NULL)) {
		FUZZ_ASSERT(!d);
		goto out;
	}
	FUZZ_ASSERT(d);
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	for (int i = 0; i < 3; i++) {
		s.ip = 0x7f0000001000ULL + (uint64_t)i * 64;
		s.pid = s.tid = 42;
		(void)filter_event(d, &s, NULL);
	}
	(void)stop(d, NULL);
out:
	free(text);
	return 0;
}

int fuzz_write_seeds(const char *dir)
{
	static const char *const seeds[] = {
		"a.cwasm\n",
		"m.cwasm.json\nfunc=mod4:3\ntop=2\nquiet\n",
		"a.cwasm\nb.cwasm\nbase=7f0000000000\nbase=0x7f0000010000\nevent=cpu-clock\n",
		"m.cwasm.json\nfunc=local_func_1\nroles=vmctx=rcx,membase=none\njson=o.json\n",
		"a.cwasm\nfunc=99\n",
		"fucn=1\n",
		"help\n",
		"a.cwasm\nout=s.txt\njson=s.json\ntop=0\n",
	};
	char name[32];

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		snprintf(name, sizeof(name), "args-%zu.txt", i);
		fuzz_write(dir, name, seeds[i], strlen(seeds[i]));
	}
	return 0;
}

#else	/* no <perf/perf_dlfilter.h>: no plugin to fuzz */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0;
}
#endif
