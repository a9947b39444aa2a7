// SPDX-License-Identifier: MIT
/*
 * A core's mappings by process: each mapping with its pid, the process's
 * command (attr/comms.h), base, size and samples in the JSON; one text
 * line per process when several processes mapped the core.
 */
#include <inttypes.h>
#include "report.h"
#include "../util/pct.h"

void render__report_procs_json(struct json_out *j, const struct profile *p, uint32_t core)
{
	const struct attr_result *a = &p->attr;

	json_key(j, "mappings");
	json_begin_arr(j);
	for (uint32_t i = 0; i < a->nmappings; i++) {
		const struct attr_mapping *m = &a->mappings[i];

		if (m->core != (int)core)
			continue;
		json_begin_obj(j);
		json_key(j, "pid"); json_u64(j, m->pid);
		json_key(j, "command"); json_str(j, attr_comms__get(&a->comms, m->pid));
		json_key(j, "base"); json_u64(j, m->start);
		json_key(j, "base_hex"); json_hex(j, m->start);
		json_key(j, "size"); json_u64(j, m->len);
		json_key(j, "samples"); json_u64(j, m->samples);
		json_end_obj(j);
	}
	json_end_arr(j);
}

/* Is mapping i the first of its pid among core's mappings? */
static int first_of_pid(const struct attr_result *a, uint32_t core, uint32_t i)
{
	for (uint32_t k = 0; k < i; k++)
		if (a->mappings[k].core == (int)core && a->mappings[k].pid == a->mappings[i].pid)
			return 0;
	return 1;
}

void render__report_procs_text(FILE *out, const struct profile *p, uint32_t core)
{
	const struct attr_result *a = &p->attr;
	uint32_t npids = 0;

	for (uint32_t i = 0; i < a->nmappings; i++)
		npids += a->mappings[i].core == (int)core && first_of_pid(a, core, i);
	if (npids < 2)
		return;
	for (uint32_t i = 0; i < a->nmappings; i++) {
		const struct attr_mapping *m = &a->mappings[i];
		uint64_t samples = 0;
		uint32_t nmaps = 0;

		if (m->core != (int)core || !first_of_pid(a, core, i))
			continue;
		for (uint32_t k = i; k < a->nmappings; k++) {
			if (a->mappings[k].core == (int)core && a->mappings[k].pid == m->pid) {
				samples += a->mappings[k].samples;
				nmaps++;
			}
		}
		fprintf(out, "  process     %" PRIu32 " %s: 0x%" PRIx64 " +0x%" PRIx64 "%s, %"
			PRIu64 " samples (%.2f%% of run)\n", m->pid, attr_comms__get(&a->comms, m->pid),
			m->start, m->len, nmaps > 1 ? " and more" : "", samples,
			ap_pct(samples, a->total_samples));
	}
}
