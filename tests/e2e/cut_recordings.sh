#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# One policy for a recording cut short (docs/damaged-recordings.md), in
# every command. One recording of the sample, cut at five points found
# independently of aotperf (the header's sections read with od, the records'
# offsets and sizes from perf report -D on the whole file):
#
#   header   inside the 104-byte header          bad input: exit 2, one line
#   attrs    inside the attribute section        bad input: exit 2, one line
#   mmap     inside the core's //anon MMAP2      no mapping: exit 2, and the cut said
#   sample   inside a sample in mid-run          cut short
#   last     inside the data section's last record  cut short
#
# A cut short file through report (text, JSON, Markdown, HTML), its gates,
# --func, report with several -i, inject/jitdump/perfmap with and without
# --force (perf report reading the forced copy), record's post-processing
# (a stand-in perf that "records" the cut file) and the dlfilter under perf
# script: each says it with the same figures (bytes of whole records before
# the cut, the data size of the header; samples = perf's records before the
# cut), none calls it authoritative, and every gate and derived recording
# refuses it. diff and attr apply it in their own tests.
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/browser.sh"
ROOT=$(cd "$E2E/../.." && pwd)
ART=${ARTIFACTS:-$B/tests/artifacts}
mkdir -p "$ART"
S=$FIX/sample.cwasm
DLF=$B/aotperf-dlfilter.so
D=$WORK/whole.data
cd "$WORK" || exit 1
jqe() { jq -e "$@" >/dev/null; }

record_one_cpu "$D" -- --ms 1200 "$S"	# cuts after the mapping: time order
check "perf record: the whole recording" test -s "$D"

# the header's sections (perf's struct perf_file_header): attrs at 24, data at 40
read -r attrs_off attrs_size data_off data_size < <(od -An -t u8 -j 24 -N 32 "$D" | tr -s ' \n' ' ')
data_end=$((data_off + data_size))
check "the data section fits the whole file ($data_off + $data_size <= $(stat -c %s "$D"))" \
	test "$data_end" -le "$(stat -c %s "$D")"
# every record of the data section: offset, size, type (perf report -D)
perf report -D -i "$D" 2>/dev/null |
	gawk 'match($0, /^0x([0-9a-f]+)@[^ ]* \[0x([0-9a-f]+)\]: event: ([0-9]+)/, m) {
		print strtonum("0x" m[1]), strtonum("0x" m[2]), m[3] }' | sort -n -u >recs
check_eq "the records tile the data section" \
	"$(gawk -v s="$data_off" 'BEGIN { p = s } $1 == p { p += $2 } END { print p }' recs)" "$data_end"
anon=$(perf report -D -i "$D" 2>/dev/null |
	sed -n 's/^[0-9]* 0x\([0-9a-f]*\) \[0x\([0-9a-f]*\)\]: PERF_RECORD_MMAP2 .* r-xp \/\/anon$/\1 \2/p' | head -n1)
