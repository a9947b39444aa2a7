/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_TERM_H
#define AOTPERF_UTIL_TERM_H
/*
 * Text for people: how wide it may be. Tables fit 80 columns unless the terminal is wider (perf's
 * rule: $COLUMNS, else the terminal's own width) or the user asked for
 * wide output.
 */
#include <stddef.h>
#include <stdio.h>

#define AP_TERM_DEFAULT_COLUMNS 80
#define AP_TERM_UNLIMITED 0xffffffffu

/*
 * The columns text written to out may use: $COLUMNS when it is a number,
 * else out's terminal width (TIOCGWINSZ) when out is a terminal, never
 * less than 80. wide: no limit (AP_TERM_UNLIMITED).
 */
unsigned ap_term__columns(FILE *out, int wide);

/*
 * Copy s into dst (dstsz bytes) cut to at most cols columns, counting
 * one column per UTF-8 character; a cut string ends in "..." (perf's
 * mark of a cut name). Returns dst.
 */
char *ap_term__fit(char *dst, size_t dstsz, const char *s, size_t cols);

/*
 * Write text to f wrapped at spaces to at most cols columns (a word longer
 * than a line stays whole), continuation lines indented by indent spaces,
 * and a final newline.
 */
void ap_term__wrap(FILE *f, const char *text, size_t cols, size_t indent);

#endif
