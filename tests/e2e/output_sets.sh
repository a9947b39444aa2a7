#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# All of a command's output files, or none (util/outset.h,
# docs/commands/common.md): for each command that writes several, the last output fails
# (its folder does not exist), and then none of the others is left behind,
# no temporary either, and an output that already existed keeps its
# content; with every output writable, all are written. report (--folded,
# --json, --html, --markdown, --pprof), diff (--json, --markdown, --html),
# inject and record (the images in --dir, the copy), jitdump (the dumps,
# the copy), perfmap (one map per process), the dlfilter (out=, json=).
# compare's are checked in engines_v8.sh, where it has another engine.
. "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
DLF=$B/aotperf-dlfilter.so
cd "$WORK" || exit 1
D=$WORK/g.data
record "$D" -g -- --ms 600 "$S"
check "perf record -g: a recording" test -s "$D"
M=$WORK/missing	# never created: an output in it cannot be written

# kept NAME FILE...: FILE... hold "old NAME" still, and no temporary is left in their folders
kept() {
	local name=$1 f bad=
	shift
	for f in "$@"; do
		[ "$(cat "$f" 2>/dev/null)" = "old $name" ] || bad="$bad $f"
		ls "$(dirname "$f")" | grep -q "\.tmp\." && bad="$bad $(dirname "$f")/*.tmp.*"
	done
	check "$name: the existing outputs keep their content, no temporary left${bad:+ (not:$bad)}" test -z "$bad"
}
# absent NAME FILE...: none of FILE... exists
absent() {
	local name=$1 f bad=
	shift
	for f in "$@"; do [ -e "$f" ] && bad="$bad $f"; done
	check "$name: none of the other outputs written${bad:+ (written:$bad)}" test -z "$bad"
}

# ---- report: --folded, --json, --html, --markdown, then --pprof fails ----
mkdir r
echo "old report" >r/o.json
"$AOTPERF" report -q -i "$D" --cwasm "$S" --folded r/o.folded --json r/o.json --html r/o.html \
	--markdown r/o.md --pprof "$M/o.pb.gz" >out 2>err
check_eq "report, --pprof in a missing folder: exit 2" "$?" 2
check "report: the one line names the output that failed" \
	test "$(wc -l <err)" = 1 -a -n "$(grep -F -- "--pprof: $M/o.pb.gz: cannot create" err)"
kept report r/o.json
absent report r/o.folded r/o.html r/o.md
"$AOTPERF" report -q -i "$D" --cwasm "$S" --folded r/o.folded --json r/o.json --html r/o.html \
	--markdown r/o.md --pprof r/o.pb.gz >/dev/null 2>&1
check_eq "report, every output writable: exit 0" "$?" 0
check "report: all five written" test -s r/o.folded -a -s r/o.html -a -s r/o.md -a -s r/o.pb.gz -a \
	"$(jq -r .tool r/o.json)" = "aotperf report"

# ---- diff: --json, --markdown, then --html fails ----
mkdir d
echo "old diff" >d/d.json
"$AOTPERF" diff -q -i "$D" --cwasm "$S" -- -i "$D" --json d/d.json --markdown d/d.md \
	--html "$M/d.html" >out 2>err
check_eq "diff, --html in a missing folder: exit 2" "$?" 2
check "diff: the line names it" grep -qF "$M/d.html: cannot create" err
kept diff d/d.json
absent diff d/d.md

# ---- inject: the image in --dir, then the copy fails ----
mkdir i
echo "old inject" >i/sample.core0.aotperf.so
"$AOTPERF" inject -q -i "$D" --cwasm "$S" --dir i -o "$M/x.jit.data" >out 2>err
check_eq "inject, -o in a missing folder: exit 2" "$?" 2
check "inject: the line names it" grep -qF "$M/x.jit.data: cannot create" err
kept inject i/sample.core0.aotperf.so
check_eq "inject: nothing else in --dir" "$(ls i)" "sample.core0.aotperf.so"

