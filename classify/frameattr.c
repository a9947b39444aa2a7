// SPDX-License-Identifier: MIT
/*
 * Frame-attribution sidecars: read, validate, join with a decoded function
 * and report. The file is the compiler's, but it may come from anywhere:
 * every value is type-checked and every range bounded by the function.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "frameattr.h"
#include "../util/file.h"
#include "../cwasm/json_read.h"
#include "../util/json_out.h"

#define FA_MAX_FILE (64u << 20)

static const char *const known[FA__KNOWN] = {
	[FA_ALLOCATOR_SPILL] = "allocator_spill",
	[FA_WASM_LOCAL_OR_PHI] = "wasm_local_or_phi",
	[FA_EXPLICIT_FRAME_STORAGE] = "explicit_frame_storage",
	[FA_FIXED_RUNTIME_FRAME_STATE] = "fixed_runtime_frame_state",
};

const char *fa__known_name(enum fa_known_origin o)
{
	return (unsigned)o < FA__KNOWN ? known[o] : "?";
}

int fa__path(char *buf, size_t len, const char *prefix, uint32_t mod, uint32_t local_func)
{
	int n = snprintf(buf, len, "%s.mod%u.func%u.json", prefix, mod, local_func);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * An integer: a JSON number with no fraction, or a string in decimal or
 * "0x" hex with an optional sign (compilers and scripts write both).
 */
