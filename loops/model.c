// SPDX-License-Identifier: MIT
/*
 * llvm-mca over the hottest loops: one input per function holding a code
 * region per loop and lever (`# LLVM-MCA-BEGIN name`; llvm-mca analyses
 * each region on its own), one child per function, the children run in
 * parallel. What is read back: Total Cycles / Iterations per region and,
 * for a loop as compiled, the bottleneck analysis in one line.
 *
 * The model assumes every access hits L1 and that no load depends on an
 * earlier store (llvm-mca's default -noalias): a frame slot stored and
 * reloaded costs no forwarding latency, which is what cores that rename
 * stack memory do (docs/levers.md).
 */
#include <glob.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mca.h"
#include "../util/run.h"

const char *lp_mca__comment(enum cwasm_arch arch)
{
	/* llvm-mca finds its markers after '#' on aarch64 too (not after "//") */
	(void)arch;
	return "#";
}

static const char *triple(enum cwasm_arch arch)
{
	return arch == CWASM_ARCH_AARCH64 ? "-mtriple=aarch64-linux-gnu" :
					    "-mtriple=x86_64-unknown-linux-gnu";
}

/* The newest /usr/lib/llvm-N/bin/llvm-mca, else llvm-mca on PATH. */
static int find_tool(char *out, size_t n)
{
	const char *env = getenv("AOTPERF_LLVM_MCA"), *path = getenv("PATH");
	glob_t g;
	int best = -1;

	if (env) {
		snprintf(out, n, "%s", env);
		return *env && !access(env, X_OK) ? 0 : -1;
	}
	if (!glob("/usr/lib/llvm-*/bin/llvm-mca", 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			int v = atoi(g.gl_pathv[i] + strlen("/usr/lib/llvm-"));

			if (v > best && !access(g.gl_pathv[i], X_OK)) {
				best = v;
				snprintf(out, n, "%s", g.gl_pathv[i]);
			}
		}
		globfree(&g);
	}
	if (best >= 0)
		return 0;
	for (const char *s = path; s && *s;) {
		size_t l = strcspn(s, ":");

		snprintf(out, n, "%.*s/llvm-mca", (int)l, s);
		if (l && !access(out, X_OK))
			return 0;
		s += l + (s[l] == ':');
	}
	*out = 0;
	return -1;
}

int lp_mca__find(struct lp_mca *t, enum cwasm_arch arch, const struct lp_cpu *cpu)
{
	const char *mark;

	memset(t, 0, sizeof(*t));
	t->arch = arch;
	t->cpu = *cpu;
	if (find_tool(t->path, sizeof(t->path))) {
		snprintf(t->note, sizeof(t->note), "no llvm-mca%s%.100s: `make deps` installs llvm "
			 "(Debian: apt-get install llvm), or AOTPERF_LLVM_MCA=PATH names one",
			 *t->path ? " at " : "", t->path);
		*t->path = 0;
		return -1;
	}
	mark = strstr(t->path, "/llvm-");
	lp_mcpu__too_new(mark ? (unsigned)atoi(mark + strlen("/llvm-")) : 0, t->rejected,
			 sizeof(t->rejected));
	lp_mcpu__pick(cpu, arch, NULL, t->rejected, t->mcpu, sizeof(t->mcpu), t->why,
		      sizeof(t->why));
	return 0;
}

/* ---- one function's input ---- */

/* One llvm-mca child: the functions i, i + njobs, ... */
struct job {
	const struct lp_mca *t;
	struct lp_func *const *lfs;
	const struct cls_func *const *fs;
	uint32_t first, step, n;
	struct lp_text in;
	char mcpu[32], why[256];
	char err[256];
	int started;
	int aliased;		/* the -noalias=false pass: aliased_base, aliased_frame */
};

