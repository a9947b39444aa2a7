// SPDX-License-Identifier: MIT
/*
 * Linked into the release's shared objects only (dist/static.mk, with
 * -Wl,--wrap for each name below): binds the glibc symbols whose default
 * version is newer than 2.17 to the older versions every glibc since 2.17
 * still exports, so the dlfilter and libaotperf-jit.so built on Debian 12
 * (glibc 2.36) also load on glibc 2.17 to 2.35 (RHEL/CentOS 7 and later).
 *
 *   stat, lstat, fstat  GLIBC_2.33; before 2.33 <sys/stat.h> turned them
 *                       into __xstat(_STAT_VER, ...) calls, still exported
 *   pthread_once        GLIBC_2.34 (moved from libpthread into libc); the
 *                       libpthread version is kept in libc as well
 */
#include <pthread.h>
#include <sys/stat.h>

#if defined(__x86_64__)
#define GLIBC_OLD "GLIBC_2.2.5"
#define STAT_VER 1		/* _STAT_VER_LINUX */
#elif defined(__aarch64__)
#define GLIBC_OLD "GLIBC_2.17"
#define STAT_VER 0		/* _STAT_VER_KERNEL, the generic ports' */
#else
#error "dist/glibc-compat.c knows x86_64 and aarch64"
#endif

int __xstat(int ver, const char *path, struct stat *st);
int __lxstat(int ver, const char *path, struct stat *st);
int __fxstat(int ver, int fd, struct stat *st);
int old_pthread_once(pthread_once_t *once, void (*fn)(void));
__asm__(".symver __xstat,__xstat@" GLIBC_OLD);
__asm__(".symver __lxstat,__lxstat@" GLIBC_OLD);
__asm__(".symver __fxstat,__fxstat@" GLIBC_OLD);
__asm__(".symver old_pthread_once,pthread_once@" GLIBC_OLD);

int __wrap_stat(const char *path, struct stat *st);
int __wrap_lstat(const char *path, struct stat *st);
int __wrap_fstat(int fd, struct stat *st);
int __wrap_pthread_once(pthread_once_t *once, void (*fn)(void));

int __wrap_stat(const char *path, struct stat *st)
{
	return __xstat(STAT_VER, path, st);
}

int __wrap_lstat(const char *path, struct stat *st)
{
	return __lxstat(STAT_VER, path, st);
}

int __wrap_fstat(int fd, struct stat *st)
{
	return __fxstat(STAT_VER, fd, st);
}

int __wrap_pthread_once(pthread_once_t *once, void (*fn)(void))
{
	return old_pthread_once(once, fn);
}
