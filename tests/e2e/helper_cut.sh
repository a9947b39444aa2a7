#!/usr/bin/env bash
# aotperf attr on a recording cut short (docs/helper-interface.md, "What the
# drop-in refuses"): the helper runs perf report and perf script, which stop
# at the cut of a file-mode recording and fail, so the helper fails (exit
# 1); attr refuses the same files with exit 1 and one line naming the file
# and the cut. Cut inside the header, the attributes, a sample, the core's
# mmap record and the last record (places found with perf report -D). What
# perf makes of each cut is checked here, with the helper's own commands.
# --accept-cut reads up to the cut: the counts are those of the whole
# records before it (an awk over perf report -D of the whole file), the
# JSON says truncated with the bytes read and expected, nothing is
# authoritative and --authoritative refuses it. A pipe-mode stream cut
# short perf reads up to the cut, and so does the helper: attr reads it too,
# saying so the same way.
. "$(dirname "$0")/lib/common.sh"

F=$FIX/frames.cwasm
record_one_cpu "$WORK/w.data" -- --ms 800 --mix spill_heavy:3,zext_heavy:1 "$F"
W=$WORK/w.data
ts=$(syms_text_size "$F.syms")

# records FILE: every record, "offset size type [ip]" in file order, the
# core's mapping record typed ANON (perf report -D)
records() {
	perf report -D -i "$1" 2>/dev/null | gawk '
	match($0, /(^|[ ])0x([0-9a-f]+) \[0x([0-9a-f]+)\]: PERF_RECORD_([A-Z0-9_]+)/, m) {
		ip = ""
		if (m[4] == "SAMPLE" && match($0, /: (0x[0-9a-f]+) period/, s)) ip = strtonum(s[1])
		anon = m[4] == "MMAP2" && $0 ~ /r-xp \/\/anon$/
		printf "%d %d %s %s\n", strtonum("0x" m[2]), strtonum("0x" m[3]), anon ? "ANON" : m[4], ip
	}' | sort -n
}
# mid_sample RECS: the offset of the sample half-way through those after the
# core's mapping record (perf writes a record late when its CPU's buffer is
# flushed late: samples can come before it in the file)
mid_sample() {
	awk '$3 == "ANON" { a = 1; next } a && $3 == "SAMPLE" { s[++n] = $1 } END { print s[int((n + 1) / 2)] }' "$1"
}
records "$W" >"$WORK/recs"
read -r anon_off _ < <(awk '$3 == "ANON"' "$WORK/recs")
base=$(perf script -i "$W" --show-mmap-events 2>/dev/null |
	sed -n 's/.*PERF_RECORD_MMAP2.*\[\(0x[0-9a-f]*\)(0x[0-9a-f]*) .*r-xp \/\/anon$/\1/p' | head -1)
# the header's sections (perf's struct perf_file_header): attrs at 24, data at 40
read -r attrs_off attrs_size data_off data_size < <(od -An -t u8 -j 24 -N 32 "$W" | tr -s ' \n' ' ')
nsamples=$(awk '$3 == "SAMPLE"' "$WORK/recs" | wc -l)
check "the recording has samples and the core's mapping" test "$nsamples" -gt 500 -a -n "$anon_off" -a -n "$base"
check "a sample after the core's mapping record to cut" test -n "$(mid_sample "$WORK/recs")"
sample_off=$(mid_sample "$WORK/recs")
read -r last_off _ < <(tail -1 "$WORK/recs")
declare -A CUT=([header]=50 [attrs]=$((attrs_off + attrs_size / 2)) [mmap]=$((anon_off + 16))
	[sample]=$((sample_off + 8)) [last]=$((last_off + 4)))
check "the last record ends the data section" \
	test "$(tail -1 "$WORK/recs" | awk '{ print $1 + $2 }')" = $((data_off + data_size))

# helper_fails FILE: 0 when a command the helper runs fails on FILE or finds no sample
helper_fails() {
	local rows
	perf report -i "$1" --stdio -g none -n --sort=dso,symbol --percent-limit 0 >"$WORK/hr" 2>/dev/null ||
		return 0
	rows=$(grep -c '\[JIT\]' "$WORK/hr")
	if [ "$rows" -eq 0 ]; then
		perf script -i "$1" -F ip,dso >"$WORK/hs" 2>/dev/null || return 0
		[ -s "$WORK/hs" ] || return 0
	fi
	perf script -i "$1" --show-mmap-events >/dev/null 2>&1 || return 0
	return 1
}
helper_reads() { ! helper_fails "$1"; }
# ref CUT: "TOTAL n", "CORE n", "FUNC i n" of the whole records before the cut
ref() {
	awk -v cut="$1" -v base="$((base))" -v ts="$ts" '
		FILENAME == ARGV[1] { off[NR] = strtonum($2); size[NR] = $3; n = NR; next }
		$3 == "SAMPLE" && $1 + $2 <= cut {
			total++
			d = $4 - base
			if (d < 0 || d >= ts) next
			for (i = 1; i <= n; i++)
				if (d >= off[i] && d < off[i] + size[i]) { core++; f[i - 1]++; break }
		}
		END {
			print "TOTAL " total; print "CORE " core
			for (k in f) print "FUNC " k " " f[k]
		}' "$F.syms" "$WORK/recs" | sort
}

check "whole: the helper's perf commands read it" helper_reads "$W"
"$AOTPERF" attr --perf "$W" --cwasm "$F" --json-out "$WORK/w.json" >/dev/null 2>"$WORK/w.err"
check_eq "whole: attr exit 0" "$?" 0
check_eq "whole: no truncation keys (the helper's document)" \
	"$(jq -c '[has("truncated"), has("bytes_read"), has("bytes_expected")]' "$WORK/w.json")" '[false,false,false]'

