#!/usr/bin/env bash
# The docs hold together (issue 31's docs part): docs/layout.md names every
# top-level folder that holds files and no folder that does not exist, and
# the code folders' tiers as scripts/check-layout.sh has them; every
# link between README.md and docs/ (and every docs/NAME.md they mention)
# reaches a file, and a #section a heading of it; every page of docs/ is
# linked from the README or another page; README.md is a first screen and
# a map, at most 300 lines, whose first `make test` command is the one
# .ci/run runs, and whose benchmark table `make bench` can rewrite. No
# recording: the folders and the pages are the input.
#
#   tests/e2e/docs_layout.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
LAYOUT=$ROOT/docs/layout.md

# ---- the layout table against the folders ----
# top-level folders with files: the tracked ones in a git checkout, else
# every folder but the build trees and the dependency links
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git -C "$ROOT" ls-files | awk -F/ 'NF > 1 { print $1 }' | sort -u >"$WORK/have"
else
	(cd "$ROOT" && find . -mindepth 2 -type f ! -path './.git/*' ! -path './build*' \
		! -path './.deps/*' | awk -F/ '{ print $2 }' | sort -u) >"$WORK/have"
fi
# the first column's `name/` spans of the table rows
gawk -F'|' '/^\| `/ { n = split($2, w, "`")
	for (i = 2; i <= n; i += 2) if (w[i] ~ /\/$/) print substr(w[i], 1, length(w[i]) - 1) }' \
	"$LAYOUT" | sort -u >"$WORK/named"
check "docs/layout.md names folders ($(wc -l <"$WORK/named"))" test -s "$WORK/named"
missing=$(comm -23 "$WORK/have" "$WORK/named" | tr '\n' ' ')
check_eq "every top-level folder with files is in docs/layout.md" "${missing:-none missing}" \
	"none missing"
extra=$(comm -13 "$WORK/have" "$WORK/named" | tr '\n' ' ')
check_eq "docs/layout.md names no folder that does not exist" "${extra:-none extra}" "none extra"

# the tiers listed in docs/layout.md are scripts/check-layout.sh's (which
# tests/e2e/layout.sh checks the code against): one line per tier, lowest
# first, its folders sorted
gawk '/^tiers=\(/ { t = 1; next } t && /^\)/ { exit }
	t && match($0, /^[ \t]*"[^"]*"/) { s = substr($0, RSTART, RLENGTH); gsub(/[ \t"]/, " ", s)
		n = split(s, w, " "); asort(w); l = ""; for (i = 1; i <= n; i++) l = l w[i] " "; print l }' \
	"$ROOT/scripts/check-layout.sh" >"$WORK/tiers.script"
gawk '/^[0-9]+\. `/ { sub(/:.*/, ""); n = 0; delete w
	while (match($0, /`[a-z_-]+\/`/)) { w[++n] = substr($0, RSTART + 1, RLENGTH - 3); $0 = substr($0, RSTART + RLENGTH) }
	asort(w); l = ""; for (i = 1; i <= n; i++) l = l w[i] " "; print l }' "$LAYOUT" >"$WORK/tiers.doc"
check "scripts/check-layout.sh's tiers read ($(wc -l <"$WORK/tiers.script"))" \
	test "$(wc -l <"$WORK/tiers.script")" -ge 5
check_eq "docs/layout.md lists scripts/check-layout.sh's tiers" \
	"$(diff "$WORK/tiers.script" "$WORK/tiers.doc" | grep '^[<>]' | tr '\n' ';')" ""

