/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_OSRELEASE_H
#define AOTPERF_UTIL_OSRELEASE_H
/*
 * os-release(5): which distribution this is, to say how to install perf.
 * Lines KEY=VALUE, the value optionally in matching single or double
 * quotes; comments and other lines are ignored.
 */
#include <stddef.h>

struct ap_os_release {
	char id[64];		/* ID, e.g. "debian", "azurelinux" */
	char id_like[128];	/* ID_LIKE, space-separated */
	char pretty_name[128];	/* PRETTY_NAME */
	char version_id[32];	/* VERSION_ID */
};

/* Read path (NULL: $OS_RELEASE, else /etc/os-release). 0, or -1 when unreadable (fields ""). */
int ap_os_release__read(const char *path, struct ap_os_release *out);
/* The value of key in text (an os-release file's contents), unquoted, into dst; 0 or -1 if absent. */
int ap_os_release__field(const char *text, const char *key, char *dst, size_t n);
/* 1 when the space-separated list holds word. */
int ap_os_release__like(const struct ap_os_release *o, const char *word);

#endif
