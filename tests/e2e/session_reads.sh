#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# How often a run opens and reads the recording (session/session.h:
# opened once, its records streamed through every consumer of the run),
# seen from outside: strace counts the openat() calls that name the
# recording and the bytes read(), pread() or mmap()ed from it (a file's
# records are mapped, perfdata/reader.c), and the bytes are compared with
# the file's size. Reads, not time: a machine under load changes neither.
#
#   - report: one open, one read per pass of the attribution (1, or 2
#     when a mapping record came after samples it holds; its JSON says),
#     and the walks that read a new thread's records ahead (JSON
#     read_ahead_bytes: none unless perf wrote them after its samples);
#   - report --children --html --pprof --json --markdown: the plain
#     report's reads serve every view;
#   - two sampling events: one open, and no more bytes than the report of
#     one of them (both profiles come from the same passes);
#   - the off-CPU view: one open, one read per pass;
#   - -i - from a file: standard input read once, nothing opened;
#   - a --call-graph=dwarf recording, report and report --children: the
#     data section mapped a window at a time, only the header and features
#     read() (its 8 KB stack dumps never copied); a pipe-mode one from a
#     pipe read() once;
#   - inject --direct: the attribution's passes and the copy it writes
#     (perfdata/edit.c), three opens at most (the session, the copy's
#     check, the copy).
#
# Before the session a report opened the recording 3 to 5 times and read
# it up to 6 times. docs/formats-perf.md ("One read per run") says when a
# second pass happens.
#
#   tests/e2e/session_reads.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
. "$E2E/lib/asmcore.sh"
. "$E2E/lib/traced.sh"

if ! command -v strace >/dev/null 2>&1; then
	bad "strace is not installed (scripts/test-deps.sh installs it)"
	finish
	exit
fi
SRC=$(cd "$E2E/../.." && pwd)
S=$FIX/sample.cwasm

# traced_bytes FILE CMD...: "OPENS BYTES" of FILE (lib/traced.sh), the bytes read or mapped
traced_bytes() {
	local opens read mapped
	read -r opens read mapped _ < <(traced "$@")
	echo "$opens $((read + mapped))"
}
# reads BYTES FILE: how many times FILE's size, two decimals
reads() { gawk -v b="$1" -v s="$(stat -c %s "$2")" 'BEGIN { printf "%.2f\n", b / s }'; }
# at_most DESC GOT LIMIT: GOT <= LIMIT (decimals)
at_most() {
	if gawk -v g="$2" -v l="$3" 'BEGIN { exit !(g <= l) }'; then ok "$1 ($2 <= $3)"
	else bad "$1: $2, more than $3"; fi
}

G=$WORK/g.data
record "$G" -g -- --ms 600 "$S"
check "a -g recording" [ -s "$G" ]

# the passes the attribution says it made: 1, or 2 when a mapping record
# came after samples it holds (attr/attr.h); each pass reads the file once
"$AOTPERF" report -q -i "$G" --cwasm "$S" --json "$WORK/g.json" >/dev/null
passes=$(jq .passes "$WORK/g.json")
# and what its walks for a new thread's records read besides (session/lookahead.h)
g_ahead=$(jq .read_ahead_bytes "$WORK/g.json")
check "report: one pass, or two when a mapping came late ($passes)" \
	bash -c '[ "$1" = 1 ] || [ "$1" = 2 ]' _ "$passes"

read -r opens plain < <(traced_bytes "$G" "$AOTPERF" report -q -i "$G" --cwasm "$S")
check_eq "report: exit 0" "$(cat "$WORK/traced.rc")" 0
check "report: it reported" grep -q "total samples" "$WORK/traced.out"
check_eq "report: the recording opened once" "$opens" 1
at_most "report: read once per pass, besides $g_ahead bytes read ahead" \
	"$(reads "$((plain - g_ahead))" "$G")" "$passes.05"

read -r opens bytes < <(traced_bytes "$G" "$AOTPERF" report -q -i "$G" --cwasm "$S" --children \
	--html "$WORK/r.html" --pprof "$WORK/r.pb.gz" --json "$WORK/r.json" --markdown "$WORK/r.md")
check_eq "report with every view: exit 0" "$(cat "$WORK/traced.rc")" 0
check "report with every view: each written" \
	bash -c 'for f; do [ -s "$f" ] || exit 1; done' _ "$WORK/r.html" "$WORK/r.pb.gz" \
	"$WORK/r.json" "$WORK/r.md"
check_eq "report --children --html --pprof --json --markdown: opened once" "$opens" 1
at_most "report --children --html --pprof --json --markdown: the plain report's bytes" \
	"$bytes" "$((plain + 65536))"

read -r opens bytes < <(traced_bytes "$G" "$AOTPERF" report -q -i - --cwasm "$S" <"$G")
check_eq "report -i - <file: exit 0" "$(cat "$WORK/traced.rc")" 0
check_eq "report -i - <file: the recording is not opened by name" "$opens" 0
at_most "report -i - <file: standard input read once per pass, besides the read ahead" \
	"$(reads "$((bytes - g_ahead))" "$G")" \
	"$passes.05"

