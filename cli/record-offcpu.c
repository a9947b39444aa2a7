// SPDX-License-Identifier: MIT
/* record --off-cpu: the form the installed perf supports (record-offcpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "record-offcpu.h"
#include "../session/session.h"
#include "../util/run.h"

#define PROBE_TIMEOUT_MS 20000

static int has_offcpu_event(const char *path)
{
	struct session *s;
	struct ap_err err;
	int yes = 0;

	if (session__open(path, &s, &err))
		return 0;
	for (size_t i = 0; i < perfdata__nevsels(session__data(s)) && !yes; i++) {
		const char *n = perfdata__evsel(session__data(s), i)->name;

		yes = n && !strcmp(n, "offcpu-time");
	}
	session__delete(s);
	return yes;
}

enum rec_offcpu rec_offcpu__pick(const char *perf)
{
	const char *tmp = getenv("TMPDIR");
	char dir[4096], out[4200], old[4300];
	const char *argv[] = { perf, "record", "--off-cpu", "-q", "-N", "-o", out, "--", "true",
			       NULL };
	struct ap_child c = { .argv = argv, .stdin_null = 1, .stdout_io = AP_IO_NULL,
			      .stderr_io = AP_IO_NULL, .timeout_ms = PROBE_TIMEOUT_MS };
	struct ap_err err;
	int bpf = 0;

	snprintf(dir, sizeof(dir), "%s/aotperf-offcpu.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return REC_OFFCPU_SWITCH;
	snprintf(out, sizeof(out), "%s/probe.data", dir);
	if (!ap_child__run(&c, &err)) {
		bpf = c.status == 0 && has_offcpu_event(out);
		ap_child__exit(&c);
	}
	unlink(out);
	snprintf(old, sizeof(old), "%s.old", out);
	unlink(old);
	rmdir(dir);
	return bpf ? REC_OFFCPU_BPF : REC_OFFCPU_SWITCH;
}

const char *rec_offcpu__describe(enum rec_offcpu form)
{
	return form == REC_OFFCPU_BPF ?
	       "perf record --off-cpu (BPF: offcpu-time samples, period = ns off CPU)" :
	       "perf has no BPF --off-cpu here: sched:sched_switch -g with --switch-events"
	       " (and raw_syscalls:sys_enter/sys_exit)";
}

const char *const *rec_offcpu__args(enum rec_offcpu form)
{
	static const char *const bpf[] = { "--off-cpu", NULL };
	/*
	 * The system call each thread is in, for the split by system call:
	 * without call chains (-g asks for them on every event), a sample is
	 * its header, ids, time and the tracepoint's raw payload.
	 */
	static const char *const sw[] = { "-e", "sched:sched_switch", "--switch-events",
					  "-e", "raw_syscalls:sys_enter/call-graph=no/",
					  "-e", "raw_syscalls:sys_exit/call-graph=no/", NULL };

	return form == REC_OFFCPU_BPF ? bpf : sw;
}

int rec_offcpu__event(enum rec_offcpu form, const char *event, const char *freq, char *buf,
		      size_t size)
{
	int n;

	if (form != REC_OFFCPU_SWITCH || !freq[0] || strspn(freq, "0123456789") != strlen(freq) ||
	    !event[0] || strspn(event, "abcdefghijklmnopqrstuvwxyz0123456789-_") != strlen(event))
		return 0;
	n = snprintf(buf, size, "%s/freq=%s,name=%s/", event, freq, event);
	return n > 0 && (size_t)n < size;
}
