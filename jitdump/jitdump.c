// SPDX-License-Identifier: MIT
/*
 * aotjit: perf jitdump writer for WAMR AOT code (see jitdump.h).
 *
 * On-disk layout (host byte order; perf detects a swapped magic):
 *   header  u32 magic, version, total_size, elf_mach, pad1, pid,
 *           u64 timestamp, flags                              40 bytes
 *   records u32 id, total_size, u64 timestamp, then the payload with no
 *           padding in between (perf reads records back to back)
 *   JIT_CODE_LOAD  u32 pid, tid, u64 vma, code_addr, code_size, code_index,
 *                  name NUL-terminated, code bytes
 *   JIT_CODE_CLOSE header only
 *
 * Records are assembled in a buffer and written with pwrite at the end of
 * the last complete record; a failed write is truncated away, so the file
 * never holds a torn record, whatever the caller does next.
 *
 * Only libc and pthreads: this file, with the .cwasm walker it reads cores
 * through (cwasm/walk.c, target.c, name.c, all libc only), is also the
 * runtime-side library.
 */
/* secure_getenv, mkdtemp, syscall: whatever CFLAGS the runtime builds with */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "jitdump.h"
#include "unwind_info.h"
#include "../cwasm/name.h"
#include "../cwasm/walk.h"

#define JD_MAGIC	0x4A695444u	/* "JiTD" */
#define JD_VERSION	1
#define JD_CODE_LOAD	0
#define JD_CODE_CLOSE	3

/* Records are flushed once the buffer holds this much. */
#define JD_FLUSH_AT	(256 * 1024)

struct jd_header {
	uint32_t magic;
	uint32_t version;
	uint32_t total_size;
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
};

struct jd_prefix {
	uint32_t id;
	uint32_t total_size;
	uint64_t timestamp;
};

struct jd_load {
	struct jd_prefix p;
	uint32_t pid;
	uint32_t tid;
	uint64_t vma;
	uint64_t code_addr;
	uint64_t code_size;
	uint64_t code_index;
};

_Static_assert(sizeof(struct jd_header) == 40, "jitdump header is 40 bytes");
_Static_assert(sizeof(struct jd_prefix) == 16, "record prefix is 16 bytes");
_Static_assert(sizeof(struct jd_load) == 56, "code load is 56 bytes + name + code");

struct aotjit {
	pthread_mutex_t lock;
	int fd;
	int live;		/* aotjit_open: follows this process across fork */
	int failed;		/* negative errno once a child could not reopen */
	pid_t owner;		/* the process allowed to write fd */
	uint32_t pid;		/* pid in the header and records */
	uint32_t elf_mach;
	void *marker;
	size_t marker_len;
	uint64_t off;		/* end of the last complete record */
	uint64_t code_index;
	uint64_t last_ts;	/* newest timestamp written, for a file's close */
	char *dir;		/* live: where forked children put their dump */
	char *path;
	unsigned char *buf;
	size_t len, cap;
	struct aotjit *next;	/* registry of open writers, for fork */
};

/*
 * Process-wide state, each piece behind its own lock. Lock order:
 * def_lock, then reg_lock, then a writer's lock.
 */
static pthread_mutex_t def_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aotjit *def_writer;
static int def_err;

static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aotjit *reg_head;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* ---- small helpers ---- */

uint64_t aotjit_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint32_t host_elf_mach(void)
{
#if defined(__x86_64__)
	return EM_X86_64;
#elif defined(__aarch64__)
	return EM_AARCH64;
#elif defined(__i386__)
	return EM_386;
#elif defined(__arm__)
	return EM_ARM;
#elif defined(__riscv)
	return EM_RISCV;
#else
	return EM_NONE;
#endif
}

static uint32_t current_tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

