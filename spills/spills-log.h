/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_SPILLS_LOG_H
#define AOTPERF_SPILLS_LOG_H
/*
 * The compile-time spill metric log: wamrc's stderr
 * with WAMR_AOT_SPILL_METRIC=1, one `[aot-spill-metric]` line per function.
 * Parsing and ranking only; nothing here prints.
 *
 * Line grammar, as read here:
 *  - a metric line is any line holding the tag `[aot-spill-metric]` (a
 *    prefix before it, such as a timestamp, is allowed); every other line
 *    (`[aot-codegen-timing]`, anything) is skipped;
 *  - after the tag, whitespace-separated `key=value` tokens in any order;
 *    a key is [A-Za-z_][A-Za-z0-9_]*; tokens without such a key are free
 *    text and ignored;
 *  - a value is the leading decimal integer of its token: trailing text is
 *    ignored ("12," "12(reloads)") unless it would change the number ("1.5",
 *    "0x1f", "12k" are malformed), and a value that does not start with a
 *    digit is malformed;
 *  - `name=` is the exception: wasm names may hold spaces ("<T as Foo>::f"),
 *    so its value runs up to the next token that starts with `key=`, trailing
 *    blanks dropped; a value starting with '"' runs to the closing quote
 *    (backslash escapes \" and \\);
 *  - local_func and spill_ld are required; mod defaults to 0 (a core module
 *    compiled with `wamrc compile` has one module);
 *  - known keys get fixed field ids; other numeric keys are kept as extra
 *    fields (so --sort works on fields this code does not know yet), up to
 *    SPILL_MAX_FIELDS in all; a key twice on one line is malformed;
 *  - a (mod, local_func) pair on two lines is an error naming both lines.
 */
#include <stdint.h>
#include <stdio.h>
#include "../util/err.h"
#include "../util/file.h"

enum spill_field {
	SPILL_F_LOCAL_FUNC,
	SPILL_F_MOD,
	SPILL_F_INSTS,
	SPILL_F_CLOBBERS,
	SPILL_F_SLOTS,
	SPILL_F_SPILLED_VREGS,
	SPILL_F_SCALAR,
	SPILL_F_V128,
	SPILL_F_SLOTS_SCALAR,
	SPILL_F_SLOTS_V128,
	SPILL_F_SPILL_LD,
	SPILL_F_SPILL_ST,
	SPILL_F_REMAT,
	SPILL_F_CALLEE_SAVED,
	SPILL_F__KNOWN
};

#define SPILL_MAX_FIELDS 64	/* known + extra; more extra keys are ignored */
#define SPILL_MAX_WARNINGS 20	/* kept warning texts (all are counted) */

struct spill_extra {
	uint32_t field;
	uint64_t val;
};

struct spill_rec {
	uint32_t mod, func;
	uint32_t line;			/* 1-based line in the log */
	char *name;			/* NULL when absent or empty */
	uint64_t have;			/* bit per field id present */
	uint64_t v[SPILL_F__KNOWN];
	struct spill_extra *extra;
	uint32_t nextra;
};

/* Free what one record owns (its name and extra fields). */
void spill_rec__exit(struct spill_rec *r);


struct spill_log {
	char *path;			/* as given; "-" is stdin */
	struct ap_file_id id;		/* the file read (outputs must not replace it) */
	struct spill_rec *recs;		/* log order */
	uint32_t n;
	uint32_t *by_key;		/* recs sorted by (mod, func) */
	char *fields[SPILL_MAX_FIELDS];	/* field names by id */
	uint32_t nfields;
	uint64_t lines;			/* all lines read */
	uint64_t metric_lines;		/* lines with the tag */
	uint64_t skipped;		/* malformed metric lines skipped (lenient) */
	uint64_t ignored_keys;		/* extra keys past SPILL_MAX_FIELDS */
	char *warnings[SPILL_MAX_WARNINGS];
	uint32_t nwarnings;
	int nomem;			/* the last parse ran out of memory */
};

void spill_log__init(struct spill_log *log, const char *path);
/*
 * Parse one line (without its newline) into r. Returns 1 for a metric line,
 * 0 for a line to skip, -1 for a malformed metric line with the reason in
 * why (no file or line prefix), -2 when out of memory. r->line is left to
 * the caller.
 */
int spill_log__parse_line(struct spill_log *log, const char *line, struct spill_rec *r,
			  char *why, size_t whylen);
/*
 * Read a whole log from f. Malformed metric lines are an error "PATH:LINE:
 * ..." (AP_ERR_INPUT) unless lenient, which skips them and records a
 * warning. No metric lines at all is an error too; a read that fails is
 * AP_ERR_IO, memory AP_ERR_NOMEM.
 */
int spill_log__read_file(struct spill_log *log, FILE *f, int lenient, struct ap_err *err);
/* Open path ("-" = stdin, the one stream accepted; util/file.h) and read it. */
int spill_log__read(struct spill_log *log, const char *path, int lenient, struct ap_err *err);
void spill_log__exit(struct spill_log *log);

/* Field id by name (known or extra seen in this log), or -1. */
int spill_log__field(const struct spill_log *log, const char *name);
/* 1 and *v when r has the field, 0 when absent. */
int spill_log__get(const struct spill_log *log, const struct spill_rec *r, int field,
		   uint64_t *v);
/* The record of (mod, func), or NULL. */
const struct spill_rec *spill_log__find(const struct spill_log *log, uint32_t mod,
					uint32_t func);
/*
 * Indices into recs, by field descending; records without the field come
 * last; ties by (mod, func) ascending. malloc'd, log->n entries (NULL on
 * out of memory; an empty log gives a non-NULL array).
 */
uint32_t *spill_log__rank(const struct spill_log *log, int field);

#endif
