#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The README's benchmark table, rewritten from a run of scripts/bench.sh
# (its BUILD/bench/results.txt): the lines between the markers
# "<!-- bench-table: begin -->" and "<!-- bench-table: end -->" are
# replaced; nothing else in the file changes. `make bench` runs it.
#
#   scripts/bench-table.sh RESULTS README
set -euo pipefail
results=${1:?usage: scripts/bench-table.sh RESULTS README}
readme=${2:?usage: scripts/bench-table.sh RESULTS README}
grep -q '^<!-- bench-table: begin -->$' "$readme" && grep -q '^<!-- bench-table: end -->$' "$readme" ||
	{ echo "bench-table: $readme has no bench-table markers" >&2; exit 1; }
table=$(mktemp)
trap 'rm -f "$table"' EXIT
gawk '
	$1 == "date" { date = $2 }
	$1 == "machine" { $1 = ""; machine = substr($0, 2) }
	$1 == "load" { load = $2 ", " $3 ", " $4 }
	$1 == "runs" { runs = $2 }
	$1 == "mode" { mode = $2 }
	$1 == "commit" { commit = $2 }
	$1 == "detail" { k = $2; $1 = $2 = ""; detail[k] = substr($0, 3) }
	$1 == "case" { n++; name[n] = $2; ratio[n] = $3; median[n] = $4; cpu[n] = $5; goal[n] = $6 " " $7
		ok[n] = $8 }
	END {
		what["report-dwarf/cat"] = "`report` against `cat FILE >/dev/null`"
		what["children-dwarf/cat"] = "`report --children` against `cat`"
		what["pipeline/report"] = "the pipeline it replaces (`perf script --show-mmap-events` + `perf report -g none -n --sort=dso,symbol`) against `report`: times faster"
		what["perf-report/report"] = "`perf report --stdio` against `report`: times faster"
		what["report-small-ms"] = "`report`, milliseconds"
		what["offcpu/cat"] = "`report` (the off-CPU view) against `cat`"
		what["rss-dwarf/rss-42"] = "peak memory of `report --children`, big recording against 42 MB"
		printf "`make bench` (scripts/bench.sh, %s run), %s, on %s; load average before the run %s;\n", mode, date, machine, load
		printf "best of %d alternating runs, page cache warm (the median'"'"'s ratio, then the ratio of CPU seconds, in brackets); commit %s.\n\n", runs, commit
		print "| case | recording | ratio (median, CPU) | goal | |"
		print "|---|---|---|---|---|"
		for (i = 1; i <= n; i++)
			printf "| %s | %s | %s (%s, %s) | %s | %s |\n", what[name[i]] ? what[name[i]] : name[i],
				detail[name[i]], ratio[i], median[i], cpu[i], goal[i], ok[i]
	}' "$results" >"$table"
gawk -v t="$table" '
	/^<!-- bench-table: begin -->$/ { print; while ((getline l < t) > 0) print l; skip = 1; next }
	/^<!-- bench-table: end -->$/ { skip = 0 }
	!skip' "$readme" >"$readme.tmp" && mv "$readme.tmp" "$readme"
