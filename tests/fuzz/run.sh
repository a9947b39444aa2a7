#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Run fuzz targets for a while each and say what they did.
#
#   tests/fuzz/run.sh FUZZ_BUILD BUILD SECONDS NAME...
#
# For each NAME: seeds into FUZZ_BUILD/seeds/NAME (tests/fuzz/seeds/NAME,
# tests/fuzz/regress/NAME except the open crashes, what the target's
# fuzz_write_seeds() writes, and the files its `fuzz-seeds:` lines name),
# then FUZZ_BUILD/fuzz_NAME for SECONDS with its `fuzz-options:` in
# libFuzzer's fork mode, growing the corpus FUZZ_BUILD/corpus/NAME (kept
# between runs). A crash does not stop the run: its input goes to
# FUZZ_BUILD/crashes/NAME/ and is replayed for its signature, the first
# stack frame in our sources ("FUNC FILE"). Signatures listed in
# tests/fuzz/regress/NAME/OPEN are known open crashes; any other crash is
# new. Prints one line per target (executions, libFuzzer's fork-mode cov
# and ft, corpus size, crashes) and exits 1 on a new crash.
#
# `fuzz-seeds:` globs are relative to a folder holding tree/ (the repository),
# build/ (BUILD) and fuzz-rec/ (short real perf recordings of the test loader,
# made here once when perf works).
set -u
FB=${1:?usage: $0 FUZZ_BUILD BUILD SECONDS NAME...}
B=${2:?}
SECS=${3:?}
shift 3
root=$(cd "$(dirname "$0")/../.." && pwd)
FB=$(cd "$FB" && pwd)
B=$(cd "$B" && pwd)

# --- short real recordings, for targets that read perf.data ----------------
rec=$FB/fuzz-rec
make_recordings() {
	local L=$B/tests/loader S=$B/fixtures/sample.cwasm tmp=$FB/fuzz-rec.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if ! command -v perf >/dev/null || [ ! -x "$L" ] || [ ! -f "$S" ] ||
	   ! perf record -q -e cpu-clock -o "$tmp/probe" true >/dev/null 2>&1; then
		echo "fuzz: no perf recordings for seeds (perf record does not work here)"
		mkdir -p "$rec"
		rm -rf "$tmp"
		return
	fi
	rm -f "$tmp/probe"
	local R="perf record -q -e cpu-clock -k mono -F 1000"
	$R -o "$tmp/file.data" -- "$L" --ms 60 "$S"
	$R -g -o "$tmp/fp.data" -- "$L" --ms 60 "$S"
	$R --call-graph=dwarf,512 -o "$tmp/dwarf.data" -- "$L" --ms 30 "$S"
	perf record -q -e cpu-clock,task-clock -k mono -F 500 -o "$tmp/two.data" -- "$L" --ms 40 "$S"
	$R -o - -- "$L" --ms 60 "$S" >"$tmp/pipe.data"
	$R -g -o - -- "$L" --ms 40 --fork "$S" >"$tmp/pipe-fp.data"
	perf record -q -N -k mono -F 1000 -e cpu-clock -e sched:sched_switch -g --switch-events \
		-o - -- "$L" --wall --ms 40 "$S" >"$tmp/pipe-offcpu.data"
	if perf version --build-options 2>/dev/null | grep -Eq 'zstd: *\[ on'; then
		$R -z -o "$tmp/z.data" -- "$L" --ms 60 "$S"
		$R -z -o - -- "$L" --ms 60 "$S" >"$tmp/pipe-z.data"
	fi
	find "$tmp" -name '*.log' -delete
	mv "$tmp" "$rec"
} >/dev/null 2>&1
[ -d "$rec" ] || make_recordings
[ -n "$(ls -A "$rec" 2>/dev/null)" ] || echo "fuzz: note: no perf recordings among the seeds"

seedroot=$FB/seedroot
mkdir -p "$seedroot"
ln -sfn "$root" "$seedroot/tree"
ln -sfn "$B" "$seedroot/build"
ln -sfn "$rec" "$seedroot/fuzz-rec"

# header_field SRC KEY: the words after "KEY:" in the target's comment lines
header_field() {
	sed -n "s|^// $2: *||p" "$1" | tr '\n' ' '
}

is_open() { # is_open DIR NAME
	[ -f "$1/OPEN" ] && awk -v n="$2" '$1 == n { f = 1 } END { exit !f }' "$1/OPEN"
}

# signature BIN INPUT: "FUNC FILE" of the first frame in our sources when
# the target crashes on INPUT, "" when it does not crash
signature() {
	UBSAN_OPTIONS=print_stacktrace=1 "$1" "$2" 2>&1 |
		awk -v root="$root/" '
		/^ *#[0-9]+ 0x[0-9a-f]+ in / && index($0, root) {
			f = $4; file = $5; sub(root, "", file); sub(/:[0-9:]*$/, "", file)
			print f, file; exit
		}'
}

