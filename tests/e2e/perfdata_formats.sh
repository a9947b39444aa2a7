#!/bin/bash
# SPDX-License-Identifier: MIT
#
# perfdata reader against real perf recordings: plain, -g, dwarf, two events,
# -z, pipe mode (file, stdin redirect, real pipe), a file cut with head -c and
# one whose perf was killed. For each, record counts per type, sample counts
# per event and the MMAP2/COMM/SAMPLE totals must equal perf's own
# (perf script -D, perf script -F event, perf report --stats).
#
# Then, on real recordings of the test loader: callchains, user registers and
# user stacks (-g, --call-graph=dwarf) equal perf script -D's reading of the
# same samples, and --event selects an event of a pipe-mode recording stored
# in a file (counts equal perf script's).
#
# usage: tests/e2e/perfdata_formats.sh BUILD_DIR   (needs BUILD_DIR/tests/test_perfdata,
#        BUILD_DIR/tests/loader, BUILD_DIR/fixtures, BUILD_DIR/aotperf)
. "$(dirname "$0")/lib/common.sh"
T=$B/tests/test_perfdata
W=$WORK

skip() { echo "SKIP $*"; }

if [ ! -x "$T" ]; then
	bad "missing $T (build it first)"
	finish
	exit
fi
if ! command -v perf >/dev/null; then
	skip "perf not installed"
	finish
	exit
fi

cat > "$W/busy.c" <<'EOF'
#include <stdlib.h>
#include <time.h>
static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
int main(int argc, char **argv)
{
	double d = argc > 1 ? atof(argv[1]) : 0.3, s = now();
	volatile unsigned long x = 0;
	while (now() - s < d)
		for (int i = 0; i < 10000; i++)
			x += i * i;
	return 0;
}
EOF
if ! cc -O1 -g -o "$W/busy" "$W/busy.c"; then
	bad "cannot compile the busy loop"
	finish
	exit
fi
if ! perf record -q -e cpu-clock -o "$W/probe.data" true >/dev/null 2>&1; then
	skip "perf record -e cpu-clock does not work here"
	finish
	exit
fi

REC="perf record -q -e cpu-clock -k mono"

# --- what we see -----------------------------------------------------------

