#!/usr/bin/env bash
# A two-core component of equal page-rounded text size: aotperf report
# --manifest against the loader's own account of where it mapped each core,
# with the cores apart and with the kernel merging them into one region.
. "$(dirname "$0")/lib/common.sh"

M=$FIX/comp.cwasm.json
printf '0 %s\n1 %s\n' "$FIX/comp.0.cwasm.syms" "$FIX/comp.1.cwasm.syms" >"$WORK/cores"

run_case() { # run_case NAME loader-args...
	local name=$1; shift
	record "$WORK/$name.data" -- --ms 1500 "$@" --manifest "$M"
	check_eq "$name: loader ran" "$?" 0
	# the loader maps cores in manifest order: core index = line order per pid
	gawk '/mapped at/ { pid = $3; print pid, $8, n[pid]++ }' "$WORK/$name.data.log" >"$WORK/$name.ranges"
	perf script -i "$WORK/$name.data" -G -F pid,tid,time,ip,event 2>/dev/null |
		gawk -f "$E2E/ref_loader.awk" "$WORK/cores" "$WORK/$name.ranges" - | sort >"$WORK/$name.ref"
	"$AOTPERF" report -i "$WORK/$name.data" --manifest "$M" --top 100000 \
		--json "$WORK/$name.json" >"$WORK/$name.txt" 2>"$WORK/$name.err"
	check_eq "$name: aotperf report exit status" "$?" 0
	jq -r '"TOTAL \(.total_samples)",
	       (.cores | to_entries[] | .key as $c | .value.top_functions[] |
	        "FUNC \($c) \(.local_func) \(.samples)")' "$WORK/$name.json" | sort >"$WORK/$name.got"
	if diff -u "$WORK/$name.ref" "$WORK/$name.got" >"$WORK/$name.diff"; then
		ok "$name: per-core, per-function counts equal the loader-based reference ($(grep -c FUNC "$WORK/$name.ref") functions)"
	else
		bad "$name: counts differ"; head -20 "$WORK/$name.diff"
	fi
	"$AOTPERF" report -q --two-pass -i "$WORK/$name.data" --manifest "$M" --top 100000 \
		--json "$WORK/$name.2p.json" >/dev/null 2>&1
	check "$name: one pass and two passes give the same JSON" \
		diff -q <(jq -S 'del(.warnings, .passes, .read_ahead, .read_ahead_bytes)' "$WORK/$name.json") \
		<(jq -S 'del(.warnings, .passes, .read_ahead, .read_ahead_bytes)' "$WORK/$name.2p.json")
	for c in 0 1; do
		local s
		s=$(jq ".cores[$c].attributed_samples" "$WORK/$name.json")
		check "$name: core $c has samples ($s)" test "$s" -gt 50
	done
	check_eq "$name: equal-size cores are not authoritative" \
		"$(jq '[.cores[].mapping.authoritative] | any' "$WORK/$name.json")" false
	check "$name: the mapping-order rule is announced" grep -q \
		'2 cores of this size, assigned in mapping order; --base HEX picks one' "$WORK/$name.err"
	check_eq "$name: one warning line per core" "$(wc -l <"$WORK/$name.err")" 2
}

run_case apart
run_case adjacent --adjacent
# When the loader got the two regions side by side, the kernel merged them:
# one //anon record spans both cores. (Sanitizer runtimes can shift the
# layout so that they are not adjacent; then there is nothing to merge.)
touching=$(gawk '/mapped at/ { a[n++] = strtonum($8); l = $10 }
	END { print (a[1] + l == a[0] || a[0] + l == a[1]) ? 1 : 0 }' "$WORK/adjacent.data.log")
# each core's page-rounded length, as the loader printed it
len=$(gawk '/mapped at/ { print $10; exit }' "$WORK/adjacent.data.log")
if [ "$touching" = 1 ]; then
	merged=$(perf script -i "$WORK/adjacent.data" --show-mmap-events 2>/dev/null |
		grep -c "PERF_RECORD_MMAP2.*(0x$(printf '%x' $((len * 2))))")
	check "adjacent: perf recorded a merged mapping of both cores ($merged)" test "$merged" -ge 1
else
	echo "note: the loader's two regions were not adjacent in this build; merge not exercised"
fi

# --require-size-match refuses to guess between equal-size cores.
"$AOTPERF" report -q -i "$WORK/apart.data" --manifest "$M" --require-size-match >/dev/null 2>&1
check_eq "--require-size-match with two equal-size cores exits 1" "$?" 1

# A manifest whose hash does not match: exit 2, one line naming the file.
cp "$FIX"/comp.0.cwasm "$FIX"/comp.1.cwasm "$WORK/"
jq '.modules[0].sha256 |= ("0" * 64)' "$M" >"$WORK/comp.cwasm.json"
"$AOTPERF" report -i "$WORK/apart.data" --manifest "$WORK/comp.cwasm.json" >"$WORK/bad.out" 2>"$WORK/bad.err"
rc=$?
check_eq "tampered manifest exits 2" "$rc" 2
check "tampered manifest: one line naming the file" test "$(wc -l <"$WORK/bad.err")" -eq 1 -a -s "$WORK/bad.err"
check "tampered manifest: message names sha256" grep -q "sha256" "$WORK/bad.err"
check "tampered manifest: nothing on stdout" test ! -s "$WORK/bad.out"
finish
