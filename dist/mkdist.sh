#!/bin/sh
# SPDX-License-Identifier: MIT
#
# dist/mkdist.sh VERSION ARCH BUILD_DIR OUT_DIR: OUT_DIR/aotperf-VERSION-ARCH.tar.gz
# from what dist/static.mk built in BUILD_DIR:
#
#   aotperf                     the static executable ($B/aotperf-static)
#   lib/aotperf-dlfilter.so     perf script --dlfilter (capstone linked in)
#   lib/libaotperf-jit.so[.1], lib/libaotperf-jit.a, include/aotperf/jitdump.h
#                               the runtime library
#   README.md                   docs/install.md and docs/recipes.md
#   GLIBC                       the oldest glibc each shared object loads on
#   SHA256SUMS                  of every other file
#
# Refuses a shared object that needs a glibc symbol version newer than
# GLIBC_MAX (2.17, dist/glibc-compat.c): a new glibc-only call must get a
# compat binding there, or the release stops loading on older systems.
set -eu
[ $# -eq 4 ] || { echo "usage: dist/mkdist.sh VERSION ARCH BUILD_DIR OUT_DIR" >&2; exit 2; }
v=$1 arch=$2 b=$3 out=$4
GLIBC_MAX=2.17
name=aotperf-$v-$arch
stage=$b/release/$name
rm -rf "$stage"
mkdir -p "$stage/lib" "$stage/include/aotperf" "$out"
cp "$b/aotperf-static" "$stage/aotperf"
cp "$b/release/aotperf-dlfilter.so" "$b/release/libaotperf-jit.so.1" "$b/libaotperf-jit.a" "$stage/lib/"
ln -s libaotperf-jit.so.1 "$stage/lib/libaotperf-jit.so"
cp jitdump/jitdump.h "$stage/include/aotperf/"

# newest GLIBC_ version a file needs (readelf reads any architecture)
glibc_needed() {
	readelf -V "$1" | sed -n 's/.*Name: GLIBC_\([0-9.]*\).*/\1/p' | sort -V | tail -n1
}
: >"$stage/GLIBC"
for so in lib/aotperf-dlfilter.so lib/libaotperf-jit.so.1; do
	need=$(glibc_needed "$stage/$so")
	if [ "$(printf '%s\n%s\n' "$need" "$GLIBC_MAX" | sort -V | tail -n1)" != "$GLIBC_MAX" ]; then
		echo "mkdist: $so needs GLIBC_$need, newer than GLIBC_$GLIBC_MAX:" \
			"bind it to an older version in dist/glibc-compat.c" >&2
		exit 1
	fi
	echo "$so: glibc >= $need ($arch)" >>"$stage/GLIBC"
done
echo "aotperf: statically linked, no shared library ($arch)" >>"$stage/GLIBC"

{
	printf '# aotperf %s for %s\n\n' "$v" "$arch"
	printf 'The install notes and workflows of aotperf'"'"'s docs (docs/install.md,\n'
	printf 'docs/recipes.md); the repository'"'"'s README.md and docs/ have the rest.\n\n'
	for doc in docs/install.md docs/recipes.md; do
		# a level down under the title; links to other pages become their text
		sed -E 's/^#/##/; s/\[([^]]*)\]\([^)]*\.md[^)]*\)/\1/g' "$doc"
		echo
	done
} >"$stage/README.md"
grep -q '^## Workflows' "$stage/README.md" ||
	{ echo "mkdist: docs/recipes.md has no '# Workflows' heading" >&2; exit 1; }

(cd "$stage" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | LC_ALL=C sort |
	xargs sha256sum >SHA256SUMS)
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$b/release" -cf - "$name" |
	gzip -n >"$out/$name.tar.gz"
echo "dist: $out/$name.tar.gz"
