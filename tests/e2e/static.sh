#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The release binaries (dist/static.mk) against the dynamic build, on the
# same real recordings: they must print the same report text, the same
# JSON and the same pprof profile.
# * build/aotperf-static runs inside an empty chroot: only the binary and
#   the report's input files (perf.data, the core, the host files the
#   recording maps, which name its host frames, and a copy of
#   /proc/kallsyms for kernel frames). Its reference is the plain dynamic
#   build, build/aotperf, run in a second chroot with the same inputs and
#   the shared libraries ldd lists for it. Both see the same files (no
#   /proc: [vdso] frames stay unnamed in both), so nothing is dropped:
#   the JSON's absolute paths ("perf", "cwasm") are equal too.
# * build-aarch64/aotperf-static runs under qemu-aarch64-static in the
#   static chroot (qemu copied in) and is compared with the dynamic chroot
#   run; without the x86_64 chroots, in the same folder as $B/aotperf,
#   compared with it as it is (then [vdso] frames may differ: qemu gives
#   its guest a vdso of its own).
# Recordings: zstd-compressed (perf record -z) for --top 0, --hot 2
# (capstone) and --pprof (protobuf-c, zlib); -g for --children.
#
# Then the aarch64 runtime library (build-aarch64/libaotperf-jit.so),
# driven by tests/static/jitdump_core under qemu: the dump it writes for a
# real aarch64 core has the same records as the x86_64 library's (parsed
# here, independently), and aotperf's own jitdump reader
# (engines/jitdump_read.c, through test_engines --dump) reads back every
# function of the fixture's nm-derived .syms.
#
# `make check` builds everything used here (dist/static.mk); under SAN=1
# the static binaries are those of the plain build (ASan cannot link
# -static). Skips the aarch64 half, with a line, only without
# aarch64-linux-gnu-gcc or qemu-aarch64-static.
#
#   tests/e2e/static.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"

ROOT=$(cd "$E2E/../.." && pwd)
X86=$ROOT/build/aotperf-static
DYN=$ROOT/build/aotperf
A64=$ROOT/build-aarch64/aotperf-static
JD_X86=$B/tests/jitdump_core
JD_A64=$ROOT/build-aarch64/tests/jitdump_core
S=$FIX/sample.cwasm
san=0
[ "$(basename "$B")" = build-san ] && san=1

# have FILE WHAT: 0 if FILE exists; else FAIL in the plain build (make check
# builds it), a "skipped" line under SAN=1
have() {
	[ -x "$1" ] && return 0
	if [ "$san" = 1 ]; then
		echo "skipped: $2: $1 not built (under SAN=1 the static binaries come from the plain build: make check or make static)"
	else
		bad "$2: $1 missing (make check builds it: dist/static.mk)"
	fi
	return 1
}

# is_static FILE: no program interpreter, no NEEDED library
is_static() {
	file -L "$1" | grep -q 'statically linked' &&
		! readelf -lW "$1" | grep -q INTERP &&
		! readelf -dW "$1" 2>/dev/null | grep -q NEEDED
}

chroot_cmd=(chroot)
[ "$(id -u)" = 0 ] || chroot_cmd=(unshare -r chroot)

a64=1
if ! command -v aarch64-linux-gnu-gcc >/dev/null || ! command -v qemu-aarch64-static >/dev/null; then
	echo "skipped: aarch64: no cross toolchain (aarch64-linux-gnu-gcc, qemu-aarch64-static; scripts/cross-deps.sh installs them)"
	a64=0
fi
x86=0
have "$X86" "x86_64 static binary" && have "$DYN" "plain dynamic build" && x86=1
[ "$a64" = 1 ] && { have "$A64" "aarch64 static binary" || a64=0; }

if [ "$x86" = 1 ]; then
	check "x86_64: file and readelf: statically linked, no interpreter, no NEEDED" is_static "$X86"
	check_eq "x86_64: ldd: not a dynamic executable" \
		"$(ldd "$X86" 2>&1 | sed 's/^[[:space:]]*//')" "not a dynamic executable"
fi
if [ "$a64" = 1 ]; then
	check "aarch64: statically linked, no interpreter, no NEEDED" is_static "$A64"
	check "aarch64: an ARM aarch64 executable" bash -c "file '$A64' | grep -q 'ARM aarch64'"
fi

