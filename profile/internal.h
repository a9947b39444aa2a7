/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_INTERNAL_H
#define AOTPERF_PROFILE_INTERNAL_H
/* Inside profile/: the allocation both producers start from; the stacks producer. */
#include "profile.h"

/* A profile of cs with its core array (pins applied); counts are the producer's. */
struct profile *profile__alloc(const struct core_set *cs, enum profile_source source,
			       const uint64_t *pins, uint32_t npins, struct ap_err *err);

/*
 * The call-stack producer for profile__read (stacks_read.c): sets ao's
 * hooks; stacks_reader__end moves the finished stacks into p->stacks.
 */
struct stacks_reader;
struct stacks_reader *stacks_reader__new(struct profile *p, struct attr_opts *ao,
					 struct ap_err *err);
int stacks_reader__end(struct stacks_reader *r, struct ap_err *err);
void stacks_reader__delete(struct stacks_reader *r);

#endif
