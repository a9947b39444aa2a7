// SPDX-License-Identifier: MIT
/* The wall-clock view (offcpu.h) as text, JSON and Markdown, from view/offcpu.h. */
#include <stdio.h>
#include "markdown.h"
#include "offcpu.h"
#include "table.h"
#include "../profile/offcpu.h"
#include "../util/term.h"
#include "../view/offcpu.h"

static void text(FILE *out, const struct view_offcpu *v, unsigned columns)
{
	char line[256];

	snprintf(line, sizeof(line), "off-CPU (from %s records; on-CPU is %s samples x period;"
		 " --off-cpu=no hides this)", v->source, v->on_event ? v->on_event : "the");
	fputc('\n', out);
	ap_term__wrap(out, line, columns, 2);
	render__table_text(out, v->procs, columns, 2, 0);
	if (vt_table__nrows(v->funcs)) {
		fputc('\n', out);
		render__table_text(out, v->funcs, columns, 2, 0);
	}
	if (v->syscalls) {
		snprintf(line, sizeof(line), "  by system call (%s)", v->syscall_words);
		fputc('\n', out);
		ap_term__wrap(out, line, columns, 4);
		render__table_text(out, v->syscalls, columns, 2, 0);
	}
}

void render__offcpu_text(FILE *out, const struct profile *p, const struct render_opts *o)
{
	struct view_offcpu *v;

	if (!p->offcpu)
		return;
	if (view_offcpu__new(p, o->top, &v, NULL)) {
		fprintf(out, "\noff-CPU: out of memory\n");
		return;
	}
	text(out, v, o->columns);
	view_offcpu__delete(v);
}

static void functions(struct json_out *j, const struct view_offcpu *v)
{
	json_begin_arr(j);
	for (uint32_t i = 0; i < vt_table__shown(v->funcs); i++) {
		json_begin_obj(j);
		render__table_json_members(j, v->funcs, i);
		if (v->func_syscalls) {
			json_key(j, "syscalls");
			render__table_json_rows(j, v->func_syscalls[vt_table__row(v->funcs, i)]);
		}
		json_end_obj(j);
	}
	json_end_arr(j);
}

static void json(struct json_out *j, const struct view_offcpu *v)
{
	const struct profile_offcpu *oc = v->p->offcpu;

	json_key(j, "off_cpu");
	json_begin_obj(j);
	json_key(j, "source"); json_str(j, v->source);
	json_key(j, "on_cpu_event"); json_str(j, v->on_event);
	json_key(j, "intervals"); json_u64(j, oc->intervals);
	json_key(j, "unpaired_switches"); json_u64(j, oc->unpaired);
	json_key(j, "intervals_without_stack"); json_u64(j, oc->no_stack);
	json_key(j, "processes");
	render__table_json_rows(j, v->procs);
	json_key(j, "functions");
	functions(j, v);
	if (v->syscalls) {
		json_key(j, "syscall_arch"); json_str(j, oc->syscall_arch);
		json_key(j, "syscalls");
		render__table_json_rows(j, v->syscalls);
		json_key(j, "syscall_source"); json_str(j, v->syscall_source);
	}
	if (v->kernel_syscalls) {
		json_key(j, "kernel_frame_syscalls");
		render__table_json_rows(j, v->kernel_syscalls);
	}
	json_key(j, "kernel_frames_named"); json_bool(j, oc->kernel_named);
	if (oc->kernel_why) {
		json_key(j, "kernel_frames_unnamed_why"); json_str(j, oc->kernel_why);
	}
	json_end_obj(j);
}

void render__offcpu_json(struct json_out *j, const struct profile *p, const struct render_opts *o)
{
	struct view_offcpu *v;

	if (!p->offcpu || view_offcpu__new(p, o->top, &v, NULL))
		return;
	json(j, v);
	view_offcpu__delete(v);
}

static int markdown(FILE *f, const char *path, const struct view_offcpu *v, struct ap_err *err)
{
	fprintf(f, "## Off-CPU time\n\nFrom %s records; on-CPU is %s samples × period; ms.\n\n",
		v->source, v->on_event ? v->on_event : "the");
	if (render__table_md(f, path, v->procs, err) ||
	    (vt_table__nrows(v->funcs) && render__table_md(f, path, v->funcs, err)))
		return -1;
	if (!v->syscalls)
		return 0;
	fprintf(f, "By system call (");
	md__fputs(f, v->syscall_words);
	fprintf(f, "):\n\n");
	return render__table_md(f, path, v->syscalls, err);
}

int render__offcpu_markdown(FILE *f, const char *path, const struct profile *p,
			    const struct render_opts *o, struct ap_err *err)
{
	struct view_offcpu *v;
	int r;

	if (!p->offcpu)
		return 0;
	if (view_offcpu__new(p, o->top, &v, err))
		return -1;
	r = markdown(f, path, v, err);
	view_offcpu__delete(v);
	return r;
}

void render__offcpu_json_row(struct json_out *j, const struct profile *p, uint32_t core,
			     uint32_t func)
{
	const struct offcpu_func *f = offcpu__find(p->offcpu, core, func);

	if (!p->offcpu)
		return;
	json_key(j, "off_cpu_ns"); json_u64(j, f ? f->off_self_ns : 0);
	json_key(j, "off_cpu_incl_ns"); json_u64(j, f ? f->off_incl_ns : 0);
}
