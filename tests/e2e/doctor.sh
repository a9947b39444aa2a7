#!/usr/bin/env bash
# aotperf doctor on this machine, checked against perf itself; then with no
# perf, with a perf whose record fails, and with a perf of another version
# (stub scripts that hand everything else to the real perf).
# shellcheck disable=SC2016 # single-quoted bodies expand where they run
# shellcheck source-path=SCRIPTDIR source=lib/common.sh
source "$(dirname "$0")/lib/common.sh"
REAL_PERF=$(command -v perf || true)
SCRATCH=$WORK/tmp # doctor's TMPDIR: must be empty again after each run
mkdir -p "$SCRATCH"
# one line per check and fix for the line-by-line checks below (perf's rule:
# $COLUMNS sets the width); the 80-column default is checked with it unset
export COLUMNS=1000

# doc [args...]: run aotperf doctor; sets rc and out (stdout), stderr in $WORK/err
doc() {
	out=$(TMPDIR=$SCRATCH "$AOTPERF" doctor "$@" 2>"$WORK/err")
	rc=$?
}
jqc() { jq -r "$1" <<<"$json"; } # jqc FILTER: on the last --json output
status_of() { jqc ".checks[] | select(.name == \"$1\") | .status"; }
detail_of() { jqc ".checks[] | select(.name == \"$1\") | .detail"; }
contains() { [[ $1 == *"$2"* ]]; } # contains TEXT PART
scratch_empty() { [ -z "$(ls -A "$SCRATCH")" ]; }

if [ -z "$REAL_PERF" ]; then
	bad "perf is not installed: run make deps"
	finish
	exit 1
fi

# ---- this machine --------------------------------------------------------------
doc
check_eq "doctor: exit 0 here" "$rc" 0
text=$out
check "doctor: a verdict line says ready" grep -q '^verdict: ready' <<<"$text"
check "doctor: every line is a header, a check, a fix or the verdict" \
	bash -c '! grep -vE "^(aotperf doctor: .*|  (ok|warn|FAIL|skip) +.+|        fix: .+|verdict: .+)$" <<<"$1"' \
	_ "$text"
check "doctor: a fix under each warn/FAIL" bash -c '
	prev=""; while IFS= read -r l; do
		case $prev in "  warn "*|"  FAIL "*) case $l in "        fix: "*) ;; *) exit 1;; esac;; esac
		prev=$l
	done <<<"$1"' _ "$text"
check "doctor: temp folder removed" scratch_empty

doc --json
check_eq "doctor --json: exit 0 here" "$rc" 0
json=$out
check "doctor --json: parses" jq -e . <<<"$json" >/dev/null
check_eq "doctor --json: ok is true" "$(jqc .ok)" true
check_eq "doctor --json: the checks, in order" "$(jqc '[.checks[].name] | join(" ")')" \
	"perf perf_version perf_event_paranoid kptr_restrict hw_cycles record time_conv inject_jit dlfilter annotate objdump"
check_eq "doctor --json: statuses are ok/warn/fail/skip" \
	"$(jqc '[.checks[] | select(.status | IN("ok","warn","fail","skip") | not)] | length')" 0
check_eq "doctor --json: each check has name, status, detail, fix" \
	"$(jqc '[.checks[] | select(has("name") and has("status") and has("detail") and has("fix") | not)] | length')" 0
# the same checks as the text (sample counts differ from run to run)
norm() { sed -E 's/[0-9]+ samples/N samples/'; }
check_eq "doctor --json: same checks as the text" \
	"$(jqc '.checks[] | "\(if .status == "fail" then "FAIL" else .status end) \(.detail)"' | norm)" \
	"$(grep -E '^  (ok|warn|FAIL|skip) ' <<<"$text" | sed -E 's/^  ([a-zA-Z]+) +/\1 /' | norm)"
check_eq "doctor --json: every warn/fail has a fix, every ok none" \
	"$(jqc '[.checks[] | select((.status | IN("warn","fail")) != (.fix != null))] | length')" 0
check "doctor --json: temp folder removed" scratch_empty

check_eq "perf path is perf on PATH" "$(detail_of perf)" "perf found: $REAL_PERF"
pv=$(perf --version)
check "perf version shown equals perf --version ($pv)" contains "$(detail_of perf_version)" "$pv"
check "perf version shown in the text too" contains "$text" "$pv"
kmm=$(uname -r | cut -d. -f1,2)
pmm=$(sed -E 's/^perf version ([0-9]+\.[0-9]+).*/\1/' <<<"$pv")
if [ "$kmm" = "$pmm" ]; then want=ok; else want=warn; fi
check_eq "perf version: $want for perf $pmm vs kernel $kmm" "$(status_of perf_version)" "$want"

