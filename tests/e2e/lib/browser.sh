# Checks in headless Chromium (tests/browser/*.js, playwright-core and the
# system's chromium, no network) from a test script sourcing common.sh.
# They need chromium, node and tests/browser/setup.sh; without them they are
# skipped with a message, except where AOTPERF_REQUIRE_BROWSER or CI is set
# (.ci/run sets the first), where that fails.
BROWSER_DIR=$(cd "$E2E/../browser" && pwd)

# browser_why: why the checks cannot run here; empty when they can
browser_why() {
	command -v chromium >/dev/null 2>&1 || { echo "chromium is not installed"; return; }
	command -v node >/dev/null 2>&1 || { echo "node is not installed"; return; }
	[ -d "$BROWSER_DIR/node_modules/playwright-core" ] ||
		echo "playwright-core is not installed (bash tests/browser/setup.sh)"
}

# browser_skip WHY: say it, or fail where the checks are required
browser_skip() {
	if [ -n "${AOTPERF_REQUIRE_BROWSER:-}${CI:-}" ]; then
		bad "browser checks are required here but cannot run: $1"
	else
		echo "skip: browser checks: $1"
	fi
}

# browser_run NAME SCRIPT [options]: its ok:/FAIL: lines counted as checks
browser_run() {
	local name=$1 script=$2 line
	shift 2
	(cd "$BROWSER_DIR" && node "$script" "$@") >"$WORK/$name.check" 2>&1
	echo "browser: $name (exit $?)"
	while IFS= read -r line; do
		case $line in
		ok:*) ok "$name: ${line#ok: }" ;;
		FAIL:*) bad "$name: ${line#FAIL: }" ;;
		shot:*) echo "screenshot: ${line#shot: }" ;;
		*) echo "  $line" ;;
		esac
	done <"$WORK/$name.check"
}
