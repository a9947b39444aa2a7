// SPDX-License-Identifier: MIT
/* The inferred register roles of a function, as text and JSON. */
#include <inttypes.h>
#include <string.h>
#include "classify.h"
#include "../decode/decode.h"
#include "../util/json_out.h"

static const char *const sources[] = {
	[CLS_ABI_TARGET] = "target",
	[CLS_ABI_PROLOGUE] = "prologue",
	[CLS_ABI_DEFAULT] = "default",
};

static const char *abi_name(const struct cls_func_roles *r)
{
	const char *n = cwasm_abi__name(r->abi);

	return n ? n : "unspecified";
}

static size_t regs_str(enum cwasm_arch arch, uint64_t mask, char *buf, size_t len)
{
	size_t k = 0;

	buf[0] = '\0';
	for (uint8_t f = 1; f < 64 && k + 8 < len; f++)
		if (mask & (1ull << f))
			k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "",
					      dc__reg_name(arch, f));
	return k;
}

static void slot_str(const struct cls_func_roles *r, char *buf, size_t len)
{
	int32_t d = r->slot_disp;

	snprintf(buf, len, "[%s%s0x%x]", dc__reg_name(r->arch, r->slot_base), d < 0 ? "-" : "+",
		 (unsigned)(d < 0 ? -(int64_t)d : d));
}

void cls__roles_describe(const struct cls_func_roles *r, char *buf, size_t len)
{
	uint64_t vm = r->vmctx_regs, mb = r->membase_regs;
	char regs[96], slot[32], ovr[96];
	size_t k;

	if (r->pinned_vmctx) {
		k = (size_t)snprintf(buf, len, "abi %s (%s), vmctx pinned %s", abi_name(r),
				     sources[r->abi_source < 3 ? r->abi_source : 0],
				     dc__reg_name(r->arch, r->pinned_vmctx));
		vm &= ~(1ull << r->pinned_vmctx);
	} else {
		k = (size_t)snprintf(buf, len, "abi %s (%s), vmctx %s", abi_name(r),
				     sources[r->abi_source < 3 ? r->abi_source : 0],
				     dc__reg_name(r->arch, r->vmctx_param));
	}
	if (r->has_slot && k < len) {
		slot_str(r, slot, sizeof(slot));
		k += (size_t)snprintf(buf + k, len - k, " -> %s", slot);
	}
	if (vm && k < len) {
		regs_str(r->arch, vm, regs, sizeof(regs));
		k += (size_t)snprintf(buf + k, len - k, ", in %s", regs);
	}
	if (r->pinned_membase && k < len) {
		k += (size_t)snprintf(buf + k, len - k, "; membase pinned %s",
				      dc__reg_name(r->arch, r->pinned_membase));
		mb &= ~(1ull << r->pinned_membase);
		if (mb && k < len) {
			regs_str(r->arch, mb, regs, sizeof(regs));
			k += (size_t)snprintf(buf + k, len - k, ", in %s", regs);
		}
	} else if (k < len) {
		if (mb)
			regs_str(r->arch, mb, regs, sizeof(regs));
		k += (size_t)snprintf(buf + k, len - k, "; membase %s", mb ? regs : "not loaded");
	}
	if (k < len && (r->override.vmctx || r->override.membase || r->override.frame)) {
		cls__roles_str(&r->override, ovr, sizeof(ovr));
		snprintf(buf + k, len - k, "; --roles %s", ovr);
	}
}

void cls__print_roles(FILE *out, const struct cls_func_roles *r)
{
	char buf[320];
	size_t n, col = 0;
	const char *p = buf;

	cls__roles_describe(r, buf, sizeof(buf));
	/* wrap at ", " / "; " so lines stay within 80 columns */
	fprintf(out, "  roles      ");
	col = 13;
	while (*p) {
		n = strcspn(p, ",;");
		if (p[n])
			n++;
		if (col + n > 79 && col > 13) {
			fprintf(out, "\n             ");
			col = 13;
			while (*p == ' ')
				p++, n--;
		}
		fprintf(out, "%.*s", (int)n, p);
		col += n;
		p += n;
	}
	fprintf(out, "\n");
}

static void json_regs(struct json_out *j, enum cwasm_arch arch, uint64_t mask)
{
	json_begin_arr(j);
	for (uint8_t f = 1; f < 64; f++)
		if (mask & (1ull << f))
			json_str(j, dc__reg_name(arch, f));
	json_end_arr(j);
}

void cls__json_roles(struct json_out *j, const struct cls_func_roles *r)
{
	char slot[32], ovr[96];

	json_begin_obj(j);
	json_key(j, "abi"); json_str(j, cwasm_abi__name(r->abi));
	json_key(j, "abi_source"); json_str(j, sources[r->abi_source < 3 ? r->abi_source : 0]);
	json_key(j, "vmctx_param"); json_str(j, dc__reg_name(r->arch, r->vmctx_param));
	json_key(j, "vmctx_slot");
	if (r->has_slot) {
		slot_str(r, slot, sizeof(slot));
		json_str(j, slot);
	} else {
		json_null(j);
	}
	json_key(j, "vmctx_registers"); json_regs(j, r->arch, r->vmctx_regs);
	json_key(j, "membase_registers"); json_regs(j, r->arch, r->membase_regs);
	json_key(j, "pinned_vmctx");
	if (r->pinned_vmctx)
		json_str(j, dc__reg_name(r->arch, r->pinned_vmctx));
	else
		json_null(j);
	json_key(j, "pinned_membase");
	if (r->pinned_membase)
		json_str(j, dc__reg_name(r->arch, r->pinned_membase));
	else
		json_null(j);
	json_key(j, "frame"); json_str(j, dc__reg_name(r->arch, r->frame));
	json_key(j, "override");
	if (r->override.vmctx || r->override.membase || r->override.frame) {
		cls__roles_str(&r->override, ovr, sizeof(ovr));
		json_str(j, ovr);
	} else {
		json_null(j);
	}
	json_end_obj(j);
}
