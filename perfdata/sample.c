// SPDX-License-Identifier: MIT
/*
 * PERF_RECORD_SAMPLE parsing, every field of sample_type in the kernel's
 * order with its real size, and the sample_id trailer that sample_id_all
 * appends to other kernel records. Every read goes through a cursor bounded
 * by the record; nothing is read before it is known to be inside.
 */
#include <string.h>
#include "internal.h"

/* Newer kernels (6.8) than our headers: branch counters after the entries. */
#define PD_SAMPLE_BRANCH_COUNTERS	(1ULL << 19)
#define PD_BRANCH_ENTRY_SIZE		24	/* from, to, flags */

struct pd_cursor {
	const uint8_t *p, *end;
};

static size_t cur_left(const struct pd_cursor *c)
{
	return (size_t)(c->end - c->p);
}

static int cur_u64(struct pd_cursor *c, uint64_t *v)
{
	if (cur_left(c) < sizeof(*v))
		return -1;
	memcpy(v, c->p, sizeof(*v));
	c->p += sizeof(*v);
	return 0;
}

/* Step over n bytes; -1 when they are not all inside the record. */
static int cur_skip(struct pd_cursor *c, uint64_t n)
{
	if (n > cur_left(c))
		return -1;
	c->p += n;
	return 0;
}

/* Step over count items of size bytes each, without overflowing. */
static int cur_skip_n(struct pd_cursor *c, uint64_t count, uint64_t size)
{
	if (size && count > cur_left(c) / size)
		return -1;
	return cur_skip(c, count * size);
}

/* The u64 holding pid and tid: two u32 in memory order. */
static void read_tid(uint64_t v64, struct pd_sample_id *sid)
{
	uint32_t v[2];

	memcpy(v, &v64, sizeof(v));
	sid->pid = v[0];
	sid->tid = v[1];
	sid->has_tid = 1;
}

static void read_cpu(uint64_t v64, struct pd_sample_id *sid)
{
	uint32_t v[2];

	memcpy(v, &v64, sizeof(v));
	sid->cpu = v[0];
	sid->has_cpu = 1;
}

/*
 * A struct read_format as the kernel writes it for read_format rf:
 * value, enabled?, running?, id?, lost?; or with PERF_FORMAT_GROUP
 * nr, enabled?, running?, then nr times value, id?, lost?.
 */
static int skip_read_format(struct pd_cursor *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	uint64_t nr;

	if (!(rf & PERF_FORMAT_GROUP))
		return cur_skip_n(c, per + times, 8);
	if (cur_u64(c, &nr) || cur_skip_n(c, times, 8))
		return -1;
	return cur_skip_n(c, nr, per * 8);
}

int pd__read_format_ok(const void *p, size_t len, uint64_t read_format)
{
	struct pd_cursor c = { p, (const uint8_t *)p + len };

	return skip_read_format(&c, read_format) == 0;
}

/* A u64 size, then that many bytes, a multiple of 8 as the kernel pads it. */
static int take_sized(struct pd_cursor *c, uint64_t *size, const uint8_t **data)
{
	if (cur_u64(c, size) || *size % 8)
		return -1;
	*data = c->p;
	return cur_skip(c, *size);
}

static int skip_regs(struct pd_cursor *c, uint64_t mask, uint64_t *abi,
		     const uint64_t **regs, uint32_t *nregs)
{
	uint32_t n = (uint32_t)__builtin_popcountll(mask);

	if (cur_u64(c, abi))
		return -1;
	if (*abi == PERF_SAMPLE_REGS_ABI_NONE)
		return 0;
	if (regs) {
		*regs = (const uint64_t *)(const void *)c->p;
		*nregs = n;
	}
	return cur_skip_n(c, n, 8);
}

static int skip_branch_stack(struct pd_cursor *c, uint64_t bst)
{
	uint64_t nr;

	if (cur_u64(c, &nr))
		return -1;
	if ((bst & PERF_SAMPLE_BRANCH_HW_INDEX) && cur_skip(c, 8))
		return -1;
	if (cur_skip_n(c, nr, PD_BRANCH_ENTRY_SIZE))
		return -1;
	if ((bst & PD_SAMPLE_BRANCH_COUNTERS) && cur_skip_n(c, nr, 8))
		return -1;
	return 0;
}

/* Everything after PERIOD, as perf's evsel__parse_sample() walks it. */
static int parse_variable(const struct perf_event_attr *attr, struct pd_cursor *c,
			  struct pd_sample *s)
{
	uint64_t t = attr->sample_type, v;

	if ((t & PERF_SAMPLE_READ) && skip_read_format(c, attr->read_format))
		return -1;
	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (cur_u64(c, &v))
			return -1;
		s->callchain = (const uint64_t *)(const void *)c->p;
		s->callchain_nr = v;
		if (cur_skip_n(c, v, 8))
			return -1;
		s->has_callchain = 1;
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t sz;

