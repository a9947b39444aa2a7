// SPDX-License-Identifier: MIT
#include <stdint.h>
#include <string.h>
#include "suggest.h"

#define MAXLEN 64

/* Optimal string alignment distance: Levenshtein plus swapped neighbours
 * ("repot" -> "report" is one insertion, "--cwams" -> "--cwasm" one swap). */
size_t ap_edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[MAXLEN + 1][MAXLEN + 1];

	if (la > MAXLEN || lb > MAXLEN)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

static size_t allowed(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

const char *ap_suggest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	int tie = 0;

	if (!word || !*word)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t dist;

		if (!cands[i] || !strcmp(cands[i], word))
			continue;
		dist = ap_edit_distance(word, cands[i]);
		if (dist < best_d) {
			best = cands[i];
			best_d = dist;
			tie = 0;
		} else if (dist == best_d && strcmp(best, cands[i])) {
			tie = 1;
		}
	}
	if (!best || tie || best_d > allowed(strlen(word)))
		return NULL;
	return best;
}
