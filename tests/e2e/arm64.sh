#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# arm64 recorded end to end: recordings made by Debian 12's arm64 perf on
# Debian's arm64 kernel (scripts/arm64-vm.sh, an emulated machine) of the
# aarch64 loader running the A64 call-tree core (tests/fixtures/
# calltree_a64.S: pinned x19/x20, frame traffic, br_table chains, tail
# calls), read by aotperf here and checked against perf's own output made
# in that machine (tests/fixtures/arm64, remade by its remake.sh):
#   attribution   per-function counts == ref_attr.awk over perf script's ips
#   routes        aotperf inject, perfmap, jitdump + perf inject --jit, and
#                 the runtime library's own jitdump: the VM's perf report
#                 counts == aotperf report's
#   call graphs   -g and --call-graph=dwarf: the wasm frames of every stack
#                 == the VM's perf script of the inject --direct copy (its
#                 unwinding with the images' A64 CFI); every edge one of the
#                 call tree's, ca_main outermost in every stack; inclusive
#                 share per function == the VM's perf report --children;
#                 -g: the caller the chain skips is named from x30 exactly
#                 where objdump says (folded_perf.awk lr=1); the runtime
#                 library's CFI: the VM's perf unwinds as aotperf does
#   consistency   the right core 100%; a shifted and a realigned build
#                 against consistency_ref.awk's independent figures
#   static        the aarch64 static aotperf (run in the VM, in a chroot of
#                 its inputs) printed what the x86_64 static build prints
#                 here in the same chroot: report text and JSON
#
#   tests/e2e/arm64.sh BUILD_DIR [--live]
#
# --live: first record afresh in the VM (tests/fixtures/arm64/remake.sh into
# a scratch folder, building the VM if missing: `make test-arm64-vm`), then
# the same checks on those recordings. Needs the aarch64 cross binutils
# (scripts/cross-deps.sh) to rebuild the cores; without them one "skip:".
# ARM64_FX=DIR: the checks on remake.sh's output in DIR instead.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
FX=${ARM64_FX:-$SRC/tests/fixtures/arm64}
FOLD=$E2E/folded_perf.awk
if ! command -v aarch64-linux-gnu-as >/dev/null; then
	echo "skip: arm64: no aarch64-linux-gnu-as to rebuild the cores (scripts/cross-deps.sh)"
	finish
	exit
fi
if [ "${2:-}" = --live ]; then
	FX=$WORK/live
	t0=$(date +%s)
	bash "$SRC/tests/fixtures/arm64/remake.sh" "$B" "$FX" >"$WORK/remake.log" 2>&1
	rc=$?
	check_eq "live: remake.sh recorded in the VM ($(($(date +%s) - t0)) s)" "$rc" 0
	[ "$rc" = 0 ] || { tail -n 30 "$WORK/remake.log"; finish; exit; }
fi

