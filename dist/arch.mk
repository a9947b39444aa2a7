# SPDX-License-Identifier: MIT
#
# ARCH=aarch64: a cross build into build-aarch64/ with Debian's
# aarch64-linux-gnu-gcc and the arm64 libraries (dpkg --add-architecture
# arm64; scripts/cross-deps.sh installs both). Included by the top-level
# Makefile right after it picks $(B), before any rule uses it; the static
# binary and the release tarballs are in dist/static.mk.

HOST_ARCH := $(shell uname -m)
ARCH      ?= $(HOST_ARCH)

ifneq ($(ARCH),$(HOST_ARCH))
ifeq ($(SAN),1)
$(error SAN=1 with ARCH=$(ARCH): the sanitized build is for this machine only)
endif
B := build-$(ARCH)
# make's built-in CC (cc) is replaced; a CC given on the command line is kept
ifeq ($(origin CC),default)
CC := $(ARCH)-linux-gnu-gcc
endif
endif
