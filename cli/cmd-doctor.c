// SPDX-License-Identifier: MIT
/*
 * aotperf doctor: what works on this machine and what to do otherwise.
 *
 * Every check is real: perf is run (util/run.h: no shell, output captured,
 * each run with a timeout that kills its process group) in a private
 * temporary folder that is removed at the end. Exit 0 when the main
 * workflow can run here (perf present and `perf record -e cpu-clock`
 * records samples), 1 otherwise.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "annotate-fallback.h"
#include "../util/term.h"
#include "../util/file.h"
#include "../util/json_out.h"
#include "doctor-fixes.h"
#include "../util/osrelease.h"
#include "../util/perf.h"
#include "../util/run.h"

#define OUT_CAP		(8u << 20)	/* keep at most this much of a child's output */
#define SPIN_MS		100		/* the workload perf record samples */
#define MAX_CHECKS	16
#define TEXT_MAX	512

enum status { ST_OK, ST_WARN, ST_FAIL, ST_SKIP };

static const char *const status_text[] = { "ok", "warn", "FAIL", "skip" };
static const char *const status_json[] = { "ok", "warn", "fail", "skip" };

struct check {
	const char *name;
	enum status status;
	char detail[TEXT_MAX];
	char fix[TEXT_MAX];
};

struct doctor {
	const char *perf_opt;		/* --perf, or NULL: "perf" on PATH */
	char perf[PATH_MAX];		/* resolved path, "" when not found */
	char tmp[PATH_MAX];		/* private scratch folder, "" if none */
	char data[PATH_MAX + 32];	/* the recording made by check_record */
	char install_hint[TEXT_MAX];
	char os_name[128];
	struct utsname uts;
	int root;
	int record_ok;			/* perf record -e cpu-clock gave samples */
	int mono_ok;			/* ... with -k mono */
	struct check checks[MAX_CHECKS];
	int n;
};

/* AOTPERF_DOCTOR_TIMEOUT_MS: an upper bound on every child's timeout (tests). */
static int timeout_cap_ms;

static int capped(int timeout_ms)
{
	return timeout_cap_ms > 0 && timeout_ms > timeout_cap_ms ? timeout_cap_ms : timeout_ms;
}

static const char doctor_usage[] =
	"usage: aotperf doctor [--json] [--perf PATH] [--wide]\n"
	"\n"
	"Check what aotperf's workflow needs on this machine, running perf for real:\n"
	"perf and its version against the running kernel, perf_event_paranoid and\n"
	"kptr_restrict, hardware cycles (else cpu-clock), perf record -k mono, the\n"
	"TIME_CONV record, perf inject --jit, --dlfilter, perf annotate (its options,\n"
	"and one run on a recorded function: perf 6.12 crashes or lists no bytes) and\n"
	"objdump. A fix is printed under each check that is not ok.\n"
	"\n"
	"      --json        print {\"checks\":[{name,status,detail,fix}],\"ok\":bool}\n"
	"      --perf PATH   the perf to check (default: perf on PATH)\n"
	"      --wide        one line per check and fix (default: wrapped at 80 columns,\n"
	"                    the terminal's width or $COLUMNS)\n"
	"\n"
	"Each perf run has a timeout (10 to 60 s; AOTPERF_DOCTOR_TIMEOUT_MS lowers it).\n"
	"\n"
	"Exit status: 0 the workflow can run (perf present, perf record -e cpu-clock\n"
	"works), 1 it cannot, 2 bad usage.\n";

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The workload sampled by perf record: burn the CPU for ms milliseconds.
 * Not inlined: check_annotate has perf annotate list it by name.
 */
#define SPIN_SYMBOL "spin"
static __attribute__((noinline)) int spin(unsigned int ms)
{
	volatile unsigned long sink = 0;
	long long end = now_ms() + ms;

	while (now_ms() < end)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
	return sink == 1 ? EXIT_GATE : EXIT_OK;
}

/*
 * Run argv in the scratch folder: no shell, stdin from /dev/null, the C
 * locale and no pager, its own process group killed at the timeout, stdout
 * and stderr merged into c->out (never NULL afterwards). 0 when it exited
 * 0; otherwise nonzero and why says how it ended.
 */
