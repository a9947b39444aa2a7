/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_INTERNAL_H
#define AOTPERF_PROFILE_INTERNAL_H
/* Inside profile/: the allocation both producers start from. */
#include "profile.h"

/* A profile of cs with its core array (pins applied); counts are the producer's. */
struct profile *profile__alloc(const struct core_set *cs, enum profile_source source,
			       const uint64_t *pins, uint32_t npins, struct ap_err *err);

#endif
