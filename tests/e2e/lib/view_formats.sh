# SPDX-License-Identifier: MIT
# formats VIEW NAME TEXT JSON [MARKDOWN [HTML]] [KEY=VALUE...]: one view's
# formats state the same numbers (tests/e2e/lib/view_formats.py), each of
# its lines a check of the calling script (common.sh's ok and bad).
formats() {
	local view=$1 name=$2 line
	shift 2
	while IFS= read -r line; do
		case $line in
		ok:*) ok "$name: ${line#ok: }" ;;
		FAIL:*) bad "$name: ${line#FAIL: }" ;;
		*) bad "$name: $line" ;;
		esac
	done < <(python3 "$E2E/lib/view_formats.py" "$view" "$@" 2>&1)
}
