# SPDX-License-Identifier: MIT
#
# Classifier test inputs, built into $(B)/classify where
# tests/unit/test_classify.c reads them (CLASSIFY_DIR); included by the
# top-level Makefile:
#
#   wamr_x86.bin, wamr_a64.bin    raw bytes of the hand-written functions
#                                 (x86-64 with as, aarch64 with the cross
#                                 assembler of binutils-aarch64-linux-gnu)
#   wamr_a64.raw.txt, .text.txt   perf-annotate-style listings of the
#                                 aarch64 one, with and without the words
#   annot-*.txt                   captured perf annotate output (capture.sh)

CLS_SRC := tests/classify
CLS_OUT := $(B)/classify
A64_AS      ?= aarch64-linux-gnu-as
A64_OBJCOPY ?= aarch64-linux-gnu-objcopy
A64_OBJDUMP ?= aarch64-linux-gnu-objdump

CLS_CAPTURES := $(patsubst $(CLS_SRC)/%,$(CLS_OUT)/%,$(wildcard $(CLS_SRC)/annot-*.txt))
CLS_INPUTS := $(CLS_OUT)/wamr_x86.bin $(CLS_OUT)/wamr_a64.bin \
	      $(CLS_OUT)/wamr_a64.raw.txt $(CLS_OUT)/wamr_a64.text.txt $(CLS_CAPTURES)

.SECONDARY: $(CLS_OUT)/wamr_x86.o $(CLS_OUT)/wamr_a64.o $(CLS_OUT)/wamr_a64.dis

$(CLS_OUT)/wamr_x86.o: $(CLS_SRC)/wamr_x86.S
	@mkdir -p $(CLS_OUT)
	as -o $@ $<

$(CLS_OUT)/wamr_x86.bin: $(CLS_OUT)/wamr_x86.o
	objcopy -O binary -j .text $< $@

$(CLS_OUT)/wamr_a64.o: $(CLS_SRC)/wamr_a64.S
	@mkdir -p $(CLS_OUT)
	$(A64_AS) -o $@ $<

$(CLS_OUT)/wamr_a64.bin: $(CLS_OUT)/wamr_a64.o
	$(A64_OBJCOPY) -O binary -j .text $< $@

$(CLS_OUT)/wamr_a64.dis: $(CLS_OUT)/wamr_a64.o
	$(A64_OBJDUMP) -d $< > $@

$(CLS_OUT)/wamr_a64.raw.txt: $(CLS_OUT)/wamr_a64.dis $(CLS_SRC)/a64-annotate.awk
	awk -v raw=1 -f $(CLS_SRC)/a64-annotate.awk $< > $@

$(CLS_OUT)/wamr_a64.text.txt: $(CLS_OUT)/wamr_a64.dis $(CLS_SRC)/a64-annotate.awk
	awk -v raw=0 -f $(CLS_SRC)/a64-annotate.awk $< > $@

$(CLS_OUT)/annot-%.txt: $(CLS_SRC)/annot-%.txt
	@mkdir -p $(CLS_OUT)
	cp $< $@

classify-inputs: $(CLS_INPUTS)
unit: $(CLS_INPUTS)

.PHONY: classify-inputs
