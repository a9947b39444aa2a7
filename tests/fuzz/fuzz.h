/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_TESTS_FUZZ_H
#define AOTPERF_TESTS_FUZZ_H
/*
 * One fuzz target = one tests/fuzz/fuzz_NAME.c (see tests/fuzz/README.md).
 * It defines LLVMFuzzerTestOneInput() and may define:
 *
 *   LLVMFuzzerInitialize()    once per process, before the first input
 *   fuzz_write_seeds(dir)     write generated seed inputs into dir; run
 *                             by `make fuzz` through the replay binary
 *
 * The same file is built twice: with clang and libFuzzer into
 * build-fuzz/fuzz_NAME, and with the project's compiler (plain or SAN)
 * against tests/fuzz/replay.c into BUILD/tests/test_fuzz_NAME, which
 * feeds it every file of tests/fuzz/seeds/NAME/ and tests/fuzz/regress/NAME/.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
int fuzz_write_seeds(const char *dir);

/*
 * A private scratch folder for this process (made on first use, removed at
 * exit) and files in it. fuzz_file() writes data to NAME there and returns
 * its path; it aborts on any failure, so a target never fuzzes the harness.
 */
const char *fuzz_dir(void);
const char *fuzz_file(const char *name, const void *data, size_t size);
/* Copy a file into the scratch folder (0), or -1 when src is not readable. */
int fuzz_copy_in(const char *src, const char *name);
/* For fuzz_write_seeds(): write dir/name, abort on failure. */
void fuzz_write(const char *dir, const char *name, const void *data, size_t size);

/* A failed check of the code under test's own promises: a crash libFuzzer reports. */
#define FUZZ_ASSERT(c) do { if (!(c)) __builtin_trap(); } while (0)

#endif
