// SPDX-License-Identifier: MIT
/*
 * The run's lever table (view/levers.h) as GitHub Markdown: the same rows,
 * notes and verdict as the text (levers.c), for report --markdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include "levers.h"
#include "markdown.h"
#include "table.h"

/* "- line" with the Markdown escaped; 0, or -1 with err. */
static int item(FILE *f, const char *fmt, const char *text, struct ap_err *err)
{
	char *esc = md__escape_cell(text, 0, 0);

	if (!esc)
		return ap_err_nomem(err);
	fprintf(f, fmt, esc);
	free(esc);
	return 0;
}

int render__levers_md(FILE *f, const char *name, const struct view_levers *v, struct ap_err *err)
{
	const struct lp_levers *lv;

	if (!v)
		return 0;
	lv = v->lv;
	fputs("### Which lever pays for the run\n\n", f);
	if (item(f, "%s.\n\n", v->head, err) || render__table_md(f, name, v->rows, err))
		return -1;
	for (uint32_t i = 0; i < v->nnotes; i++)
		if (item(f, "- %s\n", v->notes[i], err))
			return -1;
	for (uint32_t i = 0; i < v->nspills; i++)
		if (item(f, "- frame lever against the spill log: %s\n", v->spills[i], err))
			return -1;
	if (item(f, "\n**verdict:** %s. ", v->verdict, err))
		return -1;
	fprintf(f, "Model: `%s` on `-mcpu=%s`; tolerance from the kernel pairs "
		"(docs/levers.md).\n\n", *lv->model.tool ? lv->model.tool : "none",
		*lv->model.mcpu ? lv->model.mcpu : "-");
	return ferror(f) ? ap_errk(err, AP_ERR_IO, "%s: write failed", name) : 0;
}
