/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLASSIFY_ANNOT_REC_H
#define AOTPERF_CLASSIFY_ANNOT_REC_H
/*
 * perf annotate's listing of one symbol, made without perf: for when
 * stock perf annotate crashes or prints no instruction bytes (perf 6.12,
 * docs/install.md, "perf versions"). The recording must name the code in files, as
 * a symbolized copy does (aotperf inject's ELF images, or the
 * jitted-*.so files of perf inject --jit): the symbol is looked up in the
 * symbol table of each executable file the recording maps, its bytes are
 * read from that file, and each sample of the first event counts for the
 * instruction holding its ip in the mapping live at the sample's time
 * (in its process, or in the process it forked from). The result is the
 * same struct cls__annot_parse fills from perf annotate's text, one block
 * per file that holds the symbol and has samples in it.
 */
#include "annotate.h"
#include "../session/session.h"

/*
 * s: the recording (read twice: the mappings, then the samples against
 * them); symbol: the exact symbol name. Mapped files
 * are read where the recording names them, else by base name in the
 * folders of extra_dirs (NULL-terminated, may be NULL). Fails when no
 * mapped file holds the symbol, or no sample falls in it.
 */
int cls__annot_recording(struct session *s, const char *symbol,
			 const char *const *extra_dirs, const struct cls_annot_opts *o,
			 struct cls_annot *out, struct ap_err *err);

#endif
