# SPDX-License-Identifier: MIT
#
# Cores assembled at test time from a fixture source with a known call
# tree (tests/fixtures/calltree.S, xcore.S), for the unwinding and
# call-graph tests. Sourced after common.sh.

# asm_core SRC OUT.cwasm [--pad-to BYTES] [as options...]: OUT.cwasm and
# OUT.cwasm.syms, with OUT.o, OUT.text, OUT.nm and OUT.dis (objdump -M
# intel) beside them; SRC's folder is on the include path (.include
# "idioms.inc"). 0 on success. ASM_ARCH=aarch64: aarch64 code with the
# cross binutils (A64_PREFIX, default aarch64-linux-gnu-), a version 11
# aarch64 core.
asm_core() {
	local src=$1 out=$2 pad=() p="" dis=(-M intel) target=(--version 7)
	shift 2
	if [ "${1:-}" = --pad-to ]; then pad=(--pad-to "$2"); shift 2; fi
	if [ "${ASM_ARCH:-}" = aarch64 ]; then
		p=${A64_PREFIX-aarch64-linux-gnu-} dis=() target=(--version 11 --target aarch64)
	fi
	local b=${out%.cwasm}
	"${p}as" -I "$(dirname "$src")" "$@" -o "$b.o" "$src" &&
		"${p}objcopy" -O binary -j .text "$b.o" "$b.text" &&
		"${p}nm" -n --defined-only "$b.o" >"$b.nm" &&
		"${p}objdump" -d "${dis[@]}" --no-show-raw-insn "$b.o" >"$b.dis" &&
		"$B/tests/mkfixture" --text "$b.text" --nm "$b.nm" "${target[@]}" --imports 0 \
			"${pad[@]}" -o "$out"
}

# manifest OUT.json CORE.cwasm...: a component manifest of the cores, in
# order (docs/formats-cwasm.md; core_sha256 is the sha256 of the text, as in
# tests/fixtures/fixtures.mk)
manifest() {
	local out=$1 i=0 c mods="" all
	shift
	all=$(cat "$@" | sha256sum | cut -d' ' -f1)
	for c in "$@"; do
		mods="$mods${mods:+,}{\"idx\":$i,\"path\":\"$(basename "$c")\",\"sha256\":\"$(sha256sum "$c" |
			cut -d' ' -f1)\",\"core_sha256\":\"$(sha256sum "${c%.cwasm}.text" | cut -d' ' -f1)\"}"
		i=$((i + 1))
	done
	printf '{"version":2,"wamr_build_id":"test","component_sha256":"%s","modules":[%s]}\n' \
		"$all" "$mods" >"$out"
}

# skips SYMS OBJDUMP: "NAME OFFSET" where rbp still holds the caller's
# frame (before mov rbp, rsp; after pop rbp/leave), from objdump's
# instructions: where a -g chain skips the immediate caller. ASM_ARCH=aarch64:
# where x29 does (up to mov x29, sp; after ldp x29, x30 up to the branch out)
skips() {
	gawk -v a64="$([ "${ASM_ARCH:-}" = aarch64 ] && echo 1)" '
	FNR == NR { name[NR] = $4; start[NR] = strtonum($2); end[NR] = start[NR] + $3; nf = NR; next }
	/^ +[0-9a-f]+:\t/ {
		split($0, a, ":"); gsub(/[ \t]/, "", a[1]); ins[++ni] = strtonum("0x" a[1])
		gsub(/^[ \t]+/, "", a[2]); txt[ni] = a[2]
	}
	function fnof(l,   k) { for (k = 1; k <= nf; k++) if (l >= start[k] && l < end[k]) return k; return 0 }
	function at(l,   k) { if ((k = fnof(l))) printf "%s %d\n", name[k], l - start[k] }
	END {
		if (!a64) {
			for (k = 1; k <= nf; k++) printf "%s 0\n%s 1\n", name[k], name[k]
			for (i = 2; i <= ni; i++) if (txt[i - 1] ~ /^(pop +rbp|leave)/) at(ins[i])
			exit
		}
		for (i = 1; i <= ni; i++) {
			k = fnof(ins[i])
			# before the frame record is set (mov x29, sp included), or once it is gone
			if (!set[k] || gone) at(ins[i])
			if (txt[i] ~ /^mov[ \t]+x29, sp/) set[k] = 1
			if (gone && txt[i] ~ /^(ret|br?)([ \t]|$)/) gone = 0
			if (txt[i] ~ /^ldp[ \t]+x29, x30/) gone = 1
		}
	}' "$1" "$2"
}

# got_cfa ELF SYMS OBJDUMP BASE [NAME]: "NAME OFFSET CFA" at the same
# instructions from readelf's interpretation of ELF's .eh_frame, where
# function offset 0 is at address BASE + the function's text offset, or at
# BASE for NAME alone (a jitted ELF). CFA "undefined" where the return
# address has no rule, "none" where no FDE covers the instruction.
# (x86_64 rsp/rbp and aarch64 sp/x29 rows, as readelf names them)
got_cfa() {
	readelf --debug-dump=frames-interp "$1" 2>/dev/null >"$WORK/interp.txt"
	gawk -v base0="$4" -v only="${5:-}" '
	BEGIN { base = strtonum(base0) }
	FILENAME == ARGV[1] {
		if (/ FDE /) { f = 1; match($0, /pc=([0-9a-f]+)\.\.([0-9a-f]+)/, m)
			lo[++nr] = strtonum("0x" m[1]); hi[nr] = strtonum("0x" m[2]); first[nr] = nrows + 1; next }
		if (/ CIE /) { f = 0; next }
		if (f && /^[0-9a-f]+ +(rsp|rbp|sp|x29)\+[0-9]+/) {
			loc[++nrows] = strtonum("0x" $1); cfa[nrows] = $NF == "u" ? "undefined" : $2 }
		next
	}
	FILENAME == ARGV[2] { name[FNR] = $4; start[FNR] = strtonum($2); end[FNR] = start[FNR] + $3; nf = FNR; next }
	/^ +[0-9a-f]+:\t/ {
		split($0, a, ":"); gsub(/[ \t]/, "", a[1]); x = strtonum("0x" a[1])
		while (k < nf && (k == 0 || x >= end[k])) k++
		if (only != "" && name[k] != only) next
		addr = base + x - (only != "" ? start[k] : 0)
		while (r < nr && !(addr >= lo[r] && addr < hi[r]) && (r == 0 || addr >= hi[r])) r++
		c = "none"
		if (addr >= lo[r] && addr < hi[r]) {
			for (j = first[r]; j < (r < nr ? first[r + 1] : nrows + 1) && loc[j] <= addr; j++)
				c = cfa[j]
		}
		printf "%s %d %s\n", name[k], x - start[k], c
	}' "$WORK/interp.txt" "$2" "$3"
}

# wasm_frames FOLDED: the stacks through no vdso, cut to their wasm frames
# (and the caller-unknown marker), counts summed: for recordings whose host
# frames need files that are not here (the loader as it was recorded)
wasm_frames() {
	grep -v -e vdso -e '^SKIPPED ' "$1" | gawk '{
		n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s = ""
		for (i = 1; i <= k; i++)
			if (f[i] ~ /local_func_/ || f[i] == "[caller unknown]")
				s = s (s == "" ? "" : ";") f[i]
		if (s ~ /local_func_/) c[s] += n
	} END { for (s in c) print s, c[s] }' | sort
}
