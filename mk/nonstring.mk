# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The nonstring checker: GCC 15's -Wunterminated-string-initialization.
# GCC < 15 gets it as the plugin tools/nonstring-plugin.cc, built against
# the compiler's own plugin headers and loaded into every kernel compile;
# -DNONSTRING_PLUGIN makes __nonstring_array the plugin's nonstring_array
# attribute (patch 0009). GCC 15 and clang 21 and later have the warning
# themselves (patch 0004 turns it on). tools/nonstring-cc.sh keeps each
# object's findings beside it, for `make nonstring-report` and the
# nonstring_board_clean check. The two checkers are held against each
# other on the tree without the series (nonstring_matches_clang): the GCC
# checker of CROSS_COMPILE and clang$(NONSTRING_CLANG), whatever compiler
# builds the kernel.
#   NONSTRING_CLANG=-22   the clang of that comparison (LLVM= suffix)

HOST_PKGS += g++ gcc-12-plugin-dev-aarch64-linux-gnu
# The default compiler and its plugin headers are packages of HOST_PKGS,
# which `make deps` installs before anything is compiled: on a fresh
# machine they count as there (GCC 12, Debian 12's cross compiler); so
# does clang-NN of LLVM=-NN.
NONSTRING_DEFAULT := $(filter aarch64-linux-gnu-gcc,$(KCC))
ifeq ($(LLVM),)
NONSTRING_MAJOR := $(or $(shell $(KCC) -dumpversion 2> /dev/null | cut -d. -f1),$(if $(NONSTRING_DEFAULT),12))
else
NONSTRING_MAJOR := $(or $(patsubst -%,%,$(filter -%,$(LLVM))),$(shell $(KCC) -dumpversion 2> /dev/null | cut -d. -f1))
endif
NONSTRING_BEFORE_15 := 1 2 3 4 5 6 7 8 9 10 11 12 13 14
NONSTRING_BEFORE_21 := $(NONSTRING_BEFORE_15) 15 16 17 18 19 20
# Evaluated when used, after `make deps`.
NONSTRING_HEADERS = $(shell $(KCC) -print-file-name=plugin 2> /dev/null)/include
NONSTRING_HAVE_HEADERS := $(or $(NONSTRING_DEFAULT),$(if $(LLVM),,$(wildcard $(NONSTRING_HEADERS)/gcc-plugin.h)))
# NONSTRING_MODE: plugin, builtin (the compiler's own warning), or empty
# with NONSTRING_SKIP saying why there is no checker.
NONSTRING_MODE :=
NONSTRING_SKIP :=
ifeq ($(NONSTRING_MAJOR),)
NONSTRING_SKIP := $(KCC) does not run
else ifneq ($(LLVM),)
ifneq ($(filter $(NONSTRING_BEFORE_21),$(NONSTRING_MAJOR)),)
NONSTRING_SKIP := $(KCC) is clang $(NONSTRING_MAJOR): no -Wunterminated-string-initialization before clang 21, and no plugin
else
NONSTRING_MODE := builtin
endif
else ifeq ($(filter $(NONSTRING_BEFORE_15),$(NONSTRING_MAJOR)),)
NONSTRING_MODE := builtin
else ifeq ($(NONSTRING_HAVE_HEADERS),)
NONSTRING_SKIP := no GCC plugin headers for $(KCC) in $(NONSTRING_HEADERS) (Debian: gcc-$(NONSTRING_MAJOR)-plugin-dev-aarch64-linux-gnu)
else
NONSTRING_MODE := plugin
endif
NONSTRING_SO := $(KOUT)/nonstring-plugin.so
NONSTRING_CC := sh $(TOP)/tools/nonstring-cc.sh
# What turns the compiler's own warning on, never as an error (patch
# 0004 does the same in the kernel's Makefile).
NONSTRING_BUILTIN_FLAGS := -Wunterminated-string-initialization -Wno-error=unterminated-string-initialization
ifeq ($(NONSTRING_MODE),plugin)
# Relative to the kernel build folder (kbuild compiles there) so that the
# flags are the same in every clone; ccache hashes the plugin itself, as
# it does any -fplugin= file (by contents: CCACHE_COMPILERCHECK), and
# only for the compiles that load it: not U-Boot's nor kbuild's host
# programs, which run before the plugin exists. The plugin source's hash
# in the macro makes kbuild recheck every object when the checker changes
# (and only then).
NONSTRING_ID := $(shell cksum < $(TOP)/tools/nonstring-plugin.cc | cut -d' ' -f1)
override KCFLAGS += -fplugin=./nonstring-plugin.so -DNONSTRING_PLUGIN=$(NONSTRING_ID)
KERNEL_DEPS += $(NONSTRING_SO)
HOST_CHECK_DEPS += $(NONSTRING_SO)
NONSTRING_CHECK_FLAGS := -fplugin=$(NONSTRING_SO) -DNONSTRING_PLUGIN=1
NONSTRING_SAYS := the nonstring plugin in GCC $(NONSTRING_MAJOR)
else ifeq ($(NONSTRING_MODE),builtin)
NONSTRING_CHECK_FLAGS := $(KCC_TARGET) $(NONSTRING_BUILTIN_FLAGS)
NONSTRING_SAYS := $(KCC)'s own -Wunterminated-string-initialization (patch 0004)
endif

