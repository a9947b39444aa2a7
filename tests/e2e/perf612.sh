#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# perf 6.12: recordings it made (tests/fixtures/perf612, remade by its
# remake.sh; 136-byte event attributes that Debian's perf 6.1 cannot read)
# read by aotperf exactly, against perf 6.12's own output committed beside
# them (so no perf 6.12 is needed here):
#   attribution   per-function counts == ref_attr.awk over perf 6.12's
#                 `perf script --show-mmap-events` and the core's symbols;
#                 == perf 6.12's `perf report` after aotperf jitdump + perf
#                 inject --jit (mono.jit.report)
#   call graphs   the wasm frames of every stack, and each function's
#                 inclusive samples, == perf 6.12's `perf script` of the
#                 inject --direct copy (dwarf: exactly; -g: with the
#                 "[caller unknown]" marker where objdump says the chain
#                 skips the caller)
#   inject        aotperf's copies keep the 136-byte attributes and read
#                 back: the annotate fallback on the copy of inject counts
#                 what perf 6.12 counted on its own jitted copy
# Then perf annotate that crashes or prints no bytes (perf 6.12.118; here a
# stub perf on PATH that segfaults, or that drops --asm-raw): aotperf
# annotate lists the function itself (exit 0, one line why, the table of
# stock perf annotate and of report --func), doctor says so, record's
# next commands all run. With perf 6.12 built (PERF612, else
# ~/.cache/aotperf/perf-6.12/bin/perf: scripts/build-perf612.sh) the same
# live, and the dlfilter under perf 6.12; else one "skip:" line each.
#
#   tests/e2e/perf612.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"

SRC=$(cd "$E2E/../.." && pwd)
FX=$SRC/tests/fixtures/perf612
FOLD=$E2E/folded_perf.awk
C=$FX/calltree.cwasm
SYMS=$FX/calltree.cwasm.syms
P612=${PERF612:-$HOME/.cache/aotperf/perf-6.12/bin/perf}
[ -x "$P612" ] && "$P612" version 2>/dev/null | grep -q '^perf version 6\.12' || P612=

# ---- the fixtures are of this core ----
asm_core "$SRC/tests/fixtures/calltree.S" "$WORK/calltree.cwasm"
check "fixtures: calltree.cwasm is what asm_core builds from calltree.S (sha256)" \
	cmp -s "$WORK/calltree.cwasm" "$C"
skips "$SYMS" "$WORK/calltree.dis" >"$WORK/skips"
for f in plain fp dwarf mono; do
	asz=$(od -An -tu8 -j16 -N8 "$FX/$f.data" | tr -d ' ')
	check_eq "fixtures: $f.data has perf 6.12's 136-byte attributes" "$asz" $((136 + 16))
done

# ---- attribution ----
"$AOTPERF" report -q -i "$FX/plain.data" --cwasm "$C" --top 0 --json "$WORK/plain.json" >/dev/null
check_eq "plain: aotperf report: exit status" "$?" 0
gawk -v textsize="$(syms_text_size "$SYMS")" -f "$E2E/ref_attr.awk" "$SYMS" "$FX/plain.script" |
	sort >"$WORK/plain.ref"
aotperf_counts "$WORK/plain.json" >"$WORK/plain.got"
same_counts "plain: total, core and per-function counts == perf 6.12's perf script, by address" \
	"$WORK/plain.got" "$WORK/plain.ref"

# mono.jit.report: perf 6.12's report of its own perf inject --jit copy
gawk '$3 == "[.]" && $4 ~ /^local_func_[0-9]+$/ { sub(/local_func_/, "", $4); print "FUNC", $4, $2 }' \
	"$FX/mono.jit.report" | sort >"$WORK/mono.ref"
"$AOTPERF" report -q -i "$FX/mono.data" --cwasm "$C" --top 0 --json "$WORK/mono.json" >/dev/null
check_eq "mono: aotperf report: exit status" "$?" 0
ours "$WORK/mono.json" >"$WORK/mono.got"
same_counts "mono: per-function counts == perf 6.12's perf report after perf inject --jit" \
	"$WORK/mono.got" "$WORK/mono.ref"