# ours_types COUNT_OUTPUT: "TYPE COUNT" lines
ours_types()  { awk '$1 == "type" { print $2, $3 }' "$1" | sort -n; }
ours_events() { awk '$1 == "event" { print $2, $3 }' "$1" | sort; }
ours_field()  { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
ours_type()   { awk -v t="$2" '$1 == "type" && $2 == t { n = $3 } END { print n + 0 }' "$1"; }

# --- what perf sees ----------------------------------------------------------

# perf_types FILE [END]: per-type counts from perf script -D; with END only
# records that end at or before file offset END. Reads stdin for FILE "-".
perf_types() {
	local f=$1 end=${2:-}
	perf script -D -i "$f" 2>/dev/null | awk -v end="$end" '
	function hex(s,   i, c, v) {
		v = 0
		sub(/^0x/, "", s)
		for (i = 1; i <= length(s); i++) {
			c = index("0123456789abcdef", substr(s, i, 1)) - 1
			v = v * 16 + c
		}
		return v
	}
	/^(0x[0-9a-f]+|0)@[^ ]* \[0x[0-9a-f]+\]: event: [0-9]+$/ {
		split($1, a, "@")
		sz = $2
		gsub(/[\[\]:]/, "", sz)
		if (end == "" || hex(a[1]) + hex(sz) <= end + 0)
			c[$NF]++
	}
	END { for (t in c) print t, c[t] }' | sort -n
}

perf_events() {
	perf script -F event -i "$1" 2>/dev/null |
		awk 'NF { sub(/:$/, "", $1); c[$1]++ } END { for (e in c) print e, c[e] }' | sort
}

# perf_stat FILE NAME: "NAME events: N" from perf report --stats
perf_stat() {
	perf report --stats -i "$1" 2>/dev/null |
		awk -v k="$2" '$1 == k && $2 == "events:" { print $3; exit }'
}

# --- checks ----------------------------------------------------------------

same() { # same LABEL OURS THEIRS
	if [ -n "$2" ] && [ "$2" = "$3" ]; then
		ok "$1"
	else
		bad "$1"
		diff <(echo "$2") <(echo "$3") | sed 's/^/    /' | head -20
	fi
}

# count LABEL OUTFILE ARGS...: run our reader, fail the case if it fails
count() {
	local label=$1 out=$2
	shift 2
	if "$T" --count "$@" > "$out" 2> "$out.err"; then
		return 0
	fi
	bad "$label: reader failed: $(cat "$out.err")"
	return 1
}

# check_full LABEL FILE: a complete recording, compared every way
check_full() {
	local label=$1 f=$2 o="$W/$1.count" n
	count "$label" "$o" "$f" || return
	same "$label: records per type (perf script -D)" "$(ours_types "$o")" "$(perf_types "$f")"
	same "$label: samples per event (perf script -F event)" "$(ours_events "$o")" "$(perf_events "$f")"
	for n in SAMPLE:9 MMAP2:10 COMM:3; do
		same "$label: ${n%:*} count (perf report --stats)" \
			"$(ours_type "$o" "${n#*:}")" "$(perf_stat "$f" "${n%:*}")"
	done
	same "$label: not truncated, no malformed samples" \
		"$(ours_field "$o" truncated) $(ours_field "$o" malformed)" "0 0"
}

# 1. plain, -g, dwarf, two events
$REC -o "$W/plain.data" "$W/busy" 0.3 && check_full plain "$W/plain.data"
$REC -g -o "$W/g.data" "$W/busy" 0.3 && check_full callgraph-fp "$W/g.data"
$REC --call-graph=dwarf -o "$W/dwarf.data" "$W/busy" 0.3 && check_full callgraph-dwarf "$W/dwarf.data"
perf record -q -e cpu-clock,task-clock -k mono -o "$W/two.data" "$W/busy" 0.3 &&
	check_full two-events "$W/two.data"

# 2. -z: needs perf built with zstd
if perf version --build-options 2>/dev/null | grep -Eq 'zstd: *\[ on'; then
	if $REC -z -o "$W/z.data" "$W/busy" 0.3 >/dev/null 2>&1; then
		check_full compressed "$W/z.data"
		if "$T" --count-raw "$W/z.data" > "$W/zraw.count" 2>&1; then
			same "compressed: COMPRESSED records, raw mode (perf report --stats)" \
				"$(ours_type "$W/zraw.count" 81)" "$(perf_stat "$W/z.data" COMPRESSED)"
		else
			bad "compressed: raw mode failed: $(cat "$W/zraw.count")"
		fi
		$REC -z --call-graph=dwarf -o "$W/zdwarf.data" "$W/busy" 0.3 >/dev/null 2>&1 &&
			check_full compressed-dwarf "$W/zdwarf.data"
	else
		bad "perf record -z failed although perf has zstd"
	fi
else
	skip "compressed: perf built without zstd"
fi

# 3. pipe mode: stored in a file, redirected stdin, a real pipe
$REC -o - "$W/busy" 0.3 > "$W/pipe.data" 2>/dev/null
check_full pipe-file "$W/pipe.data"
if count pipe-stdin "$W/pstdin.count" - < "$W/pipe.data"; then
	same "pipe-stdin: records per type" "$(ours_types "$W/pstdin.count")" \
		"$(perf_types - < "$W/pipe.data")"
	same "pipe-stdin: samples per event" "$(ours_events "$W/pstdin.count")" \
		"$(perf_events "$W/pipe.data")"
fi
if cat "$W/pipe.data" | "$T" --count - > "$W/ppipe.count" 2>&1; then
	same "pipe-cat: records per type" "$(ours_types "$W/ppipe.count")" \
		"$(perf_types "$W/pipe.data")"
else
	bad "pipe-cat: reader failed: $(cat "$W/ppipe.count")"
fi
# perf writing straight into our reader
if $REC -o - "$W/busy" 0.3 2>/dev/null | "$T" --count - > "$W/plive.count" 2>&1 &&
   [ "$(ours_type "$W/plive.count" 9)" -gt 0 ] &&
   [ "$(ours_field "$W/plive.count" truncated)" = 0 ]; then
	ok "pipe-live: perf record -o - | reader"
else
	bad "pipe-live: $(cat "$W/plive.count")"
fi

# 4. a file cut in the middle of its data section
doff=$(od -An -tu8 -j40 -N8 "$W/g.data" | tr -d ' ')
size=$(stat -c %s "$W/g.data")
cut=$(( doff + (size - doff) / 2 + 3 ))
head -c "$cut" "$W/g.data" > "$W/cut.data"
if count cut "$W/cut.count" "$W/cut.data"; then
	same "cut: records per type (perf script -D of the whole file, up to the cut)" \
		"$(ours_types "$W/cut.count")" "$(perf_types "$W/g.data" "$cut")"
	same "cut: samples per event" "$(ours_events "$W/cut.count")" \
		"cpu-clock $(perf_types "$W/g.data" "$cut" | awk '$1 == 9 { print $2 }')"
	set -- $(awk '$1 == "truncated" { print $2, $3, $4 }' "$W/cut.count")
	if [ "$1" = 1 ] && [ "$2" -le $((cut - doff)) ] && [ "$2" -gt $((cut - doff - 65536)) ]; then
		ok "cut: truncated reported ($2 of $3 bytes)"
	else
		bad "cut: truncated not reported right: $*"
	fi
fi

# 5. perf killed: data.size stays 0. perf reads such a file only once the
# header is fixed up, so compare with a copy whose data.size says how many
# bytes of whole records we read.
le64() {
	local v=$1 i s=""
	for i in 0 1 2 3 4 5 6 7; do
		s="$s\\x$(printf %02x $(( (v >> (8 * i)) & 255 )))"
	done
	printf "$s"
}
$REC -m 2 -o "$W/killed.data" "$W/busy" 1.5 >/dev/null 2>&1 &
kpid=$!
sleep 1
kill -9 "$kpid" 2>/dev/null
wait "$kpid" 2>/dev/null
sleep 0.6	# let the orphaned busy loop finish
if [ -s "$W/killed.data" ] && count killed "$W/killed.count" "$W/killed.data"; then
	set -- $(awk '$1 == "truncated" { print $2, $3, $4 }' "$W/killed.count")
	if [ "$1" = 1 ] && [ "$2" -gt 0 ] && [ "$2" -le "$3" ] && [ "$2" -gt $(( $3 - 65536 )) ]; then
		ok "killed: truncated reported ($2 of $3 bytes)"
	else
		bad "killed: truncated not reported right: $*"
	fi
	cp "$W/killed.data" "$W/fixed.data"
	le64 "$2" | dd of="$W/fixed.data" bs=1 seek=48 conv=notrunc status=none
	head -c 32 /dev/zero | dd of="$W/fixed.data" bs=1 seek=72 conv=notrunc status=none
	same "killed: records per type (perf on the fixed-up copy)" \
		"$(ours_types "$W/killed.count")" "$(perf_types "$W/fixed.data")"
	same "killed: samples per event (perf on the fixed-up copy)" \
		"$(ours_events "$W/killed.count")" "$(perf_events "$W/fixed.data")"
else
	bad "killed: no recording or reader failed"
fi

# Not a test: how fast the raw walk goes on the dwarf recording.
if [ -s "$W/dwarf.data" ]; then
	echo "INFO raw walk: $("$T" --walk "$W/dwarf.data")"
fi

# --- the test loader: callchains, user regs and stacks, --event on a pipe ----

# perf_chains FILE: perf script -D's samples in the form of test_perfdata --chains
perf_chains() {
	perf script -D -i "$1" 2>/dev/null | gawk '
	match($0, /^[0-9]* ?(0x[0-9a-f]+) \[0x[0-9a-f]+\]: PERF_RECORD_SAMPLE\(IP, (0x[0-9a-f]+)\): [0-9-]+\/[0-9-]+: (0x[0-9a-f]+|0) /, m) {
		flush(); printf "@%s misc %s ip %s\n", m[1], m[2], m[3]; next
	}
	/^\.\.\. FP chain: nr:/ { flush(); line = "chain " substr($4, 4); next }
	/^\.\.\.\.\. +[0-9]+: [0-9a-f]+$/ { line = line " " $3; next }
	/^\.\.\. user regs: mask / { flush(); line = "regs " $5 " " $7; next }
	/^\.\.\.\. [A-Z0-9]+ +0x[0-9a-f]+$/ { line = line " " $3; next }
	/^\.\.\. ustack: size / { flush(); sub(/,$/, "", $4); print "ustack " $4 " " $6; next }
	{ flush() }
	function flush() { if (line != "") print line; line = "" }
	END { flush() }'
}
# one line per sample, sorted: perf script -D prints samples in time order,
# our reader hands them out in file order (perf orders them within rounds)
by_sample() {
	grep -v '^stacksize ' | awk '/^@/ { if (l != "") print l; l = $0; next }
		{ l = l " | " $0 } END { if (l != "") print l }' | sort
}
# evlist_field FILE FIELD: an attr field from perf evlist -v (the first event)
evlist_field() {
	perf evlist -v -i "$1" 2>/dev/null | head -1 | tr ',' '\n' |
		awk -v k="$2" -F': ' '$1 ~ "^ *" k "$" { print $2 }'
}

if [ -x "$LOADER" ] && [ -f "$FIX/sample.cwasm" ] && [ -x "$AOTPERF" ]; then
	S=$FIX/sample.cwasm
	# 6. -g: raw callchains, markers included, sample by sample
	record "$W/lg.data" -g -- --ms 800 "$S"
	"$T" --chains "$W/lg.data" 2>&1 | by_sample > "$W/lg.ours"
	perf_chains "$W/lg.data" | by_sample > "$W/lg.perf"
	nchain=$(grep -c ' | chain ' "$W/lg.perf")
	nctx=$(grep -c ' | chain [0-9]* fffffffffffffe00' "$W/lg.perf")
	if [ "$nchain" -gt 100 ] && [ "$nctx" -gt 0 ] && diff -q "$W/lg.ours" "$W/lg.perf" >/dev/null; then
		ok "loader -g: callchains of $nchain samples equal perf script -D ($nctx from user context)"
	else
		bad "loader -g: callchains differ from perf script -D ($nchain chains)"
		diff "$W/lg.ours" "$W/lg.perf" | head -10 | cut -c1-160 | sed 's/^/    /'
	fi
	# 7. --call-graph=dwarf: registers and stacks as perf reads them, sizes as the attr asks
	record "$W/ld.data" --call-graph=dwarf -- --ms 800 "$S"
	"$T" --chains "$W/ld.data" > "$W/ld.ours" 2>&1
	by_sample < "$W/ld.ours" > "$W/ld.ours.1"
	perf_chains "$W/ld.data" | by_sample > "$W/ld.perf"
	nregs=$(grep -c ' | regs ' "$W/ld.perf")
	if [ "$nregs" -gt 100 ] && diff -q "$W/ld.ours.1" "$W/ld.perf" >/dev/null; then
		ok "loader dwarf: callchains, user regs, stack dyn sizes of $nregs samples equal perf script -D"
	else
		bad "loader dwarf: differs from perf script -D ($nregs samples with regs)"
		diff "$W/ld.ours.1" "$W/ld.perf" | head -10 | cut -c1-160 | sed 's/^/    /'
	fi
	mask=$(evlist_field "$W/ld.data" sample_regs_user)
	want=$(evlist_field "$W/ld.data" sample_stack_user)
	check_eq "loader dwarf: register mask is the attr's (perf evlist)" \
		"$(awk '$1 == "regs" { print $2 }' "$W/ld.ours" | sort -u)" "$mask"
	check_eq "loader dwarf: every non-empty stack copy is sample_stack_user bytes (perf evlist)" \
		"$(awk '$1 == "stacksize" && $2 != 0 { print $2 }' "$W/ld.ours" | sort -u)" "$want"
	# x86-64: BP, SP, IP are bits 6, 7, 8 of the mask (perf's register names say so)
	names=$(perf script -D -i "$W/ld.data" 2>/dev/null |
		awk '/^\.\.\. user regs: mask / { n++ } n == 1 && /^\.\.\.\. [A-Z0-9]+ +0x/ { printf "%s ", $2 }')
	idx() { awk -v r="$1" '{ for (i = 1; i <= NF; i++) if ($i == r) print i - 1 }' <<<"$names"; }
	if [ "$(uname -m)" = x86_64 ]; then
		check_eq "loader dwarf: BP, SP, IP in the register set" \
			"$(idx BP) $(idx SP) $(idx IP)" "6 7 8"
		# the IP register of a user-mode sample is the sample's ip
		agree=$(awk '/^@/ { user = $3 == "0x2"; ip = $5 }
			     $1 == "regs" && user { n++; v = $(3 + 9); sub(/^0x0*/, "0x", v); a += v == ip }
			     END { print a + 0 "/" n + 0 }' "$W/ld.ours")
		check "loader dwarf: regs IP is the sample ip in every user-mode sample ($agree)" \
			awk -v f="$agree" 'BEGIN { split(f, x, "/"); exit !(x[2] > 100 && x[1] == x[2]) }'
	fi

	# 8. --event on a pipe-mode recording stored in a file, and from stdin
	perf record -q -e cpu-clock,task-clock -k mono -F 2000 -o - -- "$LOADER" --ms 800 "$S" \
		> "$W/lp.data" 2>/dev/null
	for e in cpu-clock task-clock; do
		want=$(perf script -F event -i "$W/lp.data" 2>/dev/null | grep -c "^ *$e:")
		"$AOTPERF" report -q -i "$W/lp.data" --cwasm "$S" --event "$e" --json "$W/lp.$e.json" \
			> "$W/lp.$e.out" 2>&1
		check_eq "pipe-mode file: report --event $e exit status" "$?" 0
		check_eq "pipe-mode file: --event $e counts what perf script counts" \
			"$(jq -r .total_samples "$W/lp.$e.json" 2>/dev/null)" "$want"
		"$AOTPERF" report -q -i - --cwasm "$S" --event "$e" --json "$W/lps.$e.json" \
			< "$W/lp.data" > "$W/lps.$e.out" 2>&1
		check_eq "pipe-mode stdin: --event $e counts what perf script counts" \
			"$(jq -r .total_samples "$W/lps.$e.json" 2>/dev/null)" "$want"
	done
	# attribution of a pipe-mode file, whose attrs are now known at open
	perf record -q -e cpu-clock -k mono -F 2000 -o - -- "$LOADER" --ms 800 "$S" \
		> "$W/lp1.data" 2>/dev/null
	"$AOTPERF" report -q -i "$W/lp1.data" --cwasm "$S" --top 1000000 --json "$W/lp1.json" \
		> /dev/null 2>&1
	reference "$W/lp1.data" "$S.syms" > "$W/lp1.ref"
	aotperf_counts "$W/lp1.json" > "$W/lp1.got"
	same_counts "pipe-mode file: per-function counts equal perf script's" "$W/lp1.got" "$W/lp1.ref"
	"$AOTPERF" report -q -i "$W/lp.data" --cwasm "$S" --event cycles > "$W/lp.none" 2>&1
	check_eq "pipe-mode file: --event of an absent event is exit 2" "$?" 2
	check "pipe-mode file: ... naming the events it has" \
		grep -q "no event 'cycles' in this recording (it has: cpu-clock, task-clock)" "$W/lp.none"
else
	skip "test loader, fixtures or aotperf not built"
fi

finish