# the fixtures, unpacked
T=$WORK/fx
mkdir -p "$T"
cp -r "$FX"/. "$T/"
for f in "$T"/*.gz; do gunzip -f "$f"; done
C=$T/calltree_a64.cwasm
echo "note: $(cat "$T/perf-version") on $(cat "$T/kernel")"

# ---- the cores ----
K=$WORK/cores
mkdir -p "$K"
# b: 8-byte function alignment (realigned); c: 16 bytes of code in front (shifted)
sed 's/^\t\.p2align 4$/\t.p2align 3/' "$SRC/tests/fixtures/calltree_a64.S" >"$K/b.S"
sed 's/^\t\.text$/\t.text\npad_fn:\n\tmov w0, #1\n\tret/' "$SRC/tests/fixtures/calltree_a64.S" >"$K/c.S"
for k in a b c; do
	s=$K/$k.S
	[ $k = a ] && s=$SRC/tests/fixtures/calltree_a64.S
	ASM_ARCH=aarch64 asm_core "$s" "$K/$k.cwasm" &&
		aarch64-linux-gnu-as -al="$K/$k.lst" -o /dev/null "$s" || bad "cores: $k assembled"
done
check "cores: the fixture's core is what calltree_a64.S assembles to" cmp -s "$K/a.cwasm" "$C"
check "cores: ... and its .syms" cmp -s "$K/a.cwasm.syms" "$C.syms"
pages() { echo $((($(stat -c %s "$1") + 4095) / 4096)); }
check "cores: the other builds' texts differ, their pages do not" test \
	"$(stat -c %s "$K/a.text") $(pages "$K/a.text")" != "$(stat -c %s "$K/b.text") 1" -a \
	"$(pages "$K/b.text") $(pages "$K/c.text")" = "$(pages "$K/a.text") $(pages "$K/a.text")"
ASM_ARCH=aarch64 skips "$C.syms" "$K/a.dis" >"$K/skips"
TEXTSIZE=$(syms_text_size "$C.syms")

# ---- attribution ----
"$AOTPERF" report -q -i "$T/plain.data" --cwasm "$C" --top 0 --json "$WORK/plain.json" >/dev/null
check_eq "plain: aotperf report: exit status" "$?" 0
gawk -v textsize="$TEXTSIZE" -f "$E2E/ref_attr.awk" "$C.syms" "$T/plain.script" | sort >"$WORK/plain.ref"
aotperf_counts "$WORK/plain.json" >"$WORK/plain.got"
same_counts "plain: total, core and per-function counts == perf script's ips, by address" \
	"$WORK/plain.got" "$WORK/plain.ref"
check "plain: most functions sampled ($(grep -c '^FUNC' "$WORK/plain.ref") of 8)" \
	test "$(grep -c '^FUNC' "$WORK/plain.ref")" -ge 6
check_eq "plain: the core is aarch64 code, verified, decoded as such" \
	"$(jq -r '.artifact_target | "\(.architecture) \(.abi) \(.verified) \(.decoded_as)"' \
	   "$WORK/plain.json")" "aarch64 aapcs64 true aarch64"

# ---- routes: the VM's perf names the functions ----
# perf_self REPORT: "FUNC n samples" from perf report --sort sym -n
perf_self() {
	gawk '$3 == "[.]" && $4 ~ /^local_func_[0-9]+$/ { sub(/local_func_/, "", $4); print "FUNC", $4, $2 }' \
		"$1" | sort
}
for d in mono jit; do
	"$AOTPERF" report -q -i "$T/$d.data" --cwasm "$C" --top 0 --json "$WORK/$d.json" >/dev/null
	check_eq "$d: aotperf report: exit status" "$?" 0
	ours "$WORK/$d.json" >"$WORK/$d.got"
done
for r in inject perfmap jit; do
	perf_self "$T/mono.$r.report" >"$WORK/mono.$r.ref"
	same_counts "route $r: the VM's perf report == aotperf report" "$WORK/mono.got" "$WORK/mono.$r.ref"
done
perf_self "$T/jit.report" >"$WORK/jit.ref"
same_counts "runtime library: the VM's perf inject --jit + report of its dump == aotperf report" \
	"$WORK/jit.got" "$WORK/jit.ref"
check "runtime library: the loader registered the core" grep -q 'jitdump .*jit-[0-9]*\.dump' "$T/jit.log"

# ---- call graphs ----
# tree WASM_FRAMES: "EDGES n", "BAD n" (an edge not in calltree_a64.S's
# tree, or a stack whose outermost wasm frame is not ca_main)
tree() {
	gawk 'BEGIN {
		split("ca_main>ca_a ca_main>ca_b ca_main>ca_tail ca_a>ca_leaf ca_b>ca_leaf " \
		      "ca_b>ca_disp ca_b>ca_big ca_b>ca_rec ca_rec>ca_rec", e, " ")
		for (i in e) ok[e[i]] = 1
	}
	{
		n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";")
		for (i = 1; i <= k; i++) sub(/^local_func_[0-9]+:/, "", f[i])
		if (f[1] != "ca_main") { bad += n; print "note: outermost " f[1] > "/dev/stderr" }
		for (i = 2; i <= k; i++) {
			edges += n
			if (!((f[i - 1] ">" f[i]) in ok)) { bad += n; print "note: edge " f[i - 1] ">" f[i] > "/dev/stderr" }
		}
	} END { print "EDGES", edges + 0; print "BAD", bad + 0 }' "$1"
}
# children_pct REPORT: "name pct" of perf report --children's wasm rows
children_pct() {
	gawk '$4 == "[.]" && $5 ~ /^local_func_/ { sub(/%/, "", $1); print $5, $1 }' "$1" | sort
}
for g in dwarf fp; do
	lr=()
	[ $g = fp ] && lr=(-v skips="$K/skips" -v lr=1)
	"$AOTPERF" report -q -i "$T/$g.data" --cwasm "$C" --children --top 0 \
		--folded "$WORK/$g.aot.folded" --json "$WORK/$g.json" >/dev/null
	check_eq "$g: aotperf report --children --folded: exit status" "$?" 0
	gawk "${lr[@]}" -f "$FOLD" "$T/$g.direct.script" >"$WORK/$g.perf.folded"
	wasm_frames "$WORK/$g.perf.folded" >"$WORK/$g.perf.wasm"
	wasm_frames "$WORK/$g.aot.folded" >"$WORK/$g.aot.wasm"
	same_counts "$g: the wasm frames of every stack == the VM's perf script" \
		"$WORK/$g.aot.wasm" "$WORK/$g.perf.wasm"
	tree "$WORK/$g.aot.wasm" >"$WORK/$g.tree" 2>"$WORK/$g.tree.err"
	check_eq "$g: every edge one of the call tree's, ca_main outermost" \
		"$(awk '{ printf "%s %s ", $1, $2 }' "$WORK/$g.tree")" \
		"EDGES $(awk '$1 == "EDGES" { print $2 }' "$WORK/$g.tree") BAD 0 "
	check "$g: ca_tail's caller is ca_main, ca_leaf's include ca_b (tail calls)" \
		grep -q 'ca_main;local_func_2:ca_tail ' "$WORK/$g.aot.wasm"
	check_eq "$g: inclusive ca_main == the samples in wasm code" \
		"$(jq '.children[] | select(.name == "local_func_7:ca_main") | .children_samples' "$WORK/$g.json")" \
		"$(jq .attributed_samples "$WORK/$g.json")"
	jq -r '.total_samples as $t | .children[] | select(.kind == "wasm" and .children_samples > 0) |
	       "\(.name) \(.children_samples * 100 / $t)"' "$WORK/$g.json" | sort >"$WORK/$g.aot.pct"
	children_pct "$T/$g.children" >"$WORK/$g.perf.pct"
	check "$g: inclusive share per function == the VM's perf report --children (to 0.01%; $(wc -l \
		<"$WORK/$g.perf.pct") functions)" gawk -v n0="$(wc -l <"$WORK/$g.aot.pct")" '
		FNR == NR { w[$1] = $2; next }
		{ if (!($1 in w) || (w[$1] - $2) ^ 2 > 0.0001) exit 1; n++ }
		END { exit n != n0 || n < 6 }' "$WORK/$g.aot.pct" "$WORK/$g.perf.pct"
done
check_eq "dwarf: mode, no walk cut" "$(jq -r '.call_graph | "\(.mode) \(.cut)"' "$WORK/dwarf.json")" "dwarf 0"
check_eq "fp: mode, no caller unknown" \
	"$(jq -r '.call_graph | "\(.mode) \(.caller_unknown)"' "$WORK/fp.json")" "fp 0"
skipped=$(awk '$1 == "SKIPPED" { print $2 }' "$WORK/fp.perf.folded")
check_eq "fp: callers named from x30 == the samples at objdump's skip offsets that perf named from x30" \
	"$(jq .call_graph.caller_from_lr "$WORK/fp.json")" "$skipped"
check "fp: some ($skipped)" test "$skipped" -gt 20
check "fp: the text says so" grep -q "caller from x30 *$skipped " <("$AOTPERF" report -q \
	-i "$T/fp.data" --cwasm "$C" --children --top 0)

# ---- the runtime library's own CFI (JIT_CODE_UNWINDING_INFO) ----
# want_cfa SYMS OBJDUMP: "NAME OFFSET CFA" at every instruction from the
# compiler's frame shapes as objdump shows them: sp+0 at entry; sp+N once
# sub sp / stp x29, x30, [sp, #-N]! ran; x29+N from mov x29, sp on; after
# ldp x29, x30 what sp still holds (an add sp lowers it), up to the branch
# out; x29+N again after it
want_cfa() {
	gawk '
	FNR == NR { name[NR] = $4; start[NR] = strtonum($2); end[NR] = start[NR] + $3; nf = NR; next }
	/^ +[0-9a-f]+:\t/ {
		split($0, a, ":"); gsub(/[ \t]/, "", a[1]); x = strtonum("0x" a[1])
		t = $0; sub(/^ +[0-9a-f]+:\t/, "", t); gsub(/\t/, " ", t)
		while (k < nf && (k == 0 || x >= end[k])) { k++; reg = "sp"; off = 0; frame = 0; out = 0 }
		printf "%s %d %s+%d\n", name[k], x - start[k], reg, reg == "sp" ? off : frame
		if (match(t, /^stp x29, x30, \[sp, #-([0-9]+)\]!/, m)) off += m[1]
		else if (match(t, /^sub sp, sp, #(0x[0-9a-f]+|[0-9]+)/, m)) off += strtonum(m[1])
		else if (t ~ /^mov x29, sp/) { reg = "x29"; frame = off }
		else if (match(t, /^ldp x29, x30, \[sp\], #([0-9]+)/, m)) { reg = "sp"; off = frame - m[1]; out = 1 }
		else if (t ~ /^ldp x29, x30, \[sp\]$/) { reg = "sp"; off = frame; out = 1 }
		else if (out && match(t, /^add sp, sp, #(0x[0-9a-f]+|[0-9]+)/, m)) off -= strtonum(m[1])
		else if (out && t ~ /^(ret|br? )/) { reg = "x29"; out = 0 }
	}' "$1" "$2"
}
want_cfa "$C.syms" "$K/a.dis" | sort >"$WORK/cfa.want"
: >"$WORK/cfa.got"
for so in "$T"/jitted/jitted-*.so; do
	idx=$(nm "$so" 2>/dev/null | gawk 'match($0, /local_func_([0-9]+)/, m) { print m[1]; exit }')
	name=$(gawk -v i="$idx" '$1 == i { print $4 }' "$C.syms")
	[ -n "$name" ] && got_cfa "$so" "$C.syms" "$K/a.dis" 0x80 "$name" >>"$WORK/cfa.got"
done
sort -o "$WORK/cfa.got" "$WORK/cfa.got"
same_counts "runtime library: every jitted ELF perf wrote carries its function's A64 CFI, by objdump" \
	"$WORK/cfa.got" "$WORK/cfa.want"
check_eq "runtime library: one jitted ELF per function" "$(ls "$T"/jitted/jitted-*.so | wc -l)" 8
"$AOTPERF" report -q -i "$T/jitdwarf.data" --cwasm "$C" --children --top 0 \
	--folded "$WORK/jd.aot.folded" >/dev/null
check_eq "jitdwarf: aotperf report: exit status" "$?" 0
wasm_frames "$WORK/jd.aot.folded" >"$WORK/jd.aot.wasm"
tree "$WORK/jd.aot.wasm" >"$WORK/jd.tree" 2>/dev/null
check_eq "jitdwarf: aotperf's stacks: every edge one of the call tree's" \
	"$(awk '$1 == "BAD" { print $2 }' "$WORK/jd.tree")" 0
if [ "$(cat "$T/jitdwarf.libunwind")" -gt 0 ]; then
	echo "skip: jitdwarf chains: the VM's perf unwinds with libunwind, which cannot read jitted" \
		"ELFs' CFI (docs/unwinding.md): aotperf inject's images instead (above)"
else
	gawk -f "$FOLD" "$T/jitdwarf.script" >"$WORK/jd.perf.folded"
	wasm_frames "$WORK/jd.perf.folded" >"$WORK/jd.perf.wasm"
	sed 's/:ca_[a-z]*//g' "$WORK/jd.aot.wasm" >"$WORK/jd.aot.local"
	same_counts "jitdwarf: the VM's perf with the runtime library's CFI unwinds as aotperf" \
		"$WORK/jd.aot.local" "$WORK/jd.perf.wasm"
