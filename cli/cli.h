/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_H
#define AOTPERF_CLI_H
/*
 * The command-line layer: only here are messages printed and exit codes
 * chosen. Exit codes: 0 ok, 1 a gate failed (--min-samples,
 * --require-size-match) or the command's check is negative, 2 bad usage or
 * bad input.
 */
#include <stdint.h>
#include "../cwasm/cwasm.h"
#include "../util/err.h"

enum { EXIT_OK = 0, EXIT_GATE = 1, EXIT_BAD = 2 };

/* The cores named by --cwasm / --manifest, in command-line order. */
struct core_set {
	struct cwasm_module **mods; /* borrowed from files[] / mans[] */
	uint32_t n;
	struct cwasm_module **files;
	uint32_t nfiles;
	struct cwasm_manifest **mans;
	uint32_t nmans;
};

int core_set__add_cwasm(struct core_set *cs, const char *path, struct ap_err *err);
int core_set__add_manifest(struct core_set *cs, const char *path, struct ap_err *err);
void core_set__exit(struct core_set *cs);

/* Print "aotperf <cmd>: <msg>" to stderr; returns EXIT_BAD. */
int cli_fail(const char *cmd, const struct ap_err *err);
void cli_warn(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parse numbers strictly ("12x" is an error). */
int cli_parse_u64(const char *s, int base, uint64_t *out);

int cmd_report(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_perfmap(int argc, char **argv);
int cmd_jitdump(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_spills(int argc, char **argv);

#endif
