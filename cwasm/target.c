// SPDX-License-Identifier: MIT
/*
 * The .cwasm target info (docs/formats.md, "target info"): which
 * architecture the code is for and, in the current form, which ABI. The
 * legacy form (bin_type 1, every other field 0) names the architecture
 * only; the current ELF64/COFF64 forms are checked field by field, and
 * any other combination is refused naming the field that disagrees.
 */
#include <string.h>
#include <strings.h>
#include "cwasm.h"

const char *cwasm_arch__name(enum cwasm_arch arch)
{
	switch (arch) {
	case CWASM_ARCH_X86_64: return "x86_64";
	case CWASM_ARCH_AARCH64: return "aarch64";
	default: return NULL;
	}
}

int cwasm_arch__parse(const char *s, size_t len, enum cwasm_arch *out)
{
	static const struct {
		const char *name;
		enum cwasm_arch arch;
	} names[] = {
		{ "x86_64", CWASM_ARCH_X86_64 }, { "x86-64", CWASM_ARCH_X86_64 },
		{ "amd64", CWASM_ARCH_X86_64 },  { "x64", CWASM_ARCH_X86_64 },
		{ "aarch64", CWASM_ARCH_AARCH64 }, { "arm64", CWASM_ARCH_AARCH64 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == len && !strncasecmp(s, names[i].name, len)) {
			*out = names[i].arch;
			return 0;
		}
	return -1;
}

const char *cwasm_abi__name(enum cwasm_abi abi)
{
	switch (abi) {
	case CWASM_ABI_SYSV: return "sysv";
	case CWASM_ABI_WIN64: return "win64";
	case CWASM_ABI_AAPCS64: return "aapcs64";
	default: return NULL;
	}
}

const char *cwasm_format__name(enum cwasm_format fmt)
{
	switch (fmt) {
	case CWASM_FMT_LEGACY: return "legacy-unspecified";
	case CWASM_FMT_ELF64: return "elf64-little";
	case CWASM_FMT_COFF64: return "coff64";
	default: return NULL;
	}
}

/* The current forms: (arch, bin_type) -> e_machine, abi, format. */
static const struct current_form {
	enum cwasm_arch arch;
	uint16_t bin_type, e_machine;
	enum cwasm_abi abi;
	enum cwasm_format format;
} current_forms[] = {
	{ CWASM_ARCH_X86_64, 2, 0x3e, CWASM_ABI_SYSV, CWASM_FMT_ELF64 },
	{ CWASM_ARCH_X86_64, 6, 0x8664, CWASM_ABI_WIN64, CWASM_FMT_COFF64 },
	{ CWASM_ARCH_AARCH64, 2, 0xb7, CWASM_ABI_AAPCS64, CWASM_FMT_ELF64 },
};

static void printable(const uint8_t *p, size_t n, char *out, size_t outlen)
{
	size_t i, o = 0;

	for (i = 0; i < n && p[i] && o + 1 < outlen; i++)
		out[o++] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
	out[o] = '\0';
}

int cwasm_target__parse(const uint8_t *p, size_t len, const char *file,
			struct cwasm_target_info *ti, struct cwasm_target *t, struct ap_err *err)
{
	size_t alen;
	char shown[17];

	memset(t, 0, sizeof(*t));
	memset(ti, 0, sizeof(*ti));
	if (len != CWASM_TARGET_INFO_SIZE)
		return ap_errf(err, "%s: target info is %zu bytes, expected %d", file, len,
			       CWASM_TARGET_INFO_SIZE);
	ti->bin_type = (uint16_t)(p[0] | p[1] << 8);
	ti->abi_type = (uint16_t)(p[2] | p[3] << 8);
	ti->e_type = (uint16_t)(p[4] | p[5] << 8);
	ti->e_machine = (uint16_t)(p[6] | p[7] << 8);
	ti->e_flags = (uint32_t)p[8] | (uint32_t)p[9] << 8 | (uint32_t)p[10] << 16 |
		      (uint32_t)p[11] << 24;
	ti->reserved = (uint32_t)p[12] | (uint32_t)p[13] << 8 | (uint32_t)p[14] << 16 |
		       (uint32_t)p[15] << 24;
	memcpy(ti->arch, p + 16, 16);
	ti->features = 0;
	for (int i = 7; i >= 0; i--)
		ti->features = ti->features << 8 | p[32 + i];

	alen = strnlen(ti->arch, 16);
	printable((const uint8_t *)ti->arch, alen, shown, sizeof(shown));
	for (size_t i = alen; i < 16; i++)
		if (ti->arch[i])
			return ap_errf(err, "%s: target info arch '%s' has nonzero padding", file,
				       shown);
	if (cwasm_arch__parse(ti->arch, alen, &t->arch))
		return ap_errf(err, "%s: target info arch '%s' is not x86_64 or aarch64", file,
			       shown);
	if (ti->reserved)
		return ap_errf(err, "%s: target info reserved field is 0x%x, expected 0", file,
			       ti->reserved);
	if (ti->bin_type == 1 && !ti->abi_type && !ti->e_type && !ti->e_machine && !ti->e_flags) {
		t->format = CWASM_FMT_LEGACY;
		t->abi = CWASM_ABI_UNSPECIFIED;
		return 0;
	}
	for (size_t i = 0; i < sizeof(current_forms) / sizeof(current_forms[0]); i++) {
		const struct current_form *f = &current_forms[i];

		if (f->arch != t->arch || f->bin_type != ti->bin_type)
			continue;
		if (ti->e_machine != f->e_machine)
			return ap_errf(err, "%s: target info e_machine 0x%x does not match %s/%s"
				       " (expected 0x%x)", file, ti->e_machine, shown,
				       cwasm_format__name(f->format), f->e_machine);
		if (ti->e_type != 1)
			return ap_errf(err, "%s: target info e_type %u, expected 1 for %s/%s", file,
				       ti->e_type, shown, cwasm_format__name(f->format));
		if (ti->abi_type)
			return ap_errf(err, "%s: target info abi_type %u, expected 0", file,
				       ti->abi_type);
		if (ti->e_flags)
			return ap_errf(err, "%s: target info e_flags 0x%x, expected 0", file,
				       ti->e_flags);
		t->format = f->format;
		t->abi = f->abi;
		t->verified = 1;
		return 0;
	}
	return ap_errf(err, "%s: target info bin_type %u is not a known form for arch '%s'"
		       " (legacy 1 with all fields 0; 2 ELF64; 6 COFF64 for x86_64)", file,
		       ti->bin_type, shown);
}

int cwasm_target__spec(struct cwasm_target_info *ti, enum cwasm_arch arch,
		       enum cwasm_format format, enum cwasm_abi abi)
{
	const char *name = cwasm_arch__name(arch);

	memset(ti, 0, sizeof(*ti));
	if (!name)
		return -1;
	if (format == CWASM_FMT_LEGACY) {
		ti->bin_type = 1;
		/* the legacy writer spelt x86_64 with a hyphen */
		memcpy(ti->arch, arch == CWASM_ARCH_X86_64 ? "x86-64" : name,
		       strlen(arch == CWASM_ARCH_X86_64 ? "x86-64" : name));
		return 0;
	}
	for (size_t i = 0; i < sizeof(current_forms) / sizeof(current_forms[0]); i++) {
		const struct current_form *f = &current_forms[i];

		if (f->arch == arch && f->format == format &&
		    (abi == CWASM_ABI_UNSPECIFIED || abi == f->abi)) {
			ti->bin_type = f->bin_type;
			ti->e_type = 1;
			ti->e_machine = f->e_machine;
			memcpy(ti->arch, name, strlen(name));
			return 0;
		}
	}
	return -1;
}
