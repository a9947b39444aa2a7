#!/usr/bin/env bash
# A new user's first contact, as the README leads them (issue 12's list):
# the build without dependencies, report's width and what its text says
# (a core mapped twice, the wrong .cwasm pinned with --base, options checked
# before any output, --json -, cores[]), manifests (ambiguous --func, cores
# outside the folder), names from files that try to drive the terminal, and
# outputs in shared folders (another user's file, a symlink, an unsafe
# --dir). Injected recordings, the inject route, jitdump without -k mono and
# the dlfilter are in symbolize_paths.sh and dlfilter.sh.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json
ROOT=$(cd "$E2E/../.." && pwd)
unset COLUMNS
esc=$(printf '\033')
no_esc() { ! grep -q "$esc" "$1"; } # no_esc FILE: not one ESC byte
over80() { awk 'length > 80' "$1" | wc -l; }

# ---- 1. the build without its dependencies: one line naming make deps ----
make -n -C "$ROOT" LIBPERF_DIR=/nonexistent >"$WORK/nodeps.out" 2>&1
check "make without libperf fails" test "$?" -ne 0
check "make without libperf says: run 'make deps'" \
	grep -q "build dependencies missing (<perf/event.h> not found): run 'make deps'" \
	"$WORK/nodeps.out"

# every command's --help fits 80 columns
wide_help=
for c in report perfmap jitdump inject record spills classify annotate doctor; do
	"$AOTPERF" "$c" --help >"$WORK/help-$c.txt"
	[ "$(over80 "$WORK/help-$c.txt")" = 0 ] || wide_help="$wide_help $c"
done
check_eq "every command's --help fits 80 columns" "${wide_help:-none wider}" "none wider"

# ---- 2. report: 80 columns, the path once, --wide, $COLUMNS ----
record "$WORK/s.data" -- --ms 800 "$S"
check_eq "sample: loader ran" "$?" 0
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --hot 2 --top 30 >"$WORK/r.txt" 2>"$WORK/r.err"
check_eq "report --hot 2: exit 0" "$?" 0
check_eq "report: every line fits 80 columns (path $(echo -n "$S" | wc -c) bytes)" \
	"$(over80 "$WORK/r.txt")" 0
check_eq "report: the core's path is printed once" "$(grep -c -F "$S" "$WORK/r.txt")" 1
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --wide >"$WORK/w.txt" 2>/dev/null
check "report --wide: the core line whole" \
	grep -qE "^core $S: 3009 functions, text [0-9]+ bytes$" "$WORK/w.txt"
COLUMNS=200 "$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" >"$WORK/c200.txt" 2>/dev/null
# line by line the same, but for a line wider than 200 columns with --wide
# (a host symbol such as the sanitized loader's libasan C++ names), cut to
# 200 ending in "..."
check "COLUMNS=200: as wide as --wide (lines over 200 cut with ...)" gawk '
	{ if ((getline c < C) <= 0) exit 1
	  if (c != $0 && !(length($0) > 200 && length(c) <= 200 && c ~ /\.\.\.$/)) exit 1 }
	END { if ((getline c < C) > 0) exit 1 }' C="$WORK/c200.txt" "$WORK/w.txt"

