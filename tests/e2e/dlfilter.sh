#!/usr/bin/env bash
# The `perf script --dlfilter` plugin against `aotperf report` on the same
# recordings: per-function counts, the printed tables, func=N keeping only
# that function's samples, a two-core manifest (apart and kernel-merged),
# and errors that stop perf.
. "$(dirname "$0")/lib/common.sh"

DLF=$B/aotperf-dlfilter.so
S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json

if ! perf script -h 2>&1 | grep -q -- --dlfilter; then
	echo "SKIP: this perf ($(perf version 2>&1)) has no --dlfilter support"
	finish
	exit
fi
if [ ! -f "$DLF" ]; then
	bad "$DLF was not built (needs <perf/perf_dlfilter.h>: Debian linux-perf, Fedora perf-devel)"
	finish
	exit
fi

# dlf PERFDATA OUTPREFIX dlargs...: run the filter, summary to OUTPREFIX.txt
dlf() {
	local data=$1 out=$2; shift 2
	local a=()
	for x in "$@"; do a+=(--dlarg "$x"); done
	perf script -i "$data" --dlfilter "$DLF" "${a[@]}" --dlarg "out=$out.txt" \
		--dlarg "json=$out.json" >"$out.script" 2>"$out.err"
}

# per-(core, function) counts from either tool's JSON, one or several cores
counts() {
	jq -r '"TOTAL \(.total_samples)",
	       if .cores then (.cores | to_entries[] | .key as $c | .value.top_functions[] |
	                       "FUNC \($c) \(.local_func) \(.samples)")
	       else (.top_functions[] | "FUNC 0 \(.local_func) \(.samples)") end' "$1" | sort
}
# the function rows of a printed table
rows() { grep -E '^ +[0-9]+  local_func_[0-9]+ ' "$1"; }

# compare NAME PERFDATA (--cwasm F | --manifest M): counts and tables
compare() {
	local name=$1 data=$2 opt=$3 file=$4
	"$AOTPERF" report -q -i "$data" "$opt" "$file" --top 100000 \
		--json "$WORK/$name.rep.json" >"$WORK/$name.rep.txt" 2>"$WORK/$name.rep.err"
	check_eq "$name: aotperf report exit status" "$?" 0
	dlf "$data" "$WORK/$name.dlf" "$file" top=0
	check_eq "$name: perf script --dlfilter exit status" "$?" 0
	counts "$WORK/$name.rep.json" >"$WORK/$name.rep.counts"
	counts "$WORK/$name.dlf.json" >"$WORK/$name.dlf.counts"
	if diff -u "$WORK/$name.rep.counts" "$WORK/$name.dlf.counts" >"$WORK/$name.diff"; then
		ok "$name: per-function counts equal aotperf report's ($(grep -c FUNC "$WORK/$name.rep.counts") functions, $(grep TOTAL "$WORK/$name.rep.counts"))"
	else
		bad "$name: counts differ from aotperf report"; head -20 "$WORK/$name.diff"
	fi
	rows "$WORK/$name.rep.txt" >"$WORK/$name.rep.rows"
	rows "$WORK/$name.dlf.txt" >"$WORK/$name.dlf.rows"
	check "$name: the printed function table equals aotperf report's" \
		cmp -s "$WORK/$name.rep.rows" "$WORK/$name.dlf.rows"
	check_eq "$name: filter keeps every sample without func=" \
		"$(wc -l <"$WORK/$name.dlf.script")" "$(jq .total_samples "$WORK/$name.rep.json")"
}

# ---- the sample core ----
record "$WORK/plain.data" -- --ms 1500 "$S"
check_eq "sample: loader ran" "$?" 0
compare sample "$WORK/plain.data" --cwasm "$S"

# The class mix of the hottest function: the table report --func prints.
hot=$(jq -r '.top_functions[0].local_func' "$WORK/sample.rep.json")
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --func "$hot" >"$WORK/func.rep.txt"
# (report's hot loops and their model, after the table, are report's alone)
sed -n '/^function local_func_/,$p' "$WORK/func.rep.txt" | sed '/^  hot loops/,$d' | sed '$ { /^$/d }' \
	>"$WORK/func.rep.cls"
