/* SPDX-License-Identifier: MIT */
#ifndef AOTPERF_UTIL_RUN_H
#define AOTPERF_UTIL_RUN_H
/*
 * Running another program (perf, objdump): the one child-process runner,
 * after linux tools/lib/subcmd's run-command. No shell is involved: argv
 * is executed as given (argv[0] without a '/' is looked up on PATH).
 *
 *	const char *argv[] = { perf, "--version", NULL };
 *	struct ap_child c = { .argv = argv, .stdout_io = AP_IO_CAPTURE,
 *			      .stderr_io = AP_IO_MERGE, .timeout_ms = 10000 };
 *	if (ap_child__run(&c, err))
 *		return -1;		// could not start it
 *	... c.status, c.out ...
 *	ap_child__exit(&c);
 *
 * Everything left zero means: inherit stdin, stdout and stderr, no
 * timeout, same process group, no signal forwarding.
 */
#include <stddef.h>
#include <sys/types.h>
#include "err.h"

#define AP_CHILD_TICK_MS 100

enum ap_child_io {
	AP_IO_INHERIT = 0,	/* the caller's descriptor */
	AP_IO_NULL,		/* /dev/null */
	AP_IO_CAPTURE,		/* into c->out (stdout) or c->err_out (stderr) */
	AP_IO_MERGE,		/* stderr only: wherever stdout goes */
	AP_IO_FD,		/* stdout_fd / stderr_fd */
};

struct ap_child {
	/* what to run */
	const char *const *argv;	/* NULL-terminated */
	const char *dir;		/* chdir here in the child, NULL: stay */
	const char *const *env;		/* "NAME=VALUE" entries set in the child, NULL-terminated */
	int stdin_null;			/* stdin from /dev/null instead of ours */
	enum ap_child_io stdout_io, stderr_io;
	int stdout_fd, stderr_fd;	/* for AP_IO_FD */
	int timeout_ms;			/* 0: no limit; else killed with SIGKILL after it */
	int new_group;			/* own process group: a timeout kills the whole group */
	int forward_signals;		/* SIGINT/SIGTERM we get meanwhile are passed on to it */
	size_t capture_max;		/* bytes kept per captured stream (0: 8 MiB); the rest is read and dropped */
	void (*tick)(void *arg);	/* called about every AP_CHILD_TICK_MS while it runs (progress) */
	void *tick_arg;

	/* results */
	pid_t pid;
	int status;			/* exit code, 128+N when killed by signal N */
	int timed_out;			/* killed at the timeout (status is then 128+9) */
	char *out;			/* captured stdout (with stderr when merged), NUL-terminated */
	size_t out_len;
	char *err_out;			/* captured stderr */
	size_t err_len;
};

/*
 * Start the child, feed its captured output, wait for it. 0 when it ran,
 * whatever its status; -1 with err when it could not be started ("cannot
 * run PROG: No such file or directory", AP_ERR_IO).
 */
int ap_child__run(struct ap_child *c, struct ap_err *err);
/* Free what the run captured. */
void ap_child__exit(struct ap_child *c);

/*
 * One line on how a run that did not exit 0 ended: "timed out", "killed by
 * signal 9", "exit 1", followed by ": " and the first line of its output
 * that says something ("Error:" alone is joined with the line after it).
 */
void ap_child__describe(const struct ap_child *c, char *buf, size_t len);

/* The first line of s holding needle (or, with needle NULL, the first non-empty one), controls blanked. */
void ap_first_line(char *dst, size_t n, const char *s, const char *needle);

#endif
