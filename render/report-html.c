// SPDX-License-Identifier: MIT
/*
 * The report as one HTML page: the data document (docs/html-data.md) is
 * the report JSON with, per core, its target and every function, then the
 * listings of the classified functions, the samples outside wasm and (once
 * the profile has them) the call stacks; render/html.c wraps it with the
 * viewer.
 */
#include <stdlib.h>
#include "html.h"
#include "html_data.h"
#include "report-export.h"
#include "../profile/host.h"

/* Host rows in the document: the viewer lists them; the rest is summed. */
#define HTML_HOST_ROWS 100

struct html_ctx {
	const struct profile *p;
	const struct render_opts *o;	/* the caller's */
	struct render_opts ro;		/* with our hooks */
	struct render_host_row *host;
	size_t nhost;
};

static void core_extra(struct json_out *j, const struct profile *p, uint32_t core, void *arg)
{
	const struct html_ctx *c = arg;
	const struct attr_core *ac = &p->attr.cores[core];

	json_key(j, "target");
	html_data__target(j, ac->mod);
	json_key(j, "functions");
	html_data__functions(j, ac->mod, ac->func_samples);
	if (c->o->json_core_extra)
		c->o->json_core_extra(j, p, core, c->o->core_ctx);
}

static void listings(struct json_out *j, const struct profile *p)
{
	json_key(j, "listings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < p->nfuncs; i++) {
		const struct profile_func *f = &p->funcs[i];
		const struct cwasm_module *m = p->attr.cores[f->core].mod;

		if (f->classified)
			html_data__listing(j, m, core_set__core_name(m), f->func, &f->cls.f,
					   f->cls.insn_samples);
	}
	json_end_arr(j);
}

static void host(struct json_out *j, const struct html_ctx *c)
{
	uint64_t shown = 0;

	if (!c->p->host)
		return;
	json_key(j, "host");
	json_begin_obj(j);
	json_key(j, "samples");
	json_u64(j, c->p->host->samples);
	json_key(j, "frames");
	json_begin_arr(j);
	for (size_t i = 0; i < c->nhost && i < HTML_HOST_ROWS; i++) {
		json_begin_obj(j);
		json_key(j, "dso");
		json_str(j, c->host[i].dso);
		json_key(j, "sym");
		json_str(j, c->host[i].sym);
		json_key(j, "samples");
		json_u64(j, c->host[i].samples);
		json_end_obj(j);
		shown += c->host[i].samples;
	}
	json_end_arr(j);
	json_key(j, "other_samples");
	json_u64(j, c->p->host->samples - shown);
	json_end_obj(j);
}

/*
 * The hook for call stacks: the "stacks" member the viewer draws as an
 * icicle (docs/html-data.md, "stacks"). The profile holds no call stacks
 * yet, so this writes nothing and the page shows the self-sample chart.
 * Once it does, write
 *	json_key(j, "stacks"); json_begin_obj(j); json_key(j, "nodes");
 *	json_begin_arr(j);
 *	... one html_data__stack_node(j, &node) per frame of the merged tree,
 *	    a parent before its children (node.parent: its index, -1 for an
 *	    outermost frame), wasm frames with core = core_set__core_name()
 *	    and local_func so a click opens their listing ...
 *	json_end_arr(j); json_end_obj(j);
 */
static void stacks(struct json_out *j, const struct profile *p)
{
	(void)j;
	(void)p;
}

static void doc_extra(struct json_out *j, const struct profile *p, void *arg)
{
	const struct html_ctx *c = arg;
	const struct attr_result *a = &p->attr;

	if (a->have_event) {
		json_key(j, "sampled_event");
		json_begin_obj(j);
		json_key(j, "name");
		json_str(j, a->event_name);
		json_key(j, a->event_attr.freq ? "frequency" : "period");
		json_u64(j, a->event_attr.sample_period);
		json_end_obj(j);
	}
	listings(j, p);
	host(j, c);
	stacks(j, p);
	if (c->o->json_extra)
		c->o->json_extra(j, p, c->o->ctx);
}

static int emit(struct json_out *j, void *arg, struct ap_err *err)
{
	struct html_ctx *c = arg;

	(void)err;
	json_begin_obj(j);
	json_key(j, "schema_version");
	json_u64(j, 1);
	json_key(j, "tool");
	json_str(j, c->o->tool);
	render__report_json_members(j, c->p, &c->ro);
	json_end_obj(j);
	json_finish(j);
	return 0;
}

static int ctx_init(struct html_ctx *c, const struct profile *p, const struct render_opts *o,
		    struct ap_err *err)
{
	c->p = p;
	c->o = o;
	c->ro = *o;
	c->ro.json_core_extra = core_extra;
	c->ro.core_ctx = c;
	c->ro.json_extra = doc_extra;
	c->ro.ctx = c;
	if (render__host_rows(p, &c->host, &c->nhost))
		return ap_err_nomem(err);
	return 0;
}

int render__report_html(FILE *f, const char *name, const struct profile *p,
			const struct render_opts *o, struct ap_err *err)
{
	struct html_ctx c;
	int rc;

	if (ctx_init(&c, p, o, err))
		return -1;
	rc = html__fwrite_emit(f, name, emit, &c, err);
	free(c.host);
	return rc;
}

int render__report_html_file(const char *path, const struct profile *p,
			     const struct render_opts *o, struct ap_err *err)
{
	struct html_ctx c;
	int rc;

	if (ctx_init(&c, p, o, err))
		return -1;
	rc = html__write_emit(path, emit, &c, err);
	free(c.host);
	return rc;
}