# ---- call graphs ----
# inclusive FOLDED: "name samples" of every wasm function, each stack once
inclusive() {
	gawk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); delete seen
		for (i = 1; i <= k; i++) if (f[i] ~ /local_func_/ && !(f[i] in seen)) { seen[f[i]] = 1; g[f[i]] += n }
	} END { for (x in g) print x, g[x] }' "$1" | sort
}
for g in dwarf fp; do
	sk=()
	[ "$g" = fp ] && sk=(-v skips="$WORK/skips")
	"$AOTPERF" report -q -i "$FX/$g.data" --cwasm "$C" --children --top 0 \
		--folded "$WORK/$g.aot.folded" --json "$WORK/$g.json" >/dev/null 2>"$WORK/$g.err"
	check_eq "$g: aotperf report --children --folded: exit status" "$?" 0
	gawk "${sk[@]}" -f "$FOLD" "$FX/$g.direct.script" >"$WORK/$g.perf.folded"
	wasm_frames "$WORK/$g.perf.folded" >"$WORK/$g.perf.wasm"
	wasm_frames "$WORK/$g.aot.folded" >"$WORK/$g.aot.wasm"
	same_counts "$g: the wasm frames of every stack == perf 6.12's perf script" \
		"$WORK/$g.aot.wasm" "$WORK/$g.perf.wasm"
	inclusive "$WORK/$g.perf.wasm" >"$WORK/$g.perf.incl"
	jq -r '.children[] | select(.kind == "wasm") | select(.children_samples > 0) |
	       "\(.name) \(.children_samples)"' "$WORK/$g.json" | sort >"$WORK/$g.aot.incl"
	same_counts "$g: report --children's inclusive samples == perf 6.12's call chains" \
		"$WORK/$g.aot.incl" "$WORK/$g.perf.incl"
done
check_eq "dwarf: mode" "$(jq -r .call_graph.mode "$WORK/dwarf.json")" dwarf
check_eq "fp: mode" "$(jq -r .call_graph.mode "$WORK/fp.json")" fp
unknown=$(jq .call_graph.caller_unknown "$WORK/fp.json")
check_eq "fp: caller unknown exactly at the prologue/epilogue offsets objdump shows" \
	"$(gawk -v skips="$WORK/skips" -f "$FOLD" "$FX/fp.direct.script" | gawk '$1 == "SKIPPED" { print $2 }')" \
	"$unknown"

# ---- inject: aotperf's copies of a 6.12 recording ----
"$AOTPERF" inject -q -i "$FX/mono.data" --cwasm "$C" -o "$WORK/inj.data" >/dev/null
check_eq "inject: exit status" "$?" 0
check_eq "inject: the copy keeps perf 6.12's 136-byte attributes" \
	"$(od -An -tu8 -j16 -N8 "$WORK/inj.data" | tr -d ' ')" $((136 + 16))
"$AOTPERF" jitdump -q -i "$FX/mono.data" --cwasm "$C" -o "$WORK/marked.data" >/dev/null
check_eq "jitdump: exit status" "$?" 0
# (perf 6.12's inject --jit read such a copy for mono.jit.report, above)
check_eq "jitdump: the marked copy keeps perf 6.12's 136-byte attributes" \
	"$(od -An -tu8 -j16 -N8 "$WORK/marked.data" | tr -d ' ')" $((136 + 16))

# ---- annotate when perf annotate crashes or prints no bytes ----
mkdir -p "$WORK/segv" "$WORK/nobytes"
REAL_PERF=$(command -v perf)
cat >"$WORK/segv/perf" <<EOF
#!/bin/sh
# perf 6.12.118's annotate: SIGSEGV (in map__objdump_2mem); its -h works
ann=0
for a; do case \$a in annotate) ann=1 ;; -h|--help) ann=0; break ;; esac; done
[ \$ann = 1 ] && kill -SEGV \$\$
exec "$REAL_PERF" "\$@"
EOF
cat >"$WORK/nobytes/perf" <<EOF
#!/bin/sh
# perf annotate disassembling with LLVM: --asm-raw prints no bytes
n=\$#
for a; do [ "\$a" = --asm-raw ] || set -- "\$@" "\$a"; done
shift \$n
exec "$REAL_PERF" "\$@"
EOF
chmod +x "$WORK/segv/perf" "$WORK/nobytes/perf"

