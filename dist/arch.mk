# SPDX-License-Identifier: MIT
#
# ARCH=aarch64: a cross build into build-aarch64/ with Debian's
# aarch64-linux-gnu-gcc and the arm64 libraries (dpkg --add-architecture
# arm64; scripts/cross-deps.sh installs both, run from here when they are
# missing). Included by the top-level
# Makefile right after it picks $(B), before any rule uses it; the static
# binary and the release tarballs are in dist/static.mk.

HOST_ARCH := $(shell uname -m)
ARCH      ?= $(HOST_ARCH)
# $(call cross_ready,GCC): 1 when GCC runs and finds libdw.a (the last
# of the arm64 static libraries scripts/cross-deps.sh installs)
cross_ready = $(shell f=$$($(1) -print-file-name=libdw.a 2>/dev/null) && \
	test "$$f" != libdw.a && echo 1)

ifneq ($(ARCH),$(HOST_ARCH))
ifeq ($(SAN),1)
$(error SAN=1 with ARCH=$(ARCH): the sanitized build is for this machine only)
endif
B := build-$(ARCH)
# make's built-in CC (cc) is replaced; a CC given on the command line is kept
ifeq ($(origin CC),default)
CC := $(ARCH)-linux-gnu-gcc
endif
# Its compiler and static libraries, as make deps does for the native
# build: installed when missing (scripts/cross-deps.sh, as root on Debian
# x86_64), else named, before anything is compiled.
ifneq ($(filter-out clean clean-cross,$(or $(MAKECMDGOALS),all)),)
ifeq ($(call cross_ready,$(CC)),)
$(info make ARCH=$(ARCH): no $(CC) or arm64 static libraries: scripts/cross-deps.sh)
ifneq ($(shell bash scripts/cross-deps.sh >&2 && echo ok),ok)
$(error ARCH=$(ARCH): run 'bash scripts/cross-deps.sh' as root first (docs/platforms.md))
endif
ifeq ($(call cross_ready,$(CC)),)
$(error ARCH=$(ARCH): still no $(CC) with arm64 static libraries: scripts/cross-deps.sh names them)
endif
endif
endif
endif
