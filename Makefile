# aotperf: make perf understand ahead-of-time compiled WebAssembly.
#
#   make            build build/aotperf (and the runtime library, the dlfilter)
#   make deps       install perf and what building and running need (root)
#   make test-deps  install what the tests add (root)
#   make check      build, then every unit and end-to-end test; offline
#   make test       make deps test-deps, then make check plain and under ASan/UBSan
#   make lint       cppcheck, the layout rules (scripts/check-layout.sh)
#   make demo       make deps, record the bundled sample, print the report
#   make bench      issue 32's speed goals, ratios (scripts/bench.sh), the README's
#                   table rewritten from the run; make bench-quick: the same, 3 runs
#   make install    PREFIX=/usr/local DESTDIR=
#   make static     build/aotperf-static, no shared library needed (ARCH=aarch64:
#                   build-aarch64/, its cross dependencies installed when missing:
#                   dist/arch.mk); make dist: the release tarballs (dist/static.mk)
#   make test-arm64-vm  build the emulated arm64 machine if missing, record in it,
#                   check the recordings (docs/arm64-vm.md)
#
# SAN=1 builds into build-san/ with AddressSanitizer and UBSan; WERROR=1 makes
# warnings errors (CI does).

PREFIX  ?= /usr/local
DESTDIR ?=
CC      ?= cc

ifeq ($(SAN),1)
B        := build-san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else
B        := build
SANFLAGS :=
endif
# ARCH=aarch64: cross build into build-aarch64/ (dist/arch.mk)
include dist/arch.mk

# libperf: the distro's (Fedora libperf-devel) or the one scripts/build-libperf.sh builds.
LIBPERF_DIR ?= $(CURDIR)/.deps/libperf/usr
ifneq ($(wildcard $(LIBPERF_DIR)/include/perf/event.h),)
LIBPERF_INC := -I$(LIBPERF_DIR)/include
endif

CAPSTONE_CFLAGS := $(shell pkg-config --cflags capstone 2>/dev/null)
CAPSTONE_LIBS   := $(shell pkg-config --libs capstone 2>/dev/null || echo -lcapstone)
# tracepoint formats (perfdata/tracing.c): the library perf itself uses
TRACEEVENT_LIBS := $(shell pkg-config --libs libtraceevent 2>/dev/null || echo -ltraceevent)

CFLAGS  ?= -O2 -g
# Warnings never stop a user's build (other compilers and flags warn
# differently); CI and developers build with WERROR=1.
ifeq ($(WERROR),1)
WERROR_FLAG := -Werror
endif
# override: flags given on the command line (make CFLAGS=-O0) add to these.
override CFLAGS += -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR_FLAG) -Wshadow -Wstrict-prototypes \
	   -Wmissing-prototypes -fno-strict-aliasing $(SANFLAGS) \
	   $(LIBPERF_INC) $(CAPSTONE_CFLAGS) -I.
override LDFLAGS += $(SANFLAGS)
LDLIBS  += -lzstd $(CAPSTONE_LIBS) $(TRACEEVENT_LIBS) -ldw -lelf -lm

LIB_DIRS := util cwasm perfdata session attr jitdump decode classify loops symbolize spills frames engines \
	    unwind profile render view compare
