/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_PROFILE_INTERNAL_H
#define AOTPERF_PROFILE_INTERNAL_H
/* Inside profile/: the allocation both producers start from; the stacks producer. */
#include "profile.h"

/* A profile of cs with its core array (pins applied); counts are the producer's. */
struct profile *profile__alloc(const struct core_set *cs, enum profile_source source,
			       const uint64_t *pins, uint32_t npins, struct ap_err *err);

/*
 * The call-stack producer for profile__read (stacks_read.c), fed by
 * read.c's hooks, naming host frames from the mapping timeline and
 * symbols read.c owns and shares (hostmaps.h, hostsyms.h). leaves: also
 * where each sample was taken (stacks__add_leaf; host_frame is the
 * sample's frame in p->host, -1 when none). stacks_reader__end moves the
 * finished stacks into p->stacks.
 */
struct stacks_reader;
struct hostmaps;
struct hostsyms;
struct stacks_reader *stacks_reader__new(struct profile *p, struct hostmaps *maps,
					 struct hostsyms *syms, int leaves, struct ap_err *err);
void stacks_reader__sample(struct stacks_reader *r, const struct pd_sample *s, int core,
			   uint64_t text_off, int64_t host_frame, struct attr_lookup *lk);
/* Also count each wasm return address a dwarf unwind finds into rets (attr/hist.h keys). */
void stacks_reader__set_returns(struct stacks_reader *r, struct attr_hist *rets);
/* Forget every sample (attr's one pass starts over). */
void stacks_reader__restart(struct stacks_reader *r);
int stacks_reader__end(struct stacks_reader *r, struct ap_err *err);
void stacks_reader__delete(struct stacks_reader *r);

#endif
