#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Parse a JSON report the way the upstream helper's consumers do.

docs/helper-interface.md lists every key of the helper's schema-2 JSON
with its type, and what the users' harnesses read from it (a keyvault
benchmark, a CoreMark profile script, a hot-function comparison). This
checks a document against that list, strictly: integers must be ints (not
bools, not floats), percentages floats, paths absolute. It prints one line
per problem and "N passed, N failed" last; exit 1 on any problem.

  helper_json.py FILE [--func] [--frame] [--static] [--schema-version N]
"""
import json
import math
import os
import sys

passed = 0
failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def is_float(v):
    return isinstance(v, float)


def has(obj, key, test, what):
    ok(isinstance(obj, dict) and key in obj and test(obj[key]), f"{what}.{key}")
    return obj.get(key) if isinstance(obj, dict) else None


def check_top(doc, static, schema_version):
    has(doc, "schema_version", lambda v: is_int(v) and v == schema_version, "")
    has(doc, "architecture", lambda v: v in ("x86_64", "aarch64"), "")
    t = has(doc, "artifact_target", lambda v: isinstance(v, dict), "")
    has(t, "architecture", lambda v: isinstance(v, str), "artifact_target")
    has(t, "abi", lambda v: v is None or v in ("sysv", "win64", "aapcs64"), "artifact_target")
    has(t, "format", lambda v: v in ("elf64-little", "coff64", "legacy-unspecified"),
        "artifact_target")
    has(t, "verified", lambda v: isinstance(v, bool), "artifact_target")
    has(doc, "authoritative", lambda v: isinstance(v, bool), "")
    if static:
        has(doc, "perf", lambda v: v is None, "")
    else:
        has(doc, "perf", lambda v: isinstance(v, str) and os.path.isabs(v), "")
    has(doc, "cwasm", lambda v: isinstance(v, str) and os.path.isabs(v), "")
    has(doc, "text_base", lambda v: (v is None) if static else is_int(v), "")
    for key in ("text_size", "function_count", "total_samples", "attributed_samples"):
        has(doc, key, is_int, "")
    for key in ("attribution_coverage_pct", "minimum_attribution_coverage_pct"):
        has(doc, key, is_float, "")
    m = has(doc, "mapping", lambda v: (v is None) if static else isinstance(v, dict), "")
    if not static:
        for key in ("base", "size", "text_size", "page_size", "expected_size"):
            has(m, key, is_int, "mapping")
        c = has(m, "candidates", lambda v: isinstance(v, list) and len(v) >= 1, "mapping")
        for i, cand in enumerate(c or []):
            has(cand, "base", is_int, f"mapping.candidates[{i}]")
            has(cand, "size", is_int, f"mapping.candidates[{i}]")
        sizes = [cand.get("size") for cand in c or []]
        ok(sizes == sorted(sizes, reverse=True), "mapping.candidates by size, descending")
        has(m, "authoritative", lambda v: isinstance(v, bool), "mapping")
        has(m, "override", lambda v: v is None or isinstance(v, str), "mapping")
        ok(m and m.get("base") == doc.get("text_base"), "mapping.base == text_base")
    top = has(doc, "top_functions", lambda v: isinstance(v, list), "")
    for i, f in enumerate(top or []):
        for key in ("local_func", "samples", "code_bytes"):
            has(f, key, is_int, f"top_functions[{i}]")
        has(f, "percent_of_run", is_float, f"top_functions[{i}]")
    # bench_keyvault.py: a number it compares with its own minimum
    ok(is_float(doc.get("attribution_coverage_pct")) and
       0.0 <= doc["attribution_coverage_pct"] <= 100.0, "coverage in 0..100")


def check_func(doc, frame, static):
    cf = has(doc, "classified_function", lambda v: isinstance(v, dict), "")
    if not isinstance(cf, dict):
        return
    for key in ("local_func", "samples", "instruction_count"):
        has(cf, key, is_int, "classified_function")
    has(cf, "percent_of_run", is_float, "classified_function")
    classes = has(cf, "classes", lambda v: isinstance(v, dict) and v, "classified_function")
    for name, c in (classes or {}).items():
        has(c, "samples", is_int, f"classes.{name}")
        has(c, "static_instructions", is_int, f"classes.{name}")
        has(c, "percent_of_run", is_float, f"classes.{name}")
        ok(c.get("samples") or c.get("static_instructions"), f"classes.{name} occurs")
    # compare_hot_function.py: the class samples add up exactly, the share fits
    ok(sum(c["samples"] for c in (classes or {}).values()) == cf.get("samples"),
       "class samples add up to the function's")
    total = doc.get("total_samples")
    if total:
        ok(abs(cf["percent_of_run"] - 100.0 * cf["samples"] / total) <= 0.05,
           "percent_of_run within 0.05 of 100 * samples / total")
    hot = has(cf, "hottest_instructions", lambda v: isinstance(v, list) and len(v) <= 20,
              "classified_function")
    base = doc.get("text_base")
    for i, h in enumerate(hot or []):
        has(h, "samples", is_int, f"hottest_instructions[{i}]")
        has(h, "percent_of_run", is_float, f"hottest_instructions[{i}]")
        has(h, "address", is_int, f"hottest_instructions[{i}]")
        has(h, "instruction", lambda v: isinstance(v, str) and v, f"hottest_instructions[{i}]")
        # profile_coremark_aarch64.py subtracts text_base from the address
        if is_int(base) and is_int(h.get("address")):
            ok(0 <= h["address"] - base < doc["text_size"], f"hottest[{i}] inside the text")
    if static:
        ok(not hot, "no hottest instructions without a recording")
    if frame:
        check_frame(cf)


def check_frame(cf):
    fa = has(cf, "frame_attribution", lambda v: isinstance(v, dict), "classified_function")
    has(cf, "frame_metadata", lambda v: isinstance(v, str) and os.path.isabs(v),
        "classified_function")
    has(cf, "frame_metadata_module", is_int, "classified_function")
    ident = has(cf, "frame_metadata_identity", lambda v: isinstance(v, dict),
                "classified_function")
    has(ident, "schema", lambda v: v == "wamr-aot-frame-attribution", "identity")
    has(ident, "schema_version", lambda v: v in (1, 2) and is_int(v), "identity")
    for key in ("compiler_build_id", "module_text_sha256", "normalized_code_sha256"):
        has(ident, key, lambda v: isinstance(v, str), "identity")
    cov = has(fa, "coverage", lambda v: isinstance(v, dict), "frame_attribution")
    for key in ("frame_instructions", "attributed_frame_instructions", "frame_samples",
                "attributed_frame_samples", "proven_origin_frame_instructions",
                "unknown_frame_instructions", "proven_origin_frame_samples",
                "unknown_frame_samples"):
        has(cov, key, is_int, "coverage")
    for key in ("static_coverage_pct", "metadata_mapping_coverage_pct", "origin_coverage_pct",
                "sample_coverage_pct", "origin_sample_coverage_pct"):
        has(cov, key, is_float, "coverage")
    origins = has(fa, "origins", lambda v: isinstance(v, dict) and v, "frame_attribution")
    for name, o in (origins or {}).items():
        ok(name in ("allocator_spill", "wasm_local_or_phi", "explicit_frame_storage",
                    "fixed_runtime_frame_state", "unknown"), f"origin name {name}")
        has(o, "static_instructions", lambda v: is_int(v) and v > 0, f"origins.{name}")
        has(o, "samples", is_int, f"origins.{name}")
        has(o, "percent_of_frame_samples", is_float, f"origins.{name}")
    contrib = has(fa, "allocator_contributors", lambda v: isinstance(v, list),
                  "frame_attribution")
    for i, k in enumerate(contrib or []):
        w = f"allocator_contributors[{i}]"
        for key in ("slot", "frame_offset", "static_loads", "static_stores", "samples"):
            has(k, key, is_int, w)
        has(k, "vreg", lambda v: v is None or is_int(v), w)
        has(k, "vreg_ambiguous", lambda v: isinstance(v, bool), w)
        has(k, "candidate_vregs", lambda v: isinstance(v, list) and all(map(is_int, v)), w)
        for key in ("defining_opcode", "source_class"):
            has(k, key, lambda v: v is None or isinstance(v, str), w)
        has(k, "rematerialization_eligible", lambda v: v is None or isinstance(v, bool), w)
        for key in ("source_reload_count", "source_store_count", "source_ir_use_count",
                    "source_ir_def_count"):
            has(k, key, lambda v: v is None or is_int(v), w)
    ranked = [(-k["samples"], -(k["static_loads"] + k["static_stores"]), k["slot"],
               -1 if k["vreg"] is None else k["vreg"]) for k in contrib or []]
    ok(ranked == sorted(ranked), "contributors ranked by samples, static, slot, vreg")
    unknown = has(fa, "unknown_instructions", lambda v: isinstance(v, list), "frame_attribution")
    for i, u in enumerate(unknown or []):
        w = f"unknown_instructions[{i}]"
        for key in ("native_offset", "address", "samples"):
            has(u, key, is_int, w)
        has(u, "instruction", lambda v: isinstance(v, str), w)
        has(u, "base", lambda v: v in ("rbp", "rsp", "x29", "sp"), w)
        has(u, "frame_offset", lambda v: v is None or is_int(v), w)
        has(u, "complex_address", lambda v: isinstance(v, bool), w)
    rec = has(fa, "reconciliation", lambda v: isinstance(v, dict), "frame_attribution")
    for key in ("emitted_allocator_loads", "emitted_allocator_stores", "spill_metric_loads",
                "spill_metric_stores"):
        has(rec, key, is_int, "reconciliation")
    has(rec, "matches", lambda v: v is True, "reconciliation")


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        text = f.read()
    doc = json.loads(text, parse_constant=lambda c: math.nan)
    static = "--static" in args
    version = 2
    if "--schema-version" in args:
        version = int(args[args.index("--schema-version") + 1])
    check_top(doc, static, version)
    if "--func" in args or "--frame" in args:
        check_func(doc, "--frame" in args, static)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