static int add_region(struct job *j, uint32_t fi, uint32_t k, int lever, struct lp_model_run *r)
{
	const char *cm = lp_mca__comment(j->fs[fi]->arch);
	char label[64], name[64];

	snprintf(label, sizeof(label), ".Lf%uloop%u%s%s", fi, k, lever < 0 ? "" : "_",
		 lever < 0 ? "" : lp_lever__name((enum lp_lever)lever));
	snprintf(name, sizeof(name), "F%uL%u_%s", fi, k, lever < 0 ? "base" :
		 lp_lever__name((enum lp_lever)lever));
	if (lp_text__add(&j->in, "%s LLVM-MCA-BEGIN %s\n", cm, name) ||
	    lp_whatif__body(&j->in, j->lfs[fi], &j->lfs[fi]->loops[k], j->fs[fi], lever, label,
			    &r->removed, &r->touched_samples) ||
	    lp_text__add(&j->in, "%s LLVM-MCA-END\n", cm))
		return -1;
	return 0;
}

/* The loop as compiled, alone: the input the JSON gives to rerun it. */
static int standalone(struct job *j, uint32_t fi, struct lp_loop *l, uint32_t k)
{
	struct lp_text t = { 0 };
	char label[64];
	uint32_t removed;
	uint64_t touched;

	snprintf(label, sizeof(label), ".Lf%uloop%u", fi, k);
	if ((j->fs[fi]->arch != CWASM_ARCH_AARCH64 &&
	     lp_text__add(&t, ".intel_syntax noprefix\n")) ||
	    lp_whatif__body(&t, j->lfs[fi], l, j->fs[fi], -1, label, &removed, &touched)) {
		lp_text__exit(&t);
		return -1;
	}
	l->input = t.s;
	l->npath = 0;
	for (const char *s = t.s; (s = strchr(s, '\t')); s++)
		l->npath++;
	return 0;
}

/* Is loop k of lf one to model? (lp_func.model_min_self; loops are hottest first) */
static int wanted(const struct lp_func *lf, uint32_t k)
{
	const struct lp_loop *l = &lf->loops[k];

	if (lf->model_every)
		return 1;
	if (lf->model_min_self)
		return l->self_samples >= lf->model_min_self;
	return k < LP_MODEL_LOOPS && (lf->total ? l->samples > 0 : !k);
}

/* The aliased pass: each loop the frame lever touched, as compiled and with the lever. */
static int build_aliased(struct job *j, uint32_t fi)
{
	struct lp_func *lf = j->lfs[fi];

	for (uint32_t k = 0; k < lf->nloops && wanted(lf, k); k++) {
		struct lp_loop *l = &lf->loops[k];

		if (!l->base.ok || !l->lever[LP_FRAME].removed)
			continue;
		if (add_region(j, fi, k, -1, &l->aliased_base) ||
		    add_region(j, fi, k, LP_FRAME, &l->aliased_frame))
			return -1;
	}
	return 0;
}

static int build_function(struct job *j, uint32_t fi)
{
	struct lp_func *lf = j->lfs[fi];

	if (j->aliased)
		return lf->model_aliased ? build_aliased(j, fi) : 0;
	for (uint32_t k = 0; k < lf->nloops && wanted(lf, k); k++) {
		struct lp_loop *l = &lf->loops[k];
		struct lp_model_run base;

		if (standalone(j, fi, l, k))
			return -1;
		if (!l->npath)
			continue;
		if (add_region(j, fi, k, -1, &base))
			return -1;
		for (int lv = 0; lv < LP__NLEVERS; lv++) {
			size_t mark = j->in.len;

			const char *why;

			if (add_region(j, fi, k, lv, &l->lever[lv]))
				return -1;
			l->lever[lv].not_modelled = lp_loop__unmodelled(lf, j->fs[fi], l, lv,
									  j->t->mcpu, &why) ? why : NULL;
			if (!l->lever[lv].removed)
				j->in.len = mark;	/* nothing to apply: no region */
			j->in.s[j->in.len] = 0;
		}
	}
	return 0;
}

static int build_input(struct job *j)
{
	if (j->t->arch != CWASM_ARCH_AARCH64 && lp_text__add(&j->in, ".intel_syntax noprefix\n"))
		return -1;
	for (uint32_t fi = j->first; fi < j->n; fi += j->step)
		if (build_function(j, fi))
			return -1;
	return 0;
}

/* ---- llvm-mca's report ---- */