# same NAME REPORT-ARGS...: one report by each build; --json and --pprof
# are added here. $R: the static chroot, $R2: the dynamic one
same() {
	local name=$1; shift
	local o=$WORK/out/$name
	mkdir -p "$o"
	(cd "$R" && "$AOTPERF" report -q "$@" --json "$o/dyn.json" --pprof "$o/dyn.pb.gz" \
		>"$o/dyn.txt" 2>"$o/dyn.err")
	check_eq "$name: dynamic build: exit status" "$?" 0
	check "$name: the report is not empty" \
		test "$(jq '.attributed_samples' "$o/dyn.json" 2>/dev/null || echo 0)" -gt 0
	if [ "$x86" = 1 ]; then
		rm -f "$R"/out.* "$R2"/out.*
		"${chroot_cmd[@]}" "$R2" /aotperf report -q "$@" --json /out.json \
			--pprof /out.pb.gz >"$o/dyn-chroot.txt" 2>"$o/dyn-chroot.err"
		check_eq "$name: dynamic build in its chroot: exit status" "$?" 0
		"${chroot_cmd[@]}" "$R" /aotperf report -q "$@" --json /out.json \
			--pprof /out.pb.gz >"$o/x86.txt" 2>"$o/x86.err"
		check_eq "$name: x86_64 static in an empty chroot: exit status" "$?" 0
		check "$name: x86_64 static: same report text" diff -u "$o/dyn-chroot.txt" "$o/x86.txt"
		check "$name: x86_64 static: same JSON" \
			diff -u <(jq -S . "$R2/out.json") <(jq -S . "$R/out.json")
		check "$name: x86_64 static: same pprof profile" \
			cmp <(zcat "$R2/out.pb.gz") <(zcat "$R/out.pb.gz")
	fi
	if [ "$a64" = 1 ] && [ "$x86" = 1 ]; then
		# in the static chroot too (qemu-aarch64-static copied in): with no
		# /proc, [vdso] frames stay unnamed as in the dynamic chroot run.
		# Outside, qemu gives the guest its own vdso, not the recording's.
		rm -f "$R"/out.*
		chroot_a64 report -q "$@" --json /out.json --pprof /out.pb.gz \
			>"$o/a64.txt" 2>"$o/a64.err"
		check_eq "$name: aarch64 static under qemu, in the chroot: exit status" "$?" 0
		check "$name: aarch64 static: same report text" diff -u "$o/dyn-chroot.txt" "$o/a64.txt"
		check "$name: aarch64 static: same JSON" \
			diff -u <(jq -S . "$R2/out.json") <(jq -S . "$R/out.json")
		check "$name: aarch64 static: same pprof profile" \
			cmp <(zcat "$R2/out.pb.gz") <(zcat "$R/out.pb.gz")
	elif [ "$a64" = 1 ]; then
		(cd "$R" && qemu-aarch64-static "$A64" report -q "$@" --json "$o/a64.json" \
			--pprof "$o/a64.pb.gz" >"$o/a64.txt" 2>"$o/a64.err")
		check_eq "$name: aarch64 static under qemu: exit status" "$?" 0
		check "$name: aarch64 static: same report text" diff -u "$o/dyn.txt" "$o/a64.txt"
		check "$name: aarch64 static: same JSON" \
			diff -u <(jq -S . "$o/dyn.json") <(jq -S . "$o/a64.json")
		check "$name: aarch64 static: same pprof profile" \
			cmp <(zcat "$o/dyn.pb.gz") <(zcat "$o/a64.pb.gz")
	fi
}
# chroot_a64 ARGS...: the aarch64 static binary under qemu in the static chroot
chroot_a64() {
	"${chroot_cmd[@]}" "$R" /qemu-aarch64-static /aotperf-aarch64 "$@"
}

# into DIR FILE...: copies of FILEs at the same absolute paths under DIR
into() {
	local d=$1 f; shift
	for f in "$@"; do
		[ -f "$f" ] || continue
		mkdir -p "$d$(dirname "$f")" && cp -L "$f" "$d$f"
	done
}

