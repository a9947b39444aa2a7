#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exports (render/) on a real recording and on generated documents:
#
#  * a real perf record of the sample core; the data document = aotperf
#    report --json + what tests/browser/htmldoc adds from perf script's
#    sample addresses (every function, listings of the 3 hottest), its
#    per-function counts checked against aotperf's;
#  * the HTML page of that document and of a generated 20,000-function
#    document with stacks and a diff, loaded in headless Chromium
#    (tests/browser/check.js): rows, flame graph, listing, filter, no
#    console errors, no network; screenshots saved and printed;
#  * a pprof profile of the same samples, decoded by protoc, adding up to
#    perf script's counts per function.
#
# Browser checks need chromium and tests/browser/setup.sh; without them they
# are skipped with a message, except where AOTPERF_REQUIRE_BROWSER or CI is
# set (.ci/run sets the first), where that fails.
# Screenshots go to $ARTIFACTS (default BUILD/tests/artifacts).
source "$(dirname "$0")/../e2e/lib/common.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
HTMLDOC=$B/tests/htmldoc
ART=${ARTIFACTS:-$B/tests/artifacts}
mkdir -p "$ART"
cwasm=$FIX/sample.cwasm

# ---- a real recording and its data document ----
record "$WORK/perf.data" -- --ms 1500 "$cwasm"
"$AOTPERF" report -q -i "$WORK/perf.data" --cwasm "$cwasm" --hot 3 --top 100000 \
	--json "$WORK/report.json" >/dev/null
perf script -G -i "$WORK/perf.data" -F ip 2>/dev/null >"$WORK/ips.txt"
core=$(jq -r .core "$WORK/report.json")
base=$(jq -r .text_base_hex "$WORK/report.json")
check_eq "perf script has every sample aotperf counts" "$(grep -c . "$WORK/ips.txt")" \
	"$(jq .total_samples "$WORK/report.json")"

"$HTMLDOC" extras --cwasm "$cwasm" --core "$core" --base "$base" --ips "$WORK/ips.txt" \
	--hot 3 -o "$WORK/extras.json" --counts "$WORK/counts.txt"
grep '^FUNC' "$WORK/counts.txt" | sort >"$WORK/ref.txt"
ours "$WORK/report.json" >"$WORK/ours.txt"
same_counts "document functions[] = aotperf's per-function samples" "$WORK/ours.txt" "$WORK/ref.txt"
check_eq "document lists every function" "$(jq '.functions | length' "$WORK/extras.json")" \
	"$(jq .function_count "$WORK/report.json")"
for f in $(jq '.listings[].local_func' "$WORK/extras.json"); do
	check_eq "listing local_func_$f adds up to report --hot's samples" \
		"$(jq --argjson f "$f" '.listings[] | select(.local_func == $f) | [.insns[].samples] | add' "$WORK/extras.json")" \
		"$(jq --argjson f "$f" '.classified_functions[] | select(.local_func == $f) | .samples' "$WORK/report.json")"
done
check_eq "the br_table function's jump table is a data range" \
	"$(jq '[.listings[] | select(.name == "br_table_dispatch") | .data_ranges[]] | length > 0' \
	"$WORK/extras.json")" true

jq -s '.[0] * .[1]' "$WORK/report.json" "$WORK/extras.json" >"$WORK/doc.json"
"$HTMLDOC" page "$WORK/doc.json" "$WORK/report.html"
size=$(stat -c %s "$WORK/report.html")
echo "note: HTML report of the $(jq .function_count "$WORK/report.json")-function sample core:" \
	"$size bytes ($(stat -c %s "$WORK/doc.json") bytes of document before minifying)"
check "report page stays small (< 300 KB)" [ "$size" -lt 300000 ]

# a bad document: exit 2, one line naming the output, nothing written
printf '{"functions": [1, 2}\n' >"$WORK/bad.json"
"$HTMLDOC" page "$WORK/bad.json" "$WORK/bad.html" 2>"$WORK/bad.err"
check_eq "bad document: exit 2" "$?" 2
check "bad document: the message names the file and the byte" \
	grep -q "bad.html: data document, byte 19: mismatched '}'" "$WORK/bad.err"
check "bad document: no page, no temporary file" \
	bash -c "! ls '$WORK' | grep -q '^bad.html'"

# a two-core manifest: report --json's cores[], each core's functions[] and listings
man=$FIX/comp.cwasm.json
record "$WORK/comp.data" -- --ms 1000 --manifest "$man"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$man" --hot 4 --top 100000 \
	--json "$WORK/comp.json" >/dev/null
perf script -G -i "$WORK/comp.data" -F ip 2>/dev/null >"$WORK/comp.ips"
for i in 0 1; do
	"$HTMLDOC" extras --cwasm "$FIX/comp.$i.cwasm" --core "$(jq -r ".cores[$i].core" "$WORK/comp.json")" \
		--base "$(jq -r ".cores[$i].text_base_hex" "$WORK/comp.json")" --ips "$WORK/comp.ips" --hot 2 \
		-o "$WORK/comp.e$i.json"
done
jq --slurpfile a "$WORK/comp.e0.json" --slurpfile b "$WORK/comp.e1.json" \
	'.cores[0] += ($a[0] | {functions, target}) | .cores[1] += ($b[0] | {functions, target})
	 | .listings = $a[0].listings + $b[0].listings' "$WORK/comp.json" >"$WORK/comp.doc.json"
"$HTMLDOC" page "$WORK/comp.doc.json" "$WORK/comp.html"

