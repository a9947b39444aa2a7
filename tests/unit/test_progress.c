// SPDX-License-Identifier: MIT
/*
 * The progress line on a real pseudo-terminal (posix_openpt: what a
 * terminal emulator gives a shell): drawn with a carriage return, cut to
 * the terminal's width, redrawn at most every PROGRESS_INTERVAL_MS, cleared
 * at the end; and silent on a pipe, on a file and with quiet set.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "check.h"
#include "../../util/progress.h"

/* Everything the slave side wrote, read from the master (non-blocking). */
static size_t drain(int master, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t got;

	while (n + 1 < cap && (got = read(master, buf + n, cap - 1 - n)) > 0)
		n += (size_t)got;
	buf[n] = 0;
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static int count_char(const char *s, char c)
{
	int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* The text after the last carriage return that is not blank. */
static const char *last_frame(const char *s, char *out, size_t len)
{
	const char *best = "", *p = s;

	while ((p = strchr(p, '\r'))) {
		p++;
		if (*p && *p != ' ' && *p != '\r')
			best = p;
	}
	snprintf(out, len, "%.*s", (int)strcspn(best, "\r"), best);
	return out;
}

static void test_pty(void)
{
	static char buf[1 << 16];
	struct winsize ws = { .ws_row = 24, .ws_col = 60 };
	struct termios tio;
	struct progress p;
	char frame[256];
	int master, slave;
	FILE *out;
	size_t n;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	CHECK(master >= 0);
	if (master < 0 || grantpt(master) || unlockpt(master)) {
		printf("no pseudo-terminal here: skipped\n");
		return;
	}
	slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	CHECK(slave >= 0);
	if (slave < 0)
		return;
	/* raw output: the bytes as written (no \n -> \r\n) */
	tcgetattr(slave, &tio);
	cfmakeraw(&tio);
	tcsetattr(slave, TCSANOW, &tio);
	ioctl(slave, TIOCSWINSZ, &ws);
	fcntl(master, F_SETFL, O_NONBLOCK);
	out = fdopen(slave, "w");

	progress__init(&p, out, 0);
	CHECK(progress__enabled(&p));
	CHECK_EQ_U64(p.width, 60);

	/* a byte phase: first frame at once */
	progress__phase(&p, "reading perf.data", 27100000, "B");
	n = drain(master, buf, sizeof(buf));
	CHECK(n > 0 && buf[0] == '\r');
	CHECK_STR_CONTAINS(buf, "reading perf.data    0%  0 B of 27.1 MB");
	/* 10,000 updates in a few ms: a frame per interval at most */
	{
		struct timespec t0, t1;
		long ms;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (uint64_t i = 0; i < 10000; i++)
			progress__update(&p, i * 1000);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
		n = drain(master, buf, sizeof(buf));
		/* each redraw of a shorter-or-equal line is one \r */
		CHECK(count_char(buf, '\r') <= 1 + ms / PROGRESS_INTERVAL_MS);
	}
	/* after the interval the next update draws, with the current numbers */
	sleep_ms(PROGRESS_INTERVAL_MS + 30);
	progress__update(&p, 12300000);
	n = drain(master, buf, sizeof(buf));
	CHECK_STR_CONTAINS(last_frame(buf, frame, sizeof(frame)), "reading perf.data   45%  12.3 MB of 27.1 MB");
	CHECK(strlen(frame) <= 59);

	/* a count phase replaces it: the old line is cleared first */
	progress__phase(&p, "perf inject --jit", 3009, "functions");
	n = drain(master, buf, sizeof(buf));
	CHECK(buf[0] == '\r' && buf[1] == ' ');
	CHECK_STR_CONTAINS(buf, "perf inject --jit    0%  0 of 3009 functions");
	sleep_ms(PROGRESS_INTERVAL_MS + 30);
	progress__update(&p, 3009);
	n = drain(master, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "100%  3009 of 3009 functions");

	/* unknown total, a long phase name: cut to the width */
	progress__phase(&p, "post-processing a recording with a very long description of itself", 0, "records");
	n = drain(master, buf, sizeof(buf));
	last_frame(buf, frame, sizeof(frame));
	CHECK_EQ_U64(strlen(frame), 59);

	/* the end: the line is blanked and the cursor back at column 0 */
	progress__exit(&p);
	n = drain(master, buf, sizeof(buf));
	CHECK(n >= 61);
	CHECK(buf[0] == '\r' && buf[n - 1] == '\r');
	CHECK(strspn(buf + 1, " ") == n - 2);
	/* nothing more after the end */
	progress__update(&p, 5);
	progress__exit(&p);
	CHECK_EQ_U64(drain(master, buf, sizeof(buf)), 0);

	/* quiet on a terminal: nothing at all */
	progress__init(&p, out, 1);
	CHECK(!progress__enabled(&p));
	progress__phase(&p, "x", 10, "functions");
	progress__update(&p, 5);
	progress__exit(&p);
	CHECK_EQ_U64(drain(master, buf, sizeof(buf)), 0);
	fclose(out);
	close(master);
}

static void test_not_a_terminal(void)
{
	struct progress p;
	char buf[64];
	int fds[2];
	FILE *out, *tmp;

	CHECK(pipe(fds) == 0);
	out = fdopen(fds[1], "w");
	progress__init(&p, out, 0);
	CHECK(!progress__enabled(&p));
	progress__phase(&p, "reading perf.data", 100, "B");
	progress__update(&p, 50);
	progress__clear(&p);
	progress__exit(&p);
	fclose(out);
	CHECK_EQ_U64(read(fds[0], buf, sizeof(buf)), 0);
	close(fds[0]);

	tmp = tmpfile();
	progress__init(&p, tmp, 0);
	CHECK(!progress__enabled(&p));
	progress__phase(&p, "x", 1, NULL);
	progress__exit(&p);
	CHECK_EQ_U64(ftell(tmp), 0);
	fclose(tmp);

	progress__init(&p, NULL, 0);
	CHECK(!progress__enabled(&p));
	progress__update(&p, 1);
}

int main(void)
{
	test_pty();
	test_not_a_terminal();
	CHECK_DONE();
}
