#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The keys of JSON documents, to hold docs/json.md against what the code
# writes (tests/e2e/docs_json.sh).
#
#   scripts/json-keys.sh paths [-m PATH]... FILE...
#       every key path of the documents, one a line, sorted and unique:
#       array elements as `[]`, the keys of a map (an object whose keys are
#       data: class names, levers, states) as `*`. -m PATH names a map by
#       the end of its path, e.g. -m classes -m hottest_loop.levers.
#   scripts/json-keys.sh missing [-m PATH]... DOC FILE...
#       the key names of the documents that DOC (a Markdown file, or `-`)
#       names nowhere in its code (a span such as `name`, `a.b[].name` or
#       `{start, end}`, or a code block): one a line, with the first
#       path that has it; nothing when every key is documented.
set -euo pipefail
usage() { echo "usage: $0 paths|missing [-m PATH]... [DOC] FILE..." >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1; shift
maps=()
while [ $# -gt 0 ] && [ "$1" = -m ]; do maps+=("$2"); shift 2; done
maps_json=$(printf '%s\n' "${maps[@]+"${maps[@]}"}" | jq -R . | jq -sc 'map(select(. != ""))')

# one normalized path per key: numbers -> [], a map's keys -> *
paths() {
	jq -r --argjson maps "$maps_json" '
		# a key is data when the object holding it is a map: the last
		# component (not an array index) ends the map'"'"'s path
		def norm: reduce .[] as $c ([];
			if ($c | type) == "number" then . + ["[]"]
			elif (length > 0 and .[-1] != "[]") and
			     ((. | map(select(. != "[]")) | join(".")) as $p
			      | any($maps[]; . as $m | $p == $m or ($p | endswith("." + $m))))
			then . + ["*"]
			else . + [$c] end);
		[paths | select(.[-1] | type == "string") | norm
		 | map(if . == "[]" then "[]" else "." + . end) | join("")
		 | gsub("\\.\\[\\]"; "[]")] | unique[]' "$@" | LC_ALL=C sort -u
}

case $mode in
paths)
	paths "$@" ;;
missing)
	[ $# -ge 2 ] || usage
	doc=$1; shift
	# the words of its code: spans (`a.b[].c`, `{start, end}`), indented
	# and fenced blocks
	spans=$(gawk '/^```/ { fence = !fence; next }
		fence || /^    / { print; next }
		{ while (match($0, /`[^`]+`/)) { print substr($0, RSTART, RLENGTH)
			$0 = substr($0, RSTART + RLENGTH) } }' "$doc" |
		grep -oE '[A-Za-z_][A-Za-z0-9_]*' | LC_ALL=C sort -u)
	paths "$@" | gawk -v spans="$spans" '
		BEGIN { n = split(spans, s, "\n"); for (i = 1; i <= n; i++) doc[s[i]] = 1 }
		{ m = split($0, part, /\.|\[\]/)
		  for (i = 1; i <= m; i++) {
			k = part[i]
			if (k == "" || k == "*" || (k in doc) || (k in seen)) continue
			seen[k] = 1; print k "\t" $0
		  } }' ;;
*)
	usage ;;
esac
