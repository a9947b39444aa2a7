/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_ATTR_THREADCOMMS_H
#define AOTPERF_ATTR_THREADCOMMS_H
/*
 * Each thread's command over time, as perf report names a sample's
 * thread: its COMM records, a new thread starting with its parent
 * thread's command at the FORK, all taken in time order (a file's CPUs
 * write their records in buffers of their own, so file order can put an
 * exec's COMM after a later sample of another CPU). For the sample filter
 * (filter.h) of a file whose records carry their time.
 */
#include <stdint.h>
#include "../session/session.h"
#include "../util/err.h"

struct thread_comms;

/*
 * The COMM and FORK records of s: a pass of their own (they must be known
 * before the first sample a --comm filter keeps). 0 and *out (NULL when
 * they carry no time), or -1 with err.
 */
int thread_comms__read(struct session *s, struct thread_comms **out, struct ap_err *err);
/* Thread tid's command at time t; "" when it had none yet. */
const char *thread_comms__at(const struct thread_comms *tc, uint32_t tid, uint64_t t);
void thread_comms__delete(struct thread_comms *tc);

#endif