fi

# ---- consistency ----
# cons NAME DATA CORE IPS right|wrong|ipsonly [report options]: the core's
# figures == consistency_ref.awk's over the VM's perf script
cons() {
	local name=$1 data=$2 core=$3 ips=$4 want=$5 o=$WORK/cons.$1 base
	shift 5
	"$AOTPERF" report -i "$T/$data.data" --cwasm "$K/$core.cwasm" --top 0 --json "$o.json" "$@" \
		>"$o.txt" 2>"$o.err"
	base=$(sed -n 's/.* mapped at \(0x[0-9a-f]*\) len 4096$/\1/p' "$T/$data.log")
	gawk -v base="$base" -v size=4096 -v a64=1 -f "$E2E/consistency_ref.awk" "$K/$core.lst" \
		"$T/$ips.ips" >"$o.ref"
	local r=() c=()
	read -r -a r < <(gawk '{ v[$1] = $2 } END { print v["IPS"], v["ON_START"], v["IN_TRAP"],
		v["PAST_TEXT"], v["RETS"], v["AFTER_CALL"] }' "$o.ref")
	read -r -a c < <(jq -r '.consistency | [.checked, .consistent, .in_trap, .in_padding,
		.returns, .bad_return, .ok] | map(tostring) | join(" ")' "$o.json")
	echo "   $name: aotperf ${c[1]} of ${c[0]} ($(jq .consistency.percent "$o.json")%);" \
		"independent: ${r[1]} of ${r[0]} ips on instruction starts (${r[2]} in traps)," \
		"${r[5]} of ${r[4]} returns after a call"
	check_eq "$name: checked = perf script's ips in the mapping + return addresses" \
		"${c[0]}" "$((r[0] + r[4]))"
	check_eq "$name: in trap blocks = ips on the source's trap instructions" "${c[2]}" "${r[2]}"
	check_eq "$name: in padding = ips past the text" "${c[3]}" "${r[3]}"
	check_eq "$name: returns after a call = the bl/blr before them" "$((c[4] - c[5]))" "${r[5]}"
	case $want in
	right)
		check_eq "$name: every address consistent" "${c[1]} ${c[6]}" "${c[0]} true" ;;
	wrong)
		check_eq "$name: not consistent" "${c[6]}" false
		check "$name: the warning names the core" grep -q "warning: .*$core.cwasm: only" "$o.err" ;;
	ipsonly)
		check_eq "$name: every ip on a word: consistent, independently too" \
			"${c[6]} ${r[1]}" "true ${r[0]}"
		check "$name: the text says ips alone were checked" \
			grep -q "ips alone on aarch64: -g adds return addresses" "$o.txt" ;;
	esac
}
cons "right, plain" plain a plain right
cons "right, -g" fp a fp right
cons "right, dwarf" dwarf a dwarf right
cons "shifted, plain" plain c plain wrong
cons "shifted, -g" fp c fp wrong
cons "shifted, dwarf" dwarf c dwarf wrong
cons "realigned, plain" plain b plain ipsonly
cons "realigned, -g" fp b fp wrong
check "realigned -g: the return addresses tell it (bad returns)" \
	test "$(jq .consistency.bad_return "$WORK/cons.realigned, -g.json")" -gt 100

