// SPDX-License-Identifier: MIT
/* perf's config files and its build-id cache folder (perfconfig.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "file.h"
#include "perfconfig.h"

#define PERFCONFIG_MAX ((size_t)1 << 20)	/* a config file larger than this is not perf's */
#define PERFCONFIG_SYSTEM "/etc/perfconfig"
#define PERFCONFIG_NAME_MAX 64

struct pc_cursor {
	const char *p, *end;
};

static int at_end(const struct pc_cursor *c)
{
	return c->p >= c->end;
}

static void skip_line(struct pc_cursor *c)
{
	const char *nl = memchr(c->p, '\n', (size_t)(c->end - c->p));

	c->p = nl ? nl + 1 : c->end;
}

static void skip_blanks(struct pc_cursor *c)
{
	while (!at_end(c) && (*c->p == ' ' || *c->p == '\t' || *c->p == '\r'))
		c->p++;
}

/* A name (letters, digits, '-', '.', '_') lowercased into out; its length, 0 when none. */
static size_t read_name(struct pc_cursor *c, char *out)
{
	size_t n = 0;

	while (!at_end(c) && (isalnum((unsigned char)*c->p) || strchr("-._", *c->p))) {
		if (n < PERFCONFIG_NAME_MAX - 1)
			out[n++] = (char)tolower((unsigned char)*c->p);
		c->p++;
	}
	out[n] = 0;
	return n;
}

/*
 * "[name]" or `[name "sub"]` (the rest of the line is ignored): the
 * section's name into sec, "" when it has a subsection or is malformed
 * (nothing of it then matches).
 */
static void read_section(struct pc_cursor *c, char *sec)
{
	c->p++;		/* '[' */
	skip_blanks(c);
	read_name(c, sec);
	skip_blanks(c);
	if (at_end(c) || *c->p != ']')
		sec[0] = 0;
	skip_line(c);
}

/*
 * A value up to the end of its line: blanks around it dropped, quotes
 * kept together, escapes read, a comment cut off; a backslash at the end
 * of a line continues it. Into out (cut to outn).
 */
static void read_value(struct pc_cursor *c, char *out, size_t outn)
{
	size_t n = 0, keep = 0;
	int quoted = 0;

	skip_blanks(c);
	while (!at_end(c)) {
		char ch = *c->p++;

		if (ch == '\n' && !quoted)
			break;
		if (!quoted && (ch == '#' || ch == ';')) {
			c->p--;
			skip_line(c);
			break;
		}
		if (ch == '"') {
			quoted = !quoted;
			keep = n;
			continue;
		}
		if (ch == '\\' && !at_end(c)) {
			ch = *c->p++;
			if (ch == '\n')
				continue;
			ch = ch == 'n' ? '\n' : ch == 't' ? '\t' : ch == 'b' ? '\b' : ch;
			if (n + 1 < outn)
				out[n++] = ch;
			keep = n;
			continue;
		}
		if (n + 1 < outn)
			out[n++] = ch;
		if (quoted || (ch != ' ' && ch != '\t' && ch != '\r'))
			keep = n;
	}
	if (outn)
		out[keep < outn ? keep : outn - 1] = 0;
}

int ap_perfconfig__get(const char *text, size_t n, const char *section, const char *name,
		       char *out, size_t outn)
{
	struct pc_cursor c = { text, text + n };
	char sec[PERFCONFIG_NAME_MAX] = "", key[PERFCONFIG_NAME_MAX];
	int found = 0;

	while (!at_end(&c)) {
		skip_blanks(&c);
		if (at_end(&c))
			break;
		if (*c.p == '[') {
			read_section(&c, sec);
			continue;
		}
		if (!read_name(&c, key)) {
			skip_line(&c);
			continue;
		}
		skip_blanks(&c);
		if (at_end(&c) || *c.p != '=') {
			skip_line(&c);	/* a name alone (a true boolean), or not a setting */
			continue;
		}
		c.p++;
		if (sec[0] && !strcasecmp(sec, section) && !strcasecmp(key, name)) {
			read_value(&c, out, outn);
			found = 1;
		} else {
			char skip[2];

			read_value(&c, skip, sizeof(skip));
		}
	}
	return found;
}

/* buildid.dir from the config file at path into out; 1 when it sets one. */
static int dir_from(const char *path, char *out, size_t n)
{
	struct ap_err err;
	char *text;
	size_t len;
	int found;

	if (ap_file__read_all(path, 0, PERFCONFIG_MAX, &text, &len, NULL, &err))
		return 0;
	found = ap_perfconfig__get(text, len, "buildid", "dir", out, n);
	free(text);
	return found;
}

/* perf's boolean environment variables: set, and not empty, 0, false, no or off */
static int env_true(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") && strcasecmp(v, "false") && strcasecmp(v, "no") &&
	       strcasecmp(v, "off");
}

int ap_perf__buildid_dir(char *buf, size_t n)
{
	const char *env = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME"), *only;
	char dir[4096] = "", user[4096];
	int set;

	if (env && *env)
		return (size_t)snprintf(buf, n, "%s", env) < n ? 0 : -1;
	only = getenv("PERF_CONFIG");
	if (only) {
		set = dir_from(only, dir, sizeof(dir));
	} else {
		set = !env_true("PERF_CONFIG_NOSYSTEM") && dir_from(PERFCONFIG_SYSTEM, dir, sizeof(dir));
		if (home && (size_t)snprintf(user, sizeof(user), "%s/.perfconfig", home) < sizeof(user))
			set |= dir_from(user, dir, sizeof(dir));
	}
	if (set && dir[0])
		return (size_t)snprintf(buf, n, "%s", dir) < n ? 0 : -1;
	if (!home || !*home)
		return -1;
	return (size_t)snprintf(buf, n, "%s/.debug", home) < n ? 0 : -1;
}
