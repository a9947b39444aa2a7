// SPDX-License-Identifier: MIT
/*
 * The child-process runner (see run.h). fork + execvp; an exec that fails
 * reports its errno through a close-on-exec pipe, so the caller learns
 * "cannot run" instead of guessing from an exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "array.h"
#include "run.h"

#define CAPTURE_MAX_DEFAULT (8u << 20)

/* The child that gets our SIGINT/SIGTERM; one at a time. */
static volatile sig_atomic_t fwd_pid;
static volatile sig_atomic_t fwd_pending;

static void forward(int sig)
{
	fwd_pending = sig;
	if (fwd_pid > 0)
		kill((pid_t)fwd_pid, sig);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct why {
	int stage;	/* 0 exec, 1 chdir, 2 redirect */
	int err;
};

static void child_fail(int fd, int stage)
{
	struct why w = { stage, errno };
	ssize_t n = write(fd, &w, sizeof(w));

	(void)n;
	_exit(127);
}

static void child(const struct ap_child *c, int out_w, int err_w, int why_w)
{
	if (c->new_group)
		setpgid(0, 0);
	if (c->forward_signals) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
	}
	if (c->stdin_null) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, STDIN_FILENO) < 0)
			child_fail(why_w, 2);
		close(null);
	}
	if (out_w >= 0 && dup2(out_w, STDOUT_FILENO) < 0)
		child_fail(why_w, 2);
	if (c->stderr_io == AP_IO_MERGE) {
		if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
			child_fail(why_w, 2);
	} else if (err_w >= 0 && dup2(err_w, STDERR_FILENO) < 0) {
		child_fail(why_w, 2);
	}
	if (c->dir && chdir(c->dir))
		child_fail(why_w, 1);
	for (const char *const *e = c->env; e && *e; e++)
		putenv((char *)*e);
	execvp(c->argv[0], (char *const *)c->argv);
	child_fail(why_w, 0);
}

/*
 * Where a stream goes in the child: *w is the descriptor to dup2 there (-1:
 * keep ours), *rd a pipe's read end for a captured one (else -1).
 */
static int io_target(enum ap_child_io io, int fd, int null_fd, int *w, int *rd,
		     struct ap_err *err)
{
	int p[2];

	*w = *rd = -1;
	switch (io) {
	case AP_IO_INHERIT:
	case AP_IO_MERGE:
		break;
	case AP_IO_NULL:
		*w = null_fd;
		break;
	case AP_IO_FD:
		*w = fd;
		break;
	case AP_IO_CAPTURE:
		if (pipe2(p, O_CLOEXEC))
			return ap_errk(err, AP_ERR_IO, "pipe: %s", strerror(errno));
		*rd = p[0];
		*w = p[1];
		break;
	}
	return 0;
}

struct sink {
	int fd;
	char *buf;
	size_t len, cap, max;
};

/* Read what is there; 1 at EOF (or a read error). */
static int sink_read(struct sink *s)
{
	char tmp[16384];
	ssize_t r = read(s->fd, tmp, sizeof(tmp));
	size_t keep;

	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (r <= 0)
		return 1;
	keep = (size_t)r;
	if (s->len + keep > s->max)
		keep = s->max - s->len;
	if (ap_grow(&s->buf, &s->cap, s->len + keep + 1, 1))
		return 0;	/* keep draining; the output is cut */
	memcpy(s->buf + s->len, tmp, keep);
	s->len += keep;
	s->buf[s->len] = '\0';
	return 0;
}

static int left_ms(long long deadline)
{
	long long l = deadline - now_ms();

	return l < 0 ? 0 : l > 60000 ? 60000 : (int)l;
}

