// SPDX-License-Identifier: MIT
/*
 * util/: the file reader (regular files only unless a stream is meant, no
 * blocking on a FIFO, size limits, identity), the child runner (capture,
 * merge, status, signals, timeouts that kill the process group, programs
 * that cannot start), finding perf and the hardware-cycles probe (against
 * stub perfs), os-release, array growth, error kinds and hints; the terminal
 * width rule, name cutting and wrapping; outputs to stdout, never over
 * another user's file or through a symlink; the name sanitizer on messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "check.h"
#include "../../util/array.h"
#include "../../util/err.h"
#include "../../util/file.h"
#include "../../util/osrelease.h"
#include "../../util/pct.h"
#include "../../util/perf.h"
#include "../../util/run.h"
#include "../../util/outfile.h"
#include "../../util/outset.h"
#include "../../util/term.h"
#include "../../cwasm/name.h"

static char dir[256];

static const char *path_in(const char *name)
{
	static char buf[4][512];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void write_file(const char *path, const char *text, int mode)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (!f)
		return;
	fputs(text, f);
	fclose(f);
	chmod(path, (mode_t)mode);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* pid has exited (a zombie nobody reaped yet counts: it runs no more). */
static int gone(int pid)
{
	char path[64], *stat = NULL, *p;
	size_t len;
	struct ap_err err;
	int dead = 0;

	for (int i = 0; i < 100 && !dead; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		if (kill(pid, 0) && errno == ESRCH)
			return 1;
		if (!ap_file__read_all(path, 0, 4096, &stat, &len, NULL, &err)) {
			p = strrchr(stat, ')');
			dead = p && p[1] == ' ' && (p[2] == 'Z' || p[2] == 'X');
			free(stat);
		}
		if (!dead)
			usleep(20000);
	}
	return dead;
}

static void test_array(void)
{
	int *v = NULL;
	size_t n = 0, cap = 0;
	int ok = 1;

	for (int i = 0; i < 1000; i++)
		ok &= ap_push(&v, &n, &cap, &i, sizeof(i)) == 0;
	CHECK(ok);
	CHECK_EQ_U64(n, 1000);
	CHECK(cap >= 1000 && cap < 2048);
	for (int i = 0; i < 1000; i++)
		ok &= v[i] == i;
	CHECK(ok);
	CHECK(ap_grow(&v, &cap, 10, sizeof(*v)) == 0);	/* no shrink, no move */
	CHECK(ap_grow(&v, &cap, (size_t)-1, 8) == -1);	/* overflow refused, array intact */
	CHECK_EQ_U64(v[999], 999);
	free(v);
	CHECK(ap_pct(1, 4) == 25.0);
	CHECK(ap_pct(3, 0) == 0.0);
}

static void test_err(void)
{
	struct ap_err err;
	struct ap_warnings ws = { 0 };

	ap_err_hint(&err, AP_HINT_FORCE);
	CHECK(ap_errf(&err, "%s: bad", "f") == -1);
	CHECK(err.kind == AP_ERR_INPUT && err.hint == AP_HINT_NONE && !strcmp(err.msg, "f: bad"));
	CHECK(ap_errk(&err, AP_ERR_GATE, "gate") == -1 && err.kind == AP_ERR_GATE);
	CHECK(ap_err_nomem(&err) == -1 && err.kind == AP_ERR_NOMEM);
	CHECK(ap_err_hint(&err, AP_HINT_PIN_CORE) == -1 && err.hint == AP_HINT_PIN_CORE);
	ap_errf(&err, "'%s' is not a hex address", "zz");
	CHECK(ap_err_prefix(&err, "--%s: ", "base") == -1);
	CHECK(!strcmp(err.msg, "--base: 'zz' is not a hex address") && err.kind == AP_ERR_INPUT);
	memset(err.msg, 'x', sizeof(err.msg) - 1);	/* a full message stays terminated */
	err.msg[sizeof(err.msg) - 1] = '\0';
	ap_err_prefix(&err, "front: ");
	CHECK(!strncmp(err.msg, "front: xxx", 10) && strlen(err.msg) == sizeof(err.msg) - 1);
	CHECK(ap_warnings__add(&ws, AP_HINT_NONE, "one %d", 1) == 0);
	CHECK(ap_warnings__add(&ws, AP_HINT_PIN_CORE, "two") == 0);
	CHECK(ws.n == 2 && !strcmp(ws.w[0].msg, "one 1") && ws.w[1].hint == AP_HINT_PIN_CORE);
	ap_warnings__exit(&ws);
	CHECK(ws.n == 0 && ws.w == NULL);
}

