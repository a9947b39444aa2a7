// SPDX-License-Identifier: MIT
/* A function's listing (listing.h). */
#include <string.h>
#include "listing.h"
#include "../cwasm/cwasm.h"
#include "../util/pct.h"

enum { L_OFF, L_SIZE, L_BYTES, L_TEXT, L_CLASS, L_SAMPLES, L_PCT };

static struct vt_table *insns_table(void)
{
	static const struct vt_col cols[] = {
		{ .key = "offset", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "size", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "bytes", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "text", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "class", .kind = VT_TEXT, .prec = -1, .json_prec = -1 },
		{ .key = "samples", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "percent_of_function", .kind = VT_PERCENT, .prec = -1, .json_prec = -1 },
	};

	return vt_table__new(cols, sizeof(cols) / sizeof(cols[0]));
}

/* "48 8b 45 f8" */
static void hex_bytes(const uint8_t *p, uint32_t n, char *out)
{
	static const char hex[] = "0123456789abcdef";
	char *o = out;

	for (uint32_t i = 0; i < n; i++) {
		if (i)
			*o++ = ' ';
		*o++ = hex[p[i] >> 4];
		*o++ = hex[p[i] & 15];
	}
	*o = 0;
}

static int insns(struct view_listing *l, const struct cwasm_module *m, uint32_t func,
		 const struct cls_func *f, const uint64_t *s)
{
	const struct cwasm_func *fn = &m->funcs[func];
	struct vt_table *t = l->insns = insns_table();

	for (uint32_t i = 0; t && i < f->ninsns; i++)
		l->samples += s ? s[i] : 0;
	for (uint32_t i = 0; t && i < f->ninsns; i++) {
		const struct cls_insn *in = &f->insns[i];
		uint64_t at = (uint64_t)fn->offset + in->offset, smp = s ? s[i] : 0;
		uint32_t n = in->size < VIEW_LISTING_BYTES ? in->size : VIEW_LISTING_BYTES;
		char bytes[VIEW_LISTING_BYTES * 3 + 1], text[sizeof(in->text) + 24];

		/* bytes past the text (a damaged container) are not read */
		if (at > m->text_size)
			n = 0;
		else if (n > m->text_size - at)
			n = (uint32_t)(m->text_size - at);
		hex_bytes(m->text + (n ? at : 0), n, bytes);
		if (vt_table__add_row(t) || vt_table__strf(t, L_BYTES, "%s", bytes) ||
		    vt_table__strf(t, L_TEXT, "%s", cls__insn_text(f, i, text, sizeof(text))))
			return -1;
		vt_table__u64(t, L_OFF, in->offset);
		vt_table__u64(t, L_SIZE, in->size);
		vt_table__str(t, L_CLASS, cls__name((enum cls_class)in->cls));
		vt_table__u64(t, L_SAMPLES, smp);
		vt_table__dbl(t, L_PCT, ap_pct(smp, l->samples));
	}
	return t ? 0 : -1;
}

static int data_ranges(struct view_listing *l, const struct cls_func *f)
{
	static const struct vt_col cols[] = {
		{ .key = "start", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
		{ .key = "end", .kind = VT_COUNT, .prec = -1, .json_prec = -1 },
	};
	struct vt_table *t = l->data_ranges = vt_table__new(cols, 2);

	for (uint32_t i = 0; t && i < f->ninsns;) {
		uint32_t start, end;

		if (f->insns[i].cls != CLS_DATA) {
			i++;
			continue;
		}
		start = end = f->insns[i].offset;
		while (i < f->ninsns && f->insns[i].cls == CLS_DATA && f->insns[i].offset == end)
			end += f->insns[i++].size;
		if (vt_table__add_row(t))
			return -1;
		vt_table__u64(t, 0, start);
		vt_table__u64(t, 1, end);
	}
	return t ? 0 : -1;
}

int view_listing__init(struct view_listing *l, const struct cwasm_module *m, uint32_t func,
		       const struct cls_func *f, const uint64_t *insn_samples,
		       struct ap_err *err)
{
	memset(l, 0, sizeof(*l));
	l->ninsns = cls__insn_count(f);
	l->have_address = f->ninsns > 0;
	if (f->ninsns)
		l->address = f->insns[0].addr - f->insns[0].offset;
	if (insns(l, m, func, f, insn_samples) || data_ranges(l, f)) {
		view_listing__exit(l);
		return ap_err_nomem(err);
	}
	return 0;
}

void view_listing__exit(struct view_listing *l)
{
	vt_table__delete(l->insns);
	vt_table__delete(l->data_ranges);
	memset(l, 0, sizeof(*l));
}
