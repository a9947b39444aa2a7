# What a command opens, reads and maps, seen from outside with strace
# (sourced after common.sh): reads and maps, not time, so a machine under
# load changes nothing. The command's output goes to $WORK/traced.out and
# .err, its exit status to $WORK/traced.rc, the trace to $WORK/trace.

# traced FILE CMD...: CMD under strace; prints "OPENS READ MAPPED" of FILE:
# the successful openat() calls that name it, the bytes read() and
# pread() from it, the bytes of it mmap()ed
traced() {
	local f=$1
	shift
	# LeakSanitizer cannot run under ptrace (the sanitized build): leaks off there
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -y -e trace=openat,read,pread64,mmap -e signal=none -o "$WORK/trace" \
		"$@" >"$WORK/traced.out" 2>"$WORK/traced.err"
	echo "$?" >"$WORK/traced.rc"
	gawk -v f="$f" '
		index($0, "openat(") && index($0, "\"" f "\"") && !/= -1 / { opens++ }
		/(read|pread64)\([0-9]+</ && index($0, "<" f ">") && match($0, /= ([0-9]+)$/, m) {
			bytes += m[1]
		}
		/mmap\(/ && index($0, "<" f ">") && match($0, /^[^(]*mmap\([^,]*, ([0-9]+),/, m) {
			mapped += m[1]
		}
		END { printf "%d %d %d\n", opens, bytes, mapped }' "$WORK/trace"
}

# traced_opens PATTERN: the successful openat() calls of the last trace whose path matches
traced_opens() {
	gawk -v p="$1" 'index($0, "openat(") && !/= -1 / && match($0, /"[^"]*"/, m) &&
		substr(m[0], 2, length(m[0]) - 2) ~ p { n++ } END { print n + 0 }' "$WORK/trace"
}
