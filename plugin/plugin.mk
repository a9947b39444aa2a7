# The `perf script --dlfilter` plugin, $(B)/aotperf-dlfilter.so.
#
# Its objects live in $(B)/dlf/ and are built without sanitizers even when
# SAN=1: perf is not sanitized, and a sanitized object dlopen()ed into it
# aborts at load ("ASan runtime does not come first"). The sanitized runs
# still cover all the code the plugin shares with aotperf.
#
# Needs <perf/perf_dlfilter.h> (Debian: linux-perf; Fedora: perf-devel or
# the kernel source). Without it DLFILTER_SO is empty and nothing is built.

DLF_HAVE_HEADER := $(shell printf '\043include <perf/perf_dlfilter.h>\n' | \
	$(CC) $(LIBPERF_INC) -E -x c - >/dev/null 2>&1 && echo 1)

# plugin/ holds other things too (the LD_PRELOAD agent): name ours.
DLF_SRCS := plugin/aotperf-dlfilter.c plugin/regions.c plugin/hist.c plugin/summary.c \
	    $(wildcard util/*.c) $(wildcard cwasm/*.c) $(wildcard decode/*.c) $(wildcard classify/*.c) \
	    attr/maptable.c attr/rank.c attr/sizegroups.c
DLF_OBJS := $(DLF_SRCS:%.c=$(B)/dlf/%.o)
DLF_CFLAGS = $(filter-out $(SANFLAGS),$(CFLAGS)) -fPIC -fvisibility=hidden
DLF_LDFLAGS = $(filter-out $(SANFLAGS),$(LDFLAGS)) -shared -Wl,-z,defs \
	      -Wl,--version-script=plugin/dlfilter.map

ifeq ($(DLF_HAVE_HEADER),1)
DLFILTER_SO := $(B)/aotperf-dlfilter.so
else
DLFILTER_SO :=
$(info note: <perf/perf_dlfilter.h> not found: not building aotperf-dlfilter.so)
endif

$(B)/dlf/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(DLF_CFLAGS) -MMD -MP -c $< -o $@

$(B)/aotperf-dlfilter.so: $(DLF_OBJS) plugin/dlfilter.map
	$(CC) $(DLF_LDFLAGS) -o $@ $(DLF_OBJS) $(CAPSTONE_LIBS)

-include $(wildcard $(DLF_OBJS:.o=.d))
