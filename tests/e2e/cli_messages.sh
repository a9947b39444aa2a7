#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# What a newcomer's slips get: a misspelt command or option gets "did you
# mean", an option without its value says the value is missing, a count out
# of range says what is allowed, a recording given as a bare word hints -i,
# and a recording and a core given the other way round are recognised.
# Every one is one line on stderr, exit 2, nothing on stdout.
source "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
record "$WORK/perf.data" -- --ms 200 "$S"

# says DESC WANT ARGS...: exit 2, stdout empty, stderr exactly the line WANT
says() {
	local d=$1 want=$2
	shift 2
	"$AOTPERF" "$@" >"$WORK/out" 2>"$WORK/err"
	local rc=$?
	check_eq "$d: exit status" "$rc" 2
	check_eq "$d: nothing on stdout" "$(wc -c <"$WORK/out")" 0
	check_eq "$d: one line on stderr" "$(wc -l <"$WORK/err")" 1
	check_eq "$d: the line" "$(cat "$WORK/err")" "$want"
}

says "misspelt command" "aotperf: 'repot' is not a command; did you mean 'report'?" repot
says "unknown command, nothing close" "aotperf: 'frobnicate' is not a command; see 'aotperf --help'" \
	frobnicate
says "misspelt option" "aotperf report: unknown option '--cwams'; did you mean '--cwasm'?" \
	report --cwams "$S"
says "misspelt option of diff" "aotperf diff: unknown option '--adjst'; did you mean '--adjust'?" \
	diff --adjst holm -i a -- -i b
says "--hot without its value" "aotperf report: --hot: the value is missing; see --help" \
	report -i "$WORK/perf.data" --cwasm "$S" --hot
says "-i without its value" "aotperf report: -i: the value is missing; see --help" report -i
says "a value for a flag" "aotperf report: --wide takes no value ('--wide=3'); see --help" \
	report --wide=3
says "an ambiguous prefix" \
	"aotperf report: '--frame' is ambiguous (several options start with it); see --help" \
	report --frame x
says "--top -1" "aotperf report: --top: '-1' is not a count (a whole number, 0 or more)" \
	report -i "$WORK/perf.data" --cwasm "$S" --top -1
says "the recording as a bare word" \
	"aotperf report: unexpected argument '$WORK/perf.data': a recording is given with -i $WORK/perf.data" \
	report "$WORK/perf.data" --cwasm "$S"
says "the core as a bare word" \
	"aotperf report: unexpected argument '$S': a core is given with --cwasm $S" \
	report -i "$WORK/perf.data" "$S"
says "both swapped: the first file read is named" \
	"aotperf report: $WORK/perf.data: a perf recording, not a .cwasm (swapped -i and --cwasm?)" \
	report -i "$S" --cwasm "$WORK/perf.data"
says "the core given with -i" \
	"aotperf report: $S: a .cwasm, not a perf.data file (swapped -i and --cwasm?)" \
	report -i "$S" --cwasm "$S"
says "swapped: the recording given with --cwasm" \
	"aotperf report: $WORK/perf.data: a perf recording, not a .cwasm (swapped -i and --cwasm?)" \
	report --cwasm "$WORK/perf.data"
# a command that is right still runs
"$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$S" >/dev/null
check_eq "the right command line still works" "$?" 0
finish
