#!/usr/bin/env bash
# aotperf diff judges time per run, and only recordings of the cores that
# ran (docs/compare.md "Time per run", "Whole recordings of the right
# cores"), on real recordings of the loader (tests/e2e/lib/diff_fixtures.sh):
#
#  * the same core run for T and for 2T (0.8 s, 1.6 s) (the after runs do the same work
#    twice as long: zext_heavy alone, so that the loader's calibration of
#    a mix, which moves shares from run to run, leaves the shares alone):
#    its time per run doubles while its share stays; --fail-if-slower 5
#    fails on time, --by share passes; the header says the after runs are
#    longer. A genuinely faster after run (zext_heavy given half the run)
#    passes. One recording a side (the Poisson test) and three (Welch);
#  * every time per run (mean, min, max, samples) and the run's against an
#    awk over perf script -F period,ip (diff_ref_times), never aotperf;
#  * another build's core on one side: the gate fails (exit 1, one line
#    naming the file and its figures) and passes with --force, in text and
#    JSON; --require-consistent without a gate;
#  * a cut-off recording on one side fails the gate, said in every format;
#  * text at 80 columns, the page in Chromium (tests/browser/diff.js).
. "$(dirname "$0")/lib/common.sh"
. "$(dirname "$0")/lib/diff_fixtures.sh"
ROOT=$(cd "$E2E/../.." && pwd)
S=$FIX/sample.cwasm
SY=$FIX/sample.cwasm.syms
D=$WORK/t
ONE=zext_heavy:1 FASTER=zext_heavy:1,spill_heavy:1
mkdir -p "$D"
for k in 1 2 3; do
	diff_record "$D/base.$k.data" "$S" "$ONE" 800 &&
		diff_record "$D/double.$k.data" "$S" "$ONE" 1600 &&
		diff_record "$D/faster.$k.data" "$S" "$FASTER" 800 ||
		{ bad "recording the runs"; finish; exit; }
done
base=("$D"/base.{1,2,3}.data) double=("$D"/double.{1,2,3}.data) faster=("$D"/faster.{1,2,3}.data)
zw=$(diff_kernel_wasm "$SY" zext_heavy)
fits_80() { # fits_80 DESC FILE
	local w
	w=$(gawk '{ n = length($0); if (n > m) m = n } END { print m + 0 }' "$2")
	check "$1 fits 80 columns (widest $w)" test "$w" -le 80
}

# ref_side DATA...: per function "WASM MEAN_NS MIN MAX SAMPLES" over the
# recordings, and "RUN MEAN_NS" (every sample), from perf script alone
ref_side() {
	local f
	for f in "$@"; do diff_ref_times "$f" "$SY" | sed "s|^|$f |"; done | gawk -v nc=$# '
		{ t[$1, $2] = $4; n[$2] += $3; w[$2] = 1; caps[$1] = 1; run[$1] = $6 }
		END {
			for (x in w) {
				s = 0; mn = -1; mx = 0
				for (c in caps) {
					v = ((c, x) in t) ? t[c, x] : 0; s += v
					if (mn < 0 || v < mn) mn = v
					if (v > mx) mx = v
				}
				printf "%d %.1f %d %d %d\n", x, s / nc, mn, mx, n[x]
			}
			s = 0; for (c in caps) s += run[c]
			printf "RUN %.1f\n", s / nc
		}' | sort
}
ours_side() { # ours_side JSON before|after: the same from the diff's JSON
	jq -r --arg s "$2" '(.functions[] | select(.self_time[$s].samples > 0) |
		"\(.wasm_func) \(.self_time[$s].mean) \(.self_time[$s].min) \(.self_time[$s].max) \(.self_time[$s].samples)"),
		"RUN \(.run_time[$s].mean)"' "$1" | sort
}
# same_times DESC OURS REF: the lists agree (means within 1 ns: the JSON rounds to ns)
same_times() {
	local got
	got=$(gawk 'NR == FNR { r[$1] = $0; next }
		{ if (!($1 in r)) { print "extra " $1; next }
		  split(r[$1], v, " ")
		  for (i = 2; i <= NF; i++) if ((v[i] - $i) > 1 || ($i - v[i]) > 1) { print $1 " field " i ": " $i " vs " v[i]; next }
		  seen[$1] = 1; n++ }
		END { for (k in r) if (!(k in seen)) print "missing " k; print n " ok" }' "$3" "$2")
	case "$got" in
	[0-9]*" ok") ok "$1 (${got% ok} rows)" ;;
	*) bad "$1: $(head -3 <<<"$got" | tr '\n' ';')" ;;
	esac
}
gate() { # gate JSON: "failed by verdict"
	jq -r '"\(.gate.failed) \(.gate.by) \(.gate.checks[0].verdict)"' "$1"
}

