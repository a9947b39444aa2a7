// SPDX-License-Identifier: MIT
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "buildid_cache.h"
#include "../util/run.h"

#define PERF_TIMEOUT_MS 60000
#define BUILDID_DIR_KEY "buildid.dir="

int bidcache__dir(const char *perf, char *buf, size_t len, struct ap_err *err)
{
	const char *argv[] = { perf, "config", "buildid.dir", NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
			      .stderr_io = AP_IO_NULL, .timeout_ms = PERF_TIMEOUT_MS };
	const char *home = getenv("HOME"), *val = NULL;
	size_t n = 0;
	int ret;

	if (ap_child__run(&c, err))
		return -1;
	/* "buildid.dir=VALUE" when set; nothing when not */
	if (!c.status && c.out && !strncmp(c.out, BUILDID_DIR_KEY, strlen(BUILDID_DIR_KEY))) {
		val = c.out + strlen(BUILDID_DIR_KEY);
		n = strcspn(val, "\n");
	}
	if (val && n)
		ret = snprintf(buf, len, "%.*s", (int)n, val);
	else if (home)
		ret = snprintf(buf, len, "%s/.debug", home);
	else
		ret = snprintf(buf, len, ".debug");	/* perf's own fallback */
	ap_child__exit(&c);
	if (ret < 0 || (size_t)ret >= len)
		return ap_errf(err, "perf's build-id cache folder: path too long");
	return 0;
}

int bidcache__add(const char *perf, const char *dir, const char *image, const uint8_t *id,
		  size_t id_len, struct ap_err *err)
{
	const char *argv[] = { perf, "buildid-cache", "-a", image, NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
			      .stderr_io = AP_IO_MERGE, .timeout_ms = PERF_TIMEOUT_MS };
	char hex[2 * 20 + 1], link[PATH_MAX], said[200] = "";
	struct stat st;
	int n;

	if (!id_len || id_len > 20)
		return ap_errf(err, "%s: no build id", image);
	/* perf splits the list it is given at commas */
	if (strchr(image, ','))
		return ap_errf(err, "%s: perf buildid-cache cannot take a path with a comma", image);
	for (size_t i = 0; i < id_len; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	n = snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s/elf", dir, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(link))
		return ap_errf(err, "%s: path too long", dir);
	if (ap_child__run(&c, err))
		return -1;
	if (c.status) {
		ap_child__describe(&c, said, sizeof(said));
		ap_child__exit(&c);
		return ap_errf(err, "perf buildid-cache -a %s failed (%s)", image, said);
	}
	/* "Couldn't add IMAGE: why" is all perf says when it fails */
	if (c.out && strstr(c.out, "Couldn't"))
		ap_first_line(said, sizeof(said), c.out, "Couldn't");
	ap_child__exit(&c);
	if (stat(link, &st) || !S_ISREG(st.st_mode))
		return ap_errf(err, "perf buildid-cache -a %s: no %s afterwards%s%s", image, link,
			       said[0] ? ": " : "", said);
	return 0;
}
