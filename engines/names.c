// SPDX-License-Identifier: MIT
/*
 * How other engines name wasm code in perf (docs/engines.md):
 *   Wasmtime  wasm[M]::function[N]   wasm[M]::function[N]::<name>
 *             wasm[M]::<kind>_trampoline[N]           (a wrapper)
 *   V8        JS:<name>-<N>-<tier>, <name> "wasm-function[N]" when the
 *             module has no name for it; wasm-to-js / js-to-wasm names
 *             are wrappers, their N the import's index.
 * N is the wasm function index, imports first.
 */
#include <string.h>
#include "engines.h"

const char *eng_engine__name(enum eng_engine e)
{
	switch (e) {
	case ENG_ENGINE_WASMTIME: return "wasmtime";
	case ENG_ENGINE_V8: return "v8";
	case ENG_ENGINE_PLAIN: return "plain";
	case ENG_ENGINE_MIXED: return "mixed";
	default: return "none";
	}
}

const char *eng_tier__name(enum eng_tier t)
{
	switch (t) {
	case ENG_TIER_BASELINE: return "baseline";
	case ENG_TIER_OPTIMIZED: return "optimized";
	default: return "unknown";
	}
}

/* A decimal u32 of at most 10 digits at *p; advances *p. */
static int parse_u32(const char **p, const char *end, uint32_t *out)
{
	const char *s = *p;
	uint64_t v = 0;

	if (s >= end || *s < '0' || *s > '9')
		return 0;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return 0;
	}
	*out = (uint32_t)v;
	*p = s;
	return 1;
}

/* "[N]" at *p. */
static int bracket_u32(const char **p, const char *end, uint32_t *out)
{
	const char *s = *p;

	if (s >= end || *s != '[')
		return 0;
	s++;
	if (!parse_u32(&s, end, out) || s >= end || *s != ']')
		return 0;
	*p = s + 1;
	return 1;
}

static int parse_wasmtime(const char *sym, struct eng_name *o)
{
	const char *p = sym + 4, *end = sym + strlen(sym), *kind;
	size_t klen;

	if (!bracket_u32(&p, end, &o->module) || strncmp(p, "::", 2))
		return 0;
	p += 2;
	kind = p;
	while (p < end && *p != '[' && *p != ':')
		p++;
	klen = (size_t)(p - kind);
	if (klen == 8 && !strncmp(kind, "function", 8))
		o->kind = ENG_KIND_FUNCTION;
	else if (klen > 11 && !strncmp(kind + klen - 11, "_trampoline", 11))
		o->kind = ENG_KIND_WRAPPER;
	else
		return 0;
	if (!bracket_u32(&p, end, &o->index))
		return 0;
	if (p == end) {
		o->name = p;
		o->name_len = 0;
	} else if (!strncmp(p, "::", 2)) {
		o->name = p + 2;
		o->name_len = (size_t)(end - p - 2);
	} else {
		return 0;
	}
	o->engine = ENG_ENGINE_WASMTIME;
	o->has_index = 1;
	return 1;
}

static const struct {
	const char *word;
	enum eng_tier tier;
} v8_tiers[] = {
	{ "liftoff", ENG_TIER_BASELINE },
	{ "turbofan", ENG_TIER_OPTIMIZED },
	{ "turboshaft", ENG_TIER_OPTIMIZED },
};

static int parse_v8(const char *sym, struct eng_name *o)
{
	const char *s = sym + 3, *end = s + strlen(s), *dash, *ndash, *num;
	char dflt[32];
	size_t i, tlen;
	int n;

	dash = memrchr(s, '-', (size_t)(end - s));
	if (!dash)
		return 0;
	tlen = (size_t)(end - dash - 1);
	for (i = 0; i < sizeof(v8_tiers) / sizeof(v8_tiers[0]); i++)
		if (strlen(v8_tiers[i].word) == tlen && !strncmp(dash + 1, v8_tiers[i].word, tlen))
			break;
	if (i == sizeof(v8_tiers) / sizeof(v8_tiers[0]))
		return 0;
	o->tier = v8_tiers[i].tier;
	o->tier_name = v8_tiers[i].word;
	ndash = memrchr(s, '-', (size_t)(dash - s));
	if (!ndash)
		return 0;
	num = ndash + 1;
	if (!parse_u32(&num, dash, &o->index) || num != dash)
		return 0;
	o->name = s;
	o->name_len = (size_t)(ndash - s);
	if ((o->name_len >= 10 && !strncmp(s, "wasm-to-js", 10)) ||
	    (o->name_len >= 10 && !strncmp(s, "js-to-wasm", 10)))
		o->kind = ENG_KIND_WRAPPER;
	n = snprintf(dflt, sizeof(dflt), "wasm-function[%u]", o->index);
	if (n > 0 && (size_t)n == o->name_len && !strncmp(s, dflt, o->name_len))
		o->name_len = 0;
	o->engine = ENG_ENGINE_V8;
	o->has_index = 1;
	return 1;
}

int eng_name__parse(const char *sym, struct eng_name *out)
{
	memset(out, 0, sizeof(*out));
	if (!sym)
		return 0;
	if (!strncmp(sym, "wasm[", 5) && parse_wasmtime(sym, out))
		return 1;
	if (!strncmp(sym, "JS:", 3) && parse_v8(sym, out))
		return 1;
	memset(out, 0, sizeof(*out));
	return 0;
}