# ---- (a) the same work done for T and for 2T: slower on time, not by share ----
for n in 3 1; do
	b=("${base[@]:0:$n}") a=("${double[@]:0:$n}")
	bi=() ai=()
	for f in "${b[@]}"; do bi+=(-i "$f"); done
	for f in "${a[@]}"; do ai+=(-i "$f"); done
	"$AOTPERF" diff "${bi[@]}" --cwasm "$S" -- "${ai[@]}" --func zext_heavy --fail-if-slower 5 \
		--json "$WORK/t$n.json" --markdown "$WORK/t$n.md" >"$WORK/t$n.txt" 2>"$WORK/t$n.err"
	check_eq "$n a side, 2x the run: --fail-if-slower 5 fails on time (exit 1)" "$?" 1
	check "$n a side: one line, zext_heavy's time per run slower by more than 5%" \
		bash -c "[ \$(grep -c 'fail-if-slower' '$WORK/t$n.err') = 1 ] &&
			grep -q 'zext_heavy: time per run .* ms (+[0-9.]*%, p .*): slower by more than 5%' '$WORK/t$n.err'"
	check_eq "$n a side: the JSON's gate" "$(gate "$WORK/t$n.json")" "true time per run slower"
	check_eq "$n a side: the test" "$(jq -r --argjson w "$zw" '.functions[] | select(.wasm_func == $w) | .self_time.change.test' "$WORK/t$n.json")" \
		"$([ "$n" = 1 ] && echo poisson || echo welch)"
	ref_side "${b[@]}" >"$WORK/ref.b$n"
	ref_side "${a[@]}" >"$WORK/ref.a$n"
	ours_side "$WORK/t$n.json" before >"$WORK/ours.b$n"
	ours_side "$WORK/t$n.json" after >"$WORK/ours.a$n"
	same_times "$n a side: before, every function's time per run (mean, min, max) and samples = perf script's periods" \
		"$WORK/ours.b$n" "$WORK/ref.b$n"
	same_times "$n a side: after, the same" "$WORK/ours.a$n" "$WORK/ref.a$n"
	# the shares stay (within 10% of before: the loader's fixed start-up, larger
	# sanitized, weighs less in the longer runs), its time about doubles
	read -r sb sa rt <<<"$(jq -r --argjson w "$zw" '.functions[] | select(.wasm_func == $w) |
		"\(.self.before.mean) \(.self.after.mean) \(.self_time.after.mean / .self_time.before.mean)"' "$WORK/t$n.json")"
	check "$n a side: zext_heavy's share stays ($sb% -> $sa%), its time x$rt" \
		gawk -v a="$sb" -v b="$sa" -v r="$rt" 'BEGIN { exit !(b / a > 0.9 && b / a < 1.1 && r > 1.7 && r < 2.3) }'
	check "$n a side: the text says the after runs take more CPU time" \
		grep -q 'NOTE: the after runs take more CPU time than the before runs' "$WORK/t$n.txt"
	check_eq "$n a side: so does the JSON" "$(jq -r '.run_note | startswith("the after runs take more")' "$WORK/t$n.json")" true
	check "$n a side: and the Markdown" grep -q 'the after runs take more CPU time' "$WORK/t$n.md"
	# the text's zext_heavy row: awk's means in ms, then the shares
	want=$(gawk -v w="$zw" '$1 == w { printf "%.2f", $2 / 1e6 }' "$WORK/ref.b$n")
	check "$n a side: the text's zext_heavy row starts with perf script's $want ms" \
		bash -c "grep -q '^  zext_heavy  *$want ' '$WORK/t$n.txt'"
	fits_80 "$n a side: the text" "$WORK/t$n.txt"
	"$AOTPERF" diff -q "${bi[@]}" --cwasm "$S" -- "${ai[@]}" --func zext_heavy --fail-if-slower 5 \
		--by share --json "$WORK/s$n.json" >/dev/null 2>&1
	check_eq "$n a side, 2x the run: --by share passes (exit 0)" "$?" 0
	check "$n a side: --by share, the JSON's gate passed by share" \
		bash -c "jq -r '\"\\(.gate.failed) \\(.gate.by) \\(.gate.checks[0].slower)\"' '$WORK/s$n.json' | grep -qx 'false share of the run false'"