/* Feed the pipes until both close or the deadline passes; 1 on timeout. */
static int drain(const struct ap_child *c, struct sink *s, int n, long long deadline)
{
	for (;;) {
		struct pollfd pfd[2];
		int k = 0, pr, wait;

		for (int i = 0; i < n; i++)
			if (s[i].fd >= 0)
				pfd[k++] = (struct pollfd){ .fd = s[i].fd, .events = POLLIN };
		if (!k)
			return 0;
		if (deadline && now_ms() >= deadline)
			return 1;
		wait = deadline ? left_ms(deadline) : -1;
		if (c->tick && (wait < 0 || wait > AP_CHILD_TICK_MS))
			wait = AP_CHILD_TICK_MS;
		pr = poll(pfd, (nfds_t)k, wait);
		if (c->tick)
			c->tick(c->tick_arg);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return 0;
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < k; j++) {
				if (s[i].fd != pfd[j].fd || !pfd[j].revents)
					continue;
				if (sink_read(&s[i])) {
					close(s[i].fd);
					s[i].fd = -1;
				}
			}
		}
	}
}

/* Wait for the exit; 1 when the deadline passed first. */
static int reap(const struct ap_child *c, pid_t pid, int *wstatus, long long deadline)
{
	long long next_tick = now_ms() + AP_CHILD_TICK_MS;
	int poll_wait = deadline || c->tick;

	for (;;) {
		pid_t w = waitpid(pid, wstatus, poll_wait ? WNOHANG : 0);

		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return 0;
		if (deadline && now_ms() >= deadline)
			return 1;
		if (c->tick && now_ms() >= next_tick) {
			c->tick(c->tick_arg);
			next_tick = now_ms() + AP_CHILD_TICK_MS;
		}
		if (poll_wait && w == 0)
			usleep(2000);
	}
}

static void signals_restore(const struct ap_child *c, const struct sigaction *old_int,
			    const struct sigaction *old_term)
{
	fwd_pid = 0;
	if (c->forward_signals) {
		sigaction(SIGINT, old_int, NULL);
		sigaction(SIGTERM, old_term, NULL);
	}
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

int ap_child__run(struct ap_child *c, struct ap_err *err)
{
	struct sigaction sa, old_int, old_term;
	struct sink sinks[2] = { { .fd = -1 }, { .fd = -1 } };
	int out_w = -1, err_w = -1, why[2] = { -1, -1 }, null_fd = -1, wstatus = 0;
	size_t max = c->capture_max ? c->capture_max : CAPTURE_MAX_DEFAULT;
	long long deadline = c->timeout_ms > 0 ? now_ms() + c->timeout_ms : 0;
	int timed_out, ret = -1;
	struct why w;
	ssize_t got;
	pid_t pid;

	c->pid = -1;
	c->status = -1;
	c->timed_out = 0;
	c->out = c->err_out = NULL;
	c->out_len = c->err_len = 0;
	if (!c->argv || !c->argv[0])
		return ap_errf(err, "nothing to run");
	if (c->stdout_io == AP_IO_NULL || c->stderr_io == AP_IO_NULL) {
		null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null_fd < 0)
			return ap_errk(err, AP_ERR_IO, "/dev/null: %s", strerror(errno));
	}
	if (io_target(c->stdout_io, c->stdout_fd, null_fd, &out_w, &sinks[0].fd, err) ||
	    (c->stderr_io != AP_IO_MERGE &&
	     io_target(c->stderr_io, c->stderr_fd, null_fd, &err_w, &sinks[1].fd, err)))
		goto out;
	if (pipe2(why, O_CLOEXEC)) {
		ap_errk(err, AP_ERR_IO, "pipe: %s", strerror(errno));
		goto out;
	}
	if (c->forward_signals) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = forward;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		fwd_pending = 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0)
		child(c, out_w, err_w, why[1]);
	if (pid < 0) {
		ap_errk(err, AP_ERR_IO, "cannot run %s: fork: %s", c->argv[0], strerror(errno));
		signals_restore(c, &old_int, &old_term);
		goto out;
	}
	c->pid = pid;
	if (c->new_group)
		setpgid(pid, pid);
	if (c->forward_signals) {
		fwd_pid = pid;
		if (fwd_pending)	/* arrived before we knew the pid */
			kill(pid, fwd_pending);
	}
	/* the child has its own copies of these now */
	if (sinks[0].fd >= 0)
		close_fd(&out_w);
	if (sinks[1].fd >= 0)
		close_fd(&err_w);
	close_fd(&why[1]);
	while ((got = read(why[0], &w, sizeof(w))) < 0 && errno == EINTR)
		;
	close_fd(&why[0]);
	if (got == (ssize_t)sizeof(w)) {
		/* exec (or the setup before it) failed: collect the child, say why */
		close_fd(&sinks[0].fd);
		close_fd(&sinks[1].fd);
		while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
			;
		signals_restore(c, &old_int, &old_term);
		if (w.stage == 1)
			ap_errk(err, AP_ERR_IO, "cannot run %s: chdir %s: %s", c->argv[0], c->dir,
				strerror(w.err));
		else
			ap_errk(err, AP_ERR_IO, "cannot run %s: %s", c->argv[0], strerror(w.err));
		goto out;
	}
	sinks[0].max = sinks[1].max = max;
	timed_out = drain(c, sinks, 2, deadline);
	if (!timed_out)
		timed_out = reap(c, pid, &wstatus, deadline);
	if (timed_out) {
		if (c->new_group)
			kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR)
			;
	}
	signals_restore(c, &old_int, &old_term);
	c->timed_out = timed_out;
	if (WIFEXITED(wstatus))
		c->status = WEXITSTATUS(wstatus);
	else if (WIFSIGNALED(wstatus))
		c->status = 128 + WTERMSIG(wstatus);
	/* a captured stream is a string even when the child printed nothing */
	for (int i = 0; i < 2; i++)
		if (!sinks[i].buf && (i ? c->stderr_io : c->stdout_io) == AP_IO_CAPTURE)
			sinks[i].buf = calloc(1, 1);
	c->out = sinks[0].buf;
	c->out_len = sinks[0].len;
	c->err_out = sinks[1].buf;
	c->err_len = sinks[1].len;
	sinks[0].buf = sinks[1].buf = NULL;
	ret = 0;
