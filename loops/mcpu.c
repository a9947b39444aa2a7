// SPDX-License-Identifier: MIT
/*
 * The machine that recorded, as an llvm-mca -mcpu: perf's HEADER_CPUID
 * ("AuthenticAMD,26,17,0": vendor, family, model, stepping; on aarch64 the
 * MIDR "0x00000000410fd0c0") mapped to the closest model the installed
 * LLVM lists under -mcpu=help, falling back along each line of cores to
 * an older model the LLVM knows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mca.h"

int lp_cpu__from_recording(const char *cpuid, const char *cpudesc, struct lp_cpu *c)
{
	memset(c, 0, sizeof(*c));
	if (!cpuid || !*cpuid)
		return -1;
	snprintf(c->cpuid, sizeof(c->cpuid), "%s", cpuid);
	snprintf(c->desc, sizeof(c->desc), "%s", cpudesc ? cpudesc : "");
	snprintf(c->source, sizeof(c->source), "the recording's cpuid");
	return 0;
}

/* "key : value" of /proc/cpuinfo's first processor, or "". */
static void cpuinfo(const char *text, const char *key, char *out, size_t n)
{
	const char *s = text;

	*out = 0;
	while (s && *s) {
		size_t kl = strlen(key);

		if (!strncmp(s, key, kl) && (s[kl] == ' ' || s[kl] == '\t' || s[kl] == ':')) {
			const char *v = strchr(s, ':');

			if (v) {
				v += 1 + (v[1] == ' ');
				snprintf(out, n, "%.*s", (int)strcspn(v, "\n"), v);
			}
			return;
		}
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
}

void lp_cpu__host(struct lp_cpu *c)
{
	char text[8192] = "", v[24], fam[8], model[8], step[8];
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t n = f ? fread(text, 1, sizeof(text) - 1, f) : 0;

	if (f)
		fclose(f);
	text[n] = 0;
	memset(c, 0, sizeof(*c));
	snprintf(c->source, sizeof(c->source), "this machine (no cpuid recorded)");
	cpuinfo(text, "vendor_id", v, sizeof(v));
	if (*v) {
		cpuinfo(text, "cpu family", fam, sizeof(fam));
		cpuinfo(text, "model", model, sizeof(model));
		cpuinfo(text, "stepping", step, sizeof(step));
		snprintf(c->cpuid, sizeof(c->cpuid), "%s,%s,%s,%s", v, fam, model, step);
		cpuinfo(text, "model name", c->desc, sizeof(c->desc));
		return;
	}
	cpuinfo(text, "CPU implementer", fam, sizeof(fam));
	cpuinfo(text, "CPU part", model, sizeof(model));
	if (*fam && *model)
		snprintf(c->cpuid, sizeof(c->cpuid), "0x%08lx",
			 (strtoul(fam, NULL, 0) << 24) | (strtoul(model, NULL, 0) << 4));
}

/* Is name among the CPUs of `llvm-mca -mcpu=help` (known)? */
static int known_cpu(const char *known, const char *name)
{
	size_t n = strlen(name);

	for (const char *s = known; s && (s = strstr(s, name)); s += n)
		if ((s == known || s[-1] == ' ' || s[-1] == '\n') && (s[n] == ' ' || s[n] == '\t'))
			return 1;
	return 0;
}

/* The first of a fallback chain ("znver5 znver4 znver3") known and not rejected. */
static int first_known(const char *known, const char *rejected, const char *chain, char *out,
		       size_t n)
{
	char buf[160], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", chain);
	for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save))
		if ((!known || known_cpu(known, t)) && !(rejected && known_cpu(rejected, t))) {
			snprintf(out, n, "%s", t);
			return 1;
		}
	return 0;
}

struct intel_model {
	unsigned model;
	const char *chain;
};

/* Family 6 model numbers (Intel's SDM, vol. 4, table 2-1), newest first in each chain. */
static const struct intel_model intel[] = {
	{ 0xad, "graniterapids sapphirerapids icelake-server skylake-avx512" },
	{ 0xae, "graniterapids sapphirerapids icelake-server skylake-avx512" },
	{ 0x8f, "sapphirerapids icelake-server skylake-avx512" },
	{ 0xcf, "emeraldrapids sapphirerapids icelake-server skylake-avx512" },
	{ 0x6a, "icelake-server skylake-avx512" }, { 0x6c, "icelake-server skylake-avx512" },
	{ 0x7d, "icelake-client skylake" }, { 0x7e, "icelake-client skylake" },
	{ 0x8c, "tigerlake icelake-client skylake" }, { 0x8d, "tigerlake icelake-client skylake" },
	{ 0x55, "skylake-avx512 skylake" },
	{ 0x4e, "skylake" }, { 0x5e, "skylake" }, { 0x8e, "skylake" }, { 0x9e, "skylake" },
	{ 0xa5, "skylake" }, { 0xa6, "skylake" },
	{ 0x97, "alderlake skylake" }, { 0x9a, "alderlake skylake" },
	{ 0xb7, "raptorlake alderlake skylake" }, { 0xba, "raptorlake alderlake skylake" },
	{ 0xbf, "raptorlake alderlake skylake" },
	{ 0xaa, "meteorlake alderlake skylake" }, { 0xac, "meteorlake alderlake skylake" },
	{ 0x3d, "broadwell" }, { 0x47, "broadwell" }, { 0x4f, "broadwell" }, { 0x56, "broadwell" },
	{ 0x3c, "haswell" }, { 0x3f, "haswell" }, { 0x45, "haswell" }, { 0x46, "haswell" },
	{ 0x3a, "ivybridge" }, { 0x3e, "ivybridge" }, { 0x2a, "sandybridge" },
	{ 0x2d, "sandybridge" }, { 0x5c, "goldmont" }, { 0x5f, "goldmont" },
	{ 0x7a, "goldmont-plus goldmont" }, { 0x86, "tremont goldmont-plus" },
	{ 0x96, "tremont goldmont-plus" }, { 0x9c, "tremont goldmont-plus" },
};

