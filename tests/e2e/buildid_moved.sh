#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# A symbolized recording keeps its names when it moves (docs/formats-perf.md
# "Build ids"). aotperf inject's images carry build ids, which the copy's
# HEADER_BUILD_ID and its mapping records name, and perf's build-id cache
# holds the images:
#   ids       the note of each image (readelf -n, perf buildid-list -i IMAGE)
#             == the copy's HEADER_BUILD_ID entry for it (perf buildid-list)
#             == the id in each of its mapping records (perf script); the
#             cache links the id to a copy of the image; inject twice: the
#             same bytes
#   moved     the copy in another folder, the images' folder renamed away:
#             stock perf report --sort sym names the same functions with the
#             same counts as before the move and as an independent
#             attribution (perf script + ref_attr.awk over the original)
#   archived  perf archive as inject prints it; on "the other side" (a new
#             HOME, no buildid.dir, the first cache and the images gone) the
#             printed commands unpack it, and perf report gives those counts
#             again; without the unpack, raw addresses (the names came from
#             the archive, not from a file left behind)
#   -B        a recording without HEADER_BUILD_ID gets one naming the image
#   --jitdump perf inject --jit's copy moved: the same counts (perf caches
#             its jitted-*.so itself)
#   record    aotperf record's copy: its image cached the same way
#   --no-buildid-cache   nothing cached, and the closing lines say so
# With perf 6.12 built (PERF612, else ~/.cache/aotperf/perf-6.12/bin/perf:
# scripts/build-perf612.sh) its perf report reads the moved and the
# unpacked copy too, and its perf archive --unpack unpacks it; else one
# "skip:" line.
#
#   tests/e2e/buildid_moved.sh BUILD_DIR
. "$(dirname "$0")/lib/common.sh"

S=$FIX/sample.cwasm
P612=${PERF612:-$HOME/.cache/aotperf/perf-6.12/bin/perf}
[ -x "$P612" ] && "$P612" version 2>/dev/null | grep -q '^perf version 6\.12' || P612=
HERE=$WORK/vm		# where the recording is made and symbolized
CACHE=$WORK/debug	# perf's build-id cache here: this test's own, even under
			# tests/run.sh's PERF_CONFIG, since it takes it away below
printf '[buildid]\n\tdir = %s\n' "$CACHE" >"$WORK/own.perfconfig"
export PERF_CONFIG=$WORK/own.perfconfig
mkdir -p "$HERE"

record "$HERE/rec.data" -- --ms 1500 "$S"
reference "$HERE/rec.data" "$S.syms" | grep '^FUNC' >"$WORK/ref.counts"

"$AOTPERF" inject -i "$HERE/rec.data" --cwasm "$S" -o "$HERE/perf.jit.data" >"$WORK/inj.out"
check_eq "inject: exit status" "$?" 0
img=$HERE/perf.jit.data.d/sample.core0.aotperf.so
perf_counts "$HERE/perf.jit.data" >"$WORK/before.counts"
same_counts "before the move: perf report == the independent attribution" \
	"$WORK/before.counts" "$WORK/ref.counts"

# ---- the ids ----
id=$(readelf -n "$img" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
check "the image has a 20-byte GNU build id note ($id)" test "${#id}" -eq 40
check "readelf -l: a PT_NOTE segment" bash -c "readelf -lW '$img' | grep -q '^ *NOTE '"
check_eq "perf buildid-list -i IMAGE: the same id" "$(perf buildid-list -i "$img" 2>/dev/null)" "$id"
check_eq "HEADER_BUILD_ID: the image's entry has the note's id" \
	"$(perf buildid-list -i "$HERE/perf.jit.data" 2>/dev/null | gawk -v p="$img" '$2 == p { print $1 }')" \
	"$id"
nmaps=$(perf script -i "$HERE/perf.jit.data" --show-mmap-events 2>/dev/null |
	grep -c "PERF_RECORD_MMAP2 .*$img\$")
check_eq "every mapping record of the image carries the note's id" \
	"$(perf script -i "$HERE/perf.jit.data" --show-mmap-events 2>/dev/null |
	   grep "PERF_RECORD_MMAP2 .*$img\$" | grep -c "<$id>")" "$nmaps"
check "the image is mapped at all ($nmaps records)" test "$nmaps" -gt 0
check "perf's build-id cache links the id to a copy of the image" \
	cmp -s "$CACHE/.build-id/${id:0:2}/${id:2}/elf" "$img"
check "inject's closing lines name the cache folder" \
	grep -qxF "      $CACHE, so a moved copy still names the functions here" "$WORK/inj.out"