static int pwrite_all(int fd, const void *data, size_t n, uint64_t off)
{
	const unsigned char *p = data;

	while (n) {
		ssize_t w = pwrite(fd, p, n, (off_t)off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (w == 0)
			return -EIO;
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static char *str_printf(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static char *str_printf(const char *fmt, ...)
{
	va_list ap, aq;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n >= 0 && (s = malloc((size_t)n + 1)))
		vsnprintf(s, (size_t)n + 1, fmt, aq);
	va_end(aq);
	va_end(ap);
	return s;
}

/* ---- names ---- */

/* The shared sanitizer (cwasm/name.h) on a C string of at most len bytes. */
size_t aotjit_sanitize_name(char *dst, size_t dstsz, const char *src,
			    size_t len)
{
	size_t n = 0;

	if (!dstsz)
		return 0;
	while (src && n < len && src[n])
		n++;
	return cwasm_name__sanitize(dst, dstsz, src, n);
}

/* ---- the fork registry ---- */

static void atfork_prepare(void)
{
	struct aotjit *j;

	pthread_mutex_lock(&def_lock);
	pthread_mutex_lock(&reg_lock);
	for (j = reg_head; j; j = j->next)
		pthread_mutex_lock(&j->lock);
}

/* Same in parent and child: the forking thread owns every lock. */
static void atfork_release(void)
{
	struct aotjit *j;

	for (j = reg_head; j; j = j->next)
		pthread_mutex_unlock(&j->lock);
	pthread_mutex_unlock(&reg_lock);
	pthread_mutex_unlock(&def_lock);
}

static void atfork_setup(void)
{
	/* Without it a fork during a registration could leave the child's
	 * copy of a writer locked forever; the writer still works in the
	 * parent, so failure is not fatal. */
	pthread_atfork(atfork_prepare, atfork_release, atfork_release);
}

static void registry_add(struct aotjit *j)
{
	pthread_once(&atfork_once, atfork_setup);
	pthread_mutex_lock(&reg_lock);
	j->next = reg_head;
	reg_head = j;
	pthread_mutex_unlock(&reg_lock);
}

static void registry_del(struct aotjit *j)
{
	struct aotjit **pp;

	pthread_mutex_lock(&reg_lock);
	for (pp = &reg_head; *pp; pp = &(*pp)->next) {
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	}
	pthread_mutex_unlock(&reg_lock);
}

/* ---- creating the dump ---- */

/*
 * The dump's folder must not be swappable under us by someone else: a
 * component that already exists must be a real directory owned by us (or
 * root). With HOME of another user (sudo), pass a dir or set JITDUMPDIR.
 */
static int ensure_dir(const char *path)
{
	struct stat st;

	if (mkdir(path, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return -errno;
	if (lstat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() && st.st_uid != 0)
		return -EPERM;
	return 0;
}

/* BASE/.debug/jit/wasm-jit-YYYYMMDD.XXXXXX, as perf's agents lay it out. */
static int make_run_dir(char **out)
{
	const char *base = secure_getenv("JITDUMPDIR");
	char date[16] = "00000000", *p;
	struct tm tm;
	time_t t = time(NULL);
	int ret;

	if (!base || !*base)
		base = secure_getenv("HOME");
	if (!base || !*base)
		base = "/tmp";
	if (localtime_r(&t, &tm))
		strftime(date, sizeof(date), "%Y%m%d", &tm);

	p = str_printf("%s/.debug", base);
	if (!p)
		return -ENOMEM;
	ret = ensure_dir(p);
	free(p);
	if (ret)
		return ret;
	p = str_printf("%s/.debug/jit", base);
	if (!p)
		return -ENOMEM;
	ret = ensure_dir(p);
	free(p);
	if (ret)
		return ret;

	p = str_printf("%s/.debug/jit/wasm-jit-%s.XXXXXX", base, date);
	if (!p)
		return -ENOMEM;
	if (!mkdtemp(p)) {
		ret = -errno;
		free(p);
		return ret;
	}
	*out = p;
	return 0;
}

static int map_marker(struct aotjit *j)
{
	long pgsz = sysconf(_SC_PAGESIZE);
	void *m;

	if (pgsz <= 0)
		pgsz = 4096;
	/*
	 * perf record logs executable file mappings only (unless --data), and
	 * perf inject --jit looks for exactly this MMAP of jit-<pid>.dump.
	 * The file is shorter than the page; nothing ever reads the mapping.
	 */
	m = mmap(NULL, (size_t)pgsz, PROT_READ | PROT_EXEC, MAP_PRIVATE, j->fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	j->marker = m;
	j->marker_len = (size_t)pgsz;
	return 0;
}

/* Create j->path exclusively and write the header (and the marker, if live). */
static int create_dump(struct aotjit *j, mode_t mode, uint64_t timestamp)
{
	struct jd_header h;
	int ret;

	j->fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     mode);
	if (j->fd < 0)
		return -errno;

	memset(&h, 0, sizeof(h));
	h.magic = JD_MAGIC;
	h.version = JD_VERSION;
	h.total_size = sizeof(h);
	h.elf_mach = j->elf_mach;
	h.pid = j->pid;
	h.timestamp = timestamp ? timestamp : aotjit_now();

	ret = pwrite_all(j->fd, &h, sizeof(h), 0);
	if (!ret && j->live)
		ret = map_marker(j);
	if (ret) {
		close(j->fd);
		j->fd = -1;
		unlink(j->path);
		return ret;
	}
	j->off = sizeof(h);
	j->code_index = 1;
	j->last_ts = h.timestamp;
	return 0;
}

static struct aotjit *writer_new(uint32_t elf_mach)
{
	struct aotjit *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	if (pthread_mutex_init(&j->lock, NULL)) {
		free(j);
		return NULL;
	}
	j->fd = -1;
	j->elf_mach = elf_mach ? elf_mach : host_elf_mach();
	j->owner = getpid();
	return j;
}

static void writer_free(struct aotjit *j)
{
	if (j->marker)
		munmap(j->marker, j->marker_len);
	if (j->fd >= 0)
		close(j->fd);
	pthread_mutex_destroy(&j->lock);
	free(j->buf);
	free(j->dir);
	free(j->path);
	free(j);
}

static struct aotjit *open_failed(struct aotjit *j, int ret, int *err)
{
	if (j)
		writer_free(j);
	if (err)
		*err = ret;
	errno = -ret;
	return NULL;
}

struct aotjit *aotjit_open(const char *dir, uint32_t elf_mach, int *err)
{
	struct aotjit *j = writer_new(elf_mach);
	int ret;

	if (!j)
		return open_failed(NULL, -ENOMEM, err);
	j->live = 1;
	j->pid = (uint32_t)j->owner;
	if (dir) {
		j->dir = strdup(dir);
		ret = j->dir ? 0 : -ENOMEM;
	} else {
		ret = make_run_dir(&j->dir);
	}
	if (ret)
		return open_failed(j, ret, err);
	j->path = str_printf("%s/jit-%ld.dump", j->dir, (long)j->pid);
	if (!j->path)
		return open_failed(j, -ENOMEM, err);
	ret = create_dump(j, 0600, 0);
	if (ret)
		return open_failed(j, ret, err);
	registry_add(j);
	if (err)
		*err = 0;
	return j;
}

struct aotjit *aotjit_open_file(const char *path, uint32_t pid,
				uint32_t elf_mach, uint64_t timestamp,
				int *err)
{
	struct aotjit *j;
	int ret;

	if (!path || !*path)
		return open_failed(NULL, -EINVAL, err);
	j = writer_new(elf_mach);
	if (!j)
		return open_failed(NULL, -ENOMEM, err);
	j->pid = pid;
	j->path = strdup(path);
	if (!j->path)
		return open_failed(j, -ENOMEM, err);
	ret = create_dump(j, 0644, timestamp);
	if (ret)
		return open_failed(j, ret, err);
	registry_add(j);
	if (err)
		*err = 0;
	return j;
}

/* ---- which writer, and may this process write it ---- */

/* The process-wide writer, opened on first use; a failure sticks. */
static struct aotjit *default_writer(int *ret)
{
	struct aotjit *j;

	pthread_mutex_lock(&def_lock);
	if (!def_writer && !def_err)
		def_writer = aotjit_open(NULL, 0, &def_err);
	j = def_writer;
	*ret = def_err;
	pthread_mutex_unlock(&def_lock);
	return j;
}

/*
 * In a forked child a live writer starts its own jit-<pid>.dump: the
 * inherited descriptor is the parent's file. Called with j->lock held.
 */
static int reopen_in_child(struct aotjit *j, pid_t pid)
{
	char *path;
	int ret;

	if (j->marker)
		munmap(j->marker, j->marker_len);
	j->marker = NULL;
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
	j->len = 0;
	j->owner = pid;
	j->pid = (uint32_t)pid;
	j->failed = 0;

	path = str_printf("%s/jit-%ld.dump", j->dir, (long)pid);
	if (!path)
		return j->failed = -ENOMEM;
	free(j->path);
	j->path = path;
	ret = create_dump(j, 0600, 0);
	if (ret)
		j->failed = ret;
	return ret;
}

static int writable(struct aotjit *j)
{
	pid_t pid = getpid();

	if (pid != j->owner) {
		if (!j->live)
			return -ECHILD;
		return reopen_in_child(j, pid);
	}
	if (j->failed)
		return j->failed;
	return j->fd >= 0 ? 0 : -EBADF;
}

/* ---- records ---- */

static int flush(struct aotjit *j)
{
	int ret;

	if (!j->len)
		return 0;
	ret = pwrite_all(j->fd, j->buf, j->len, j->off);
	if (ret) {
		/* Drop what made it to disk, so the dump ends on a record
		 * (later records are written at j->off again). If even that
		 * fails, a torn tail may stay: stop writing this dump. */
		if (ftruncate(j->fd, (off_t)j->off) != 0)
			j->failed = -EIO;
	} else {
		j->off += j->len;
	}
	j->len = 0;
	if (j->cap > 4 * JD_FLUSH_AT) {
		/* A huge function grew the buffer: give the memory back. */
		free(j->buf);
		j->buf = NULL;
		j->cap = 0;
	}
	return ret;
}

static int reserve(struct aotjit *j, size_t need)
{
	size_t cap;
	unsigned char *b;

	if (j->len && j->len + need > JD_FLUSH_AT) {
		int ret = flush(j);

		if (ret)
			return ret;
	}
	if (j->len + need <= j->cap)
		return 0;
	cap = j->cap ? j->cap : JD_FLUSH_AT;
	while (cap < j->len + need)
		cap *= 2;
	b = realloc(j->buf, cap);
	if (!b)
		return -ENOMEM;
	j->buf = b;
	j->cap = cap;
	return 0;
}

/* Append one JIT_CODE_LOAD; name is already sanitized. */
static int put_load(struct aotjit *j, uint64_t ts, uint32_t tid, uint64_t addr,
		    const void *code, uint64_t size, const char *name)
{
	size_t nlen = strlen(name) + 1;
	struct jd_load r;
	unsigned char *p;
	int ret;

	if (size > (uint64_t)INT32_MAX - sizeof(r) - nlen)
		return -E2BIG;	/* perf reads total_size as u32, code_size as int */
	ret = reserve(j, sizeof(r) + nlen + (size_t)size);
	if (ret)
		return ret;

	memset(&r, 0, sizeof(r));
	r.p.id = JD_CODE_LOAD;
	r.p.total_size = (uint32_t)(sizeof(r) + nlen + size);
	r.p.timestamp = ts;
	if (ts > j->last_ts)
		j->last_ts = ts;
	r.pid = j->pid;
	r.tid = tid;
	r.vma = addr;
	r.code_addr = addr;
	r.code_size = size;
	r.code_index = j->code_index++;

	p = j->buf + j->len;
	memcpy(p, &r, sizeof(r));
	memcpy(p + sizeof(r), name, nlen);
	if (size)
		memcpy(p + sizeof(r) + nlen, code, (size_t)size);
	j->len += sizeof(r) + nlen + (size_t)size;
	return 0;
}

static uint32_t record_tid(const struct aotjit *j)
{
	return j->live ? current_tid() : j->pid;
}

int aotjit_code_load(struct aotjit *j, uint64_t addr, const void *code,
		     uint64_t size, const char *name, uint64_t timestamp)
{
	char buf[AOTJIT_NAME_MAX];
	int ret = 0;

	if (size && !code)
		return -EINVAL;
	if (!j && !(j = default_writer(&ret)))
		return ret;
	if (!aotjit_sanitize_name(buf, sizeof(buf), name, SIZE_MAX))
		strcpy(buf, "_");

	pthread_mutex_lock(&j->lock);
	ret = writable(j);
	if (!ret)
		ret = put_load(j, timestamp ? timestamp : aotjit_now(),
			       record_tid(j), addr, code, size, buf);
	if (!ret)
		ret = flush(j);
	else
		j->len = 0;
	pthread_mutex_unlock(&j->lock);
	return ret;
}

/* ---- cores ---- */

/* Where a core's function names come from. */
struct namesrc {
	const char *const *names;	/* caller's, NUL-terminated, used as-is */
	const struct cwasm_str *spans;	/* from a .cwasm: local_func_N:name */
};

static void core_name(char *out, size_t outsz, size_t plen, uint32_t i,
		      const struct namesrc *ns)
{
	char *p = out + plen;
	size_t room = outsz - plen;

	if (ns->names && ns->names[i] && ns->names[i][0] &&
	    aotjit_sanitize_name(p, room, ns->names[i], SIZE_MAX))
		return;
	snprintf(p, room, "local_func_%u", i);
	if (ns->spans && ns->spans[i].len) {
		size_t n = strlen(p);
		char wname[CWASM_NAME_MAX + 1];

		/* bounded as aotperf bounds it (cwasm__parse), then fitted */
		cwasm_name__sanitize(wname, sizeof(wname), ns->spans[i].p, ns->spans[i].len);
		if (n + 1 < room && wname[0]) {
			p[n++] = ':';
			aotjit_sanitize_name(p + n, room - n, wname, SIZE_MAX);
			if (!p[n])
				p[n - 1] = '\0';
		}
	}
}

static int check_core(uint64_t base, const void *text, uint64_t text_size,
		      const uint32_t *offsets, uint32_t nfuncs)
{
	uint32_t i;

	if ((text_size && !text) || (nfuncs && !offsets))
		return -EINVAL;
	if (base + text_size < base)
		return -EINVAL;
	for (i = 0; i < nfuncs; i++) {
		if (offsets[i] > text_size)
			return -EINVAL;
		if (i && offsets[i] < offsets[i - 1])
			return -EINVAL;
	}
	return 0;
}

/* Append function FUNC's JIT_CODE_UNWINDING_INFO, if it has rules. */
static int put_unwind(struct aotjit *j, const struct unwind_table *uw, uint32_t func,
		      uint64_t ts)
{
	void *rec;
	size_t len;
	int ret = aotjit_unwind__record(uw, func, ts, &rec, &len);

	if (ret || !rec)
		return ret;
	ret = reserve(j, len);
	if (!ret) {
		memcpy(j->buf + j->len, rec, len);
		j->len += len;
	}
	free(rec);
	return ret;
}

/* A core's records: each function's unwinding info (uw not NULL), then
 * its code load. */
static int write_core_uw(struct aotjit *j, uint64_t base, const unsigned char *text,
			 uint64_t text_size, const uint32_t *offsets,
			 uint32_t nfuncs, const struct namesrc *ns,
			 const char *prefix, uint64_t timestamp,
			 const struct unwind_table *uw)
{
	char name[AOTJIT_NAME_MAX];
	size_t plen;
	uint32_t i, tid;
	uint64_t ts;
	int ret;

	ret = check_core(base, text, text_size, offsets, nfuncs);
	if (ret)
		return ret;
	/* Leave room for at least "local_func_4294967295". */
	plen = aotjit_sanitize_name(name, sizeof(name) - 32, prefix, SIZE_MAX);

	pthread_mutex_lock(&j->lock);
	ret = writable(j);
	if (ret)
		goto out;
	ts = timestamp ? timestamp : aotjit_now();
	tid = record_tid(j);
	for (i = 0; i < nfuncs && !ret; i++) {
		uint64_t end = i + 1 < nfuncs ? offsets[i + 1] : text_size;

		if (end == offsets[i])
			continue;
		core_name(name, sizeof(name), plen, i, ns);
		if (uw)
			ret = put_unwind(j, uw, i, ts);
		if (!ret)
			ret = put_load(j, ts, tid, base + offsets[i], text + offsets[i],
				       end - offsets[i], name);
	}
	if (!ret)
		ret = flush(j);
	else
		j->len = 0;	/* nothing of a failed record reaches the file */
out:
	pthread_mutex_unlock(&j->lock);
	return ret;
}

/* A core with unwinding rules derived from its bytes (docs/unwinding.md). */
static int write_core(struct aotjit *j, uint64_t base, const unsigned char *text,
		      uint64_t text_size, const uint32_t *offsets,
		      uint32_t nfuncs, const struct namesrc *ns,
		      const char *prefix, uint64_t timestamp)
{
	struct unwind_table *uw = NULL;
	int ret = check_core(base, text, text_size, offsets, nfuncs);

	if (!ret)
		uw = aotjit_unwind__table(j->elf_mach, text, text_size, offsets, nfuncs);
	ret = write_core_uw(j, base, text, text_size, offsets, nfuncs, ns, prefix, timestamp,
			    uw);
	unwind_table__delete(uw);
	return ret;
}

int aotjit_register_core_rules(struct aotjit *j, uint64_t base, const void *text,
			       uint64_t text_size, const uint32_t *offsets, uint32_t nfuncs,
			       const char *const *names, const char *prefix,
			       uint64_t timestamp, const struct unwind_table *t)
{
	struct namesrc ns = { .names = names };
	int ret = 0;

	if (!j && !(j = default_writer(&ret)))
		return ret;
	if (!t)
		return write_core(j, base, text, text_size, offsets, nfuncs, &ns, prefix,
				  timestamp);
	if (unwind_table__nfuncs(t) != nfuncs)
		return -EINVAL;
	return write_core_uw(j, base, text, text_size, offsets, nfuncs, &ns, prefix,
			     timestamp, t);
}

int aotjit_register_core_at(struct aotjit *j, uint64_t base, const void *text,
			    uint64_t text_size, const uint32_t *offsets,
			    uint32_t nfuncs, const char *const *names,
			    const char *prefix, uint64_t timestamp)
{
	struct namesrc ns = { .names = names };
	int ret = 0;

	if (!j && !(j = default_writer(&ret)))
		return ret;
	return write_core(j, base, text, text_size, offsets, nfuncs, &ns,
			  prefix, timestamp);
}

int aotjit_register_core(struct aotjit *j, uint64_t base, const void *text,
			 uint64_t text_size, const uint32_t *offsets,
			 uint32_t nfuncs, const char *const *names,
			 const char *prefix)
{
	return aotjit_register_core_at(j, base, text, text_size, offsets,
				       nfuncs, names, prefix, 0);
}

/* ---- a .cwasm core, read through the shared walker (cwasm/walk.h) ---- */

int aotjit_check_cwasm(const void *cwasm, size_t len, const char *name, char *msg,
		       size_t msglen)
{
	struct cwasm_walk w;
	struct ap_err err = { 0 };
	int ret = cwasm_walk__init(&w, cwasm, len, name, &err);

	if (msg && msglen)
		snprintf(msg, msglen, "%s", ret ? err.msg : "");
	return ret;
}

int aotjit_register_cwasm(struct aotjit *j, uint64_t base, const void *cwasm,
			  size_t len, const char *prefix, unsigned flags)
{
	struct cwasm_walk w;
	struct namesrc ns = { 0 };
	struct cwasm_str *spans = NULL;
	uint32_t *offsets, i;
	int ret = 0;

	if (!cwasm)
		return -EINVAL;
	ret = cwasm_walk__init(&w, cwasm, len, NULL, NULL);
	if (ret)
		return ret;
	if (!j && !(j = default_writer(&ret)))
		return ret;
	offsets = malloc(w.nfuncs ? w.nfuncs * sizeof(*offsets) : 1);
	if (!offsets)
		return -ENOMEM;
	for (i = 0; i < w.nfuncs; i++)
		offsets[i] = cwasm_walk__func_offset(&w, i);
	if ((flags & AOTJIT_WASM_NAMES) && w.nfuncs) {
		spans = calloc(w.nfuncs, sizeof(*spans));
		if (!spans) {
			free(offsets);
			return -ENOMEM;
		}
		cwasm_walk__func_names(&w, spans);
		ns.spans = spans;
	}
	ret = write_core(j, base, w.text, w.text_size, offsets, w.nfuncs, &ns, prefix, 0);
	free(spans);
	free(offsets);
	return ret;
}

/* ---- closing ---- */

const char *aotjit_path(struct aotjit *j)
{
	const char *p = NULL;

	if (j)
		return j->path;
	pthread_mutex_lock(&def_lock);
	if (def_writer)
		p = def_writer->path;
	pthread_mutex_unlock(&def_lock);
	return p;
}

int aotjit_close(struct aotjit *j)
{
	struct jd_prefix r;
	int ret = 0;

	if (!j) {
		pthread_mutex_lock(&def_lock);
		j = def_writer;
		def_writer = NULL;
		def_err = 0;
		pthread_mutex_unlock(&def_lock);
		if (!j)
			return 0;
	}
	registry_del(j);

	pthread_mutex_lock(&j->lock);
	/* A child that never wrote must not touch its parent's file. */
	if (getpid() == j->owner && !j->failed && j->fd >= 0) {
		memset(&r, 0, sizeof(r));
		r.id = JD_CODE_CLOSE;
		r.total_size = sizeof(r);
		/* after the fact, "now" means nothing to the recording */
		r.timestamp = j->live ? aotjit_now() : j->last_ts;
		ret = reserve(j, sizeof(r));
		if (!ret) {
			memcpy(j->buf + j->len, &r, sizeof(r));
			j->len += sizeof(r);
			ret = flush(j);
		}
	}
	if (j->fd >= 0 && close(j->fd) && !ret)
		ret = -errno;
	j->fd = -1;
	pthread_mutex_unlock(&j->lock);
	writer_free(j);
	return ret;
}