# ---- links ----
# link_problems FILE...: "FILE: TARGET" for each Markdown link to a page or
# a #section that is not there (http(s) and mailto links are not checked),
# and for each docs/NAME.md mentioned in the text that does not exist
link_problems() {
	gawk -v root="$ROOT" '
	function slug(h) {	# a heading as GitHub anchors it
		h = tolower(h); gsub(/`/, "", h)
		gsub(/[^a-z0-9 _-]/, "", h); gsub(/ /, "-", h); return h
	}
	function anchors(path,    line, fence, s, n) {
		if (path in loaded) return
		loaded[path] = 1; fence = 0
		while ((getline line < path) > 0) {
			if (line ~ /^```/) fence = !fence
			if (fence || line !~ /^#+ /) continue
			sub(/^#+ +/, "", line); s = slug(line)
			n = seen[path, s]++
			anchor[path, n ? s "-" n : s] = 1
		}
		close(path)
	}
	function dir(p) { return p ~ /\// ? gensub(/\/[^\/]*$/, "", 1, p) : "." }
	function norm(p,    n, i, k, part, out) {	# a/b/../c -> a/c
		n = split(p, part, "/"); k = 0
		for (i = 1; i <= n; i++) {
			if (part[i] == "." || part[i] == "") continue
			if (part[i] == ".." && k > 0) { k--; continue }
			out[++k] = part[i]
		}
		p = ""; for (i = 1; i <= k; i++) p = p "/" out[i]
		return p	# the pages are given by absolute paths
	}
	FNR == 1 { fence = 0 }
	/^```/ { fence = !fence }
	{
		line = $0
		while (match(line, /\]\([^) ]+\)/)) {
			t = substr(line, RSTART + 2, RLENGTH - 3); line = substr(line, RSTART + RLENGTH)
			if (t ~ /^(https?|mailto):/) continue
			file = t; frag = ""
			if (index(t, "#")) { file = substr(t, 1, index(t, "#") - 1); frag = substr(t, index(t, "#") + 1) }
			path = file == "" ? FILENAME : norm(dir(FILENAME) "/" file)
			if ((getline x < path) < 0) { print FILENAME ": " t; continue }
			close(path)
			if (frag == "") continue
			anchors(path)
			if (!((path, frag) in anchor)) print FILENAME ": " t " (no such section)"
		}
		if (fence) next
		line = $0; gsub(/\]\([^) ]+\)/, "]", line)	# mentions outside link targets
		while (match(line, /docs\/[a-z0-9_\/-]+\.md/)) {
			m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			if ((getline x < (root "/" m)) < 0) print FILENAME ": " m " (mentioned)"
			else close(root "/" m)
		}
	}' "$@"
}
pages=("$ROOT/README.md" "$ROOT"/docs/*.md "$ROOT"/docs/commands/*.md)
link_problems "${pages[@]}" | sed "s|$ROOT/||g" >"$WORK/links"
check "every link between README.md and docs/ reaches its page and section$(
	[ -s "$WORK/links" ] && printf ':\n%s' "$(cat "$WORK/links")")" test ! -s "$WORK/links"

# the check fails on what it must catch
mkdir -p "$WORK/bad/docs"
printf '# Bad\n\n## Here\n\n[a](docs/none.md), [b](#there), [c](#here), docs/gone.md\n' \
	>"$WORK/bad/README.md"
ROOT=$WORK/bad link_problems "$WORK/bad/README.md" | sed "s|$WORK/bad/||" >"$WORK/bad.out"
check_eq "a missing page, a missing section and a mentioned page are caught (3 of 4)" \
	"$(wc -l <"$WORK/bad.out")" 3

# every page is reached from the README or another page
for p in "$ROOT"/docs/*.md "$ROOT"/docs/commands/*.md; do
	name=${p#"$ROOT"/docs/}
	grep -qF -- "$name" "$ROOT/README.md" && continue
	base=${name##*/}
	grep -lE -- "[(/]${base//./\\.}[)#]" "$ROOT"/docs/*.md "$ROOT"/docs/commands/*.md |
		grep -qvxF -- "$p" && continue
	echo "$name"
done >"$WORK/orphans"
check_eq "every page of docs/ is linked from README.md or another page" \
	"$(tr '\n' ' ' <"$WORK/orphans")" ""

# ---- the README: a first screen and a map ----
lines=$(wc -l <"$ROOT/README.md")
check "README.md is at most 300 lines ($lines)" test "$lines" -le 300
first=$(grep -m1 -oE '^ +make test[a-z-]*' "$ROOT/README.md" | sed 's/^ *//')
check_eq "the README's first make test command is 'make test'" "$first" "make test"
check ".ci/run runs the README's test command" grep -qx "$first" "$ROOT/.ci/run"
# the benchmark table: its markers once each, in the Speed section, and
# scripts/bench-table.sh (make bench) rewrites what is between them, nothing
# else, on a copy, from a results file in scripts/bench.sh's form; the
# README stays within its 300 lines with the table in
check "README.md's bench-table markers, once each, in its Speed section" \
	gawk '/^## / { sec = $0 } /^<!-- bench-table: begin -->$/ { b++; bs = sec; bl = NR }
	      /^<!-- bench-table: end -->$/ { e++; es = sec; el = NR }
	      END { exit !(b == 1 && e == 1 && el > bl && bs == "## Speed" && es == bs) }' \
	"$ROOT/README.md"
cp "$ROOT/README.md" "$WORK/readme.md"
{
	printf 'date 2026-01-02\nmachine 2 CPUs, Some CPU, Linux 6.1.0\nload 0.01 0.02 0.03\n'
	printf 'runs 5\nmode full\ncommit abc1234\n'
	for c in report-dwarf/cat children-dwarf/cat pipeline/report perf-report/report \
		offcpu/cat rss-dwarf/rss-42; do
		printf 'case %s 1.50 1.60 1.40 <= 2 yes\ndetail %s a 42 MB recording\n' "$c" "$c"
	done
	printf 'case report-small-ms 9.0 9.5 8.0 <= 10 yes\ndetail report-small-ms 1 MB\n'
} >"$WORK/results.txt"
check "scripts/bench-table.sh rewrites the README's table" \
	bash "$ROOT/scripts/bench-table.sh" "$WORK/results.txt" "$WORK/readme.md"
check_eq "the table's rows (7 cases, header and rule)" \
	"$(gawk '/^<!-- bench-table: begin -->$/ { t = 1 } /^<!-- bench-table: end -->$/ { t = 0 }
		t && /^\|/ { n++ } END { print n + 0 }' "$WORK/readme.md")" 9
check_eq "nothing outside the markers changed" \
	"$(diff <(sed '/^<!-- bench-table: begin -->$/,/^<!-- bench-table: end -->$/d' "$ROOT/README.md") \
		<(sed '/^<!-- bench-table: begin -->$/,/^<!-- bench-table: end -->$/d' "$WORK/readme.md") |
		wc -l)" 0
lines=$(wc -l <"$WORK/readme.md")
check "README.md with the table is at most 300 lines ($lines)" test "$lines" -le 300
finish
