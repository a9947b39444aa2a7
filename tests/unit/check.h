/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_TESTS_CHECK_H
#define AOTPERF_TESTS_CHECK_H
/*
 * A minimal test harness: each CHECK counts one assertion; a unit test
 * binary ends with CHECK_DONE(), which prints "N passed, N failed" and
 * returns non-zero on any failure. Environment: FIXTURES (fixture folder),
 * TMPDIR (scratch).
 */
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (cond) {                                                  \
			check_passed++;                                      \
		} else {                                                     \
			check_failed++;                                      \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,     \
				__LINE__, #cond);                            \
		}                                                            \
	} while (0)

#define CHECK_EQ_U64(a, b)                                                   \
	do {                                                                 \
		unsigned long long check_a_ = (a), check_b_ = (b);           \
		if (check_a_ == check_b_) {                                  \
			check_passed++;                                      \
		} else {                                                     \
			check_failed++;                                      \
			fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%llu != %llu)\n", \
				__FILE__, __LINE__, #a, #b, check_a_, check_b_); \
		}                                                            \
	} while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                      \
	do {                                                                 \
		const char *check_h_ = (hay);                                \
		if (check_h_ && strstr(check_h_, (needle))) {                \
			check_passed++;                                      \
		} else {                                                     \
			check_failed++;                                      \
			fprintf(stderr, "%s:%d: CHECK failed: \"%s\" contains \"%s\"\n", \
				__FILE__, __LINE__, check_h_ ? check_h_ : "(null)", (needle)); \
		}                                                            \
	} while (0)

#define CHECK_DONE()                                                         \
	do {                                                                 \
		printf("%s: %d passed, %d failed\n", __FILE__, check_passed, \
		       check_failed);                                        \
		return check_failed ? 1 : 0;                                 \
	} while (0)

#endif