# ---- the aarch64 static binary (run in the VM) == the x86_64 one here ----
# Live, the VM ran this tree's aarch64 binary. On the committed fixtures its
# output is of the tree that made them, so this tree's aarch64 binary runs
# here under qemu-aarch64-static instead, on the same recordings.
X86=$SRC/build/aotperf-static
A64=$SRC/build-aarch64/aotperf-static
A64Q=$(command -v qemu-aarch64-static || true)
if [ "${2:-}" != --live ] && { [ ! -x "$A64" ] || [ -z "$A64Q" ]; }; then
	echo "skip: static: the committed fixtures need this tree's $A64 and qemu-aarch64-static (make static ARCH=aarch64)"
elif [ ! -x "$X86" ]; then
	bad "static: $X86 missing (make check builds it: dist/static.mk)"
else
	R=$WORK/chroot
	mkdir -p "$R"
	cp "$X86" "$R/aotperf"
	cp "$T/plain.data" "$T/fp.data" "$T/dwarf.data" "$C" "$R/"
	chroot_cmd=(chroot)
	[ "$(id -u)" = 0 ] || chroot_cmd=(unshare -r chroot)
	A=$T/static	# the aarch64 side's outputs: the VM's, or qemu's here
	if [ "${2:-}" != --live ]; then
		A=$WORK/a64
		mkdir -p "$A"
		cp "$A64" "$R/aotperf-aarch64" && cp "$A64Q" "$R/qemu-aarch64-static"
	fi
	sr() { # sr NAME ARGS...: as vm-job.sh's
		local n=$1
		shift
		if [ "$A" = "$WORK/a64" ]; then
			"${chroot_cmd[@]}" "$R" /qemu-aarch64-static /aotperf-aarch64 report -q "$@" \
				--json /out.json >"$A/$n.txt" 2>"$A/$n.err"
			cp "$R/out.json" "$A/$n.json"
		fi
		"${chroot_cmd[@]}" "$R" /aotperf report -q "$@" --json /out.json >"$WORK/static.$n.txt" \
			2>"$WORK/static.$n.err"
		check_eq "static $n: x86_64 in the chroot: exit status" "$?" 0
		check_eq "static $n: aarch64 ($( [ "$A" = "$T/static" ] && echo in the VM || echo under qemu)): no error" \
			"$(cat "$A/$n.err")" ""
		check "static $n: the same report text" diff -u "$A/$n.txt" "$WORK/static.$n.txt"
		check "static $n: the same JSON" diff -u <(jq -S . "$A/$n.json") <(jq -S . "$R/out.json")
	}
	sr top -i plain.data --cwasm calltree_a64.cwasm --top 0
	sr hot -i plain.data --cwasm calltree_a64.cwasm --hot 3
	sr fp -i fp.data --cwasm calltree_a64.cwasm --children --top 0
	sr dwarf -i dwarf.data --cwasm calltree_a64.cwasm --children --top 0
fi
finish