read -r anon_off anon_size < <(echo "$anon" | gawk '{ print strtonum("0x" $1), strtonum("0x" $2) }')
check "the core's //anon mapping record found ($anon)" test -n "$anon_off"
# the sample in the middle of those after the mapping
read -r mid_off mid_size < <(gawk -v a="$anon_off" '$3 == 9 && $1 > a { o[n] = $1; s[n++] = $2 }
	END { print o[int(n / 2)], s[int(n / 2)] }' recs)
check "samples after the mapping record in the file ($mid_off)" test -n "$mid_off"
read -r last_off last_size < <(gawk -v e="$data_end" '$1 + $2 == e { print $1, $2 }' recs)

declare -A CUT=(
	[header]=50 [attrs]=$((attrs_off + attrs_size / 2))
	[mmap]=$((anon_off + anon_size / 2)) [sample]=$((mid_off + mid_size / 2))
	[last]=$((last_off + last_size / 2))
)
for k in header attrs mmap sample last; do
	head -c "${CUT[$k]}" "$D" >"$k.data"
done
check "the attrs cut falls inside the attribute section" test "${CUT[attrs]}" -gt 104 -a "${CUT[attrs]}" -lt "$data_off"
# bytes of whole records before a cut, and the samples among them
whole() { gawk -v c="$1" -v s="$data_off" '$1 + $2 <= c && $1 + $2 - s > n { n = $1 + $2 - s } END { print n + 0 }' recs; }
samples() { gawk -v c="$1" '$3 == 9 && $1 + $2 <= c { n++ } END { print n + 0 }' recs; }

# ---- header, attrs: nothing to read (bad input, one line naming the file) ----
for k in header attrs; do
	for cmd in report inject jitdump perfmap; do
		o=()
		[ "$cmd" = perfmap ] && o=(-o "$WORK/$k.map")
		[ "$cmd" = inject ] || [ "$cmd" = jitdump ] && o=(-o "$WORK/$k.out.data")
		"$AOTPERF" "$cmd" -i "$k.data" --cwasm "$S" "${o[@]}" >out 2>err
		check_eq "$k cut, $cmd: exit 2" "$?" 2
		check "$k cut, $cmd: one line naming the file ($(head -c 100 err))" \
			test "$(wc -l <err)" = 1 -a -n "$(grep -F "$k.data: " err)"
		check "$k cut, $cmd: nothing written" test ! -e "$k.out.data" -a ! -e "$k.map"
		[ "$k" = header ] && check "header cut, $cmd: the line says the header is cut" \
			grep -q "header cut short" err
	done
done

# ---- mmap: the mapping is past the cut: no mapping, and the cut said ----
"$AOTPERF" report -i mmap.data --cwasm "$S" >out 2>err
check_eq "mmap cut, report: exit 2 (no mapping of the core's size)" "$?" 2
check "mmap cut, report: the error says there is no mapping" grep -q "no //anon r-x mapping" err
check "mmap cut, report: and that the recording is cut short, with its figures" \
	grep -qF "it is cut short: read $(whole "${CUT[mmap]}") of $data_size data bytes" err

# ---- sample, last: cut short ----
for k in sample last; do
	n=$(whole "${CUT[$k]}") ns=$(samples "${CUT[$k]}")
	words="read $n of $data_size data bytes"
	echo "   $k: cut at ${CUT[$k]}: $n of $data_size data bytes, $ns samples before the cut"
	"$AOTPERF" report -i "$k.data" --cwasm "$S" --func 1504 --json "$k.json" --markdown "$k.md" \
		--html "$k.html" >"$k.txt" 2>"$k.err"
	check_eq "$k: report: exit 0" "$?" 0
	check_eq "$k: report: total samples = perf's sample records before the cut" \
		"$(jq .total_samples "$k.json")" "$ns"
	pct=$(gawk -v a="$n" -v b="$data_size" 'BEGIN { printf "%.2f", 100 * a / b }')
	check "$k: text: CUT SHORT under the first line, the same figures ($pct%)" \
		test "$(sed -n 2p "$k.txt" | cut -c1-$((14 + ${#words} + ${#pct} + 4)))" = "  CUT SHORT: $words ($pct%):"
	check_eq "$k: JSON: truncated, bytes_read, bytes_expected" \
		"$(jq -c '[.truncated, .bytes_read, .bytes_expected]' "$k.json")" "[true,$n,$data_size]"
	check_eq "$k: JSON: not authoritative (top level, mapping, the core)" \
		"$(jq -c '[.authoritative, .mapping.authoritative, .cores[0].authoritative]' "$k.json")" \
		"[false,false,false]"
	check "$k: JSON: the cut in the warnings" jqe '[.warnings[] | select(contains("cut short"))] | length == 1' "$k.json"
	check "$k: Markdown: the CUT SHORT line" grep -qF "**CUT SHORT**: $words" "$k.md"
	sed -n 's|^<script type="application/json" id="aotperf-data">\(.*\)</script>$|\1|p' "$k.html" >"$k.doc.json"
	check_eq "$k: HTML: its document says it" \
		"$(jq -c '[.truncated, .bytes_read, .bytes_expected, .authoritative]' "$k.doc.json")" \
		"[true,$n,$data_size,false]"
	check "$k: --func: NOT authoritative above the class table" \
		test "$(grep -n 'NOT authoritative: the recording is cut short' "$k.txt" | cut -d: -f1)" -lt \
		"$(grep -n '^  class  ' "$k.txt" | cut -d: -f1)"
	check "$k: --func: no lever verdict, and why" grep -qx "  verdict         none: the recording is cut short" "$k.txt"
	check "$k: --func: no '=>' verdict line" test -z "$(grep 'verdict *=>' "$k.txt")"
	check_eq "$k: JSON: levers.verdict null, the reason in no_verdict" \
		"$(jq -c '.classified_functions[0].levers | [.verdict, .no_verdict]' "$k.json")" \
		'[null,"the recording is cut short"]'
	# every gate refuses it
	for g in "--min-samples 1" --require-consistent --require-size-match; do
		"$AOTPERF" report -i "$k.data" --cwasm "$S" $g >out 2>err
		check_eq "$k: report $g: exit 1" "$?" 1
		check "$k: report $g: the line names the file and the cut" \
			grep -qF "aotperf report: ${g%% *}: $k.data: cut short: $words" err
	done
done
# the page in the browser: the banner with the document's figures (tests/browser/check.js)
why=$(browser_why)
if [ -z "$why" ]; then
	browser_run page check.js --page "$WORK/sample.html" --doc "$WORK/sample.doc.json" \
		--shot "$ART/cut-short.png"
	check "page: the banner was checked" grep -q "^ok: the banner gives bytes read and expected" page.check
else
	browser_skip "$why"
fi

# the same recording whole: none of it
"$AOTPERF" report -i "$D" --cwasm "$S" --json whole.json --require-consistent >whole.txt 2>whole.err
check_eq "whole: report --require-consistent: exit 0" "$?" 0
check_eq "whole: JSON: not truncated, every data byte read, authoritative" \
	"$(jq -c '[.truncated, .bytes_read, .bytes_expected, .authoritative]' whole.json)" \
	"[false,$data_size,$data_size,true]"
check "whole: no CUT SHORT line" test -z "$(grep 'CUT SHORT' whole.txt)"

# several recordings: the cut one says it on its line and in recordings[]
"$AOTPERF" report -i "$D" -i sample.data --cwasm "$S" --json caps.json >caps.txt 2>/dev/null
check_eq "report -i whole -i cut: exit 0" "$?" 0
check_eq "report -i whole -i cut: recordings[]: truncated, bytes, authoritative" \
	"$(jq -c '[.recordings[] | [.truncated, .bytes_read, .authoritative]]' caps.json)" \
	"[[false,$data_size,true],[true,$(whole "${CUT[sample]}"),false]]"
check "report -i whole -i cut: CUT SHORT under the cut one's line" \
	test "$(grep -A1 'sample.data' caps.txt | tail -n1 | grep -c 'CUT SHORT: read')" = 1
"$AOTPERF" report -i "$D" -i sample.data --cwasm "$S" --min-samples 1 >/dev/null 2>err
check_eq "report -i whole -i cut --min-samples 1: exit 1" "$?" 1

# ---- derived recordings: refused unless --force ----
k=sample n=$(whole "${CUT[sample]}")
for cmd in inject jitdump perfmap; do
	o=(-o "$WORK/$cmd.out")
	"$AOTPERF" "$cmd" -i sample.data --cwasm "$S" "${o[@]}" >out 2>err
	check_eq "$cmd: a cut recording: exit 1" "$?" 1
	check "$cmd: the line names the file and the cut, and --force" \
		grep -qF "aotperf $cmd: sample.data: cut short: read $n of $data_size data bytes" err
	check "$cmd: nothing written" test ! -e "$cmd.out" -a ! -e "$cmd.out.d/sample.core0.aotperf.so"
done
"$AOTPERF" inject -i sample.data --cwasm "$S" -o forced.data --force >out 2>err
check_eq "inject --force: exit 0" "$?" 0
check "inject --force: says the copy holds the whole records" \
	grep -qF "sample.data is cut short: forced.data holds its whole records, $n of $data_size data bytes" out
# stock perf reads the copy, where it stops at the original's cut
check_eq "perf script on the forced copy: every sample before the cut" \
	"$(perf script -i forced.data -F ip 2>/dev/null | wc -l)" "$(samples "${CUT[sample]}")"
perf_counts forced.data >perf.counts
jq -r '.top_functions[] | "FUNC \(.local_func) \(.samples)"' sample.json | sort >ours.counts
same_counts "perf report on the forced copy names the functions with report's counts" ours.counts perf.counts
"$AOTPERF" jitdump -i sample.data --cwasm "$S" -o forced.m.data --force >out 2>&1
check_eq "jitdump --force: exit 0" "$?" 0
"$AOTPERF" perfmap -i sample.data --cwasm "$S" -o forced.map --force >out 2>&1
check_eq "perfmap --force: exit 0" "$?" 0
check "perfmap --force: says perf may stop at the cut" grep -q "sample.data is cut short: perf may stop" out

# record: a stand-in perf "records" the cut file; the rest goes to perf
cat >fakeperf <<EOF
#!/bin/sh
if [ "\$1" = record ]; then
	while [ \$# -gt 0 ]; do [ "\$1" = -o ] && out=\$2; shift; done
	cp "$WORK/sample.data" "\$out"
	exit 0
fi
exec perf "\$@"
EOF
chmod +x fakeperf
PERF=$WORK/fakeperf "$AOTPERF" record -e cpu-clock --cwasm "$S" -o rec.data -- "$LOADER" "$S" >out 2>err
check_eq "record of a cut recording: exit 1" "$?" 1
check "record: the cut said, the recording kept, no copy" \
	test -n "$(grep -F 'rec.data: cut short' err)" -a -s rec.data -a ! -e rec.jit.data
PERF=$WORK/fakeperf "$AOTPERF" record -e cpu-clock --force --cwasm "$S" -o rec.data -- "$LOADER" "$S" \
	>out 2>err
check_eq "record --force of a cut recording: exit 0, the copy written" "$?$(test -s rec.jit.data && echo +)" "0+"

# ---- the dlfilter under perf script ----
if [ -f "$DLF" ]; then
	for k in sample last; do
		n=$(whole "${CUT[$k]}")
		perf script -i "$k.data" --dlfilter "$DLF" --dlarg "$S" --dlarg "out=$k.dlf.txt" \
			--dlarg "json=$k.dlf.json" >/dev/null 2>"$k.dlf.err"
		check "$k: dlfilter: the warning names the file and the cut" \
			grep -qF "aotperf-dlfilter: warning: $k.data: cut short: read $n of $data_size data bytes" "$k.dlf.err"
		check "$k: dlfilter: CUT SHORT in its summary" grep -qF "CUT SHORT: read $n of $data_size" "$k.dlf.txt"
		check_eq "$k: dlfilter: json= says it" \
			"$(jq -c '[.truncated, .bytes_read, .bytes_expected, .authoritative]' "$k.dlf.json")" \
			"[true,$n,$data_size,false]"
	done
	perf script -i "$D" --dlfilter "$DLF" --dlarg "$S" --dlarg quiet --dlarg "json=whole.dlf.json" >/dev/null 2>&1
	check_eq "whole: dlfilter: json= not truncated" \
		"$(jq -c '[.truncated, .bytes_read, .authoritative]' whole.dlf.json)" "[false,$data_size,true]"
else
	echo "SKIP: no $DLF"
fi
finish