for k in header attrs mmap sample last; do
	c=$WORK/$k.data
	head -c "${CUT[$k]}" "$W" >"$c"
	check "$k: perf stops at the cut, so the helper fails (perf 6.1)" helper_fails "$c"
	rm -f "$WORK/c.json"
	"$AOTPERF" attr --perf "$c" --cwasm "$F" --json-out "$WORK/c.json" >/dev/null 2>"$WORK/c.err"
	check_eq "$k: attr exit 1" "$?" 1
	check "$k: one line naming the file and the cut ($(cat "$WORK/c.err"))" \
		awk -v f="$c: " 'index($0, f) == 1 && /cut short|header|attrs section/ { ok = 1 }
			END { exit !(ok && NR == 1) }' "$WORK/c.err"
	check "$k: no JSON" test ! -e "$WORK/c.json"
done
"$AOTPERF" attr --perf "$WORK/sample.data" --cwasm "$F" >/dev/null 2>"$WORK/c.err"
check "the sample cut is refused with the bytes before the cut sample" \
	grep -q "cut short: read $((sample_off - data_off)) of $data_size data bytes" "$WORK/c.err"

# --accept-cut: the records before the cut, said everywhere
for k in sample last; do
	c=$WORK/$k.data
	rec_off=$(awk -v cut="${CUT[$k]}" '$1 < cut { o = $1 } END { print o }' "$WORK/recs")
	"$AOTPERF" attr --accept-cut --perf "$c" --cwasm "$F" --json-out "$WORK/a.json" >"$WORK/a.txt" \
		2>"$WORK/a.err"
	check_eq "$k --accept-cut: exit 0" "$?" 0
	check_eq "$k --accept-cut: truncated, bytes read and expected, nothing authoritative" \
		"$(jq -c '[.truncated, .bytes_read, .bytes_expected, .authoritative, .mapping.authoritative]' "$WORK/a.json")" \
		"[true,$((rec_off - data_off)),$data_size,false,false]"
	aotperf_counts "$WORK/a.json" >"$WORK/a.counts"
	ref "${CUT[$k]}" >"$WORK/a.ref"
	same_counts "$k --accept-cut: counts == the whole records before the cut (perf report -D)" \
		"$WORK/a.counts" "$WORK/a.ref"
	check "$k --accept-cut: the text says it under its first line" \
		awk -v w="CUT SHORT: read $((rec_off - data_off)) of $data_size data bytes" \
		'NR == 2 && index($0, w) == 1 { ok = 1 } END { exit !ok }' "$WORK/a.txt"
	check "$k --accept-cut: so does stderr" grep -q "warning: .*cut short: read" "$WORK/a.err"
	rm -f "$WORK/g.json"
	"$AOTPERF" attr --accept-cut --authoritative --min-samples 40 --perf "$c" --cwasm "$F" \
		--json-out "$WORK/g.json" >/dev/null 2>"$WORK/g.err"
	check_eq "$k --accept-cut --authoritative: exit 1" "$?" 1
	check "$k --accept-cut --authoritative: says why, writes nothing" \
		bash -c "grep -q -- '--authoritative: .*cut short' '$WORK/g.err' && test ! -e '$WORK/g.json'"
done
"$AOTPERF" attr --accept-cut --perf "$WORK/mmap.data" --cwasm "$F" >/dev/null 2>"$WORK/m.err"
check_eq "mmap --accept-cut: the core's mapping is past the cut: exit 1" "$?" 1
check "... as the helper words a missing mapping" grep -q "found 0 exact matches" "$WORK/m.err"
for k in header attrs; do
	"$AOTPERF" attr --accept-cut --perf "$WORK/$k.data" --cwasm "$F" >/dev/null 2>&1
	check_eq "$k --accept-cut: nothing to read: exit 1" "$?" 1
done

# a pipe-mode stream cut inside a sample: perf, and so the helper, read up to the cut
perf record -q -e cpu-clock -k mono -F 2000 -o - -- "$LOADER" --ms 800 --mix spill_heavy:1 "$F" \
	>"$WORK/pipe.data" 2>"$WORK/pipe.log"
records "$WORK/pipe.data" >"$WORK/precs"
poff=$(mid_sample "$WORK/precs")
head -c $((poff + 8)) "$WORK/pipe.data" >"$WORK/pcut.data"
check "pipe cut: the helper's perf commands read it up to the cut" helper_reads "$WORK/pcut.data"
"$AOTPERF" attr --perf "$WORK/pcut.data" --cwasm "$F" --json-out "$WORK/p.json" >"$WORK/p.txt" 2>"$WORK/p.err"
check_eq "pipe cut: attr exit 0, as the helper" "$?" 0
check_eq "pipe cut: truncated, nothing authoritative" \
	"$(jq -c '[.truncated, .bytes_read < .bytes_expected, .authoritative, .mapping.authoritative]' "$WORK/p.json")" \
	'[true,true,false,false]'
check "pipe cut: said in the text and on stderr" \
	bash -c "grep -q '^CUT SHORT: ' '$WORK/p.txt' && grep -q 'cut short' '$WORK/p.err'"
"$AOTPERF" attr --authoritative --perf "$WORK/pcut.data" --cwasm "$F" >/dev/null 2>&1
check_eq "pipe cut --authoritative: exit 1" "$?" 1

finish
