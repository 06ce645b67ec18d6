# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# nonstring-bsp: the only entry point; `make help` lists the targets.
# Everything is built under out/. The kernel is Debian's linux-source-6.1
# with kernel-patches/series applied, built out of tree for arm64. Each
# concern has its own file in mk/ (the Buildroot way: one place for a
# feature's variables and rules); this file has what users set, the lists
# the concerns add to, and help.

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
	rootfs.mk fixtures.mk acpi.mk uboot.mk image.mk legal.mk reproducible.mk check.mk bench.mk lava.mk)

all: $(ALL)

deps:
	$(Q)sh $(TOP)/tools/deps.sh $(HOST_PKGS)

clean:
	rm -rf $(CLEAN_DIRS)

distclean:
	rm -rf $(OUT)

FORCE:

.PHONY: all deps clean distclean help FORCE

help:
	@echo 'nonstring-bsp: arm64 BSP on Debian linux-source-6.1, checked in QEMU'
	@echo
	@echo 'Main:'
	@echo '  all (default)          - kernel, DTBs, product initramfs, fixture disk, ACPI initrd'
	@echo '  qemu                   - boot the emulated board, shell on the console (poweroff, or Ctrl-a x)'
	@echo '  qemu BOOT=acpi|uboot   - the same through UEFI and ACPI, or U-Boot and sdcard.img'
	@echo '  qemu BOOT=rpi3         - sdcard.img on an emulated Raspberry Pi 3 B (QEMU raspi3b, the Pi'"'"'s U-Boot)'
	@echo '  check                  - boot each mode ($(MODES)) with the checks, host checks, summary;'
	@echo '                           exit 0 all passed, 1 a check failed, 2 the rig failed (ERROR)'
	@echo
	@echo 'Pieces:'
	@echo '  kernel                 - the patched kernel Image and modules (out/build/linux-<cc>/)'
	@echo '  dtb                    - QEMU virt DT + dts/ overlays ($(notdir $(BOARD_DTB)))'
	@echo '  initramfs              - the product initramfs (out/images/initramfs.cpio)'
	@echo '  fixtures               - the fixture disk of test boots (out/images/fixtures.img)'
	@echo '  image                  - out/images/sdcard.img: signed FIT (kernel, DTBs, initramfs) + boot.scr;'
	@echo '                           and its block map sdcard.img.bmap (bmaptool)'
	@echo '  linux-tree             - extract linux-source-6.1 and apply kernel-patches/series'
	@echo '  uboot-rpi              - U-Boot for the Raspberry Pi (arm64) with FIT signatures: Debian'"'"'s u-boot'
	@echo '                           source, rpi_arm64_defconfig + board/uboot/ (out/uboot/rpi_arm64/)'
	@echo '  deps                   - install the Debian packages the build needs (as root)'
	@echo
	@echo 'Board:'
	@echo '  flash DEV=/dev/sdX     - write sdcard.img to a removable disk with bmaptool (its mapped blocks),'
	@echo '                           read them back, compare with the block map'"'"'s checksums'
	@echo
	@echo 'Release:'
	@echo '  legal-info             - out/legal-info/: manifest, licence texts, SBOM (SPDX 2.3), and the'
	@echo '                           sources: the repository'"'"'s, the kernel'"'"'s, the Debian source packages'
	@echo '  sbom                   - the same without the sources (what make check reads)'
	@echo '  reproducible           - build the same commit again in another folder, later, elsewhere;'
	@echo '                           compare Image, initramfs, FIT, sdcard.img byte for byte'
	@echo
	@echo 'Checks, one piece at a time (make check runs them all):'
	@echo '  check-host             - the host checks (out/results/host.ktap)'
	@echo '  check-mode-MODE        - boot MODE with the checks (out/results/MODE.ktap)'
	@echo '  soak N=50              - boot and check every mode N times, name the flaky cases'
	@echo '  lava                   - the QEMU LAVA jobs in Debian'"'"'s LAVA dispatcher, results held against'
	@echo '                           the harness'"'"'s (out/results/lava.ktap; installs lava-dispatcher)'
	@echo
	@echo 'Checkers:'
	@echo '  nonstring-report       - unterminated-string findings of the board build (plugin on GCC < 15)'
	@echo '  nonstring-plugin       - build the nonstring GCC plugin (tools/nonstring-plugin.cc)'
	@echo '  nonstring-unpatched    - the objects that depend on what the series changes, compiled without it'
	@echo '                           by the GCC checker and by clang$(NONSTRING_CLANG) (out/nonstring-unpatched/)'
	@echo '  nonstring-unpatched-cc - the same with this make'"'"'s compiler only (NONSTRING_FROM=: whose board build)'
	@echo '  nonstring-full         - the whole kernel without the series by both checkers: the same sites?'
	@echo '  compilers              - build the kernel with $(COMPILERS): no warning, right CONFIG_CC_HAS_*;'
	@echo '                           then nonstring-full'
	@echo '  compiler-verdict       - that verdict on the kernel of this compiler (links it again)'
	@echo
	@echo 'Speed:'
	@echo '  bench                  - measure build, boot and check times (out/bench.json, out/bench.md)'
	@echo
	@echo 'Kernel configuration:'
	@echo '  linux-menuconfig       - menuconfig on the board configuration'
	@echo '  linux-update-config    - save menuconfig changes as board/linux/local.config'
	@echo
	@echo 'Cleaning:'
	@echo '  clean                  - remove build output, keep the extracted tree, downloads and keys'
	@echo '  distclean              - remove out/ entirely'
	@echo
	@echo 'Variables:'
	@echo '  CROSS_COMPILE=prefix-  - cross compiler (default aarch64-linux-gnu-; GCC 15 works)'
	@echo '  LLVM=1 | LLVM=-22      - build with clang/lld instead (own out/ folders and results)'
	@echo '  NONSTRING_CLANG=-22    - the clang that nonstring_matches_clang holds against the GCC checker'
	@echo '  KCFLAGS=...            - extra kernel C flags (default -Werror=attributes)'
	@echo '  MODES="dt ..."         - boot modes make check runs (default: $(MODES))'
	@echo '  BOOT=dt|acpi|uboot|rpi3 - boot mode of make qemu (default: dt; uboot, rpi3 boot sdcard.img)'
	@echo '  SANITIZE=1             - second kernel with KASAN, UBSAN, KFENCE, lockdep (own out/ folders)'
	@echo '  TIMEOUT=120            - seconds a boot may take (1500 with SANITIZE=1)'
	@echo '  CASE_TIMEOUT=60        - seconds one on-target case may take (600 with SANITIZE=1)'
	@echo '  HOST_CASE_TIMEOUT=600  - seconds one host case may take'
	@echo '  LAVA_TIMEOUT=900       - seconds make lava'"'"'s case may take (each boot in it: TIMEOUT)'
	@echo '  CHECK_JOBS=N           - boots/host checks make check runs at once (default: all)'
	@echo '  CHECK_CACHE=0          - make check: run every host check, also those whose inputs did not change'
	@echo '  JOBS=N                 - parallel kernel build jobs (default: nproc)'
	@echo '  FIT_KEY=.. FIT_CERT=.. - sign the FIT with this RSA key and certificate (default: dev key in out/keys/)'
	@echo '  SOURCE_DATE_EPOCH=N    - the build time recorded in the image (default: the last commit'"'"'s)'
	@echo '  FORCE=1                - make flash: allow a disk that is not removable'
	@echo '  MAGELLAN=/dev/ttyUSB0  - make qemu: a real SpaceMouse on that port (default: the emulator)'
	@echo '  MAGELLAN_FLOOD_SEED=N  - make check: magellan_random_flood with this seed (default: fresh)'
	@echo '  CARL9170=VID:PID       - make qemu: pass a real AR9170 stick through (or BUS/ADDR) instead of the stub'
	@echo '  CACHEFILES_DISK_SIZE=  - size of the cache disk (default 32M)'
	@echo '  COMPILERS="gcc ..."    - compilers of make compilers (default: $(COMPILERS))'
	@echo '  RUNS=5 COLD_RUNS=1     - runs per figure for make bench (cold builds take minutes)'
	@echo '  BASELINE=REV           - make bench: that revision'"'"'s warm make check too, run for run'
	@echo '  LAVA=1                 - make bench: the LAVA jobs, each beside the harness'"'"'s boot'
	@echo '  FRESH=1                - make bench: make check on a fresh Debian 12 chroot (debootstrap)'
	@echo '  V=1                    - show the commands'