done

# ---- a genuinely faster after run passes ----
for n in 3 1; do
	bi=() ai=()
	for f in "${base[@]:0:$n}"; do bi+=(-i "$f"); done
	for f in "${faster[@]:0:$n}"; do ai+=(-i "$f"); done
	"$AOTPERF" diff -q "${bi[@]}" --cwasm "$S" -- "${ai[@]}" --func zext_heavy --fail-if-slower 5 \
		--json "$WORK/f$n.json" >"$WORK/f$n.txt" 2>&1
	check_eq "$n a side, zext_heavy faster: passes (exit 0)" "$?" 0
	check_eq "$n a side, faster: zext_heavy's time went down, not slower" \
		"$(jq -r --argjson w "$zw" '"\(.functions[] | select(.wasm_func == $w) | .self_time.change.delta < 0) \(.gate.checks[0].verdict)"' "$WORK/f$n.json")" \
		"true not slower"
done

# ---- (b) another build's core on one side ----
diff_shifted_cwasm "$D/other.cwasm"
# (the threshold is high: with the wrong core the judged function's samples
# are partly a neighbour's, and this is about the gate refusing to judge)
"$AOTPERF" diff "${base[@]}" --cwasm "$S" -- "${base[@]}" --cwasm "$D/other.cwasm" \
	--fail-if-slower 200 --json "$WORK/w.json" >"$WORK/w.txt" 2>"$WORK/w.err"
check_eq "another build's core after: the gate fails (exit 1)" "$?" 1
line=$(grep 'fail-if-slower' "$WORK/w.err")
check "one line naming the recording, the core and the figures" \
	bash -c "[ \$(grep -c 'fail-if-slower' '$WORK/w.err') = 1 ] &&
		grep -q 'base.1.data: .*other.cwasm: only [0-9]* of [0-9]* sampled addresses (' <<<'$line'"
check_eq "JSON: the gate blocked, the after side not consistent, its core's figures" \
	"$(jq -r '"\(.gate.failed) \(.gate.blocked) \(.after.consistent) \(.after.cores[0].consistency.ok) \(.before.consistent)"' "$WORK/w.json")" \
	"true true false false true"
# the figures are report's for that recording and core
"$AOTPERF" report -q -i "${base[0]}" --cwasm "$D/other.cwasm" --json "$WORK/wr.json" >/dev/null 2>&1
check_eq "the line's figures = report's for that recording and core" \
	"$(grep -o 'only [0-9]* of [0-9]*' <<<"$line")" \
	"$(jq -r '"only \(.consistency.consistent) of \(.consistency.checked)"' "$WORK/wr.json")"
check "text: the after side NOT consistent, the gate FAILED" \
	bash -c "grep -q '^  NOT consistent: .*base.1.data' '$WORK/w.txt' && grep -q 'FAILED$' '$WORK/w.txt'"
fits_80 "another build's core: the text" "$WORK/w.txt"
"$AOTPERF" diff -q "${base[@]}" --cwasm "$S" -- "${base[@]}" --cwasm "$D/other.cwasm" \
	--fail-if-slower 200 --force --json "$WORK/wf.json" >"$WORK/wf.txt" 2>&1
check_eq "--force: judged all the same (exit 0)" "$?" 0
check_eq "--force: JSON gate passed, the side still not consistent" \
	"$(jq -r '"\(.gate.failed) \(.gate.blocked) \(.after.consistent)"' "$WORK/wf.json")" "false false false"
