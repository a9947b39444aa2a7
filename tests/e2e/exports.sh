#!/usr/bin/env bash
# The HTML report (headless Chromium), pprof and data-document checks live in
# tests/browser/exports.sh; tests/run.sh runs the scripts in this folder.
exec bash "$(dirname "$0")/../browser/exports.sh" "$@"