static void test_file(void)
{
	struct ap_err err = { 0 };
	struct ap_file_id id, other;
	struct ap_file f;
	char *buf = NULL;
	size_t len = 0;
	double t0;
	int fd;

	write_file(path_in("a.txt"), "hello\nworld\n", 0644);
	CHECK(ap_file__read_all(path_in("a.txt"), 0, 1024, &buf, &len, &id, &err) == 0);
	CHECK(len == 12 && buf && !strcmp(buf, "hello\nworld\n") && id.valid);
	free(buf);

	/* the limit is per caller */
	CHECK(ap_file__read_all(path_in("a.txt"), 0, 5, &buf, &len, NULL, &err) == -1);
	CHECK(err.kind == AP_ERR_INPUT);
	CHECK_STR_CONTAINS(err.msg, "larger than 5 bytes");
	CHECK(buf == NULL);

	/* missing: the file is named, it is the user's input */
	CHECK(ap_file__read_all(path_in("none"), 0, 5, &buf, &len, NULL, &err) == -1);
	CHECK(err.kind == AP_ERR_INPUT);
	CHECK_STR_CONTAINS(err.msg, "none: No such file");

	CHECK(ap_file__open(&f, dir, 0, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "Is a directory");
	CHECK(ap_file__open(&f, dir, AP_FILE_STREAM, &err) == -1);

	/* a device is not read, even as a stream of zeros */
	CHECK(ap_file__open(&f, "/dev/zero", 0, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "/dev/zero: is a character device");

	/* a FIFO with no writer: refused at once, no blocking */
	CHECK(mkfifo(path_in("fifo"), 0600) == 0);
	t0 = now_s();
	CHECK(ap_file__open(&f, path_in("fifo"), 0, &err) == -1);
	CHECK(now_s() - t0 < 2.0);
	CHECK_STR_CONTAINS(err.msg, "is a FIFO or pipe");
	/* accepted where a stream is meant */
	CHECK(ap_file__open(&f, path_in("fifo"), AP_FILE_STREAM, &err) == 0);
	CHECK(f.stream == 1);
	CHECK((fcntl(f.fd, F_GETFL) & O_NONBLOCK) == 0);
	ap_file__close(&f);

	/* symlinks: followed by default, refused with NOFOLLOW */
	CHECK(symlink(path_in("a.txt"), path_in("link")) == 0);
	CHECK(ap_file__open(&f, path_in("link"), 0, &err) == 0);
	CHECK(ap_file_id__same(&f.id, &id));
	ap_file__close(&f);
	CHECK(ap_file__open(&f, path_in("link"), AP_FILE_NOFOLLOW, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "is a symlink");

	/* pread: exact, a short one is an input error */
	CHECK(ap_file__open(&f, path_in("a.txt"), 0, &err) == 0);
	{
		char w[6] = { 0 };

		CHECK(ap_file__pread(&f, w, 5, 6, &err) == 0 && !strcmp(w, "world"));
		CHECK(ap_file__pread(&f, w, 5, 10, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "ends before offset 15");
	}
	ap_file__close(&f);

	/* an output that is an input, by identity: a hard link counts */
	{
		struct ap_input *in = NULL;
		size_t nin = 0, cap = 0;
		char *a = strdup(path_in("a.txt"));	/* inputs keep the name pointer */

		CHECK(ap_inputs__add(&in, &nin, &cap, a) == 0 && nin == 1);
		CHECK(ap_inputs__add(&in, &nin, &cap, path_in("none")) == 0 && nin == 1);
		CHECK(ap_file_id__same(&in[0].id, &id));
		CHECK(link(path_in("a.txt"), path_in("hard")) == 0);
		CHECK(ap_file__check_output(path_in("hard"), in, nin, &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "hard: is the input ");
		CHECK_STR_CONTAINS(err.msg, "a.txt: refusing to overwrite it");
		CHECK(ap_file__check_output(path_in("link"), in, nin, &err) == -1);
		write_file(path_in("b.txt"), "x", 0644);
		CHECK(ap_file__check_output(path_in("b.txt"), in, nin, &err) == 0);
		CHECK(ap_file__check_output(path_in("new.out"), in, nin, &err) == 0);
		free(in);
		free(a);
		CHECK(ap_file_id__of(path_in("b.txt"), &other) == 0 && !ap_file_id__same(&id, &other));
	}

	/* stdin as a stream */
	fd = open(path_in("a.txt"), O_RDONLY);
	{
		int saved = dup(0);

		dup2(fd, 0);
		CHECK(ap_file__read_all("-", AP_FILE_STREAM, 100, &buf, &len, NULL, &err) == 0);
		CHECK(len == 12);
		free(buf);
		dup2(saved, 0);
		close(saved);
	}
	close(fd);
}

static void test_run(void)
{
	const char *echo[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	const char *sig[] = { "sh", "-c", "kill -USR1 $$", NULL };
	const char *sleepy[] = { "sh", "-c", "sleep 30 & echo $! >\"$0\"; wait", path_in("bg.pid"),
				 NULL };
	const char *nope[] = { "/no/such/program", NULL };
	const char *pwd[] = { "sh", "-c", "pwd; echo \"$AP_TEST_VAR\"", NULL };
	const char *perr[] = { "sh", "-c", "echo 'Error:' >&2; echo '  the reason' >&2; exit 1", NULL };
	const char *env[] = { "AP_TEST_VAR=set-in-child", NULL };
	struct ap_child c = { .argv = echo, .stdout_io = AP_IO_CAPTURE, .stderr_io = AP_IO_CAPTURE };
	struct ap_err err = { 0 };
	char why[256];
	double t0;

	CHECK(ap_child__run(&c, &err) == 0);
	CHECK_EQ_U64(c.status, 3);
	CHECK(c.out && !strcmp(c.out, "out\n"));
	CHECK(c.err_out && !strcmp(c.err_out, "err\n"));
	ap_child__exit(&c);

	c = (struct ap_child){ .argv = echo, .stdout_io = AP_IO_CAPTURE, .stderr_io = AP_IO_MERGE };
	CHECK(ap_child__run(&c, &err) == 0);
	CHECK(c.out && strstr(c.out, "out\n") && strstr(c.out, "err\n") && !c.err_out);
	ap_child__describe(&c, why, sizeof(why));
	CHECK(!strcmp(why, "exit 3: out"));
	ap_child__exit(&c);

	c = (struct ap_child){ .argv = perr, .stdout_io = AP_IO_NULL, .stderr_io = AP_IO_CAPTURE };
	CHECK(ap_child__run(&c, &err) == 0);
	ap_child__describe(&c, why, sizeof(why));
	CHECK(!strcmp(why, "exit 1: Error: the reason"));
	ap_child__exit(&c);

	c = (struct ap_child){ .argv = sig };
	CHECK(ap_child__run(&c, &err) == 0);
	CHECK_EQ_U64(c.status, 128 + SIGUSR1);
	ap_child__describe(&c, why, sizeof(why));
	CHECK_STR_CONTAINS(why, "killed by signal 10");

	/* a timeout kills the whole group, grandchildren too */
	c = (struct ap_child){ .argv = sleepy, .stdout_io = AP_IO_CAPTURE, .timeout_ms = 300,
			       .new_group = 1 };
	t0 = now_s();
	CHECK(ap_child__run(&c, &err) == 0);
	CHECK(c.timed_out && now_s() - t0 < 5.0);
	ap_child__describe(&c, why, sizeof(why));
	CHECK(!strcmp(why, "timed out"));
	ap_child__exit(&c);
	{
		char *pid = NULL;
		size_t len;

		CHECK(ap_file__read_all(path_in("bg.pid"), 0, 64, &pid, &len, NULL, &err) == 0);
		CHECK(pid && atoi(pid) > 0 && gone(atoi(pid)));
		free(pid);
	}

	c = (struct ap_child){ .argv = nope };
	CHECK(ap_child__run(&c, &err) == -1);
	CHECK(err.kind == AP_ERR_IO);
	CHECK_STR_CONTAINS(err.msg, "cannot run /no/such/program: No such file");

	c = (struct ap_child){ .argv = pwd, .dir = dir, .env = env, .stdout_io = AP_IO_CAPTURE };
	CHECK(ap_child__run(&c, &err) == 0);
	CHECK(c.status == 0 && c.out && strstr(c.out, dir) && strstr(c.out, "set-in-child"));
	ap_child__exit(&c);
	CHECK(getenv("AP_TEST_VAR") == NULL);

	c = (struct ap_child){ .argv = pwd, .dir = "/no/such/dir" };
	CHECK(ap_child__run(&c, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "chdir /no/such/dir");

	/* capture is bounded; the rest is drained */
	{
		const char *big[] = { "sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x", NULL };

		c = (struct ap_child){ .argv = big, .stdout_io = AP_IO_CAPTURE, .capture_max = 1000 };
		CHECK(ap_child__run(&c, &err) == 0);
		CHECK(c.status == 0 && c.out_len == 1000);
		ap_child__exit(&c);
	}
}

static void test_perf(void)
{
	struct ap_err err = { 0 };
	char buf[512], field[64], why[256];
	const char *old_path = getenv("PATH");
	char *saved = old_path ? strdup(old_path) : NULL;

	write_file(path_in("perf"), "#!/bin/sh\n"
		   "case \"$STUB\" in\n"
		   "yes) echo '1234,,cycles,1000,100.00,,' >&2 ;;\n"
		   "no) echo '<not supported>,,cycles,0,100.00,,' >&2 ;;\n"
		   "*) echo 'Error: no perf here' >&2; exit 1 ;;\n"
		   "esac\n", 0755);
	unsetenv("PERF");
	setenv("PATH", dir, 1);
	CHECK(ap_perf__find(NULL, buf, sizeof(buf), &err) == 0 && !strcmp(buf, path_in("perf")));
	setenv("PATH", "/nonexistent", 1);
	CHECK(ap_perf__find(NULL, buf, sizeof(buf), &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "perf not found (looked for 'perf' on PATH)");
	setenv("PERF", path_in("perf"), 1);
	CHECK(ap_perf__find(NULL, buf, sizeof(buf), &err) == 0 && !strcmp(buf, path_in("perf")));
	setenv("PERF", "/nonexistent/perf", 1);
	CHECK(ap_perf__find(NULL, buf, sizeof(buf), &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "no executable at /nonexistent/perf ($PERF)");
	CHECK(ap_perf__find(path_in("perf"), buf, sizeof(buf), &err) == 0);	/* override first */
	CHECK(ap_perf__find(dir, buf, sizeof(buf), &err) == -1);	/* a folder is no program */
	unsetenv("PERF");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);

	setenv("STUB", "yes", 1);
	CHECK(ap_perf__cycles(path_in("perf"), NULL, 5000, field, sizeof(field), why,
			      sizeof(why)) == AP_CYCLES_YES);
	CHECK(!strcmp(field, "1234"));
	setenv("STUB", "no", 1);
	CHECK(ap_perf__cycles(path_in("perf"), NULL, 5000, field, sizeof(field), why,
			      sizeof(why)) == AP_CYCLES_NO);
	CHECK(!strcmp(field, "<not supported>"));
	setenv("STUB", "fail", 1);
	CHECK(ap_perf__cycles(path_in("perf"), NULL, 5000, field, sizeof(field), why,
			      sizeof(why)) == AP_CYCLES_FAILED);
	CHECK(!strcmp(why, "exit 1: Error: no perf here"));
	unsetenv("STUB");
}

static void test_os_release(void)
{
	struct ap_os_release o;
	char v[64];

	write_file(path_in("os-release"), "NAME=\"Ubuntu\"\nID=ubuntu\nID_LIKE=\"debian\"\n"
		   "PRETTY_NAME='Ubuntu 24.04 LTS'\nVERSION_ID=\"24.04\"\nID_X=no\n", 0644);
	CHECK(ap_os_release__read(path_in("os-release"), &o) == 0);
	CHECK(!strcmp(o.id, "ubuntu") && !strcmp(o.id_like, "debian"));
	CHECK(!strcmp(o.pretty_name, "Ubuntu 24.04 LTS") && !strcmp(o.version_id, "24.04"));
	CHECK(ap_os_release__like(&o, "debian") && !ap_os_release__like(&o, "deb"));
	CHECK(ap_os_release__field("IDX=1\nID=\n", "ID", v, sizeof(v)) == 0 && !strcmp(v, ""));
	CHECK(ap_os_release__field("ID_LIKE=x", "ID", v, sizeof(v)) == -1);
	CHECK(ap_os_release__read(path_in("none"), &o) == -1 && !o.id[0]);
	setenv("OS_RELEASE", path_in("os-release"), 1);
	CHECK(ap_os_release__read(NULL, &o) == 0 && !strcmp(o.id, "ubuntu"));
	unsetenv("OS_RELEASE");
}

/* Text for people: the width rule, cutting names, wrapping prose. */
static void test_term(void)
{
	char b[64], *text = NULL;
	size_t len = 0;
	FILE *f;

	setenv("COLUMNS", "132", 1);
	CHECK_EQ_U64(ap_term__columns(NULL, 0), 132);
	CHECK_EQ_U64(ap_term__columns(NULL, 1), AP_TERM_UNLIMITED);
	setenv("COLUMNS", "40", 1);	/* narrower than 80: 80 all the same */
	CHECK_EQ_U64(ap_term__columns(NULL, 0), 80);
	setenv("COLUMNS", "12x", 1);
	CHECK_EQ_U64(ap_term__columns(NULL, 0), 80);
	unsetenv("COLUMNS");
	CHECK_EQ_U64(ap_term__columns(NULL, 0), 80);	/* no terminal */

	CHECK(!strcmp(ap_term__fit(b, sizeof(b), "short", 10), "short"));
	CHECK(!strcmp(ap_term__fit(b, sizeof(b), "exactly10!", 10), "exactly10!"));
	CHECK(!strcmp(ap_term__fit(b, sizeof(b), "much_too_long_name", 10), "much_to..."));
	/* columns are characters: a two-byte character is one */
	CHECK(!strcmp(ap_term__fit(b, sizeof(b), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 4),
		      "\xc3\xa9..."));

	f = open_memstream(&text, &len);
	ap_term__wrap(f, "one two three four five six", 10, 2);
	ap_term__wrap(f, "averyveryverylongword x", 10, 2);
	fclose(f);
	CHECK(text && !strcmp(text, "one two\n  three\n  four\n  five six\n"
				     "averyveryverylongword\n  x\n"));
	free(text);
}

/* Outputs: "-" is stdout; a file of another user is never replaced. */
static void test_outfile(void)
{
	struct ap_err err = { 0 };
	struct outfile o;
	struct stat st;

	CHECK(outfile__open(&o, "-", &err) == 0 && o.f == stdout && !o.tmp);
	CHECK(outfile__commit(&o, &err) == 0);
	CHECK(stat("-", &st) != 0);	/* no file named - */
	CHECK(ap_outfile__check_owner(path_in("nothing-yet"), &err) == 0);
	write_file(path_in("mine.out"), "x", 0644);
	CHECK(ap_outfile__check_owner(path_in("mine.out"), &err) == 0);
	CHECK(ap_outfile__check_owner(dir, &err) == -1);
	CHECK_STR_CONTAINS(err.msg, "is a directory");
	if (geteuid() == 0 && !chown(path_in("mine.out"), 65534, 65534)) {
		CHECK(outfile__open(&o, path_in("mine.out"), &err) == -1);
		CHECK_STR_CONTAINS(err.msg, "belongs to another user (uid 65534)");
	}
	/* a symlink is replaced by the output, never written through */
	write_file(path_in("target"), "keep", 0644);
	CHECK(symlink(path_in("target"), path_in("sym.out")) == 0);
	CHECK(outfile__open(&o, path_in("sym.out"), &err) == 0);
	fputs("new", o.f);
	CHECK(outfile__commit(&o, &err) == 0);
	CHECK(lstat(path_in("sym.out"), &st) == 0 && S_ISREG(st.st_mode));
	{
		char *t = NULL;
		size_t n;

		CHECK(ap_file__read_all(path_in("target"), 0, 100, &t, &n, NULL, &err) == 0);
		CHECK(t && !strcmp(t, "keep"));
		free(t);
	}
}

static void check_content(const char *path, const char *want)
{
	char *t = NULL;
	size_t n;
	struct ap_err err = { 0 };

	CHECK(ap_file__read_all(path, 0, 100, &t, &n, NULL, &err) == 0);
	CHECK(t && !strcmp(t, want));
	free(t);
}

/* Files left in dir whose name starts with prefix (temporaries). */
static int count_prefixed(const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

/* An output set: every output renamed into place at the end, or none. */
static void test_outset(void)
{
	struct outset s = OUTSET_INIT;
	struct ap_err err = { 0 };
	struct outfile o;
	const char *a, *b;
	char keep_a[600];

	write_file(path_in("set.a"), "old a", 0644);
	snprintf(keep_a, sizeof(keep_a), "%s", path_in("set.a"));
	/* written as a writer writes any path (outfile.h), committed together */
	a = outset__add(&s, keep_a, &err);
	CHECK(a && strcmp(a, keep_a));
	CHECK(a && outfile__open(&o, a, &err) == 0);
	fputs("new a", o.f);
	CHECK(outfile__commit(&o, &err) == 0);
	check_content(keep_a, "old a");	/* not yet */
	b = outset__add(&s, path_in("set.b"), &err);
	CHECK(b && outfile__open(&o, b, &err) == 0);
	fputs("new b", o.f);
	CHECK(outfile__commit(&o, &err) == 0);
	CHECK(outset__commit(&s, &err) == 0 && s.n == 0);
	check_content(keep_a, "new a");
	check_content(path_in("set.b"), "new b");
	CHECK(count_prefixed("set.a.tmp") + count_prefixed("set.b.tmp") == 0);

	/* the last output fails: none is written, the old files keep their content */
	a = outset__add(&s, keep_a, &err);
	CHECK(a && outfile__open(&o, a, &err) == 0);
	fputs("newer a", o.f);
	CHECK(outfile__commit(&o, &err) == 0);
	CHECK(outset__add(&s, path_in("no-such-folder/x"), &err) == NULL);
	CHECK_STR_CONTAINS(err.msg, "no-such-folder/x: cannot create: No such file");
	outset__abort(&s, &err);
	check_content(keep_a, "new a");
	CHECK(count_prefixed("set.a.tmp") == 0);

	/* a writer's message names the output, not the temporary */
	a = outset__add(&s, keep_a, &err);
	CHECK(a != NULL);
	snprintf(err.msg, sizeof(err.msg), "%s: write failed: No space left on device", a);
	outset__abort(&s, &err);
	CHECK(!strncmp(err.msg, keep_a, strlen(keep_a)) &&
	      !strcmp(err.msg + strlen(keep_a), ": write failed: No space left on device"));

	/* stdout and devices are written in place; a folder is refused */
	CHECK(outset__add(&s, "-", &err) && !strcmp(outset__add(&s, "-", &err), "-"));
	CHECK(!strcmp(outset__add(&s, "/dev/null", &err), "/dev/null") && s.n == 0);
	CHECK(outset__add(&s, dir, &err) == NULL);
	CHECK_STR_CONTAINS(err.msg, "is a directory");
	CHECK(outset__commit(&s, &err) == 0);
}

/* The sanitizer on messages and on another program's text. */
static void test_names(void)
{
	char *text = NULL, buf[64];
	size_t len = 0, n;
	FILE *f = open_memstream(&text, &len);

	cwasm_name__fputs("ok \x1b[31mred\x07 \xc2\x9b" "2J bidi\xe2\x80\xae.", f);
	fclose(f);
	CHECK(text && !strcmp(text, "ok _[31mred_ _2J bidi_."));
	free(text);
	strcpy(buf, "a\tb\nc\x1b]0;x\x07\r\xff\n");
	n = cwasm_name__scrub_text(buf, strlen(buf));
	CHECK(n == strlen(buf) && !strcmp(buf, "a\tb\nc_]0;x___\n"));
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, sizeof(dir), "%s/test_util.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	test_array();
	test_err();
	test_file();
	test_run();
	test_perf();
	test_os_release();
	test_term();
	test_outfile();
	test_outset();
	test_names();
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", dir);
	}
	CHECK_DONE();
}
