#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Run fuzz targets for a while each and say what they did; or distill
# their corpora into the committed ones.
#
#   tests/fuzz/run.sh FUZZ_BUILD BUILD SECONDS NAME...
#   tests/fuzz/run.sh --distill FUZZ_BUILD BUILD NAME...
#
# For each NAME: seeds into FUZZ_BUILD/seeds/NAME (tests/fuzz/seeds/NAME,
# tests/fuzz/regress/NAME except the open crashes, the committed corpus
# tests/fuzz/corpus/NAME, what the target's fuzz_write_seeds() writes, and
# the files its `fuzz-seeds:` lines name), then FUZZ_BUILD/fuzz_NAME for
# SECONDS with its `fuzz-options:` in libFuzzer's fork mode, growing the
# corpus FUZZ_BUILD/corpus/NAME (kept between runs). A crash does not stop
# the run: its input goes to FUZZ_BUILD/crashes/NAME/ and is replayed for
# its signature, the first stack frame in our sources ("FUNC FILE").
# Signatures listed in tests/fuzz/regress/NAME/OPEN are known open crashes;
# any other crash is new. Prints one line per target (executions,
# libFuzzer's fork-mode cov and ft, corpus size, crashes) and exits 1 on a
# new crash.
#
# --distill: tests/fuzz/corpus/NAME becomes the inputs of the committed
# corpus and FUZZ_BUILD/corpus/NAME (those of at most FUZZ_CORPUS_MAX
# bytes, default 4096) that reach code the rest of the seeds do not,
# smallest first (libFuzzer's -merge=1 with -use_counters=0: edges, not
# hit counts, which keeps it a few dozen files). Prints files and bytes
# before and after per target.
#
# `fuzz-seeds:` globs are relative to a folder holding tree/ (the repository),
# build/ (BUILD) and fuzz-rec/ (short real perf recordings of the test loader,
# made here once when perf works).
set -u
distill=0
if [ "${1:-}" = --distill ]; then
	distill=1
	shift
fi
FB=${1:?usage: $0 [--distill] FUZZ_BUILD BUILD SECONDS|--distill NAME...}
B=${2:?}
if [ "$distill" = 1 ]; then
	SECS=0
	shift 2
else
	SECS=${3:?}
	shift 3
fi
root=$(cd "$(dirname "$0")/../.." && pwd)
FB=$(cd "$FB" && pwd)
B=$(cd "$B" && pwd)

# --- short real recordings, for targets that read perf.data ----------------
rec=$FB/fuzz-rec
make_recordings() {
	local L=$B/tests/loader S=$B/fixtures/sample.cwasm tmp=$FB/fuzz-rec.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# perf's build-id cache here, not in ~/.debug
	. "$root/tests/perfconfig.sh"
	perfconfig_use "$FB"
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
	# a file's tracing-data section with sched_switch and raw_syscalls' formats
	perf record -q -N -k mono -F 1000 -e cpu-clock -e sched:sched_switch \
		-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit --switch-events \
		-o "$tmp/offcpu.data" -- "$L" --wall --ms 20 "$S"
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

# gather_seeds NAME DIR [NOCORPUS]: the target's seeds into DIR (emptied
# first); with NOCORPUS, without the committed corpus
gather_seeds() {
	local name=$1 dir=$2 d f
	local src=$root/tests/fuzz/fuzz_$name.c
	rm -rf "$dir"
	mkdir -p "$dir"
	for d in "$root/tests/fuzz/seeds/$name" "$root/tests/fuzz/regress/$name" \
		 "$root/tests/fuzz/corpus/$name"; do
		[ -d "$d" ] || continue
		[ -n "${3:-}" ] && [ "$d" = "$root/tests/fuzz/corpus/$name" ] && continue
		for f in "$d"/*; do
			[ -f "$f" ] || continue
			case ${f##*/} in OPEN|README*) continue ;; esac
			is_open "$d" "${f##*/}" && continue
			cp "$f" "$dir/"
		done
	done
	"$B/tests/test_fuzz_$name" --write-seeds "$dir" || echo "fuzz: $name: writing seeds failed"
	(
		cd "$seedroot" || exit
		for g in $(header_field "$src" fuzz-seeds); do
			for f in $g; do
				[ -f "$f" ] && cp "$f" "$dir/$(echo "$f" | tr / _)"
			done
		done
	)
}

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
	mkdir -p "$corpus" "$crashes" "$FB/log"
	gather_seeds "$name" "$seeds"
	nseeds=$(ls "$seeds" | wc -l)
	stamp=$FB/log/$name.stamp
	touch "$stamp"
	# Fork mode: a crash (known or new) is saved and the fuzzing goes on.
	# A child that crashes, times out or runs out of memory leaves its
	# scratch folder (tests/fuzz/scratch.c) behind: they go to one folder
	# of this run's, removed after, not to /tmp.
	local tmp=$FB/tmp/$name
	rm -rf "$tmp"
	mkdir -p "$tmp"
	# shellcheck disable=SC2046
	TMPDIR=$tmp "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
		-max_total_time="$SECS" -timeout=20 -artifact_prefix="$crashes/" \
		$(header_field "$src" fuzz-options) "$corpus" "$seeds" >"$log" 2>&1
	rc=$?
	rm -rf "$tmp"
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

# files_bytes DIR: "N files, B bytes" of DIR's files
files_bytes() {
	find "$1" -maxdepth 1 -type f -printf '%s\n' 2>/dev/null |
		awk '{ n++; b += $1 } END { printf "%d files, %d bytes", n, b }'
}

# distill_one NAME: tests/fuzz/corpus/NAME made again (see the top)
distill_one() {
	local name=$1 f d
	local src=$root/tests/fuzz/fuzz_$name.c dst=$root/tests/fuzz/corpus/$name
	local work=$FB/distill/$name max=${FUZZ_CORPUS_MAX:-4096}
	rm -rf "$work"
	mkdir -p "$work/in" "$dst"
	# the seeds first: what the merge adds to them is the corpus
	gather_seeds "$name" "$work/out" nocorpus
	ls "$work/out" >"$work/seeds.list"
	for d in "$dst" "$FB/corpus/$name"; do
		[ -d "$d" ] && find "$d" -maxdepth 1 -type f -size -$((max + 1))c -exec cp {} "$work/in/" \;
	done
	# shellcheck disable=SC2046
	if ! "$FB/fuzz_$name" -merge=1 -use_counters=0 -timeout=20 $(header_field "$src" fuzz-options) \
		"$work/out" "$work/in" >"$work/merge.log" 2>&1; then
		echo "$name: the merge failed (log: $work/merge.log)"
		return 1
	fi
	mkdir -p "$work/new"
	for f in "$work/out"/*; do
		grep -qxF "${f##*/}" "$work/seeds.list" || cp "$f" "$work/new/"
	done
	echo "$name: $(files_bytes "$dst") -> $(files_bytes "$work/new")"
	rm -rf "$dst"
	mv "$work/new" "$dst"
}

if [ "$distill" = 1 ]; then
	status=0
	for name in "$@"; do
		distill_one "$name" || status=1
	done
	exit "$status"
fi

# Targets run as many at once as there are CPUs (FUZZ_JOBS): each is one
# process in fork mode with its own folders; lines print in the order given.
printf '%-9s %5s %11s %7s %6s %6s %6s  %s\n' target secs executions "exec/s" cov ft corpus result
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
