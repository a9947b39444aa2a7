// SPDX-License-Identifier: MIT
/*
 * The unit-test side of a fuzz target: linked with one tests/fuzz/fuzz_NAME.c
 * (built with the project's compiler, plain or SAN) into
 * BUILD/tests/test_fuzz_NAME, which tests/run.sh runs like any unit test.
 *
 *   test_fuzz_NAME                   every file of tests/fuzz/seeds/NAME/, the
 *                                    target's generated seeds and every file of
 *                                    tests/fuzz/corpus/NAME/ and
 *                                    tests/fuzz/regress/NAME/ through the target
 *   test_fuzz_NAME FILE...           those files
 *   test_fuzz_NAME --write-seeds DIR the target's generated seeds into DIR
 *
 * Inputs listed in regress/NAME/OPEN (crashes in code another engineer owns,
 * not fixed yet) are only listed, unless FUZZ_OPEN=1. A crash kills the
 * process; the input's name is printed first so the log says which.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME=\"name\" -DFUZZ_SRCDIR=\"tests/fuzz\""
#endif

extern int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));
extern int fuzz_write_seeds(const char *dir) __attribute__((weak));

static int replayed, listed_open;

static int run_file(const char *p)
{
	FILE *f = fopen(p, "rb");
	uint8_t *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fprintf(stderr, "%s: cannot read\n", p);
		if (f)
			fclose(f);
		return -1;
	}
	/* exactly n bytes, so ASan sees a read one past the input */
	buf = malloc(n ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", p);
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	fprintf(stderr, "replay %s (%ld bytes)\n", p, n);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	replayed++;
	return 0;
}

/* Is name listed in the folder's OPEN file (first word of a line)? */
static int is_open(const char *dir, const char *name)
{
	char p[4096], line[1024];
	FILE *f;
	int hit = 0;

	snprintf(p, sizeof(p), "%s/OPEN", dir);
	f = fopen(p, "r");
	if (!f)
		return 0;
	while (!hit && fgets(line, sizeof(line), f)) {
		size_t k = strcspn(line, " \t\n");

		hit = k == strlen(name) && !strncmp(line, name, k);
	}
	fclose(f);
	return hit;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir)
{
	const char *o = getenv("FUZZ_OPEN");
	int with_open = o && !strcmp(o, "1"), bad = 0;
	char **names = NULL;
	size_t n = 0, i;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d)
		return 0;	/* a target without seeds or regressions */
	while ((e = readdir(d))) {
		char **nn;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "OPEN") ||
		    !strncmp(e->d_name, "README", 6))
			continue;
		nn = realloc(names, (n + 1) * sizeof(*names));
		if (!nn || !(nn[n] = strdup(e->d_name)))
			abort();
		names = nn;
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		if (!with_open && is_open(dir, names[i])) {
			printf("open (not replayed, see %s/OPEN): %s\n", dir, names[i]);
			listed_open++;
		} else if (run_file(p)) {
			bad++;
		}
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	int bad = 0, i;

	if (argc == 3 && !strcmp(argv[1], "--write-seeds"))
		return fuzz_write_seeds ? fuzz_write_seeds(argv[2]) != 0 : 0;
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	if (argc > 1) {
		for (i = 1; i < argc; i++)
			bad += run_file(argv[i]) != 0;
	} else {
		bad += run_dir(FUZZ_SRCDIR "/seeds/" FUZZ_NAME);
		if (fuzz_write_seeds) {
			char gen[4096 + 16];

			snprintf(gen, sizeof(gen), "%s/seeds", fuzz_dir());
			if (mkdir(gen, 0700) || fuzz_write_seeds(gen)) {
				fprintf(stderr, "%s: writing the generated seeds failed\n", gen);
				bad++;
			}
			bad += run_dir(gen);
		}
		bad += run_dir(FUZZ_SRCDIR "/corpus/" FUZZ_NAME);
		bad += run_dir(FUZZ_SRCDIR "/regress/" FUZZ_NAME);
	}
	printf("fuzz target %s: %d inputs replayed, %d open crashes not replayed\n",
	       FUZZ_NAME, replayed, listed_open);
	printf("%s: %d passed, %d failed\n", "test_fuzz_" FUZZ_NAME, replayed, bad);
	return bad != 0;
}