# the class table's rows but the run column (annotate has no run total)
table() { gawk '/^  class /, /^  total / { print $1, $2, $3, $NF }' "$1"; }

# fallback_on JIT_DATA NAME REFERENCE STUB...: each function of REFERENCE
# ("FUNC n samples" lines) through aotperf annotate with $WORK/STUB/perf on PATH
fallback_on() {
	local jit=$1 name=$2 ref=$3 f n want stub
	shift 3
	grep FUNC "$ref" >"$WORK/$name.ref"
	for stub in "$@"; do
		: >"$WORK/$name.$stub.totals"
		: >"$WORK/$name.$stub.rc"
		for f in $(gawk '$1 == "FUNC" { print $2 }' "$ref"); do
			PATH=$WORK/$stub:$PATH "$AOTPERF" annotate -i "$jit" "local_func_$f" \
				>"$WORK/$name.$stub.$f" 2>"$WORK/$name.$stub.$f.err"
			echo "rc $? lines $(wc -l <"$WORK/$name.$stub.$f.err")" >>"$WORK/$name.$stub.rc"
			n=$(sed -n 's/^symbol .*, \([0-9]*\) samples)$/\1/p' "$WORK/$name.$stub.$f")
			echo "FUNC $f $n" >>"$WORK/$name.$stub.totals"
		done
		check "$name/$stub: aotperf annotate exits 0 with one line on stderr, every function" \
			bash -c "! grep -v '^rc 0 lines 1$' '$WORK/$name.$stub.rc'"
		case $stub in
		segv) want="perf annotate crashed (killed by signal 11)" ;;
		nobytes) want="perf annotate --asm-raw printed no instruction bytes" ;;
		*) want="perf annotate" ;;
		esac
		check "$name/$stub: the line says why: $want...; listing" grep -qF "$want" \
			"$WORK/$name.$stub.$f.err"
		sort -o "$WORK/$name.$stub.totals" "$WORK/$name.$stub.totals"
		same_counts "$name/$stub: each function's samples in aotperf's own listing == the reference" \
			"$WORK/$name.$stub.totals" "$WORK/$name.ref"
	done
}

# a live perf 6.1 recording: the listing is what stock perf annotate gives
L=$WORK/live
mkdir -p "$L"
record "$L/p.data" -- --ms 1000 --mix calltree "$C"
"$AOTPERF" inject -q -i "$L/p.data" --cwasm "$C" -o "$L/p.jit.data" >/dev/null
"$AOTPERF" report -q -i "$L/p.data" --cwasm "$C" --top 0 --json "$L/p.json" >/dev/null
ours "$L/p.json" >"$L/p.ref"
fallback_on "$L/p.jit.data" live "$L/p.ref" segv nobytes
same=0
for f in $(gawk '{ print $2 }' "$L/p.ref"); do
	"$AOTPERF" annotate -i "$L/p.jit.data" "local_func_$f" >"$L/real.$f" 2>/dev/null &&
		cmp -s "$L/real.$f" "$WORK/live.segv.$f" && cmp -s "$L/real.$f" "$WORK/live.nobytes.$f" &&
		same=$((same + 1))
done
check_eq "live: aotperf's own listing prints what it prints from stock perf annotate (functions)" \
	"$same" "$(wc -l <"$L/p.ref")"
# the jitted-*.so files of stock perf inject --jit (one ELF file per function)
"$AOTPERF" jitdump -q -i "$L/p.data" --cwasm "$C" -o "$L/marked.data" >/dev/null &&
	HOME=$L perf inject --jit -i "$L/marked.data" -o "$L/pj.data" >/dev/null 2>&1
check_eq "live: aotperf jitdump + perf inject --jit: exit status" "$?" 0
fallback_on "$L/pj.data" live-jitted "$L/p.ref" segv
hot=$(jq -r '.top_functions[0].local_func' "$L/p.json")
"$AOTPERF" report -q -i "$L/p.data" --cwasm "$C" --func "$hot" >"$L/func.txt"
check "live: the table == report --func's (local_func_$hot)" \
	cmp -s <(table "$L/func.txt") <(table "$WORK/live.segv.$hot")