static double number_after(const char *s, const char *end, const char *key)
{
	const char *p = strstr(s, key);

	return p && (!end || p < end) ? atof(p + strlen(key)) : -1;
}

static double pct_after(const char *s, const char *end, const char *key)
{
	const char *p = strstr(s, key);

	if (!p || (end && p > end))
		return -1;
	p = strchr(p, '[');
	return p ? atof(p + 1) : -1;
}

/* "backend pressure 74% of cycles: resources 72% (Zn4LSU 43%), data 71% (registers 71%, memory 0%)" */
static void bottleneck(const char *s, const char *end, char *out, size_t n)
{
	double bp = pct_after(s, end, "backend pressure increase"), rthr;
	double rp = pct_after(s, end, "Resource Pressure "), dd = pct_after(s, end, "Data Dependencies:");
	double rd = pct_after(s, end, "Register Dependencies"), md = pct_after(s, end, "Memory Dependencies");
	const char *p = strstr(s, "Resource Pressure "), *stop = strstr(s, "Data Dependencies:");
	char top[48] = "";
	double best = -1;

	rthr = number_after(s, end, "Block RThroughput:");
	if (bp < 0) {
		snprintf(out, n, "no backend pressure found: dispatch-width bound (block throughput "
			 "%.2f cycles)", rthr);
		return;
	}
	for (p = p && p < end ? strchr(p, '\n') : NULL; p && stop && p < stop; p = strchr(p + 1, '\n')) {
		char name[40];
		double v;

		if (sscanf(p, "\n - %39s [ %lf", name, &v) == 2 && v > best) {
			best = v;
			snprintf(top, sizeof(top), "%s %.0f%%", name, v);
		}
	}
	if (rp <= 0)
		*top = 0;
	/* a line cut at the caller's width is still read from its start: no error */
	if (snprintf(out, n, "backend pressure %.0f%% of cycles: resources %.0f%%%s%s%s, data "
		     "dependencies %.0f%% (registers %.0f%%, memory %.0f%%); block throughput %.2f",
		     bp, rp < 0 ? 0 : rp, *top ? " (most " : "", top, *top ? ")" : "",
		     dd < 0 ? 0 : dd, rd < 0 ? 0 : rd, md < 0 ? 0 : md, rthr) >= (int)n)
		return;
}

static void read_report(struct job *j, const char *out)
{
	for (const char *s = strstr(out, "Code Region - "); s;) {
		const char *next = strstr(s + 1, "Code Region - ");
		unsigned fi, k;
		char what[32];
		double it = number_after(s, next, "Iterations:");
		double cyc = number_after(s, next, "Total Cycles:");
		struct lp_model_run *r = NULL;

		if (sscanf(s, "Code Region - F%uL%u_%31s", &fi, &k, what) == 3 && fi < j->n &&
		    k < j->lfs[fi]->nloops) {
			struct lp_loop *l = &j->lfs[fi]->loops[k];

			if (j->aliased)
				r = !strcmp(what, "base") ? &l->aliased_base :
				    !strcmp(what, "frame") ? &l->aliased_frame : NULL;
			else if (!strcmp(what, "base")) {
				r = &l->base;
				bottleneck(s, next, l->bottleneck, sizeof(l->bottleneck));
			}
			for (int lv = 0; !r && !j->aliased && lv < LP__NLEVERS; lv++)
				if (!strcmp(what, lp_lever__name((enum lp_lever)lv)))
					r = &l->lever[lv];
		}
		if (r && it > 0 && cyc >= 0) {
			r->ok = 1;
			r->cycles_per_iter = cyc / it;
		}
		s = next;
	}
}

