/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_RENDER_LOOPS_H
#define AOTPERF_RENDER_LOOPS_H
/* A classified function's hot loops and lever what-if (loops/), text and JSON. */
#include <stdio.h>
#include "../profile/profile.h"
#include "../util/json_out.h"

struct lp_loop;

/* "hot loops", the hottest loop's listing, its model and what-if; nothing without loops. */
void render__loops_text(FILE *out, const struct profile_func *pf, size_t cols);
/* "loops" (and "loops_model_note" when a model was asked) members. */
void render__loops_json(struct json_out *j, const struct profile_func *pf);
/* Percent of the loop's cycles lever lv would save (0 when not modelled). */
double render__loop_payoff(const struct lp_loop *l, int lv);

#endif
