#!/usr/bin/env bash
# docs/platforms.md against the scripts: for every case in its "Cases"
# table (a platform and kernel flavour, given as AOTPERF_* facts), the
# package names that kernel-tools-compat/install-perf.sh --dry-run and
# scripts/test-deps.sh --dry-run print must be the names its "make deps" and
# "make test-deps" tables list, the libperf source must be its "libperf from"
# cell, what test-deps cannot install must be its "cannot install there"
# cell, and every name must have a row in "Where each name comes from".
# The same comparison on a copy of the doc with one name dropped must fail.
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
ROOT=$(cd "$E2E/../.." && pwd)
INSTALL=$ROOT/kernel-tools-compat/install-perf.sh
TESTDEPS=$ROOT/scripts/test-deps.sh
DOC=$ROOT/docs/platforms.md
OSR=$ROOT/tests/kernel-tools-compat

# table DOC HEADING: the rows of the first table under "## HEADING", cells
# trimmed and joined by "|" (header and separator rows left out).
table() {
	awk -v h="## $2" '
		$0 == h { on = 1; next }
		on && /^## / { exit }
		on && /^\|/ {
			n++
			if (n <= 2) next
			line = $0; sub(/^\| */, "", line); sub(/ *\|$/, "", line)
			k = split(line, c, / *\| */); out = ""
			for (i = 1; i <= k; i++) out = out (i > 1 ? "|" : "") c[i]
			print out
		}
		on && n > 0 && !/^\|/ { exit }' "$1"
}

words() { tr ' ' '\n' | sed '/^$/d' | sort -u; }

# install_names: package names in the install commands of a dry run
install_names() {
	gawk '/(^| )(tdnf|dnf|apt-get) / && / install / {
		seen = 0
		for (i = 1; i <= NF; i++) {
			if (!seen) { if ($i == "install") seen = 1; continue }
			if ($i !~ /^-/) print $i
		}
	}' | sort -u
}

# libperf_src: the curl URL, else the tarball build-libperf.sh is given, else "-"
libperf_src() {
	gawk '$1 == "curl" { url = $NF }
	      $1 == "bash" && $2 ~ /build-libperf\.sh$/ { tb = $3 }
	      END { print (url != "" ? url : (tb != "" ? tb : "-")) }'
}

# cannot_names: the names on test-deps' "cannot install on ...:" line
cannot_names() {
	sed -n 's/^test-deps: cannot install on [^:]*: \([^(]*\) (.*/\1/p' | words
}

platform_of() { case $1 in azl3-*) echo azl3 ;; rhel-like) echo rhel ;; *) echo "$1" ;; esac; }

# diffs DESC GOT WANT: empty when equal, else one line of what differs
diffs() {
	local extra missing
	extra=$(comm -23 <(words <<<"$2") <(words <<<"$3") | tr '\n' ' ')
	missing=$(comm -13 <(words <<<"$2") <(words <<<"$3") | tr '\n' ' ')
	[ -z "$extra$missing" ] || echo "$1: script has [${extra% }] the doc has not; doc has [${missing% }] the script has not"
}

