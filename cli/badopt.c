// SPDX-License-Identifier: MIT
/*
 * What getopt_long's '?' meant, in one line a user can act on: the value
 * of a known option is missing, a long option is misspelt (did you mean),
 * or a prefix names several options.
 */
#include <fcntl.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../util/suggest.h"

#define MAX_OPTS 128

static const struct option *find_long(const struct option *lo, const char *name, size_t len)
{
	for (; lo && lo->name; lo++)
		if (strlen(lo->name) == len && !strncmp(lo->name, name, len))
			return lo;
	return NULL;
}

static int bad_long(struct ap_err *err, const char *arg, const struct option *longopts)
{
	const char *name = arg + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name), n = 0, nprefix = 0;
	const struct option *o = find_long(longopts, name, len);
	const char *names[MAX_OPTS], *guess;
	char word[64];

	if (o && o->has_arg == required_argument && !eq)
		return ap_errf(err, "--%s: the value is missing; see --help", o->name);
	if (o && o->has_arg == no_argument && eq)
		return ap_errf(err, "--%s takes no value ('%s'); see --help", o->name, arg);
	for (o = longopts; o && o->name && n < MAX_OPTS; o++) {
		names[n++] = o->name;
		nprefix += !strncmp(o->name, name, len);
	}
	if (len && nprefix > 1)
		return ap_errf(err, "'%s' is ambiguous (several options start with it); see --help",
			       arg);
	if (len < sizeof(word)) {
		memcpy(word, name, len);
		word[len] = 0;
		guess = ap_suggest(word, names, n);
		if (guess)
			return ap_errf(err, "unknown option '%s'; did you mean '--%s'?", arg, guess);
	}
	return ap_errf(err, "unknown option '%s'; see --help", arg);
}

int cli_bad_option(struct ap_err *err, char *const *argv, int optind_now, const char *shortopts,
		   const struct option *longopts)
{
	const char *arg = optind_now > 0 ? argv[optind_now - 1] : NULL, *p;

	if (arg && !strncmp(arg, "--", 2) && arg[2])
		return bad_long(err, arg, longopts);
	/* a short option: optopt is the letter getopt stopped at */
	if (optopt > 0 && optopt < 128 && shortopts &&
	    (p = strchr(shortopts, optopt)) && p[1] == ':')
		return ap_errf(err, "-%c: the value is missing; see --help", optopt);
	if (optopt > 0 && optopt < 128)
		return ap_errf(err, "unknown option '-%c'; see --help", optopt);
	return ap_errf(err, "unknown option '%s'; see --help", arg ? arg : "");
}

/* The first bytes of path, to tell a recording from a .cwasm; 0 when unreadable. */
static size_t head_of(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, len);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

int cli_bad_argument(struct ap_err *err, const char *arg)
{
	char head[8];
	size_t n = head_of(arg, head, sizeof(head));
	size_t len = strlen(arg);

	if (n == 8 && !memcmp(head, "PERFILE2", 8))
		return ap_errf(err, "unexpected argument '%s': a recording is given with -i %s",
			       arg, arg);
	if (n >= 4 && !memcmp(head, "\0aot", 4))
		return ap_errf(err, "unexpected argument '%s': a core is given with --cwasm %s",
			       arg, arg);
	if (len > 11 && !strcmp(arg + len - 11, ".cwasm.json"))
		return ap_errf(err, "unexpected argument '%s': a manifest is given with "
			       "--manifest %s", arg, arg);
	return ap_errf(err, "unexpected argument '%s'; see --help", arg);
}
