/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_PERFCONFIG_H
#define AOTPERF_UTIL_PERFCONFIG_H
/*
 * perf's own settings, where aotperf reads what perf wrote: the build-id
 * cache folder (perf record's copies of the binaries it sampled and of
 * the kernel's symbols, docs/formats-perf.md "Kernel symbols").
 *
 * perf's config files are git-style text: "[section]" (or
 * `[section "sub"]`) lines, then `name = value` lines; names are not case
 * sensitive; a value may be quoted ("...") and use \" \\ \n \t escapes;
 * '#' and ';' start a comment outside quotes; a later setting wins.
 */
#include <stddef.h>

/*
 * The value of section.name (no subsection) in a config text of n bytes
 * into out (cut to outn): 1 when set, 0 when not (or set without a value).
 */
int ap_perfconfig__get(const char *text, size_t n, const char *section, const char *name,
		       char *out, size_t outn);

/*
 * perf's build-id cache folder, as perf finds it, into buf: the
 * PERF_BUILDID_DIR environment variable (perf sets it for the commands it
 * runs); else buildid.dir of perf's config: the file PERF_CONFIG names
 * alone when it is set (/dev/null: none), else /etc/perfconfig (unless
 * PERF_CONFIG_NOSYSTEM is set) then ~/.perfconfig, the later winning;
 * else ~/.debug. 0, or -1 when none can be named (no HOME) or it does
 * not fit.
 */
int ap_perf__buildid_dir(char *buf, size_t n);

#endif
