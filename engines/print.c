// SPDX-License-Identifier: MIT
/* Text views of an engine profile (80 columns); the caller picks the stream. */
#include <inttypes.h>
#include <string.h>
#include "internal.h"
#include "../util/pct.h"

/* "turbofan" / "liftoff" / the tier class when the engine gave no word. */
static const char *tier_word(const struct eng_code *c)
{
	return c->name.tier_name ? c->name.tier_name : eng_tier__name(c->name.tier);
}

void engines__print_functions(FILE *out, const struct eng_profile *p, uint32_t top)
{
	const struct eng_summary *s = &p->sum;

	fprintf(out, "engine %s: %" PRIu64 " of %" PRIu64 " samples (%.1f%%) in wasm "
		"functions, %" PRIu64 " in wrappers\n", eng_engine__name(s->engine),
		s->wasm_samples, s->total_samples, ap_pct(s->wasm_samples, s->total_samples),
		s->wrapper_samples);
	if (s->import_func_count >= 0)
		fprintf(out, "import functions: %" PRId64 " (local_func = wasm index - %" PRId64
			")\n", s->import_func_count, s->import_func_count);
	else
		fprintf(out, "import functions: unknown (no local_func numbers)\n");
	fprintf(out, "  %6s %6s %9s %6s  %-9s %6s  %s\n", "wasm", "local", "samples", "%run",
		"tier", "bytes", "name");
	for (uint32_t i = 0; i < p->nfuncs && i < top; i++) {
		const struct eng_func *f = &p->funcs[i];
		const struct eng_code *c = &p->codes[f->best].pub;
		char wasm[24], local[24];

		if (f->module)
			snprintf(wasm, sizeof(wasm), "%u:%u", f->module, f->wasm_index);
		else
			snprintf(wasm, sizeof(wasm), "%u", f->wasm_index);
		if (f->local_func >= 0)
			snprintf(local, sizeof(local), "%" PRId64, f->local_func);
		else
			snprintf(local, sizeof(local), "%s", f->kind == ENG_KIND_WRAPPER ? "wrap" : "-");
		fprintf(out, "  %6s %6s %9" PRIu64 " %6.2f  %-9.9s %6" PRIu64 "  %.30s", wasm,
			local, f->samples, ap_pct(f->samples, s->total_samples), tier_word(c), c->size,
			f->name ? f->name : c->raw_name);
		for (int t = 0; t < ENG_TIER__COUNT; t++)
			if (t != (int)c->name.tier && f->tier_samples[t])
				fprintf(out, " (+%" PRIu64 " %s)", f->tier_samples[t],
					eng_tier__name((enum eng_tier)t));
		fputc('\n', out);
	}
}

/* "  label: text", wrapped at spaces to 79 columns, later lines indented. */
static void wrapped(FILE *out, const char *label, const char *text)
{
	size_t indent = strlen(label) + 4, col = indent;

	fprintf(out, "  %s:", label);
	for (const char *p = text; *p;) {
		size_t w;

		while (*p == ' ')
			p++;
		w = strcspn(p, " ");
		if (!w)
			break;
		if (col > indent && col + 1 + w > 79) {
			fprintf(out, "\n%*s", (int)indent - 1, "");
			col = indent;
		}
		fprintf(out, " %.*s", (int)w, p);
		col += 1 + w;
		p += w;
	}
	fputc('\n', out);
}

void engines__print_classes(FILE *out, const struct eng_classes *c)
{
	const struct cls_table *t = &c->table;
	const struct eng_code *code = c->code;

	fprintf(out, "%.60s: %s tier, %" PRIu64 " of %" PRIu64 " samples\n", code->raw_name,
		tier_word(code), c->samples, c->run_total);
	fprintf(out, "  code %" PRIu64 " bytes at 0x%" PRIx64 ", %" PRIu64 " reachable "
		"from the entry and classified\n", c->code_bytes, code->addr, c->code_used);
	wrapped(out, "roles", c->roles.why);
	if (c->unavailable)
		wrapped(out, "unavailable", c->unavailable_why);
	fprintf(out, "  %-15s %9s %8s %7s\n", "class", "samples", "%func", "static");
	for (int k = 0; k < CLS__COUNT; k++) {
		if (!t->samples[k] && !t->static_count[k])
			continue;
		if (c->unavailable & (1u << k)) {
			fprintf(out, "  %-15s %9s %8s %7s\n", cls__name(k), "n/a", "n/a", "n/a");
			continue;
		}
		fprintf(out, "  %-15s %9" PRIu64 " %7.2f%% %7u\n", cls__name(k), t->samples[k],
			ap_pct(t->samples[k], t->total), t->static_count[k]);
	}
	if (c->unavailable & (1u << CLS_LINEAR_MEM))
		fprintf(out, "  %-15s %9" PRIu64 " %7.2f%% %7u\n", "memory (both)",
			t->samples[CLS_LINEAR_MEM] + t->samples[CLS_OTHER_MEM],
			ap_pct(t->samples[CLS_LINEAR_MEM] + t->samples[CLS_OTHER_MEM], t->total),
			t->static_count[CLS_LINEAR_MEM] + t->static_count[CLS_OTHER_MEM]);
	fprintf(out, "  %-15s %9" PRIu64 " %8s %7u\n", "total", t->total, "",
		cls__insn_count(&c->f));
}
