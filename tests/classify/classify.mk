# SPDX-License-Identifier: MIT
#
# Classifier test inputs, built into $(B)/classify where
# tests/unit/test_classify.c reads them (CLASSIFY_DIR); included by the
# top-level Makefile:
#
#   <idiom>.cwasm, .expect        the generators' idioms per version (below)
#   a64_v11.raw.txt, .text.txt    perf-annotate-style listings of the
#                                 aarch64 idioms, with and without the words
#                                 (cross assembler: binutils-aarch64-linux-gnu)
#   kernels.expect                the recorded fixtures' kernels, by their tags
#   test_minimal.aot              the real compiler's sample
#   annot-*.txt                   captured perf annotate output (capture.sh)

CLS_SRC := tests/classify
CLS_OUT := $(B)/classify
A64_AS      ?= aarch64-linux-gnu-as
A64_OBJCOPY ?= aarch64-linux-gnu-objcopy
A64_OBJDUMP ?= aarch64-linux-gnu-objdump
A64_NM      ?= aarch64-linux-gnu-nm

CLS_CAPTURES := $(patsubst $(CLS_SRC)/%,$(CLS_OUT)/%,$(wildcard $(CLS_SRC)/annot-*.txt))
CLS_INPUTS := $(CLS_OUT)/a64_v11.raw.txt $(CLS_OUT)/a64_v11.text.txt $(CLS_CAPTURES)

.SECONDARY: $(CLS_OUT)/a64_v11.dis

$(CLS_OUT)/a64_v11.dis: $(CLS_OUT)/a64_v11.o
	$(A64_OBJDUMP) -d $< > $@

$(CLS_OUT)/a64_v11.raw.txt: $(CLS_OUT)/a64_v11.dis $(CLS_SRC)/a64-annotate.awk
	awk -v raw=1 -f $(CLS_SRC)/a64-annotate.awk $< > $@

$(CLS_OUT)/a64_v11.text.txt: $(CLS_OUT)/a64_v11.dis $(CLS_SRC)/a64-annotate.awk
	awk -v raw=0 -f $(CLS_SRC)/a64-annotate.awk $< > $@

$(CLS_OUT)/annot-%.txt: $(CLS_SRC)/annot-%.txt
	@mkdir -p $(CLS_OUT)
	cp $< $@

classify-inputs: $(CLS_INPUTS)
unit: $(CLS_INPUTS)

.PHONY: classify-inputs

# The generators' idioms per container version (docs/codegen-idioms.md):
# one x86-64 template instantiated per version and ABI, one aarch64 file.
# Each .cwasm has a .expect next to it ("FUNCTION CLASS COUNT", from the
# tags in the source by expect.awk, never from the classifier).
#
#   NAME           version  target   vmctx  template lines
IDIOM_X86 := x86_v6 x86_v7 x86_v9 x86_v11_sysv x86_v11_win64
IDIOMS    := $(IDIOM_X86) a64_v11 x86_pinned
IDIOM_FILES := $(foreach i,$(IDIOMS),$(CLS_OUT)/$(i).cwasm $(CLS_OUT)/$(i).expect)

idiom_version = $(word 2,$(subst _v, ,$(subst _sysv,,$(subst _win64,,$(1)))))
idiom_target  = $(if $(findstring a64,$(1)),aarch64,$(if $(findstring win64,$(1)),win64,$(if $(findstring sysv,$(1)),sysv,legacy)))
# v6 was written by the compiler on Windows (vmctx in rcx, as the real sample)
idiom_sed = $(if $(or $(findstring win64,$(1)),$(findstring v6,$(1))),\
	-e 's/P1D/edx/g' -e 's/P1/rdx/g' -e 's/P0/rcx/g',\
	-e 's/P1D/esi/g' -e 's/P1/rsi/g' -e 's/P0/rdi/g') \
	$(if $(or $(findstring v6,$(1)),$(findstring v7,$(1))),-e '/^@/d',-e 's/^@v9 //') \
	$(if $(findstring win64,$(1)),-e 's/^@win //',-e '/^@win /d')

.SECONDARY: $(foreach i,$(IDIOMS),$(CLS_OUT)/$(i).S $(CLS_OUT)/$(i).o $(CLS_OUT)/$(i).text \
	$(CLS_OUT)/$(i).nm)

$(CLS_OUT)/x86_%.S: $(CLS_SRC)/idiom_x86.S.in
	@mkdir -p $(CLS_OUT)
	sed $(call idiom_sed,x86_$*) $< > $@

# rbx/r15 pinned module-wide (idiom_x86_pinned.S): a file of its own, v11 SysV
$(CLS_OUT)/x86_pinned.S: $(CLS_SRC)/idiom_x86_pinned.S
	@mkdir -p $(CLS_OUT)
	cp $< $@

$(CLS_OUT)/x86_pinned.cwasm: $(CLS_OUT)/x86_pinned.text $(CLS_OUT)/x86_pinned.nm $(MKFIX)
	$(MKFIX) --text $(CLS_OUT)/x86_pinned.text --nm $(CLS_OUT)/x86_pinned.nm --imports 0 \
		--version 11 --target sysv -o $@

$(CLS_OUT)/a64_v11.S: $(CLS_SRC)/idiom_a64.S
	@mkdir -p $(CLS_OUT)
	cp $< $@

$(CLS_OUT)/x86_%.o: $(CLS_OUT)/x86_%.S
	as -o $@ $<

$(CLS_OUT)/a64_%.o: $(CLS_OUT)/a64_%.S
	$(A64_AS) -o $@ $<

$(CLS_OUT)/x86_%.text: $(CLS_OUT)/x86_%.o
	objcopy -O binary -j .text $< $@

$(CLS_OUT)/a64_%.text: $(CLS_OUT)/a64_%.o
	$(A64_OBJCOPY) -O binary -j .text $< $@

$(CLS_OUT)/x86_%.nm: $(CLS_OUT)/x86_%.o
	nm -n --defined-only $< > $@

$(CLS_OUT)/a64_%.nm: $(CLS_OUT)/a64_%.o
	$(A64_NM) -n --defined-only $< > $@

$(CLS_OUT)/%.cwasm: $(CLS_OUT)/%.text $(CLS_OUT)/%.nm $(MKFIX)
	$(MKFIX) --text $(CLS_OUT)/$*.text --nm $(CLS_OUT)/$*.nm --imports 0 \
		--version $(call idiom_version,$*) --target $(call idiom_target,$*) -o $@

$(CLS_OUT)/%.expect: $(CLS_OUT)/%.S $(CLS_SRC)/expect.awk
	awk -f $(CLS_SRC)/expect.awk $< > $@.tmp && mv $@.tmp $@

# the hot kernels of the recorded fixtures, tagged the same way
$(CLS_OUT)/kernels.expect: tests/fixtures/kernels.S $(CLS_SRC)/expect.awk
	@mkdir -p $(CLS_OUT)
	awk -f $(CLS_SRC)/expect.awk $< > $@.tmp && mv $@.tmp $@

$(CLS_OUT)/test_minimal.aot: tests/fixtures/real/test_minimal.aot
	@mkdir -p $(CLS_OUT)
	cp $< $@

classify-inputs: $(IDIOM_FILES) $(CLS_OUT)/kernels.expect $(CLS_OUT)/test_minimal.aot \
	$(FX)/sample.cwasm $(FX)/sample_v6.cwasm
unit: $(IDIOM_FILES) $(CLS_OUT)/kernels.expect $(CLS_OUT)/test_minimal.aot \
	$(FX)/sample.cwasm $(FX)/sample_v6.cwasm
