# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The nonstring checker: GCC 15's -Wunterminated-string-initialization for
# GCC < 15, as the plugin tools/nonstring-plugin.cc, built against the
# compiler's own plugin headers and loaded into every kernel compile;
# -DNONSTRING_PLUGIN makes __nonstring_array the plugin's nonstring_array
# attribute (patch 0009). GCC 15 has the warning itself (patch 0004 turns
# it on). tools/nonstring-cc.sh keeps each object's findings beside it, for
# `make nonstring-report` and the nonstring_board_clean check.

HOST_PKGS += g++ gcc-12-plugin-dev-aarch64-linux-gnu
# The default compiler and its plugin headers are packages of HOST_PKGS,
# which `make deps` installs before anything is compiled: on a fresh
# machine they count as there (GCC 12, Debian 12's cross compiler).
NONSTRING_DEFAULT := $(filter aarch64-linux-gnu-gcc,$(KCC))
NONSTRING_GCC_MAJOR := $(if $(LLVM),,$(or $(shell $(KCC) -dumpversion 2> /dev/null | cut -d. -f1),$(if $(NONSTRING_DEFAULT),12)))
# Evaluated when used, after `make deps`.
NONSTRING_HEADERS = $(shell $(KCC) -print-file-name=plugin 2> /dev/null)/include
NONSTRING_HAVE_HEADERS := $(or $(NONSTRING_DEFAULT),$(if $(LLVM),,$(wildcard $(NONSTRING_HEADERS)/gcc-plugin.h)))
ifneq ($(LLVM),)
NONSTRING_SKIP := $(KCC) is clang (no such warning to emulate)
else ifeq ($(NONSTRING_GCC_MAJOR),)
NONSTRING_SKIP := $(KCC) does not run
else ifeq ($(filter 1 2 3 4 5 6 7 8 9 10 11 12 13 14,$(NONSTRING_GCC_MAJOR)),)
NONSTRING_SKIP := $(KCC) is GCC $(NONSTRING_GCC_MAJOR): it has -Wunterminated-string-initialization itself
else ifeq ($(NONSTRING_HAVE_HEADERS),)
NONSTRING_SKIP := no GCC plugin headers for $(KCC) in $(NONSTRING_HEADERS) (Debian: gcc-$(NONSTRING_GCC_MAJOR)-plugin-dev-aarch64-linux-gnu)
else
NONSTRING_SKIP :=
endif
NONSTRING_SO := $(KOUT)/nonstring-plugin.so
NONSTRING_CC := sh $(TOP)/tools/nonstring-cc.sh
ifeq ($(NONSTRING_SKIP),)
# Relative to the kernel build folder (kbuild compiles there) so that the
# flags are the same in every clone; ccache hashes the plugin itself. The
# plugin source's hash in the macro makes kbuild recheck every object when
# the checker changes (and only then).
NONSTRING_ID := $(shell cksum < $(TOP)/tools/nonstring-plugin.cc | cut -d' ' -f1)
override KCFLAGS += -fplugin=./nonstring-plugin.so -DNONSTRING_PLUGIN=$(NONSTRING_ID)
export CCACHE_EXTRAFILES := $(NONSTRING_SO)
KERNEL_DEPS += $(NONSTRING_SO)
HOST_CHECK_DEPS += $(NONSTRING_SO) nonstring-unpatched
endif

# A GCC plugin is C++: its own rule, with the compiler's plugin headers.
$(NONSTRING_SO): $(TOP)/tools/nonstring-plugin.cc | deps
	$(Q)mkdir -p $(@D)
	@echo "  HOSTCXX $(notdir $@) (GCC $(NONSTRING_GCC_MAJOR) plugin)"
	$(Q)g++ -std=gnu++14 -shared -fPIC -fno-rtti -O2 -Wall -Wextra -Wno-unused-parameter \
		-I$(NONSTRING_HEADERS) -o $@ $<

nonstring-plugin: $(NONSTRING_SO)

# The seed objects compiled from the tree without the series, with the
# board config and the same flags (nonstring_unpatched_finds_seeds); its
# findings go to a log, not to the screen.
NONSTRING_UNPATCHED := $(OUT)/nonstring-unpatched/$(VARIANT)
NONSTRING_KMAKE = $(subst -C $(KSRC) O=$(KOUT),-C $(NONSTRING_UNPATCHED)/src O=$(NONSTRING_UNPATCHED)/build,$(KMAKE))
CLEAN_DIRS += $(OUT)/nonstring-unpatched $(OUT)/nonstring-corpus
nonstring-unpatched: kernel
	$(Q)sh $(TOP)/tools/nonstring-pristine.sh $(KSRC) $(KOUT) $(KPATCHES) $(NONSTRING_UNPATCHED)
	$(Q)mkdir -p $(NONSTRING_UNPATCHED)/build
	$(Q)cmp -s $(KOUT)/.config $(NONSTRING_UNPATCHED)/build/.config || cp $(KOUT)/.config $(NONSTRING_UNPATCHED)/build/.config
	$(Q)$(if $(NONSTRING_SKIP),,cp -p $(NONSTRING_SO) $(NONSTRING_UNPATCHED)/build/)
	$(Q)$(NONSTRING_KMAKE) -s olddefconfig > $(NONSTRING_UNPATCHED)/build.log 2>&1 || { cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }
	@echo "  NONSTRING unpatched seed objects in $(NONSTRING_UNPATCHED)/build (log: build.log)"
	$(Q)$(NONSTRING_KMAKE) -s $$(cat $(NONSTRING_UNPATCHED)/objects) >> $(NONSTRING_UNPATCHED)/build.log 2>&1 || \
		{ cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }

# What tools/host-checks/nonstring.sh needs to know.
export NSBSP_KCC := $(KCC)
export NSBSP_KOUT := $(KOUT)
export NSBSP_KSRC := $(KSRC)
export NSBSP_NONSTRING_SO := $(NONSTRING_SO)
export NSBSP_NONSTRING_SKIP := $(NONSTRING_SKIP)
export NSBSP_UNPATCHED := $(NONSTRING_UNPATCHED)

nonstring-report: kernel
	$(Q)sh $(TOP)/tools/nonstring-report.sh $(KOUT) $(KSRC) > $(KOUT)/nonstring-report.txt
	$(Q)cat $(KOUT)/nonstring-report.txt
	@echo "  NONSTRING $$(wc -l < $(KOUT)/nonstring-report.txt) findings for $(notdir $(KOUT)) ($(if $(NONSTRING_SKIP),$(NONSTRING_SKIP),plugin))"

.PHONY: nonstring-plugin nonstring-unpatched nonstring-report
