# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Compilers: the kernel's (CROSS_COMPILE, or clang with LLVM=), the host's
# (HOSTCC: the one rule for every host C program) and the target's
# (TARGET_CC: the one rule for every static arm64 tool), ccache for all.

CCACHE ?= $(shell command -v ccache 2>/dev/null)
# Paths below the checkout are hashed relative to it, so a clone elsewhere
# (CI, a second work tree) reuses the same cache entries.
export CCACHE_BASEDIR := $(TOP)
# ccache knows a compiler plugin (the nonstring checker) by its size and
# mtime unless told to hash contents; a plugin built in another clone has
# another mtime, so only contents give the same cache entries everywhere.
export CCACHE_COMPILERCHECK := content
# Not ccache's depend mode, although it would spare a cold build the
# second preprocessing of every source that the default modes do to hash
# it: in the depend mode ccache hands the compiler the absolute paths it
# was given, not paths relative to CCACHE_BASEDIR, so a result it replays
# in another clone (CI, a second work tree) carries the paths of the
# clone that compiled it, in its messages (which the nonstring checks
# read: their findings would name the other clone's tree) and in
# __FILE__ (U-Boot's strings would depend on which mode made the entry).
# Off here even where the user's ccache.conf turns it on.
export CCACHE_NODEPEND := 1
# With -g (U-Boot) ccache also hashes the folder it compiles in, which
# the debug information names: a build in another folder (a clone)
# compiled all of U-Boot again. As in Yocto's ccache.bbclass it does not:
# the debug information of the u-boot ELF may then name another build's
# folder; u-boot.bin, which the image holds, has none.
export CCACHE_NOHASHDIR := 1
# The compilers run under LC_ALL=C (the Makefile), so the user's LANG and
# LC_* change none of their output, messages included; ccache still puts
# them in every key unless told, and a build under another locale
# (image_reproducible's second build, under LC_ALL=C.UTF-8 and without
# LANG) would compile all of U-Boot and the tools again.
export CCACHE_SLOPPINESS := locale

# The kernel's compiler: LLVM=1 clang, LLVM=-22 clang-22, LLVM=/path/ that
# folder's clang; otherwise $(CROSS_COMPILE)gcc. TC names its output folders.
ifeq ($(LLVM),)
KCC := $(CROSS_COMPILE)gcc
else ifeq ($(LLVM),1)
KCC := clang
else ifneq ($(filter %/,$(LLVM)),)
KCC := $(LLVM)clang
else
KCC := clang$(LLVM)
endif
TC := $(notdir $(KCC))
# clang compiles for the target it is told: the one of CROSS_COMPILE.
KCC_TARGET := $(if $(LLVM),--target=$(CROSS_COMPILE:%-=%))
# Debian's packages for LLVM=-NN: installed only when that compiler is asked for.
HOST_PKGS += $(if $(filter -%,$(LLVM)),clang$(LLVM) lld$(LLVM) llvm$(LLVM))

# Host programs: $(HOST_BIN)/NAME, built from NAME_SRCS (C files and the
# headers they include), with NAME_CFLAGS and NAME_LDLIBS. A concern's .mk
# file sets those and adds NAME to HOST_PROGS.
HOST_CC ?= gcc
HOSTCC ?= $(HOST_CC)
HOSTCFLAGS ?= -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE
HOST_BIN := $(OUT)/host
HOST_PROGS :=

# Target tools: static arm64 programs $(TARGET_BIN)/NAME from NAME_SRCS
# (and NAME_CFLAGS); the product's in TARGET_PROGS, the fixtures' in
# FIXTURE_PROGS.
TARGET_CC := $(CROSS_COMPILE)gcc
TARGET_CFLAGS := -std=c11 -O2 -Wall -Wextra -Werror -static -D_GNU_SOURCE
TARGET_BIN := $(OUT)/target
TARGET_PROGS :=
FIXTURE_PROGS :=

.SECONDEXPANSION:
$(HOST_BIN)/%: $$($$*_SRCS) | deps
	$(Q)mkdir -p $(@D)
	@echo "  HOSTCC  $*"
	$(Q)$(strip $(CCACHE) $(HOSTCC)) $(HOSTCFLAGS) $($*_CFLAGS) -o $@ $(filter %.c,$^) $($*_LDLIBS)

$(TARGET_BIN)/%: $$($$*_SRCS) | deps
	$(Q)mkdir -p $(@D)
	@echo "  TARGETCC $*"
	$(Q)$(strip $(CCACHE) $(TARGET_CC)) $(TARGET_CFLAGS) $($*_CFLAGS) -o $@ $(filter %.c,$^)
