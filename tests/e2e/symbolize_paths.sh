#!/usr/bin/env bash
# Stock perf names the wasm functions by every route aotperf offers: perf
# map, jitdump + stock `perf inject --jit`, one-step inject (ELF images by
# default, --jitdump through perf inject --jit) with and without -k mono.
# For each, `perf report --sort sym -n` must give exactly aotperf report's
# per-function counts, `perf annotate` must print the function's real
# bytes, and the input perf.data must stay unchanged. Refused inputs leave
# nothing behind; the printed next step runs as printed.
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
M=$FIX/comp.cwasm.json

# annotate_bytes DATA SYMBOL: the raw bytes perf annotate shows, as hex words
annotate_bytes() {
	perf annotate -i "$1" --stdio --asm-raw "$2" 2>/dev/null |
		gawk -F: '/^ +[0-9.]+ +: +[0-9a-f]+:/ {
			n = split($3, w, /[ \t]+/); out = ""
			for (i = 1; i <= n; i++) {
				if (w[i] == "") continue
				if (w[i] !~ /^[0-9a-f][0-9a-f]$/) break
				out = out w[i]
			}
			printf "%s", out
		}'
}
# fixture_bytes SYMS TEXT INDEX: the function's bytes from the assembler's output
fixture_bytes() {
	local line off size
	line=$(gawk -v i="$3" '$1 == i' "$1")
	off=$(gawk '{ print strtonum($2) }' <<<"$line")
	size=$(gawk '{ print $3 }' <<<"$line")
	od -An -v -tx1 -j "$off" -N "$size" "$2" | tr -d ' \n'
}

record "$WORK/mono.data" -- --ms 1200 "$S"
sha_before=$(sha256sum <"$WORK/mono.data")
"$AOTPERF" report -q -i "$WORK/mono.data" --cwasm "$S" --top 100000 --json "$WORK/ref.json" >/dev/null
ours "$WORK/ref.json" >"$WORK/ref.counts"
hot=$(jq -r '.top_functions[0].local_func' "$WORK/ref.json")
want_bytes=$(fixture_bytes "$S.syms" "$FIX/sample.text" "$hot")

# 1. perf map, read by a plain perf report on the original file
"$AOTPERF" perfmap -i "$WORK/mono.data" --cwasm "$S" >"$WORK/pm.out"
check_eq "perfmap: exit status" "$?" 0
map=$(awk '/^wrote/ { print $2 }' "$WORK/pm.out")
check "perfmap: wrote /tmp/perf-<pid>.map" test -f "$map"
perf_counts "$WORK/mono.data" >"$WORK/pm.counts"
same_counts "perfmap: perf report counts equal aotperf report" "$WORK/pm.counts" "$WORK/ref.counts"
echo "0 0 someone-elses-map" >"$map"
"$AOTPERF" perfmap -q -i "$WORK/mono.data" --cwasm "$S" >/dev/null 2>"$WORK/pm.err"
check_eq "perfmap: a map it did not write is refused (exit 2)" "$?" 2
check "perfmap: foreign map left as it was" grep -q someone-elses-map "$map"
"$AOTPERF" perfmap -q --force -i "$WORK/mono.data" --cwasm "$S" >/dev/null
check_eq "perfmap: --force replaces it" "$?" 0
check "perfmap: --force wrote our map" grep -q local_func_ "$map"
rm -f "$map"
ln -s "$WORK/victim" "$map"
"$AOTPERF" perfmap -q --force -i "$WORK/mono.data" --cwasm "$S" >/dev/null 2>"$WORK/pm.err"
check_eq "perfmap: a symlink at the map path is refused even with --force (exit 2)" "$?" 2
check "perfmap: the symlink's target was not created" test ! -e "$WORK/victim"
check "perfmap: the symlink is still there" test -L "$map"
rm -f "$map"

# 2. jitdump + stock perf inject --jit
mkdir -p "$WORK/jd"
"$AOTPERF" jitdump -q -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/jd/marked.data" >"$WORK/jd.out"
check_eq "jitdump: exit status" "$?" 0
check "jitdump: wrote jit-<pid>.dump into a folder of its own, marked.data.d" \
	ls "$WORK"/jd/marked.data.d/jit-*.dump