R=$WORK/root R2=$WORK/root-dynamic
mkdir -p "$R"
cp "$S" "$R/sample.cwasm"
rec() { # rec OUT perf-record-options...
	local out=$1; shift
	perf --buildid-dir "$WORK/buildid" record -q -e cpu-clock -k mono -F 2000 "$@" -o "$out" -- \
		"$LOADER" --ms 1000 "$S" >"$WORK/$(basename "$out").log" 2>&1
	check_eq "perf record $*: exit status" "$?" 0
}
rec "$R/z.data" -z
rec "$R/g.data" -g
# the host files the recordings map, and the kernel's symbols
for d in z g; do
	perf script -i "$R/$d.data" --show-mmap-events 2>/dev/null |
		awk '/PERF_RECORD_MMAP2? / && $NF ~ /^\// { print $NF }'
done | sort -u >"$WORK/mapped"
into "$R" $(cat "$WORK/mapped")
mkdir -p "$R/proc" && cat /proc/kallsyms >"$R/proc/kallsyms"
if [ "$x86" = 1 ]; then
	check "the recordings map the loader" grep -qx "$LOADER" "$WORK/mapped"
	cp -a "$R" "$R2"
	cp "$DYN" "$R2/aotperf"
	into "$R2" $(ldd "$DYN" | grep -oE '/[^ ]+')
	cp "$X86" "$R/aotperf"
	[ "$a64" = 1 ] && cp "$A64" "$R/aotperf-aarch64" &&
		cp "$(command -v qemu-aarch64-static)" "$R/qemu-aarch64-static"
fi
if [ "$x86" = 1 ] || [ "$a64" = 1 ]; then
	same zstd-top -i z.data --cwasm sample.cwasm --top 0
	same zstd-hot -i z.data --cwasm sample.cwasm --hot 2
	same callgraph-children -i g.data --cwasm sample.cwasm --children --top 0
fi

# ---- the runtime library ----
# records DUMP: one line per JIT_CODE_LOAD (name, vma, code address, size,
# sha256 of the code) and the header's e_machine, by perf's jitdump
# specification; pid, tid and timestamps are left out
records() {
	python3 - "$1" <<'PY'
import hashlib, struct, sys
d = open(sys.argv[1], "rb").read()
magic, ver, hsize, mach = struct.unpack_from("<IIII", d, 0)
assert magic == 0x4A695444 and ver == 1 and hsize == 40, "bad header"
print("MACHINE", mach)
off = hsize
while off + 16 <= len(d):
    rid, size = struct.unpack_from("<II", d, off)
    if rid == 0:
        vma, addr, csize, idx = struct.unpack_from("<QQQQ", d, off + 24)
        end = d.index(b"\0", off + 56)
        code = d[end + 1:end + 1 + csize]
        assert len(code) == csize and end + 1 + csize == off + size, "bad load"
        print("LOAD", idx, d[off + 56:end].decode(), hex(vma), hex(addr), csize,
              hashlib.sha256(code).hexdigest()[:16])
    else:
        print("RECORD", rid)
    off += size
assert off == len(d), "trailing bytes"
PY
}

# ---- the released shared objects (build*/release/, make dist) ----
# newest GLIBC_ version FILE needs, from its version-needs section
glibc_needed() {
	readelf -V "$1" | sed -n 's/.*Name: GLIBC_\([0-9.]*\).*/\1/p' | sort -V | tail -n1
}
older_than_2_17() { # at most 2.17
	[ "$(printf '%s\n2.17\n' "$1" | sort -V | tail -n1)" = 2.17 ]
}
REL_JIT=$ROOT/build/release/libaotperf-jit.so.1
REL_DLF=$ROOT/build/release/aotperf-dlfilter.so
REL_JIT_A64=$ROOT/build-aarch64/release/libaotperf-jit.so.1
if [ "$x86" = 1 ] && have "$REL_DLF" "released dlfilter" && have "$REL_JIT" "released runtime library"; then
	for so in "$REL_DLF" "$REL_JIT"; do
		n=$(glibc_needed "$so")
		check "release: $(basename "$so") needs glibc $n, at most 2.17" older_than_2_17 "$n"
	done
	check_eq "release: the dlfilter needs libc alone (capstone linked in)" \
		"$(readelf -dW "$REL_DLF" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')" "libc.so.6 "
	# the released dlfilter (capstone inside, old stat bindings) = the built one
	for f in "$ROOT/build/aotperf-dlfilter.so" "$REL_DLF"; do
		perf script -i "$R/z.data" --dlfilter "$f" --dlarg "$S" --dlarg top=0 \
			--dlarg "out=$WORK/dlf.$(basename "$(dirname "$f")").txt" >/dev/null 2>&1
		check_eq "release: perf script --dlfilter $f: exit status" "$?" 0
	done
	check "release: the released dlfilter prints the built one's table" \
		diff -u "$WORK/dlf.build.txt" "$WORK/dlf.release.txt"
	check "release: ... which names functions" grep -q local_func_ "$WORK/dlf.release.txt"