par=$(cat /proc/sys/kernel/perf_event_paranoid)
check "perf_event_paranoid value shown ($par)" contains "$(detail_of perf_event_paranoid)" \
	"perf_event_paranoid=$par"
check "kptr_restrict value shown" contains "$(detail_of kptr_restrict)" \
	"kptr_restrict=$(cat /proc/sys/kernel/kptr_restrict)"

cyc=$(perf stat -e cycles -x, -- true 2>&1)
cyc_rc=$?
cyc_field=$(grep ',cycles' <<<"$cyc" | head -n1 | cut -d, -f1)
if [ "$cyc_rc" -ne 0 ] || ! [[ $cyc_field =~ ^[0-9.]+$ ]]; then want=warn; else want=ok; fi
check_eq "hardware cycles: $want iff perf stat -e cycles counts ('$cyc_field')" \
	"$(status_of hw_cycles)" "$want"
if [ "$want" = warn ]; then
	check "hardware cycles unavailable: says use cpu-clock" contains \
		"$(jqc '.checks[] | select(.name == "hw_cycles") | .fix')" "-e cpu-clock"
	check "verdict recommends cpu-clock" grep -q 'record with perf record -e cpu-clock' <<<"$text"
fi

check_eq "record -k mono: ok" "$(status_of record)" ok
n=$(detail_of record | grep -oE '[0-9]+ samples' | grep -oE '[0-9]+')
check "record: counted samples (${n:-none})" test "${n:-0}" -gt 0

# TIME_CONV: independently, from a recording of our own
perf record -q -N -e cpu-clock -k mono -o "$WORK/tc.data" -- true >/dev/null 2>&1
if perf report -D -i "$WORK/tc.data" 2>/dev/null | grep -q TIME_CONV; then want=ok; else want=warn; fi
check_eq "TIME_CONV: $want, as perf report -D of our own recording says" \
	"$(status_of time_conv)" "$want"

if perf version --build-options | grep -qE 'libelf: \[ on'; then want=ok; else want=warn; fi
check_eq "inject --jit: $want per perf version --build-options" "$(status_of inject_jit)" "$want"

if perf script -h 2>&1 | grep -q -- --dlfilter && [ -r /usr/include/perf/perf_dlfilter.h ]; then
	want=ok
else
	want=warn
fi
check_eq "dlfilter: $want" "$(status_of dlfilter)" "$want"
if perf annotate -h 2>&1 | grep -q -- --asm-raw; then want=ok; else want=warn; fi
check_eq "annotate options: $want" "$(status_of annotate)" "$want"
if command -v objdump >/dev/null; then want=ok; else want=warn; fi
check_eq "objdump: $want" "$(status_of objdump)" "$want"

# ---- no perf ----------------------------------------------------------------------
doc --perf /nonexistent
check_eq "--perf /nonexistent: exit 1" "$rc" 1
check "--perf /nonexistent: a FAIL line" grep -qE '^  FAIL +perf not found.*/nonexistent' <<<"$out"
check "--perf /nonexistent: the fix names an install command" \
	grep -qE '^        fix: .*(apt-get|tdnf|dnf|install-perf\.sh)' <<<"$out"
check "--perf /nonexistent: verdict not ready" grep -q '^verdict: not ready' <<<"$out"
doc --perf /nonexistent --json
json=$out
check_eq "--perf /nonexistent --json: exit 1" "$rc" 1
check_eq "--perf /nonexistent --json: ok false, perf fail, record skipped" \
	"$(jqc '"\(.ok) \(.checks[0].status) \([.checks[] | select(.name == "record")][0].status)"')" \
	"false fail skip"
check "--perf /nonexistent: temp folder removed" scratch_empty

# ---- stub perfs on PATH ------------------------------------------------------------
STUB=$WORK/stub
mkdir -p "$STUB"
cat >"$STUB/perf" <<EOF
#!/usr/bin/env bash
case \${1:-} in
--version)
	if [ -n "\${STUB_HANG:-}" ]; then echo \$\$ >"\$STUB_HANG"; exec sleep 30; fi
	echo "perf version \${STUB_PERF_VERSION:-$(perf --version | sed 's/^perf version //')}"; exit 0 ;;