(cd "$WORK/jd" && perf inject --jit -i marked.data -o perf.jit.data 2>/dev/null)
check_eq "jitdump: stock perf inject --jit accepts it" "$?" 0
check "jitdump: perf inject --jit wrote its jitted-*.so files into marked.data.d" \
	test -n "$(ls "$WORK/jd/marked.data.d" | grep -E '^jitted-[0-9]+-[0-9]+\.so$')"
check_eq "jitdump: nothing but the marked copy, the folder and perf's output in the working folder" \
	"$(ls "$WORK/jd" | tr '\n' ' ')" "marked.data marked.data.d perf.jit.data "
perf_counts "$WORK/jd/perf.jit.data" >"$WORK/jd.counts"
same_counts "jitdump: perf report counts equal aotperf report" "$WORK/jd.counts" "$WORK/ref.counts"
got=$(annotate_bytes "$WORK/jd/perf.jit.data" "local_func_$hot")
check "jitdump: perf annotate local_func_$hot shows its real bytes" test -n "$got" -a "$got" = "$want_bytes"

# 3. one-step inject: one ELF image per core by default, the next step printed
"$AOTPERF" inject -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/inj.data" >"$WORK/inj.out"
check_eq "inject: exit status" "$?" 0
perf_counts "$WORK/inj.data" >"$WORK/inj.counts"
same_counts "inject: perf report counts equal aotperf report" "$WORK/inj.counts" "$WORK/ref.counts"
check_eq "inject: one ELF image per core, nothing else" "$(ls "$WORK/inj.data.d")" \
	"sample.core0.aotperf.so"
got=$(annotate_bytes "$WORK/inj.data" "local_func_$hot")
check "inject: perf annotate local_func_$hot shows its real bytes" test -n "$got" -a "$got" = "$want_bytes"
hint=$(sed -n 's/^ *\(perf annotate .*\)   # the hottest$/\1/p' "$WORK/inj.out")
check_eq "inject: the printed annotate hint names the hottest symbol" "$hint" \
	"perf annotate -i $WORK/inj.data --stdio local_func_$hot"
check "inject: the printed annotate hint runs as printed" \
	test -n "$(eval "$hint --asm-raw" 2>/dev/null | grep -E '^ +[0-9.]+ +: +[0-9a-f]+:')"
"$AOTPERF" inject -q --direct -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/dir.data" >/dev/null
check_eq "inject --direct (the default, still accepted): exit status" "$?" 0
perf_counts "$WORK/dir.data" >"$WORK/dir.counts"
same_counts "inject --direct: the same counts" "$WORK/dir.counts" "$WORK/ref.counts"

# 4. --jitdump: through stock perf inject --jit (-k mono)
"$AOTPERF" inject -q --jitdump -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/jinj.data" >/dev/null
check_eq "inject --jitdump: exit status" "$?" 0
perf_counts "$WORK/jinj.data" >"$WORK/jinj.counts"
same_counts "inject --jitdump: perf report counts equal aotperf report" "$WORK/jinj.counts" "$WORK/ref.counts"
check "inject --jitdump: the intermediate dump and marked copy are gone" \
	test -z "$(ls "$WORK/jinj.data.d" | grep -E '^(jit-.*\.dump|marked\.)')"
check "inject --jitdump: perf inject --jit wrote jitted-*.so files" \
	test -n "$(ls "$WORK/jinj.data.d" | grep -E '^jitted-[0-9]+-[0-9]+\.so$')"

# Two runs: the default route's names are the same in both, so perf diff
# pairs every hot function; the jitdump route's jitted-<pid>-<n>.so differ.
record "$WORK/mono2.data" -- --ms 600 "$S"
"$AOTPERF" inject -q -i "$WORK/mono2.data" --cwasm "$S" -o "$WORK/inj2.data" >/dev/null
"$AOTPERF" inject -q --jitdump -i "$WORK/mono2.data" --cwasm "$S" -o "$WORK/jinj2.data" >/dev/null
paired() { # rows of perf diff that have both a baseline and a delta, for wasm functions
	perf diff "$1" "$2" 2>/dev/null | awk '/local_func_/ && $1 ~ /%$/ && $2 ~ /%$/' | wc -l
}
nhot=$(jq '[.top_functions[] | select(.samples >= 20)] | length' "$WORK/ref.json")
check "perf diff of two injected runs pairs every hot function ($(paired "$WORK/inj.data" \
	"$WORK/inj2.data") >= $nhot)" test "$(paired "$WORK/inj.data" "$WORK/inj2.data")" -ge "$nhot"
