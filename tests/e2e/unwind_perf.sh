#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Unwinding through wasm frames with stock perf (docs/unwinding.md).
#
# 1. The CFI of a 3,000-function ELF image (aotperf inject --direct):
#    readelf, eu-readelf, eu-elflint and llvm-dwarfdump read it; one FDE
#    per function with exactly the function's range; the .eh_frame_hdr
#    table complete and sorted; readelf's interpreted CFA table equal to
#    the rows the compiler's frame shape gives at the instructions objdump
#    finds (push rbp, mov rbp, rsp, every ret).
# 2. --call-graph=dwarf of a core with a known static call tree
#    (tests/fixtures/calltree.S), then aotperf inject --direct: every
#    sample's chain in stock `perf script` follows the static graph up to
#    the entry and on into the host; `perf report --children` equals what
#    the call tree and the self counts give.
# 3. -g: the kernel's frame-pointer chain names the caller in the body
#    and the caller's caller at the prologue/epilogue offsets (where the
#    rules say fp still holds the caller's frame).
# 4. jitdump + stock perf inject --jit (aotperf's dump, and the runtime
#    library's own): every jitted ELF carries its function's CFI; with a
#    perf whose unwinder reads CFI from the ELF files, chains as in 2.
#
#   tests/e2e/unwind_perf.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
S=$FIX/sample.cwasm
CALLS=$E2E/unwind_calls.awk

# want_cfa SYMS OBJDUMP: "NAME OFFSET CFA" at every instruction objdump
# finds, from the compiler's frame shape: rsp+8 at entry, rsp+16 after
# push rbp, rbp+16 from mov rbp, rsp on; rsp+8 at a ret or at a jmp right
# after pop rbp/leave, and rbp+16 again after it.
want_cfa() {
	gawk '
	FNR == NR { name[NR] = $4; start[NR] = strtonum($2); end[NR] = start[NR] + $3; nf = NR; next }
	/^ +[0-9a-f]+:\t/ {
		split($0, a, ":"); gsub(/[ \t]/, "", a[1]); ins[++ni] = strtonum("0x" a[1])
		gsub(/^[ \t]+/, "", a[2]); txt[ni] = a[2]
	}
	END {
		k = 1
		for (i = 1; i <= ni; i++) {
			while (k < nf && ins[i] >= end[k]) k++
			o = ins[i] - start[k]
			cfa = o == 0 ? "rsp+8" : o < 4 ? "rsp+16" : "rbp+16"
			if (txt[i] ~ /^ret/ || (i > 1 && txt[i - 1] ~ /^(pop +rbp|leave)/ && txt[i] ~ /^jmp/))
				cfa = "rsp+8"
			printf "%s %d %s\n", name[k], o, cfa
		}
	}' "$1" "$2"
}
val() { gawk -v k="$1" '$1 == k { print $2 }' "$2"; }
fval() { gawk -v k="$1" -v f="$2" '$1 == k && $2 == f { print $3 }' "$3"; }

