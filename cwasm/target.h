/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_CWASM_TARGET_H
#define AOTPERF_CWASM_TARGET_H

/*
 * The .cwasm target info (section 0): which architecture the code is for
 * and, in the current forms, which ABI. docs/formats-cwasm.md, "Target
 * info", lists every form the compiler writes. libc only: the runtime
 * library libaotperf-jit compiles this in.
 */
#include <stddef.h>
#include <stdint.h>
#include "../util/err.h"

enum cwasm_arch {
	CWASM_ARCH_UNKNOWN = 0,
	CWASM_ARCH_X86_64,
	CWASM_ARCH_AARCH64,
};

enum cwasm_abi {
	CWASM_ABI_UNSPECIFIED = 0,	/* legacy target info records none */
	CWASM_ABI_SYSV,
	CWASM_ABI_WIN64,
	CWASM_ABI_AAPCS64,
};

enum cwasm_format {
	CWASM_FMT_NONE = 0,		/* no target info section */
	CWASM_FMT_LEGACY,		/* bin_type 1, all else 0: "legacy-unspecified" */
	CWASM_FMT_ELF64,		/* "elf64-little" */
	CWASM_FMT_COFF64,		/* "coff64" */
};

/*
 * The compiler's native embedding profile (x86_64 SysV ELF64 only): the
 * target info carries a profile flag in e_flags, the runtime contract
 * version in reserved and the required CPU features.
 */
enum cwasm_profile {
	CWASM_PROFILE_NONE = 0,		/* a hosted .cwasm */
	CWASM_PROFILE_NATIVE,		/* e_flags 0x554b0001 */
	CWASM_PROFILE_NATIVE_FUEL,	/* e_flags 0x554b0002: fuel-metered */
};

#define CWASM_TARGET_INFO_SIZE 40
#define CWASM_NATIVE_FLAG 0x554b0001u
#define CWASM_NATIVE_FUEL_FLAG 0x554b0002u
#define CWASM_NATIVE_CONTRACT 1u
#define CWASM_NATIVE_FEATURES 0x1fu	/* SSE2, SSE4.1, POPCNT, BMI1, LZCNT */

/* Section 0 as written: 40 bytes. */
struct cwasm_target_info {
	uint16_t bin_type, abi_type, e_type, e_machine;
	uint32_t e_flags, reserved;
	char arch[16];			/* NUL-padded, not terminated when 16 long */
	uint64_t features;
};

/* What the target info says, checked. */
struct cwasm_target {
	enum cwasm_arch arch;		/* the code's: declared, or an --arch override */
	enum cwasm_abi abi;		/* UNSPECIFIED unless verified (and not overridden) */
	enum cwasm_format format;
	enum cwasm_profile profile;
	int verified;			/* a current form, every field consistent */
	/* what the target info itself says (arch UNKNOWN without one) */
	enum cwasm_arch declared_arch;
	enum cwasm_abi declared_abi;
	int overridden;			/* arch was given by the user (cwasm_target__override) */
};

/* "x86_64", "aarch64"; NULL for unknown. */
const char *cwasm_arch__name(enum cwasm_arch arch);
/* x86_64, x86-64, amd64, x64, aarch64, arm64 (any case); 0 or -1. */
int cwasm_arch__parse(const char *s, size_t len, enum cwasm_arch *out);
/* "sysv", "win64", "aapcs64"; NULL when unspecified. */
const char *cwasm_abi__name(enum cwasm_abi abi);
/* "legacy-unspecified", "elf64-little", "coff64"; NULL for none. */
const char *cwasm_format__name(enum cwasm_format fmt);
/* "native", "native-fuel"; NULL for a hosted .cwasm. */
const char *cwasm_profile__name(enum cwasm_profile profile);
/*
 * Check a 40-byte target info payload: the legacy form, one of the
 * current forms (x86_64/SysV ELF64 0x3e, x86_64/Win64 COFF64 0x8664,
 * aarch64/AAPCS64 ELF64 0xb7), or the native profile. Anything else is
 * -1 with err naming the file and the field.
 */
int cwasm_target__parse(const uint8_t *p, size_t len, const char *file,
			struct cwasm_target_info *ti, struct cwasm_target *t, struct ap_err *err);
/*
 * The user's --arch: decode the code as arch whatever the target info
 * says. When it names another architecture (or none), nothing else it
 * says is trusted either: the ABI becomes unspecified.
 */
void cwasm_target__override(struct cwasm_target *t, enum cwasm_arch arch);
/*
 * What the target info says, for reports: "x86_64, ABI not recorded
 * (legacy-unspecified)", "x86_64 sysv (elf64-little, verified)", "none
 * (no target info section)". An override is not part of it.
 */
void cwasm_target__describe(const struct cwasm_target *t, char *buf, size_t len);
/* The raw fields the compiler writes for a form (writer and tests); 0 or -1. */
int cwasm_target__spec(struct cwasm_target_info *ti, enum cwasm_arch arch,
		       enum cwasm_format format, enum cwasm_abi abi);
/* The same for the native profile (NATIVE or NATIVE_FUEL); 0 or -1. */
int cwasm_target__spec_profile(struct cwasm_target_info *ti, enum cwasm_profile profile);

#endif