# ---- jitdump: the dump in --dir, then the copy fails ----
mkdir j
pid=$(perf script -i "$D" -F pid 2>/dev/null | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
echo "old jitdump" >"j/jit-$pid.dump"
"$AOTPERF" jitdump -q -i "$D" --cwasm "$S" --dir j -o "$M/x.m.data" >out 2>err
check_eq "jitdump, -o in a missing folder: exit 2" "$?" 2
kept jitdump "j/jit-$pid.dump"
check_eq "jitdump: nothing else in --dir" "$(ls j)" "jit-$pid.dump"

# ---- record: perf records, the images go to --dir, the copy fails ----
mkdir rec
echo "old record" >rec/sample.core0.aotperf.so
"$AOTPERF" record -q -e cpu-clock --cwasm "$S" -o rec/r.data --dir rec --jit-out "$M/r.jit.data" -- \
	"$LOADER" --ms 300 "$S" >out 2>err
check_eq "record, --jit-out in a missing folder: exit 2" "$?" 2
check "record: the recording is kept" test -s rec/r.data
kept record rec/sample.core0.aotperf.so
check_eq "record: nothing else in --dir but the recording" "$(ls rec | grep -v '^r\.data')" \
	"sample.core0.aotperf.so"

# ---- perfmap: one map per process; the second cannot be written ----
F=$WORK/two.data
perf record -q -e cpu-clock -k mono -F 2000 -o "$F" -- \
	sh -c "'$LOADER' --ms 200 '$S' && '$LOADER' --ms 200 '$S'" >"$F.log" 2>&1
pids=$(perf script -i "$F" --show-mmap-events 2>/dev/null |
	sed -n 's/^ *[^ ]* *\([0-9]*\) .*PERF_RECORD_MMAP2 .*r-xp \/\/anon$/\1/p' | sort -un)
set -- $pids
if [ $# -ge 2 ] && [ ! -e "/tmp/perf-$1.map" ] && [ ! -e "/tmp/perf-$2.map" ]; then
	mkdir "/tmp/perf-$2.map"	# a folder where the second map goes
	"$AOTPERF" perfmap -q -i "$F" --cwasm "$S" >out 2>err
	check_eq "perfmap, the second process's map a folder: exit 2" "$?" 2
	check "perfmap: the first process's map not written either" test ! -e "/tmp/perf-$1.map"
	check "perfmap: no temporary left in /tmp" test -z "$(ls /tmp | grep -E "^perf-($1|$2)\.map\.tmp\.")"
	rmdir "/tmp/perf-$2.map"
	"$AOTPERF" perfmap -q -i "$F" --cwasm "$S" >out 2>err
	check_eq "perfmap, both writable: exit 0, both written" \
		"$?$(test -s "/tmp/perf-$1.map" && test -s "/tmp/perf-$2.map" && echo +)" "0+"
	rm -f "/tmp/perf-$1.map" "/tmp/perf-$2.map"
else
	bad "perfmap: two processes that mapped the core, no maps of theirs in /tmp (pids: $pids)"
fi

# ---- the dlfilter: out=, then json= fails (before perf reads a record) ----
if [ -f "$DLF" ]; then
	echo "old dlfilter" >dlf.txt
	perf script -i "$D" --dlfilter "$DLF" --dlarg "$S" --dlarg out=dlf.txt --dlarg "json=$M/d.json" \
		>/dev/null 2>err
	check "dlfilter, json= in a missing folder: perf script fails" test "$?" -ne 0
	kept dlfilter dlf.txt
	perf script -i "$D" --dlfilter "$DLF" --dlarg "$S" --dlarg out=dlf.txt --dlarg json=dlf.json \
		>/dev/null 2>&1
	check "dlfilter, both writable: both written" \
		test "$(head -c 16 dlf.txt)" = "aotperf-dlfilter" -a -s dlf.json
else
	echo "SKIP: no $DLF"
fi
finish