sed -n '/^function local_func_/,$p' "$WORK/sample.dlf.txt" >"$WORK/func.dlf.cls"
check "sample: class mix of the hottest function (local_func_$hot) equals report --func" \
	test -s "$WORK/func.rep.cls" -a -z "$(diff "$WORK/func.rep.cls" "$WORK/func.dlf.cls")"

# func=N: only N's samples reach perf script's output, all inside N.
base=$(jq -r .text_base_hex "$WORK/sample.rep.json")
for f in "$hot" $(jq -r '.top_functions[1:3][].local_func' "$WORK/sample.rep.json"); do
	want=$(jq ".top_functions[] | select(.local_func == $f) | .samples" "$WORK/sample.rep.json")
	perf script -i "$WORK/plain.data" -F ip --dlfilter "$DLF" --dlarg "$S" \
		--dlarg "func=$f" --dlarg quiet --dlarg out=/dev/null >"$WORK/f$f.ips" 2>"$WORK/f$f.err"
	check_eq "func=$f: exit status" "$?" 0
	check_eq "func=$f: perf script prints aotperf's count of lines" "$(wc -l <"$WORK/f$f.ips")" "$want"
	outside=$(gawk -v f="$f" -v base="$base" '
		FNR == NR { if ($1 == f) { lo = strtonum(base) + strtonum($2); hi = lo + $3 }; next }
		{ ip = strtonum("0x" $1); if (ip < lo || ip >= hi) n++ }
		END { print n + 0 }' "$S.syms" "$WORK/f$f.ips")
	check_eq "func=$f: every printed ip lies in local_func_$f (from .syms, base $base)" "$outside" 0
	check "func=$f: quiet: no notes from the filter" test -z "$(grep aotperf-dlfilter "$WORK/f$f.err")"
done

# func= by wasm name, and the JSON's kept count.
name=$(jq -r ".top_functions[] | select(.local_func == $hot) | .name" "$WORK/sample.rep.json")
dlf "$WORK/plain.data" "$WORK/byname" "$S" "func=$name"
check_eq "func=$name (a wasm name): kept samples" "$(jq .kept_samples "$WORK/byname.json")" \
	"$(jq ".top_functions[] | select(.local_func == $hot) | .samples" "$WORK/sample.rep.json")"

# ---- two cores of equal size, from a manifest ----
record "$WORK/comp.data" -- --ms 1000 --manifest "$M"
check_eq "manifest: loader ran" "$?" 0
compare manifest "$WORK/comp.data" --manifest "$M"
for c in 0 1; do
	s=$(jq ".cores[$c].attributed_samples" "$WORK/manifest.dlf.json")
	check "manifest: core $c has samples ($s)" test "$s" -gt 50
done
check "manifest: the region-order rule is announced" grep -q 'regions assigned in order of first sample' \
	"$WORK/manifest.dlf.err"
check_eq "manifest: each note is one line of at most 160 columns" \
	"$(grep aotperf-dlfilter "$WORK/manifest.dlf.err" | awk 'length > 160' | wc -l)" 0

# func=mod1:N keeps only that core's function.
f=$(jq -r '.cores[1].top_functions[0].local_func' "$WORK/manifest.rep.json")
want=$(jq '.cores[1].top_functions[0].samples' "$WORK/manifest.rep.json")
base1=$(jq -r '.cores[1].text_base_hex' "$WORK/manifest.rep.json")
perf script -i "$WORK/comp.data" -F ip --dlfilter "$DLF" --dlarg "$M" --dlarg "func=mod1:$f" \
	--dlarg quiet --dlarg out=/dev/null >"$WORK/m1.ips" 2>/dev/null
check_eq "func=mod1:$f: perf script prints aotperf's count of lines" "$(wc -l <"$WORK/m1.ips")" "$want"
outside=$(gawk -v f="$f" -v base="$base1" '
	FNR == NR { if ($1 == f) { lo = strtonum(base) + strtonum($2); hi = lo + $3 }; next }
	{ ip = strtonum("0x" $1); if (ip < lo || ip >= hi) n++ }
	END { print n + 0 }' "$FIX/comp.1.cwasm.syms" "$WORK/m1.ips")
check_eq "func=mod1:$f: every printed ip lies in mod1's local_func_$f" "$outside" 0

# base= pins cores as aotperf's --base does; here swapped on purpose.
b0=$(jq -r '.cores[0].text_base_hex' "$WORK/manifest.rep.json")
b1=$(jq -r '.cores[1].text_base_hex' "$WORK/manifest.rep.json")
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$M" --base "${b1#0x}" --base "${b0#0x}" \
	--top 100000 --json "$WORK/pin.rep.json" >/dev/null
dlf "$WORK/comp.data" "$WORK/pin.dlf" "$M" "base=$b1" "base=$b0" top=0
counts "$WORK/pin.rep.json" >"$WORK/pin.rep.counts"
counts "$WORK/pin.dlf.json" >"$WORK/pin.dlf.counts"
check "base= (swapped) gives aotperf report --base's counts" \
	cmp -s "$WORK/pin.rep.counts" "$WORK/pin.dlf.counts"
check_eq "base= is reported as the override" "$(jq -r '.cores[0].mapping.override' "$WORK/pin.dlf.json")" "$b1"

# event= selects samples: all of them are cpu-clock here.
dlf "$WORK/comp.data" "$WORK/ev" "$M" event=cpu-clock
check_eq "event=cpu-clock counts every sample" "$(jq .total_samples "$WORK/ev.json")" \
	"$(jq .total_samples "$WORK/manifest.rep.json")"

# The kernel merges touching r-x regions: one map holds both cores.
record "$WORK/adj.data" -- --ms 1000 --adjacent --manifest "$M"
check_eq "adjacent: loader ran" "$?" 0
compare adjacent "$WORK/adj.data" --manifest "$M"
# (Only when the mappings did touch: ASan's own mappings can keep them apart.)
len2=$(printf '%x' $((2 * $(jq '.cores[0].mapping.expected_size' "$WORK/adjacent.rep.json"))))
if perf script -i "$WORK/adj.data" --show-mmap-events 2>/dev/null |
	grep -q "PERF_RECORD_MMAP2.*(0x$len2) .*//anon"; then
	check "adjacent: the merged map was cut in two" grep -q 'cut out of merged' \
		"$WORK/adjacent.dlf.err"
else
	echo "note: adjacent: the kernel did not merge the two regions in this run"
fi

# ---- errors stop perf, naming the culprit ----
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$WORK/none.cwasm" \
	>/dev/null 2>"$WORK/e1.err"
check "a missing .cwasm makes perf script fail" test "$?" -ne 0
check "a missing .cwasm is named" grep -q "none.cwasm" "$WORK/e1.err"
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$S" --dlarg func=99999999 \
	>/dev/null 2>"$WORK/e2.err"
check "func= of no function makes perf script fail" test "$?" -ne 0
check "func= of no function says so" grep -q "func=99999999: no such function" "$WORK/e2.err"
perf script -i "$WORK/plain.data" --dlfilter "$DLF" >/dev/null 2>"$WORK/e3.err"
check "no core given makes perf script fail" test "$?" -ne 0
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$S" --dlarg "out=$WORK/no/such/dir" \
	>/dev/null 2>"$WORK/e4.err"
check "an unwritable out= fails before the run" test "$?" -ne 0

# help: the whole text, past 512 bytes (a message buffer cut it once).
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg help >/dev/null 2>"$WORK/help.err"
check "help stops perf script" test "$?" -ne 0
check "help: every key is listed, the last one too" grep -q -- '--dlarg help  ' "$WORK/help.err"
check "help: longer than 512 bytes, not cut" test "$(grep -c -- '--dlarg' "$WORK/help.err")" -ge 11
check_eq "help: fits 80 columns" "$(awk 'length > 80' "$WORK/help.err" | wc -l)" 0
# A misspelt key is a typo, not a file name.
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$S" --dlarg fucn=1 \
	>/dev/null 2>"$WORK/typo.err"
check "fucn=1 makes perf script fail" test "$?" -ne 0
check "fucn=1 is named as an unknown key" grep -q "'fucn=': no such key" "$WORK/typo.err"
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$S" --dlarg qiuet \
	>/dev/null 2>"$WORK/typo2.err"
check "qiuet: no such argument" grep -q "'qiuet': no such argument" "$WORK/typo2.err"
perf script -i "$WORK/plain.data" --dlfilter "$DLF" --dlarg "$S" --dlarg top=x \
	>/dev/null 2>"$WORK/typo3.err"
check "top=x: not a number" grep -q "top=x: not a number" "$WORK/typo3.err"

# Installed where perf looks: listed by --list-dlfilters, found by its bare
# name from any folder (perf searches ./, then $(perf --exec-path)/dlfilters;
# PERF_EXEC_PATH moves the latter into the staging root).
ROOT=$(cd "$E2E/../.." && pwd)
SANFLAG=
[ "$(basename "$B")" = build-san ] && SANFLAG=SAN=1
execdir=$(perf --exec-path)
# make install writes only under PREFIX: perf's folder (here outside it) is left alone
sys_before=$(stat -c '%Y %s' "$execdir/dlfilters/aotperf-dlfilter.so" 2>/dev/null || echo none)
make -s -C "$ROOT" $SANFLAG install-dlfilter PREFIX="$WORK/prefix" >"$WORK/install0.log" 2>&1
check_eq "make install-dlfilter PREFIX=DIR" "$?" 0
check "PREFIX=DIR: the plugin under DIR/lib/aotperf" test -f "$WORK/prefix/lib/aotperf/aotperf-dlfilter.so"
check_eq "PREFIX=DIR: perf's own folder untouched" \
	"$(stat -c '%Y %s' "$execdir/dlfilters/aotperf-dlfilter.so" 2>/dev/null || echo none)" "$sys_before"
make -s -C "$ROOT" $SANFLAG install-dlfilter DESTDIR="$WORK/root" \
	PERF_DLFILTER_DIR="$execdir/dlfilters" >"$WORK/install.log" 2>&1
check_eq "make install-dlfilter PERF_DLFILTER_DIR=perf's folder, into a staging root" "$?" 0
check "installed into perf's own dlfilters folder ($execdir/dlfilters)" \
	test -f "$WORK/root$execdir/dlfilters/aotperf-dlfilter.so"
PERF_EXEC_PATH=$WORK/root$execdir perf script --list-dlfilters >"$WORK/list.txt" 2>&1
check "perf script --list-dlfilters lists it" grep -q '^  aotperf-dlfilter.so  .*wasm functions' \
	"$WORK/list.txt"
check_eq "its --list-dlfilters line fits 80 columns" \
	"$(grep aotperf-dlfilter "$WORK/list.txt" | awk 'length > 80' | wc -l)" 0
(cd "$WORK/root" && PERF_EXEC_PATH=$WORK/root$execdir perf script -i "$WORK/plain.data" \
	--dlfilter aotperf-dlfilter.so --dlarg "$S" --dlarg "json=$WORK/bare.json" >/dev/null 2>&1)
check_eq "--dlfilter aotperf-dlfilter.so (bare) runs" "$?" 0
check_eq "--dlfilter aotperf-dlfilter.so (bare): the same counts" \
	"$(jq .attributed_samples "$WORK/bare.json")" "$(jq .attributed_samples "$WORK/sample.rep.json")"

# On an injected recording the samples sit in perf inject's files: said so.
"$AOTPERF" inject -q -i "$WORK/plain.data" --cwasm "$S" -o "$WORK/inj.data" >/dev/null
perf script -i "$WORK/inj.data" --dlfilter "$DLF" --dlarg "$S" >/dev/null 2>"$WORK/inj.err"
check "injected recording: use the original perf.data" \
	grep -q 'samples in files perf inject --jit or aotperf inject wrote: use the original' \
	"$WORK/inj.err"

# Only the dlfilter entry points leave the shared object.
exported=$(nm -D --defined-only "$DLF" | awk '{print $3}' | sort | tr '\n' ' ')
check_eq "exports only the dlfilter API" "$exported" \
	"filter_description filter_event perf_dlfilter_fns start stop "

finish