check_eq "perf diff of two --jitdump runs pairs none (names change per run)" \
	"$(paired "$WORK/jinj.data" "$WORK/jinj2.data")" 0

perf record -q -e cpu-clock -F 2000 -o "$WORK/plain.data" -- "$LOADER" --ms 800 "$S" 2>/dev/null
sha_plain=$(sha256sum <"$WORK/plain.data")
"$AOTPERF" report -q -i "$WORK/plain.data" --cwasm "$S" --top 100000 --json "$WORK/plain.json" >/dev/null
ours "$WORK/plain.json" >"$WORK/plain.ref"
"$AOTPERF" inject -i "$WORK/plain.data" --cwasm "$S" -o "$WORK/plain.jit.data" >/dev/null 2>"$WORK/plain.err"
check_eq "inject without -k mono: exit status" "$?" 0
check_eq "inject without -k mono: nothing to warn about" "$(wc -c <"$WORK/plain.err")" 0
perf_counts "$WORK/plain.jit.data" >"$WORK/plain.counts"
same_counts "inject without -k mono: perf report counts equal aotperf report" "$WORK/plain.counts" "$WORK/plain.ref"
# refused as jitdump refuses it: no switch of routes behind the user's back
"$AOTPERF" inject --jitdump -i "$WORK/plain.data" --cwasm "$S" -o "$WORK/plain.j.data" \
	>"$WORK/plainj.out" 2>"$WORK/plainj.err"
check_eq "inject --jitdump without -k mono: exit 2" "$?" 2
check_eq "inject --jitdump without -k mono: one line, as jitdump says it" "$(cat "$WORK/plainj.err")" \
	"aotperf inject: $WORK/plain.data: not recorded with -k mono: perf inject --jit would refuse its jitdump; 'aotperf inject' without --jitdump writes ELF images, which need no -k mono"
check_eq "inject --jitdump without -k mono: nothing on stdout" "$(wc -c <"$WORK/plainj.out")" 0
check "inject --jitdump without -k mono: nothing written" \
	test ! -e "$WORK/plain.j.data" -a ! -e "$WORK/plain.j.data.d"
check_eq "input without -k mono unchanged" "$(sha256sum <"$WORK/plain.data")" "$sha_plain"

# jitdump without -k mono: refused before anything is written
mkdir -p "$WORK/jdn"
"$AOTPERF" jitdump -i "$WORK/plain.data" --cwasm "$S" -o "$WORK/jdn/m.data" >/dev/null \
	2>"$WORK/jdn.err"
check_eq "jitdump without -k mono: exit 2" "$?" 2
check "jitdump without -k mono: says perf inject --jit would refuse it" \
	grep -q 'not recorded with -k mono: perf inject --jit would refuse' "$WORK/jdn.err"
check_eq "jitdump without -k mono: nothing written" "$(ls -A "$WORK/jdn")" ""

# Refused inputs (a pipe-mode file, a -z recording) leave no dump, image or folder.
perf record -q -e cpu-clock -k mono -F 2000 -o - -- "$LOADER" --ms 300 "$S" \
	>"$WORK/pipe.data" 2>/dev/null
zok=0
perf record -q -z -e cpu-clock -k mono -F 2000 -o "$WORK/z.data" -- "$LOADER" --ms 300 "$S" \
	>/dev/null 2>&1 && zok=1
for in in pipe $([ $zok = 1 ] && echo z); do
	mkdir -p "$WORK/left-$in"
	"$AOTPERF" jitdump -q -i "$WORK/$in.data" --cwasm "$S" -o "$WORK/left-$in/m.data" \
		>/dev/null 2>&1
	check_eq "jitdump refuses the $in recording (exit 2)" "$?" 2
	"$AOTPERF" inject -q -i "$WORK/$in.data" --cwasm "$S" -o "$WORK/left-$in/i.data" \
		>/dev/null 2>&1
	check_eq "inject refuses the $in recording (exit 2)" "$?" 2
	check_eq "the refused $in recording left nothing behind" "$(ls -A "$WORK/left-$in")" ""
	"$AOTPERF" jitdump -q -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/left-$in/m.data" >/dev/null
	check_eq "then jitdump into that folder works" "$?" 0