static int run(const struct doctor *d, const char *const argv[], int timeout_ms,
	       struct ap_child *c, char *why, size_t wlen)
{
	static const char *const env[] = { "LC_ALL=C", "PAGER=cat", "PERF_PAGER=cat", NULL };
	struct ap_err err;

	*c = (struct ap_child){
		.argv = argv, .dir = d->tmp, .env = env, .stdin_null = 1,
		.stdout_io = AP_IO_CAPTURE, .stderr_io = AP_IO_MERGE, .new_group = 1,
		.capture_max = OUT_CAP, .timeout_ms = capped(timeout_ms),
	};
	if (why && wlen)
		why[0] = '\0';
	if (ap_child__run(c, &err)) {
		snprintf(why, wlen, "%.290s", err.msg);
		c->out = calloc(1, 1);
		return -1;
	}
	if (c->timed_out || c->status) {
		ap_child__describe(c, why, wlen);
		return c->timed_out ? -2 : c->status;
	}
	return 0;
}

static struct check *add(struct doctor *d, const char *name, enum status st, const char *fix,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static struct check *add(struct doctor *d, const char *name, enum status st, const char *fix,
			 const char *fmt, ...)
{
	struct check *c = &d->checks[d->n < MAX_CHECKS ? d->n++ : MAX_CHECKS - 1];
	va_list ap;

	c->name = name;
	c->status = st;
	va_start(ap, fmt);
	vsnprintf(c->detail, sizeof(c->detail), fmt, ap);
	va_end(ap);
	snprintf(c->fix, sizeof(c->fix), "%s", fix ? fix : "");
	return c;
}

static void skip(struct doctor *d, const char *name, const char *what, const char *why)
{
	add(d, name, ST_SKIP, NULL, "%s: not checked (%s)", what, why);
}

/* The integer a /proc file starts with. */
static int read_int_file(const char *path, long *v)
{
	struct ap_err err;
	char *text;
	size_t len;
	int ok;

	if (ap_file__read_all(path, 0, 4096, &text, &len, NULL, &err))
		return -1;
	ok = sscanf(text, "%ld", v) == 1;
	free(text);
	return ok ? 0 : -1;
}

/* How to install perf here, from os-release ($OS_RELEASE overrides the path). */
static void init_install_hint(struct doctor *d)
{
	const char *sudo = doctor_fix__as_root(d->root);
	char script[PATH_MAX];
	struct ap_os_release os;
	const char *id = os.id;

	ap_os_release__read(NULL, &os);
	snprintf(d->os_name, sizeof(d->os_name), "%s",
		 *os.pretty_name ? os.pretty_name : *id ? id : "unknown distribution");

	if (!strcmp(id, "azurelinux"))
		snprintf(d->install_hint, sizeof(d->install_hint),
			 "%stdnf install -y kernel-tools-%s (kernel-hwe-tools-, kernel-64k-tools- on"
			 " those kernels; not the bare name, which installs a newer kernel)", sudo,
			 d->uts.release);
	else if (!strcmp(id, "debian"))
		snprintf(d->install_hint, sizeof(d->install_hint),
			 "%sapt-get install linux-perf (Debian's perf follows Debian's kernel series)",
			 sudo);
	else if (!strcmp(id, "ubuntu") || ap_os_release__like(&os, "ubuntu"))
		snprintf(d->install_hint, sizeof(d->install_hint),
			 "%sapt-get install linux-tools-common linux-tools-%s", sudo,
			 d->uts.release);
	else if (!strcmp(id, "fedora") || !strcmp(id, "rhel") || !strcmp(id, "centos") ||
		 !strcmp(id, "rocky") || !strcmp(id, "almalinux") || ap_os_release__like(&os, "fedora") ||
		 ap_os_release__like(&os, "rhel"))
		snprintf(d->install_hint, sizeof(d->install_hint), "%sdnf install perf", sudo);
	else
		snprintf(d->install_hint, sizeof(d->install_hint),
			 "install your distribution's perf for kernel %s", d->uts.release);
	/* only where this aotperf's checkout has it: never a path that is not there */
	if (!doctor_fix__install_script(script, sizeof(script)) &&
	    strlen(d->install_hint) + strlen(script) + 24 < sizeof(d->install_hint)) {
		strcat(d->install_hint, "; or ");
		strcat(d->install_hint, script);
		strcat(d->install_hint, " --perf-only");
	}
}

static int kernel_major_minor(const char *s, unsigned int *maj, unsigned int *min)
{
	return sscanf(s, "%u.%u", maj, min) == 2 ? 0 : -1;
}

/*
 * The fix for a perf of another version than the kernel: an installed perf
 * of the kernel's version when there is one, else how to install one.
 */
static const char *other_perf_fix(struct doctor *d, unsigned int kmaj, unsigned int kmin)
{
	static char fix[TEXT_MAX];
	char path[PATH_MAX], ver[128];

	if (doctor_fix__matching_perf(d->perf, kmaj, kmin, capped(10000), path, sizeof(path), ver,
				      sizeof(ver)))
		return d->install_hint;
	snprintf(fix, sizeof(fix), "%.150s is installed (%.40s, the kernel's version): use it,"
		 " PERF=%.150s aotperf ...", path, ver, path);
	return fix;
}

/* perf present + its version against the running kernel. 0 when usable. */
static int check_perf(struct doctor *d)
{
	const char *argv[] = { NULL, "--version", NULL };
	unsigned int pmaj, pmin, kmaj, kmin;
	struct ap_child r;
	struct ap_err err;
	char ver[128], why[300];

	if (ap_perf__find(d->perf_opt, d->perf, sizeof(d->perf), &err)) {
		d->perf[0] = '\0';
		add(d, "perf", ST_FAIL, d->install_hint, "%s", err.msg);
		return -1;
	}
	add(d, "perf", ST_OK, NULL, "perf found: %s", d->perf);

	argv[0] = d->perf;
	if (run(d, argv, 10000, &r, why, sizeof(why))) {
		add(d, "perf_version", ST_FAIL, d->install_hint, "perf --version failed: %s", why);
		ap_child__exit(&r);
		d->perf[0] = '\0';
		return -1;
	}
	ap_first_line(ver, sizeof(ver), r.out, "perf version");
	ap_child__exit(&r);
	if (strncmp(ver, "perf version ", 13) ||
	    kernel_major_minor(ver + 13, &pmaj, &pmin) ||
	    kernel_major_minor(d->uts.release, &kmaj, &kmin))
		add(d, "perf_version", ST_WARN, d->install_hint,
		    "%s: cannot compare with kernel %s", *ver ? ver : "(no version printed)",
		    d->uts.release);
	else if (pmaj == kmaj && pmin == kmin)
		add(d, "perf_version", ST_OK, NULL, "%s matches kernel %s", ver, d->uts.release);
	else
		add(d, "perf_version", ST_WARN, other_perf_fix(d, kmaj, kmin),
		    "%s, kernel %s: major.minor differ (usually still records; prefer a match)",
		    ver, d->uts.release);
	return 0;
}

static void check_paranoid(struct doctor *d)
{
	const char *sudo = doctor_fix__as_root(d->root), *tee = doctor_fix__sudo(d->root);
	char fix[TEXT_MAX];
	long v;

	if (read_int_file("/proc/sys/kernel/perf_event_paranoid", &v)) {
		add(d, "perf_event_paranoid", ST_FAIL, "boot a kernel built with CONFIG_PERF_EVENTS",
		    "/proc/sys/kernel/perf_event_paranoid missing: no perf events in this kernel");
		return;
	}
	snprintf(fix, sizeof(fix),
		 "%ssysctl kernel.perf_event_paranoid=1 (to keep it: echo "
		 "kernel.perf_event_paranoid=1 | %stee /etc/sysctl.d/99-perf.conf)", sudo, tee);
	if (d->root)
		add(d, "perf_event_paranoid", ST_OK, NULL,
		    "perf_event_paranoid=%ld (running as root: not limited by it)", v);
	else if (v <= 1)
		add(d, "perf_event_paranoid", ST_OK, NULL,
		    "perf_event_paranoid=%ld: user and kernel sampling allowed", v);
	else if (v == 2)
		add(d, "perf_event_paranoid", ST_WARN, fix,
		    "perf_event_paranoid=2: user space only for non-root (no kernel samples)");
	else
		add(d, "perf_event_paranoid", ST_FAIL, fix,
		    "perf_event_paranoid=%ld: perf events denied to non-root users", v);
}

/* kptr_restrict, and whether /proc/kallsyms really shows addresses to us. */
static void check_kptr(struct doctor *d)
{
	const char *sudo = doctor_fix__as_root(d->root);
	char fix[TEXT_MAX], paranoid_fix[TEXT_MAX], line[256];
	struct ap_file ks;
	struct ap_err err;
	int visible = -1;
	FILE *f;
	long v;

	snprintf(fix, sizeof(fix), "%ssysctl kernel.kptr_restrict=0", sudo);
	snprintf(paranoid_fix, sizeof(paranoid_fix), "%ssysctl kernel.perf_event_paranoid=1 (with"
		 " kptr_restrict=0, /proc/kallsyms shows addresses to non-root only when"
		 " perf_event_paranoid <= 1)", sudo);
	if (read_int_file("/proc/sys/kernel/kptr_restrict", &v)) {
		add(d, "kptr_restrict", ST_WARN, "check that /proc is mounted",
		    "/proc/sys/kernel/kptr_restrict missing: cannot tell");
		return;
	}
	if (!ap_file__open(&ks, "/proc/kallsyms", 0, &err) && (f = fdopen(ks.fd, "r"))) {
		ks.fd = -1;	/* the FILE owns it now */
		for (int i = 0; i < 4096 && fgets(line, sizeof(line), f); i++) {
			unsigned long long a;

			visible = 0;
			if (sscanf(line, "%llx", &a) == 1 && a) {
				visible = 1;
				break;
			}
		}
		fclose(f);
	}
	if (visible == 1)
		add(d, "kptr_restrict", ST_OK, NULL,
		    "kptr_restrict=%ld: kernel symbol addresses visible", v);
	else if (visible == 0 && v == 0)
		/* kptr_restrict=0 shows addresses to non-root only with paranoid <= 1 */
		add(d, "kptr_restrict", ST_WARN,
		    d->root ? fix : paranoid_fix,
		    "kptr_restrict=0, but /proc/kallsyms shows zero addresses to this user "
		    "(kernel samples stay unresolved)");
	else if (visible == 0)
		add(d, "kptr_restrict", ST_WARN, fix,
		    "kptr_restrict=%ld: /proc/kallsyms shows zero addresses to this user "
		    "(kernel samples stay unresolved)", v);
	else
		add(d, "kptr_restrict", v ? ST_WARN : ST_OK, v ? fix : NULL,
		    "kptr_restrict=%ld (/proc/kallsyms unreadable)", v);
}

static void check_cycles(struct doctor *d)
{
	const char *fix = "record with -e cpu-clock (a software clock: works on VMs)";
	char field[128], why[300];
	int c = ap_perf__cycles(d->perf, d->tmp, capped(15000), field, sizeof(field), why,
				sizeof(why));

	if (c == AP_CYCLES_FAILED)
		add(d, "hw_cycles", ST_WARN, fix,
		    "hardware cycles: perf stat -e cycles failed (%s): not available", why);
	else if (c == AP_CYCLES_YES)
		add(d, "hw_cycles", ST_OK, NULL,
		    "hardware cycles available (perf stat counted %s for true)", field);
	else
		add(d, "hw_cycles", ST_WARN, fix, "hardware cycles not available (perf stat: %s)",
		    *field ? field : "no count printed");
}

/* perf record -e cpu-clock [-k mono] of a 100 ms spin; then perf report -D. */
static int record(struct doctor *d, int mono, struct ap_child *r, char *why, size_t wlen)
{
	char self[PATH_MAX], ms[16];
	const char *argv[20];
	ssize_t l = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int k = 0;

	unlink(d->data);
	argv[k++] = d->perf;
	argv[k++] = "record";
	argv[k++] = "-q";
	argv[k++] = "-N";			/* no build-id cache in ~/.debug */
	argv[k++] = "-e";
	argv[k++] = "cpu-clock";
	if (mono) {
		argv[k++] = "-k";
		argv[k++] = "mono";
	}
	argv[k++] = "-o";
	argv[k++] = d->data;
	argv[k++] = "--";
	if (l > 0) {
		self[l] = '\0';
		snprintf(ms, sizeof(ms), "%d", SPIN_MS);
		argv[k++] = self;
		argv[k++] = "doctor";
		argv[k++] = "--spin-ms";
		argv[k++] = ms;
	} else {
		argv[k++] = "true";
	}
	argv[k] = NULL;
	return run(d, argv, 60000, r, why, wlen);
}

static long long sample_count(const char *dump)
{
	const char *p = strstr(dump, "Aggregated stats:");
	long long n;

	if (!p || !(p = strstr(p, "SAMPLE events:")) ||
	    sscanf(p + strlen("SAMPLE events:"), "%lld", &n) != 1)
		return -1;
	return n;
}

static void check_record(struct doctor *d)
{
	const char *rep[] = { d->perf, "report", "-D", "-i", d->data, NULL };
	char why[300], plain_why[300], dump_why[300], fix[TEXT_MAX];
	struct ap_child r, dump;
	long long samples = -1;
	int have_dump;

	snprintf(d->data, sizeof(d->data), "%s/doctor.data", d->tmp);
	d->mono_ok = record(d, 1, &r, why, sizeof(why)) == 0;
	snprintf(fix, sizeof(fix), "run %.200s record -e cpu-clock -k mono -- true to see perf's "
		 "full message%s", d->perf,
		 r.out && (strstr(r.out, "paranoid") || strstr(r.out, "Permission denied") ||
			   strstr(r.out, "not permitted")) ?
		 "; if permission is denied, lower perf_event_paranoid (see above) or run as root" :
		 "");
	ap_child__exit(&r);
	if (!d->mono_ok) {
		int plain = record(d, 0, &r, plain_why, sizeof(plain_why)) == 0;

		ap_child__exit(&r);
		if (!plain) {
			add(d, "record", ST_FAIL, fix,
			    "perf record -e cpu-clock fails (%s)", plain_why);
			skip(d, "time_conv", "TIME_CONV", "no recording");
			return;
		}
	}

	have_dump = run(d, rep, 30000, &dump, dump_why, sizeof(dump_why)) == 0;
	if (have_dump)
		samples = sample_count(dump.out);
	if (samples == 0) {
		add(d, "record", ST_FAIL, fix,
		    "perf record -e cpu-clock%s ran but recorded 0 samples of a %d ms busy loop",
		    d->mono_ok ? " -k mono" : "", SPIN_MS);
	} else {
		char count[64] = "";

		d->record_ok = 1;
		if (samples > 0)
			snprintf(count, sizeof(count), " (%lld samples of a %d ms busy loop)",
				 samples, SPIN_MS);
		if (d->mono_ok)
			add(d, "record", ST_OK, NULL, "perf record -e cpu-clock -k mono works%s",
			    count);
		else
			add(d, "record", ST_WARN,
			    "record without -k mono: the ELF-image path (aotperf inject, the default) "
			    "needs no -k mono; only aotperf inject --jitdump does",
			    "perf record -k mono fails (%s); plain -e cpu-clock works%s", why, count);
	}

	if (!have_dump) {
		add(d, "time_conv", ST_WARN, "run perf report -D on a recording to see why it fails",
		    "TIME_CONV: perf report -D failed (%s): cannot tell", dump_why);
	} else if (strstr(dump.out, "TIME_CONV")) {
		add(d, "time_conv", ST_OK, NULL,
		    "TIME_CONV recorded: jitdump with arch timestamps works without -k mono");
	} else {
		add(d, "time_conv", ST_WARN,
		    d->mono_ok ? "record with -k mono for jitdump (it works here); the ELF-image path "
				 "(aotperf inject, the default) needs neither"
			       : "the ELF-image path (aotperf inject, the default) needs neither",
		    "TIME_CONV not recorded (no usable TSC, as on most VMs): "
		    "jitdump + perf inject --jit needs perf record -k mono");
	}
	ap_child__exit(&dump);
}

static void check_inject(struct doctor *d)
{
	const char *bo[] = { d->perf, "version", "--build-options", NULL };
	char out[PATH_MAX + 32], bid[PATH_MAX + 32], why[300], libelf[64] = "";
	/* --buildid-dir: inject fills a build-id cache; keep it out of ~/.debug */
	const char *inj[] = { d->perf, "--buildid-dir", bid, "inject", "--jit", "-i", d->data,
			      "-o", out, NULL };
	const char *fix = "install a perf built with libelf (the distributions' perf is), or "
			  "keep to the ELF-image path (aotperf inject, the default)";
	struct ap_child r;
	int off = 0;

	if (run(d, bo, 10000, &r, why, sizeof(why)) == 0 && strstr(r.out, "libelf:")) {
		char line[160];

		/* "                libelf: [ on  ]  # HAVE_LIBELF_SUPPORT" */
		ap_first_line(line, sizeof(line), r.out, "libelf:");
		off = !!strstr(line, "OFF");
		snprintf(libelf, sizeof(libelf), "libelf: %s", off ? "OFF" : "on");
	}
	ap_child__exit(&r);
	if (off) {
		add(d, "inject_jit", ST_WARN, fix,
		    "perf built without libelf: perf inject --jit cannot write the jitted ELF files");
		return;
	}
	if (!d->record_ok) {
		add(d, "inject_jit", *libelf ? ST_OK : ST_WARN, *libelf ? NULL : fix,
		    "perf inject --jit: %s (not run: no recording)",
		    *libelf ? "built with libelf" : "build options unknown");
		return;
	}
	snprintf(out, sizeof(out), "%s/doctor.jit.data", d->tmp);
	snprintf(bid, sizeof(bid), "%s/buildid", d->tmp);
	if (run(d, inj, 30000, &r, why, sizeof(why)) == 0)
		add(d, "inject_jit", ST_OK, NULL, "perf inject --jit works%s%s%s",
		    *libelf ? " (" : "", libelf, *libelf ? ")" : "");
	else
		add(d, "inject_jit", ST_WARN, fix, "perf inject --jit fails (%s)", why);
	ap_child__exit(&r);
}

/* A perf subcommand's -h text (perf exits 129 after printing it). */
static char *help_text(struct doctor *d, const char *sub)
{
	const char *argv[] = { d->perf, sub, "-h", NULL };
	struct ap_child r;
	int st = run(d, argv, 10000, &r, NULL, 0);
	char *out = r.out;

	if (st == -1 || st == -2) {
		ap_child__exit(&r);
		return NULL;
	}
	return out;	/* the caller frees it */
}

static void check_dlfilter(struct doctor *d)
{
	const char *hdr = "/usr/include/perf/perf_dlfilter.h";
	char *h = help_text(d, "script");
	int opt = h && strstr(h, "--dlfilter");
	int have_hdr = !access(hdr, R_OK);

	free(h);
	if (opt && have_hdr)
		add(d, "dlfilter", ST_OK, NULL, "perf script --dlfilter supported, %s present", hdr);
	else if (opt)
		add(d, "dlfilter", ST_WARN,
		    "install the perf package that ships it (Debian linux-perf, Azure Linux "
		    "kernel-tools) to build aotperf's dlfilter",
		    "perf script --dlfilter supported, but %s is missing", hdr);
	else
		add(d, "dlfilter", ST_WARN, "use perf 5.14 or later for --dlfilter",
		    "perf script has no --dlfilter (perf older than 5.14)");
}

/* perf annotate once on doctor's own function of the test recording (perf 6.12 crashes there). */
static void check_annotate_run(struct doctor *d)
{
	const char *fix = "aotperf annotate lists the function itself from the recording "
			  "instead (and says so); aotperf report --func gives the same table";
	char why[300];

	if (!d->record_ok) {
		add(d, "annotate", ST_OK, NULL, "perf annotate has --asm-raw and -M intel (not run: "
		    "no recording)");
		return;
	}
	switch (annot_health__probe(d->perf, d->data, SPIN_SYMBOL, capped(30000), why,
				    sizeof(why))) {
	case ANNOT_WORKS:
		add(d, "annotate", ST_OK, NULL, "perf annotate has --asm-raw and -M intel, and lists "
		    "a recorded function with its bytes");
		break;
	case ANNOT_CRASHES:
		add(d, "annotate", ST_WARN, fix, "%s annotating a recorded function", why);
		break;
	case ANNOT_NO_BYTES:
		add(d, "annotate", ST_WARN, fix, "%s (perf 6.12 prints none)", why);
		break;
	default:
		add(d, "annotate", ST_OK, NULL, "perf annotate has --asm-raw and -M intel (a "
		    "recorded function: %s)", why);
	}
}

static void check_annotate(struct doctor *d)
{
	char *h = help_text(d, "annotate");
	int raw = h && strstr(h, "--asm-raw");
	int style = h && strstr(h, "--disassembler-style");

	free(h);
	if (raw && style)
		check_annotate_run(d);
	else
		add(d, "annotate", ST_WARN, "use a newer perf for instruction-level annotate",
		    "perf annotate lacks%s%s", raw ? "" : " --asm-raw", style ? "" : " -M");
}

static void check_objdump(struct doctor *d)
{
	const char *argv[] = { NULL, "--version", NULL };
	char path[PATH_MAX], ver[160];
	char fix[TEXT_MAX];
	struct ap_child r;

	doctor_fix__binutils(d->root, fix, sizeof(fix));
	if (ap_find_exe("objdump", path, sizeof(path))) {
		add(d, "objdump", ST_WARN, fix, "objdump not found: perf annotate cannot disassemble");
		return;
	}
	argv[0] = path;
	if (run(d, argv, 10000, &r, NULL, 0) != 0) {
		add(d, "objdump", ST_WARN, fix, "%s --version fails", path);
	} else {
		ap_first_line(ver, sizeof(ver), r.out, NULL);
		add(d, "objdump", ST_OK, NULL, "objdump for perf annotate: %s (%s)", path, ver);
	}
	ap_child__exit(&r);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

/* Lines of at most columns columns: details and fixes wrap under themselves. */
static void print_text(const struct doctor *d, int ready, unsigned columns)
{
	char line[sizeof(d->checks[0].detail) + sizeof(d->checks[0].fix) + 16];
	int warns = 0, fails = 0;

	printf("aotperf doctor: %s, kernel %s, %s\n", d->os_name, d->uts.release,
	       d->root ? "root" : "non-root");
	for (int i = 0; i < d->n; i++) {
		const struct check *c = &d->checks[i];

		snprintf(line, sizeof(line), "  %-5s %s", status_text[c->status], c->detail);
		ap_term__wrap(stdout, line, columns, 8);
		if (c->fix[0] && (c->status == ST_WARN || c->status == ST_FAIL)) {
			snprintf(line, sizeof(line), "        fix: %s", c->fix);
			ap_term__wrap(stdout, line, columns, 13);
		}
		warns += c->status == ST_WARN;
		fails += c->status == ST_FAIL;
	}
	if (ready) {
		int cycles = 0;

		for (int i = 0; i < d->n; i++)
			if (!strcmp(d->checks[i].name, "hw_cycles"))
				cycles = d->checks[i].status == ST_OK;
		printf("verdict: ready: record with perf record -e %s%s (%d warning%s%s)\n",
		       cycles ? "cycles" : "cpu-clock", d->mono_ok ? " -k mono" : "", warns,
		       warns == 1 ? "" : "s", fails ? ", other checks failed" : "");
	} else {
		printf("verdict: not ready: fix the FAIL line%s above\n", fails == 1 ? "" : "s");
	}
}

static void print_json(const struct doctor *d, int ready)
{
	struct json_out j;

	json_init(&j, stdout);
	json_begin_obj(&j);
	json_key(&j, "checks");
	json_begin_arr(&j);
	for (int i = 0; i < d->n; i++) {
		const struct check *c = &d->checks[i];

		json_begin_obj(&j);
		json_key(&j, "name"); json_str(&j, c->name);
		json_key(&j, "status"); json_str(&j, status_json[c->status]);
		json_key(&j, "detail"); json_str(&j, c->detail);
		json_key(&j, "fix"); json_str(&j, c->fix[0] ? c->fix : NULL);
		json_end_obj(&j);
	}
	json_end_arr(&j);
	json_key(&j, "ok"); json_bool(&j, ready);
	json_end_obj(&j);
	json_finish(&j);
}

int cmd_doctor(int argc, char **argv)
{
	enum { O_JSON = 256, O_PERF, O_SPIN, O_WIDE };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, O_JSON },
		{ "wide", no_argument, NULL, O_WIDE },
		{ "perf", required_argument, NULL, O_PERF },
		{ "spin-ms", required_argument, NULL, O_SPIN },	/* internal: the workload */
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct doctor d;
	const char *tmpbase = getenv("TMPDIR");
	int json = 0, wide = 0, ready, c;
	uint64_t v;

	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case O_JSON: json = 1; break;
		case O_WIDE: wide = 1; break;
		case O_PERF: d.perf_opt = optarg; break;
		case O_SPIN:
			if (cli_parse_u64(optarg, 10, &v) || v > 60000) {
				fprintf(stderr, "aotperf doctor: --spin-ms: '%s' is not a number\n",
					optarg);
				return EXIT_BAD;
			}
			return spin((unsigned int)v);
		case 'h': cli_usage(doctor_usage); return EXIT_OK;
		default: {
			struct ap_err err = { 0 };

			cli_bad_option(&err, argv, optind, "h", longopts);
			fprintf(stderr, "aotperf doctor: %s\n", err.msg);
			return EXIT_BAD;
		}
		}
	}
	if (optind < argc) {
		fprintf(stderr, "aotperf doctor: unexpected argument '%s'; see --help\n",
			argv[optind]);
		return EXIT_BAD;
	}

	if (getenv("AOTPERF_DOCTOR_TIMEOUT_MS") &&
	    !cli_parse_u64(getenv("AOTPERF_DOCTOR_TIMEOUT_MS"), 10, &v) && v && v < INT_MAX)
		timeout_cap_ms = (int)v;
	d.root = geteuid() == 0;
	if (uname(&d.uts))
		snprintf(d.uts.release, sizeof(d.uts.release), "unknown");
	init_install_hint(&d);
	snprintf(d.tmp, sizeof(d.tmp), "%s/aotperf-doctor.XXXXXX",
		 tmpbase && *tmpbase ? tmpbase : "/tmp");
	if (!mkdtemp(d.tmp)) {
		fprintf(stderr, "aotperf doctor: cannot create %s: %s\n", d.tmp, strerror(errno));
		return EXIT_GATE;
	}
	fflush(stdout);

	if (check_perf(&d) == 0) {
		check_paranoid(&d);
		check_kptr(&d);
		check_cycles(&d);
		check_record(&d);
		check_inject(&d);
		check_dlfilter(&d);
		check_annotate(&d);
	} else {
		check_paranoid(&d);
		check_kptr(&d);
		skip(&d, "hw_cycles", "hardware cycles", "no perf");
		skip(&d, "record", "perf record -e cpu-clock -k mono", "no perf");
		skip(&d, "time_conv", "TIME_CONV", "no perf");
		skip(&d, "inject_jit", "perf inject --jit", "no perf");
		skip(&d, "dlfilter", "perf script --dlfilter", "no perf");
		skip(&d, "annotate", "perf annotate options", "no perf");
	}
	check_objdump(&d);
	nftw(d.tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);

	ready = d.perf[0] && d.record_ok;
	if (json)
		print_json(&d, ready);
	else
		print_text(&d, ready, ap_term__columns(stdout, wide));
	return ready ? EXIT_OK : EXIT_GATE;
}
