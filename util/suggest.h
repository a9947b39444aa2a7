/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_SUGGEST_H
#define AOTPERF_UTIL_SUGGEST_H
/*
 * "Did you mean": the candidate closest to a misspelt word (a command, an
 * option name without its dashes), as git and perf suggest one.
 */
#include <stddef.h>

/*
 * The candidate at the smallest edit distance from word (insertions,
 * deletions, substitutions, swaps of neighbours), if that distance is small
 * for the word's length (1 up to 4 letters, 2 up to 8, else 3) and no other
 * candidate is as close; NULL otherwise.
 */
const char *ap_suggest(const char *word, const char *const *cands, size_t n);
/* The edit distance itself (SIZE_MAX past 64 letters). */
size_t ap_edit_distance(const char *a, const char *b);

#endif
