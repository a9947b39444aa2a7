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

-include $(wildcard $(DLF_OBJS:.o=.d) $(DLF_LIB_OBJS:.o=.d))
else
DLFILTER_SO :=
$(info note: <perf/perf_dlfilter.h> not found: not building aotperf-dlfilter.so)
endif
