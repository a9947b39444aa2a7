// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "file.h"
#include "osrelease.h"

#define OS_RELEASE_MAX (64u << 10)

int ap_os_release__field(const char *text, const char *key, char *dst, size_t n)
{
	size_t kl = strlen(key);
	const char *line = text;

	if (n)
		dst[0] = '\0';
	while (*line) {
		size_t ll = strcspn(line, "\n"), l;
		const char *v = line + kl + 1;

		if (ll > kl && !strncmp(line, key, kl) && line[kl] == '=') {
			l = strcspn(v, "\r\n");
			if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
				v++;
				l -= 2;
			}
			snprintf(dst, n, "%.*s", (int)l, v);
			return 0;
		}
		line += ll + (line[ll] == '\n');
	}
	return -1;
}

int ap_os_release__read(const char *path, struct ap_os_release *out)
{
	struct ap_err err;
	char *text;
	size_t len;

	memset(out, 0, sizeof(*out));
	if (!path) {
		path = getenv("OS_RELEASE");
		if (!path || !*path)
			path = "/etc/os-release";
	}
	if (ap_file__read_all(path, 0, OS_RELEASE_MAX, &text, &len, NULL, &err))
		return -1;
	ap_os_release__field(text, "ID", out->id, sizeof(out->id));
	ap_os_release__field(text, "ID_LIKE", out->id_like, sizeof(out->id_like));
	ap_os_release__field(text, "PRETTY_NAME", out->pretty_name, sizeof(out->pretty_name));
	ap_os_release__field(text, "VERSION_ID", out->version_id, sizeof(out->version_id));
	free(text);
	return 0;
}

int ap_os_release__like(const struct ap_os_release *o, const char *w)
{
	const char *list = o->id_like;
	size_t wl = strlen(w);

	for (const char *p = list; (p = strstr(p, w)); p += wl)
		if ((p == list || p[-1] == ' ') && (p[wl] == '\0' || p[wl] == ' '))
			return 1;
	return 0;
}
