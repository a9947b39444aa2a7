# SPDX-License-Identifier: MIT
#
# profile/syscall_names.c's tables, generated at build time into
# $(B)/gen/profile/syscall_table.h by scripts/gen-syscalls.sh from the
# installed kernel headers (linux-libc-dev), with this machine's compiler
# (HOSTCC) also in a cross build. Included by the top-level Makefile after
# plugin.mk and fuzz.mk, whose copies of the library need it too.

HOSTCC   ?= cc
SC_GEN   := $(B)/gen/profile
SC_TABLE := $(SC_GEN)/syscall_table.h
SC_USERS := $(B)/obj/profile/syscall_names.o $(B)/dlf/profile/syscall_names.o \
	    $(FUZZ_B)/obj/profile/syscall_names.o

$(SC_TABLE): scripts/gen-syscalls.sh
	@mkdir -p $(SC_GEN)
	HOSTCC=$(HOSTCC) bash scripts/gen-syscalls.sh $@

$(SC_USERS): $(SC_TABLE)
$(B)/obj/profile/syscall_names.o $(B)/dlf/profile/syscall_names.o: override CFLAGS += -I$(SC_GEN)
$(FUZZ_B)/obj/profile/syscall_names.o: FUZZ_CFLAGS += -I$(SC_GEN)
