#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds as users build: the tool, its libraries and the unit tests with
# other optimisation levels and compilers than the default -O2 gcc, warnings
# as errors (WERROR=1), each into its own folder, then the unit tests of
# each. A user's build never stops on a warning (the Makefile adds -Werror
# only with WERROR=1); this keeps the tree free of the warnings those
# builds show, so their users see none.
#
#   scripts/check-builds.sh [NAME...]    NAME: O1 O3 clang (default: all)
set -uo pipefail
cd "$(dirname "$0")/.."
configs=("${@:-O1 O3 clang}")
read -r -a configs <<<"${configs[*]}"
failed=0
for name in "${configs[@]}"; do
	case $name in
	O1) args=(CFLAGS="-O1 -g") ;;
	O3) args=(CFLAGS="-O3 -g") ;;
	clang)
		command -v clang >/dev/null || { echo "check-builds: clang: not installed (make test-deps)"; failed=1; continue; }
		args=(CC=clang) ;;
	*) echo "check-builds: unknown build '$name' (O1, O3, clang)" >&2; exit 2 ;;
	esac
	dir=build-$name
	log=$(mktemp "${TMPDIR:-/tmp}/check-builds.XXXXXX")
	if ! make -j"$(nproc)" -s B="$dir" WERROR=1 "${args[@]}" all unit >"$log" 2>&1; then
		echo "FAIL build $name (${args[*]}):"; grep -E 'error|warning' "$log" | head -n 20
		failed=1; rm -f "$log"; continue
	fi
	rm -f "$log"
	units=0 ufail=0
	for t in "$dir"/tests/test_*; do
		[ -x "$t" ] || continue
		units=$((units + 1))
		FIXTURES=$PWD/$dir/fixtures BUILD=$PWD/$dir "$t" >/dev/null 2>&1 ||
			{ echo "FAIL $name: $(basename "$t")"; ufail=$((ufail + 1)); }
	done
	[ "$ufail" -eq 0 ] || failed=1
	echo "build $name (${args[*]}, WERROR=1): clean; unit tests $((units - ufail))/$units passed"
done
exit $failed
