# SPDX-License-Identifier: MIT
#
# Release builds, included by the top-level Makefile after every library
# and test list is set (ARCH and $(B): dist/arch.mk):
#
#   make static             $(B)/aotperf-static: glibc, capstone, libelf,
#                           libdw (and its liblzma, libbz2), zstd, libtraceevent,
#                           protobuf-c and zlib linked in; needs no shared
#                           library on the target
#   make static ARCH=aarch64  build-aarch64/aotperf-static (cross)
#   make dist               build/dist/aotperf-VERSION-ARCH.tar.gz for this
#                           machine and, on x86_64 with the cross compiler,
#                           for aarch64 (dist/mkdist.sh writes them)
#
# The static link warns once, from libdw.a: "Using 'dlopen' in statically
# linked applications requires at runtime the shared libraries from the
# glibc version used for linking". That dlopen is libdwfl's optional
# debuginfod client (libdebuginfod.so.1); libdwfl only calls it from its
# standard find_debuginfo callback, which aotperf replaces with its own
# (profile/hostunwind.c: no_debuginfo), so it never runs. Nothing else in
# aotperf calls getpwnam, getaddrinfo or dlopen. ld warnings are not
# errors (-Werror is the compiler's), so the build goes on.
#
# Not with SAN=1: ASan cannot link -static. `make check` (plain) builds
# what tests/e2e/static.sh needs: for both architectures the static
# binary, the jitdump driver and the released runtime library, and this
# machine's released dlfilter; under SAN=1 the test uses those of the
# plain build.

STATIC_LIBS := -lprotobuf-c -lcapstone -ltraceevent -ldw -lelf -lzstd -llzma -lbz2 -lz -lm -lpthread
AOTPERF_VERSION_STR := $(shell sed -n 's/^\#define AOTPERF_VERSION "\(.*\)"/\1/p' cli/main.c)
CROSS_ARCHES := $(if $(filter x86_64,$(HOST_ARCH)),aarch64)
# the cross compiler and the arm64 static libraries (scripts/cross-deps.sh)
CROSS_READY = $(call cross_ready,aarch64-linux-gnu-gcc)

.PHONY: static static-e2e dist dist-one dist-libs clean-cross
clean: clean-cross
clean-cross:
	rm -rf build-aarch64

ifeq ($(SAN),1)
static dist dist-one dist-libs:
	@echo "make $@: not with SAN=1 (release builds are not sanitized; ASan cannot link -static): run it without SAN=1" >&2; exit 2
else
static: $(B)/aotperf-static

$(B)/aotperf-static: $(CLI_OBJS) $(B)/libaotperf.a
	$(CC) $(LDFLAGS) -static -Wl,--strip-debug -o $@ $(CLI_OBJS) $(B)/libaotperf.a $(STATIC_LIBS)
endif

# tests/e2e/static.sh's driver of the runtime library (per architecture)
$(B)/tests/jitdump_core: tests/static/jitdump_core.c jitdump/jitdump.h $(B)/libaotperf-jit.so
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< -L$(B) -l:libaotperf-jit.so.1 \
		-Wl,-rpath,$(abspath $(B)) $(LDFLAGS) -lpthread

static-e2e: $(B)/aotperf-static $(B)/tests/jitdump_core $(B)/release/libaotperf-jit.so.1

ifeq ($(ARCH),$(HOST_ARCH))
e2e: $(B)/tests/jitdump_core $(B)/tests/test_engines
ifneq ($(SAN),1)
e2e: static-e2e $(addprefix cross-e2e-,$(CROSS_ARCHES)) \
     $(if $(DLFILTER_SO),$(B)/release/aotperf-dlfilter.so)
endif
endif
cross-e2e-%:
	@if [ -n "$(CROSS_READY)" ]; then \
		$(MAKE) ARCH=$* CC=$*-linux-gnu-gcc static-e2e; \
	else echo "note: no $*-linux-gnu-gcc or arm64 static libraries (scripts/cross-deps.sh):" \
		"not building build-$*/aotperf-static"; fi

# ---- make dist ----
# The shared objects as released: stripped, bound to old glibc symbol
# versions (dist/glibc-compat.c); the dlfilter with capstone linked in
# (Debian's libcapstone.a is position-independent), so it needs libc alone.
DIST_DIR  := $(CURDIR)/build/dist
DIST_WRAP := -Wl,--wrap=stat,--wrap=lstat,--wrap=fstat,--wrap=pthread_once

$(B)/release/glibc-compat.o: dist/glibc-compat.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(CFLAGS)) -fPIC -c $< -o $@

$(B)/release/libaotperf-jit.so.1: $(AOTJIT_SRCS:%.c=$(B)/pic/%.o) $(B)/release/glibc-compat.o
	$(CC) -shared -Wl,-soname,libaotperf-jit.so.1 $(DIST_WRAP) -s -o $@ $^ -lpthread

$(B)/release/aotperf-dlfilter.so: $(DLF_OBJS) $(B)/dlf/libaotperf.a plugin/dlfilter.map \
			       $(B)/release/glibc-compat.o
	$(CC) $(DLF_LDFLAGS) $(DIST_WRAP) -s -o $@ $(DLF_OBJS) $(B)/dlf/libaotperf.a \
		$(B)/release/glibc-compat.o $(CAPSTONE_A)

ifneq ($(SAN),1)
dist-libs: $(B)/release/libaotperf-jit.so.1 $(B)/release/aotperf-dlfilter.so

dist-one: $(B)/aotperf-static dist-libs $(B)/libaotperf-jit.a
	sh dist/mkdist.sh $(AOTPERF_VERSION_STR) $(ARCH) $(B) $(DIST_DIR)

dist: dist-one $(addprefix dist-cross-,$(CROSS_ARCHES))
endif
# (the sub-make installs or names the cross dependencies: dist/arch.mk;
# make dist-one builds this machine's tarball alone)
dist-cross-%:
	$(MAKE) ARCH=$* CC=$*-linux-gnu-gcc dist-one
