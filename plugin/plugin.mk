# The `perf script --dlfilter` plugin, $(B)/aotperf-dlfilter.so.
#
# It links plugin/*.c with $(B)/dlf/libaotperf.a: every library object
# (LIB_SRCS) compiled once more, position-independent and without
# sanitizers even when SAN=1 (perf is not sanitized, and a sanitized object
# dlopen()ed into it aborts at load: "ASan runtime does not come first").
# The linker takes from the archive only what the plugin uses, so no
# source list is kept by hand; -z defs proves that the perf.data reader
# (zstd) and the ELF writer (libelf) stay out. The sanitized runs still
# cover all the code the plugin shares with aotperf.
#
# Needs <perf/perf_dlfilter.h> (Debian: linux-perf; Fedora: perf-devel or
# the kernel source). Without it DLFILTER_SO is empty and no plugin rule
# exists.

DLF_HAVE_HEADER := $(shell printf '\043include <perf/perf_dlfilter.h>\n' | \
	$(CC) $(LIBPERF_INC) -E -x c - >/dev/null 2>&1 && echo 1)

ifeq ($(DLF_HAVE_HEADER),1)
DLFILTER_SO := $(B)/aotperf-dlfilter.so
DLF_OBJS := $(patsubst %.c,$(B)/dlf/%.o,$(wildcard plugin/*.c))
DLF_LIB_OBJS := $(LIB_SRCS:%.c=$(B)/dlf/%.o)
DLF_CFLAGS = $(filter-out $(SANFLAGS),$(CFLAGS)) -fPIC -fvisibility=hidden
DLF_LDFLAGS = $(filter-out $(SANFLAGS),$(LDFLAGS)) -shared -Wl,-z,defs \
	      -Wl,--version-script=plugin/dlfilter.map

$(B)/dlf/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(DLF_CFLAGS) -MMD -MP -c $< -o $@

$(B)/dlf/libaotperf.a: $(DLF_LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

$(B)/aotperf-dlfilter.so: $(DLF_OBJS) $(B)/dlf/libaotperf.a plugin/dlfilter.map
	$(CC) $(DLF_LDFLAGS) -o $@ $(DLF_OBJS) $(B)/dlf/libaotperf.a $(CAPSTONE_LIBS)

# perf script --dlfilter NAME.so (no '/') looks in the current folder, then
# in $(perf --exec-path)/dlfilters, and --list-dlfilters lists those two
# (tools/perf/util/dlfilter.c since perf 5.15). make install writes only
# under PREFIX (and DESTDIR): a copy goes into perf's folder when that lies
# under PREFIX (PREFIX=/usr), or when PERF_DLFILTER_DIR=DIR names it.
PERF_EXEC_PATH    ?= $(shell $(or $(PERF),perf) --exec-path 2>/dev/null)
PERF_DLFILTER_DIR ?= $(if $(filter $(PREFIX)/%,$(PERF_EXEC_PATH)),$(PERF_EXEC_PATH)/dlfilters)

.PHONY: install-dlfilter
install: install-dlfilter
install-dlfilter: $(DLFILTER_SO)
	install -d $(DESTDIR)$(PREFIX)/lib/aotperf
	install -m 0755 $(DLFILTER_SO) $(DESTDIR)$(PREFIX)/lib/aotperf/
	$(if $(PERF_DLFILTER_DIR),install -d $(DESTDIR)$(PERF_DLFILTER_DIR))
	$(if $(PERF_DLFILTER_DIR),install -m 0755 $(DLFILTER_SO) $(DESTDIR)$(PERF_DLFILTER_DIR)/)

-include $(wildcard $(DLF_OBJS:.o=.d) $(DLF_LIB_OBJS:.o=.d))
else
DLFILTER_SO :=
.PHONY: install-dlfilter
install-dlfilter:
$(info note: <perf/perf_dlfilter.h> not found: not building aotperf-dlfilter.so)
endif
