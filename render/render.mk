# SPDX-License-Identifier: MIT
#
# render/: the HTML report, pprof and Markdown writers, in libaotperf.a.
# Included by the top-level Makefile after the library and helper lists.
#
# Generated at build time into $(B)/gen/render/:
#   pprof.pb-c.{c,h}   protoc-c from render/pprof.proto (protobuf-c)
#   html_assets.c      render/html/viewer.{js,css} as C arrays (bin2c.sh)
#
# Build dependencies: protobuf-c (library + protoc-c) and zlib.
#   Debian/Ubuntu: libprotobuf-c-dev protobuf-c-compiler zlib1g-dev
#   Fedora/RHEL/Azure Linux: protobuf-c-devel protobuf-c-compiler zlib-devel

PROTOC_C ?= protoc-c
RENDER_PC_CFLAGS := $(shell pkg-config --cflags libprotobuf-c zlib 2>/dev/null)
RENDER_LIBS := $(shell pkg-config --libs libprotobuf-c zlib 2>/dev/null || echo -lprotobuf-c -lz)

RENDER_GEN  := $(B)/gen/render
RENDER_SRCS := $(wildcard render/*.c)
RENDER_OBJS := $(RENDER_SRCS:%.c=$(B)/obj/%.o) $(B)/obj/gen/pprof.pb-c.o \
	       $(B)/obj/gen/html_assets.o
HTML_ASSETS := render/html/viewer.js render/html/viewer.css

# One protoc-c run writes both files.
$(RENDER_GEN)/pprof.pb-c.c: render/pprof.proto
	@command -v $(PROTOC_C) >/dev/null 2>&1 || { echo "$(PROTOC_C) not found: install" \
		"protobuf-c-compiler and libprotobuf-c-dev (Fedora: protobuf-c-devel), or run make deps" >&2; exit 1; }
	@mkdir -p $(RENDER_GEN)
	$(PROTOC_C) --proto_path=render --c_out=$(RENDER_GEN) $<
$(RENDER_GEN)/pprof.pb-c.h: $(RENDER_GEN)/pprof.pb-c.c
	@test -f $@

$(RENDER_GEN)/html_assets.c: render/html/bin2c.sh $(HTML_ASSETS)
	@mkdir -p $(RENDER_GEN)
	sh render/html/bin2c.sh render/html/viewer.js html_viewer_js \
		render/html/viewer.css html_viewer_css >$@.tmp
	mv $@.tmp $@

$(RENDER_SRCS:%.c=$(B)/obj/%.o) $(RENDER_SRCS:%.c=$(B)/dlf/%.o): \
	override CFLAGS += -I$(RENDER_GEN) $(RENDER_PC_CFLAGS)
$(B)/obj/render/pprof_encode.o $(B)/dlf/render/pprof_encode.o: $(RENDER_GEN)/pprof.pb-c.h

# Generated code: other protoc-c versions may warn; those warnings are not ours.
$(B)/obj/gen/%.o: $(RENDER_GEN)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Werror,$(CFLAGS)) -I$(RENDER_GEN) \
		$(RENDER_PC_CFLAGS) -MMD -MP -c $< -o $@

$(B)/libaotperf.a: $(RENDER_OBJS)
LDLIBS += $(RENDER_LIBS)
AOTPERF_LDLIBS += $(RENDER_LIBS)

# tests/browser/htmldoc: builds the browser test's documents and pages.
TEST_HELPERS += $(B)/tests/htmldoc
$(B)/tests/htmldoc: tests/browser/htmldoc.c $(B)/libaotperf.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(B)/libaotperf.a $(LDFLAGS) $(LDLIBS)

# test_pprof and test_exports decode with protoc and need the .proto
$(B)/tests/test_pprof $(B)/tests/test_exports: \
	override CFLAGS += -DPPROF_PROTO='"$(CURDIR)/render/pprof.proto"'

.PHONY: lint-render
lint: lint-render
lint-render:
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability --std=c11 \
		--suppress=missingIncludeSystem -I. -I$(RENDER_GEN) render tests/browser/htmldoc.c
