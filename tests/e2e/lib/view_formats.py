#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One view in every format states the same numbers (docs/views.md).

    view_formats.py VIEW TEXT JSON [MARKDOWN [HTML]] [KEY=VALUE...]

reads aotperf's text, JSON, Markdown and the HTML page's data document of
the same run with the same options and prints "ok: ..." or "FAIL: ..." per
check: the rows the text lists are the JSON's and the Markdown's, cell by
cell, in the text's own rounding (a share of 12.3456% is "12.35" in all
three); the page's document holds the JSON's members unchanged. VIEW is
callgraph, offcpu, compare, spills or frames. The numbers themselves are
checked against perf script by the calling test.
"""
import json
import re
import sys

fails = 0


def ok(what):
    print("ok: " + what)


def bad(what):
    global fails
    fails += 1
    print("FAIL: " + what)


def check_eq(what, got, want):
    if got == want:
        ok(what)
    else:
        bad("%s: got %r, want %r" % (what, got, want))


def same_name(text, full):
    """a text cell cut with "..." (a narrow terminal) names full if its start matches"""
    if text == full:
        return True
    return text.endswith("...") and full.startswith(text[:-3])


# ---- the formats ----

def text_table(lines, head_re, start=0):
    """rows (lists of cells, split on blanks) of the table whose heading
    matches head_re, at or after line start, up to a line that is blank
    or not indented; (rows, index of the heading) or (None, -1)"""
    for i in range(start, len(lines)):
        if re.match(head_re, lines[i]):
            rows = []
            for line in lines[i + 1:]:
                # a note under the table: "  ... N more", "  word: ..."
                if not line.startswith("  ") or not line.strip() or \
                        re.match(r"^  +(\.\.\.|\S+: )", line):
                    break
                rows.append(line.split())
            return rows, i
    return None, -1


def md_tables(path):
    """[(the heading above, [header cells], [rows of cells])] of a Markdown file"""
    out, head, cur = [], "", None
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("#"):
            head = line.lstrip("#").strip()
        if line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            cells = [re.sub(r"\\(.)", r"\1", c).strip("`") for c in cells]
            if cur is None:
                cur = (head, cells, [])
                out.append(cur)
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
                cur[2].append(cells)
        else:
            cur = None
    return out


def md_table(tables, head_prefix, header_first=None):
    for h, header, rows in tables:
        if h.startswith(head_prefix) and (header_first is None or header[0] == header_first):
            return header, rows
    return None, None


def html_doc(path):
    s = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="aotperf-data">(.*?)</script>', s, re.S)
    return json.loads(m.group(1))


def pct(x, d=2):
    return "%.*f" % (d, x)


def pct_as(text, x, d=2):
    """text's share when it is x to its printed digits (the JSON's x is itself
    rounded: 12.475 in the JSON, 12.47 or 12.48 in the text), else x printed"""
    try:
        if abs(float(text.rstrip("%")) - x) <= 0.5 * 10 ** -d + 1e-9:
            return text
    except ValueError:
        pass
    return pct(x, d) + ("%" if text.endswith("%") else "")


def ms(ns):
    return "%.3f" % (ns / 1e6)


def doc_has_json(doc, j, keys, what):
    """the page's document holds the JSON's members, unchanged"""
    diff = [k for k in keys if doc.get(k) != j.get(k)]
    check_eq(what + ": the HTML document's members are the JSON's (%s)" % ", ".join(keys),
             diff, [])


# ---- call graph ----

def callgraph(text, j, md, doc, args):
    lines = open(text).read().split("\n")
    m = re.search(r"^  stacks +(\d+) ", "\n".join(lines), re.M)
    check_eq("call graph: stacks, text = JSON", m and int(m.group(1)),
             j["call_graph"]["samples"])
    tables = md_tables(md)
    rows, _ = text_table(lines, r"^  +Children +Self ")
    total = j["call_graph"]["samples"]
    want = [[pct(100.0 * r["children_samples"] / total) + "%",
             pct(100.0 * r["self_samples"] / total) + "%", str(r["children_samples"]),
             str(r["self_samples"]), r["name"]] for r in j["children"]]
    got = rows or []
    check_eq("--children: rows, text = JSON", len(got), len(want))
    check_eq("--children: every cell, text = JSON",
             [g[:4] for g in got if len(g) == 5], [w[:4] for w in want][:len(got)])
    check_eq("--children: names, text = JSON (cut with ... at the width)",
             [g[4] for g, w in zip(got, want) if not same_name(g[4], w[4])], [])
    _, mrows = md_table(tables, "Inclusive (children)")
    check_eq("--children: Markdown = JSON", mrows, want)
    # callers / callees: per asked function
    for kind in ("callers", "callees"):
        for e in j.get(kind, []):
            name, edges = e["name"], e[kind]
            # the share from the counts, not the JSON's rounded share rounded again
            # (67 of 117 is 57.26%; 57.265 would round to 57.27)
            tot = e["children_samples"]
            want = [[str(x["samples"]), pct(100.0 * x["samples"] / tot) + "%", x["name"]]
                    for x in edges]
            check_eq("%s of %s: JSON's percent_of_function = samples / the function's" % (kind, name),
                     [x["name"] for x in edges
                      if abs(x["percent_of_function"] - 100.0 * x["samples"] / tot) > 0.006], [])
            start = next((i for i, l in enumerate(lines) if l == "%s of %s" % (kind, name)), -1)
            rows, _ = text_table(lines, r"^  +Samples ", start) if start >= 0 else (None, -1)
            check_eq("%s of %s: text = JSON" % (kind, name),
                     [r[:2] for r in rows or []], [w[:2] for w in want])
            _, mrows = md_table(tables, "%s of %s" % (kind.capitalize(), name))
            check_eq("%s of %s: Markdown = JSON" % (kind, name), mrows, want)
    if doc:
        doc_has_json(doc, j, ["call_graph", "children", "callers", "callees"], "call graph")
        # the page's stack tree: each shown symbol's inclusive samples, once a stack
        nodes = doc["stacks"]["nodes"]
        incl = {}
        for i, n in enumerate(nodes):
            if not n["self"]:
                continue
            seen, k = set(), i
            while k >= 0:
                seen.add(nodes[k]["name"])
                k = nodes[k]["parent"]
            for s in seen:
                incl[s] = incl.get(s, 0) + n["self"]
        # two nodes of one name under one parent are two symbols (the loader's
        # _start and ld.so's): the tree holds no dso, so such a name is not compared
        siblings, twice = set(), set()
        for n in nodes:
            (twice if (n["parent"], n["name"]) in siblings else siblings).add((n["parent"], n["name"]))
        twice = set(name for _, name in twice)
        if not doc["stacks"].get("left_out"):
            check_eq("--children: inclusive samples = the page's stack tree's",
                     [r["name"] for r in j["children"] if r["name"] not in twice and
                      incl.get(r["name"], 0) != r["children_samples"]], [])
    # against perf script: the self samples per wasm function (FUNC local samples)
    if "ref" in args:
        ref = {}
        for line in open(args["ref"]):
            f = line.split()
            if f[0] == "FUNC":
                ref["local_func_" + f[1]] = int(f[2])
        got = {r["name"].split(":")[0]: r["self_samples"] for r in j["children"]
               if r["kind"] == "wasm"}
        check_eq("--children: self samples = perf script's, each wasm function listed",
                 {k: v for k, v in got.items() if ref.get(k, 0) != v}, {})
        total = sum(int(l.split()[1]) for l in open(args["ref"]) if l.startswith("TOTAL"))
        check_eq("--children: shares = samples / perf script's total",
                 [r["name"] for r in j["children"]
                  if pct(100.0 * r["self_samples"] / total) != pct(r["self_pct"])], [])
    if "folded" in args:
        # inclusive per wasm function from perf's own unwinding (host frames may differ)
        incl, total = {}, 0
        for line in open(args["folded"]):
            stack, n = line.rsplit(" ", 1)
            n = int(n)
            total += n
            for f in set(x.split(":")[0] for x in stack.split(";") if "local_func_" in x):
                incl[f] = incl.get(f, 0) + n
        tol = total // 10000 + 1
        check_eq("--children: inclusive samples = perf script's stacks (+-%d)" % tol,
                 [r["name"] for r in j["children"] if r["kind"] == "wasm" and
                  abs(incl.get(r["name"].split(":")[0], 0) - r["children_samples"]) > tol], [])


# ---- off-CPU ----

def offcpu(text, j, md, doc, args):
    oc = j["off_cpu"]
    lines = open(text).read().split("\n")
    tables = md_tables(md)
    st = ("S", "D", "R", "other")
    want = [[str(p["pid"]), ms(p["wall_ns"]), ms(p["on_cpu_ns"]), ms(p["off_cpu_ns"])] +
            [ms(p["off_cpu_by_state"][s]) for s in st] + [ms(p["off_cpu_wasm_ns"])]
            for p in oc["processes"]]
    rows, _ = text_table(lines, r"^ +pid +wall ms ")
    check_eq("off-CPU processes: text = JSON", rows, want)
    check_eq("off-CPU processes: Markdown = JSON", md_table(tables, "Off-CPU time", "pid")[1], want)
    want = [[f["name"] or "local_func_%d" % f["local_func"], ms(f["on_cpu_ns"]), ms(f["off_cpu_ns"]),
             ms(f["off_cpu_incl_ns"]), ms(f["wall_ns"]), f["waits_in"] or "-"]
            for f in oc["functions"]]
    rows, _ = text_table(lines, r"^  function \(ms\) ")
    check_eq("off-CPU functions: text = JSON (name cut with ... at the width)",
             [r[1:5] for r in rows or []], [w[1:5] for w in want])
    check_eq("off-CPU functions: waits in", [same_name(r[5], w[5]) for r, w in
             zip(rows or [], want)], [True] * len(want))
    _, mrows = md_table(tables, "Off-CPU time", "function")
    check_eq("off-CPU functions: Markdown = JSON",
             [[r[0], r[1], r[3], r[4], r[5], r[-1]] for r in mrows or []], want)
    if "syscalls" in oc:
        top = int(args.get("top", "20"))
        total = sum(s["ns"] for s in oc["syscalls"])
        # the share from ns, not the JSON's two decimals rounded again (0.0459: "0.0")
        want = [[s["name"], ms(s["ns"]), pct(100.0 * s["ns"] / total, 1) + "%",
                 str(s["intervals"])] for s in oc["syscalls"]][:top or None]
        rows, _ = text_table(lines, r"^  system call ")
        check_eq("by system call: text = JSON", rows, want)
        check_eq("by system call: Markdown = JSON", md_table(tables, "Off-CPU time",
                                                              "system call")[1], want)
        check_eq("by system call: shares = ns / their total",
                 [s["name"] for s in oc["syscalls"]
                  if abs(s["share_pct"] - 100.0 * s["ns"] / total) > 0.006], [])
    if doc:
        doc_has_json(doc, j, ["off_cpu"], "off-CPU")
    if "periods" in args:
        # perf script: "PID PERIOD" of every on-CPU sample, summed per process
        want = {}
        for line in open(args["periods"]):
            pid, period = line.split()
            want[int(pid)] = want.get(int(pid), 0) + int(period)
        got = {p["pid"]: p["on_cpu_ns"] for p in oc["processes"]}
        check_eq("on-CPU ns per process = perf script's periods of %s, summed" %
                 oc["on_cpu_event"], {k: v for k, v in got.items() if want.get(k) != v}, {})
        if doc:
            st = doc["stacks"]
            check_eq("the page: off_cpu_stacks.on_cpu_ns = the periods of the stacked samples",
                     doc["off_cpu_stacks"]["on_cpu_ns"] if st["samples"] == j["total_samples"]
                     else None, sum(want.values()) if st["samples"] == j["total_samples"] else None)


def children_time(text, j, md, doc, args):
    lines = open(text).read().split("\n")
    want = [[ms(r["children_ns"]), ms(r["self_ns"]), r["name"]] for r in j["children_time"]]
    rows, _ = text_table(lines, r"^  +Children +Self +Symbol")
    check_eq("--children --cpu-state %s: text = JSON" % j["cpu_state"],
             [r[:2] for r in rows or []], [w[:2] for w in want])
    _, mrows = md_table(md_tables(md), "off-CPU time per wasm function") if md else (0, None)
    if md:
        check_eq("--children --cpu-state off: Markdown = JSON", mrows, want)


# ---- compare ----

def compare(text, j, md, doc, args):
    t = open(text).read()
    lines = t.split("\n")
    tables = md_tables(md)
    w, o = j["wamr"], j["other"]
    for side, s in (("WAMR", w), (j["engine"], o)):
        words = "%d of %d samples (%s%% of the run)" % (s["samples"], s["total_samples"],
                                                       pct(s.get("percent_of_run", 0)))
        if "percent_of_run" in s:
            check_eq("compare: %s's share, text = JSON" % side, words in t, True)
    header, mrows = md_table(tables, "aotperf compare", "engine")
    check_eq("compare: the sides' Markdown = JSON",
             [[r[3], r[4]] for r in mrows or []],
             [[str(w["samples"]), pct(w["percent_of_run"])],
              [str(o["samples"]), pct(o["percent_of_run"])]])
    rows, _ = text_table(lines, r"^  class +WAMR ")
    pts = j["sampled_delta_points"] or {}
    got = {r[0]: r[-1] for r in rows or [] if r[0] in pts and re.match(r"[+-]\d", r[-1])}
    check_eq("compare: points per class, text = JSON",
             {k: v for k, v in got.items() if v != "%+.2f" % pts[k]}, {})
    check_eq("compare: points shown for some classes", len(got) > 0, True)
    _, mrows = md_table(tables, "Instruction classes")
    check_eq("compare: the class table, Markdown = text",
             [r[:4] + r[4:6] for r in mrows or []],
             [[r[0]] + r[1:6] for r in rows or []])
    rows, _ = text_table(lines, r"^  lever +WAMR %func ")
    want = [[l["lever"], pct(l["wamr_percent_of_function"]),
             pct(l["other_percent_of_function"]) if l["status"] == "estimated" else "n/a",
             ("%.0f%%" % (100 * l["reduction"])) if l["status"] == "estimated" else "n/a",
             pct(l["headroom_percent_of_run"]) if l["status"] == "estimated" else "n/a"]
            for l in j["headroom"]["levers"]]
    check_eq("compare: the levers, text = JSON", rows, want)
    check_eq("compare: the levers, Markdown = JSON",
             md_table(tables, "Headroom per lever")[1], want)
    n = j["functions_listed"]
    want = [[str(f["wasm_func"]), str(f["local_func"]), f["name"],
             pct(f["wamr_percent_of_run"]), pct(f["other_percent_of_run"])]
            for f in j["functions"][:n]]
    rows, _ = text_table(lines, r"^  wasm +local +name ")
    check_eq("compare: functions both ran, text = JSON", [r[:5] for r in rows or []], want)
    check_eq("compare: functions both ran, Markdown = JSON",
             [r[:5] for r in md_table(tables, "Functions both engines ran")[1] or []], want)
    if doc:
        doc_has_json(doc, j, [k for k in j if k != "tool"], "compare")
        check_eq("compare: the page's diff rows are the JSON's functions",
                 [[f["before"], f["after"]] for f in doc["diff"]["functions"]],
                 [[f["wamr_samples"], f["other_samples"]] for f in j["functions"]])


# ---- spills ----

def spills(text, j, md, doc, args):
    lines = open(text).read().split("\n")
    if j.get("vs"):
        spills_vs(lines, j)
        return
    rows, _ = text_table(lines, r"^  rank mod function ")
    head = re.split(r" +", lines[_].strip()) if rows else []
    col = {h: i for i, h in enumerate(head)}

    def cells(f):
        out = [str(f["rank"]), str(f["mod"]), "local_func_%d" % f["local_func"],
               str(f["metrics"].get("spill_ld", "-"))]
        if "samples" in col:
            out += ["-" if f["samples"] is None else str(f["samples"]),
                    "-" if f["percent_of_run"] is None else pct(f["percent_of_run"]) + "%"]
        if "frame_ld" in col:
            out += ["-" if f["static_frame_loads"] is None else str(f["static_frame_loads"]),
                    "-" if f["static_to_spill_ld"] is None else pct(f["static_to_spill_ld"])]
        return out

    def pick(r):
        out = [r[col["rank"]], r[col["mod"]], r[col["function"]], r[col["spill_ld"]]]
        if "samples" in col:
            out += [r[col["samples"]], r[col["%run"]]]
        if "frame_ld" in col:
            out += [r[col["frame_ld"]], r[col["ratio"]]]
        return out

    got = [pick(r) for r in rows or []]
    want = [cells(f) for f in j["functions"]]
    for g, w, f in zip(got, want, j["functions"]):
        if len(w) > 5 and f["percent_of_run"] is not None:
            w[5] = pct_as(g[5], f["percent_of_run"])
    check_eq("spills: the ranking, text = JSON", got, want)
    if j.get("hot_functions"):
        rows, _ = text_table(lines, r"^  function +%run +spiller ")
        # %run, spiller, spill_ld: the cells from the first share on (a label may hold a blank)
        got = []
        for r in rows or []:
            k = next(i for i, c in enumerate(r) if c.endswith("%"))
            got.append(r[k:k + 3])
        want = []
        for i, h in enumerate(j["hot_functions"]):
            t = got[i][0] if i < len(got) and got[i] else "%"
            want.append([pct_as(t, h["percent_of_run"]),
                         "-" if h["spill_rank"] is None else str(h["spill_rank"]),
                         "-" if h["spill_ld"] is None else str(h["spill_ld"])])
        check_eq("spills: hot functions, text = JSON", got, want)


def spills_vs(lines, j):
    rows, _ = text_table(lines, r"^  mod function +before +after ")
    n = j["vs"]["functions_listed"]
    check_eq("spills --vs: rows, text = JSON", [r[2:4] + [r[5]] for r in rows or []],
             [["-" if f["before"] is None else str(f["before"]),
               "-" if f["after"] is None else str(f["after"]),
               "-" if f["percent"] is None else "%+.1f%%" % f["percent"]]
              for f in j["vs"]["functions"][:n]])


# ---- frames ----

def frames(text, j, md, doc, args):
    lines = open(text).read().split("\n")
    fa = j["classified_functions"][0]["frame_attribution"]  # aotperf's keys: loads, stores
    cov = fa["coverage"]
    t = "\n".join(lines)
    m = re.search(r"coverage +(\d+)/(\d+) frame instructions listed \(([\d.]+)%\), (\d+) proven "
                  r"\(([\d.]+)%\)", t)
    check_eq("frames: static coverage, text = JSON", m and [m.group(3), m.group(5)],
             [pct(cov["static_coverage_pct"], 1), pct(cov["origin_coverage_pct"], 1)])
    m = re.search(r"(\d+)/(\d+) frame samples listed \(([\d.]+)%\), (\d+) proven \(([\d.]+)%\)", t)
    if cov["frame_samples"]:
        check_eq("frames: sample coverage, text = JSON", m and [m.group(3), m.group(5)],
                 [pct(cov["sample_coverage_pct"], 1), pct(cov["origin_sample_coverage_pct"], 1)])
    rows, _ = text_table(lines, r"^  origin +static +loads +stores +samples")
    got = {}
    for r in rows or []:
        if r[0] == "coverage":
            break
        name = r[0] if not r[0].startswith("unknown") and r[0] != "not" else "unknown"
        n = [int(x) for x in r[-5:-1]] if r[-1].endswith("%") else [int(x) for x in r[-4:]]
        prev = got.get(name, [0, 0, 0, 0])
        got[name] = [a + b for a, b in zip(prev, n)]
    want = {k: [v["static_instructions"], v["loads"]["static_instructions"],
                v["stores"]["static_instructions"], v["samples"]] for k, v in fa["origins"].items()}
    if "unknown" in want:	# the frame instructions no access lists: unknown, loads and stores
        want["unknown"][1] += fa["uncovered"]["loads"]["static_instructions"]
        want["unknown"][2] += fa["uncovered"]["stores"]["static_instructions"]
    check_eq("frames: origins (static, loads, stores, samples), text = JSON", got, want)


VIEWS = {"callgraph": callgraph, "offcpu": offcpu, "children_time": children_time,
         "compare": compare, "spills": spills, "frames": frames}


def main():
    view, text, jpath = sys.argv[1:4]
    rest = [a for a in sys.argv[4:] if "=" not in a]
    args = dict(a.split("=", 1) for a in sys.argv[4:] if "=" in a)
    md = rest[0] if len(rest) > 0 and rest[0] != "-" else None
    doc = html_doc(rest[1]) if len(rest) > 1 else None
    j = json.load(open(jpath))
    VIEWS[view](text, j, md, doc, args)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