# ---- 3. --json - and cores[] ----
(cd "$WORK" && "$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --json - >"$WORK/j.out" 2>/dev/null)
check_eq "--json -: stdout is the JSON document" "$(jq -r .tool "$WORK/j.out")" "aotperf report"
check "--json -: no file named -" test ! -e "$WORK/-"
check_eq "--json -: one core: cores[] holds it" "$(jq '.cores | length' "$WORK/j.out")" 1
check_eq "--json -: cores[0] has the top-level keys' values" \
	"$(jq -c '.cores[0] | [.text_base, .attributed_samples, .top_functions]' "$WORK/j.out")" \
	"$(jq -c '[.text_base, .attributed_samples, .top_functions]' "$WORK/j.out")"

# ---- 4. options checked before any output ----
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --roles vmctx=rcx >"$WORK/o1.out" 2>"$WORK/o1.err"
check_eq "--roles without --func/--hot: exit 2, nothing printed" "$?:$(wc -c <"$WORK/o1.out")" "2:0"
check "--roles without --func/--hot: says why" grep -q -- "--roles needs --func or --hot" "$WORK/o1.err"
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --hot 1 --roles vmctx=zz >"$WORK/o2.out" \
	2>"$WORK/o2.err"
check_eq "--roles with a bad register: exit 2, nothing printed" "$?:$(wc -c <"$WORK/o2.out")" "2:0"

# no mapping at all kept (a pid that never ran), read twice as --hot does:
# the sanitized build must not stop on an empty sort
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$S" --hot 1 --pid 999999 >/dev/null 2>"$WORK/np.err"
check_eq "--hot with no mapping kept: exit 2 (no samples of that pid)" "$?" 2
check "--hot with no mapping kept: says so, no sanitizer report" \
	bash -c "grep -q 'no samples of the selected pid' '$WORK/np.err' &&
		 ! grep -q 'runtime error' '$WORK/np.err'"

# ---- 5. one core mapped twice: one short warning ----
record "$WORK/twice.data" -- --ms 400 --twice "$S"
"$AOTPERF" report -i "$WORK/twice.data" --cwasm "$S" >"$WORK/t.out" 2>"$WORK/t.err"
check_eq "core mapped twice: exit 0" "$?" 0
check_eq "core mapped twice: one warning line" "$(wc -l <"$WORK/t.err")" 1
check "core mapped twice: says what happened" grep -q "mapped 2 times; every copy counted" \
	"$WORK/t.err"
check "core mapped twice: short (under 80 columns besides the path)" \
	test "$(($(wc -c <"$WORK/t.err") - ${#S}))" -le 80

# ---- 6. the wrong .cwasm pinned with --base ----
base=$(jq -r .text_base_hex "$WORK/j.out")
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$FIX/comp.0.cwasm" --base "$base" \
	>"$WORK/wb.out" 2>"$WORK/wb.err"
check_eq "a smaller wrong core at --base: exit 0" "$?" 0
check "a smaller wrong core at --base: the text says it" \
	grep -q "NOT authoritative: the core's text takes 0x37000 bytes; the wrong .cwasm?" \
	"$WORK/wb.out"
check "a smaller wrong core at --base: warned" grep -q "pinned mapping is .*: not authoritative" \
	"$WORK/wb.err"
"$AOTPERF" report -i "$WORK/s.data" --cwasm "$FIX/big.cwasm" --base "$base" >"$WORK/wl.out" \
	2>"$WORK/wl.err"
check_eq "a core larger than the pinned mapping: refused (exit 2), nothing printed" \
	"$?:$(wc -c <"$WORK/wl.out")" "2:0"
check "a core larger than the pinned mapping: says the text does not fit" \
	grep -q "too small for the [0-9]* bytes of .*big.cwasm's text: not that core" "$WORK/wl.err"

# ---- 7. manifests: an ambiguous --func, cores outside the folder ----
record "$WORK/comp.data" -- --ms 500 --manifest "$M"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$M" --func 5 >"$WORK/amb.out" \
	2>"$WORK/amb.err"
check_eq "--func 5 in both cores: exit 2" "$?" 2
check "--func 5 in both cores: lists the candidates" \
	grep -q -- "--func 5: 2 functions match: mod0:5 (.*), mod1:5 (.*); name one as modM:N" \
	"$WORK/amb.err"
mkdir -p "$WORK/man"
jq --arg a "$FIX/comp.0.cwasm" --arg b "$FIX/comp.1.cwasm" \
	'.modules[0].path = $a | .modules[1].path = $b' "$M" >"$WORK/man/out.cwasm.json"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$WORK/man/out.cwasm.json" \
	>/dev/null 2>"$WORK/abs.err"
check_eq "a manifest core outside its folder: refused (exit 2)" "$?" 2
check "...and the flag that allows it is named" grep -q -- "--manifest-any-path" "$WORK/abs.err"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest-any-path \
	--manifest "$WORK/man/out.cwasm.json" >/dev/null 2>&1
check_eq "--manifest-any-path: allowed" "$?" 0

# ---- 8. names that try to drive the terminal ----
# a spill log whose function name clears the screen
printf '[aot-spill-metric] mod=0 local_func=1 name="x\033[2Jy" insts=10 spill_ld=3 spill_st=1\n' \
	>"$WORK/esc.log"
"$AOTPERF" spills "$WORK/esc.log" >"$WORK/esc.out" 2>&1
check_eq "spill log name with ESC: exit 0" "$?" 0
check "spill log name with ESC: shown sanitized" grep -q 'x_\[2Jy' "$WORK/esc.out"
check "spill log name with ESC: no ESC reaches the terminal" no_esc "$WORK/esc.out"
# a manifest path holding an escape sequence (JSON \u001b)
printf '{"version":2,"modules":[{"idx":0,"path":"a\\u001b]2;pwned\\u0007.cwasm","sha256":"%064d"}]}' 0 \
	>"$WORK/esc.cwasm.json"
"$AOTPERF" report -i "$WORK/s.data" --manifest "$WORK/esc.cwasm.json" >"$WORK/em.out" 2>&1
check_eq "manifest path with ESC: exit 2" "$?" 2
check "manifest path with ESC: the message has no ESC or BEL" \
	bash -c "! grep -q \$'[\\033\\007]' '$WORK/em.out'"
# perf annotate text whose symbol name carries an escape
sed "s/zext_heavy/zext\x1b[31mheavy/" "$E2E/../classify/annot-zext-att.txt" >"$WORK/esc-annot.txt"
"$AOTPERF" classify "$WORK/esc-annot.txt" >"$WORK/ea.out" 2>&1
check_eq "annotate text with ESC: exit 0" "$?" 0
check "annotate text with ESC: symbol shown sanitized" grep -q 'zext_\[31mheavy' "$WORK/ea.out"
check "annotate text with ESC: no ESC reaches the terminal" no_esc "$WORK/ea.out"
# a perf.data whose event name is an escape sequence (same length, patched in)
perl -pe 's/cpu-clock/\e[2Jclock/g' "$WORK/s.data" >"$WORK/esc.data"
"$AOTPERF" report -i "$WORK/esc.data" --cwasm "$S" --event nope >"$WORK/ee.out" 2>&1
check_eq "event name with ESC: --event of another name: exit 2" "$?" 2
check "event name with ESC: the list of events is shown sanitized" grep -q '_\[2Jclock' "$WORK/ee.out"
check "event name with ESC: no ESC reaches the terminal" no_esc "$WORK/ee.out"

# ---- 9. outputs in shared folders ----
"$AOTPERF" report -q -i "$WORK/s.data" --cwasm "$S" --json "$WORK/s.data" >/dev/null 2>&1
check_eq "--json naming the input: refused (exit 2)" "$?" 2
ln "$WORK/s.data" "$WORK/hard.data"
"$AOTPERF" inject -q -i "$WORK/s.data" --cwasm "$S" -o "$WORK/hard.data" >/dev/null 2>&1
check_eq "-o a hard link of the input: refused (exit 2)" "$?" 2
echo victim >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/link.json"
"$AOTPERF" report -q -i "$WORK/s.data" --cwasm "$S" --json "$WORK/link.json" >/dev/null
check "--json at a symlink: the link's target is untouched" grep -qx victim "$WORK/victim"
check "--json at a symlink: the link was replaced by the JSON" \
	bash -c "test ! -L '$WORK/link.json' && jq -e .cores '$WORK/link.json' >/dev/null"
if [ "$(id -u)" = 0 ] && chown 65534 "$WORK/victim" 2>/dev/null; then
	"$AOTPERF" report -q -i "$WORK/s.data" --cwasm "$S" --json "$WORK/victim" \
		>/dev/null 2>"$WORK/own.err"
	check_eq "--json over another user's file: refused (exit 2)" "$?" 2
	check "--json over another user's file: says whose" grep -q "belongs to another user" \
		"$WORK/own.err"
	check "--json over another user's file: left as it was" grep -qx victim "$WORK/victim"
	# a perf map another user wrote: not replaced, --force or not
	"$AOTPERF" perfmap -i "$WORK/s.data" --cwasm "$S" >"$WORK/pm.out"
	map=$(awk '/^wrote/ { print $2 }' "$WORK/pm.out")
	rm -f "$map"
	echo "0 0 theirs" >"$map"
	chown 65534 "$map"
	"$AOTPERF" perfmap -q --force -i "$WORK/s.data" --cwasm "$S" >/dev/null 2>"$WORK/pm.err"
	check_eq "perfmap --force over another user's map: refused (exit 2)" "$?" 2
	check "perfmap --force over another user's map: left as it was" grep -qx "0 0 theirs" "$map"
	check "perfmap --force over another user's map: says whose, offers no --force" \
		bash -c "grep -q 'belongs to another user' '$WORK/pm.err' && ! grep -q -- '--force' '$WORK/pm.err'"
	rm -f "$map"
	mkdir -p "$WORK/theirs"
	chown 65534 "$WORK/theirs"
	"$AOTPERF" inject -q -i "$WORK/s.data" --cwasm "$S" -o "$WORK/i1.data" --dir "$WORK/theirs" \
		>/dev/null 2>"$WORK/d1.err"
	check_eq "--dir of another user: refused (exit 2)" "$?" 2
	check_eq "--dir of another user: nothing written" "$(ls -A "$WORK/theirs")" ""
else
	echo "note: not root: another user's files not tried"
fi
mkdir -p "$WORK/open"
chmod 0777 "$WORK/open"
"$AOTPERF" inject -q -i "$WORK/s.data" --cwasm "$S" -o "$WORK/i2.data" --dir "$WORK/open" \
	>/dev/null 2>"$WORK/d2.err"
check_eq "--dir anyone may write (not sticky): refused (exit 2)" "$?" 2
check "--dir anyone may write: says so" grep -q "others may write into it" "$WORK/d2.err"
check "--dir anyone may write: no copy written" test ! -e "$WORK/i2.data"
chmod 1777 "$WORK/open"
"$AOTPERF" inject -q -i "$WORK/s.data" --cwasm "$S" -o "$WORK/i3.data" --dir "$WORK/open" \
	>/dev/null 2>&1
check_eq "--dir sticky and open (as /tmp): allowed" "$?" 0
finish
