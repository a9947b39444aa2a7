// SPDX-License-Identifier: MIT
/* One cell of a view's table in words: the formatting text and Markdown share (table.h). */
#include <inttypes.h>
#include <math.h>
#include "table.h"

static int prec_of(const struct vt_col *col, int def)
{
	return col->prec >= 0 ? col->prec : def;
}

const char *render__cell(const struct vt_col *col, const struct vt_cell *x, char *buf,
			 size_t len)
{
	int sign = !!(col->flags & VT_SIGNED);

	if (x->word)
		return x->word;
	if (!x->present)
		return col->absent ? col->absent : "";
	switch (col->kind) {
	case VT_TEXT:
		return x->v.s;
	case VT_COUNT:
		snprintf(buf, len, "%" PRIu64, x->v.u);
		break;
	case VT_INT:
		snprintf(buf, len, sign ? "%+" PRId64 : "%" PRId64, x->v.i);
		break;
	case VT_POINTS:
		snprintf(buf, len, "%+.*f", prec_of(col, 2), x->v.d);
		break;
	case VT_NS:
		snprintf(buf, len, sign ? "%+.*f" : "%.*f", prec_of(col, 2), x->v.d / 1e6);
		break;
	case VT_REL:
		if (fabs(x->v.d) >= 9999.5)
			snprintf(buf, len, "%s", x->v.d > 0 ? ">+9999%" : "<-9999%");
		else
			snprintf(buf, len, "%+.*f%%", prec_of(col, 0), x->v.d);
		break;
	case VT_PVALUE:
		if (x->v.d < 1e-9)
			snprintf(buf, len, "<1e-9");
		else
			snprintf(buf, len, "%.2g", x->v.d);
		break;
	case VT_BOOL:
		return x->v.i ? "yes" : "";
	case VT_PERCENT:
	case VT_RATIO:
		snprintf(buf, len, sign ? "%+.*f%s" : "%.*f%s", prec_of(col, 2), x->v.d,
			 col->flags & VT_PCT ? "%" : "");
		break;
	}
	return buf;
}