sha_copy=$(sha256sum <"$HERE/perf.jit.data")
sha_img=$(sha256sum <"$img")
"$AOTPERF" inject -q -i "$HERE/rec.data" --cwasm "$S" -o "$HERE/perf.jit.data" >/dev/null
check_eq "inject again: the same copy, byte for byte" "$(sha256sum <"$HERE/perf.jit.data")" "$sha_copy"
check_eq "inject again: the same image, byte for byte" "$(sha256sum <"$img")" "$sha_img"

# perf archive, as inject printed it (run where the recording is)
archive=$(sed -n 's/^elsewhere: \(perf archive .*\)$/\1/p' "$WORK/inj.out")
check_eq "the printed archive command" "$archive" "perf archive $HERE/perf.jit.data"
(cd "$HERE" && eval "$archive") >"$WORK/archive.out" 2>&1
check "perf archive packs the image by its id" bash -c \
	"tar tjf '$HERE/perf.jit.data.tar.bz2' | grep -qx '.build-id/${id:0:2}/${id:2}' &&
	 tar tjf '$HERE/perf.jit.data.tar.bz2' | grep -q '/$id/elf\$'"

# ---- moved: another folder, the images' folder gone ----
mkdir -p "$WORK/moved"
mv "$HERE/perf.jit.data" "$WORK/moved/"
mv "$HERE/perf.jit.data.d" "$HERE/gone.d"
perf_counts "$WORK/moved/perf.jit.data" >"$WORK/moved.counts"
same_counts "moved, images gone: perf report == before the move" \
	"$WORK/moved.counts" "$WORK/before.counts"
p612_counts() { # perf_counts, by perf 6.12
	"$P612" report -i "$1" --stdio --no-children --sort sym -n 2>/dev/null |
		gawk '$3 == "[.]" && $4 ~ /^local_func_[0-9]+$/ {
			sub(/^local_func_/, "", $4); n[$4] += $2 }
			END { for (k in n) print "FUNC " k " " n[k] }' | sort
}
if [ -n "$P612" ]; then
	p612_counts "$WORK/moved/perf.jit.data" >"$WORK/moved612.counts"
	same_counts "perf 6.12, moved, images gone: the same counts" \
		"$WORK/moved612.counts" "$WORK/before.counts"
fi

# ---- archived: the other side ----
O=$WORK/other
mkdir -p "$O/home"
cp "$WORK/moved/perf.jit.data" "$HERE/perf.jit.data.tar.bz2" "$O/"
mv "$CACHE" "$WORK/gone.debug"
: >"$O/perfconfig"	# no buildid.dir: perf's default, ~/.debug
other() { (cd "$O" && HOME=$O/home PERF_CONFIG=$O/perfconfig "$@"); }
other perf_counts perf.jit.data >"$WORK/unarchived.counts"
check "the other side, nothing unpacked: perf report names none of the functions" \
	test ! -s "$WORK/unarchived.counts"
unpack=$(sed -n '/^elsewhere: /,$ { s/^      \(mkdir -p .*\)$/\1/p }' "$WORK/inj.out")
check_eq "the printed unpack command" "$unpack" \
	"mkdir -p ~/.debug && tar xf perf.jit.data.tar.bz2 -C ~/.debug"
other bash -c "$unpack" >/dev/null 2>&1
check_eq "the other side: the printed commands unpack it" "$?" 0
other perf_counts perf.jit.data >"$WORK/other.counts"
same_counts "the other side, unpacked: perf report == before the move" \
	"$WORK/other.counts" "$WORK/before.counts"
if [ -n "$P612" ]; then
	other p612_counts perf.jit.data >"$WORK/other612.counts"
	same_counts "perf 6.12, the other side: the same counts" \
		"$WORK/other612.counts" "$WORK/before.counts"
	# perf 6.12's own unpack, into a third side's ~/.debug
	mkdir -p "$O/home3/.debug"
	(cd "$O" && HOME=$O/home3 PERF_CONFIG=$O/perfconfig "$P612" archive --unpack \
		perf.jit.data.tar.bz2 >/dev/null 2>&1)
	check_eq "perf 6.12: perf archive --unpack: exit status" "$?" 0
	(cd "$O" && HOME=$O/home3 PERF_CONFIG=$O/perfconfig p612_counts perf.jit.data) \
		>"$WORK/unpack612.counts"
	same_counts "perf 6.12, after perf archive --unpack: the same counts" \
		"$WORK/unpack612.counts" "$WORK/before.counts"