# A GCC plugin is C++: its own rule, with the compiler's plugin headers.
$(NONSTRING_SO): $(TOP)/tools/nonstring-plugin.cc | deps
	$(Q)mkdir -p $(@D)
	@echo "  HOSTCXX $(notdir $@) (GCC $(NONSTRING_MAJOR) plugin)"
	$(Q)g++ -std=gnu++14 -shared -fPIC -fno-rtti -O2 -Wall -Wextra -Wno-unused-parameter \
		-I$(NONSTRING_HEADERS) -o $@ $<

nonstring-plugin: $(NONSTRING_SO)

# The tree without the series, compiled with the board config and the same
# flags, in out/nonstring-unpatched/<compiler>/ (tools/nonstring-pristine.sh):
# by the GCC checker and by clang$(NONSTRING_CLANG), each from its own make
# (LLVM= and LLVM=$(NONSTRING_CLANG)), on the objects of this make's board
# build that depend on what the series changes. NONSTRING_FULL=1 (make
# compilers) compiles the whole kernel instead, in <compiler>-full/. The
# findings go to a log (build.log), not to the screen; checker says which
# checker compiled them.
NONSTRING_CLANG ?= -22
NONSTRING_FROM ?= $(KOUT)
NONSTRING_FULL ?=
NONSTRING_UNPATCHED := $(OUT)/nonstring-unpatched/$(VARIANT)$(if $(NONSTRING_FULL),-full)
NONSTRING_KMAKE = $(subst -C $(KSRC) O=$(KOUT),-C $(NONSTRING_UNPATCHED)/src O=$(NONSTRING_UNPATCHED)/build,$(KMAKE)) \
	$(if $(filter builtin,$(NONSTRING_MODE)),KCFLAGS="$(KCFLAGS) $(NONSTRING_BUILTIN_FLAGS)")
# The folders of the two sides, as their makes name them.
NONSTRING_SIDE = $(OUT)/nonstring-unpatched/$(1)$(if $(SANITIZE),-sanitize)$(if $(NONSTRING_FULL),-full)
NONSTRING_GCC_DIR = $(call NONSTRING_SIDE,$(notdir $(CROSS_COMPILE)gcc))
NONSTRING_CLANG_DIR = $(call NONSTRING_SIDE,clang$(NONSTRING_CLANG))
CLEAN_DIRS += $(OUT)/nonstring-unpatched $(OUT)/nonstring-corpus
HOST_CHECK_DEPS += nonstring-unpatched

nonstring-unpatched: kernel
	$(Q)$(MAKE) --no-print-directory nonstring-unpatched-cc LLVM= NONSTRING_FROM=$(KOUT)
	$(Q)$(MAKE) --no-print-directory nonstring-unpatched-cc LLVM=$(NONSTRING_CLANG) NONSTRING_FROM=$(KOUT)

# Its pass (the pristine tree's object list, then kbuild) costs tens of
# seconds even when nothing changed: skipped while the stamp holds the same
# command line and compiler and nothing the pass reads is newer (the tree,
# the series, the board's configuration, the pristine scripts, the plugin),
# as KSTAMP does for the board build, nor any object's dependency record
# (.o.cmd) of the board build it follows. Not the board's own stamp: every
# commit relinks the board kernel (its version string has the commit's
# time), which rewrites only the records of init/version*.o and vmlinux.o,
# never one that the list is made of.
NONSTRING_STAMP = $(NONSTRING_UNPATCHED)/built
NONSTRING_BUILD_ID = $(NONSTRING_KMAKE) $(if $(NONSTRING_FULL),vmlinux modules,objects); \
	$(shell $(KCC) --version 2> /dev/null | head -n 1)
NONSTRING_CURRENT = $(shell $(call kbuild_current,$(NONSTRING_BUILD_ID),$(NONSTRING_STAMP),$(KSRC) $(KPATCHES) \
	$(NONSTRING_FROM)/.config $(NONSTRING_UNPATCHED)/build/.config \
	$(TOP)/tools/nonstring-pristine.sh $(TOP)/tools/nonstring-seeds.sh $(TOP)/tools/nonstring-cc.sh \
	$(if $(filter plugin,$(NONSTRING_MODE)),$(NONSTRING_SO))) && \
	[ -z "$$(find $(NONSTRING_FROM) -name '.*.o.cmd' -newer $(NONSTRING_STAMP) \
		! -path '$(NONSTRING_FROM)/init/.version*.o.cmd' ! -path '$(NONSTRING_FROM)/.vmlinux.o.cmd' -print -quit)" ] && echo yes)
