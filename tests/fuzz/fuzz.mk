# Fuzz targets (tests/fuzz/README.md), included by the top-level Makefile.
#
#   make fuzz        build every tests/fuzz/fuzz_NAME.c with clang + libFuzzer
#                    (ASan, UBSan) into build/fuzz/, run each FUZZ_SECONDS
#                    (default 60), print executions and coverage per target
#   make fuzz-ci     the same, 20 s each
#   make fuzz FUZZ_TARGETS="perfdata spills" FUZZ_SECONDS=600
#   make fuzz-distill  tests/fuzz/corpus/NAME made again from it and what
#                    the runs grew in build/fuzz/corpus/NAME (run.sh --distill)
#
# `make unit` also builds BUILD/tests/test_fuzz_NAME for each target: the
# target compiled with the project's compiler (plain or SAN) and
# tests/fuzz/replay.c, which tests/run.sh runs over the target's committed
# seeds, corpus and regression inputs. Both link tests/fuzz/tep_guard.c,
# which checks every text handed to libtraceevent's format parser.

FUZZ_SRCS    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES   := $(FUZZ_SRCS:tests/fuzz/fuzz_%.c=%)
FUZZ_TARGETS ?= $(FUZZ_NAMES)
FUZZ_SECONDS ?= 60
FUZZ_B       := build/fuzz
FUZZ_CC      ?= $(shell command -v clang-14 2>/dev/null || echo clang)
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -O1 -g -std=c11 -D_GNU_SOURCE -fno-strict-aliasing -Wall \
		$(LIBPERF_INC) $(CAPSTONE_CFLAGS) -I. -Itests/fuzz $(FUZZ_SAN) \
		-DFUZZ_SRCDIR='"$(CURDIR)/tests/fuzz"'
FUZZ_LIBS    := -lzstd $(CAPSTONE_LIBS) $(TRACEEVENT_LIBS) -lelf -lpthread -lm -ldl
# render/'s HTML and pprof writers (generated code, no parser of outside
# input) are left out; the report and spills renderers the dlfilter and
# spills targets reach stay in.
FUZZ_LIBSRCS := $(filter-out render/html% render/pprof%,$(LIB_SRCS))
FUZZ_OBJS    := $(FUZZ_LIBSRCS:%.c=$(FUZZ_B)/obj/%.o) $(FUZZ_B)/obj/tests/fuzz/scratch.o
FUZZ_REPLAY  := $(FUZZ_NAMES:%=$(B)/tests/test_fuzz_%)

.PHONY: fuzz fuzz-ci fuzz-build fuzz-distill
.PRECIOUS: $(FUZZ_B)/obj/%.o

# Library code gets coverage instrumentation; libFuzzer's main only in the link.
$(FUZZ_B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(FUZZ_B)/libfuzzlib.a: $(FUZZ_OBJS)
	rm -f $@
	ar rcs $@ $^

$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_B)/obj/tests/fuzz/tep_guard.o \
		  $(FUZZ_B)/libfuzzlib.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_B)/obj/tests/fuzz/tep_guard.o \
		$(FUZZ_B)/libfuzzlib.a $(FUZZ_LIBS)

$(B)/tests/test_fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/scratch.c \
			tests/fuzz/tep_guard.c tests/fuzz/fuzz.h $(B)/libaotperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz -DFUZZ_NAME='"$*"' -DFUZZ_SRCDIR='"$(CURDIR)/tests/fuzz"' \
		-o $@ $(filter %.c,$^) $(B)/libaotperf.a $(LDFLAGS) $(LDLIBS) -lpthread -ldl

unit: $(FUZZ_REPLAY)

fuzz-build: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%) $(FUZZ_TARGETS:%=$(B)/tests/test_fuzz_%) \
	    $(FIXTURES) $(B)/tests/loader

fuzz: fuzz-build
	bash tests/fuzz/run.sh $(FUZZ_B) $(B) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-ci:
	$(MAKE) fuzz FUZZ_SECONDS=20

fuzz-distill: fuzz-build
	bash tests/fuzz/run.sh --distill $(FUZZ_B) $(B) $(FUZZ_TARGETS)

-include $(shell find $(FUZZ_B)/obj -name '*.d' 2>/dev/null)
