# SPDX-License-Identifier: MIT
#
# The runtime library as shipped, included by the top-level Makefile:
#
#   $(B)/tests/test_jitlib_static   tests/jitlib/test_jitlib.c linked with
#                                   $(B)/libaotperf-jit.a and nothing of
#                                   aotperf's sources
#   $(B)/tests/test_jitlib_shared   the same against $(B)/libaotperf-jit.so
#   $(B)/jitlib/strict.o            the library's sources under plain
#                                   -std=c11, no _GNU_SOURCE: they must
#                                   build with whatever a runtime uses

JITLIB_BINS := $(B)/tests/test_jitlib_static $(B)/tests/test_jitlib_shared
UNIT_BINS += $(JITLIB_BINS) $(B)/jitlib/strict.stamp

$(B)/tests/test_jitlib_static: tests/jitlib/test_jitlib.c jitdump/jitdump.h $(B)/libaotperf-jit.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DJITLIB_KIND='"static"' -o $@ $< $(B)/libaotperf-jit.a $(LDFLAGS) -lpthread

$(B)/tests/test_jitlib_shared: tests/jitlib/test_jitlib.c jitdump/jitdump.h $(B)/libaotperf-jit.so
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DJITLIB_KIND='"shared"' -o $@ $< -L$(B) -l:libaotperf-jit.so.1 \
		-Wl,-rpath,$(abspath $(B)) $(LDFLAGS) -lpthread -ldl

$(B)/jitlib/strict.stamp: $(AOTJIT_SRCS) jitdump/jitdump.h $(wildcard cwasm/*.h) util/err.h
	@mkdir -p $(B)/jitlib
	for f in $(AOTJIT_SRCS); do \
		$(CC) -std=c11 -Wall -Wextra -Werror -pedantic -c $$f \
			-o $(B)/jitlib/strict.o || exit 1; done
	touch $@