		if (cur_left(c) < sizeof(sz))
			return -1;
		memcpy(&sz, c->p, sizeof(sz));
		/* u32 size + data, padded by the kernel to a u64 multiple */
		if ((sizeof(sz) + (uint64_t)sz) % 8 || cur_skip(c, sizeof(sz) + (uint64_t)sz))
			return -1;
		s->raw = c->p - sz;
		s->raw_size = sz;
	}
	if ((t & PERF_SAMPLE_BRANCH_STACK) && skip_branch_stack(c, attr->branch_sample_type))
		return -1;
	if (t & PERF_SAMPLE_REGS_USER) {
		if (skip_regs(c, attr->sample_regs_user, &s->regs_abi, &s->regs_user,
			      &s->nregs_user))
			return -1;
		s->regs_mask = attr->sample_regs_user;
		s->has_regs_user = 1;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		if (take_sized(c, &s->stack_size, &s->stack_user))
			return -1;
		/* no dyn_size when nothing was copied */
		if (s->stack_size && (cur_u64(c, &s->stack_dyn_size) ||
				      s->stack_dyn_size > s->stack_size))
			return -1;
		if (!s->stack_size)
			s->stack_user = NULL;
		s->has_stack_user = 1;
	}
	if ((t & PERF_SAMPLE_WEIGHT_TYPE) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_DATA_SRC) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_TRANSACTION) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    skip_regs(c, attr->sample_regs_intr, &v, NULL, NULL))
		return -1;
	if ((t & PERF_SAMPLE_PHYS_ADDR) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_CGROUP) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_DATA_PAGE_SIZE) && cur_skip(c, 8))
		return -1;
	if ((t & PERF_SAMPLE_CODE_PAGE_SIZE) && cur_skip(c, 8))
		return -1;
	if (t & PERF_SAMPLE_AUX) {
		const uint8_t *data;

		if (take_sized(c, &v, &data))
			return -1;
	}
	/* Bits newer than PERF_SAMPLE_WEIGHT_STRUCT come after: not ours to read. */
	return 0;
}

static int sample_attr(const struct perfdata *pd, const struct pd_cursor *c)
{
	uint64_t id;

	if (pd->nattrs == 1)
		return 0;
	if (pd->id_pos < 0 || (size_t)pd->id_pos >= cur_left(c) / 8)
		return -1;
	memcpy(&id, c->p + (size_t)pd->id_pos * 8, sizeof(id));
	return pd__idmap_get(&pd->ids, id);
}

/*
 * Parse a PERF_RECORD_SAMPLE (at an 8-byte aligned address). Returns -1
 * when the record is shorter than its sample_type demands, a variable part
 * runs past it or breaks the u64 alignment, or no attr is known at all.
 */
int pd__parse_sample(const struct perfdata *pd,
		     const struct perf_event_header *hdr, struct pd_sample *s)
{
	struct pd_cursor c = { (const uint8_t *)(hdr + 1), (const uint8_t *)hdr + hdr->size };
	const struct perf_event_attr *attr;
	uint64_t t, v;
	int idx;

	memset(s, 0, sizeof(*s));
	s->cpumode = hdr->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (!pd->nattrs) {
		s->attr_idx = -1;
		return -1;
	}
	idx = sample_attr(pd, &c);
	s->attr_idx = idx;
	/* An unknown id: the layout up to the id is shared, use the first. */
	attr = &pd->attrs[idx < 0 ? 0 : idx].attr;
	t = attr->sample_type;

	if (t & PERF_SAMPLE_IDENTIFIER) {
		if (cur_u64(&c, &s->sid.id))
			return -1;
		s->sid.has_id = 1;
	}
	if (t & PERF_SAMPLE_IP) {
		if (cur_u64(&c, &s->ip))
			return -1;
		s->has_ip = 1;
	}
	if (t & PERF_SAMPLE_TID) {
		if (cur_u64(&c, &v))
			return -1;
		read_tid(v, &s->sid);
	}
	if (t & PERF_SAMPLE_TIME) {
		if (cur_u64(&c, &s->sid.time))
			return -1;
		s->sid.has_time = 1;
	}
	if ((t & PERF_SAMPLE_ADDR) && cur_u64(&c, &s->addr))
		return -1;
	if (t & PERF_SAMPLE_ID) {
		if (cur_u64(&c, &s->sid.id))
			return -1;
		s->sid.has_id = 1;
	}
	if ((t & PERF_SAMPLE_STREAM_ID) && cur_u64(&c, &v))
		return -1;
	if (t & PERF_SAMPLE_CPU) {
		if (cur_u64(&c, &v))
			return -1;
		read_cpu(v, &s->sid);
	}
	if (t & PERF_SAMPLE_PERIOD) {
		if (cur_u64(&c, &s->period))
			return -1;
		s->has_period = 1;
	}
	/* Past the fixed prefix only the owning attr knows the layout. */
	if (idx < 0)
		return 0;
	if (parse_variable(attr, &c, s)) {
		s->callchain = NULL;
		s->regs_user = NULL;
		s->stack_user = NULL;
		return -1;
	}
	return 0;
}

int pd_sample__user_reg(const struct pd_sample *s, unsigned reg, uint64_t *val)
{
	uint64_t below;
	uint32_t i;

	if (!s->regs_user || reg >= 64 || !(s->regs_mask & (1ULL << reg)))
		return 0;
	below = s->regs_mask & ((1ULL << reg) - 1);
	i = (uint32_t)__builtin_popcountll(below);
	if (i >= s->nregs_user)
		return 0;
	memcpy(val, &s->regs_user[i], sizeof(*val));
	return 1;
}

/* The trailer's layout for sample_type t: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER in order. */
void pd__sid_layout(uint64_t t, int sample_id_all, struct pd_sid_layout *l)
{
	int8_t w = 0;

	memset(l, -1, sizeof(*l));
	l->words = 0;
	if (!sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID)
		l->tid = w++;
	if (t & PERF_SAMPLE_TIME)
		l->time = w++;
	if (t & PERF_SAMPLE_ID)
		l->id = w++;
	if (t & PERF_SAMPLE_STREAM_ID)
		w++;
	if (t & PERF_SAMPLE_CPU)
		l->cpu = w++;
	if (t & PERF_SAMPLE_IDENTIFIER)
		l->id = w++;	/* the later one is read: the same id */
	l->words = (uint8_t)w;
}

