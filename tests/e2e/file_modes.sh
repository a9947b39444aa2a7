#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Derived recordings are as private as the recording they come from: perf
# writes perf.data as 0600, and the marked copy, the jitdump, the ELF
# images and perf.jit.data that aotperf writes from it keep that mode
# (and a 0640 recording gives 0640 files). Modes are read with stat(1).
# An output that is a device or a FIFO (/dev/null, a named pipe) is written
# in place, never replaced by a renamed file: as root that replaced the
# machine's /dev/null with a regular file once. The device here is a null
# device node of the test's own (mknod), never the real /dev/null.
source "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
umask 022	# the default that used to make every output 0644

mode() { stat -c %a "$1"; }
# modes_of LABEL WANT FILE...: every file has mode WANT
modes_of() {
	local label=$1 want=$2 f
	shift 2
	for f in "$@"; do
		check_eq "$label: $(basename "$f") mode" "$(mode "$f")" "$want"
	done
}

record "$WORK/perf.data" -- --ms 300 "$S"
check_eq "perf record writes perf.data as 0600 (what the outputs follow)" "$(mode "$WORK/perf.data")" 600

mkdir -p "$WORK/jd"
"$AOTPERF" jitdump -q -i "$WORK/perf.data" --cwasm "$S" -o "$WORK/jd/marked.data" >/dev/null
check_eq "jitdump: exit status" "$?" 0
modes_of "jitdump" 600 "$WORK/jd/marked.data" "$WORK"/jd/marked.data.d/jit-*.dump

"$AOTPERF" inject -q -i "$WORK/perf.data" --cwasm "$S" -o "$WORK/img.data" >/dev/null
check_eq "inject (ELF images): exit status" "$?" 0
modes_of "inject" 600 "$WORK/img.data" "$WORK"/img.data.d/*

"$AOTPERF" inject -q --jitdump -i "$WORK/perf.data" --cwasm "$S" -o "$WORK/jit.data" >/dev/null
check_eq "inject --jitdump: exit status" "$?" 0
modes_of "inject --jitdump" 600 "$WORK/jit.data"

chmod 640 "$WORK/perf.data"
"$AOTPERF" inject -q -i "$WORK/perf.data" --cwasm "$S" -o "$WORK/img640.data" >/dev/null
check_eq "inject of a 0640 recording: exit status" "$?" 0
modes_of "inject of a 0640 recording" 640 "$WORK/img640.data" "$WORK"/img640.data.d/*
check_eq "the input's mode is untouched" "$(mode "$WORK/perf.data")" 640

# ---- outputs that are not regular files ----
kind() { stat -c %F "$1"; }
"$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$S" --json "$WORK/ref.json" >/dev/null
mkdir -p "$WORK/dev"
if mknod "$WORK/dev/null" c 1 3 2>/dev/null; then
	for out in --json --markdown --pprof --html; do
		"$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$S" "$out" "$WORK/dev/null" >/dev/null 2>"$WORK/dev.err"
		check_eq "report $out to a null device node: exit status" "$?" 0
		check_eq "... the node is still a device" "$(kind "$WORK/dev/null")" "character special file"
	done
	"$AOTPERF" inject -q -i "$WORK/perf.data" --cwasm "$S" -o "$WORK/dev/null" >/dev/null 2>"$WORK/dev.err"
	check_eq "inject -o a device node: refused, exit 2" "$?" 2
	check "... in one line naming it" grep -qx "aotperf inject: $WORK/dev/null: is not a regular file; refusing to replace it" "$WORK/dev.err"
	check_eq "... the node is still a device" "$(kind "$WORK/dev/null")" "character special file"
	check_eq "... no temporary file left beside it" "$(ls -A "$WORK/dev")" null
else
	echo "skip: null device node: mknod is not allowed here"
fi
mkfifo "$WORK/dev/fifo"
timeout 60 cat "$WORK/dev/fifo" >"$WORK/from-fifo.json" &	# never hangs the suite
"$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$S" --json "$WORK/dev/fifo" >/dev/null
check_eq "report --json into a FIFO: exit status" "$?" 0
wait
check_eq "... the reader got the whole JSON" "$(jq -c . "$WORK/from-fifo.json")" "$(jq -c . "$WORK/ref.json")"
check_eq "... the FIFO is still a FIFO" "$(kind "$WORK/dev/fifo")" fifo
finish
