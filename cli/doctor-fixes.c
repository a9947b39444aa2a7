// SPDX-License-Identifier: MIT
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "doctor-fixes.h"
#include "../util/perf.h"
#include "../util/run.h"

#define MAX_PERF_CANDIDATES 8

static int have(const char *prog)
{
	char path[PATH_MAX];

	return !ap_find_exe(prog, path, sizeof(path));
}

const char *doctor_fix__as_root(int root)
{
	return root ? "" : have("sudo") ? "sudo " : "as root: ";
}

const char *doctor_fix__sudo(int root)
{
	return !root && have("sudo") ? "sudo " : "";
}

int doctor_fix__install_script(char *buf, size_t len)
{
	char exe[PATH_MAX], cand[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	/* build/aotperf (or build-san/aotperf) of a checkout */
	snprintf(cand, sizeof(cand), "%s/../kernel-tools-compat/install-perf.sh", exe);
	if (access(cand, X_OK) && access(cand, R_OK))
		return -1;
	if (!realpath(cand, exe) || strlen(exe) >= len)
		return -1;
	snprintf(buf, len, "%s", exe);
	return 0;
}

/* `path --version` is perf version kmaj.kmin.*: 0 and the line. */
static int version_matches(const char *path, unsigned int kmaj, unsigned int kmin,
			   int timeout_ms, char *ver, size_t vlen)
{
	const char *argv[] = { path, "--version", NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_CAPTURE,
			      .stderr_io = AP_IO_NULL, .timeout_ms = timeout_ms, .new_group = 1 };
	struct ap_err err;
	unsigned int maj, min;
	int ok = -1;

	if (ap_child__run(&c, &err))
		return -1;
	ap_first_line(ver, vlen, c.out ? c.out : "", "perf version");
	if (!c.status && sscanf(ver, "perf version %u.%u", &maj, &min) == 2 && maj == kmaj &&
	    min == kmin)
		ok = 0;
	ap_child__exit(&c);
	return ok;
}

static int is_perf_name(const char *name)
{
	return !strcmp(name, "perf") || (!strncmp(name, "perf_", 5) && name[5] >= '0' &&
					 name[5] <= '9');
}

int doctor_fix__matching_perf(const char *skip, unsigned int kmaj, unsigned int kmin,
			      int timeout_ms, char *path, size_t len, char *ver, size_t vlen)
{
	const char *env = getenv("PATH");
	char skip_real[PATH_MAX] = "", dir[PATH_MAX], real[PATH_MAX], cand[PATH_MAX + 256];
	int tried = 0;

	if (skip && !realpath(skip, skip_real))
		skip_real[0] = '\0';
	for (const char *p = env ? env : ""; *p && tried < MAX_PERF_CANDIDATES;) {
		size_t l = strcspn(p, ":");
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%.*s", (int)l, p);
		p += l + (p[l] == ':');
		if (!dir[0] || !(d = opendir(dir)))
			continue;
		while ((e = readdir(d)) && tried < MAX_PERF_CANDIDATES) {
			if (!is_perf_name(e->d_name))
				continue;
			snprintf(cand, sizeof(cand), "%s/%s", dir, e->d_name);
			if (access(cand, X_OK) || !realpath(cand, real) || !strcmp(real, skip_real))
				continue;
			tried++;
			if (!version_matches(cand, kmaj, kmin, timeout_ms, ver, vlen) &&
			    strlen(cand) < len) {
				snprintf(path, len, "%s", cand);
				closedir(d);
				return 0;
			}
		}
		closedir(d);
	}
	return -1;
}

void doctor_fix__binutils(int root, char *buf, size_t len)
{
	const char *pre = doctor_fix__as_root(root);

	if (have("apt-get"))
		snprintf(buf, len, "%sapt-get install binutils", pre);
	else if (have("tdnf"))
		snprintf(buf, len, "%stdnf install -y binutils", pre);
	else if (have("dnf"))
		snprintf(buf, len, "%sdnf install binutils", pre);
	else
		snprintf(buf, len, "install binutils, your distribution's package of objdump");
}
