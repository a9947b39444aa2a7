// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "perf.h"
#include "run.h"

static int is_exe(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

int ap_find_exe(const char *name, char *buf, size_t len)
{
	const char *path = getenv("PATH");

	if (strchr(name, '/')) {
		if (!is_exe(name) || (size_t)snprintf(buf, len, "%s", name) >= len)
			return -1;
		return 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t l = strcspn(path, ":");

		if ((size_t)snprintf(buf, len, "%.*s%s%s", (int)l, l ? path : ".", "/", name) < len &&
		    is_exe(buf))
			return 0;
		path += l;
		if (*path == ':')
			path++;
	}
	if (len)
		buf[0] = '\0';
	return -1;
}

static const char *env_perf(void)
{
	const char *e = getenv("PERF");

	return e && *e ? e : NULL;
}

void ap_perf__where(const char *override, char *buf, size_t len)
{
	const char *name = override ? override : env_perf();

	if (name)
		snprintf(buf, len, "no executable at %s%s", name, override ? "" : " ($PERF)");
	else
		snprintf(buf, len, "looked for 'perf' on PATH");
}

int ap_perf__find(const char *override, char *buf, size_t len, struct ap_err *err)
{
	const char *name = override ? override : env_perf();
	char where[300];

	if (!ap_find_exe(name ? name : "perf", buf, len))
		return 0;
	ap_perf__where(override, where, sizeof(where));
	return ap_errf(err, "perf not found (%s)", where);
}

int ap_perf__cycles(const char *perf, const char *dir, int timeout_ms, char *field,
		    size_t field_len, char *why, size_t why_len)
{
	const char *argv[] = { perf, "stat", "-e", "cycles", "-x,", "--", "true", NULL };
	struct ap_child c = { .argv = argv, .dir = dir, .stdin_null = 1,
			      .stdout_io = AP_IO_CAPTURE, .stderr_io = AP_IO_MERGE,
			      .timeout_ms = timeout_ms, .new_group = 1 };
	struct ap_err err;
	const char *line;
	int ret;

	if (field_len)
		field[0] = '\0';
	if (why_len)
		why[0] = '\0';
	if (ap_child__run(&c, &err)) {
		snprintf(why, why_len, "%s", err.msg);
		return AP_CYCLES_FAILED;
	}
	if (c.status) {
		ap_child__describe(&c, why, why_len);
		ap_child__exit(&c);
		return AP_CYCLES_FAILED;
	}
	line = strstr(c.out, ",cycles");
	if (line) {
		while (line > c.out && line[-1] != '\n')
			line--;
		snprintf(field, field_len, "%.*s", (int)strcspn(line, ",\n"), line);
	}
	ret = field_len && *field && strspn(field, "0123456789.") == strlen(field) ?
	      AP_CYCLES_YES : AP_CYCLES_NO;
	ap_child__exit(&c);
	return ret;
}
