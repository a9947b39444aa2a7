# Shared helpers for the end-to-end scripts: counting checks, recording the
# loader with real perf, and the independent attribution from perf script.
# Each script sources this, sets B (build dir) and ends with `finish`.
set -u
B=${1:?usage: $0 BUILD_DIR}
B=$(cd "$B" && pwd)
E2E=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
AOTPERF=$B/aotperf
LOADER=$B/tests/loader
FIX=$B/fixtures
WORK=$(mktemp -d "${TMPDIR:-/tmp}/e2e.XXXXXX")
[ -n "${KEEP:-}" ] || trap 'rm -rf "$WORK"' EXIT
. "$E2E/../perfconfig.sh"; perfconfig_use "$WORK"
npass=0 nfail=0

ok() { npass=$((npass + 1)); echo "ok: $*"; }
bad() { nfail=$((nfail + 1)); echo "FAIL: $*"; }
check() { # check DESC CMD...
	local d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}
check_eq() { # check_eq DESC GOT WANT
	if [ "$2" = "$3" ]; then ok "$1 ($2)"; else bad "$1: got '$2', want '$3'"; fi
}
finish() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}

# record OUT [perf record options...] -- loader args...
record() { record_with "" "$@"; }
# record_one_cpu: the same, perf and the run pinned to CPU 0. perf writes each
# CPU's buffer in turn, so a run that maps its code on one CPU and is sampled
# on the other can have the mapping record after every sample in the file;
# tests that cut the file after the mapping need the file in time order.
record_one_cpu() { record_with "taskset -c 0" "$@"; }
record_with() {
	local pin=$1 out=$2; shift 2
	local opts=()
	while [ $# -gt 0 ] && [ "$1" != "--" ]; do opts+=("$1"); shift; done
	shift
	# shellcheck disable=SC2086 # $pin: no word or two
	$pin perf record -q -e cpu-clock -k mono -F 2000 "${opts[@]}" -o "$out" -- "$LOADER" "$@" \
		>"$out.log" 2>&1
}

# text size of a fixture from its .syms file (last offset + size)
syms_text_size() {
	gawk 'END { printf "%d\n", strtonum($2) + $3 }' "$1"
}

# reference PERFDATA SYMS [PID]: independent per-function counts, sorted
reference() {
	local data=$1 syms=$2 pid=${3:-}
	local ts
	ts=$(syms_text_size "$syms")
	perf script -i "$data" --show-mmap-events -G -F pid,tid,time,ip,event ${pid:+--pid "$pid"} \
		2>/dev/null | gawk -v textsize="$ts" -f "$E2E/ref_attr.awk" "$syms" - | sort
}

# aotperf_counts JSON: the same lines from aotperf's JSON (single core)
aotperf_counts() {
	jq -r '"TOTAL \(.total_samples)", "CORE \(.attributed_samples)",
	       (.top_functions[] | "FUNC \(.local_func) \(.samples)")' "$1" | sort
}

# perf_counts FILE: "FUNC [core] index samples" from stock perf report's self
# counts, summed over rows of one name (with several copies of a core, each
# copy is its own DSO); mod<M>: prefixes become the core column.
perf_counts() {
	perf report -i "$1" --stdio --no-children --sort sym -n 2>/dev/null |
		gawk '$3 == "[.]" && $4 ~ /local_func_[0-9]+/ {
			name = $4; core = ""
			if (match(name, /^mod([0-9]+):/, m)) { core = m[1] " "; sub(/^mod[0-9]+:/, "", name) }
			sub(/^local_func_/, "", name); sub(/:.*/, "", name)
			n["FUNC " core name] += $2
		}
		END { for (k in n) print k " " n[k] }' | sort
}
# ours JSON / ours_cores JSON: the same lines from aotperf report --json
ours() { jq -r '.top_functions[] | "FUNC \(.local_func) \(.samples)"' "$1" | sort; }
ours_cores() {
	jq -r '.cores | to_entries[] | .key as $c | .value.top_functions[] |
	       "FUNC \($c) \(.local_func) \(.samples)"' "$1" | sort
}
same_counts() { # same_counts DESC GOT_FILE WANT_FILE
	if [ -s "$3" ] && diff -u "$3" "$2" >"$WORK/diff"; then
		ok "$1 ($(wc -l <"$2") functions)"
	else
		bad "$1"; head -20 "$WORK/diff"
	fi
}
