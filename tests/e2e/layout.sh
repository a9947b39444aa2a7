#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The layout rules hold for this tree (scripts/check-layout.sh: folders in
# tiers, no cycle between folders or between files, only cli/ and plugin/
# print), the files' uses read from this build's objects; and the checker
# finds each kind of breach in a small tree made to break every rule once.
. "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
CHECK=$ROOT/scripts/check-layout.sh

out=$(bash "$CHECK" "$B" 2>&1)
rc=$?
check_eq "this tree: exit status ($(tail -n1 <<<"$out"))" "$rc" 0
check "this tree: no folder or file cycle, nothing above its tier" \
	grep -qE ' 0 folder cycles, 0 file cycles, 0 violations$' <<<"$out"
check "this tree: the objects were read" bash -c '[ "$(ls "$1"/obj/cli/*.o | wc -l)" -gt 5 ]' _ "$B"

T=$WORK/tree
mkdir -p "$T"/{util,cwasm,perfdata,loops,profile,render,cli,newdir} "$T/build/obj/loops"
# util/ uses render/, two tiers up
printf '#include "../render/r.h"\n' >"$T/util/u.c"
# cwasm/ knows perf, and perfdata/ beside it
printf '#include <perf/event.h>\n#include "../perfdata/p.h"\n' >"$T/cwasm/c.c"
printf 'int p;\n' >"$T/perfdata/p.c"
# profile/ <-> loops/
printf '#include "../loops/l.h"\n' >"$T/profile/p.c"
printf '#include "../profile/p.h"\n' >"$T/loops/l.c"
# loops/a.c <-> loops/b.c, seen in their objects only
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$T/loops/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$T/loops/b.c"
for f in a b; do cc -c -o "$T/build/obj/loops/$f.o" "$T/loops/$f.c"; done
# render/ prints; a comment and a string that say so do not count
printf '#include <stdio.h>\nvoid r(void) { printf("x"); }\n' >"$T/render/r.c"
printf '/* printf( stdout */\nconst char *q = "stderr, puts(";\n' >"$T/render/quiet.c"
printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >"$T/cli/m.c"
printf 'int n;\n' >"$T/newdir/n.c"

bad_out=$(bash "$CHECK" -C "$T" "$T/build" 2>&1)
rc=$?
echo "$bad_out" | sed 's/^/  checker: /'
check_eq "broken tree: exit status" "$rc" 1
says() { check "broken tree: $1" grep -qE -- "$2" <<<"$bad_out"; }
says "a folder using one a tier above" '^util/ uses render/, a tier above it \(util/u\.c\)$'
says "cwasm/ including a perf header" '^cwasm/c\.c: cwasm/ includes a perf header'
says "cwasm/ using perfdata/" '^cwasm/ uses perfdata/ \(cwasm/c\.c\): cwasm/ must not know perfdata/$'
says "the folder cycle" '^folder cycle: (loops <-> profile|profile <-> loops)$'
says "the file cycle, from the objects" '^file cycle: (loops/a\.c <-> loops/b\.c|loops/b\.c <-> loops/a\.c)$'
says "printing outside cli/" '^render/r\.c:2: prints outside cli/$'
says "a folder in no tier" '^newdir/: not in '
says "the counts" ' 1 folder cycles, 1 file cycles, 7 violations$'
check "broken tree: comments and strings are not printing" \
	bash -c '! grep -q "render/quiet.c" <<<"$1"' _ "$bad_out"
check "broken tree: cli/ may print" bash -c '! grep -q "cli/m.c" <<<"$1"' _ "$bad_out"
finish
