# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# nonstring-bsp: the only entry point; `make help` lists the targets.
# Everything is built under out/. The kernel is Debian's linux-source-6.1
# with kernel-patches/series applied, built out of tree for arm64. Each
# concern has its own file in mk/ (the Buildroot way: one place for a
# feature's variables and rules); this file has what users set and the
# lists the concerns add to; mk/help.mk has make help.

SHELL := /bin/sh
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
empty :=
space := $(empty) $(empty)
TOP := $(CURDIR)
OUT := $(TOP)/out

# ---- what users set (more in the mk/ file of each concern; make help) ------
CROSS_COMPILE ?= aarch64-linux-gnu-
LLVM ?=
# The BSP's policy: a misplaced attribute (the v6.15-rc3 failure) is an error.
KCFLAGS ?= -Werror=attributes
SANITIZE ?=
JOBS ?= $(shell nproc)
MODES ?= dt acpi uboot rpi3
BOOT ?= dt
V ?=
Q := $(if $(V),,@)
# The build's time for everything that records one (the kernel's version
# string, the FIT, the FAT's files, the SBOM): the last commit's, so that
# the same commit gives the same bytes.
SOURCE_DATE_EPOCH ?= $(shell git -C $(TOP) log -1 --format=%ct 2> /dev/null || echo 0)
export SOURCE_DATE_EPOCH
# One locale for every tool the build runs, whatever the user's, as
# Buildroot's top Makefile sets it: the messages that scripts read
# (compiler warnings, tool output) are the same everywhere, and nothing a
# build makes depends on the user's locale.
export LC_ALL := C

# ---- where things go, and the lists the concerns add to ---------------------
IMAGES := $(OUT)/images
DEBS := $(OUT)/debs
DEBS_STAMP := $(DEBS)/.stamp
ALL :=
HOST_PKGS :=
TARGET_DEBS :=
CLEAN_DIRS :=
# Expanded when used: each holds what every concern adds.
ROOTFS_FILES =
FIXTURE_FILES =
RUN_ARGS =
QEMU_RUN_ARGS =
HOST_CHECK_DEPS =

include $(addprefix $(TOP)/mk/,toolchain.mk kernel.mk nonstring.mk compilers.mk dt.mk \
	ak8974.mk magellan.mk carl9170.mk cachefiles.mk ftrace.mk \
	rootfs.mk fixtures.mk acpi.mk uboot.mk image.mk legal.mk reproducible.mk check.mk bench.mk lava.mk help.mk)

all: $(ALL)

deps:
	$(Q)sh $(TOP)/tools/deps.sh $(HOST_PKGS)

clean:
	rm -rf $(CLEAN_DIRS)

distclean:
	rm -rf $(OUT)

FORCE:

.PHONY: all deps clean distclean FORCE
