// SPDX-License-Identifier: MIT
/* The inferred register roles of a function, in words (the formats print them: render/classes.c). */
#include <inttypes.h>
#include <string.h>
#include "classify.h"
#include "../decode/decode.h"

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

void cls__roles_words(const struct cls_func_roles *r, struct cls_roles_words *w)
{
	memset(w, 0, sizeof(*w));
	w->abi = cwasm_abi__name(r->abi);
	w->abi_source = sources[r->abi_source < 3 ? r->abi_source : 0];
	w->vmctx_param = dc__reg_name(r->arch, r->vmctx_param);
	if (r->has_slot)
		slot_str(r, w->vmctx_slot, sizeof(w->vmctx_slot));
	for (uint8_t f = 1; f < 64; f++) {
		if (r->vmctx_regs & (1ull << f))
			w->vmctx_regs[w->nvmctx++] = dc__reg_name(r->arch, f);
		if (r->membase_regs & (1ull << f))
			w->membase_regs[w->nmembase++] = dc__reg_name(r->arch, f);
	}
	w->pinned_vmctx = r->pinned_vmctx ? dc__reg_name(r->arch, r->pinned_vmctx) : NULL;
	w->pinned_membase = r->pinned_membase ? dc__reg_name(r->arch, r->pinned_membase) : NULL;
	w->frame = dc__reg_name(r->arch, r->frame);
	if (r->override.vmctx || r->override.membase || r->override.frame)
		cls__roles_str(&r->override, w->override, sizeof(w->override));
}