check "--force: the text still says NOT consistent" grep -q '^  NOT consistent' "$WORK/wf.txt"
"$AOTPERF" diff -q "${base[@]}" --cwasm "$S" -- "${base[@]}" --cwasm "$D/other.cwasm" \
	--require-consistent >/dev/null 2>"$WORK/rc.err"
check_eq "--require-consistent without a gate: exit 1" "$?" 1
check "--require-consistent: one line" \
	bash -c "[ \$(wc -l <'$WORK/rc.err') = 1 ] && grep -q 'require-consistent: .*other.cwasm: only' '$WORK/rc.err'"
"$AOTPERF" diff -q "${base[@]}" --cwasm "$S" -- "${double[@]}" --require-consistent >/dev/null 2>&1
check_eq "--require-consistent with the right cores: exit 0" "$?" 0

# ---- a cut-off recording on one side ----
# cut inside the data, after the core's mapping record (perf writes it late:
# its offset from perf script -D), halfway to the data's end (the header's)
read -r doff dsize < <(od -An -t u8 -j 40 -N 16 "${double[0]}")
mend=$(perf script -D -i "${double[0]}" 2>/dev/null | gawk '/PERF_RECORD_MMAP2 .* \/\/anon$/ {
	sz = $3; gsub(/[][]/, "", sz); print strtonum($2) + strtonum(sz); exit }')
head -c $(((mend + doff + dsize) / 2)) "${double[0]}" >"$D/cut.data"
"$AOTPERF" diff "${base[0]}" --cwasm "$S" -- "$D/cut.data" --fail-if-slower 1000 \
	--json "$WORK/c.json" --markdown "$WORK/c.md" --html "$WORK/c.html" >"$WORK/c.txt" 2>"$WORK/c.err"
check_eq "a cut-off recording after: the gate fails (exit 1)" "$?" 1
check "one line naming it" \
	bash -c "[ \$(grep -c 'fail-if-slower' '$WORK/c.err') = 1 ] && grep -q 'fail-if-slower: .*cut.data: cut short: read [0-9]* of [0-9]*' '$WORK/c.err'"
check_eq "JSON: truncated true for that recording, the gate blocked" \
	"$(jq -r '"\(.after.captures[0].truncated) \(.after.truncated) \(.before.captures[0].truncated) \(.gate.blocked)"' "$WORK/c.json")" \
	"true true false true"
check "text: CUT SHORT" bash -c "grep -q 'cut.data .*CUT SHORT' '$WORK/c.txt' && grep -q '^  CUT SHORT: .*cut.data' '$WORK/c.txt'"
check "Markdown: cut short" grep -q '^\*\*Cut short:\*\* .*cut.data' "$WORK/c.md"
fits_80 "a cut-off recording: the text" "$WORK/c.txt"
"$AOTPERF" diff -q "${base[0]}" --cwasm "$S" -- "$D/cut.data" --fail-if-slower 1000 --force >/dev/null 2>&1
check_eq "a cut-off recording, --force: exit 0" "$?" 0

# ---- the page in Chromium: the cut-off diff (its side card says so) ----
if command -v chromium >/dev/null && command -v node >/dev/null &&
	[ -d "$ROOT/tests/browser/node_modules/playwright-core" ]; then
	sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' \
		"$WORK/c.html" >"$WORK/c.doc.json"
	(cd "$ROOT/tests/browser" && node diff.js --page "$WORK/c.html" --doc "$WORK/c.doc.json" \
		--json "$WORK/c.json" --shot "${ARTIFACTS:-$B/tests/artifacts}/diff_time.png") >"$WORK/browser.txt" 2>&1
	while IFS= read -r l; do
		case $l in
		ok:*) ok "diff page: ${l#ok: }" ;;
		FAIL:*) bad "diff page: ${l#FAIL: }" ;;
		esac
	done <"$WORK/browser.txt"
	check "diff page: the browser ran" grep -q '^shot:' "$WORK/browser.txt"
elif [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
	bad "the browser check of the diff page cannot run (chromium, node, tests/browser/setup.sh)"
else
	echo "SKIP: browser check of the diff page: needs chromium, node and tests/browser/setup.sh"
fi

finish