# compare DOC: every disagreement between the scripts and DOC, one a line
compare() {
	local doc=$1 name os r m kpkg out err dn dl tn tc all
	local -A deps_pkgs deps_lib test_pkgs test_cannot
	while IFS='|' read -r name dn dl; do
		deps_pkgs[$name]=$dn; deps_lib[$name]=${dl//\`/}
	done < <(table "$doc" "make deps")
	while IFS='|' read -r name tn tc; do
		test_pkgs[$name]=$tn; test_cannot[$name]=$tc
	done < <(table "$doc" "make test-deps")
	# "platform name" for every name in the sources table
	table "$doc" "Where each name comes from" |
		awk -F'|' '{ k = split($2, w, " "); for (i = 1; i <= k; i++) print $1, w[i] }' |
		sort -u >"$WORK/src.pairs"
	while IFS='|' read -r name os r m kpkg; do
		[ -n "${deps_pkgs[$name]+x}" ] || { echo "$name: no row in 'make deps'"; continue; }
		[ -n "${test_pkgs[$name]+x}" ] || { echo "$name: no row in 'make test-deps'"; continue; }
		out=$(AOTPERF_OS_RELEASE=$OSR/os-release.$os AOTPERF_UNAME_R=$r AOTPERF_UNAME_M=$m \
			AOTPERF_KERNEL_PKG=$kpkg bash "$INSTALL" --dry-run 2>/dev/null) ||
			echo "$name: install-perf.sh --dry-run failed"
		diffs "$name make deps" "$(install_names <<<"$out")" "${deps_pkgs[$name]}"
		[ "$(libperf_src <<<"$out")" = "${deps_lib[$name]}" ] ||
			echo "$name: libperf from '$(libperf_src <<<"$out")', doc '${deps_lib[$name]}'"
		all=$(install_names <<<"$out")
		out=$(AOTPERF_OS_RELEASE=$OSR/os-release.$os AOTPERF_UNAME_R=$r AOTPERF_UNAME_M=$m \
			bash "$TESTDEPS" --dry-run 2>"$WORK/td.err") ||
			echo "$name: test-deps.sh --dry-run failed"
		err=$(cat "$WORK/td.err")
		diffs "$name make test-deps" "$(install_names <<<"$out")" "${test_pkgs[$name]}"
		diffs "$name cannot install" "$(cannot_names <<<"$err")" "${test_cannot[$name]}"
		[ "$(grep -c 'cannot install on' <<<"$err")" -le 1 ] ||
			echo "$name: more than one 'cannot install' line"
		all+=$'\n'$(install_names <<<"$out")$'\n'$(cannot_names <<<"$err")
		words <<<"$all" | sed "s/^/$(platform_of "$name") /" | comm -23 - "$WORK/src.pairs" |
			sed "s/^\([^ ]*\) \(.*\)/$name: '\2' has no row for \1 in 'Where each name comes from'/"
	done < <(table "$doc" "Cases")
}

cases=$(table "$DOC" "Cases" | cut -d'|' -f1 | tr '\n' ' ')
check_eq "the doc's cases: every platform and flavour" "$cases" \
	"azl3-x86_64 azl3-hwe azl3-arm64-64k azl3-arm64 fedora rhel-like ubuntu debian "
check_eq "each case row has 5 cells" "$(table "$DOC" "Cases" | awk -F'|' 'NF != 5' | wc -l)" 0
problems=$(compare "$DOC")
if [ -z "$problems" ]; then
	ok "install-perf.sh and test-deps.sh agree with docs/platforms.md on every case"
else
	bad "docs/platforms.md and the scripts disagree:"$'\n'"$problems"
fi

# The comparison can fail: the doc without capstone-devel on Azure Linux,
# without Debian's cmark-gfm, with another libperf tarball, without the
# source of vim-extra.
# shellcheck disable=SC2016 # backquotes: Markdown code, not the shell's
sed -e '/^| azl3-hwe |/s/ capstone-devel / /' -e '/^| azl3 | vim-extra |/d' \
    -e '/^| debian | clang /s/ cmark-gfm / /' \
    -e '/^| ubuntu |/s/linux-source-6.8.0.tar.bz2`/linux-source-6.8.tar.bz2`/' "$DOC" >"$WORK/doc.md"
bad_out=$(compare "$WORK/doc.md")
check "a doc missing azl3-hwe's capstone-devel fails" grep -q "^azl3-hwe make deps: script has \[capstone-devel\]" <<<"$bad_out"
check "a doc missing Debian's cmark-gfm fails" grep -q "^debian make test-deps: script has \[cmark-gfm\]" <<<"$bad_out"
check "a doc with another Ubuntu tarball fails" grep -q "^ubuntu: libperf from" <<<"$bad_out"
check "a name without a source row fails, for each case" \
	[ "$(grep -c "^azl3-.*: 'vim-extra' has no row for azl3" <<<"$bad_out")" = 4 ]
check_eq "and nothing else differs" "$(wc -l <<<"$bad_out")" 7

# Facts from the kernel's shape when the machine is another one
k=$(AOTPERF_OS_RELEASE=$OSR/os-release.azurelinux AOTPERF_UNAME_R=6.18.31.1-1.azl3 \
	bash "$INSTALL" --dry-run --perf-only 2>/dev/null)
check_eq "azl3: a 6.18 kernel is kernel-hwe's" "$k" "tdnf install -y kernel-hwe-tools-6.18.31.1-1.azl3"
finish
