#!/usr/bin/env bash
# Every inconsistent target-info form, and a bogus --arch, through every
# command that reads a core: exit status 2, exactly one line on stderr
# naming the file and the field (or the option), and nothing written.
# The bad files are good ones (the real v6 sample, the v11 SysV and Win64
# idiom fixtures) with one target-info field patched (section 0 is the
# first section: its 40 bytes start at offset 16).
. "$(dirname "$0")/lib/common.sh"

DLF=$B/aotperf-dlfilter.so
LEGACY=$FIX/real/test_minimal.aot
SYSV=$B/classify/x86_v11_sysv.cwasm
WIN64=$B/classify/x86_v11_win64.cwasm
OUT=$WORK/out
mkdir -p "$OUT"

# a small recording for the commands that need one
perf record -q -e cpu-clock -o "$WORK/p.data" -- sleep 0.05 >/dev/null 2>&1
check "a recording to read" test -s "$WORK/p.data"
printf '%s\n' '[aot-spill-metric] local_func=0 mod=0 insts=1 spill_ld=0 spill_st=0' >"$WORK/s.log"

# patch SRC NAME OFFSET HEX...: NAME.cwasm, a copy of SRC with bytes at OFFSET
patch() {
	local src=$1 name=$2 off=$3; shift 3
	cp "$src" "$WORK/$name.cwasm"
	printf "$(printf '\\x%s' "$@")" | dd of="$WORK/$name.cwasm" bs=1 seek="$off" conv=notrunc \
		2>/dev/null
}
# target info offsets: 16 bin_type, 18 abi_type, 20 e_type, 22 e_machine,
# 24 e_flags, 28 reserved, 32 arch[16], 48 features; 12 is section 0's size
patch "$LEGACY" legacy-e_machine 22 3e 00
patch "$LEGACY" legacy-e_type 20 01 00
patch "$LEGACY" legacy-abi_type 18 01 00
patch "$LEGACY" legacy-e_flags 24 04 00 00 00
patch "$LEGACY" legacy-reserved 28 02 00 00 00
patch "$LEGACY" legacy-arch 32 72 69 73 63 76 36 34 00	# "riscv64"
patch "$LEGACY" legacy-padding 47 58			# 'X' after the NUL
patch "$LEGACY" legacy-bin_type 16 03 00
# a 32-byte target info: the section's size and payload both 8 bytes short
{ head -c 12 "$LEGACY"; printf '\x20\0\0\0'; tail -c +17 "$LEGACY" | head -c 32
  tail -c +57 "$LEGACY"; } >"$WORK/size.cwasm"
patch "$SYSV" sysv-e_machine 22 b7 00
patch "$SYSV" sysv-coff-e_machine 16 06 00		# COFF64 with ELF's 0x3e
patch "$SYSV" sysv-e_type 20 02 00
patch "$SYSV" sysv-abi_type 18 02 00
patch "$SYSV" sysv-e_flags 24 01 00 00 00
patch "$SYSV" sysv-reserved 28 01 00 00 00
patch "$SYSV" sysv-arch-aarch64 32 61 61 72 63 68 36 34	# "aarch64" with 0x3e
patch "$WIN64" win64-arch-aarch64 32 61 61 72 63 68 36 34 # COFF64 aarch64
# NAME -> the word the message must contain
declare -A FIELD=(
	[legacy-e_machine]=e_machine [legacy-e_type]=e_type [legacy-abi_type]=abi_type
	[legacy-e_flags]=e_flags [legacy-reserved]=reserved [legacy-arch]="arch 'riscv64'"
	[legacy-padding]=padding [legacy-bin_type]=bin_type [size]="32 bytes, expected 40"
	[sysv-e_machine]=e_machine [sysv-coff-e_machine]=e_machine [sysv-e_type]=e_type
	[sysv-abi_type]=abi_type [sysv-e_flags]=e_flags [sysv-reserved]=reserved
	[sysv-arch-aarch64]=e_machine [win64-arch-aarch64]=bin_type
)

