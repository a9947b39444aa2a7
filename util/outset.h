/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_OUTSET_H
#define AOTPERF_UTIL_OUTSET_H
/*
 * The output files of one command: all of them, or none
 * (docs/commands/common.md, "Outputs"). Each output's writer is handed a temporary name in the
 * output's folder instead of the output's own (outset__add), writes it as
 * it would any path (util/outfile.h: its own temporary, renamed onto ours),
 * and only when every output was written does outset__commit rename each
 * into place. A failure anywhere ends with outset__abort: the temporaries
 * go, and what was at the output names stays as it was.
 *
 *	struct outset set = OUTSET_INIT;
 *	const char *tmp = outset__add(&set, json_path, err);
 *	if (!tmp || write_json(tmp, ...) || ... || outset__commit(&set, err))
 *		outset__abort(&set, err);
 *
 * "-" (stdout), a character device and a FIFO are written in place, as
 * outfile__open writes them: outset__add hands back the path itself. Every
 * write error surfaces before the first rename; a rename inside one folder
 * fails only when the folder changed under the run: then the outputs
 * renamed before it stay, and the error names the one that failed.
 */
#include "err.h"

struct outset_file {
	char *path;	/* the output's name */
	char *tmp;	/* the temporary its writer writes, same folder */
};

struct outset {
	struct outset_file *v;
	size_t n, cap;
};

#define OUTSET_INIT { NULL, 0, 0 }

/*
 * The name to write path's content to: a fresh empty temporary next to
 * path (mkstemp: no symlink followed), or path itself when it is written in
 * place. Refused as outfile__open refuses: a folder, a block device,
 * another user's file, a folder that is not there. NULL with err.
 */
const char *outset__add(struct outset *s, const char *path, struct ap_err *err);
/* Rename every temporary into place; the set is then empty. -1 with err when a rename failed. */
int outset__commit(struct outset *s, struct ap_err *err);
/*
 * Remove every temporary; the set is then empty. err (may be NULL): the
 * message of the failure, whose temporary names become the outputs' names.
 */
void outset__abort(struct outset *s, struct ap_err *err);

#endif
