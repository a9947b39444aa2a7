# SPDX-License-Identifier: MIT
#
# Off-CPU time per wasm function and system call from stock perf's view of
# a recording made with -e sched:sched_switch -g --switch-events, where the
# system call comes from the kernel frames perf itself names:
#
#   perf script --ns -F tid,time,event,trace,ip,sym --show-switch-events |
#     gawk -v base=0xADDR -v syms=CORE.cwasm.syms -f offcpu_kernel_perf.awk
#
# Records are paired as offcpu_perf.awk pairs them (a thread's sched_switch
# sample, its next SWITCH OUT, its next SWITCH IN). A sample's system call
# is the innermost kernel frame perf names __x64_sys_NAME (or __ia32_sys_,
# __arm64_sys_, __do_sys_, __se_sys_): NAME. Without one: "unknown" when
# the frames reach the system call dispatcher (do_syscall_64, ...: the
# entry was a tail call) with no frame of the way back to user mode
# (exit_to_user_mode_loop, ...) before it, else "none"; "unknown" too for
# a sample without kernel frames. Its function is the innermost frame inside the
# core's mapping, looked up in the .syms file ("local offset size name").
# Prints "FSC name syscall ns" per function with off-CPU time and "SC
# syscall ns" per system call over every interval (with or without wasm).
# base, syms, n, off[], size[], name[], text and func_at(): lib/wasmsyms.awk
/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
	tid = $1
	t = $2; sub(/:$/, "", t)
	split(t, tp, ".")
	ns = tp[1] * 1000000000 + tp[2]
	insample = 0
	if ($0 ~ /sched:sched_switch:/) {
		match($0, /prev_pid=([0-9]+)/, m)
		cur = m[1]
		pending[cur] = 1; fn[cur] = ""; sc[cur] = "unknown"; found[cur] = 0; user = 0
		nk = 0; disp = 0; ret = 0
		insample = 1
	} else if ($0 ~ /PERF_RECORD_SWITCH OUT/) {
		if (tid in pending) { out[tid] = ns; ofn[tid] = fn[tid]; osc[tid] = sc[tid] }
		delete pending[tid]
	} else if ($0 ~ /PERF_RECORD_SWITCH IN/) {
		if (tid in out) {
			all[osc[tid]] += ns - out[tid]
			if (ofn[tid] != "")
				per[ofn[tid] " " osc[tid]] += ns - out[tid]
		}
		delete out[tid]
	}
	next
}
insample && /^[ \t]+[0-9a-f]+ / {
	a = strtonum("0x" $1)
	if (a >= 0xffff800000000000) {
		s = $2
		if (!nk++)
			sc[cur] = "none"
		if (found[cur] || disp)
			next
		if (s ~ /^__(x64|ia32|arm64|do|se)_sys_./) {
			sub(/^__(x64|ia32|arm64|do|se)_sys_/, "", s)
			sc[cur] = s; found[cur] = 1
		} else if (s ~ /^(do_syscall_(64|x64|32_irqs_on)|do_int80_syscall_32|_?_?do_fast_syscall_32|invoke_syscall|el0_svc_common|do_el0_svc|el0_svc)$/) {
			disp = 1
			if (!ret)
				sc[cur] = "unknown"
		} else if (s ~ /^(exit_to_user_mode_loop|exit_to_user_mode_prepare|syscall_exit_to_user_mode|syscall_exit_work|irqentry_exit_to_user_mode|exit_to_user_mode|do_notify_resume)$/) {
			ret = 1
		}
		next
	}
	if (fn[cur] != "")
		next
	a = user++ ? a - 1 : a
	if (a >= base && a < base + text)
		fn[cur] = func_at(a - base)
}
END {
	for (k in per)
		print "FSC", k, per[k]
	for (k in all)
		print "SC", k, all[k]
}