# the 6.12 fixture through aotperf's own inject: perf 6.12's counts (the
# no-bytes stub wraps perf 6.1, which cannot read 6.12's recordings)
fallback_on "$WORK/inj.data" perf612 "$WORK/mono.ref" segv
PATH=$WORK/segv:$PATH "$AOTPERF" annotate -i "$WORK/inj.data" no_such_symbol >/dev/null 2>"$WORK/nosym.err"
check_eq "fallback: a symbol no file has: exit 2" "$?" 2
check "fallback: one line naming the file and the symbol" \
	bash -c "[ \$(wc -l <'$WORK/nosym.err') = 1 ] && grep -q \"inj.data: no file .* 'no_such_symbol'\" '$WORK/nosym.err'"

# ---- doctor and record with such a perf ----
for stub in segv nobytes; do
	TMPDIR=$WORK "$AOTPERF" doctor --json --perf "$WORK/$stub/perf" >"$WORK/doc.$stub.json" 2>/dev/null
	check_eq "doctor/$stub: annotate: warn" \
		"$(jq -r '.checks[] | select(.name == "annotate") | .status' "$WORK/doc.$stub.json")" warn
	want=$([ $stub = segv ] && echo "crashed (killed by signal 11)" || echo "printed no instruction bytes")
	check "doctor/$stub: says perf annotate $want, and what aotperf does" bash -c \
		"jq -r '.checks[] | select(.name == \"annotate\") | .detail, .fix' '$WORK/doc.$stub.json' |
		 grep -qF '$want' && jq -r '.checks[] | select(.name == \"annotate\") | .fix' \
		 '$WORK/doc.$stub.json' | grep -q 'aotperf annotate lists the function itself'"
	R=$WORK/rec.$stub
	mkdir -p "$R"
	(cd "$R" && PATH=$WORK/$stub:$PATH "$AOTPERF" record --cwasm "$C" -o "$R/r.data" -- \
		"$LOADER" --ms 500 --mix calltree "$C" >"$R/out" 2>"$R/err")
	check_eq "record/$stub: exit status" "$?" 0
	sed -n '/^next:/,$p' "$R/out" | tail -n +2 | sed 's/ *#.*//' >"$R/next"
	if [ $stub = segv ]; then
		check "record/segv: names no perf annotate" bash -c "! grep -qE '(^| )perf annotate' '$R/next'"
	else
		check "record/nobytes: names no perf annotate --asm-raw" bash -c "! grep -q -- '--asm-raw' '$R/next'"
	fi
	check "record/$stub: names aotperf annotate" grep -q '^  aotperf annotate ' "$R/next"
	fails=0
	while read -r line; do
		(cd "$R" && PATH=$WORK/$stub:$(dirname "$AOTPERF"):$PATH sh -c "$line" >/dev/null 2>&1) ||
			{ fails=$((fails + 1)); echo "    failed: $line"; }
	done <"$R/next"
	check_eq "record/$stub: every next command runs with this perf ($(wc -l <"$R/next"))" "$fails" 0
done

# ---- perf 6.12 itself, when built ----
if [ -z "$P612" ]; then
	echo "skip: live perf 6.12 and the dlfilter under it: no perf 6.12 (scripts/build-perf612.sh, or PERF612=)"
	finish
	exit
fi
V=$WORK/p612
mkdir -p "$V"
HOME=$V "$P612" record -q -N -e cpu-clock -k mono -F 2000 -o "$V/p.data" -- \
	"$LOADER" --ms 1000 --mix calltree "$C" >/dev/null 2>&1
check_eq "6.12 live: perf record: exit status" "$?" 0
HOME=$V "$P612" script -i "$V/p.data" --show-mmap-events -G -F pid,tid,time,ip,event 2>/dev/null |
	gawk -v textsize="$(syms_text_size "$SYMS")" -f "$E2E/ref_attr.awk" "$SYMS" - | sort >"$V/ref"
