// SPDX-License-Identifier: MIT
/*
 * The other engine's side of a comparison as JSON members (the caller
 * opens and closes the objects), for a compare command's --json.
 */
#include "internal.h"
#include "../util/json_out.h"
#include "../util/pct.h"

static const char *const role_status[] = { "none", "vmctx_only", "found", "ambiguous" };

static void reg(struct json_out *j, const char *key, enum cwasm_arch arch, uint8_t r)
{
	json_key(j, key);
	if (r)
		json_str(j, dc__reg_name(arch, r));
	else
		json_null(j);
}

void engines__json_classes(struct json_out *j, const struct eng_classes *c)
{
	const struct eng_code *code = c->code;
	const struct cls_table *t = &c->table;

	json_key(j, "engine");
	json_str(j, eng_engine__name(code->name.engine));
	json_key(j, "module");
	json_u64(j, c->func->module);
	json_key(j, "wasm_func");
	json_u64(j, c->func->wasm_index);
	json_key(j, "local_func");
	if (c->func->local_func >= 0)
		json_i64(j, c->func->local_func);
	else
		json_null(j);
	json_key(j, "name");
	json_str(j, c->func->name);
	json_key(j, "symbol");
	json_str(j, code->raw_name);
	json_key(j, "tier");
	json_str(j, eng_tier__name(code->name.tier));
	json_key(j, "tier_name");
	json_str(j, code->name.tier_name);
	json_key(j, "samples");
	json_u64(j, c->samples);
	json_key(j, "function_samples");
	json_u64(j, c->func->samples);
	json_key(j, "percent_of_run");
	json_dbl(j, ap_pct(c->samples, c->run_total), 2);
	json_key(j, "address");
	json_hex(j, code->addr);
	json_key(j, "code_bytes");
	json_u64(j, c->code_bytes);
	json_key(j, "code_used");
	json_u64(j, c->code_used);
	json_key(j, "instruction_count");
	json_u64(j, cls__insn_count(&c->f));
	json_key(j, "roles");
	json_begin_obj(j);
	json_key(j, "status");
	json_str(j, role_status[c->roles.status]);
	reg(j, "vmctx", c->roles.roles.arch, c->roles.roles.vmctx);
	reg(j, "membase", c->roles.roles.arch, c->roles.roles.membase);
	json_key(j, "membase_field");
	if (c->roles.membase_field >= 0)
		json_i64(j, c->roles.membase_field);
	else
		json_null(j);
	json_key(j, "evidence");
	json_str(j, c->roles.why);
	json_end_obj(j);
	json_key(j, "unavailable_reason");
	json_str(j, c->unavailable ? c->unavailable_why : NULL);
	json_key(j, "classes");
	json_begin_obj(j);
	for (int k = 0; k < CLS__COUNT; k++) {
		int avail = !(c->unavailable & (1u << k));

		json_key(j, cls__name(k));
		json_begin_obj(j);
		json_key(j, "status");
		json_str(j, avail ? "measured" : "unavailable");
		json_key(j, "samples");
		json_u64(j, t->samples[k]);
		json_key(j, "percent_of_function");
		json_dbl(j, ap_pct(t->samples[k], t->total), 2);
		json_key(j, "static_instructions");
		json_u64(j, t->static_count[k]);
		json_end_obj(j);
	}
	json_end_obj(j);
}