out:
	for (int i = 0; i < 2; i++) {
		close_fd(&sinks[i].fd);
		free(sinks[i].buf);
	}
	if (c->stdout_io == AP_IO_CAPTURE)
		close_fd(&out_w);
	if (c->stderr_io == AP_IO_CAPTURE)
		close_fd(&err_w);
	close_fd(&why[0]);
	close_fd(&why[1]);
	close_fd(&null_fd);
	return ret;
}

void ap_child__exit(struct ap_child *c)
{
	free(c->out);
	free(c->err_out);
	c->out = c->err_out = NULL;
	c->out_len = c->err_len = 0;
}

void ap_first_line(char *dst, size_t n, const char *s, const char *needle)
{
	const char *p = needle ? strstr(s, needle) : NULL;
	size_t k = 0;

	if (!n)
		return;
	if (p) {
		while (p > s && p[-1] != '\n')
			p--;
	} else {
		p = s;
		while (*p == '\n' || *p == ' ')
			p++;
	}
	for (; *p && *p != '\n' && k + 1 < n; p++)
		dst[k++] = (unsigned char)*p < 0x20 ? ' ' : *p;
	while (k > 0 && dst[k - 1] == ' ')
		k--;
	dst[k] = '\0';
}

void ap_child__describe(const struct ap_child *c, char *buf, size_t len)
{
	const char *text = c->out ? c->out : c->err_out ? c->err_out : "";
	char line[256];

	if (c->timed_out) {
		snprintf(buf, len, "timed out");
		return;
	}
	if (c->out && c->err_out && !strstr(c->out, "rror"))
		text = c->err_out;
	ap_first_line(line, sizeof(line), text, "rror");
	if (!*line)
		ap_first_line(line, sizeof(line), text, NULL);
	if (*line && line[strlen(line) - 1] == ':') {
		/* perf's "Error:" stands alone; its reason is on the next line */
		const char *p = strstr(text, line);
		const char *nl = p ? strchr(p, '\n') : NULL;
		size_t l = strlen(line);

		if (nl && l + 2 < sizeof(line)) {
			line[l++] = ' ';
			ap_first_line(line + l, sizeof(line) - l, nl + 1, NULL);
		}
	}
	if (c->status > 128)
		snprintf(buf, len, "killed by signal %d%s%s", c->status - 128, *line ? ": " : "",
			 line);
	else
		snprintf(buf, len, "exit %d%s%s", c->status, *line ? ": " : "", line);
}