/* AMD by family (and Zen 4 by model within family 0x19). */
static const char *amd_chain(unsigned fam, unsigned model)
{
	if (fam >= 0x1a)
		return "znver5 znver4 znver3";
	if (fam == 0x19)
		return (model >= 0x10 && model <= 0x1f) || (model >= 0x60 && model <= 0x7f) ||
		       (model >= 0xa0 && model <= 0xaf) ? "znver4 znver3" : "znver3 znver2";
	if (fam == 0x17)
		return model >= 0x30 ? "znver2 znver1" : "znver1";
	if (fam == 0x16)
		return "btver2";
	if (fam == 0x15)
		return model >= 0x60 ? "bdver4" : model >= 0x30 ? "bdver3" : "bdver2";
	return NULL;
}

/* aarch64 MIDR implementer and part (the Arm TRMs' MIDR_EL1 tables). */
static const char *arm_chain(unsigned impl, unsigned part)
{
	static const struct { unsigned impl, part; const char *chain; } t[] = {
		{ 0x41, 0xd0c, "neoverse-n1" }, { 0x41, 0xd40, "neoverse-v1 neoverse-n1" },
		{ 0x41, 0xd49, "neoverse-n2 neoverse-n1" }, { 0x41, 0xd4f, "neoverse-v2 neoverse-v1" },
		{ 0x41, 0xd8e, "neoverse-n3 neoverse-n2 neoverse-n1" },
		{ 0x41, 0xd84, "neoverse-v3 neoverse-v2 neoverse-v1" },
		{ 0x41, 0xd0b, "cortex-a76" }, { 0x41, 0xd0d, "cortex-a77 cortex-a76" },
		{ 0x41, 0xd41, "cortex-a78 cortex-a77 cortex-a76" }, { 0x41, 0xd08, "cortex-a72" },
		{ 0x41, 0xd03, "cortex-a53" }, { 0x41, 0xd05, "cortex-a55" },
		{ 0xc0, 0xac3, "ampere1 neoverse-n1" }, { 0xc0, 0xac4, "ampere1a ampere1 neoverse-n1" },
		{ 0x61, 0x022, "apple-m1" }, { 0x61, 0x023, "apple-m1" },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].impl == impl && t[i].part == part)
			return t[i].chain;
	return NULL;
}

void lp_mcpu__pick(const struct lp_cpu *c, enum cwasm_arch arch, const char *known,
		   const char *rejected, char *mcpu, size_t n, char *why, size_t wn)
{
	const char *chain = NULL, *dflt = arch == CWASM_ARCH_AARCH64 ? "neoverse-n1" : "x86-64";
	char vendor[32] = "";
	unsigned fam = 0, model = 0;

	if (arch == CWASM_ARCH_AARCH64 && !strncmp(c->cpuid, "0x", 2)) {
		unsigned long midr = strtoul(c->cpuid, NULL, 16);

		chain = arm_chain((unsigned)(midr >> 24) & 0xff, (unsigned)(midr >> 4) & 0xfff);
	} else if (arch == CWASM_ARCH_X86_64 &&
		   sscanf(c->cpuid, "%31[^,],%u,%u", vendor, &fam, &model) == 3) {
		if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
			chain = amd_chain(fam, model);
		for (size_t i = 0; !chain && fam == 6 && i < sizeof(intel) / sizeof(intel[0]); i++)
			if (intel[i].model == model)
				chain = intel[i].chain;
	}
	if (chain && first_known(known, rejected, chain, mcpu, n)) {
		snprintf(why, wn, "%s %s%s%s%s: closest model this LLVM knows", c->source, c->cpuid,
			 *c->desc ? " (" : "", c->desc, *c->desc ? ")" : "");
		return;
	}
	snprintf(mcpu, n, "%s", dflt);
	snprintf(why, wn, "%s %s%s: no model of this CPU known, the generic %s",
		 *c->cpuid ? c->source : "no cpuid", c->cpuid, chain ? " (not in this LLVM)" : "",
		 dflt);
}

/* The first LLVM release that knew a model, for the newest ones of the chains. */
static const struct {
	const char *name;
	unsigned since;
} llvm_since[] = {
	{ "znver5", 19 }, { "znver4", 16 }, { "emeraldrapids", 18 }, { "graniterapids", 16 },
};

void lp_mcpu__too_new(unsigned major, char *out, size_t n)
{
	size_t l = 0;

	*out = 0;
	for (size_t i = 0; major && i < sizeof(llvm_since) / sizeof(llvm_since[0]); i++)
		if (llvm_since[i].since > major && l < n)
			l += (size_t)snprintf(out + l, n - l, "%s ", llvm_since[i].name);
}