fi

A64CORE=$E2E/../fixtures/real/sidecar-v2-aarch64.cwasm
if [ "$a64" = 1 ] && have "$JD_A64" "aarch64 jitdump driver" && [ -x "$JD_X86" ]; then
	qemu=(qemu-aarch64-static)
	[ -d /usr/aarch64-linux-gnu ] && qemu+=(-L /usr/aarch64-linux-gnu)
	mkdir -p "$WORK/jd-a64" "$WORK/jd-x86" "$WORK/jd-text"
	da=$("${qemu[@]}" "$JD_A64" "$WORK/jd-a64" 183 --cwasm "$A64CORE" 2>"$WORK/jd-a64.err")
	check_eq "jitlib: aarch64 library under qemu: exit status" "$?" 0
	dx=$("$JD_X86" "$WORK/jd-x86" 183 --cwasm "$A64CORE" 2>"$WORK/jd-x86.err")
	check_eq "jitlib: x86_64 library: exit status" "$?" 0
	records "$da" >"$WORK/a64.rec" 2>&1
	check_eq "jitlib: the aarch64 dump parses (perf's jitdump layout)" "$?" 0
	records "$dx" >"$WORK/x86.rec" 2>&1
	check_eq "jitlib: e_machine 183 (EM_AARCH64), one code load per function" \
		"$(head -1 "$WORK/a64.rec") $(grep -c '^LOAD' "$WORK/a64.rec")" \
		"MACHINE 183 $(grep -c '^LOAD' "$WORK/x86.rec")"
	check "jitlib: at least one code load" grep -q '^LOAD' "$WORK/a64.rec"
	check "jitlib: the aarch64 and x86_64 libraries write the same records" \
		diff -u "$WORK/x86.rec" "$WORK/a64.rec"
	# the released libraries (old glibc bindings) in place of the built ones
	for arch in x86 a64; do
		# (the plain build's driver: a sanitized one refuses LD_PRELOAD)
		so=$REL_JIT run=(env "LD_PRELOAD=$so" "$ROOT/build/tests/jitdump_core")
		[ "$arch" = a64 ] && so=$REL_JIT_A64 run=("${qemu[@]}" -E "LD_PRELOAD=$so" "$JD_A64")
		have "$so" "released runtime library ($arch)" || continue
		n=$(glibc_needed "$so")
		check "release: $arch libaotperf-jit.so.1 needs glibc $n, at most 2.17" older_than_2_17 "$n"
		mkdir -p "$WORK/rel-$arch"
		d=$("${run[@]}" "$WORK/rel-$arch" 183 --cwasm "$A64CORE" 2>"$WORK/rel-$arch.err")
		check_eq "release: $arch released library (LD_PRELOAD): exit status" "$?" 0
		records "$d" >"$WORK/rel-$arch.rec" 2>&1
		check "release: $arch released library: the same records" \
			diff -u "$WORK/x86.rec" "$WORK/rel-$arch.rec"
	done
	# aotperf's own reader, on named functions of the fixture's text
	dt=$("${qemu[@]}" "$JD_A64" "$WORK/jd-text" 183 --text "$FIX/sample.text" \
		"$S.syms" 2>"$WORK/jd-text.err")
	check_eq "jitlib: aarch64 library, aotjit_register_core: exit status" "$?" 0
	"$B/tests/test_engines" --dump - --jitdump "$dt" >"$WORK/eng.out" 2>&1
	check_eq "jitlib: aotperf's jitdump reader accepts the aarch64 dump" "$?" 0
	grep '^CODE' "$WORK/eng.out" | sort >"$WORK/eng.got"
	awk '{ print "CODE 0 " $1 " wasm[0]::function[" $1 "]" }' "$S.syms" | sort >"$WORK/eng.want"
	check "jitlib: it reads every function of the .syms ($(wc -l <"$WORK/eng.want"))" \
		diff -q "$WORK/eng.want" "$WORK/eng.got"
fi
finish