# refused DESC WORD CMD...: exit 2, one stderr line holding WORD, nothing in OUT
refused() {
	local desc=$1 word=$2; shift 2
	"$@" >"$WORK/stdout" 2>"$WORK/stderr"
	local rc=$? n
	n=$(wc -l <"$WORK/stderr")
	if [ "$rc" -eq 2 ] && [ "$n" -eq 1 ] && grep -qF -- "$word" "$WORK/stderr" &&
	   [ -z "$(ls -A "$OUT")" ]; then
		ok "$desc"
	else
		bad "$desc: exit $rc, $n stderr line(s), wanted '$word'; $(head -c 300 "$WORK/stderr")"
		ls -A "$OUT"
	fi
	rm -rf "${OUT:?}"/* "$OUT"/.[!.]* 2>/dev/null
}
# the dlfilter: perf script fails, the one line is the filter's
refused_dlf() {
	local desc=$1 word=$2; shift 2
	perf script -i "$WORK/p.data" --dlfilter "$DLF" "$@" --dlarg "json=$OUT/d.json" \
		--dlarg "out=$OUT/d.txt" >"$WORK/stdout" 2>"$WORK/stderr"
	local rc=$? n
	n=$(wc -l <"$WORK/stderr")
	if [ "$rc" -ne 0 ] && [ "$n" -eq 1 ] && grep -qF -- "$word" "$WORK/stderr" &&
	   [ -z "$(ls -A "$OUT")" ] && [ ! -s "$WORK/stdout" ]; then
		ok "$desc"
	else
		bad "$desc: exit $rc, $n stderr line(s), wanted '$word'; $(head -c 300 "$WORK/stderr")"
	fi
	rm -rf "${OUT:?}"/* 2>/dev/null
}
have_dlf=0
[ -f "$DLF" ] && perf script -h 2>&1 | grep -q -- --dlfilter && have_dlf=1

for name in "${!FIELD[@]}"; do
	f=$WORK/$name.cwasm w=${FIELD[$name]}
	refused "$name: report --func (static)" "$w" "$AOTPERF" report --cwasm "$f" --func 0 --json "$OUT/r.json"
	check "$name: the message names the file" grep -qF "$f: target info" "$WORK/stderr"
	refused "$name: report -i" "$w" "$AOTPERF" report -i "$WORK/p.data" --cwasm "$f" --json "$OUT/r.json"
	refused "$name: inject" "$w" "$AOTPERF" inject -i "$WORK/p.data" --cwasm "$f" -o "$OUT/j.data"
	refused "$name: jitdump" "$w" "$AOTPERF" jitdump -i "$WORK/p.data" --cwasm "$f" -o "$OUT/m.data"
	refused "$name: perfmap" "$w" "$AOTPERF" perfmap -i "$WORK/p.data" --cwasm "$f" -o "$OUT/p.map"
	refused "$name: spills" "$w" "$AOTPERF" spills "$WORK/s.log" --cwasm "$f" --json "$OUT/s.json"
	refused "$name: record (nothing runs)" "$w" "$AOTPERF" record -o "$OUT/rec.data" --cwasm "$f" \
		-- touch "$OUT/ran"
	[ "$have_dlf" = 1 ] && refused_dlf "$name: dlfilter" "$w" --dlarg "$f"
done

# a bogus --arch, on every command that decodes; perfmap decodes nothing
for a in sparc x86 "" aarch64x; do
	w="--arch: '$a' is not x86_64 or aarch64"
	refused "--arch '$a': report (static)" "$w" "$AOTPERF" report --cwasm "$LEGACY" --func 2 --arch "$a" \
		--json "$OUT/r.json"
	refused "--arch '$a': report -i --hot" "$w" "$AOTPERF" report -i "$WORK/p.data" --cwasm "$LEGACY" \
		--hot 1 --arch "$a" --json "$OUT/r.json"
	refused "--arch '$a': inject" "$w" "$AOTPERF" inject -i "$WORK/p.data" --cwasm "$LEGACY" --arch "$a" \
		-o "$OUT/j.data"
	refused "--arch '$a': jitdump" "$w" "$AOTPERF" jitdump -i "$WORK/p.data" --cwasm "$LEGACY" --arch "$a" \
		-o "$OUT/m.data"
	refused "--arch '$a': spills" "$w" "$AOTPERF" spills "$WORK/s.log" --cwasm "$LEGACY" --arch "$a" \
		--json "$OUT/s.json"
	refused "--arch '$a': record (nothing runs)" "$w" "$AOTPERF" record -o "$OUT/rec.data" --cwasm "$LEGACY" \
		--arch "$a" -- touch "$OUT/ran"
	refused "--arch '$a': classify" "$w" "$AOTPERF" classify --arch "$a" --json "$OUT/c.json" \
		"$E2E/../classify/annot-zext-att.txt"
	refused "--arch '$a': annotate" "$w" "$AOTPERF" annotate -i "$WORK/p.data" --arch "$a" \
		--json "$OUT/a.json" --save "$OUT/a.txt" main
	[ "$have_dlf" = 1 ] && refused_dlf "arch='$a': dlfilter" "arch=$a: not x86_64 or aarch64" \
		--dlarg "$LEGACY" --dlarg "arch=$a"
done
refused "perfmap --arch: refused (it decodes nothing)" "perfmap does not decode" \
	"$AOTPERF" perfmap -i "$WORK/p.data" --cwasm "$LEGACY" --arch x86_64 -o "$OUT/p.map"
# the inputs were only read
check_eq "the real sample is unchanged" "$(sha256sum <"$LEGACY")" "$(sha256sum <"$E2E/../fixtures/real/test_minimal.aot")"
finish