# generated: 20,000 functions, stacks and a diff
"$HTMLDOC" gen "$WORK/gen.html" --functions 20000 --stacks --diff --doc "$WORK/gen.json"
echo "note: generated 20,000-function page: $(stat -c %s "$WORK/gen.html") bytes"

# ---- in the browser ----
browser_check() { # browser_check NAME PAGE DOC [check.js options]
	local name=$1 page=$2 doc=$3 line
	shift 3
	(cd "$ROOT/tests/browser" && node check.js --page "$page" --doc "$doc" \
		--shot "$ART/$name.png" "$@") >"$WORK/$name.check" 2>&1
	echo "browser: $name (exit $?)"
	while IFS= read -r line; do
		case $line in
		ok:*) ok "$name: ${line#ok: }" ;;
		FAIL:*) bad "$name: ${line#FAIL: }" ;;
		shot:*) echo "screenshot: ${line#shot: }" ;;
		*) echo "  $line" ;;
		esac
	done <"$WORK/$name.check"
	grep -q '^shot:' "$WORK/$name.check" || bad "$name: no screenshot"
}
why=
command -v chromium >/dev/null 2>&1 || why="chromium is not installed"
[ -n "$why" ] || command -v node >/dev/null 2>&1 || why="node is not installed"
[ -n "$why" ] || [ -d "$ROOT/tests/browser/node_modules/playwright-core" ] ||
	why="playwright-core is not installed (bash tests/browser/setup.sh)"
if [ -z "$why" ]; then
	"$HTMLDOC" page "$WORK/report.json" "$WORK/report-json.html"
	browser_check report-json "$WORK/report-json.html" "$WORK/report.json"
	browser_check report "$WORK/report.html" "$WORK/doc.json"
	browser_check manifest "$WORK/comp.html" "$WORK/comp.doc.json"
	browser_check generated "$WORK/gen.html" "$WORK/gen.json" --filter local_func_1234
elif [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
	bad "browser checks are required here but cannot run: $why"
else
	echo "skip: browser checks: $why"
fi

# ---- pprof of the same samples ----
period=$(perf script -G -i "$WORK/perf.data" -F period 2>/dev/null | awk 'NR == 1 { print $1 }')
"$HTMLDOC" pprof --cwasm "$cwasm" --core "$core" --base "$base" --ips "$WORK/ips.txt" \
	--period "$period" -o "$WORK/prof.pb.gz"
check "pprof is gzip" gzip -t "$WORK/prof.pb.gz"
if command -v protoc >/dev/null 2>&1; then
	gzip -dc "$WORK/prof.pb.gz" | protoc --decode=perftools.profiles.Profile \
		--proto_path="$ROOT/render" "$ROOT/render/pprof.proto" >"$WORK/prof.txt"
	check_eq "protoc decodes the profile" "$?" 0
	# per-function sums from the decoded message: sample -> location -> function -> name
	gawk -v period="$period" '
		/^sample \{/ { blk = "s"; nv = 0; loc = ""; next }
		/^location \{/ { blk = "l"; next }
		/^function \{/ { blk = "f"; next }
		/^\}/ {
			if (blk == "s") { ns++; sl[ns] = loc; sv[ns] = v0; if (v1 != v0 * period) badv++; t0 += v0 }
			blk = ""; next
		}
		blk == "s" && $1 == "location_id:" { loc = $2 }
		blk == "s" && $1 == "value:" { if (nv++ == 0) v0 = $2; else v1 = $2 }
		blk == "l" && $1 == "id:" { lid = $2 }
		blk == "l" && $1 == "function_id:" { lf[lid] = $2 }
		blk == "f" && $1 == "id:" { fid = $2 }
		blk == "f" && $1 == "system_name:" { fs[fid] = $2 }
		/^string_table:/ { s = $0; sub(/^string_table: "/, "", s); sub(/"$/, "", s); str[nstr++] = s }
		END {
			print "TOTAL " t0
			print "BADVALUES " badv + 0
			print "EMPTY0 " (str[0] == "" ? 1 : 0)
			for (i = 1; i <= ns; i++) {
				name = str[fs[lf[sl[i]]]]
				if (name ~ /^local_func_[0-9]+$/) { sub(/^local_func_/, "", name); n[name] += sv[i] }
			}
			for (k in n) print "FUNC " k " " n[k]
		}' "$WORK/prof.txt" >"$WORK/prof.sum"
	check_eq "pprof samples add up to perf script's" "$(awk '$1 == "TOTAL" { print $2 }' "$WORK/prof.sum")" \
		"$(grep -c . "$WORK/ips.txt")"
	check_eq "pprof cpu nanoseconds = samples x period" "$(awk '$1 == "BADVALUES" { print $2 }' "$WORK/prof.sum")" 0
	check_eq "pprof string_table[0] is empty" "$(awk '$1 == "EMPTY0" { print $2 }' "$WORK/prof.sum")" 1
	grep '^FUNC' "$WORK/prof.sum" | sort >"$WORK/prof.funcs"
	same_counts "pprof per-function samples = perf script's" "$WORK/prof.funcs" "$WORK/ref.txt"
	check "pprof names wasm functions local_func_N:wasm_name" \
		grep -q '^string_table: "local_func_[0-9]*:bounds_checked_mem"' "$WORK/prof.txt"
else
	bad "protoc is not installed (scripts/test-deps.sh installs protobuf-compiler)"
fi
echo "note: go tool pprof is not installed here; profiles were checked with protoc only"
finish
