// SPDX-License-Identifier: MIT
// fuzz-seeds: build/fixtures/comp.cwasm.json
// fuzz-options: -max_len=4096
/*
 * Fuzz target: the component manifest reader. cwasm_manifest__read() takes
 * a path and loads the cores the manifest names relative to its folder, so
 * the input is written as m.cwasm.json into a scratch folder that holds two
 * small cores, a.cwasm and b.cwasm, made at start by the writer.
 *
 * Seeds: manifests of those cores (right hashes, one wrong, duplicate idx,
 * nested and escaped JSON), see fuzz_write_seeds().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cwasm/cwasm.h"
#include "util/sha256.h"
#include "fuzz.h"

static char sha_a[65], sha_b[65];

/* One core of n functions; its bytes and sha256 are the same every run. */
static void make_core(const char *name, uint32_t n, char hex[65])
{
	static const uint8_t text[256] = { 0xc3 };
	uint32_t offs[8];
	struct cwasm_spec s = { 0 };
	struct ap_err err = { 0 };
	uint8_t *buf, d[32];
	size_t len;
	uint32_t i;

	for (i = 0; i < n; i++)
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
	(void)argc;
	(void)argv;
	make_core("a.cwasm", 3, sha_a);
	make_core("b.cwasm", 8, sha_b);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cwasm_manifest *man = NULL;
	struct ap_err err = { 0 };
	const char *p;
	uint32_t i;

	if (!sha_a[0])
		LLVMFuzzerInitialize(NULL, NULL);
	p = fuzz_file("m.cwasm.json", data, size);
	if (cwasm_manifest__read(p, &man, &err)) {
		FUZZ_ASSERT(err.msg[0] && strlen(err.msg) < sizeof(err.msg));
		return 0;
	}
	FUZZ_ASSERT(man->ncores > 0);
	for (i = 0; i < man->ncores; i++) {
		FUZZ_ASSERT(man->cores[i] && man->cores[i]->core_label);
		(void)strlen(man->cores[i]->path);
	}
	cwasm_manifest__delete(man);
	return 0;
}

int fuzz_write_seeds(const char *dir)
{
	char buf[1024];

	LLVMFuzzerInitialize(NULL, NULL);
	snprintf(buf, sizeof(buf),
		 "{\"version\":2,\"wamr_build_id\":\"seed\",\"component_sha256\":\"%s\","
		 "\"modules\":[{\"idx\":0,\"path\":\"a.cwasm\",\"sha256\":\"%s\","
		 "\"core_sha256\":\"%s\"},{\"idx\":1,\"path\":\"b.cwasm\",\"sha256\":\"%s\"}]}",
		 sha_a, sha_a, sha_b, sha_b);
	fuzz_write(dir, "two-cores.json", buf, strlen(buf));
	snprintf(buf, sizeof(buf),
		 "{\"version\":1,\"modules\":[{\"idx\":3,\"path\":\"./b.cwasm\",\"sha256\":\"%s\"}],"
		 "\"extra\":[1,-2.5e3,true,false,null,{\"k\\u00e9\":\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"}]}",
		 sha_b);
	fuzz_write(dir, "one-core-extra.json", buf, strlen(buf));
	snprintf(buf, sizeof(buf),
		 "{\"version\":2,\"modules\":[{\"idx\":0,\"path\":\"a.cwasm\",\"sha256\":\"%s\"},"
		 "{\"idx\":0,\"path\":\"b.cwasm\",\"sha256\":\"%s\"}]}", sha_a, sha_b);
	fuzz_write(dir, "dup-idx.json", buf, strlen(buf));
	snprintf(buf, sizeof(buf),
		 "{\"version\":2,\"modules\":[{\"idx\":0,\"path\":\"a.cwasm\",\"sha256\":\"%s\"}]}",
		 sha_b);
	fuzz_write(dir, "wrong-hash.json", buf, strlen(buf));
	return 0;
}