static int get_int(const struct jr_node *v, int64_t *out)
{
	const char *s;
	char *end;
	unsigned long long u;
	int neg = 0, base = 10;

	if (v->type == JR_NUMBER) {
		if (v->is_int) {
			*out = v->integer;
			return 0;
		}
		/* 12.0 is still 12; anything past 2^53 is not exact */
		if (v->number != floor(v->number) || fabs(v->number) > 9007199254740992.0)
			return -1;
		*out = (int64_t)v->number;
		return 0;
	}
	if (v->type != JR_STRING || strlen(v->str) != v->str_len)
		return -1;
	s = v->str;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	/* strtoull would take spaces and a second sign */
	if (!(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
		return -1;
	errno = 0;
	u = strtoull(s, &end, base);
	if (errno || *end || u > (unsigned long long)INT64_MAX)
		return -1;
	*out = neg ? -(int64_t)u : (int64_t)u;
	return 0;
}

/* Member key of obj; a repeated key is an error, not a silent pick. */
static int member(const struct jr_node *obj, const char *key, const struct jr_node **out,
		  const char *name, const char *where, struct ap_err *err)
{
	size_t count = 0;

	*out = jr__get(obj, key, &count);
	if (count > 1)
		return ap_errf(err, "%s: %s\"%s\" is given %zu times", name, where, key, count);
	return 0;
}

static int origin_index(struct fa_sidecar *sc, const struct jr_node *v, const char *name,
			const char *where, struct ap_err *err)
{
	if (v->type != JR_STRING)
		return ap_errf(err, "%s: %s\"origin\" is %s, want a string", name, where,
			       jr__type_name(v->type));
	if (!v->str_len || v->str_len > FA_MAX_NAME || strlen(v->str) != v->str_len)
		return ap_errf(err, "%s: %s\"origin\" must be 1 to %d characters", name, where,
			       FA_MAX_NAME);
	for (size_t i = 0; i < v->str_len; i++)
		if ((unsigned char)v->str[i] < 0x20 || v->str[i] == 0x7f)
			return ap_errf(err, "%s: %s\"origin\" holds a control character", name,
				       where);
	for (uint32_t o = 0; o < sc->norigins; o++)
		if (!strcmp(sc->origins[o], v->str))
			return (int)o;
	if (sc->norigins == FA_MAX_ORIGINS)
		return ap_errf(err, "%s: more than %d distinct origins", name, FA_MAX_ORIGINS);
	sc->origins[sc->norigins] = strdup(v->str);
	if (!sc->origins[sc->norigins])
		return ap_errf(err, "%s: out of memory", name);
	return (int)sc->norigins++;
}

static uint8_t kind_of(const char *s)
{
	static const struct { const char *name; uint8_t kind; } kinds[] = {
		{ "load", FA_KIND_LOAD }, { "read", FA_KIND_LOAD }, { "reload", FA_KIND_LOAD },
		{ "store", FA_KIND_STORE }, { "write", FA_KIND_STORE }, { "spill", FA_KIND_STORE },
		{ "load_store", FA_KIND_BOTH }, { "rmw", FA_KIND_BOTH },
		{ "read_write", FA_KIND_BOTH },
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(s, kinds[i].name))
			return kinds[i].kind;
	return FA_KIND_ANY;
}

/* start, then end or size: [start, end) inside the function. */
static int parse_range(const struct jr_node *a, struct fa_access *acc, uint32_t func_size,
		       const char *name, const char *where, struct ap_err *err)
{
	const struct jr_node *vs, *ve, *vn;
	int64_t s, e, n;

	if (member(a, "start", &vs, name, where, err) || member(a, "end", &ve, name, where, err) ||
	    member(a, "size", &vn, name, where, err))
		return -1;
	if (!vs)
		return ap_errf(err, "%s: %sno \"start\"", name, where);
	if (get_int(vs, &s))
		return ap_errf(err, "%s: %s\"start\" is not an integer or a \"0x..\" string", name,
			       where);
	if (!ve && !vn)
		return ap_errf(err, "%s: %sno \"end\" (or \"size\")", name, where);
	if (ve && get_int(ve, &e))
		return ap_errf(err, "%s: %s\"end\" is not an integer or a \"0x..\" string", name,
			       where);
	if (vn && (get_int(vn, &n) || n <= 0 || n > (int64_t)UINT32_MAX))
		return ap_errf(err, "%s: %s\"size\" is not a positive integer", name, where);
	if (vn && s > INT64_MAX - n)
		return ap_errf(err, "%s: %s\"start\" + \"size\" overflows", name, where);
	if (vn && !ve)
		e = s + n;
	else if (vn && e != s + n)
		return ap_errf(err, "%s: %s\"end\" 0x%" PRIx64 " disagrees with \"start\" + \"size\"",
			       name, where, e);
	if (s < 0 || e <= s)
		return ap_errf(err, "%s: %srange [%" PRId64 ", %" PRId64 ") is empty or negative",
			       name, where, s, e);
	if (e > (int64_t)func_size)
		return ap_errf(err, "%s: %srange [0x%" PRIx64 ", 0x%" PRIx64 ") is outside the"
			       " function (%u bytes)", name, where, s, e, func_size);
	acc->start = (uint32_t)s;
	acc->end = (uint32_t)e;
	return 0;
}

static int parse_access(struct fa_sidecar *sc, const struct jr_node *a, size_t idx,
			uint32_t func_size, struct fa_access *acc, struct ap_err *err)
{
	const struct jr_node *v;
	char where[48];
	int o;

	snprintf(where, sizeof(where), "accesses[%zu]: ", idx);
	memset(acc, 0, sizeof(*acc));
	if (a->type != JR_OBJECT)
		return ap_errf(err, "%s: %sis %s, want an object", sc->path, where,
			       jr__type_name(a->type));
	if (parse_range(a, acc, func_size, sc->path, where, err))
		return -1;
	if (member(a, "origin", &v, sc->path, where, err))
		return -1;
	if (!v)
		return ap_errf(err, "%s: %sno \"origin\"", sc->path, where);
	o = origin_index(sc, v, sc->path, where, err);
	if (o < 0)
		return -1;
	acc->origin = (uint16_t)o;
	if (member(a, "kind", &v, sc->path, where, err))
		return -1;
	if (v && v->type != JR_STRING && v->type != JR_NULL)
		return ap_errf(err, "%s: %s\"kind\" is %s, want a string", sc->path, where,
			       jr__type_name(v->type));
	if (v && v->type == JR_STRING)
		acc->kind = kind_of(v->str);
	if (member(a, "slot", &v, sc->path, where, err))
		return -1;
	if (v && v->type != JR_NULL) {
		if (get_int(v, &acc->slot))
			return ap_errf(err, "%s: %s\"slot\" is not an integer", sc->path, where);
		acc->has_slot = 1;
	}
	return 0;
}

static int acc_cmp(const void *a, const void *b)
{
	const struct fa_access *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end;
}

/*
 * Sort; an exact repeat of a range with the same origin is one access
 * (a compiler may list the load and the store of an RMW apart); any other
 * overlap means the file is wrong.
 */
static int sort_and_merge(struct fa_sidecar *sc, struct ap_err *err)
{
	uint32_t k = 0;

	qsort(sc->acc, sc->nacc, sizeof(*sc->acc), acc_cmp);
	for (uint32_t i = 0; i < sc->nacc; i++) {
		struct fa_access *p = k ? &sc->acc[k - 1] : NULL, *a = &sc->acc[i];

		if (p && p->start == a->start && p->end == a->end) {
			if (p->origin != a->origin)
				return ap_errf(err, "%s: range [0x%x, 0x%x) is listed with origins"
					       " %s and %s", sc->path, a->start, a->end,
					       sc->origins[p->origin], sc->origins[a->origin]);
			p->kind |= a->kind;
			continue;
		}
		if (p && a->start < p->end)
			return ap_errf(err, "%s: accesses overlap: [0x%x, 0x%x) %s and [0x%x, 0x%x) %s",
				       sc->path, p->start, p->end, sc->origins[p->origin],
				       a->start, a->end, sc->origins[a->origin]);
		sc->acc[k++] = *a;
	}
	sc->nacc = k;
	return 0;
}

/* "mod" / "local_func": optional, but when given they must name this function. */
static int check_self(const struct fa_sidecar *sc, const struct jr_node *root, const char *key,
		      int64_t want, int64_t *got, struct ap_err *err)
{
	const struct jr_node *v;

	*got = -1;
	if (member(root, key, &v, sc->path, "", err))
		return -1;
	if (!v || v->type == JR_NULL)
		return 0;
	if (get_int(v, got) || *got < 0)
		return ap_errf(err, "%s: \"%s\" is not a non-negative integer", sc->path, key);
	if (want >= 0 && *got != want)
		return ap_errf(err, "%s: \"%s\" is %" PRId64 ", but this is %s %" PRId64, sc->path,
			       key, *got, key, want);
	return 0;
}

static int check_header(const struct fa_sidecar *sc, const struct jr_node *root,
			struct ap_err *err)
{
	const struct jr_node *v;
	int64_t ver;

	if (root->type != JR_OBJECT)
		return ap_errf(err, "%s: top level is %s, want an object", sc->path,
			       jr__type_name(root->type));
	if (member(root, "schema", &v, sc->path, "", err))
		return -1;
	if (!v)
		return ap_errf(err, "%s: no \"schema\" (want \"%s\")", sc->path, FA_SCHEMA);
	if (v->type != JR_STRING || strcmp(v->str, FA_SCHEMA))
		return ap_errf(err, "%s: schema is %s%.64s%s, want \"%s\"", sc->path,
			       v->type == JR_STRING ? "\"" : "",
			       v->type == JR_STRING ? v->str : jr__type_name(v->type),
			       v->type == JR_STRING ? "\"" : "", FA_SCHEMA);
	if (member(root, "version", &v, sc->path, "", err))
		return -1;
	/* fields may be added within version 1; another version may change meanings */
	if (v && (get_int(v, &ver) || ver != 1))
		return ap_errf(err, "%s: unsupported version (this aotperf reads version 1)",
			       sc->path);
	return 0;
}

static int parse_root(struct fa_sidecar *sc, const struct jr_node *root, int64_t mod,
		      int64_t local_func, uint32_t func_size, struct ap_err *err)
{
	const struct jr_node *v;

	if (check_header(sc, root, err) ||
	    check_self(sc, root, "mod", mod, &sc->mod, err) ||
	    check_self(sc, root, "local_func", local_func, &sc->local_func, err) ||
	    member(root, "accesses", &v, sc->path, "", err))
		return -1;
	if (!v)
		return ap_errf(err, "%s: no \"accesses\" array", sc->path);
	if (v->type != JR_ARRAY)
		return ap_errf(err, "%s: \"accesses\" is %s, want an array", sc->path,
			       jr__type_name(v->type));
	/* non-overlapping ranges of at least a byte: no more than the function's bytes */
	if (v->n > (size_t)func_size * 2)
		return ap_errf(err, "%s: %zu accesses for a function of %u bytes", sc->path, v->n,
			       func_size);
	sc->acc = calloc(v->n + 1, sizeof(*sc->acc));
	if (!sc->acc)
		return ap_errf(err, "%s: out of memory", sc->path);
	for (size_t i = 0; i < v->n; i++)
		if (parse_access(sc, &v->items[i], i, func_size, &sc->acc[sc->nacc++], err))
			return -1;
	return sort_and_merge(sc, err);
}

int fa__parse(const char *text, size_t len, const char *name, int64_t mod, int64_t local_func,
	      uint32_t func_size, struct fa_sidecar *out, struct ap_err *err)
{
	struct jr_node *root = NULL;
	struct ap_err jerr;
	int ret, oom;

	memset(out, 0, sizeof(*out));
	out->mod = out->local_func = -1;
	out->path = strdup(name);
	oom = !out->path;
	for (int o = 0; o < FA__KNOWN; o++) {
		out->origins[o] = strdup(known[o]);
		oom |= !out->origins[o];
	}
	out->norigins = FA__KNOWN;
	if (oom) {
		fa__exit(out);
		return ap_errf(err, "%s: out of memory", name);
	}
	if (jr__parse(text, len, &root, &jerr)) {
		fa__exit(out);
		return ap_errk(err, jerr.kind, "%s: invalid JSON: %s", name, jerr.msg);
	}
	ret = parse_root(out, root, mod, local_func, func_size, err);
	jr__delete(root);
	if (ret)
		fa__exit(out);
	return ret;
}

int fa__load(const char *path, int64_t mod, int64_t local_func, uint32_t func_size,
	     struct fa_sidecar *out, struct ap_err *err)
{
	char *buf = NULL;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	if (ap_file__read_all(path, 0, FA_MAX_FILE, &buf, &len, NULL, err))
		return -1;
	ret = fa__parse(buf, len, path, mod, local_func, func_size, out, err);
	free(buf);
	return ret;
}

void fa__exit(struct fa_sidecar *sc)
{
	for (uint32_t o = 0; o < FA_MAX_ORIGINS; o++)
		free(sc->origins[o]);
	free(sc->acc);
	free(sc->path);
	memset(sc, 0, sizeof(*sc));
}

static int is_stack(uint8_t cls)
{
	return cls__is_stack_traffic((enum cls_class)cls);
}

static void count_add(struct fa_count *c, uint64_t samples)
{
	c->insns++;
	c->samples += samples;
}

enum fa_disagree fa__disagreement(const struct fa_join *jn, const struct cls_func *f, uint32_t i)
{
	uint8_t cls = f->insns[i].cls, kind;
	int32_t a = jn->insn_access[i];

	if (cls == CLS_DATA)
		return FA_AGREE;
	if (a < 0)
		return is_stack(cls) ? FA_HEURISTIC_ONLY : FA_AGREE;
	if (!is_stack(cls))
		return FA_SIDECAR_ONLY;
	kind = jn->sc->acc[a].kind;
	if ((cls__is_frame_read((enum cls_class)cls) && kind == FA_KIND_STORE) ||
	    (!cls__is_frame_read((enum cls_class)cls) && kind == FA_KIND_LOAD))
		return FA_KIND_MISMATCH;
	return FA_AGREE;
}

const char *fa__disagree_name(enum fa_disagree d)
{
	static const char *const names[] = { "agree", "heuristic_only", "sidecar_only",
					      "kind_mismatch" };

	return (unsigned)d <= FA_KIND_MISMATCH ? names[d] : "?";
}

const char *fa__insn_origin(const struct fa_join *jn, uint32_t i)
{
	int32_t a = jn->insn_access[i];

	return a < 0 ? NULL : jn->sc->origins[jn->sc->acc[a].origin];
}

int fa__join(const struct fa_sidecar *sc, const struct cls_func *f, const uint64_t *insn_samples,
	     struct fa_join *out, struct ap_err *err)
{
	uint8_t *used;
	uint32_t k = 0;

	memset(out, 0, sizeof(*out));
	out->sc = sc;
	out->insn_access = malloc((f->ninsns + 1) * sizeof(*out->insn_access));
	used = calloc(sc->nacc + 1, 1);
	if (!out->insn_access || !used) {
		free(used);
		fa_join__exit(out);
		return ap_errf(err, "%s: out of memory", sc->path);
	}
	for (uint32_t a = 0; a < sc->nacc; a++)
		out->origin[sc->acc[a].origin].accesses++;
	/* both lists are sorted and neither overlaps itself: one merge pass */
	for (uint32_t i = 0; i < f->ninsns; i++) {
		const struct cls_insn *in = &f->insns[i];
		uint64_t s = insn_samples ? insn_samples[i] : 0, hi = (uint64_t)in->offset + in->size;
		enum fa_disagree d;

		out->func_samples += s;
		out->insn_access[i] = -1;
		if (in->cls == CLS_DATA)
			continue;
		while (k < sc->nacc && sc->acc[k].end <= in->offset)
			k++;
		for (uint32_t m = k; m < sc->nacc && sc->acc[m].start < hi; m++) {
			if (out->insn_access[i] < 0)
				out->insn_access[i] = (int32_t)m;
			used[m] = 1;
		}
		if (is_stack(in->cls))
			count_add(&out->stack, s);
		if (out->insn_access[i] >= 0) {
			struct fa_origin_total *t = &out->origin[sc->acc[out->insn_access[i]].origin];

			count_add(&t->all, s);
			if (is_stack(in->cls))
				count_add(&t->heuristic, s);
		}
		d = fa__disagreement(out, f, i);
		if (d != FA_AGREE)
			count_add(&out->dis[d], s);
	}
	for (uint32_t a = 0; a < sc->nacc; a++)
		out->unplaced += !used[a];
	free(used);
	return 0;
}

void fa_join__exit(struct fa_join *jn)
{
	free(jn->insn_access);
	jn->insn_access = NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Share of a whole: by samples when there are any, else by instruction count. */
static double share(const struct fa_count *part, const struct fa_count *whole)
{
	return whole->samples ? pct(part->samples, whole->samples) : pct(part->insns, whole->insns);
}

static struct fa_count func_count(const struct fa_join *jn, const struct cls_func *f)
{
	return (struct fa_count){ cls__insn_count(f), jn->func_samples };
}

static void print_list(FILE *out, const struct fa_join *jn, const struct cls_func *f,
		       const uint64_t *insn_samples, uint32_t max_listed)
{
	uint32_t shown = 0, total = 0;

	for (uint32_t i = 0; i < f->ninsns; i++) {
		enum fa_disagree d = fa__disagreement(jn, f, i);
		const char *o = fa__insn_origin(jn, i);

		if (d == FA_AGREE || total++ >= max_listed)
			continue;
		if (!shown++)
			fprintf(out, "    %-9s %9s  %-15s %-14s %-26s %s\n", "offset", "samples",
				"disagreement", "class", "sidecar origin", "instruction");
		fprintf(out, "    +0x%-6x %9" PRIu64 "  %-15s %-14s %-26s %s\n", f->insns[i].offset,
			insn_samples ? insn_samples[i] : 0, fa__disagree_name(d),
			cls__name(f->insns[i].cls), o ? o : "-", f->insns[i].text);
	}
	if (total > shown)
		fprintf(out, "    ... %u more (the JSON lists %u)\n", total - shown, max_listed);
}

void fa__print(FILE *out, const struct fa_join *jn, const struct cls_func *f,
	       const uint64_t *insn_samples, uint32_t max_listed)
{
	const struct fa_sidecar *sc = jn->sc;
	struct fa_count fc = func_count(jn, f);
	const char *basis = fc.samples ? "samples" : "static";

	fprintf(out, "\n  frame attribution  %s (%u accesses)\n", sc->path, sc->nacc);
	fprintf(out, "  %-27s %8s %7s %9s %8s\n", "origin", "accesses", "insns", "samples",
		fc.samples ? "%func" : "%static");
	for (uint32_t o = 0; o < sc->norigins; o++)
		fprintf(out, "  %-27s %8u %7u %9" PRIu64 " %7.2f%%\n", sc->origins[o],
			jn->origin[o].accesses, jn->origin[o].all.insns, jn->origin[o].all.samples,
			share(&jn->origin[o].all, &fc));
	fprintf(out, "  heuristic stack traffic    %u insns, %" PRIu64 " samples; by sidecar origin"
		" (%% of it by %s):\n", jn->stack.insns, jn->stack.samples, basis);
	for (uint32_t o = 0; o < sc->norigins; o++)
		if (jn->origin[o].heuristic.insns)
			fprintf(out, "    %-25s %7u insns %9" PRIu64 " samples %7.2f%%\n",
				sc->origins[o], jn->origin[o].heuristic.insns,
				jn->origin[o].heuristic.samples,
				share(&jn->origin[o].heuristic, &jn->stack));
	fprintf(out, "    %-25s %7u insns %9" PRIu64 " samples %7.2f%%\n", "(no sidecar access)",
		jn->dis[FA_HEURISTIC_ONLY].insns, jn->dis[FA_HEURISTIC_ONLY].samples,
		share(&jn->dis[FA_HEURISTIC_ONLY], &jn->stack));
	fprintf(out, "  disagreements  heuristic_only %u (%" PRIu64 " samples), sidecar_only %u (%"
		PRIu64 " samples), kind_mismatch %u (%" PRIu64 " samples), unplaced accesses %u\n",
		jn->dis[FA_HEURISTIC_ONLY].insns, jn->dis[FA_HEURISTIC_ONLY].samples,
		jn->dis[FA_SIDECAR_ONLY].insns, jn->dis[FA_SIDECAR_ONLY].samples,
		jn->dis[FA_KIND_MISMATCH].insns, jn->dis[FA_KIND_MISMATCH].samples, jn->unplaced);
	print_list(out, jn, f, insn_samples, max_listed);
}

static void json_count(struct json_out *j, const struct fa_count *c, const char *pkey, double p)
{
	json_begin_obj(j);
	json_key(j, "instructions"); json_u64(j, c->insns);
	json_key(j, "samples"); json_u64(j, c->samples);
	if (pkey) {
		json_key(j, pkey); json_dbl(j, p, 4);
	}
	json_end_obj(j);
}

static void json_origins(struct json_out *j, const struct fa_join *jn, const struct fa_count *fc)
{
	json_begin_obj(j);
	for (uint32_t o = 0; o < jn->sc->norigins; o++) {
		const struct fa_origin_total *t = &jn->origin[o];

		json_key(j, jn->sc->origins[o]);
		json_begin_obj(j);
		json_key(j, "static_accesses"); json_u64(j, t->accesses);
		json_key(j, "instructions"); json_u64(j, t->all.insns);
		json_key(j, "samples"); json_u64(j, t->all.samples);
		json_key(j, "percent_of_function"); json_dbl(j, share(&t->all, fc), 4);
		json_end_obj(j);
	}
	json_end_obj(j);
}

static void json_stack(struct json_out *j, const struct fa_join *jn)
{
	json_begin_obj(j);
	json_key(j, "instructions"); json_u64(j, jn->stack.insns);
	json_key(j, "samples"); json_u64(j, jn->stack.samples);
	json_key(j, "by_origin");
	json_begin_obj(j);
	for (uint32_t o = 0; o < jn->sc->norigins; o++) {
		json_key(j, jn->sc->origins[o]);
		json_count(j, &jn->origin[o].heuristic, "percent_of_stack_traffic",
			   share(&jn->origin[o].heuristic, &jn->stack));
	}
	json_end_obj(j);
	json_key(j, "no_sidecar_access");
	json_count(j, &jn->dis[FA_HEURISTIC_ONLY], "percent_of_stack_traffic",
		   share(&jn->dis[FA_HEURISTIC_ONLY], &jn->stack));
	json_end_obj(j);
}

static void json_list(struct json_out *j, const struct fa_join *jn, const struct cls_func *f,
		      const uint64_t *insn_samples, uint32_t max_listed)
{
	uint32_t shown = 0;

	json_begin_arr(j);
	for (uint32_t i = 0; i < f->ninsns && shown < max_listed; i++) {
		enum fa_disagree d = fa__disagreement(jn, f, i);
		int32_t a = jn->insn_access[i];

		if (d == FA_AGREE)
			continue;
		shown++;
		json_begin_obj(j);
		json_key(j, "type"); json_str(j, fa__disagree_name(d));
		json_key(j, "offset"); json_u64(j, f->insns[i].offset);
		json_key(j, "address"); json_hex(j, f->insns[i].addr);
		json_key(j, "samples"); json_u64(j, insn_samples ? insn_samples[i] : 0);
		json_key(j, "class"); json_str(j, cls__name(f->insns[i].cls));
		json_key(j, "origin"); json_str(j, fa__insn_origin(jn, i));
		json_key(j, "slot");
		if (a >= 0 && jn->sc->acc[a].has_slot)
			json_i64(j, jn->sc->acc[a].slot);
		else
			json_null(j);
		json_key(j, "instruction"); json_str(j, f->insns[i].text);
		json_end_obj(j);
	}
	json_end_arr(j);
}

void fa__json(struct json_out *j, const struct fa_join *jn, const struct cls_func *f,
	      const uint64_t *insn_samples, uint32_t max_listed)
{
	struct fa_count fc = func_count(jn, f);
	uint32_t ndis = 0;

	for (int d = FA_HEURISTIC_ONLY; d <= FA_KIND_MISMATCH; d++)
		ndis += jn->dis[d].insns;
	json_begin_obj(j);
	json_key(j, "path"); json_str(j, jn->sc->path);
	json_key(j, "present"); json_bool(j, 1);
	json_key(j, "accesses"); json_u64(j, jn->sc->nacc);
	json_key(j, "basis"); json_str(j, fc.samples ? "samples" : "static");
	json_key(j, "origins"); json_origins(j, jn, &fc);
	json_key(j, "heuristic_stack_traffic"); json_stack(j, jn);
	json_key(j, "disagreements");
	json_begin_obj(j);
	for (int d = FA_HEURISTIC_ONLY; d <= FA_KIND_MISMATCH; d++) {
		json_key(j, fa__disagree_name(d));
		json_count(j, &jn->dis[d], NULL, 0);
	}
	json_key(j, "unplaced_accesses"); json_u64(j, jn->unplaced);
	json_key(j, "listed"); json_list(j, jn, f, insn_samples, max_listed);
	json_key(j, "listed_truncated"); json_bool(j, ndis > max_listed);
	json_end_obj(j);
	json_end_obj(j);
}
