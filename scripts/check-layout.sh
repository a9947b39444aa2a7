#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layout rules (docs/layout.md): folders sit in tiers, libraries
# below and front ends on top; a folder uses only its own tier or those
# below; nothing forms a cycle, neither between folders nor between files;
# only the front ends (cli/, plugin/) print.
#
#   scripts/check-layout.sh [-C SRCDIR] [BUILD_DIR]
#
# Folder edges come from #include lines; with BUILD_DIR (a built tree),
# also from the calls between objects: file A uses file B when A's object
# needs a global symbol B's object defines (nm). Prints one line per
# violation and a last line counting them; exit status 1 when there is any
# (tests/e2e/layout.sh). SRCDIR: another tree than this one (the test's).
set -uo pipefail
src=$(dirname "$0")/..
if [ "${1:-}" = -C ]; then
	src=${2:?usage: scripts/check-layout.sh [-C SRCDIR] [BUILD_DIR]}
	shift 2
fi
build=${1:-}
[ -z "$build" ] || build=$(cd "$build" 2>/dev/null && pwd) || {
	echo "check-layout: $1: no such folder" >&2
	exit 2
}
cd "$src" || exit 2

# Lowest first. A folder not listed here is an error: place it when it is
# created. Within a tier, uses are allowed as long as they form no cycle.
tiers=(
	"util"
	"cwasm perfdata unwind"			# the input formats, libc and libperf only
	"jitdump decode frames session"		# their decoders and readers
	# analysis, no printing (spills/ joins its log with classes and samples)
	"attr classify loops compare engines profile spills symbolize"
	"view"					# one model per view
	"render"				# formats only format
	"cli plugin"				# front ends: options, printing, exit statuses
)
# Pairs in one tier that must not meet: cwasm/ knows no perf, perfdata/ no wasm.
forbidden="cwasm>perfdata perfdata>cwasm"
# Files outside the front ends that may name stdout: "-o -" writes there.
may_print="util/outfile.c"

if [ -n "$build" ] && [ ! -d "$build/obj" ]; then
	echo "check-layout: $build/obj: no such folder (build first: make all)" >&2
	exit 2
fi

declare -A tier=()
for i in "${!tiers[@]}"; do
	for d in ${tiers[$i]}; do tier[$d]=$i; done
done

