# Fixtures for `aotperf diff` / `aotperf report -i a -i b` tests (compare/,
# docs/compare.md): two builds of one wasm and recordings of the loader
# with a known change of its kernel mix. Source after common.sh:
#
#   . "$(dirname "$0")/lib/common.sh"
#   . "$(dirname "$0")/lib/diff_fixtures.sh"
#
# Every expected value comes from the fixture sources (.syms from nm, the
# --mix weights) or from perf script, never from aotperf.

# The kernels the loader runs (tests/fixtures/kernels.S), and the mixes of the
# standard before/after pair: zext_heavy's weight goes from 1 to 3, so its
# share of the kernels' run time goes from 1/4 to 3/6 and each other
# kernel's from 1/4 to 1/6.
DIFF_KERNELS="spill_heavy zext_heavy br_table_dispatch bounds_checked_mem"
DIFF_MIX_BEFORE=spill_heavy:1,zext_heavy:1,br_table_dispatch:1,bounds_checked_mem:1
DIFF_MIX_AFTER=spill_heavy:1,zext_heavy:3,br_table_dispatch:1,bounds_checked_mem:1
# A mix that leaves one kernel alone: spill_heavy (and helper_mix, which only
# it calls) keeps 2/8 = 1/4 of the kernels' time, zext_heavy goes from 1/4 to
# 4/8, br_table_dispatch and bounds_checked_mem from 1/4 to 1/8.
DIFF_MIX_KEEP=spill_heavy:2,zext_heavy:4,br_table_dispatch:1,bounds_checked_mem:1
DIFF_IMPORTS=3 # sample.cwasm's function imports (tests/fixtures/fixtures.mk)

# diff_shifted_cwasm OUT: sample.cwasm "recompiled": the same functions in
# the same order (so the same wasm indices and names), every function after
# cold_200 at another offset. Padding (int3) is inserted before cold_200
# (16 bytes), cold_900 (48) and cold_2000 (112): the functions before each
# point grow, all later ones move. Cold functions never reference code
# outside themselves and the kernels block stays whole, so the code still
# runs. Writes OUT and OUT.syms (mkfixture).
diff_shifted_cwasm() {
	diff__shifted_parts "$1.parts" && diff__mkfixture "$1"
}

# diff_renamed_cwasm OUT: diff_shifted_cwasm's build with cold_200 renamed
# warm_200 (same wasm index, another name) and the last function,
# cold_2999, removed (its wasm index exists only before).
diff_renamed_cwasm() {
	local tmp=$1.parts off
	diff__shifted_parts "$tmp" || return 1
	off=$(gawk '$3 == "cold_2999" { print strtonum("0x" $1) }' "$tmp/nm")
	[ -n "$off" ] || { echo "diff_renamed_cwasm: no cold_2999" >&2; return 1; }
	head -c "$off" "$tmp/text" >"$tmp/text.cut" && mv "$tmp/text.cut" "$tmp/text"
	gawk '$3 == "cold_2999" { next } $3 == "cold_200" { $3 = "warm_200" } { print }' \
		"$tmp/nm" >"$tmp/nm.new" && mv "$tmp/nm.new" "$tmp/nm"
	diff__mkfixture "$1"
}