# the records are mapped, not copied (perfdata/reader.c): of a dwarf
# recording read() gets the header and features only, mmap() the data
# section a window (4 MB) at a time, for the plain report and for the
# unwinding of --children alike; standard input from a pipe is read()
W=$WORK/dwarf.data
record "$W" --call-graph=dwarf -- --ms 500 "$S"
check "a --call-graph=dwarf recording" [ -s "$W" ]
read -r _ _ data_off data_size < <(od -An -t u8 -j 24 -N 32 "$W" | tr -s ' \n' ' ')
wsize=$(stat -c %s "$W")
# windows of 4 MB, once per pass of the attribution (two when the mapping
# record came after samples it holds, as perf writes a CPU's buffer late)
"$AOTPERF" report -q -i "$W" --cwasm "$S" --json "$WORK/w.json" >/dev/null
w_passes=$(jq .passes "$WORK/w.json")
w_ahead=$(jq .read_ahead_bytes "$WORK/w.json")
maps_want=$(( (data_size + 4194303) / 4194304 * w_passes ))
for view in "" --children; do
	read -r opens rbytes mapped maps < <(traced "$W" "$AOTPERF" report -q -i "$W" --cwasm "$S" $view)
	check_eq "dwarf report${view:+ $view}: exit 0" "$(cat "$WORK/traced.rc")" 0
	at_most "dwarf report${view:+ $view}: read() the header and features only (bytes; $w_ahead read ahead)" \
		"$rbytes" "$((wsize - data_size + 4096 + w_ahead))"
	check "dwarf report${view:+ $view}: the data section mapped ($mapped of $data_size bytes)" \
		[ "$mapped" -ge "$data_size" ]
	at_most "dwarf report${view:+ $view}: mapped once a pass ($w_passes), a window at a time ($maps mmap calls)" "$maps" \
		"$((maps_want + 1))"
done
# a pipe cannot be mapped: a pipe-mode recording (perf record -o -) read()
# from standard input, each byte once, the stack dumps included
WP=$WORK/dwarf-pipe.data
perf record -q -e cpu-clock -k mono -F 2000 --call-graph=dwarf -o - -- "$LOADER" --ms 500 "$S" \
	>"$WP" 2>"$WP.log"
check "a --call-graph=dwarf recording to a pipe (-o -)" [ -s "$WP" ]
# (cat in a process substitution: the trace holds aotperf's calls alone)
traced "$WP" "$AOTPERF" report -q -i - --cwasm "$S" < <(cat "$WP") >/dev/null
check_eq "dwarf report -i - from a pipe: exit 0" "$(cat "$WORK/traced.rc")" 0
check_eq "dwarf report -i - from a pipe: standard input read once (bytes)" \
	"$(gawk '/read\(0<pipe:/ && match($0, /= ([0-9]+)$/, m) { b += m[1] } END { print b + 0 }' \
		"$WORK/trace")" "$(stat -c %s "$WP")"
check_eq "dwarf report -i - from a pipe: nothing mapped from standard input" \
	"$(grep -c 'mmap(.*0<pipe:' "$WORK/trace")" 0

T=$WORK/two.data
perf record -q -e cpu-clock/period=250000/,task-clock/period=1000000/ -k mono -g -o "$T" \
	-- "$LOADER" --ms 600 "$S" >"$WORK/two.log" 2>&1
check_eq "a recording of two events" "$?" 0
read -r opens bytes < <(traced_bytes "$T" "$AOTPERF" report -q -i "$T" --cwasm "$S" --children)
check_eq "two events: exit 0" "$(cat "$WORK/traced.rc")" 0
check_eq "two events: both reported" "$(grep -c '^== event ' "$WORK/traced.out")" 2
check_eq "two events: the recording opened once" "$opens" 1
first=$(perf evlist -i "$T" 2>/dev/null | grep -v dummy | head -n1)
read -r _ one < <(traced_bytes "$T" "$AOTPERF" report -q -i "$T" --cwasm "$S" --children \
	--event "$first")
check "two events: one event's report ($first) reads it too" \
	bash -c '[ "$1" = 0 ] && [ "$2" -gt 0 ]' _ "$(cat "$WORK/traced.rc")" "$one"
# the same passes feed both events' profiles: the bytes of one event's report
at_most "two events: no more bytes than one event's report" "$bytes" "$((one + 65536))"

O=$WORK/oc.cwasm
asm_core "$SRC/tests/fixtures/offcpu.S" "$O"
check_eq "offcpu: fixture built" "$?" 0
D=$WORK/oc.data
"$AOTPERF" record -q --off-cpu -F 2000 --cwasm "$O" -o "$D" --perf-arg -N --no-inject -- \
	"$LOADER" --wall --ms 600 --mix offcpu:1 "$O" >"$WORK/oc.out" 2>"$WORK/oc.log"
check_eq "aotperf record --off-cpu: exit 0" "$?" 0
"$AOTPERF" report -q -i "$D" --cwasm "$O" --json "$WORK/oc.json" >/dev/null
oc_passes=$(jq .passes "$WORK/oc.json")
oc_ahead=$(jq .read_ahead_bytes "$WORK/oc.json")
read -r opens bytes < <(traced_bytes "$D" "$AOTPERF" report -q -i "$D" --cwasm "$O")
check_eq "off-CPU report: exit 0" "$(cat "$WORK/traced.rc")" 0
check "off-CPU report: the off-CPU view is there" grep -qi "off-cpu" "$WORK/traced.out"
check_eq "off-CPU report: the recording opened once" "$opens" 1
at_most "off-CPU report: read once per pass, besides $oc_ahead bytes read ahead" \
	"$(reads "$((bytes - oc_ahead))" "$D")" "$oc_passes.05"

read -r opens bytes < <(traced_bytes "$G" "$AOTPERF" inject -q --direct -i "$G" --cwasm "$S" \
	-o "$WORK/direct.data" --dir "$WORK/direct.d")
check_eq "inject --direct: exit 0" "$(cat "$WORK/traced.rc")" 0
at_most "inject --direct: opens (the session, the copy's check and the copy)" "$opens" 3
at_most "inject --direct: read for the attribution's passes and the copy (and the read ahead)" \
	"$(reads "$((bytes - g_ahead))" "$G")" "$((passes + 1)).05"
finish
