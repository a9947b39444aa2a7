# SPDX-License-Identifier: MIT
#
# A static (-static) build of the test loader, included by the top-level
# Makefile after TEST_HELPERS is set:
#
#   $(B)/tests/loader-static   what the WAMR runtime's default Linux build
#                              is: one static executable, no shared libc
#
# `aotperf record` is tested on it: it needs nothing from the process. The
# loader only needs the .cwasm reader and the jitdump writer (libc and
# pthreads), so those sources are compiled in directly, without capstone,
# zstd or libelf, and always without the sanitizers (ASan cannot link
# -static), also under SAN=1.

LOADER_STATIC_SRCS := tests/loader/loader.c cwasm/cwasm.c cwasm/manifest.c cwasm/json_read.c \
		      util/err.c util/sha256.c util/file.c util/array.c $(AOTJIT_SRCS)
LOADER_STATIC_CFLAGS := $(filter-out $(SANFLAGS),$(CFLAGS)) \
			-ffunction-sections -fdata-sections

TEST_HELPERS += $(B)/tests/loader-static

$(B)/tests/loader-static: $(LOADER_STATIC_SRCS) $(wildcard tests/loader/*.h) \
			  $(wildcard cwasm/*.h) util/err.h util/sha256.h util/file.h \
			  jitdump/jitdump.h jitdump/unwind_info.h $(wildcard unwind/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(LOADER_STATIC_CFLAGS) -static -Wl,--gc-sections -o $@ \
		$(filter %.c,$^) -lpthread

# Optional, out of the default build: the LD_PRELOAD agent
# (tests/preload/aotperf-preload.c) on the same writer, for runtimes that call
# libc's mprotect. Not sanitized: it is preloaded into other programs.
PRELOAD_SRCS := tests/preload/aotperf-preload.c $(AOTJIT_SRCS)

TEST_HELPERS += $(B)/aotperf-preload.so

$(B)/aotperf-preload.so: $(PRELOAD_SRCS) jitdump/jitdump.h jitdump/unwind_info.h \
			 $(wildcard unwind/*.h) $(wildcard cwasm/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(SANFLAGS),$(CFLAGS)) -fPIC -fvisibility=hidden -shared \
		-Wl,-soname,aotperf-preload.so -o $@ $(PRELOAD_SRCS) -lpthread