"$AOTPERF" report -q -i "$V/p.data" --cwasm "$C" --top 0 --json "$V/p.json" >/dev/null
aotperf_counts "$V/p.json" >"$V/got"
same_counts "6.12 live: counts == perf 6.12's perf script, by address" "$V/got" "$V/ref"
"$AOTPERF" inject -q -i "$V/p.data" --cwasm "$C" -o "$V/p.jit.data" >/dev/null
HOME=$V "$P612" report -i "$V/p.jit.data" --stdio --no-children --sort sym -n 2>/dev/null |
	gawk '$3 == "[.]" && $4 ~ /^local_func_[0-9]+$/ { sub(/local_func_/, "", $4); print "FUNC", $4, $2 }' |
	sort >"$V/inj.ref"
grep FUNC "$V/ref" >"$V/ref.funcs"
same_counts "6.12 live: perf 6.12 reads aotperf inject's copy: the same counts" \
	"$V/inj.ref" "$V/ref.funcs"
# perf 6.12's own annotate: no bytes here (and a crash on some functions)
mkdir -p "$WORK/real612"
ln -s "$P612" "$WORK/real612/perf"
fallback_on "$V/p.jit.data" 6.12-live "$V/ref.funcs" real612
echo "note: perf 6.12's own annotate: $(sed 's/;.*//' "$WORK"/6.12-live.real612.*.err | sort | uniq -c | tr -s ' \n' ' ')"
# an ordinary program (python3): perf 6.12.118 segfaults annotating some of
# its functions (here _PyEval_EvalFrameDefault, the interpreter loop); the
# fallback counts what perf 6.12's report counts
HOME=$V "$P612" record -q -N -e cpu-clock -F 999 -o "$V/py.data" -- python3 -c \
	'import json; [json.dumps({"a": [i] * 50}) for i in range(100000)]' >/dev/null 2>&1
HOME=$V "$P612" report -i "$V/py.data" --stdio --no-children --sort dso,sym -n 2>/dev/null |
	gawk '$3 ~ /python3/ && $4 == "[.]" && $5 ~ /^[A-Za-z_][A-Za-z0-9_]*$/ &&
	      (++n <= 3 || $5 == "_PyEval_EvalFrameDefault") { print "SYM", $5, $2 }' |
	sort >"$V/py.ref"
: >"$V/py.got"
for s in $(gawk '{ print $2 }' "$V/py.ref"); do
	PATH=$WORK/real612:$PATH "$AOTPERF" annotate -i "$V/py.data" "$s" >"$V/py.$s" 2>"$V/py.$s.err"
	echo "SYM $s $(sed -n 's/^symbol .*, \([0-9]*\) samples)$/\1/p' "$V/py.$s")" >>"$V/py.got"
	echo "note: python3 $s: $(sed 's/;.*//' "$V/py.$s.err")"
done
sort -o "$V/py.got" "$V/py.got"
same_counts "6.12 live: python3's hottest functions: annotate's samples == perf 6.12's report" \
	"$V/py.got" "$V/py.ref"
TMPDIR=$WORK "$AOTPERF" doctor --json --perf "$P612" >"$V/doc.json" 2>/dev/null
echo "note: doctor on perf 6.12: $(jq -r '.checks[] | select(.name == "annotate") | "\(.status): \(.detail)"' "$V/doc.json")"
DLF=$B/aotperf-dlfilter.so
if [ -f "$DLF" ]; then
	HOME=$V "$P612" script -i "$FX/plain.data" --dlfilter "$DLF" --dlarg "$C" --dlarg top=0 \
		--dlarg "json=$V/dlf.json" >/dev/null 2>"$V/dlf.err"
	check_eq "6.12 dlfilter: perf 6.12 script --dlfilter: exit status" "$?" 0
	jq -r '"TOTAL \(.total_samples)", "CORE \(.attributed_samples)",
	       (.top_functions[] | "FUNC \(.local_func) \(.samples)")' "$V/dlf.json" | sort >"$V/dlf.got"
	same_counts "6.12 dlfilter: counts on the plain fixture == perf 6.12's perf script" \
		"$V/dlf.got" "$WORK/plain.ref"
else
	echo "skip: the dlfilter under perf 6.12: $DLF not built"
fi
finish
