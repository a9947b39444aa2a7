#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# --help says what a command takes and how it writes. perfmap, jitdump and
# inject share a parser: every option each one's --help lists is accepted
# by that command (the run fails on the missing recording, not on the
# option), and perfmap's lists none of the options it refuses (--dir,
# --jitdump, --arch). Every command that writes files says how, and the
# saying holds: a report's output replaces a symlink without writing
# through it, and gets the umask's mode.
. "$(dirname "$0")/lib/common.sh"
S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json
NO=$WORK/no-such-recording.data

# a value for each option that takes one (the --help's metavariable)
value_of() {
	case $1 in
	--cwasm) echo "$S" ;; --manifest) echo "$M" ;; --pid) echo 1 ;; --event) echo cpu-clock ;;
	--base) echo 0x1000 ;; --output) echo "$WORK/o.data" ;; --dir) echo "$WORK/d" ;;
	--names) echo local ;; --arch) echo x86_64 ;; --input) echo "$NO" ;;
	esac
}
for cmd in perfmap jitdump inject; do
	"$AOTPERF" $cmd --help >"$WORK/$cmd.help"
	check_eq "$cmd --help: exit 0" "$?" 0
	# option lines: "  -x, --name VALUE  text" or "      --name  text"
	opts=$(grep -oE '^  (-[a-z], )?--[a-z-]+( [A-Z]+)?' "$WORK/$cmd.help" |
		sed -E 's/^ +(-[a-z], )?//' | sort -u)
	check "$cmd --help lists options" test -n "$opts"
	while read -r opt meta; do
		args=("$opt")
		[ -n "$meta" ] && args+=("$(value_of "$opt")")
		[ "$opt" = --manifest-any-path ] && args+=(--manifest "$M")
		"$AOTPERF" $cmd -i "$NO" --cwasm "$FIX/comp.0.cwasm" -o "$WORK/o.data" "${args[@]}" \
			>/dev/null 2>"$WORK/err"
		check "$cmd takes $opt, which its --help lists ($(cat "$WORK/err"))" \
			grep -qF "$NO: No such file or directory" "$WORK/err"
	done <<<"$opts"
done
for opt in --dir --jitdump --arch; do
	check "perfmap --help does not list $opt" bash -c "! grep -qE -- '^ +$opt' '$WORK/perfmap.help'"
	a=("$opt"); [ "$opt" != --jitdump ] && a+=("$(value_of "$opt")")
	"$AOTPERF" perfmap -i "$NO" --cwasm "$S" "${a[@]}" >/dev/null 2>"$WORK/err"
	check_eq "perfmap refuses $opt: exit 2" "$?" 2
	check "perfmap refuses $opt: names it ($(cat "$WORK/err"))" grep -qF -- "$opt" "$WORK/err"
done
check "jitdump --help does not list --jitdump" bash -c "! grep -qE -- '^ +--jitdump' '$WORK/jitdump.help'"

# report --help is short, one line an option, but lists every long option
# report's code takes (its longopts table and the macros spliced into it;
# --two-pass is for the tests), and sends the rest to a page that lists them
SRC=$(cd "$E2E/../.." && pwd)
"$AOTPERF" report --help >"$WORK/report.help"
gawk -v src="$SRC/cli" '
	function names(text,    n) {
		while (match(text, /\{ *"[a-z-]+", *(no|required|optional)_argument/)) {
			n = substr(text, RSTART, RLENGTH); sub(/^\{ *"/, "", n); sub(/".*/, "", n)
			print n; text = substr(text, RSTART + RLENGTH)
		}
	}
	/longopts\[\] = \{/ { on = 1 }
	on { names($0); if (match($0, /^[ \t]*[A-Z_]+LONGOPTS?,?$/)) macro[$1] = 1 }
	on && /^[ \t]*\};/ { on = 0 }
	END {	# each macro spliced in, from its #define in cli/*.h
		for (m in macro) {
			sub(/,$/, "", m)
			cmd = "cat " src "/*.h"
			while ((cmd | getline l) > 0) {
				if (l ~ "^#define " m "( |$)") d = 1
				if (d) { names(l); if (l !~ /\\$/) d = 0 }
			}
			close(cmd)
		}
	}' "$SRC/cli/cmd-report.c" | grep -vxE 'two-pass|help' | sort -u >"$WORK/report.opts"
check "report's options read from its code ($(wc -l <"$WORK/report.opts"))" \
	test "$(wc -l <"$WORK/report.opts")" -ge 30
unlisted=$(while read -r o; do grep -qE -- "--$o([ =,[]|$)" "$WORK/report.help" || echo "--$o"; done \
	<"$WORK/report.opts" | tr '\n' ' ')
check_eq "report --help lists every option report takes" "${unlisted:-all listed}" "all listed"
check "report --help is short ($(wc -l <"$WORK/report.help") lines)" \
	test "$(wc -l <"$WORK/report.help")" -le 70
check "report --help sends the rest to docs/commands/report.md, which is there" \
	bash -c "grep -q 'docs/commands/report.md' '$WORK/report.help' &&
		 test -s '$SRC/docs/commands/report.md'"
undocumented=$(while read -r o; do grep -qE -- "--$o([^a-z-]|$)" "$SRC/docs/commands/report.md" ||
	echo "--$o"; done <"$WORK/report.opts" | tr '\n' ' ')
check_eq "docs/commands/report.md names every option report takes" \
	"${undocumented:-all named}" "all named"

# every command that writes files says how
for cmd in report spills diff compare classify annotate attr perfmap jitdump inject record; do
	"$AOTPERF" $cmd --help >"$WORK/h" 2>&1
	check "$cmd --help says outputs are renamed into place" \
		bash -c "tr '\n' ' ' <'$WORK/h' | grep -q 'renamed into place'"
	check "$cmd --help says what happens to a symlink" \
		bash -c "tr '\n' ' ' <'$WORK/h' | grep -qiE 'symlink'"
	check "$cmd --help says which permission bits" \
		bash -c "tr '\n' ' ' <'$WORK/h' | grep -qE 'permission bits'"
done
# and it holds: a symlink at a report's output is replaced, its target untouched
record "$WORK/perf.data" -- --ms 200 "$S"
echo victim >"$WORK/victim"
ln -s "$WORK/victim" "$WORK/r.json"
(umask 022 && "$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$S" --json "$WORK/r.json" >/dev/null)
check_eq "report --json: exit status" "$?" 0
check "report --json over a symlink: the link replaced by the file" \
	test ! -L "$WORK/r.json" -a -s "$WORK/r.json"
check_eq "report --json over a symlink: its target untouched" "$(cat "$WORK/victim")" victim
check_eq "report --json: the umask's mode under umask 022" "$(stat -c %a "$WORK/r.json")" 644
finish
