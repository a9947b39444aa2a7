# SPDX-License-Identifier: MIT
#
# Cores assembled at test time from a fixture source with a known call
# tree (tests/fixtures/calltree.S, xcore.S), for the unwinding and
# call-graph tests. Sourced after common.sh.

# asm_core SRC OUT.cwasm [--pad-to BYTES] [as options...]: OUT.cwasm and
# OUT.cwasm.syms, with OUT.o, OUT.text, OUT.nm and OUT.dis (objdump -M
# intel) beside them; SRC's folder is on the include path (.include
# "idioms.inc"). 0 on success.
asm_core() {
	local src=$1 out=$2 pad=()
	shift 2
	if [ "${1:-}" = --pad-to ]; then pad=(--pad-to "$2"); shift 2; fi
	local b=${out%.cwasm}
	as -I "$(dirname "$src")" "$@" -o "$b.o" "$src" &&
		objcopy -O binary -j .text "$b.o" "$b.text" &&
		nm -n --defined-only "$b.o" >"$b.nm" &&
		objdump -d -M intel --no-show-raw-insn "$b.o" >"$b.dis" &&
		"$B/tests/mkfixture" --text "$b.text" --nm "$b.nm" --version 7 --imports 0 \
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
# instructions: where a -g chain skips the immediate caller
skips() {
	gawk '
	FNR == NR { name[NR] = $4; start[NR] = strtonum($2); end[NR] = start[NR] + $3; nf = NR; next }
	/^ +[0-9a-f]+:\t/ {
		split($0, a, ":"); gsub(/[ \t]/, "", a[1]); ins[++ni] = strtonum("0x" a[1])
		gsub(/^[ \t]+/, "", a[2]); txt[ni] = a[2]
	}
	function at(l, o,   k) { for (k = 1; k <= nf; k++) if (l >= start[k] && l < end[k]) { printf "%s %d\n", name[k], l - start[k]; return } }
	END {
		for (k = 1; k <= nf; k++) printf "%s 0\n%s 1\n", name[k], name[k]
		for (i = 2; i <= ni; i++) if (txt[i - 1] ~ /^(pop +rbp|leave)/) at(ins[i])
	}' "$1" "$2"
}