LIB_SRCS := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
CLI_SRCS := $(wildcard cli/*.c)
CLI_OBJS := $(CLI_SRCS:%.c=$(B)/obj/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TEST_HELPERS := $(B)/tests/loader $(B)/tests/mkfixture

.DEFAULT_GOAL := all
.PHONY: all check test unit e2e demo bench bench-quick install clean deps test-deps fixtures lint test-arm64-vm

# A fresh clone without the build dependencies: one line saying what to do,
# not the compiler's first "No such file". Goals that install or need no
# compiler are exempt.
NO_DEPS_GOALS := deps test-deps clean lint test demo bench bench-quick
ifneq ($(filter-out $(NO_DEPS_GOALS),$(or $(MAKECMDGOALS),all)),)
DEPS_MISSING := $(shell printf '\043include <perf/event.h>\n\043include <capstone/capstone.h>\n\043include <gelf.h>\n\043include <zstd.h>\n\043include <elfutils/libdwfl.h>\n\043include <traceevent/event-parse.h>\n' | \
	$(CC) $(LIBPERF_INC) $(CAPSTONE_CFLAGS) -E -x c - -o /dev/null 2>&1 | \
	sed -n 's/.*fatal error: \([^:]*\):.*/\1/p' | head -n1)
ifneq ($(DEPS_MISSING),)
$(error build dependencies missing (<$(DEPS_MISSING)> not found): run 'make deps' (as root) first)
endif
endif

# the perf script --dlfilter plugin (defines DLFILTER_SO)
include plugin/plugin.mk

all: $(B)/aotperf $(B)/libaotperf-jit.a $(B)/libaotperf-jit.so $(DLFILTER_SO)

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/libaotperf.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

# capstone's tables hold ~78,000 pointers: from the shared library (or in a
# PIE) the dynamic loader relocates them at every start, 10 ms on these VMs,
# a quarter of a report's time. A non-PIE link of the static library settles
# them at link time. Without libcapstone.a, the plain shared link.
CAPSTONE_A := $(shell $(CC) -print-file-name=libcapstone.a)
ifneq ($(CAPSTONE_A),libcapstone.a)
AOTPERF_LDLIBS := $(CAPSTONE_A) -lzstd $(TRACEEVENT_LIBS) -ldw -lelf -lm
AOTPERF_LINK   := -no-pie
else
AOTPERF_LDLIBS := $(LDLIBS)
AOTPERF_LINK   :=
endif

$(B)/aotperf: $(CLI_OBJS) $(B)/libaotperf.a
	$(CC) $(LDFLAGS) $(AOTPERF_LINK) -o $@ $(CLI_OBJS) $(B)/libaotperf.a $(AOTPERF_LDLIBS)

# The runtime-side jitdump library: libc and pthreads only. It reads cores
# with the same .cwasm walker as aotperf (all libc only). The .so exports
# the aotjit_* interface alone (AOTJIT_API in jitdump.h).
JIT_SRCS := $(wildcard jitdump/*.c unwind/*.c)
AOTJIT_SRCS := $(JIT_SRCS) cwasm/walk.c cwasm/target.c cwasm/name.c

$(B)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -MMD -MP -c $< -o $@

$(B)/libaotperf-jit.a: $(AOTJIT_SRCS:%.c=$(B)/obj/%.o)
	rm -f $@
	ar rcs $@ $^

$(B)/libaotperf-jit.so.1: $(AOTJIT_SRCS:%.c=$(B)/pic/%.o)
	$(CC) -shared -Wl,-soname,libaotperf-jit.so.1 $(LDFLAGS) -o $@ $^ -lpthread

$(B)/libaotperf-jit.so: $(B)/libaotperf-jit.so.1
	ln -sf libaotperf-jit.so.1 $@

$(B)/tests/%: tests/unit/%.c tests/unit/check.h $(B)/libaotperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libaotperf.a $(LDFLAGS) $(LDLIBS)

$(B)/tests/loader: $(wildcard tests/loader/*.c tests/loader/*.h) $(B)/libaotperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c,$^) $(B)/libaotperf.a $(LDFLAGS) $(LDLIBS) -lpthread

$(B)/tests/mkfixture: $(wildcard tests/fixtures/mkfixture*.c) $(B)/libaotperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $(filter %.c,$^) $(B)/libaotperf.a $(LDFLAGS) $(LDLIBS)

# Fixtures are generated from sources in tests/fixtures at build time.
include tests/fixtures/fixtures.mk
include tests/classify/classify.mk
include tests/loader/loader.mk
include tests/jitlib/jitlib.mk
include render/render.mk
include tests/fuzz/fuzz.mk
include profile/syscalls.mk
# make static, make dist: the static binary and the release tarballs
include dist/static.mk

fixtures: $(FIXTURES)

unit: $(UNIT_BINS) $(FIXTURES)
e2e: $(B)/aotperf $(TEST_HELPERS) $(FIXTURES) $(DLFILTER_SO)

# Build, then every test against this build: no package installs, no
# network (make check SAN=1 for the sanitized build).
check: all unit e2e
	tests/run.sh $(B)

# The README's test command: dependencies, then everything, plain and sanitized.
# test-deps after deps, also under make -j.
test: deps
	$(MAKE) test-deps
	$(MAKE) -j2 check
	$(MAKE) -j2 SAN=1 check

# perf and what building and running need, for this distro (libperf built
# where no package has it); the tests' extra tools. docs/platforms.md.
deps:
	bash kernel-tools-compat/install-perf.sh
test-deps:
	bash scripts/test-deps.sh

# deps only: the demo builds the loader and its sample, no other test helper.
demo: deps
	$(MAKE) all $(B)/tests/loader $(B)/fixtures/sample.cwasm
	bash scripts/demo.sh $(B)

# scripts/arm64-vm.sh's machine (built when missing: root, apt), fresh
# recordings in it (tests/fixtures/arm64/remake.sh), tests/e2e/arm64.sh on them
test-arm64-vm: all $(B)/tests/mkfixture $(B)/aotperf-static
	bash tests/e2e/arm64.sh $(B) --live

# scripts/bench.sh: the recordings made once into $(B)/bench; bench rewrites
# the README's table from its run (scripts/bench-table.sh)
bench: deps
	$(MAKE) all $(TEST_HELPERS) fixtures
	bash scripts/bench.sh $(B)
	bash scripts/bench-table.sh $(B)/bench/results.txt README.md

bench-quick: deps
	$(MAKE) all $(TEST_HELPERS) fixtures
	bash scripts/bench.sh $(B) --quick

# cppcheck, then the layout rules (scripts/check-layout.sh: the file cycles
# too when $(B) is built)
lint:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --std=c11 \
		--suppress=missingIncludeSystem -I. $(LIB_DIRS) cli plugin
	bash scripts/check-layout.sh $(if $(wildcard $(B)/obj),$(B))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/aotperf
	install -m 0755 $(B)/aotperf $(DESTDIR)$(PREFIX)/bin/aotperf
	install -m 0644 $(B)/libaotperf-jit.a $(DESTDIR)$(PREFIX)/lib/
	install -m 0755 $(B)/libaotperf-jit.so.1 $(DESTDIR)$(PREFIX)/lib/
	ln -sf libaotperf-jit.so.1 $(DESTDIR)$(PREFIX)/lib/libaotperf-jit.so
	install -m 0644 jitdump/jitdump.h $(DESTDIR)$(PREFIX)/include/aotperf/

clean:
	rm -rf build build-san

-include $(shell find $(B)/obj $(B)/pic -name '*.d' 2>/dev/null)
