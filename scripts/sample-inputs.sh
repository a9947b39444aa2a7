#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Sample inputs for `aotperf spills` and `aotperf compare`, made offline
# from what the repository ships (docs/recipes.md, "Sample inputs"):
#   OUT/spill.log    a spill log of the bundled sample (build/fixtures/
#                    sample.cwasm) in wamrc's [aot-spill-metric] format; the
#                    sample is assembled, not compiled by wamrc, so its
#                    numbers are made up (from each function's size)
#   OUT/sample.data  a recording of the loader running the sample
#   OUT/module.wasm, OUT/wm.cwasm  tests/engines/module.wat for V8, and the
#                    WAMR side of the same module (tests/engines/wamr_module.S)
#   OUT/wamr.data, OUT/node.data, OUT/node.jit.data  the two engines' runs
#                    (needs node and wabt's wat2wasm; skipped without them)
#
#   scripts/sample-inputs.sh BUILD_DIR OUT_DIR
set -euo pipefail
B=$(cd "${1:?usage: $0 BUILD_DIR OUT_DIR}" && pwd)
mkdir -p "${2:?usage: $0 BUILD_DIR OUT_DIR}"
OUT=$(cd "$2" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=$B/fixtures/sample.cwasm
rec() { perf record -q -e cpu-clock -k mono -F 999 "$@" >/dev/null 2>&1; }

# one metric line per function but the entry trampolines
# (WAMR_AOT_SPILL_METRIC_MIN_SPILLS=1 leaves out functions without spills)
gawk '$4 !~ /^entry_/ {
	idx = $1; size = $3; ld = 1 + int(size / 40) % 50
	printf "[aot-spill-metric] local_func=%d mod=0 name=%s insts=%d clobbers=%d slots=%d" \
	       " spilled_vregs=%d scalar=%d v128=0 slots_scalar=%d slots_v128=0 spill_ld=%d" \
	       " spill_st=%d remat=%d callee_saved=2\n", idx, $4, int(size / 3), idx % 5,
	       ld % 13, ld % 17, ld % 17, ld % 13, ld, int(ld / 2), idx % 3
}' "$S.syms" >"$OUT/spill.log"
rec -o "$OUT/sample.data" -- "$B/tests/loader" --ms 600 "$S"
echo "wrote $OUT/spill.log, $OUT/sample.data"

if ! command -v node >/dev/null || ! command -v wat2wasm >/dev/null; then
	echo "skipped the V8 side: needs node and wat2wasm (Debian: nodejs, wabt)"
	exit 0
fi
wat2wasm --debug-names "$ROOT/tests/engines/module.wat" -o "$OUT/module.wasm"
as -o "$OUT/wm.o" "$ROOT/tests/engines/wamr_module.S"
objcopy -O binary -j .text "$OUT/wm.o" "$OUT/wm.text"
nm -n --defined-only "$OUT/wm.o" >"$OUT/wm.nm"
# module.wat imports 2 functions: wasm index = local_func + 2
"$B/tests/mkfixture" --text "$OUT/wm.text" --nm "$OUT/wm.nm" --version 7 --imports 2 \
	-o "$OUT/wm.cwasm" >/dev/null
rec -o "$OUT/wamr.data" -- "$B/tests/loader" --ms 600 --mix sum:2,dispatch:1 "$OUT/wm.cwasm"
# node writes its jitdump into the working folder, perf inject --jit its jitted-*.so there too
(cd "$OUT" && rec -o node.data -- node --perf-prof "$ROOT/tests/engines/run.js" module.wasm 1000 &&
	perf inject --jit -i node.data -o node.jit.data 2>/dev/null)
echo "wrote $OUT/wm.cwasm, $OUT/wamr.data, $OUT/node.jit.data"