# known_open DIR SIG: is the signature listed (words 2-3) in DIR/OPEN?
known_open() {
	[ -f "$1/OPEN" ] && awk -v s="$2" '$1 !~ /^#/ && $2 " " $3 == s { f = 1 } END { exit !f }' "$1/OPEN"
}

printf '%-9s %5s %11s %7s %6s %6s %6s  %s\n' target secs executions "exec/s" cov ft corpus result
# fuzz_one NAME: one target's run and its line; returns 1 on a new crash
fuzz_one() {
	local name=$1 st=0
	local src=$root/tests/fuzz/fuzz_$name.c
	bin=$FB/fuzz_$name
	seeds=$FB/seeds/$name
	corpus=$FB/corpus/$name
	crashes=$FB/crashes/$name
	regress=$root/tests/fuzz/regress/$name
	log=$FB/log/$name.log
	rm -rf "$seeds"
	mkdir -p "$seeds" "$corpus" "$crashes" "$FB/log"
	for d in "$root/tests/fuzz/seeds/$name" "$regress"; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			[ -f "$f" ] || continue
			case ${f##*/} in OPEN|README*) continue ;; esac
			is_open "$d" "${f##*/}" && continue
			cp "$f" "$seeds/"
		done
	done
	"$B/tests/test_fuzz_$name" --write-seeds "$seeds" || echo "fuzz: $name: writing seeds failed"
	(
		cd "$seedroot" || exit
		for g in $(header_field "$src" fuzz-seeds); do
			for f in $g; do
				[ -f "$f" ] && cp "$f" "$seeds/$(echo "$f" | tr / _)"
			done
		done
	)
	nseeds=$(ls "$seeds" | wc -l)
	stamp=$FB/log/$name.stamp
	touch "$stamp"
	# Fork mode: a crash (known or new) is saved and the fuzzing goes on.
	# shellcheck disable=SC2046
	"$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$SECS" -timeout=20 -artifact_prefix="$crashes/" \
		$(header_field "$src" fuzz-options) "$corpus" "$seeds" >"$log" 2>&1
	rc=$?
	last=$(grep -E '^#[0-9]+: cov: ' "$log" | tail -1)
	execs=$(sed -n 's/^#\([0-9]*\):.*/\1/p' <<<"$last")
	secs=$(sed -n 's/.* time: \([0-9]*\)s.*/\1/p' <<<"$last")
	cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
	ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
	speed=?
	[ -n "$execs" ] && [ -n "$secs" ] && [ "$secs" -gt 0 ] && speed=$((execs / secs))
	corp=$(ls "$corpus" | wc -l)
	new=0 known=0 ksigs="" nsigs=""
	for art in $(find "$crashes" -type f -newer "$stamp" 2>/dev/null); do
		sig=$(signature "$bin" "$art")
		[ -n "$sig" ] || sig="(does not reproduce) ${art##*/}"
		if known_open "$regress" "$sig"; then
			known=$((known + 1))
			case "$ksigs" in *"[$sig]"*) ;; *) ksigs="$ksigs [$sig]" ;; esac
		else
			new=$((new + 1))
			echo "$sig <- $art" >>"$FB/log/$name.new"
			case "$nsigs" in *"[$sig]"*) ;; *) nsigs="$nsigs [$sig]" ;; esac
		fi
	done
	result="ok ($nseeds seeds)"
	[ "$known" -gt 0 ] && result="$result, $known known open crash(es):$ksigs"
	# libFuzzer's fork mode exits 1 after any crash: then only new ones count
	if [ "$new" -gt 0 ] || { [ "$rc" -ne 0 ] && [ "$((new + known))" -eq 0 ]; }; then
		st=1
		result="NEW CRASH ($new, rc=$rc):$nsigs; inputs: $FB/log/$name.new"
		[ "$known" -gt 0 ] && result="$result; and $known known:$ksigs"
	fi
	printf '%-9s %5s %11s %7s %6s %6s %6s  %s\n' "$name" "${secs:-$SECS}" "${execs:-?}" \
		"$speed" "${cov:-?}" "${ft:-?}" "$corp" "$result"
	return "$st"
}

# Targets run as many at once as there are CPUs (FUZZ_JOBS): each is one
# process in fork mode with its own folders; lines print in the order given.
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
mkdir -p "$FB/log"
declare -A pid
for name in "$@"; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
	fuzz_one "$name" >"$FB/log/$name.line" 2>&1 &
	pid[$name]=$!
done
status=0
for name in "$@"; do
	wait "${pid[$name]}" || status=1
	cat "$FB/log/$name.line"
done
if [ "$status" -ne 0 ]; then
	echo "fuzz: keep each new crash input as tests/fuzz/regress/NAME/<file> and fix it,"
	echo "      or, in code you do not own, list it in that folder's OPEN (tests/fuzz/README.md)"
fi
exit "$status"
