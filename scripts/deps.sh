#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The older name of `make deps`: perf and what building and running aotperf
# need, libperf included (kernel-tools-compat/install-perf.sh).
exec bash "$(dirname "$0")/../kernel-tools-compat/install-perf.sh" "$@"
