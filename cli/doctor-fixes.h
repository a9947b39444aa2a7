/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_DOCTOR_FIXES_H
#define AOTPERF_CLI_DOCTOR_FIXES_H
/*
 * What aotperf doctor's fixes may name: only commands and paths that exist
 * on this machine (sudo where it is installed, the install script where
 * this aotperf's checkout has it, an installed perf of the kernel's
 * version, the package manager that is there).
 */
#include <stddef.h>

/* How a root-only command is prefixed: "" as root, "sudo " where sudo exists, else "as root: ". */
const char *doctor_fix__as_root(int root);
/* Inside a command line (after a pipe): "sudo " where sudo exists and we are not root, else "". */
const char *doctor_fix__sudo(int root);
/*
 * The absolute path of kernel-tools-compat/install-perf.sh of the checkout
 * this aotperf was built in (build/aotperf), when it is there. 0, or -1.
 */
int doctor_fix__install_script(char *buf, size_t len);
/*
 * Another perf on PATH ("perf", Debian's versioned "perf_X.Y"), not the
 * file skip, whose `--version` is kernel major.minor kmaj.kmin: 0 with its
 * path and version line; -1 when none.
 */
int doctor_fix__matching_perf(const char *skip, unsigned int kmaj, unsigned int kmin,
			      int timeout_ms, char *path, size_t len, char *ver, size_t vlen);
/* "sudo apt-get install binutils" or the like, by the package manager found here. */
void doctor_fix__binutils(int root, char *buf, size_t len);

#endif