# the shifted text and symbol list of sample.cwasm into DIR/text, DIR/nm
diff__shifted_parts() {
	local tmp=$1 text=$FIX/sample.text nm=$FIX/sample.nm
	local pads="cold_200:16 cold_900:48 cold_2000:112"
	local prev=0 off n p name
	[ -f "$text" ] && [ -f "$nm" ] || { echo "diff_shifted_cwasm: no $text/$nm" >&2; return 1; }
	mkdir -p "$tmp"
	: >"$tmp/text"
	for p in $pads; do
		name=${p%%:*} n=${p##*:}
		off=$(gawk -v s="$name" '$3 == s { print strtonum("0x" $1) }' "$nm")
		[ -n "$off" ] || { echo "diff_shifted_cwasm: no $name in $nm" >&2; return 1; }
		tail -c +$((prev + 1)) "$text" | head -c $((off - prev)) >>"$tmp/text"
		head -c "$n" /dev/zero | tr '\0' '\314' >>"$tmp/text"
		prev=$off
	done
	tail -c +$((prev + 1)) "$text" >>"$tmp/text"
	# the symbols at or after each point move by the padding so far
	gawk -v pads="$pads" '
		BEGIN {
			k = split(pads, pv, " ")
			for (i = 1; i <= k; i++) { split(pv[i], a, ":"); at[a[1]] = a[2] }
		}
		{
			if ($3 in at) shift += at[$3]
			printf "%016x %s %s\n", strtonum("0x" $1) + shift, $2, $3
		}' "$nm" >"$tmp/nm"
}

# OUT from OUT.parts/{text,nm}, with the flags tests/fixtures/fixtures.mk
# builds sample.cwasm with
diff__mkfixture() {
	local tmp=$1.parts
	"$BUILD_MKFIXTURE" --text "$tmp/text" --nm "$tmp/nm" --version 7 \
		--imports "$DIFF_IMPORTS" --target legacy -o "$1" >/dev/null && rm -rf "$tmp"
}
BUILD_MKFIXTURE=$B/tests/mkfixture

# diff_kernel_wasm SYMS KERNEL: the wasm function index of KERNEL (.syms: local
# index first; plus the imports)
diff_kernel_wasm() {
	gawk -v k="$2" -v imp="$DIFF_IMPORTS" '$4 == k { print $1 + imp }' "$1"
}

# diff_record OUT CWASM MIX [MS]: one capture of the loader running the mix
# (common.sh record: cpu-clock, -k mono, 2000 Hz)
diff_record() {
	record "$1" -- --ms "${4:-1500}" --mix "$3" "$2"
}

# diff_ref_shares DATA SYMS: "WASM_INDEX SAMPLES TOTAL" per function with
# samples, from perf script alone (common.sh reference), wasm index order
diff_ref_shares() {
	reference "$1" "$2" | gawk -v imp="$DIFF_IMPORTS" '
		$1 == "TOTAL" { total = $2 }
		$1 == "FUNC" { n[$2 + imp] = $3 }
		END { for (w in n) print w, n[w], total }' | sort -n
}

# diff_ref_times DATA SYMS: "WASM_INDEX SAMPLES PERIODS TOTAL TOTAL_PERIODS" per
# function with samples, from perf script -F ...,period,ip alone (ref_attr.awk):
# the periods summed are the CPU time in ns (cpu-clock), wasm index order
diff_ref_times() {
	local ts
	ts=$(syms_text_size "$2")
	perf script -i "$1" --show-mmap-events -G -F pid,tid,time,period,ip,event 2>/dev/null |
		gawk -v textsize="$ts" -f "$E2E/ref_attr.awk" "$2" - | gawk -v imp="$DIFF_IMPORTS" '
		$1 == "TOTAL" { total = $2 }
		$1 == "FUNC" { n[$2 + imp] = $3 }
		$1 == "PERIOD" && $2 == "TOTAL" { tp = $3 }
		$1 == "PERIOD" && $2 == "FUNC" { p[$3 + imp] = $4 }
		END { for (w in n) print w, n[w], p[w] + 0, total, tp + 0 }' | sort -n
}

# diff_ref_share DATA SYMS KERNEL: KERNEL's self share in percent (perf script)
diff_ref_share() {
	local w
	w=$(diff_kernel_wasm "$2" "$3")
	diff_ref_shares "$1" "$2" | gawk -v w="$w" '$1 == w { f = 1; printf "%.2f\n", 100 * $2 / $3 }
		END { if (!f) print "0.00" }'
}

# diff_fixture_pair DIR [N] [MS] [MIX]: the standard pair, N captures a side
# (default 1): DIR/after.cwasm (diff_shifted_cwasm), DIR/before.K.data of
# sample.cwasm with DIFF_MIX_BEFORE and DIR/after.K.data of after.cwasm with
# MIX (default DIFF_MIX_AFTER), K = 1..N, recorded alternately as users do.
diff_fixture_pair() {
	local dir=$1 n=${2:-1} ms=${3:-1500} mix=${4:-$DIFF_MIX_AFTER} k
	mkdir -p "$dir"
	diff_shifted_cwasm "$dir/after.cwasm" || return 1
	for k in $(seq 1 "$n"); do
		diff_record "$dir/before.$k.data" "$FIX/sample.cwasm" "$DIFF_MIX_BEFORE" "$ms" || return 1
		diff_record "$dir/after.$k.data" "$dir/after.cwasm" "$mix" "$ms" || return 1
	done
}
