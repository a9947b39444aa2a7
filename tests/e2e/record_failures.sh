#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# aotperf record when it writes no symbolized copy: a program that cannot
# start is said to be one (exit 2, nothing recorded, nothing touched), and a
# run that fails later, or --no-inject, leaves no symbolized copy of an
# earlier run beside the new recording: the old copy is renamed X.old (it
# goes with perf's own perf.data.old) and the rename is said.
. "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
cd "$WORK" || exit 1
sha() { sha256sum <"$1" | cut -c1-64; }

# a good run: r.data and r.jit.data
"$AOTPERF" record -q -e cpu-clock --cwasm "$S" -o r.data -- "$LOADER" --ms 300 "$S" >/dev/null 2>&1
check_eq "a good run: exit status" "$?" 0
check "a good run: r.jit.data written" test -s r.jit.data
data1=$(sha r.data) jit1=$(sha r.jit.data)

# the program does not start: said, exit 2, nothing recorded or moved
cant_start() { # cant_start DESC WANT CMD...
	local d=$1 want=$2; shift 2
	"$AOTPERF" record -e cpu-clock --cwasm "$S" -o r.data -- "$@" >out 2>err
	check_eq "$d: exit 2" "$?" 2
	check_eq "$d: the one line" "$(cat err)" "$want"
	check_eq "$d: nothing on stdout" "$(wc -c <out)" 0
	check "$d: r.data and r.jit.data untouched, no r.data.old" \
		test "$(sha r.data)" = "$data1" -a "$(sha r.jit.data)" = "$jit1" -a ! -e r.data.old
}
cant_start "a path that does not exist" \
	"aotperf record: $WORK/nonexistent: the program did not start: No such file or directory; nothing recorded" \
	"$WORK/nonexistent"
cant_start "a name not on PATH" \
	"aotperf record: no-such-program-x: the program did not start: not found on PATH; nothing recorded" \
	no-such-program-x
touch notexec
cant_start "a file that is not executable" \
	"aotperf record: ./notexec: the program did not start: not executable; nothing recorded" ./notexec

# the program runs but maps no core of that size (another core): the
# recording is new, the copy is not
"$AOTPERF" record -e cpu-clock --cwasm "$S" -o r.data -- "$LOADER" --ms 200 "$FIX/comp.0.cwasm" \
	>out 2>err
rc=$?
check "a run that maps no core: fails (exit $rc)" test "$rc" -ne 0
check "a run that maps no core: no r.jit.data beside the new r.data" test ! -e r.jit.data
check_eq "a run that maps no core: the earlier copy is r.jit.data.old" "$(sha r.jit.data.old)" "$jit1"
check_eq "... beside the earlier recording, perf's r.data.old" "$(sha r.data.old)" "$data1"
check "a run that maps no core: says so" \
	grep -qxF "aotperf record: r.jit.data was symbolized from an earlier run: moved to r.jit.data.old" err

# --no-inject writes no copy either
"$AOTPERF" record -q -e cpu-clock --cwasm "$S" -o n.data -- "$LOADER" --ms 300 "$S" >/dev/null 2>&1
jitn=$(sha n.jit.data)
"$AOTPERF" record --no-inject -e cpu-clock --cwasm "$S" -o n.data -- "$LOADER" --ms 300 "$S" \
	>out 2>err
check_eq "--no-inject: exit status" "$?" 0
check "--no-inject: no r.jit.data of the earlier run beside the new n.data" test ! -e n.jit.data
check_eq "--no-inject: the earlier copy is n.jit.data.old" "$(sha n.jit.data.old)" "$jitn"
check "--no-inject: says so" grep -q "n.jit.data was symbolized from an earlier run: moved to n.jit.data.old" err
finish