record)
	[ -n "\${STUB_RECORD_FAILS:-}" ] && { echo "Error: stub: perf_event_open failed" >&2; exit 1; }
	[ -n "\${STUB_MONO_FAILS:-}" ] && [[ " \$* " == *" mono "* ]] &&
		{ echo "Error: stub: -k mono not supported" >&2; exit 1; } ;;
version)
	[ -n "\${STUB_NOELF:-}" ] && { echo "                 libelf: [ OFF ]  # HAVE_LIBELF_SUPPORT"; exit 0; } ;;
stat)
	[ -n "\${STUB_CYCLES:-}" ] && { echo "1234567,,cycles,1000,100.00,," >&2; exit 0; } ;;
esac
exec "$REAL_PERF" "\$@"
EOF
chmod +x "$STUB/perf"

out=$(PATH=$STUB:$PATH STUB_RECORD_FAILS=1 TMPDIR=$SCRATCH "$AOTPERF" doctor 2>"$WORK/err")
rc=$?
check_eq "perf whose record fails: exit 1" "$rc" 1
check "perf whose record fails: a FAIL line with perf's message" \
	grep -qE '^  FAIL +perf record -e cpu-clock fails .*stub: perf_event_open failed' <<<"$out"
check "perf whose record fails: the stub was the perf checked" grep -q "perf found: $STUB/perf" <<<"$out"
check "perf whose record fails: TIME_CONV skipped" grep -qE '^  skip +TIME_CONV' <<<"$out"
check "perf whose record fails: verdict not ready" grep -q '^verdict: not ready' <<<"$out"
json=$(PATH=$STUB:$PATH STUB_RECORD_FAILS=1 TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check_eq "perf whose record fails --json: ok false, record fail" \
	"$(jqc '"\(.ok) \([.checks[] | select(.name == "record")][0].status)"')" "false fail"
check "perf whose record fails: temp folder removed" scratch_empty

json=$(PATH=$STUB:$PATH STUB_PERF_VERSION=1.2.3 TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check_eq "perf 1.2.3: version warns, workflow still ok" \
	"$(jqc '"\(.ok) \([.checks[] | select(.name == "perf_version")][0].status)"')" "true warn"
check "perf 1.2.3: the fix is an install hint" \
	contains "$(jqc '.checks[] | select(.name == "perf_version") | .fix')" "install"
json=$(PATH=$STUB:$PATH STUB_PERF_VERSION="$(uname -r)" TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check_eq "perf of the running kernel's version: ok" "$(status_of perf_version)" ok
json=$(PATH=$STUB:$PATH STUB_PERF_VERSION=1.2.3 OS_RELEASE=$E2E/../kernel-tools-compat/os-release.azurelinux \
	TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check "Azure Linux: the version fix is kernel-tools-<uname -r>" \
	contains "$(jqc '.checks[] | select(.name == "perf_version") | .fix')" "tdnf install -y kernel-tools-$(uname -r)"
check "Azure Linux: ... the other kernels' tools named, the bare name warned off" bash -c \
	'grep -q "kernel-hwe-tools-, kernel-64k-tools-" <<<"$1" && ! grep -q "(else kernel-tools)" <<<"$1"' _ \
	"$(jqc '.checks[] | select(.name == "perf_version") | .fix')"

json=$(PATH=$STUB:$PATH STUB_MONO_FAILS=1 TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check_eq "perf without -k mono: still ok, record warns, TIME_CONV warns" \
	"$(jqc '"\(.ok) \(.checks[5].status) \(.checks[6].status)"')" "true warn warn"
check "perf without -k mono: says the ELF-image path (aotperf inject's default) works" \
	contains "$(jqc '.checks[5].fix')" "ELF-image path (aotperf inject, the default)"
out=$(PATH=$STUB:$PATH STUB_MONO_FAILS=1 TMPDIR=$SCRATCH "$AOTPERF" doctor 2>/dev/null)
n80=$(PATH=$STUB:$PATH STUB_MONO_FAILS=1 TMPDIR=$SCRATCH env -u COLUMNS "$AOTPERF" doctor 2>/dev/null)
check_eq "the text fits 80 columns by default (details and fixes wrapped)" \
	"$(awk 'length > 80' <<<"$n80" | wc -l)" 0
check "the 80-column text wraps the long lines" test "$(wc -l <<<"$n80")" -gt "$(wc -l <<<"$out")"
wide=$(PATH=$STUB:$PATH STUB_MONO_FAILS=1 TMPDIR=$SCRATCH env -u COLUMNS "$AOTPERF" doctor --wide 2>/dev/null)
check "--wide: one line per check (the fix of the record check on one line)" \
	grep -q "^        fix: record without -k mono: the ELF-image path .*only aotperf inject --jitdump does$" <<<"$wide"
check_eq "COLUMNS=1000: as --wide" "$(norm <<<"$out")" "$(norm <<<"$wide")"
check "perf without -k mono: verdict records without it" \
	grep -qx 'verdict: ready: record with perf record -e cpu-clock (.*)' <<<"$out"
out=$(PATH=$STUB:$PATH STUB_CYCLES=1 TMPDIR=$SCRATCH "$AOTPERF" doctor 2>/dev/null)
check "perf with hardware cycles: ok, and the verdict records cycles" bash -c '
	grep -qE "^  ok +hardware cycles available .*1234567" <<<"$1" &&
	grep -q "^verdict: ready: record with perf record -e cycles -k mono" <<<"$1"' _ "$out"

json=$(PATH=$STUB:$PATH STUB_NOELF=1 TMPDIR=$SCRATCH "$AOTPERF" doctor --json 2>/dev/null)
check_eq "perf without libelf: inject --jit warns, workflow ok" \
	"$(jqc '"\(.ok) \(.checks[7].name) \(.checks[7].status)"')" "true inject_jit warn"
check "perf without libelf: says so" contains "$(jqc '.checks[7].detail')" "without libelf"

# a perf that hangs: the timeout kills it (its whole process group) and says so
start=$SECONDS
out=$(PATH=$STUB:$PATH STUB_HANG=$WORK/hang.pid AOTPERF_DOCTOR_TIMEOUT_MS=1000 TMPDIR=$SCRATCH \
	"$AOTPERF" doctor 2>/dev/null)
rc=$?
check_eq "hanging perf: exit 1" "$rc" 1
check "hanging perf: FAIL 'timed out', within the timeout" bash -c '
	grep -qE "^  FAIL +perf --version failed: timed out" <<<"$1" && [ "$2" -lt 10 ]' \
	_ "$out" "$((SECONDS - start))"
hang_pid=$(cat "$WORK/hang.pid" 2>/dev/null)
check "hanging perf: killed (pid ${hang_pid:-?})" bash -c '[ -n "$1" ] && ! kill -0 "$1" 2>/dev/null' _ "$hang_pid"
check "hanging perf: temp folder removed" scratch_empty

# ---- non-root (perf_event_paranoid applies) -----------------------------------------
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 &&
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups test -x "$AOTPERF" 2>/dev/null; then
	NR=$(mktemp -d "/tmp/doctor-nobody.XXXXXX")
	chmod 777 "$NR"
	out=$(cd / && setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env HOME="$NR" TMPDIR="$NR" "$AOTPERF" doctor 2>"$WORK/err")
	rc=$?
	if [ "$par" -le 2 ]; then want=0; else want=1; fi
	check_eq "as nobody (perf_event_paranoid=$par): exit $want" "$rc" "$want"
	check "as nobody: says non-root" grep -q ', non-root$' <<<"$out"
	if [ "$par" -ge 2 ]; then
		# sudo only where it is installed (a fix names nothing that is not here)
		pre=$(command -v sudo >/dev/null && echo 'sudo ' || echo 'as root: ')
		check "as nobody: paranoid fix is the sysctl, '${pre}sysctl'" \
			grep -q "fix: ${pre}sysctl kernel.perf_event_paranoid=1" <<<"$out"
	fi
	check "as nobody: temp folder removed" bash -c '[ -z "$(ls -A "$1")" ]' _ "$NR"
	rm -rf "$NR"
else
	echo "skip: non-root run (needs root, setpriv and a build folder nobody can reach)"
fi

# ---- usage ---------------------------------------------------------------------------
doc --help
check "--help: exit 0, usage" bash -c '[ "$1" = 0 ] && grep -q "^usage: aotperf doctor" <<<"$2"' \
	_ "$rc" "$out"
doc --bogus
check_eq "bad option: exit 2" "$rc" 2
check "bad option: one-line error" grep -qx "aotperf doctor: unknown option '--bogus'; see --help" "$WORK/err"
doc extra
check_eq "extra argument: exit 2" "$rc" 2
check "the doctor is listed by aotperf --help" bash -c '"$1" --help | grep -q "^  doctor "' _ "$AOTPERF"

finish
