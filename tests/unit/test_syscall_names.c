// SPDX-License-Identifier: MIT
/*
 * profile/syscall_names.c: the tables generated from the kernel headers
 * name system calls as each architecture numbers them. x86_64 against
 * glibc's own <sys/syscall.h> numbers (when built on x86_64); aarch64
 * against numbers fixed by its ABI; unknown numbers and architectures
 * have no name.
 */
#include <string.h>
#include <sys/syscall.h>
#include "check.h"
#include "../../profile/syscall_names.h"

static void check_name(enum sc_arch a, int64_t nr, const char *want)
{
	const char *got = sc_arch__name(a, nr);

	CHECK(got && !strcmp(got, want));
	if (!got || strcmp(got, want))
		fprintf(stderr, "  arch %d nr %lld: got %s, want %s\n", (int)a, (long long)nr,
			got ? got : "(none)", want);
}

static void test_x86_64(void)
{
#if defined(__x86_64__)
	check_name(SC_ARCH_X86_64, SYS_read, "read");
	check_name(SC_ARCH_X86_64, SYS_poll, "poll");
	check_name(SC_ARCH_X86_64, SYS_nanosleep, "nanosleep");
	check_name(SC_ARCH_X86_64, SYS_futex, "futex");
	check_name(SC_ARCH_X86_64, SYS_epoll_wait, "epoll_wait");
	check_name(SC_ARCH_X86_64, SYS_clock_nanosleep, "clock_nanosleep");
	check_name(SC_ARCH_X86_64, SYS_io_uring_enter, "io_uring_enter");
#endif
	/* the x86_64 ABI */
	check_name(SC_ARCH_X86_64, 0, "read");
	check_name(SC_ARCH_X86_64, 7, "poll");
	check_name(SC_ARCH_X86_64, 35, "nanosleep");
	check_name(SC_ARCH_X86_64, 202, "futex");
	check_name(SC_ARCH_X86_64, 59, "execve");
}

static void test_aarch64(void)
{
	/* the arm64 ABI (the asm-generic table) */
	check_name(SC_ARCH_AARCH64, 63, "read");
	check_name(SC_ARCH_AARCH64, 73, "ppoll");
	check_name(SC_ARCH_AARCH64, 80, "fstat");	/* __NR3264_fstat */
	check_name(SC_ARCH_AARCH64, 98, "futex");
	check_name(SC_ARCH_AARCH64, 101, "nanosleep");
	check_name(SC_ARCH_AARCH64, 115, "clock_nanosleep");
	check_name(SC_ARCH_AARCH64, 221, "execve");
	check_name(SC_ARCH_AARCH64, 435, "clone3");
	check_name(SC_ARCH_AARCH64, 7, "fsetxattr");
}

static void test_unknown(void)
{
	CHECK(!sc_arch__name(SC_ARCH_X86_64, -1));
	CHECK(!sc_arch__name(SC_ARCH_X86_64, 99999));
	CHECK(!sc_arch__name(SC_ARCH_X86_64, (int64_t)1 << 40));
	CHECK(!sc_arch__name(SC_ARCH_NONE, 35));
	/* __NR_syscalls is a count, not a system call */
	for (int64_t nr = 0; nr < 1024; nr++) {
		const char *a = sc_arch__name(SC_ARCH_X86_64, nr), *b = sc_arch__name(SC_ARCH_AARCH64, nr);

		CHECK(!a || strcmp(a, "syscalls"));
		CHECK(!b || strcmp(b, "syscalls"));
		CHECK(!b || strcmp(b, "poll"));		/* arm64 has ppoll only */
	}
	CHECK(sc_arch__from_uname("x86_64") == SC_ARCH_X86_64);
	CHECK(sc_arch__from_uname("aarch64") == SC_ARCH_AARCH64);
	CHECK(sc_arch__from_uname("riscv64") == SC_ARCH_NONE);
	CHECK(sc_arch__from_uname(NULL) == SC_ARCH_NONE);
}

/* name -> number (kernel frames name calls): the inverse of the table */
static void test_by_name(void)
{
#if defined(__x86_64__)
	CHECK_EQ_U64(sc_arch__nr(SC_ARCH_X86_64, "clock_nanosleep"), SYS_clock_nanosleep);
	CHECK_EQ_U64(sc_arch__nr(SC_ARCH_X86_64, "poll"), SYS_poll);
#endif
	CHECK_EQ_U64(sc_arch__nr(SC_ARCH_AARCH64, "ppoll"), 73);
	CHECK(sc_arch__nr(SC_ARCH_AARCH64, "poll") == -1);
	CHECK(sc_arch__nr(SC_ARCH_X86_64, "no_such_call") == -1);
	CHECK(sc_arch__nr(SC_ARCH_NONE, "read") == -1);
	CHECK(sc_arch__nr(SC_ARCH_X86_64, NULL) == -1);
}

int main(void)
{
	test_x86_64();
	test_aarch64();
	test_unknown();
	test_by_name();
	CHECK_DONE();
}
