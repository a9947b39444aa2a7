#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The progress line (util/progress.h) of the long steps on a real recording:
# reading perf.data and stock perf inject --jit (inject --jitdump) over the
# sample core's 3,009 functions, on a terminal (a pseudo-terminal from script(1)), and silent
# off a terminal and with -q. The line is cut to the terminal's width and
# cleared before the next output, so the report's lines stay whole.
source "$(dirname "$0")/lib/common.sh"
cwasm=$FIX/sample.cwasm
if ! command -v script >/dev/null 2>&1; then
	bad "script(1) is not installed (Debian: bsdutils)"
	finish
	exit
fi

# on_tty COLS OUT CMD...: CMD on a pseudo-terminal COLS wide, all it wrote into OUT
on_tty() {
	local cols=$1 out=$2
	shift 2
	script -qec "stty cols $cols; $(printf '%q ' "$@")" /dev/null >"$out" 2>&1
}
# what a terminal shows: each line's text after its last carriage return
shown() { awk '{ sub(/\r$/, ""); n = split($0, a, "\r"); print a[n] }' "$1"; }

record "$WORK/perf.data" -- --ms 800 "$cwasm"
check "recorded" [ -s "$WORK/perf.data" ]

# aotperf inject --jitdump: reading, then perf inject --jit counting the ELF files it writes
on_tty 60 "$WORK/tty.out" "$AOTPERF" inject --jitdump -i "$WORK/perf.data" --cwasm "$cwasm" \
	-o "$WORK/j1.data"
check "inject on a terminal: done" [ -s "$WORK/j1.data" ]
check "inject on a terminal: the reading phase is shown" \
	grep -aq $'\rreading perf.data ' "$WORK/tty.out"
check "inject on a terminal: perf inject --jit counts functions" \
	grep -aqE $'\rperf inject --jit +[0-9]+%  [0-9]+ of 3009 functions' "$WORK/tty.out"
check_eq "inject on a terminal: no progress frame wider than the terminal (60 columns)" \
	"$(tr '\r' '\n' <"$WORK/tty.out" | grep -aE '^(reading perf.data|perf inject --jit) ' |
	   awk 'length($0) > 59' | wc -l)" 0
check "inject on a terminal: the line is cleared before the output" \
	grep -aq $'\r *\rwrote '"$WORK/j1.data" "$WORK/tty.out"

# the same off a terminal and with -q: not a byte of it
"$AOTPERF" inject --jitdump -i "$WORK/perf.data" --cwasm "$cwasm" -o "$WORK/j2.data" \
	>"$WORK/pipe.out" 2>"$WORK/pipe.err"
check "inject off a terminal: done" [ -s "$WORK/j2.data" ]
check "inject off a terminal: no progress (no carriage return on stderr or stdout)" \
	bash -c "! grep -aq $'\r' '$WORK/pipe.err' '$WORK/pipe.out'"
on_tty 80 "$WORK/quiet.out" "$AOTPERF" inject --jitdump -q -i "$WORK/perf.data" --cwasm "$cwasm" \
	-o "$WORK/j3.data"
check "inject -q on a terminal: done" [ -s "$WORK/j3.data" ]
check "inject -q on a terminal: no progress" \
	bash -c "! grep -aqE 'reading perf.data|perf inject --jit +[0-9]' '$WORK/quiet.out'"

# report on a terminal: the progress, then the report's lines whole
on_tty 80 "$WORK/rep.tty" "$AOTPERF" report -i "$WORK/perf.data" --cwasm "$cwasm" --top 5
"$AOTPERF" report -i "$WORK/perf.data" --cwasm "$cwasm" --top 5 >"$WORK/rep.txt" 2>/dev/null
check "report on a terminal: the reading phase is shown" grep -aq $'\rreading perf.data ' "$WORK/rep.tty"
# after the cleared progress line, the terminal shows exactly the report
shown "$WORK/rep.tty" >"$WORK/rep.shown"
check "report on a terminal: it shows exactly the report" diff -q "$WORK/rep.shown" "$WORK/rep.txt"

# a narrow terminal: the line is cut, never wrapped
on_tty 30 "$WORK/narrow.tty" "$AOTPERF" report -i "$WORK/perf.data" --cwasm "$cwasm" --top 5
check_eq "30 columns: the progress frames are cut to 29" \
	"$(tr '\r' '\n' <"$WORK/narrow.tty" | grep -a '^reading perf' | awk '{ print length($0) }' | sort -u)" 29

# record: its post-processing is the same read and inject
on_tty 80 "$WORK/rec.tty" "$AOTPERF" record --jitdump -o "$WORK/r.data" \
	--jit-out "$WORK/r.jit.data" --cwasm "$cwasm" -- "$LOADER" --ms 300 "$cwasm"
check "record on a terminal: perf inject --jit's progress" \
	grep -aqE $'\rperf inject --jit +[0-9]+%' "$WORK/rec.tty"
finish
