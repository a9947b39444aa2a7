/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_CORESET_H
#define AOTPERF_CWASM_CORESET_H
/*
 * The cores a command works on: lone .cwasm files and every core of each
 * component manifest (.cwasm.json), in the order they were given. Both
 * front ends (aotperf's --cwasm/--manifest, the dlfilter's --dlarg FILE)
 * load them here, and name functions the same way:
 *
 *   N, local_func_N    local function N (an index into the core's table)
 *   NAME               the function whose wasm name (name section, else an
 *                      export) is NAME
 *   modM:F             F (any of the above) in the manifest core labelled
 *                      modM (M is the manifest's idx)
 *
 * A function that several cores have (the same index, or the same name)
 * is an error listing the candidates: a silent pick would classify the
 * wrong code. So is a name two functions of one core share.
 */
#include <stddef.h>
#include <stdint.h>
#include "cwasm.h"
#include "../util/err.h"
#include "../util/file.h"

struct core_set {
	struct cwasm_module **mods;	/* the cores in order; owned through files / mans */
	uint32_t n;
	struct cwasm_module **files;	/* lone .cwasm files */
	struct cwasm_manifest **mans;
	size_t nfiles, nmans;
	struct ap_input *inputs;	/* every file read, by identity: no output may replace one */
	size_t ninputs;
	size_t cap_mods, cap_files, cap_mans, cap_inputs;
	unsigned manifest_flags;	/* CWASM_MANIFEST_* for the manifests added after it is set */
	struct ap_warnings warnings;	/* containers newer than known, partial import walks */
};

int core_set__add_cwasm(struct core_set *cs, const char *path, struct ap_err *err);
int core_set__add_manifest(struct core_set *cs, const char *path, struct ap_err *err);
/* A manifest when path ends in ".json", else a .cwasm. */
int core_set__add(struct core_set *cs, const char *path, struct ap_err *err);
void core_set__exit(struct core_set *cs);
/*
 * Each core once: two of the same bytes (one file given twice, a copy, a
 * manifest's core given again) would share the mappings of one, and the
 * other would have none. 0, or -1 with err naming both.
 */
int core_set__check_once(const struct core_set *cs, struct ap_err *err);
/* --arch: every core is decoded as arch (cwasm_target__override); UNKNOWN: no-op. */
void core_set__set_arch(struct core_set *cs, enum cwasm_arch arch);

/* "modM" of a manifest core, else its path: how tables name a core. */
const char *core_set__core_name(const struct cwasm_module *m);

struct core_func {
	uint32_t core;	/* index into cs->mods */
	uint32_t func;	/* local function index */
};

/*
 * Resolve a function spec (above). 0 and *out, or -1 with err (the message
 * starts with the spec, e.g. "99: no such function (...)"; the front end
 * adds its option's name in front).
 */
int core_set__resolve(const struct core_set *cs, const char *spec, struct core_func *out,
		      struct ap_err *err);

#endif