folders=()
for f in */*.c; do
	d=${f%%/*}
	case $d in tests|scripts|docs|dist|kernel-tools-compat|build*) continue ;; esac
	[[ " ${folders[*]} " == *" $d "* ]] || folders+=("$d")
done

work=$(mktemp -d "${TMPDIR:-/tmp}/check-layout.XXXXXX")
trap 'rm -rf "$work"' EXIT
violations=0
fail() { echo "$*"; violations=$((violations + 1)); }

for d in "${folders[@]}"; do
	[ -n "${tier[$d]:-}" ] || fail "$d/: not in scripts/check-layout.sh's tiers (place it there)"
done

# folder edges from #include "..." lines: "FROM TO FILE"
sources=()
for d in "${folders[@]}"; do sources+=("$d"/*.[ch]); done
awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*"[^"]*"/) {
	inc = substr($0, RSTART, RLENGTH); sub(/^[^"]*"/, "", inc); sub(/"$/, "", inc)
	sub(/^\.\.\//, "", inc); split(FILENAME, a, "/"); split(inc, b, "/")
	if (b[2] != "" && b[1] != a[1]) print a[1], b[1], FILENAME
}' "${sources[@]}" >"$work/inc-edges"

# cwasm/ knows no perf: no perf headers at all
for f in cwasm/*.[ch]; do
	grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(perf/|linux/perf_event\.h)' "$f" &&
		fail "$f: cwasm/ includes a perf header (cwasm/ knows no perf)"
done

# file edges from the objects: "FROMFILE TOFILE"
: >"$work/file-edges"
if [ -n "$build" ]; then
	objs=()
	for d in "${folders[@]}"; do
		case $d in plugin) dir=$build/dlf/plugin ;; *) dir=$build/obj/$d ;; esac
		for o in "$dir"/*.o; do [ -f "$o" ] && objs+=("$o"); done
	done
	# "path/to/build/obj/DIR/NAME.o:ADDR T SYM" -> "D SYM DIR/NAME.c"
	{ nm -A -g --defined-only "${objs[@]}" | sed 's/^/D /'; nm -A -u "${objs[@]}" | sed 's/^/U /'; } |
	awk '{
		split($2, f, ":"); src = f[1]; sub(/\.o$/, ".c", src)
		n = split(src, p, "/"); src = p[n - 1] "/" p[n]
		print $1, $NF, src
	}' >"$work/syms"
	awk 'BEGIN { n = 0 }
	     $1 == "D" { def[$2] = $3 }
	     $1 == "U" { use[n] = $2; from[n] = $3; n++ }
	     END { for (i = 0; i < n; i++) if (use[i] in def && def[use[i]] != from[i]) print from[i], def[use[i]] }' \
		"$work/syms" | sort -u >"$work/file-edges"
	awk '{ split($1, a, "/"); split($2, b, "/"); if (a[1] != b[1]) print a[1], b[1], $1 " -> " $2 }' \
		"$work/file-edges" >>"$work/inc-edges"
fi

# a folder uses none above it, nor a forbidden neighbour
while read -r from to where; do
	[ -n "${tier[$from]:-}" ] && [ -n "${tier[$to]:-}" ] || continue
	if [ "${tier[$to]}" -gt "${tier[$from]}" ]; then
		fail "$from/ uses $to/, a tier above it ($where)"
	elif [[ " $forbidden " == *" $from>$to "* ]]; then
		fail "$from/ uses $to/ ($where): $from/ must not know $to/"
	fi
done < <(sort -u -k1,2 "$work/inc-edges")

# cycles: the strongly connected components of more than one node (Tarjan)
scc='
function visit(v,   i, w) {
	index_[v] = low[v] = ++counter; stack[++sp] = v; on[v] = 1
	for (i = 1; i <= nout[v]; i++) {
		w = out[v, i]
		if (!(w in index_)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
		else if (on[w] && index_[w] < low[v]) low[v] = index_[w]
	}
	if (low[v] == index_[v]) {
		comp = ""; size = 0
		do { w = stack[sp--]; on[w] = 0; comp = w " " comp; size++ } while (w != v)
		if (size > 1) { sub(/ $/, "", comp); print comp }
	}
}
$1 != $2 && !(($1, $2) in seen) { seen[$1, $2] = 1; out[$1, ++nout[$1]] = $2; node[$1]; node[$2] }
END { for (v in node) if (!(v in index_)) visit(v) }'
while read -r c; do
	fail "folder cycle: ${c// / <-> }"
done < <(awk '{ print $1, $2 }' "$work/inc-edges" | awk "$scc" | sort)
while read -r c; do
	fail "file cycle: ${c// / <-> }"
done < <(awk "$scc" "$work/file-edges" | sort)

# only the front ends print: no stdout, stderr, printf, puts elsewhere
# (comments and string literals left out)
quiet=()
for f in "${sources[@]}"; do
	case $f in cli/*|plugin/*) continue ;; esac
	[[ " $may_print " == *" $f "* ]] || quiet+=("$f")
done
awk '
FNR == 1 { incomment = 0 }
{
	line = $0; out = ""
	while (line != "") {
		if (incomment) {
			e = index(line, "*/"); if (!e) { line = ""; break }
			line = substr(line, e + 2); incomment = 0; continue
		}
		if (match(line, /\/\*|\/\/|"([^"\\]|\\.)*"/)) {
			out = out substr(line, 1, RSTART - 1) " "
			tok = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
			if (tok == "//") line = ""
			else if (tok == "/*") incomment = 1
		} else { out = out line; line = "" }
	}
	if (out ~ /(^|[^A-Za-z0-9_])(stdout|stderr)([^A-Za-z0-9_]|$)/ ||
	    out ~ /(^|[^A-Za-z0-9_])(printf|puts|putchar|perror|vprintf)[ \t]*\(/)
		printf "%s:%d: prints outside cli/\n", FILENAME, FNR
}' "${quiet[@]}" >"$work/prints"
while read -r l; do fail "$l"; done <"$work/prints"

folder_cycles=$(awk '{ print $1, $2 }' "$work/inc-edges" | awk "$scc" | wc -l)
file_cycles=$(awk "$scc" "$work/file-edges" | wc -l)
echo "layout: ${#folders[@]} folders, $folder_cycles folder cycles," \
	"$([ -n "$build" ] && echo "$file_cycles file cycles" || echo "file cycles not checked (no BUILD_DIR)")," \
	"$violations violations"
[ "$violations" -eq 0 ]
