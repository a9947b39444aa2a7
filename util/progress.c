// SPDX-License-Identifier: MIT
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "progress.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void progress__init(struct progress *p, FILE *out, int quiet)
{
	struct winsize ws;
	int fd;

	memset(p, 0, sizeof(*p));
	p->out = out;
	fd = out ? fileno(out) : -1;
	p->enabled = !quiet && fd >= 0 && isatty(fd);
	p->width = 80;
	if (p->enabled && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		p->width = ws.ws_col;
}

int progress__enabled(const struct progress *p)
{
	return p->enabled;
}

void progress__clear(struct progress *p)
{
	if (!p->enabled || !p->shown)
		return;
	fprintf(p->out, "\r%*s\r", (int)p->shown, "");
	fflush(p->out);
	p->shown = 0;
}

void progress__exit(struct progress *p)
{
	progress__clear(p);
	p->phase = NULL;
}

/* "12.3 MB" */
static void fmt_bytes(char *buf, size_t len, uint64_t v)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	double d = (double)v;
	unsigned u = 0;

	while (d >= 1000 && u + 1 < sizeof(units) / sizeof(units[0])) {
		d /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)v);
	else
		snprintf(buf, len, "%.1f %s", d, units[u]);
}

static void draw(struct progress *p, uint64_t t)
{
	char line[512], a[32], b[32];
	size_t n, max = p->width - 1;	/* the last column would wrap on some terminals */
	double secs = (double)(t - p->start_ns) / 1e9;
	int bytes = p->unit && strcmp(p->unit, "B") == 0;

	if (bytes) {
		fmt_bytes(a, sizeof(a), p->done);
		fmt_bytes(b, sizeof(b), p->total);
	} else {
		snprintf(a, sizeof(a), "%llu", (unsigned long long)p->done);
		snprintf(b, sizeof(b), "%llu", (unsigned long long)p->total);
	}
	if (p->total)
		n = (size_t)snprintf(line, sizeof(line), "%s  %3u%%  %s of %s%s%s  %.1f s", p->phase,
				     (unsigned)(p->done >= p->total ? 100 : p->done * 100 / p->total),
				     a, b, bytes || !p->unit ? "" : " ", bytes || !p->unit ? "" : p->unit,
				     secs);
	else
		n = (size_t)snprintf(line, sizeof(line), "%s  %s%s%s  %.1f s", p->phase, a,
				     bytes || !p->unit ? "" : " ", bytes || !p->unit ? "" : p->unit, secs);
	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	if (n > max)
		n = max;
	line[n] = 0;
	/* pad over a longer previous line instead of relying on terminal escapes */
	fprintf(p->out, "\r%s%*s", line, p->shown > n ? (int)(p->shown - n) : 0, "");
	if (p->shown > n)
		fprintf(p->out, "\r%s", line);
	fflush(p->out);
	p->shown = n;
	p->last_ns = t;
}

void progress__phase(struct progress *p, const char *phase, uint64_t total, const char *unit)
{
	if (!p->enabled)
		return;
	progress__clear(p);
	p->phase = phase ? phase : "";
	p->unit = unit;
	p->total = total;
	p->done = 0;
	p->start_ns = now_ns();
	draw(p, p->start_ns);
}

void progress__update(struct progress *p, uint64_t done)
{
	uint64_t t;

	if (!p->enabled || !p->phase)
		return;
	p->done = done;
	t = now_ns();	/* a vDSO call: cheap enough per chunk or record */
	if (t - p->last_ns >= (uint64_t)PROGRESS_INTERVAL_MS * 1000000u)
		draw(p, t);
}