done
"$AOTPERF" jitdump -q -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/left-pipe/m.data" >/dev/null
check_eq "jitdump again into the same folder replaces its own dump" "$?" 0

# 5. names
"$AOTPERF" inject -q --names wasm -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/nw.data" >/dev/null
hot_name=$(jq -r '.top_functions[0].name' "$WORK/ref.json")
check "--names wasm: perf report shows local_func_$hot:$hot_name" \
	grep -qF "local_func_$hot:$hot_name" <(perf report -i "$WORK/nw.data" --stdio --sort sym 2>/dev/null)
"$AOTPERF" inject -q --names wasmtime -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/nt.data" >/dev/null
widx=$(jq -r '.top_functions[0].wasm_func' "$WORK/ref.json")
check "--names wasmtime: perf report shows wasm[0]::function[$widx]::$hot_name" \
	grep -qF "wasm[0]::function[$widx]::$hot_name" <(perf report -i "$WORK/nt.data" --stdio --sort sym 2>/dev/null)

# 6. a manifest with two cores: names carry the core
record "$WORK/comp.data" -- --ms 1200 --manifest "$M"
"$AOTPERF" report -q -i "$WORK/comp.data" --manifest "$M" --top 100000 --json "$WORK/comp.json" >/dev/null
ours_cores "$WORK/comp.json" >"$WORK/comp.ref"
"$AOTPERF" inject -q -i "$WORK/comp.data" --manifest "$M" -o "$WORK/comp.jit.data" >/dev/null
check_eq "manifest inject: exit status" "$?" 0
perf_counts "$WORK/comp.jit.data" >"$WORK/comp.counts"
same_counts "manifest inject: perf report counts (mod0:/mod1:) equal aotperf report" "$WORK/comp.counts" "$WORK/comp.ref"
"$AOTPERF" inject -q --jitdump -i "$WORK/comp.data" --manifest "$M" -o "$WORK/comp.j.data" >/dev/null
perf_counts "$WORK/comp.j.data" >"$WORK/comp.j.counts"
same_counts "manifest inject --jitdump: perf report counts equal aotperf report" "$WORK/comp.j.counts" "$WORK/comp.ref"
# the printed next step names the real (prefixed, --names wasm) symbol
"$AOTPERF" inject --names wasm -i "$WORK/comp.data" --manifest "$M" -o "$WORK/comp.w.data" \
	>"$WORK/comp.w.out"
hint=$(sed -n 's/^ *\(perf annotate .*\)   # the hottest$/\1/p' "$WORK/comp.w.out")
check "manifest --names wasm: the hint names a mod<M>:local_func_N:<name> symbol ($hint)" \
	grep -qE -- "--stdio '?mod[0-9]+:local_func_[0-9]+:[^' ]+'?$" <<<"$hint"
check "manifest --names wasm: the printed annotate hint runs as printed" \
	test -n "$(eval "$hint --asm-raw" 2>/dev/null | grep -E '^ +[0-9.]+ +: +[0-9a-f]+:')"

# 7. bad input and the input file
"$AOTPERF" inject -q -i "$WORK/mono.data" --cwasm "$S" -o "$WORK/mono.data" >/dev/null 2>&1
check_eq "inject refuses to overwrite its input (exit 2)" "$?" 2
# an injected copy is no input for aotperf report: it says to use the original
for f in inj.data jinj.data; do
	"$AOTPERF" report -i "$WORK/$f" --cwasm "$S" >"$WORK/rep-$f.out" 2>"$WORK/rep-$f.err"
	check_eq "report on the injected $f: exit 2" "$?" 2
	check "report on the injected $f: use the original perf.data" \
		grep -q 'use the original perf.data' "$WORK/rep-$f.err"
	check_eq "report on the injected $f: no report printed" "$(wc -c <"$WORK/rep-$f.out")" 0
done
check_eq "input perf.data unchanged by every route" "$(sha256sum <"$WORK/mono.data")" "$sha_before"
finish
