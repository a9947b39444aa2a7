// SPDX-License-Identifier: MIT
/* Reading `perf annotate --stdio` output into classified functions. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "annotate.h"
#include "annot_place.h"
#include "internal.h"

/* One disassembly line of a block. */
struct aline {
	uint64_t addr;
	double w;		/* the value column: count, percent or period */
	const char *insn;	/* text after the raw bytes; "" on a continuation line */
	uint8_t bytes[16];
	uint8_t nbytes;
};

struct block {
	struct cls_annot_func *fn;
	struct aline *l;
	uint32_t n, cap;
};

static char *skip_ws(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void copy_field(char *dst, size_t size, const char *s, size_t len)
{
	if (len >= size)
		len = size - 1;
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/*
 * " Percent |\tSource code & Disassembly of prog for cpu-clock (213 samples, ...)"
 * Also "Samples |" (-n) and "Period |" (--show-total-period).
 */
static int parse_header(char *line, struct cls_annot_func *fn)
{
	char *s = skip_ws(line), *bar = strchr(s, '|'), *of, *for_, *paren, *end;

	if (!bar || !(of = strstr(bar, "Disassembly of ")))
		return 0;
	fn->weights = strncmp(s, "Samples", 7) != 0;
	of += strlen("Disassembly of ");
	for_ = strstr(of, " for ");
	paren = strstr(of, " (");
	end = for_ ? for_ : paren ? paren : of + strlen(of);
	copy_field(fn->dso, sizeof(fn->dso), of, (size_t)(end - of));
	if (for_) {
		for_ += 5;
		copy_field(fn->event, sizeof(fn->event), for_,
			   (size_t)((paren && paren > for_ ? paren : for_ + strlen(for_)) - for_));
	}
	if (paren && isdigit((unsigned char)paren[2]))
		fn->header_samples = strtoull(paren + 2, NULL, 10);
	return 1;
}

/* "         : 5      0000000000401136 <hot>:" */
static void parse_symbol(const char *rest, struct cls_annot_func *fn)
{
	const char *lt = strchr(rest, '<'), *gt = lt ? strstr(lt, ">:") : NULL;

	if (fn->symbol[0] || !lt || !gt || lt == rest || !isxdigit((unsigned char)lt[-2]))
		return;
	copy_field(fn->symbol, sizeof(fn->symbol), lt + 1, (size_t)(gt - lt - 1));
}

static int is_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return n > 0;
}

/* Raw bytes "48 89 f8   mov ..." (x86) or a word "910003fd  mov ..." (aarch64). */
static const char *parse_raw(const char *s, struct aline *l, int *words)
{
	size_t n = strcspn(s, " \t");

	if (n == 8 && is_hex(s, 8)) {
		uint32_t w = (uint32_t)strtoul(s, NULL, 16);

		for (int i = 0; i < 4; i++)
			l->bytes[i] = (uint8_t)(w >> (8 * i));
		l->nbytes = 4;
		*words = 1;
		return s + 8;
	}
	while (n == 2 && is_hex(s, 2) && (s[2] == ' ' || s[2] == '\t' || !s[2]) &&
	       l->nbytes < sizeof(l->bytes)) {
		l->bytes[l->nbytes++] = (uint8_t)strtoul(s, NULL, 16);
		s += 2;
		if (*s == ' ' && s[1] != ' ' && s[1] != '\t')
			s++; /* one space between bytes; a run of them ends the bytes */
		else
			break;
		n = strcspn(s, " \t");
	}
	return s;
}

/* "    0.47 :   401161: cmp ..." (more value columns may precede the ':') */
static int parse_line(char *line, struct aline *l, int *words)
{
	char *s = skip_ws(line), *end, *colon;

	memset(l, 0, sizeof(*l));
	l->w = strtod(s, &end);
	if (end == s)
		return 0;
	s = end;
	while (*s && *s != ':' && (isspace((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '.'))
		s++;
	if (*s != ':')
		return 0;
	s = skip_ws(s + 1);
	l->addr = strtoull(s, &end, 16);
	if (end == s || *end != ':')
		return 0;
	colon = end;
	s = skip_ws(colon + 1);
	l->insn = skip_ws((char *)parse_raw(s, l, words));
	return 1;
}

static int block_push(struct block *b, const struct aline *l)
{
	if (b->n == b->cap) {
		uint32_t cap = b->cap ? b->cap * 2 : 256;
		struct aline *v = realloc(b->l, cap * sizeof(*v));

		if (!v)
			return -1;
		b->l = v;
		b->cap = cap;
	}
	b->l[b->n++] = *l;
	return 0;
}

/* ---- turning a block into a classified function ---- */

/* Raw mode: the bytes of each contiguous run of lines, decoded by capstone. */
static int decode_raw(const struct block *b, enum cwasm_arch arch, struct dc_vec *nv,
		      struct ap_err *err)
{
	uint32_t i = 0;

	while (i < b->n) {
		uint64_t start = b->l[i].addr, next = start;
		uint8_t *buf;
		size_t len = 0, cap = 256;
		int ret;

		buf = malloc(cap);
		if (!buf)
			return ap_err_nomem(err);
		while (i < b->n && b->l[i].addr == next && b->l[i].nbytes) {
			if (len + b->l[i].nbytes > cap) {
				uint8_t *nb = realloc(buf, cap * 2);

				if (!nb) {
					free(buf);
					return ap_err_nomem(err);
				}
				buf = nb;
				cap *= 2;
			}
			memcpy(buf + len, b->l[i].bytes, b->l[i].nbytes);
			len += b->l[i].nbytes;
			next += b->l[i].nbytes;
			i++;
		}
		ret = len ? dc__decode(arch, buf, len, start, nv, err) : 0;
		free(buf);
		if (ret)
			return -1;
		if (!len)
			i++; /* a line without bytes inside raw output: skip it */
	}
	return 0;
}

static int is_branch_target(const struct dc_vec *nv, uint64_t addr)
{
	for (uint32_t i = 0; i < nv->n; i++)
		if ((nv->v[i].kind == DC_JMP || nv->v[i].kind == DC_JCC) && nv->v[i].has_target &&
		    nv->v[i].target == addr)
			return 1;
	return 0;
}

/* Lines a table at tb covers start here: the first whose end passes the padding before it. */
static uint32_t first_table_line(const struct dc_vec *nv, uint32_t j, uint64_t tb)
{
	uint32_t k = j + 1;

	if (tb < nv->v[j].addr + nv->v[j].size + DC_TABLE_PAD)
		return k; /* inline: from the jump on */
	for (; k < nv->n; k++) {
		const struct dc_insn *ni = &nv->v[k];
		const struct dc_insn *prev = &nv->v[k - 1];

		/* alignment after the code before the table (as decode/capstone.c takes it) */
		if (ni->addr + DC_TABLE_PAD > tb && ni->addr < tb &&
		    (prev->kind == DC_RET || prev->kind == DC_JMP || prev->kind == DC_TRAP ||
		     prev->kind == DC_DATA))
			break;
		if (ni->addr + ni->size > tb)
			break;
	}
	return k;
}

enum { L_CODE, L_PAD, L_TABLE };

/* Line k holds an entry of a table whose extent is unknown: until a sampled line or a target. */
static int open_table_ends(const struct dc_vec *nv, const double *w, uint32_t k, uint64_t tb)
{
	return nv->v[k].addr >= tb + 4 && (w[k] > 0 || is_branch_target(nv, nv->v[k].addr));
}

/*
 * Text mode cannot read a jump table's bytes: objdump decodes them as
 * instructions. The lines between the jump (or the ret before a table
 * placed after the function) and the table are one padding entry, as the
 * byte decoder takes them; with the bound (cmp idx, N) the table becomes
 * exactly its N entries, so the text and the bytes give the same table.
 * Without the bound, or when objdump's last table line runs past the
 * table's end (hiding where the next instruction starts), the extent is
 * estimated and *approx says so.
 */
static int text_tables(struct dc_vec *nv, const double *w, int *approx, struct ap_err *err)
{
	uint8_t *what = calloc(nv->n ? nv->n : 1, 1);
	uint32_t *nent = calloc(nv->n ? nv->n : 1, sizeof(*nent));
	struct dc_vec out = { 0 };

	if (!what || !nent) {
		free(what);
		free(nent);
		return ap_err_nomem(err);
	}
	for (uint32_t j = 0; j < nv->n; j++) {
		uint64_t tb = dc__table_base(nv, j), end = 0;
		struct dc_table bound;
		uint32_t k, first = 0;

		if (!tb)
			continue;
		if (dc__table_bound(nv, j, &bound)) {
			const struct dc_insn *last = &nv->v[nv->n - 1];
			/* the last line's size is unknown: an instruction is at most 15 bytes */
			uint64_t lim = last->addr + 15;

			end = tb + 4 * (uint64_t)bound.nentries;
			/* a listing cut short: only the entries its lines cover */
			if (end > lim) {
				*approx = 1;
				bound.nentries = lim > tb ? (uint32_t)((lim - tb + 3) / 4) : 0;
				end = tb + 4 * (uint64_t)bound.nentries;
			}
		} else {
			*approx = 1;
		}
		for (k = first_table_line(nv, j, tb); k < nv->n; k++) {
			const struct dc_insn *ni = &nv->v[k];

			if (end && ni->addr >= end)
				break;
			if (!end && open_table_ends(nv, w, k, tb))
				break;
			if (end && ni->addr + ni->size > end && k + 1 < nv->n)
				*approx = 1; /* objdump's line hides where code resumes */
			if (ni->addr < tb) {
				what[k] = L_PAD;
				continue;
			}
			what[k] = L_TABLE;
			if (end && !first++)
				nent[k] = bound.nentries;
		}
	}
	for (uint32_t i = 0; i < nv->n; i++) {
		const struct dc_insn *ni = &nv->v[i];
		struct dc_insn *o;

		if (what[i] == L_CODE) {
			if (!(o = dc_vec__push(&out)))
				goto nomem;
			*o = *ni;
			continue;
		}
		if (what[i] == L_PAD) {
			uint32_t k = i;

			while (k + 1 < nv->n && what[k + 1] == L_PAD)
				k++;
			if (!(o = dc_vec__push(&out)))
				goto nomem;
			o->addr = ni->addr;
			o->size = (uint32_t)(nv->v[k].addr + nv->v[k].size - ni->addr);
			o->kind = DC_DATA;
			snprintf(o->text, sizeof(o->text), "(padding)");
			i = k;
			continue;
		}
		if (nent[i]) {
			/* the bound's N entries, whatever objdump made of their bytes */
			uint64_t tb = ni->addr;
			uint32_t i0 = i;

			for (uint32_t e = 0; e < nent[i]; e++) {
				if (!(o = dc_vec__push(&out)))
					goto nomem;
				o->addr = tb + 4 * (uint64_t)e;
				o->size = 4;
				o->kind = DC_DATA;
				o->ndata = 1;
				snprintf(o->text, sizeof(o->text), ".long (entry %u)", e);
			}
			while (i + 1 < nv->n && what[i + 1] == L_TABLE && !nent[i + 1])
				i++;
			/* code resumes inside objdump's last table line: it starts there all the same */
			tb += 4 * (uint64_t)nent[i0];
			if (i + 1 < nv->n && nv->v[i].addr + nv->v[i].size > tb) {
				if (!(o = dc_vec__push(&out)))
					goto nomem;
				o->addr = tb;
				o->size = (uint32_t)(nv->v[i].addr + nv->v[i].size - tb);
				o->kind = DC_OTHER;
				snprintf(o->text, sizeof(o->text), "(code objdump's table line hides)");
			}
			continue;
		}
		/* no bound: each line of the estimated table is data */
		if (!(o = dc_vec__push(&out)))
			goto nomem;
		*o = *ni;
		o->kind = DC_DATA;
		o->nops = 0;
		o->ndata = 1;
	}
	free(what);
	free(nent);
	dc_vec__exit(nv);
	*nv = out;
	return 0;
nomem:
	free(what);
	free(nent);
	dc_vec__exit(&out);
	return ap_err_nomem(err);
}

static int parse_text(const struct block *b, enum cwasm_arch arch, int att, struct dc_vec *nv,
		      int *approx, struct ap_err *err)
{
	double *w = calloc(b->n + 1, sizeof(*w));
	int ret;

	if (!w)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < b->n; i++) {
		struct dc_insn *ni;

		if (!b->l[i].insn[0])
			continue;
		ni = dc_vec__push(nv);
		if (!ni) {
			free(w);
			return ap_err_nomem(err);
		}
		ni->addr = b->l[i].addr;
		dc__parse_text(arch, att, b->l[i].insn, ni);
		w[nv->n - 1] = b->l[i].w;
	}
	/* sizes from the next address; the last instruction's is unknown */
	for (uint32_t i = 0; i < nv->n; i++)
		nv->v[i].size = i + 1 < nv->n ? (uint32_t)(nv->v[i + 1].addr - nv->v[i].addr) : 1;
	ret = text_tables(nv, w, approx, err);
	free(w);
	/* bytes objdump could not decode outside a table: their extent is a guess */
	for (uint32_t i = 0; i < nv->n && !ret; i++)
		if (nv->v[i].kind == DC_DATA && !nv->v[i].ndata &&
		    strcmp(nv->v[i].text, "(padding)"))
			*approx = 1;
	return ret;
}

/* Per-instruction samples: counts as given, weights scaled to the header total. */
static int place_samples(const struct block *b, struct cls_annot_func *fn, struct ap_err *err)
{
	const struct cls_func *f = &fn->func;
	uint64_t fend = f->ninsns ? f->insns[f->ninsns - 1].addr + f->insns[f->ninsns - 1].size : 0;
	double sum = 0, scale;

	fn->samples = calloc(f->ninsns ? f->ninsns : 1, sizeof(*fn->samples));
	if (!fn->samples)
		return ap_err_nomem(err);
	for (uint32_t i = 0; i < b->n; i++)
		sum += b->l[i].w;
	if (!fn->weights)
		scale = 1;
	else if (fn->header_samples && sum > 0)
		scale = (double)fn->header_samples / sum;
	else
		scale = sum > 0 ? 10000.0 / sum : 0; /* hundredths of a percent */
	for (uint32_t i = 0; i < b->n; i++) {
		uint64_t a = b->l[i].addr, end = 0;
		double x = b->l[i].w > 0 ? b->l[i].w * scale + 0.5 : 0;

		/* a count no recording holds (fuzz regress/annotate, crash-min-float-cast) */
		if (!(x < 1e18))
			return ap_errf(err, "%s: a sample count of %g is out of range", fn->symbol,
				       b->l[i].w);
		if (x < 1)
			continue;
		/* the line runs to the next line's address; the last to the code's end */
		for (uint32_t k = i + 1; k < b->n; k++)
			if (b->l[k].addr > a) {
				end = b->l[k].addr;
				break;
			}
		if (!end)
			end = fend > a ? fend : a + 1;
		if (cls_annot__place_line(fn, a, end, (uint64_t)x))
			return ap_err_nomem(err);
	}
	cls__tabulate(f, fn->samples, &fn->table);
	fn->table.percent_only = fn->weights && !fn->header_samples;
	return 0;
}

static int finish_block(struct block *b, const struct cls_annot_opts *o, int words,
			struct ap_err *err)
{
	struct cls_annot_func *fn = b->fn;
	struct dc_vec nv = { 0 };
	uint64_t lo, hi;
	int raw = 0, ret;

	for (uint32_t i = 0; i < b->n; i++) {
		raw |= b->l[i].nbytes != 0;
		fn->att |= strchr(b->l[i].insn, '%') != NULL;
	}
	fn->arch = o->arch != CWASM_ARCH_UNKNOWN ? o->arch :
		   words ? CWASM_ARCH_AARCH64 : CWASM_ARCH_X86_64;
	fn->raw = raw && !o->ignore_raw;
	cls__roles_default(fn->arch, &fn->roles); /* perf annotate does not say the ABI */
	if (o->roles && cls__roles_parse(&fn->roles, o->roles, err))
		return -1;
	if (!fn->symbol[0])
		copy_field(fn->symbol, sizeof(fn->symbol), fn->dso, strlen(fn->dso));
	if (!b->n)
		return 0;
	lo = b->l[0].addr;
	ret = fn->raw ? decode_raw(b, fn->arch, &nv, err)
		      : parse_text(b, fn->arch, fn->att, &nv, &fn->approx, err);
	hi = nv.n ? nv.v[nv.n - 1].addr + nv.v[nv.n - 1].size : lo;
	if (!ret)
		ret = cls_classify(&fn->roles, &nv, lo, hi, &fn->func, err);
	dc_vec__exit(&nv);
	if (!ret)
		ret = place_samples(b, fn, err);
	return ret;
}

static struct cls_annot_func *new_func(struct cls_annot *a)
{
	struct cls_annot_func *v = realloc(a->funcs, (a->n + 1) * sizeof(*v));

	if (!v)
		return NULL;
	a->funcs = v;
	memset(&v[a->n], 0, sizeof(v[0]));
	return &v[a->n++];
}

int cls__annot_parse(const char *buf, size_t len, const char *name,
		     const struct cls_annot_opts *o, struct cls_annot *out, struct ap_err *err)
{
	char *text = malloc(len + 1), *line, *next;
	struct block b = { 0 };
	int words = 0, ret = 0;

	memset(out, 0, sizeof(*out));
	if (!text)
		return ap_err_nomem(err);
	memcpy(text, buf, len);
	text[len] = '\0';
	for (line = text; line && !ret; line = next) {
		struct aline l;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strstr(line, "|") && strstr(line, "Disassembly of ")) {
			if (b.fn)
				ret = finish_block(&b, o, words, err);
			b.n = 0;
			words = 0;
			b.fn = ret ? NULL : new_func(out);
			if (!ret && !b.fn)
				ret = ap_err_nomem(err);
			if (!ret)
				parse_header(line, b.fn);
			continue;
		}
		if (!b.fn)
			continue;
		if (parse_line(line, &l, &words)) {
			if (block_push(&b, &l))
				ret = ap_err_nomem(err);
		} else {
			char *colon = strchr(line, ':');

			if (colon)
				parse_symbol(colon + 1, b.fn);
		}
	}
	if (!ret && b.fn)
		ret = finish_block(&b, o, words, err);
	free(b.l);
	free(text);
	if (!ret && !out->n)
		ret = ap_errf(err, "%s: no perf annotate output found (expected \"Percent |\" blocks)",
			      name);
	if (ret && strncmp(err->msg, name, strlen(name))) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg);
		ap_errf(err, "%s: %s", name, msg);
	}
	if (ret)
		cls_annot__exit(out);
	return ret;
}

void cls_annot__exit(struct cls_annot *a)
{
	for (uint32_t i = 0; i < a->n; i++) {
		cls_func__exit(&a->funcs[i].func);
		free(a->funcs[i].samples);
		free(a->funcs[i].spans);
		free(a->funcs[i].byte_samples);
	}
	free(a->funcs);
	memset(a, 0, sizeof(*a));
}
