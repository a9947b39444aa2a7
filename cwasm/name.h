/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_NAME_H
#define AOTPERF_CWASM_NAME_H

/*
 * The one name sanitizer: every wasm name that reaches a perf map, a
 * jitdump, an ELF symbol, JSON or a terminal goes through it
 * (docs/formats-cwasm.md, "Names"). libc only.
 */
#include <stddef.h>
#include <stdio.h>

/* Longest wasm name kept, in bytes (the cut falls between characters). */
#define CWASM_NAME_MAX 256

/*
 * Copy LEN bytes of SRC into DST (DSTSZ bytes, NUL-terminated when DSTSZ
 * > 0), keeping valid UTF-8 and replacing with one '_' each: a byte that
 * does not start a valid UTF-8 sequence; a control character (U+0000 to
 * U+001F, DEL, U+0080 to U+009F: newline, CR, ESC and the C1 CSI
 * included); a line or paragraph separator (U+2028, U+2029); a
 * bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E,
 * U+2066 to U+2069). Stops before a character that would not fit. Never
 * grows: the result has at most LEN bytes. Returns the length written.
 */
size_t cwasm_name__sanitize(char *dst, size_t dstsz, const void *src, size_t len);

/*
 * Write the C string s to f sanitized as above, whole (no length cut):
 * for messages that quote what a file or another program said.
 */
void cwasm_name__fputs(const char *s, FILE *f);

/*
 * Text another program wrote (perf annotate's listing), cleaned in place
 * before it is parsed: every character the sanitizer replaces becomes '_',
 * except newline and tab, which keep their meaning. Returns the new length
 * (never longer); buf stays NUL-terminated when it was.
 */
size_t cwasm_name__scrub_text(char *buf, size_t len);

#endif
