#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What the HTML report's browser test needs (tests/browser/exports.sh):
# headless Chromium and Node.js from Debian (apt), playwright-core from npm
# at the version package-lock.json pins, into tests/browser/node_modules.
# Idempotent; CI runs it (.ci/run). Elsewhere: install chromium and node
# (>= 18) yourself, then `npm ci` in tests/browser.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
	if ! command -v apt-get >/dev/null 2>&1; then
		echo "browser setup: not a Debian system: install ${need[*]}, then npm ci in $here" >&2
		exit 1
	fi
	[ "$(id -u)" = 0 ] || { echo "browser setup: need root to install: ${need[*]}" >&2; exit 1; }
	apt-get -o DPkg::Lock::Timeout=900 update -qq
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
	echo "browser setup: installed ${need[*]}"
fi
want=$(sed -n 's/.*"playwright-core": *"\([^"]*\)".*/\1/p' "$here/package.json")
have=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$here/node_modules/playwright-core/package.json" 2>/dev/null | head -n1 || true)
if [ "$have" != "$want" ]; then
	(cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
	echo "browser setup: playwright-core $want in $here/node_modules"
fi