define NONSTRING_UNPATCHED_BUILD
	$(Q)rm -f $(NONSTRING_STAMP)
	$(Q)sh $(TOP)/tools/nonstring-pristine.sh $(KSRC) $(NONSTRING_FROM) $(KPATCHES) $(NONSTRING_UNPATCHED)
	$(Q)mkdir -p $(NONSTRING_UNPATCHED)/build
	$(Q)$(if $(filter plugin,$(NONSTRING_MODE)),cp -p $(NONSTRING_SO) $(NONSTRING_UNPATCHED)/build/)
	$(Q)cmp -s $(NONSTRING_FROM)/.config $(NONSTRING_UNPATCHED)/build/.config.from && [ -f $(NONSTRING_UNPATCHED)/build/.config ] || { \
		cp $(NONSTRING_FROM)/.config $(NONSTRING_UNPATCHED)/build/.config && \
		$(NONSTRING_KMAKE) -s olddefconfig > $(NONSTRING_UNPATCHED)/build.log 2>&1 && \
		cp $(NONSTRING_FROM)/.config $(NONSTRING_UNPATCHED)/build/.config.from; } || \
		{ cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }
	@echo "  NONSTRING unpatched: $(TC) ($(NONSTRING_MODE)) compiles $(if $(NONSTRING_FULL),the whole kernel,$$(wc -l < $(NONSTRING_UNPATCHED)/objects) objects) in $(NONSTRING_UNPATCHED)/build"
	$(Q)test -s $(NONSTRING_UNPATCHED)/objects || { echo "Error: no board object depends on what the series changes" >&2; exit 1; }
	$(Q)$(NONSTRING_KMAKE) -s $(if $(NONSTRING_FULL),vmlinux modules,$$(cat $(NONSTRING_UNPATCHED)/objects)) > $(NONSTRING_UNPATCHED)/build.log 2>&1 || \
		{ cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }
	$(Q)echo '$(NONSTRING_BUILD_ID)' > $(NONSTRING_STAMP)
endef

nonstring-unpatched-cc: linux-tree $(if $(filter plugin,$(NONSTRING_MODE)),$(NONSTRING_SO)) | deps
	$(Q)test -f $(NONSTRING_FROM)/.config || { echo "Error: no board build in $(NONSTRING_FROM) (make kernel)" >&2; exit 1; }
	$(Q)mkdir -p $(NONSTRING_UNPATCHED)
	$(Q)echo "$(or $(NONSTRING_MODE),none: $(NONSTRING_SKIP))" > $(NONSTRING_UNPATCHED)/checker
ifneq ($(NONSTRING_MODE),)
	$(if $(NONSTRING_CURRENT),@echo "  NONSTRING unpatched: $(TC) ($(NONSTRING_MODE)): current (nothing it compiles changed)",$(NONSTRING_UNPATCHED_BUILD))
else
	@echo "  NONSTRING unpatched: no checker for $(TC): $(NONSTRING_SKIP)"
endif

# The full comparison: the whole unpatched kernel by both checkers, every
# site held against the other's, and every object with a finding among
# those make check compiles (make compilers runs it).
nonstring-full: kernel
	$(Q)$(MAKE) --no-print-directory nonstring-unpatched-cc LLVM= NONSTRING_FROM=$(KOUT) NONSTRING_FULL=1
	$(Q)$(MAKE) --no-print-directory nonstring-unpatched-cc LLVM=$(NONSTRING_CLANG) NONSTRING_FROM=$(KOUT) NONSTRING_FULL=1
	$(Q)sh $(TOP)/tools/nonstring-compare.sh --full $(NONSTRING_GCC_DIR) $(NONSTRING_CLANG_DIR) > $(OUT)/nonstring-unpatched/full.txt || \
		{ cat $(OUT)/nonstring-unpatched/full.txt; exit 1; }
	$(Q)cat $(OUT)/nonstring-unpatched/full.txt

# What tools/host-checks/nonstring.sh needs to know.
export NSBSP_KCC := $(KCC)
export NSBSP_KOUT := $(KOUT)
export NSBSP_KSRC := $(KSRC)
export NSBSP_NONSTRING_KIND := $(if $(LLVM),clang,gcc)
export NSBSP_NONSTRING_FLAGS := $(NONSTRING_CHECK_FLAGS)
export NSBSP_NONSTRING_SKIP := $(NONSTRING_SKIP)
export NSBSP_NONSTRING_CLANG := clang$(NONSTRING_CLANG) --target=$(CROSS_COMPILE:%-=%)
export NSBSP_NONSTRING_BUILTIN_FLAGS := $(NONSTRING_BUILTIN_FLAGS)
export NSBSP_UNPATCHED_GCC := $(NONSTRING_GCC_DIR)
export NSBSP_UNPATCHED_CLANG := $(NONSTRING_CLANG_DIR)

nonstring-report: kernel
	$(Q)sh $(TOP)/tools/nonstring-report.sh $(KOUT) $(KSRC) > $(KOUT)/nonstring-report.txt
	$(Q)cat $(KOUT)/nonstring-report.txt
	@echo "  NONSTRING $$(wc -l < $(KOUT)/nonstring-report.txt) findings for $(notdir $(KOUT)) ($(or $(NONSTRING_SAYS),$(NONSTRING_SKIP)))"

.PHONY: nonstring-plugin nonstring-unpatched nonstring-unpatched-cc nonstring-full nonstring-report
