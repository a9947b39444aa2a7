#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Derived recordings are as private as the recording they come from: perf
# writes perf.data as 0600, and the marked copy, the jitdump, the ELF
# images and perf.jit.data that aotperf writes from it keep that mode
# (and a 0640 recording gives 0640 files). Modes are read with stat(1).
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
finish