/* One run; 1 when llvm-mca refused the -mcpu (its name is then added to rejected). */
static int run_once(struct job *j, const char *path, char *rejected, size_t rn)
{
	char mcpu[48], iters[32];
	/* the per-instruction and resource tables are not read: ~15% of its CPU time */
	const char *argv[] = { j->t->path, triple(j->t->arch), mcpu, iters, "-bottleneck-analysis",
			       "-instruction-info=false", "-resource-pressure=false", path,
			       j->aliased ? "-noalias=false" : NULL, NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
			      .stderr_io = AP_IO_CAPTURE, .timeout_ms = 60000 };
	struct ap_err err = { 0 };
	int refused = 0;

	snprintf(mcpu, sizeof(mcpu), "-mcpu=%s", j->mcpu);
	snprintf(iters, sizeof(iters), "-iterations=%d", LP_MCA_ITERATIONS);
	if (ap_child__run(&c, &err)) {
		snprintf(j->err, sizeof(j->err), "%.200s", err.msg);
	} else if (c.err_out && strstr(c.err_out, "is not a recognized processor")) {
		size_t l = strlen(rejected);

		snprintf(rejected + l, rn - l, "%s ", j->mcpu);
		refused = 1;
	} else if (c.status) {
		char why[200];

		ap_first_line(why, sizeof(why), c.err_out ? c.err_out : "", "error");
		snprintf(j->err, sizeof(j->err), "llvm-mca exit %d: %s", c.status, why);
	} else {
		read_report(j, c.out);
	}
	ap_child__exit(&c);
	return refused;
}

static void *run_job(void *arg)
{
	struct job *j = arg;
	char path[] = "/tmp/aotperf-mca-XXXXXX", rejected[160] = "";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f || fwrite(j->in.s, 1, j->in.len, f) != j->in.len || fclose(f)) {
		snprintf(j->err, sizeof(j->err), "cannot write llvm-mca's input %s", path);
		if (fd >= 0)
			unlink(path);
		return NULL;
	}
	snprintf(rejected, sizeof(rejected), "%s", j->t->rejected);
	snprintf(j->mcpu, sizeof(j->mcpu), "%s", j->t->mcpu);
	snprintf(j->why, sizeof(j->why), "%s", j->t->why);
	/* a model newer than this LLVM: the next older one of its line */
	for (int tries = 0; tries < 4 && run_once(j, path, rejected, sizeof(rejected)); tries++)
		lp_mcpu__pick(&j->t->cpu, j->t->arch, NULL, rejected, j->mcpu, sizeof(j->mcpu),
			      j->why, sizeof(j->why));
	unlink(path);
	return NULL;
}

int lp_model__run(const struct lp_mca *t, struct lp_func *const *lfs,
		  const struct cls_func *const *fs, uint32_t n, int aliased, struct ap_err *err)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint32_t nj = n < (uint32_t)(ncpu > 0 ? ncpu : 1) ? n : (uint32_t)(ncpu > 0 ? ncpu : 1);
	struct job *jobs = calloc(nj + 1, sizeof(*jobs));
	pthread_t *th = calloc(nj + 1, sizeof(*th));
	int ret = -1;

	if (!jobs || !th)
		goto out;
	/* one child per CPU, each with every nj-th function */
	for (uint32_t i = 0; i < nj; i++) {
		jobs[i] = (struct job){ .t = t, .lfs = lfs, .fs = fs, .first = i, .step = nj, .n = n,
					.aliased = aliased };
		if (build_input(&jobs[i]))
			goto out;
	}
	for (uint32_t i = 0; i < nj; i++) {
		if (!strstr(jobs[i].in.s, "LLVM-MCA-BEGIN"))
			continue;
		if (pthread_create(&th[i], NULL, run_job, &jobs[i]))
			run_job(&jobs[i]);
		else
			jobs[i].started = 1;
	}
	for (uint32_t i = 0; i < nj; i++)
		if (jobs[i].started)
			pthread_join(th[i], NULL);
	for (uint32_t i = 0; i < n && !aliased; i++) {
		struct lp_model_info *mi = &lfs[i]->model;
		const struct job *j = &jobs[i % nj];

		snprintf(mi->note, sizeof(mi->note), "%s", j->err);
		if (*j->mcpu) {
			snprintf(mi->mcpu, sizeof(mi->mcpu), "%s", j->mcpu);
			snprintf(mi->why, sizeof(mi->why), "%s", j->why);
		}
	}
	ret = 0;
out:
	for (uint32_t i = 0; jobs && i < nj; i++)
		lp_text__exit(&jobs[i].in);
	free(jobs);
	free(th);
	return ret ? ap_err_nomem(err) : 0;
}
