// SPDX-License-Identifier: MIT
/*
 * One function's class table before and after: static counts, sampled
 * shares of the function and their change, per class, for every class of
 * classify/classify.h by index (never by name).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static void class_share(const struct cls_table *t, int c, struct cmp_share *s)
{
	memset(s, 0, sizeof(*s));
	s->n = 1;
	s->samples = t->samples[c];
	s->total = t->total;
	s->mean = s->min = s->max = t->total ? 100.0 * (double)t->samples[c] / (double)t->total
					     : 0.0;
}

/* class a goes after class b: a smaller change, or as large and a higher index */
static int goes_after(const struct cmp_cls_diff *d, uint32_t a, uint32_t b)
{
	double da = fabs(d->cls[a].share.ch.delta), db = fabs(d->cls[b].share.ch.delta);

	return da != db ? da < db : a > b;
}

/* insertion sort of CLS__COUNT entries */
static void order_classes(struct cmp_cls_diff *out)
{
	for (uint32_t i = 0; i < CLS__COUNT; i++)
		out->order[i] = i;
	for (uint32_t i = 1; i < CLS__COUNT; i++) {
		uint32_t v = out->order[i], j = i;

		while (j > 0 && goes_after(out, out->order[j - 1], v)) {
			out->order[j] = out->order[j - 1];
			j--;
		}
		out->order[j] = v;
	}
}

int cmp_cls__diff(const struct cls_table *before, const struct cls_table *after,
		  const struct cmp_opts *o, struct cmp_cls_diff *out, struct ap_err *err)
{
	struct cmp_change *chs[CLS__COUNT];
	double level = cmp__level(o);
	size_t m = 0;

	memset(out, 0, sizeof(*out));
	out->total_before = before->total;
	out->total_after = after->total;
	out->tested = !before->percent_only && !after->percent_only && before->total > 0 &&
		      after->total > 0;
	for (int c = 0; c < CLS__COUNT; c++) {
		struct cmp_cls_row *r = &out->cls[c];

		r->static_before = before->static_count[c];
		r->static_after = after->static_count[c];
		r->static_change = (int64_t)r->static_after - (int64_t)r->static_before;
		r->share.valid = 1;
		class_share(before, c, &r->share.before);
		class_share(after, c, &r->share.after);
		if (out->tested && (before->samples[c] || after->samples[c])) {
			cmp__change(&r->share.before, &r->share.after, level, &r->share.ch);
			chs[m++] = &r->share.ch;
		} else {
			cmp__change_untested(&r->share.before, &r->share.after, &r->share.ch);
		}
	}
	out->ntested = (uint32_t)m;
	if (cmp__adjust(chs, m, o ? o->adjust : CMP_ADJ_HOLM, level) < 0)
		return ap_err_nomem(err);
	order_classes(out);
	return 0;
}