else
	echo "skip: perf 6.12 not built (scripts/build-perf612.sh)"
fi
mv "$WORK/gone.debug" "$CACHE"

# ---- a recording without HEADER_BUILD_ID (perf record -B) ----
perf record -q -B -e cpu-clock -F 2000 -o "$HERE/nob.data" -- "$LOADER" --ms 400 "$S" \
	>/dev/null 2>&1
"$AOTPERF" inject -q -i "$HERE/nob.data" --cwasm "$S" -o "$HERE/nob.jit.data" >/dev/null
nimg=$HERE/nob.jit.data.d/sample.core0.aotperf.so
check_eq "-B: the copy's HEADER_BUILD_ID lists the image, under the note's id" \
	"$(perf buildid-list -i "$HERE/nob.jit.data" 2>/dev/null)" \
	"$(perf buildid-list -i "$nimg" 2>/dev/null) $nimg"
header() { # the header as perf prints it, but for what the copy changes
	perf report --header-only -I -i "$1" 2>&1 |
		grep -v '^# \(captured on\|data size\|feat offset\|missing features\)'
}
header "$HERE/nob.data" >"$WORK/nob.header"
header "$HERE/nob.jit.data" >"$WORK/nobj.header"
check "-B: every other header feature reads as in the recording ($(wc -l <"$WORK/nob.header") lines)" \
	cmp -s "$WORK/nob.header" "$WORK/nobj.header"
reference "$HERE/nob.data" "$S.syms" | grep '^FUNC' >"$WORK/nob.ref"
mv "$HERE/nob.jit.data.d" "$HERE/nob.gone.d"
perf_counts "$HERE/nob.jit.data" >"$WORK/nob.counts"
same_counts "-B, images gone: perf report == the independent attribution" \
	"$WORK/nob.counts" "$WORK/nob.ref"

# ---- --jitdump: perf inject --jit's own files ----
"$AOTPERF" inject --jitdump -i "$HERE/rec.data" --cwasm "$S" -o "$HERE/j.data" >"$WORK/j.out"
check_eq "--jitdump: exit status" "$?" 0
check "--jitdump: the closing lines say perf cached its files" \
	grep -q "^build ids: perf inject --jit put its jitted-\*.so files in perf's build-id" "$WORK/j.out"
mkdir -p "$WORK/jmoved"
mv "$HERE/j.data" "$WORK/jmoved/"
mv "$HERE/j.data.d" "$HERE/j.gone.d"
perf_counts "$WORK/jmoved/j.data" >"$WORK/j.counts"
same_counts "--jitdump, moved, jitted files gone: perf report == before the move" \
	"$WORK/j.counts" "$WORK/before.counts"

# ---- aotperf record: the same copy, cached the same way ----
mkdir -p "$WORK/rec"	# a cache of its own: the image may have inject's id
printf '[buildid]\n\tdir = %s/debug\n' "$WORK/rec" >"$WORK/rec/perfconfig"
PERF_CONFIG=$WORK/rec/perfconfig "$AOTPERF" record -q --cwasm "$S" -o "$WORK/rec/r.data" -- \
	"$LOADER" --ms 500 "$S" >"$WORK/rec.out" 2>&1
check_eq "record: exit status" "$?" 0
rimg=$(ls "$WORK"/rec/*.d/*.aotperf.so 2>/dev/null | head -1)
rid=$(readelf -n "$rimg" 2>/dev/null | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p')
check "record: its image is in perf's build-id cache by its id (${rid:-no image})" \
	cmp -s "$WORK/rec/debug/.build-id/${rid:0:2}/${rid:2}/elf" "$rimg"

# ---- --no-buildid-cache ----
N=$WORK/nocache
mkdir -p "$N"
printf '[buildid]\n\tdir = %s/debug\n' "$N" >"$N/perfconfig"
PERF_CONFIG=$N/perfconfig "$AOTPERF" inject --no-buildid-cache -i "$HERE/rec.data" --cwasm "$S" \
	-o "$N/perf.jit.data" >"$WORK/nc.out"
check_eq "--no-buildid-cache: exit status" "$?" 0
check "--no-buildid-cache: nothing in the cache" test ! -e "$N/debug"
check "--no-buildid-cache: the closing lines say the images are not cached" \
	grep -q "^      cache (--no-buildid-cache): perf report finds them only where they are" \
	"$WORK/nc.out"
check "--no-buildid-cache: and print no archive route" bash -c "! grep -q '^elsewhere' '$WORK/nc.out'"

finish
