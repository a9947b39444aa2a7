/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CLI_CENSUS_H
#define AOTPERF_CLI_CENSUS_H
/*
 * After a read that found nothing to attribute, what the recording does
 * hold (attr/anonmaps.h), so the user can tell a wrong recording from a
 * wrong core, or pick a pid that has samples: lines of their own on
 * stderr after the error's line, for the hints AP_HINT_NO_CORE_MAP and
 * AP_HINT_PID_SAMPLES; and after any bad-input error, that the
 * recording is cut short when it is.
 */
#include "attr-args.h"

void census__explain(const struct attr_args *a, const struct ap_err *err);

#endif