# ---- 1. the CFI of a 3,000-function image ----
record "$WORK/s.data" -- --ms 300 "$S"
"$AOTPERF" inject -q --direct -i "$WORK/s.data" --cwasm "$S" -o "$WORK/s.jit.data" >/dev/null
check_eq "image: aotperf inject --direct: exit status" "$?" 0
img=$(ls "$WORK"/s.jit.data.d/*.so 2>/dev/null | head -n1)
check "image: written" test -f "$img"
nfunc=$(gawk '$3 > 0' "$S.syms" | wc -l)
gawk '$3 > 0 { printf "%x %x\n", 0x1000 + strtonum($2), 0x1000 + strtonum($2) + $3 }' "$S.syms" |
	sort >"$WORK/fde.want"
readelf --debug-dump=frames "$img" 2>/dev/null |
	gawk 'match($0, / FDE .*pc=([0-9a-f]+)\.\.([0-9a-f]+)/, m) {
		printf "%x %x\n", strtonum("0x" m[1]), strtonum("0x" m[2]) }' | sort >"$WORK/fde.got"
same_counts "image: readelf: one FDE per function, exactly its range" "$WORK/fde.got" "$WORK/fde.want"
check_eq "image: readelf: FDEs" "$(wc -l <"$WORK/fde.got")" "$nfunc"
eu-readelf --debug-dump=frames "$img" >"$WORK/eu.txt" 2>&1
check_eq "image: eu-readelf: .eh_frame_hdr fde_count" \
	"$(gawk '/^ fde_count:/ { print $2 }' "$WORK/eu.txt")" "$nfunc"
gawk '/^Call frame search table/ { t = 1 } t && / -> / { print }' "$WORK/eu.txt" >"$WORK/hdr.txt"
check_eq "image: eu-readelf: table entries" "$(wc -l <"$WORK/hdr.txt")" "$nfunc"
check "image: eu-readelf: the table is sorted by address" gawk '
	{ v = strtonum($1); if (NR > 1 && v <= last) exit 1; last = v }' "$WORK/hdr.txt"
gawk 'match($0, /^ \[ *([0-9a-f]+)\] FDE /, m) { print m[1] }' "$WORK/eu.txt" | sort >"$WORK/fdeoff.want"
gawk 'match($0, /fde=\[ *([0-9a-f]+)\]/, m) { print m[1] }' "$WORK/hdr.txt" | sort >"$WORK/fdeoff.got"
same_counts "image: eu-readelf: the table points at every FDE" "$WORK/fdeoff.got" "$WORK/fdeoff.want"
eu-elflint --gnu-ld "$img" >"$WORK/elflint.txt" 2>&1
check_eq "image: eu-elflint --gnu-ld: exit status" "$?" 0
if command -v llvm-dwarfdump >/dev/null; then
	check_eq "image: llvm-dwarfdump --eh-frame: FDEs" \
		"$(llvm-dwarfdump --eh-frame "$img" 2>/dev/null | grep -c ' FDE ')" "$nfunc"
fi
objdump -d -M intel --no-show-raw-insn "$FIX/sample.core.o" >"$WORK/s.dis"
want_cfa "$S.syms" "$WORK/s.dis" >"$WORK/cfa.want"
got_cfa "$img" "$S.syms" "$WORK/s.dis" 0x1000 >"$WORK/cfa.got"
same_counts "image: readelf's CFA at every instruction objdump finds is the frame shape's" \
	"$WORK/cfa.got" "$WORK/cfa.want"

# ---- the call-tree core ----
CT=$WORK/ct
mkdir -p "$CT"
asm_core "$SRC/tests/fixtures/calltree.S" "$CT/calltree.cwasm"
check_eq "calltree: fixture built" "$?" 0
C=$CT/calltree.cwasm
skips "$C.syms" "$CT/calltree.dis" >"$CT/skips"

# pcall FILE: the report's per-function "children" percentage of the call-tree core
pcall() {
	perf report -i "$1" --stdio --children --sort sym -g none 2>/dev/null |
		gawk 'match($0, /^ +([0-9.]+)% +[0-9.]+% +\[\.\] local_func_[0-9]+:([a-z_]+)/, m) {
			print m[2], m[1] }'
}

# ---- 2. --call-graph=dwarf, inject --direct ----
D=$WORK/dwarf
mkdir -p "$D"
perf record -q -e cpu-clock:u -k mono -F 2000 --call-graph=dwarf,8192 -o "$D/perf.data" -- \
	"$LOADER" --ms 2000 --mix calltree "$C" >"$D/log" 2>&1
check_eq "dwarf: perf record --call-graph=dwarf: exit status" "$?" 0
"$AOTPERF" inject -q --direct --names wasm -i "$D/perf.data" --cwasm "$C" -o "$D/direct.data" \
	>/dev/null
check_eq "dwarf: aotperf inject --direct: exit status" "$?" 0
check "dwarf: the image's CFI got a mapping record" bash -c "perf script -i '$D/direct.data' \
	--show-mmap-events 2>/dev/null | grep -c 'MMAP2.*calltree.core0.aotperf.so' | grep -qx 2"
perf script -i "$D/direct.data" --no-inline -F ip,sym,symoff 2>/dev/null |
	gawk -v mode=dwarf -f "$CALLS" >"$D/calls" 2>"$D/calls.err"
n=$(val samples "$D/calls")
check "dwarf: enough samples in the core (${n:-0})" test "${n:-0}" -ge 500
check_eq "dwarf: perf script: every chain follows the static call tree" \
	"$(val valid "$D/calls")/$(val invalid "$D/calls")/$(val truncated "$D/calls")" "$n/0/0"
h=$(val host "$D/calls")
check "dwarf: perf script: the host caller follows the entry ($h of $n)" test "$((h * 100))" -ge "$((n * 95))"
leaf_skips=$(gawk '$1 == "ct_leaf"' "$CT/skips" | wc -l)
check "dwarf: the leaf was sampled (incl. its $leaf_skips prologue/epilogue offsets)" \
	test "$(fval SELF ct_leaf "$D/calls")" -ge 50
# perf report --children against the call tree and the self counts
tot=$(perf report -i "$D/direct.data" --stdio --no-children --sort sym -n 2>/dev/null |
	gawk '/^ +[0-9.]+% +[0-9]+ / { n += $2 } END { print n + 0 }')
pcall "$D/direct.data" >"$D/children"
gawk -v tot="$tot" -v calls="$D/calls" '
	BEGIN { while ((getline l < calls) > 0) { split(l, w, " "); if (w[1] == "SELF") s[w[2]] = w[3] } }
	{ got[$1] = $2 * tot / 100 }
	function near(name, want) {
		# the report prints 2 decimals: allow 0.01% of the total plus one sample
		d = got[name] - want; if (d < 0) d = -d
		if (d > tot / 10000 + 1) { printf "%s: report %.1f, call tree %.1f\n", name, got[name], want; bad++ }
	}
	END {
		near("ct_leaf", s["ct_leaf"]); near("ct_rec", s["ct_rec"]); near("ct_tail", s["ct_tail"])
		near("ct_main", s["ct_main"] + s["ct_a"] + s["ct_b"] + s["ct_leaf"] + s["ct_rec"] + s["ct_tail"])
		near("entry_calltree", s["entry_calltree"] + s["ct_main"] + s["ct_a"] + s["ct_b"] + s["ct_leaf"] + s["ct_rec"] + s["ct_tail"])
		# ct_leaf is called from both: only the sum is known, and bounds
		d = got["ct_a"] + got["ct_b"] - (s["ct_a"] + s["ct_b"] + s["ct_leaf"] + s["ct_rec"])
		if (d < -(tot / 5000 + 2) || d > tot / 5000 + 2) { print "ct_a + ct_b off by " d; bad++ }
		if (got["ct_a"] < s["ct_a"] - 1 || got["ct_a"] > s["ct_a"] + s["ct_leaf"] + 1) { print "ct_a out of bounds"; bad++ }
		if (got["ct_b"] < s["ct_b"] + s["ct_rec"] - 1 ||
		    got["ct_b"] > s["ct_b"] + s["ct_rec"] + s["ct_leaf"] + 1) { print "ct_b out of bounds"; bad++ }
		exit bad > 0
	}' "$D/children" >"$D/children.check"
check "dwarf: perf report --children equals the call tree over the self counts" test $? -eq 0
sed 's/^/    /' "$D/children.check"

# ---- 3. -g: the kernel's frame-pointer chain ----
G=$WORK/fp
mkdir -p "$G"
perf record -q -e cpu-clock:u -k mono -F 2000 -g -o "$G/perf.data" -- \
	"$LOADER" --ms 1500 --mix calltree "$C" >"$G/log" 2>&1
check_eq "fp: perf record -g: exit status" "$?" 0
"$AOTPERF" inject -q --direct --names wasm -i "$G/perf.data" --cwasm "$C" -o "$G/direct.data" >/dev/null
perf script -i "$G/direct.data" --no-inline -F ip,sym,symoff 2>/dev/null |
	gawk -v mode=fp -v skips="$CT/skips" -f "$CALLS" >"$G/calls"
st=$(val skip_total "$G/calls")
check "fp: samples at prologue/epilogue offsets (${st:-0})" test "${st:-0}" -ge 10
check_eq "fp: there the chain skips the immediate caller" "$(val skip_valid "$G/calls")" "$st"
check_eq "fp: elsewhere it names the caller" "$(val invalid "$G/calls")" 0

# ---- 4. jitdump + stock perf inject --jit ----
# (aotperf jitdump -o OUT puts the dumps, and so perf inject --jit the ELFs,
# in OUT.d)
# jitted_cfa DIR: got_cfa over every jitted ELF of the call-tree core
# (genelf puts the code at 0x80)
jitted_cfa() {
	local so idx name
	for so in "$1"/jitted-*.so; do
		idx=$(nm "$so" 2>/dev/null | gawk 'match($0, /local_func_([0-9]+)/, m) { print m[1]; exit }')
		name=$(gawk -v i="$idx" '$1 == i { print $4 }' "$C.syms")
		[ -n "$name" ] || continue
		got_cfa "$so" "$C.syms" "$CT/calltree.dis" 0x80 "$name"
	done | sort
}
want_cfa "$C.syms" "$CT/calltree.dis" | sort >"$CT/cfa.want"

J=$WORK/jit
mkdir -p "$J"
"$AOTPERF" jitdump -q --names wasm -i "$D/perf.data" --cwasm "$C" -o "$J/marked.data" >/dev/null
check_eq "jitdump: aotperf jitdump: exit status" "$?" 0
perf inject --jit -i "$J/marked.data" -o "$J/perf.jit.data" >/dev/null 2>&1
check_eq "jitdump: stock perf inject --jit: exit status" "$?" 0
jitted_cfa "$J/marked.data.d" >"$J/cfa.got"
same_counts "jitdump: every jitted ELF carries its function's CFI" "$J/cfa.got" "$CT/cfa.want"

# the runtime library's own dump (rules from the bytes alone: a tail jump
# gets no rule, see unwind/rules_x86.c)
L=$WORK/live
mkdir -p "$L/jit"
JITDUMPDIR=$L/jit perf record -q -e cpu-clock:u -k mono -F 2000 --call-graph=dwarf,8192 \
	-o "$L/perf.data" -- "$LOADER" --jitdump --ms 500 --mix calltree "$C" >"$L/log" 2>&1
check_eq "live: loader --jitdump under perf record: exit status" "$?" 0
perf inject --jit -i "$L/perf.data" -o "$L/perf.jit.data" >/dev/null 2>&1
check_eq "live: stock perf inject --jit: exit status" "$?" 0
jitted_cfa "$(dirname "$(find "$L/jit" -name 'jitted-*.so' | head -n1)")" >"$L/cfa.got"
# the same, but the tail jump after ct_a's pop rbp has no rule
tailjmp=$(gawk '$1 == "ct_a" && $2 != 0 && $2 != 1 { print $2 }' "$CT/skips")
gawk -v t="$tailjmp" '$1 == "ct_a" && $2 == t { print "ct_a " t " undefined"; next } { print }' \
	"$CT/cfa.want" | sort >"$L/cfa.want"
same_counts "live: the runtime library's dump carries the same CFI (tail jump: none)" \
	"$L/cfa.got" "$L/cfa.want"

# Does this perf unwind from the ELF files (libdw) or through the process's
# mappings (libunwind)? perf's libunwind glue reads .eh_frame_hdr's table
# at the address the jitted ELF would have if its CFI were mapped right
# after its code, where the next function's code is: it cannot work for
# functions laid out back to back (docs/unwinding.md).
if perf report -v -i "$J/perf.jit.data" --stdio 2>&1 >/dev/null | grep -q 'unwind: find_proc_info'; then
	echo "skip: jitdump chains: this perf unwinds with libunwind, which reads CFI through" \
		"the mappings jitted ELFs of back-to-back functions cannot have; use --direct"
else
	perf script -i "$J/perf.jit.data" --no-inline -F ip,sym,symoff 2>/dev/null |
		gawk -v mode=dwarf -f "$CALLS" >"$J/calls" 2>/dev/null
	n=$(val samples "$J/calls")
	check_eq "jitdump: perf script: every chain follows the static call tree" \
		"$(val valid "$J/calls")/$(val invalid "$J/calls")" "$n/0"
fi

finish
