// SPDX-License-Identifier: MIT
/*
 * The .cwasm target info (docs/formats-cwasm.md, "Target info"): which
 * architecture the code is for and, in the current forms, which ABI. The
 * legacy form (bin_type 1, every other field 0) names the architecture
 * only; the current ELF64/COFF64 forms and the native profile are checked
 * field by field, and any other combination is refused naming the field
 * that disagrees. libc only (the runtime library compiles it in, without
 * util/err.c), and no POSIX extensions, so it builds under any -std.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "target.h"

/* Fill err like ap_errf (util/err.h) without needing util/err.c: -1. */
static int target_fail(struct ap_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int target_fail(struct ap_err *err, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->kind = AP_ERR_INPUT;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* ASCII case-insensitive equality of s[0..len) and the C string name. */
static int ascii_ieq(const char *s, size_t len, const char *name)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char a = (unsigned char)s[i], b = (unsigned char)name[i];

		if (!b)
			return 0;
		if (a >= 'A' && a <= 'Z')
			a = (unsigned char)(a - 'A' + 'a');
		if (a != b)
			return 0;
	}
	return name[len] == '\0';
}

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
		if (ascii_ieq(s, len, names[i].name)) {
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

const char *cwasm_profile__name(enum cwasm_profile profile)
{
	switch (profile) {
	case CWASM_PROFILE_NATIVE: return "native";
	case CWASM_PROFILE_NATIVE_FUEL: return "native-fuel";
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
	const struct current_form *f = NULL;
	size_t alen;
	char shown[17];

	memset(t, 0, sizeof(*t));
	memset(ti, 0, sizeof(*ti));
	if (len != CWASM_TARGET_INFO_SIZE)
		return target_fail(err, "%s: target info is %zu bytes, expected %d", file, len,
			       CWASM_TARGET_INFO_SIZE);
	ti->bin_type = (uint16_t)(p[0] | p[1] << 8);
	ti->abi_type = (uint16_t)(p[2] | p[3] << 8);
	ti->e_type = (uint16_t)(p[4] | p[5] << 8);
	ti->e_machine = (uint16_t)(p[6] | p[7] << 8);
	ti->e_flags = le32(p + 8);
	ti->reserved = le32(p + 12);
	memcpy(ti->arch, p + 16, 16);
	ti->features = (uint64_t)le32(p + 32) | (uint64_t)le32(p + 36) << 32;

	for (alen = 0; alen < 16 && ti->arch[alen]; alen++)
		;
	printable((const uint8_t *)ti->arch, alen, shown, sizeof(shown));
	for (size_t i = alen; i < 16; i++)
		if (ti->arch[i])
			return target_fail(err, "%s: target info arch '%s' has nonzero padding", file,
				       shown);
	if (cwasm_arch__parse(ti->arch, alen, &t->arch))
		return target_fail(err, "%s: target info arch '%s' is not x86_64 or aarch64", file,
			       shown);
	t->declared_arch = t->arch;

	if (ti->bin_type == 1) {
		/* legacy: the architecture only, every other field 0 */
		if (ti->abi_type)
			return target_fail(err, "%s: target info abi_type %u, expected 0 in the legacy "
				       "form (bin_type 1)", file, ti->abi_type);
		if (ti->e_type)
			return target_fail(err, "%s: target info e_type %u, expected 0 in the legacy "
				       "form (bin_type 1)", file, ti->e_type);
		if (ti->e_machine)
			return target_fail(err, "%s: target info e_machine 0x%x, expected 0 in the "
				       "legacy form (bin_type 1)", file, ti->e_machine);
		if (ti->e_flags)
			return target_fail(err, "%s: target info e_flags 0x%x, expected 0 in the legacy "
				       "form (bin_type 1)", file, ti->e_flags);
		if (ti->reserved)
			return target_fail(err, "%s: target info reserved field is 0x%x, expected 0",
				       file, ti->reserved);
		t->format = CWASM_FMT_LEGACY;
		return 0;
	}
	for (size_t i = 0; i < sizeof(current_forms) / sizeof(current_forms[0]); i++)
		if (current_forms[i].arch == t->arch && current_forms[i].bin_type == ti->bin_type)
			f = &current_forms[i];
	if (!f)
		return target_fail(err, "%s: target info bin_type %u is not a known form for arch '%s'"
			       " (1 legacy; 2 ELF64; 6 COFF64 for x86_64)", file, ti->bin_type,
			       shown);
	if (ti->e_machine != f->e_machine)
		return target_fail(err, "%s: target info e_machine 0x%x does not match %s/%s"
			       " (expected 0x%x)", file, ti->e_machine, shown,
			       cwasm_format__name(f->format), f->e_machine);
	if (ti->e_type != 1)
		return target_fail(err, "%s: target info e_type %u, expected 1 for %s/%s", file,
			       ti->e_type, shown, cwasm_format__name(f->format));
	if (ti->abi_type)
		return target_fail(err, "%s: target info abi_type %u, expected 0", file, ti->abi_type);
	if (f->abi == CWASM_ABI_SYSV && f->arch == CWASM_ARCH_X86_64 &&
	    (ti->e_flags == CWASM_NATIVE_FLAG || ti->e_flags == CWASM_NATIVE_FUEL_FLAG)) {
		/* the native profile: e_flags names it, reserved is its runtime contract */
		if (ti->reserved != CWASM_NATIVE_CONTRACT)
			return target_fail(err, "%s: target info reserved field (the native profile's "
				       "runtime contract) is %u, expected %u", file, ti->reserved,
				       CWASM_NATIVE_CONTRACT);
		if (ti->features != CWASM_NATIVE_FEATURES)
			return target_fail(err, "%s: target info features 0x%llx, expected 0x%x for "
				       "the native profile", file,
				       (unsigned long long)ti->features, CWASM_NATIVE_FEATURES);
		t->profile = ti->e_flags == CWASM_NATIVE_FLAG ? CWASM_PROFILE_NATIVE
							      : CWASM_PROFILE_NATIVE_FUEL;
	} else {
		if (ti->e_flags)
			return target_fail(err, "%s: target info e_flags 0x%x, expected 0", file,
				       ti->e_flags);
		if (ti->reserved)
			return target_fail(err, "%s: target info reserved field is 0x%x, expected 0",
				       file, ti->reserved);
	}
	t->format = f->format;
	t->abi = t->declared_abi = f->abi;
	t->verified = 1;
	return 0;
}

void cwasm_target__override(struct cwasm_target *t, enum cwasm_arch arch)
{
	if (arch == CWASM_ARCH_UNKNOWN)
		return;
	t->overridden = 1;
	if (arch != t->declared_arch)
		t->abi = CWASM_ABI_UNSPECIFIED;
	t->arch = arch;
}

void cwasm_target__describe(const struct cwasm_target *t, char *buf, size_t len)
{
	const char *arch = cwasm_arch__name(t->declared_arch);
	const char *abi = cwasm_abi__name(t->declared_abi);
	const char *fmt = cwasm_format__name(t->format);

	if (t->format == CWASM_FMT_NONE)
		snprintf(buf, len, "none (no target info section)");
	else if (t->verified)
		snprintf(buf, len, "%s %s (%s, verified%s%s)", arch ? arch : "?", abi ? abi : "?",
			 fmt ? fmt : "?", t->profile ? ", " : "",
			 t->profile ? cwasm_profile__name(t->profile) : "");
	else
		snprintf(buf, len, "%s, ABI not recorded (%s)", arch ? arch : "?", fmt ? fmt : "?");
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

int cwasm_target__spec_profile(struct cwasm_target_info *ti, enum cwasm_profile profile)
{
	if (profile != CWASM_PROFILE_NATIVE && profile != CWASM_PROFILE_NATIVE_FUEL)
		return -1;
	cwasm_target__spec(ti, CWASM_ARCH_X86_64, CWASM_FMT_ELF64, CWASM_ABI_SYSV);
	ti->e_flags = profile == CWASM_PROFILE_NATIVE ? CWASM_NATIVE_FLAG : CWASM_NATIVE_FUEL_FLAG;
	ti->reserved = CWASM_NATIVE_CONTRACT;
	ti->features = CWASM_NATIVE_FEATURES;
	return 0;
}
