# nonstring-bsp: the only entry point. `make help` lists the targets.
#
# Everything is built under out/. The kernel is Debian's linux-source-6.1
# with kernel-patches/series applied, built out of tree for arm64.

SHELL := /bin/sh
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:

empty :=
space := $(empty) $(empty)

TOP := $(CURDIR)
OUT := $(TOP)/out

# ---- toolchain -------------------------------------------------------------
# Any cross compiler works through CROSS_COMPILE (a GCC 15 one included);
# LLVM=1 (or LLVM=-16, LLVM=/usr/lib/llvm-16/bin/) builds with clang/lld.
CROSS_COMPILE ?= aarch64-linux-gnu-
LLVM ?=
CCACHE ?= $(shell command -v ccache 2>/dev/null)
# Paths below the checkout are hashed relative to it, so a clone elsewhere
# (CI, a second work tree) reuses the same cache entries.
export CCACHE_BASEDIR := $(TOP)
# ccache knows a compiler plugin (the nonstring checker) by its size and
# mtime unless told to hash contents; a plugin built in another clone has
# another mtime, so only contents give the same cache entries everywhere.
export CCACHE_COMPILERCHECK := content
ifneq ($(LLVM),)
ifeq ($(LLVM),1)
KCC := clang
else ifneq ($(filter %/,$(LLVM)),)
KCC := $(LLVM)clang
else
KCC := clang$(LLVM)
endif
TC := $(notdir $(KCC))
else
KCC := $(CROSS_COMPILE)gcc
TC := $(notdir $(KCC))
endif
# The BSP's policy: a misplaced attribute (the v6.15-rc3 failure) is an error.
KCFLAGS ?= -Werror=attributes

# ---- kernel ----------------------------------------------------------------
KTARBALL ?= /usr/src/linux-source-6.1.tar.xz
KSRC := $(OUT)/linux
# SANITIZE=1: a second kernel (own output folder) with KASAN, UBSAN, KFENCE,
# lockdep and atomic-sleep checks (board/linux/sanitize/*.config on top).
SANITIZE ?=
VARIANT := $(TC)$(if $(SANITIZE),-sanitize)
KOUT ?= $(OUT)/build/linux-$(VARIANT)
KIMAGE := $(KOUT)/arch/arm64/boot/Image
KPATCHES := $(TOP)/kernel-patches
FRAGMENTS ?= $(sort $(wildcard $(TOP)/board/linux/*.config)) \
	$(if $(SANITIZE),$(sort $(wildcard $(TOP)/board/linux/sanitize/*.config)))
JOBS ?= $(shell nproc)
KMAKE = $(MAKE) -j$(JOBS) -C $(KSRC) O=$(KOUT) ARCH=arm64 CROSS_COMPILE=$(CROSS_COMPILE) \
	$(if $(LLVM),LLVM=$(LLVM)) CC="$(strip $(NONSTRING_CC) $(CCACHE) $(KCC))" \
	HOSTCC="$(strip $(CCACHE) gcc)" KCFLAGS="$(KCFLAGS)"

# ---- board -----------------------------------------------------------------
DT := $(OUT)/dt
BOARD_DTB := $(DT)/nsbsp-virt.dtb
DTS_OVERLAYS := $(sort $(wildcard $(TOP)/dts/*.dtso))
ROOTFS := $(OUT)/rootfs$(if $(SANITIZE),-sanitize)
INITRAMFS := $(OUT)/images/initramfs$(if $(SANITIZE),-sanitize).cpio
DEBS := $(OUT)/debs
TARGET_DEBS := busybox-static
# ---- carl9170: the real firmware and Debian's iw with its libraries --------
TARGET_DEBS += firmware-linux-free iw libnl-3-200 libnl-genl-3-200 libc6
# ---- end carl9170 ----
TARGET_CC := $(CROSS_COMPILE)gcc
TARGET_CFLAGS := -std=c11 -O2 -Wall -Wextra -static -D_GNU_SOURCE
# A target tool is rootfs/tools/NAME.c or a folder rootfs/tools/NAME/ of .c files.
TARGET_TOOLS := $(sort $(patsubst $(TOP)/rootfs/tools/%.c,$(ROOTFS)/tools/%,$(wildcard $(TOP)/rootfs/tools/*.c)) \
	$(patsubst $(TOP)/rootfs/tools/%/,$(ROOTFS)/tools/%,$(dir $(wildcard $(TOP)/rootfs/tools/*/*.c))))

# ---- host packages (installed by tools/deps.sh when missing) ---------------
HOST_PKGS := make gcc libc6-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross \
	bc bison flex libssl-dev libelf-dev cpio xz-utils kmod python3 \
	linux-source-6.1 ccache device-tree-compiler qemu-system-arm time

# ---- nonstring checker (issue 9) -------------------------------------------
# GCC 15's -Wunterminated-string-initialization for GCC < 15: the plugin
# tools/nonstring-plugin.cc, built against the compiler's own plugin headers
# and loaded into every kernel compile; -DNONSTRING_PLUGIN makes
# __nonstring_array the plugin's nonstring_array attribute (patch 0009).
# GCC 15 has the warning itself (patch 0004 turns it on); clang has not.
# tools/nonstring-cc.sh keeps each object's findings beside it, for
# `make nonstring-report` and the nonstring_board_clean check.
HOST_PKGS += g++ gcc-12-plugin-dev-aarch64-linux-gnu
NONSTRING_GCC_MAJOR := $(if $(LLVM),,$(shell $(KCC) -dumpversion 2>/dev/null | cut -d. -f1))
# Evaluated when used: on a fresh machine `make deps` installs them first.
NONSTRING_HEADERS = $(if $(LLVM),,$(shell $(KCC) -print-file-name=plugin 2>/dev/null))/include
# The default compiler's headers are in HOST_PKGS, so they are there by then.
NONSTRING_HAVE_HEADERS := $(or $(filter aarch64-linux-gnu-gcc,$(KCC)),$(wildcard $(NONSTRING_HEADERS)/gcc-plugin.h))
NONSTRING_SKIP := $(strip $(if $(LLVM),$(KCC) is clang (no such warning to emulate),\
	$(if $(filter-out 1 2 3 4 5 6 7 8 9 10 11 12 13 14,$(NONSTRING_GCC_MAJOR)),\
	$(KCC) is GCC $(NONSTRING_GCC_MAJOR): it has -Wunterminated-string-initialization itself,\
	$(if $(NONSTRING_HAVE_HEADERS),,$(if $(NONSTRING_GCC_MAJOR),\
	no GCC plugin headers for $(KCC) in $(NONSTRING_HEADERS) (Debian: gcc-$(NONSTRING_GCC_MAJOR)-plugin-dev-aarch64-linux-gnu),\
	$(KCC) does not run)))))
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
endif

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
nonstring-unpatched: kernel
	$(Q)sh $(TOP)/tools/nonstring-pristine.sh $(KSRC) $(KOUT) $(KPATCHES) $(NONSTRING_UNPATCHED)
	$(Q)mkdir -p $(NONSTRING_UNPATCHED)/build
	$(Q)cmp -s $(KOUT)/.config $(NONSTRING_UNPATCHED)/build/.config || cp $(KOUT)/.config $(NONSTRING_UNPATCHED)/build/.config
	$(Q)$(if $(NONSTRING_SKIP),,cp -p $(NONSTRING_SO) $(NONSTRING_UNPATCHED)/build/)
	$(Q)$(NONSTRING_KMAKE) -s olddefconfig > $(NONSTRING_UNPATCHED)/build.log 2>&1 || { cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }
	@echo "  NONSTRING unpatched seed objects in $(NONSTRING_UNPATCHED)/build (log: build.log)"
	$(Q)$(NONSTRING_KMAKE) -s $$(cat $(NONSTRING_UNPATCHED)/objects) >> $(NONSTRING_UNPATCHED)/build.log 2>&1 || \
		{ cat $(NONSTRING_UNPATCHED)/build.log; exit 1; }

# What tools/host-checks/60-nonstring.sh needs to know.
HOST_CHECK_DEPS += $(if $(NONSTRING_SKIP),,$(NONSTRING_SO) nonstring-unpatched)
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

# ---- compiler matrix (issue 9) ---------------------------------------------
# Each compiler builds the board kernel into its own out/build/linux-<cc>/;
# tools/compiler-verdict.sh then wants no warning from any object and
# CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING as the compiler really is.
HOST_PKGS += clang-16 lld-16 llvm-16
COMPILERS ?= gcc LLVM=-16
compilers: deps
	$(Q)for c in $(COMPILERS); do \
		case $$c in gcc) c= ;; esac; \
		start=$$(date +%s); \
		$(MAKE) --no-print-directory kernel $$c || exit 1; \
		echo "  TIME    $${c:-gcc}: $$(($$(date +%s) - start)) s"; \
		$(MAKE) --no-print-directory compiler-verdict $$c || exit 1; \
	done

compiler-verdict:
	$(Q)sh $(TOP)/tools/compiler-verdict.sh $(KOUT) "$(KCC)" "$(if $(LLVM),--target=$(CROSS_COMPILE:%-=%))"

# ---- checks ----------------------------------------------------------------
MODES ?= dt acpi
RESULTS := $(OUT)/results$(if $(SANITIZE),/sanitize)
# The sanitizer kernel runs several times slower under TCG: TIMEOUT bounds a
# whole boot, CASE_TIMEOUT each on-target case (run-checks' nsbsp.timeout).
TIMEOUT ?= $(if $(SANITIZE),1500,120)
CASE_TIMEOUT ?= $(if $(SANITIZE),600,60)
RUN_ARGS += --append nsbsp.timeout=$(CASE_TIMEOUT)

# ---- cachefiles: 9p share, ext4 cache disk, key encoder --------------------
# QEMU exports CACHEFILES_SHARE (files of known content and their SHA256SUMS)
# over virtio-9p; the guest caches it with fscache on CACHEFILES_DISK, an
# empty ext4 image made by mke2fs (nothing is mounted on the host). The key
# encoder (tools/cachefiles-key.c) is the independent reference for the
# cache file names: built for the host check and for the target check.
CACHEFILES_SHARE := $(OUT)/images/cachefiles-share
CACHEFILES_DISK := $(OUT)/images/cachefiles-cache.ext4
CACHEFILES_DISK_SIZE ?= 32M
CACHEFILES_KEY := $(OUT)/host/cachefiles-key
HOST_PKGS += e2fsprogs
TARGET_TOOLS += $(ROOTFS)/tools/cachefiles-key
HOST_CHECK_DEPS += $(CACHEFILES_KEY)
# RUN_ARGS: run.sh options of every boot (qemu, check, soak, bench).
RUN_ARGS += --cachefiles-share $(CACHEFILES_SHARE) --cachefiles-disk $(CACHEFILES_DISK)
# ---- end cachefiles --------------------------------------------------------

# ---- image (issue 8): sdcard.img, FIT, U-Boot boot mode, flash ------------
# make image: out/images/sdcard.img (board/image/genimage.cfg) with the
# signed FIT (board/image/nsbsp.its: initramfs, and per board a kernel
# node, a DTB and a configuration) and boot.scr (board/image/boot.cmd).
HOST_PKGS += genimage dosfstools mtools u-boot-tools u-boot-qemu openssl lava-common
MODES += uboot
BOOT ?= dt
IMAGES := $(OUT)/images
IMG_VARIANT := $(if $(SANITIZE),-sanitize)
SDCARD_IMG := $(IMAGES)/sdcard$(IMG_VARIANT).img
FIT := $(IMAGES)/nsbsp$(IMG_VARIANT).itb
FIT_STAGE := $(IMAGES)/fit$(IMG_VARIANT)
BOOT_SCR := $(IMAGES)/boot.scr
# Verified boot: the FIT configurations are signed with FIT_KEY (RSA-2048,
# PEM) and FIT_CERT (its X.509 certificate). Default: a development key
# made on first use in out/keys/ (never committed, never for production).
KEYS := $(OUT)/keys
FIT_KEY ?= $(KEYS)/nsbsp-dev.key
FIT_CERT ?= $(KEYS)/nsbsp-dev.crt
ifneq ($(origin FIT_KEY)$(origin FIT_CERT),filefile)
ifeq ($(wildcard $(FIT_KEY)),)
$(error FIT_KEY=$(FIT_KEY): no such file (the RSA private key, PEM); give FIT_CERT=, its certificate, too)
endif
ifeq ($(wildcard $(FIT_CERT)),)
$(error FIT_CERT=$(FIT_CERT): no such file (the X.509 certificate of FIT_KEY, PEM))
endif
endif
# Debian's U-Boot for QEMU virt, and the DT QEMU hands it: QEMU's own DT
# plus the public key (required = "conf"), written by mkimage -K.
UBOOT_BIN ?= /usr/lib/u-boot/qemu_arm64/u-boot.bin
UBOOT_DTB := $(IMAGES)/u-boot-qemu-virt$(IMG_VARIANT).dtb
RUN_ARGS += --image $(SDCARD_IMG) --uboot-bin $(UBOOT_BIN) --uboot-dtb $(UBOOT_DTB)
HOST_CHECK_DEPS += image
# Boards in the FIT: virt (VIRT_DTB) and rpi4, the kernel's own
# bcm2711-rpi-4-b.dtb (built with symbols, -@, so overlays can use its
# labels). A board's DTB gets every dts/NAME.dtso, or dts/BOARD/NAME.dtso
# instead where that variant exists, plus dts/BOARD/'s other overlays.
# Under U-Boot QEMU virt is a slightly different machine (no GPIO block):
# its DTB starts from QEMU's DT dumped with -bios.
VIRT_DTB := $(DT)/nsbsp-virt-uboot.dtb
RPI4_DTB_SRC := broadcom/bcm2711-rpi-4-b.dtb
RPI4_DTB := $(DT)/nsbsp-rpi4.dtb
board_overlays = $(foreach o,$(DTS_OVERLAYS),$(if $(wildcard $(TOP)/dts/$(1)/$(notdir $(o))),$(DT)/per-board/$(1)/$(notdir $(o:.dtso=.dtbo)),$(o:$(TOP)/dts/%.dtso=$(DT)/%.dtbo))) \
	$(patsubst $(TOP)/dts/%.dtso,$(DT)/per-board/%.dtbo,$(filter-out $(addprefix $(TOP)/dts/$(1)/,$(notdir $(DTS_OVERLAYS))),$(wildcard $(TOP)/dts/$(1)/*.dtso)))

.PHONY: image flash

$(DT)/per-board/%.dtbo: $(TOP)/dts/%.dtso | deps
	$(Q)mkdir -p $(@D)
	$(Q)dtc -q -@ -I dts -O dtb -o $@ $<

$(DT)/qemu-virt-uboot.dtb: $(TOP)/qemu/run.sh | deps
	$(Q)mkdir -p $(DT)
	$(Q)sh $(TOP)/qemu/run.sh --mode uboot --uboot-bin $(UBOOT_BIN) --dumpdtb $@

$(VIRT_DTB): $(DT)/qemu-virt-uboot.dtb $(call board_overlays,virt)
	@echo "  DTB     $(notdir $@) = $(notdir $<) + $(notdir $(filter %.dtbo,$^))"
	$(Q)fdtoverlay -i $< -o $@ $(filter %.dtbo,$^)

# kbuild decides whether the DTB is out of date (the tree may be patched).
$(KOUT)/arch/arm64/boot/dts/$(RPI4_DTB_SRC): $(KOUT)/.config FORCE | kernel
	$(Q)$(KMAKE) -s DTC_FLAGS_$(basename $(notdir $(RPI4_DTB_SRC)))=-@ $(RPI4_DTB_SRC)

$(RPI4_DTB): $(KOUT)/arch/arm64/boot/dts/$(RPI4_DTB_SRC) $(call board_overlays,rpi4)
	@echo "  DTB     $(notdir $@) = $(notdir $(RPI4_DTB_SRC)) + $(notdir $(filter %.dtbo,$^))"
	$(Q)mkdir -p $(@D)
	$(Q)fdtoverlay -i $< -o $@ $(filter %.dtbo,$^)

$(KEYS)/nsbsp-dev.key: | deps
	@echo "  KEY     $@ (development key: never use it for a product)"
	$(Q)mkdir -p $(@D)
	$(Q)(umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out $@.tmp 2>/dev/null) && mv $@.tmp $@

$(KEYS)/nsbsp-dev.crt: $(KEYS)/nsbsp-dev.key
	$(Q)openssl req -batch -new -x509 -days 3650 -key $< -out $@ \
		-subj "/CN=nonstring-bsp development key (not for production)"

# mkimage signs every configuration and writes the public key into a copy
# of QEMU's DT (-K, -r: required). Deterministic: SOURCE_DATE_EPOCH.
# Which key signs: another FIT_KEY/FIT_CERT re-signs, even an older one.
$(IMAGES)/fit-key$(IMG_VARIANT).list: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(abspath $(FIT_KEY)) $(abspath $(FIT_CERT))" | cmp -s - $@ || echo "$(abspath $(FIT_KEY)) $(abspath $(FIT_CERT))" > $@

$(FIT): $(TOP)/board/image/nsbsp.its $(KIMAGE) $(INITRAMFS) $(VIRT_DTB) $(RPI4_DTB) $(DT)/qemu-virt-uboot.dtb $(FIT_KEY) $(FIT_CERT) \
		$(IMAGES)/fit-key$(IMG_VARIANT).list
	@echo "  FIT     $(notdir $@) (signed with $(FIT_KEY))"
	$(Q)[ "$$(openssl pkey -in $(FIT_KEY) -pubout 2>/dev/null)" = "$$(openssl x509 -in $(FIT_CERT) -noout -pubkey 2>/dev/null)" ] || \
		{ echo "Error: FIT_CERT=$(FIT_CERT) is not the certificate of FIT_KEY=$(FIT_KEY)" >&2; exit 1; }
	$(Q)rm -rf $(FIT_STAGE) && mkdir -p $(FIT_STAGE)/keys
	$(Q)ln -s $(KIMAGE) $(FIT_STAGE)/Image
	$(Q)ln -s $(INITRAMFS) $(FIT_STAGE)/initramfs.cpio
	$(Q)ln -s $(VIRT_DTB) $(FIT_STAGE)/nsbsp-virt.dtb
	$(Q)ln -s $(RPI4_DTB) $(FIT_STAGE)/nsbsp-rpi4.dtb
	$(Q)ln -s $(abspath $(FIT_KEY)) $(FIT_STAGE)/keys/nsbsp.key
	$(Q)ln -s $(abspath $(FIT_CERT)) $(FIT_STAGE)/keys/nsbsp.crt
	$(Q)cp $(TOP)/board/image/nsbsp.its $(FIT_STAGE)/
	$(Q)cp $(DT)/qemu-virt-uboot.dtb $(FIT_STAGE)/u-boot.dtb
	$(Q)cd $(FIT_STAGE) && SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) mkimage -f nsbsp.its -k keys \
		-K u-boot.dtb -r nsbsp.itb > mkimage.log 2>&1 || { cat mkimage.log >&2; exit 1; }
	$(Q)mv $(FIT_STAGE)/u-boot.dtb $(UBOOT_DTB)
	$(Q)mv $(FIT_STAGE)/nsbsp.itb $@

SOURCE_DATE_EPOCH ?= $(shell git -C $(TOP) log -1 --format=%ct 2>/dev/null || echo 0)

$(BOOT_SCR): $(TOP)/board/image/boot.cmd | deps
	$(Q)mkdir -p $(@D)
	$(Q)SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) mkimage -q -A arm64 -O linux -T script -C none \
		-n "nonstring-bsp boot script" -d $< $@ > /dev/null

$(SDCARD_IMG): $(TOP)/board/image/genimage.cfg $(FIT) $(BOOT_SCR)
	$(Q)rm -rf $(IMAGES)/genimage && mkdir -p $(IMAGES)/genimage/in $(IMAGES)/genimage/root
	$(Q)cp $(FIT) $(IMAGES)/genimage/in/nsbsp.itb
	$(Q)cp $(BOOT_SCR) $(IMAGES)/genimage/in/boot.scr
	$(Q)cp $(TOP)/board/image/boot.cmd $(IMAGES)/genimage/in/boot.cmd
	$(Q)touch -d @$(SOURCE_DATE_EPOCH) $(IMAGES)/genimage/in/*
	$(Q)SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) genimage --config $< --inputpath $(IMAGES)/genimage/in --rootpath $(IMAGES)/genimage/root \
		--tmppath $(IMAGES)/genimage/tmp --outputpath $(IMAGES)/genimage/out > $(IMAGES)/genimage/log 2>&1 || \
		{ cat $(IMAGES)/genimage/log >&2; exit 1; }
	$(Q)mv $(IMAGES)/genimage/out/sdcard.img $@
	$(Q)rm -rf $(IMAGES)/genimage
	@echo "  IMAGE   $@ ($$(($$(wc -c < $@) / 1048576)) MiB)"

image: $(SDCARD_IMG)

# make bench boots every mode too (run.sh finds out/images/ by default).
bench: $(if $(filter uboot,$(MODES)),image)

# make flash DEV=/dev/sdX [FORCE=1]: tools/flash.sh refuses anything but a
# removable, unmounted disk that does not hold this system.
ifneq ($(filter flash,$(MAKECMDGOALS)),)
ifeq ($(DEV),)
$(error make flash needs DEV=/dev/sdX (the SD card or eMMC to overwrite; lsblk lists them))
endif
endif
flash: $(SDCARD_IMG)
	$(Q)FORCE=$(FORCE) sh $(TOP)/tools/flash.sh $(SDCARD_IMG) $(DEV)
# ---- end of image block -----------------------------------------------------

Q := @
ifneq ($(V),)
Q :=
endif

.PHONY: FORCE all kernel dtb initramfs deps qemu check check-host help clean distclean \
	linux-menuconfig linux-update-config linux-tree bench soak \
	nonstring-plugin nonstring-report nonstring-unpatched compilers compiler-verdict

# help: two aligned columns, grouped (see `make help`).
help:
	@echo 'nonstring-bsp: arm64 BSP on Debian linux-source-6.1, checked in QEMU'
	@echo
	@echo 'Main:'
	@echo '  all (default)          - kernel Image, board DTB and initramfs'
	@echo '  qemu                   - boot the emulated board, shell on the console (Ctrl-a x quits)'
	@echo '  qemu BOOT=acpi         - the same through UEFI firmware with ACPI tables, no DT from us'
	@echo '  check                  - boot each mode ($(MODES)), run the on-target checks, summary;'
	@echo '                           exit 0 all passed, 1 a check failed, 2 the rig failed (ERROR)'
	@echo
	@echo 'Pieces:'
	@echo '  kernel                 - patched kernel Image (out/build/linux-<cc>/)'
	@echo '  dtb                    - QEMU virt DTB + dts/ overlays ($(notdir $(BOARD_DTB)))'
	@echo '  initramfs              - busybox initramfs with the checks (out/images/)'
	@echo '  image                  - out/images/sdcard.img: signed FIT (kernel, DTBs, initramfs) + boot.scr'
	@echo '  linux-tree             - extract linux-source-6.1 and apply kernel-patches/series'
	@echo '  deps                   - install the Debian packages the build needs (as root)'
	@echo
	@echo 'Board:'
	@echo '  flash DEV=/dev/sdX     - write sdcard.img to a removable disk, read it back, compare'
	@echo
	@echo 'Checkers:'
	@echo '  nonstring-report       - GCC 15 unterminated-string findings of the board build (plugin on GCC < 15)'
	@echo '  nonstring-plugin       - build the nonstring GCC plugin (tools/nonstring-plugin.cc)'
	@echo '  nonstring-unpatched    - compile the seed objects without the series (out/nonstring-unpatched/)'
	@echo '  compilers              - build the kernel with $(COMPILERS): no warning, right CONFIG_CC_HAS_*'
	@echo
	@echo 'Speed:'
	@echo '  bench                  - measure build, boot and check times (out/bench.json, out/bench.md)'
	@echo '  soak N=50              - boot and check every mode N times, name the flaky cases'
	@echo
	@echo 'Kernel configuration:'
	@echo '  linux-menuconfig       - menuconfig on the board configuration'
	@echo '  linux-update-config    - save menuconfig changes as $(TOP)/board/linux/local.config'
	@echo
	@echo 'Cleaning:'
	@echo '  clean                  - remove build output, keep the extracted tree and downloads'
	@echo '  distclean              - remove out/ entirely'
	@echo
	@echo 'Variables:'
	@echo '  CROSS_COMPILE=prefix-  - cross compiler (default aarch64-linux-gnu-; GCC 15 works)'
	@echo '  LLVM=1 | LLVM=-16      - build with clang/lld instead'
	@echo '  KCFLAGS=...            - extra kernel C flags (default -Werror=attributes)'
	@echo '  MODES="dt ..."         - boot modes make check runs (default: $(MODES))'
	@echo '  BOOT=dt|acpi|uboot     - boot mode of make qemu (default: dt; uboot boots sdcard.img)'
	@echo '  FIT_KEY=.. FIT_CERT=.. - sign the FIT with this RSA key and certificate (default: dev key in out/keys/)'
	@echo '  FORCE=1                - make flash: allow a disk that is not removable'
	@echo '  MAGELLAN=/dev/ttyUSB0  - make qemu: a real SpaceMouse on that port (default: the emulator)'
	@echo '  MAGELLAN_FLOOD_SEED=N  - make check: magellan_random_flood with this seed (default: fresh)'
	@echo '  TIMEOUT=120            - seconds a boot may take (1500 with SANITIZE=1)'
	@echo '  CASE_TIMEOUT=60        - seconds one on-target case may take (600 with SANITIZE=1)'
	@echo '  SANITIZE=1             - second kernel with KASAN, UBSAN, KFENCE, lockdep (own out/ folders)'
	@echo '  JOBS=N                 - parallel kernel build jobs (default: nproc)'
	@echo '  CHECK_JOBS=N           - boots/host checks make check runs at once (default: all)'
	@echo '  RUNS=5 COLD_RUNS=1     - runs per figure for make bench (cold builds take minutes)'
	@echo '  CARL9170=VID:PID       - make qemu: pass a real AR9170 stick through (or BUS/ADDR) instead of the stub'
	@echo '  V=1                    - show the commands'

all: kernel dtb initramfs

deps:
	$(Q)sh $(TOP)/tools/deps.sh $(HOST_PKGS)

# ---- kernel tree: extracted once, kept equal to the series -----------------
$(KSRC)/.nsbsp/applied: $(KPATCHES)/series $(wildcard $(KPATCHES)/*.patch) $(TOP)/tools/kernel-tree.sh | deps
	$(Q)sh $(TOP)/tools/kernel-tree.sh $(KTARBALL) $(KSRC) $(KPATCHES)
	$(Q)touch $@

linux-tree: $(KSRC)/.nsbsp/applied

# ---- kernel config: allnoconfig + board/linux/*.config ---------------------
# .config.nsbsp is what the fragments produced; a .config edited since (by
# menuconfig) is never overwritten: save it or remove it first.
# The list of fragments is a prerequisite too: removing one reconfigures.
$(KOUT)/fragments.list: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(FRAGMENTS)" | cmp -s - $@ || echo "$(FRAGMENTS)" > $@

$(KOUT)/.config: $(FRAGMENTS) $(KOUT)/fragments.list $(KSRC)/.nsbsp/applied $(TOP)/tools/check-config.sh
	$(Q)mkdir -p $(KOUT)
	$(Q)if [ -f $@ ] && [ -f $@.nsbsp ] && ! cmp -s $@ $@.nsbsp; then \
		echo "Error: $@ was edited (menuconfig?) and the fragments changed." >&2; \
		echo "Run 'make linux-update-config' to keep the edits, or remove $@." >&2; \
		exit 1; fi
	@echo "  CONFIG  allnoconfig + $(notdir $(FRAGMENTS))"
	$(Q)cd $(KOUT) && $(KSRC)/scripts/kconfig/merge_config.sh -m -O $(KOUT) $(FRAGMENTS) > merge.log
	$(Q)mv $@ $(KOUT)/board.fragment
	$(Q)$(KMAKE) -s KCONFIG_ALLCONFIG=$(KOUT)/board.fragment allnoconfig
	$(Q)sh $(TOP)/tools/check-config.sh $@ $(FRAGMENTS)
	$(Q)cp $@ $@.nsbsp

# kbuild decides what to rebuild; a no-op run takes a few seconds.
kernel: $(KOUT)/.config $(KERNEL_DEPS)
	$(if $(NONSTRING_SKIP),@echo "  NONSTRING check skipped: $(NONSTRING_SKIP)")
	@test -f $(KIMAGE) || echo "  KERNEL  cold build in $(KOUT) (about 7 minutes on 2 cores)"
	$(Q)$(KMAKE) -s Image modules
	$(Q)test -f $(KIMAGE)

linux-menuconfig: $(KOUT)/.config
	$(Q)$(KMAKE) menuconfig

linux-update-config:
	$(Q)test -f $(KOUT)/.config.nsbsp || { echo "Error: no board configuration in $(KOUT) yet (make kernel first)" >&2; exit 1; }
	$(Q)python3 $(KSRC)/scripts/diffconfig -m $(KOUT)/.config.nsbsp $(KOUT)/.config > $(KOUT)/local.diff
	$(Q)if [ ! -s $(KOUT)/local.diff ]; then echo "No menuconfig changes to save."; else \
		[ -f $(TOP)/board/linux/local.config ] || echo '# menuconfig changes, saved by make linux-update-config.' > $(TOP)/board/linux/local.config; \
		cat $(KOUT)/local.diff >> $(TOP)/board/linux/local.config; \
		cp $(KOUT)/.config $(KOUT)/.config.nsbsp; \
		echo "Saved $$(wc -l < $(KOUT)/local.diff) options to $(TOP)/board/linux/local.config"; fi

# ---- device tree: QEMU's own DT for the same machine + our overlays -------
$(DT)/qemu-virt.dtb: $(TOP)/qemu/run.sh | deps
	$(Q)mkdir -p $(DT)
	$(Q)sh $(TOP)/qemu/run.sh --dumpdtb $@

$(DT)/%.dtbo: $(TOP)/dts/%.dtso | deps
	$(Q)mkdir -p $(DT)
	$(Q)dtc -q -@ -I dts -O dtb -o $@ $<

$(BOARD_DTB): $(DT)/qemu-virt.dtb $(patsubst $(TOP)/dts/%.dtso,$(DT)/%.dtbo,$(DTS_OVERLAYS))
	@echo "  DTB     $(notdir $@) = qemu-virt.dtb + $(notdir $(DTS_OVERLAYS))"
	$(Q)fdtoverlay -i $< -o $@ $(filter %.dtbo,$^)

dtb: $(BOARD_DTB)

# ---- initramfs -------------------------------------------------------------
$(DEBS)/.stamp-$(subst $(space),_,$(TARGET_DEBS)): $(TOP)/tools/fetch-debs.sh | deps
	$(Q)rm -rf $(DEBS)/root $(DEBS)/.stamp-*
	$(Q)sh $(TOP)/tools/fetch-debs.sh $(DEBS) $(TARGET_DEBS)
	$(Q)touch $@

.SECONDEXPANSION:
$(ROOTFS)/tools/%: $$(wildcard $(TOP)/rootfs/tools/$$*.c $(TOP)/rootfs/tools/$$*/*.c $(TOP)/rootfs/tools/$$*/*.h) | deps
	$(Q)mkdir -p $(@D)
	@echo "  TARGETCC $(notdir $@)"
	$(Q)$(TARGET_CC) $(TARGET_CFLAGS) -o $@ $(filter %.c,$^)

# Rebuilt on every run (the modules come from kbuild); the file is only
# replaced when its content changed.
$(INITRAMFS): kernel $(BOARD_DTB) $(DEBS)/.stamp-$(subst $(space),_,$(TARGET_DEBS)) $(TARGET_TOOLS) FORCE
	$(Q)mkdir -p $(@D)
	$(Q)rm -rf $(ROOTFS)/modules
	$(Q)$(KMAKE) -s INSTALL_MOD_PATH=$(ROOTFS)/modules modules_install > /dev/null
	$(Q)sh $(TOP)/tools/mkinitramfs.sh $@ $(ROOTFS)/staging $(TOP)/rootfs $(DEBS)/root \
		$(ROOTFS)/tools $(ROOTFS)/modules $(KSRC) $(KOUT) $(BOARD_DTB)

initramfs: $(INITRAMFS)

# ---- acpi boot mode: UEFI firmware, QEMU's ACPI tables, our SSDT -----------
# The acpi mode boots the same kernel through QEMU_EFI.fd with its own
# initrd: board/acpi/*.asl compiled by iasl into a table-upgrade cpio,
# followed by the initramfs (tools/acpi-initrd.sh). run.sh takes it with
# --acpi-initrd; RUN_ARGS carries it to every boot.
HOST_PKGS += qemu-efi-aarch64 acpica-tools
ACPI_ASL := $(sort $(wildcard $(TOP)/board/acpi/*.asl))
ACPI_INITRD := $(OUT)/images/initramfs-acpi$(if $(SANITIZE),-sanitize).cpio
RUN_ARGS += --acpi-initrd $(ACPI_INITRD)
BOOT ?= dt

$(ACPI_INITRD): $(INITRAMFS) $(ACPI_ASL) $(TOP)/tools/acpi-initrd.sh | deps
	$(Q)sh $(TOP)/tools/acpi-initrd.sh $@ $(OUT)/acpi$(if $(SANITIZE),-sanitize) $(INITRAMFS) $(ACPI_ASL)

all: $(ACPI_INITRD)
# ---- end acpi boot mode ----------------------------------------------------

# ---- cachefiles ------------------------------------------------------------
all: $(CACHEFILES_SHARE)/SHA256SUMS $(CACHEFILES_DISK)

$(CACHEFILES_SHARE)/SHA256SUMS: $(TOP)/tools/cachefiles-share.sh
	$(Q)sh $< $(CACHEFILES_SHARE)

# A new share gets a new, empty cache disk: the cache names files after their
# inode numbers, so entries of an older share would look like strangers.
$(CACHEFILES_DISK): $(CACHEFILES_SHARE)/SHA256SUMS | deps
	$(Q)mkdir -p $(@D)
	@echo "  MKE2FS  $(notdir $@) ($(CACHEFILES_DISK_SIZE), empty cache disk)"
	$(Q)rm -f $@ && truncate -s $(CACHEFILES_DISK_SIZE) $@
	$(Q)mke2fs -q -F -t ext4 -b 4096 -L nsbsp-cache -E root_owner=0:0 $@

$(CACHEFILES_KEY): $(TOP)/tools/cachefiles-key.c | deps
	$(Q)mkdir -p $(@D)
	@echo "  HOSTCC  $(notdir $@)"
	$(Q)gcc -std=c11 -O2 -Wall -Wextra -o $@ $<

$(ROOTFS)/tools/cachefiles-key: $(TOP)/tools/cachefiles-key.c | deps
	$(Q)mkdir -p $(@D)
	@echo "  TARGETCC $(notdir $@)"
	$(Q)$(TARGET_CC) $(TARGET_CFLAGS) -o $@ $<
# ---- end cachefiles --------------------------------------------------------

# ---- magellan (SpaceMouse) begin --------------------------------------------
# The board's SpaceMouse port (qemu/run.sh): `make qemu` starts
# qemu/magellan-emu on its pty, playing the scenario in a loop; with
# MAGELLAN=/dev/ttyUSB0 it passes that serial device through instead.
# `make check` (qemu/harness.sh) starts the emulator for the checks.
MAGELLAN ?=
HOST_CC ?= gcc
MAGELLAN_HOST_CFLAGS := -std=c11 -O2 -Wall -Wextra -D_GNU_SOURCE
MAGELLAN_EMU := $(OUT)/host/magellan-emu
MAGELLAN_TEST := $(OUT)/host/magellan-test
MAGELLAN_SCENARIO := $(TOP)/rootfs/checks/magellan.scenario
MAGELLAN_SRCS := $(TOP)/qemu/magellan.c $(TOP)/qemu/magellan-scenario.c \
	$(TOP)/qemu/magellan.h $(TOP)/qemu/magellan-scenario.h
$(MAGELLAN_EMU) $(MAGELLAN_TEST): $(OUT)/host/%: $(TOP)/qemu/%.c $(MAGELLAN_SRCS) | deps
	$(Q)mkdir -p $(@D)
	@echo "  HOSTCC  $(notdir $@)"
	$(Q)$(HOST_CC) $(MAGELLAN_HOST_CFLAGS) -o $@ $(filter %.c,$^)
HOST_CHECK_DEPS += $(MAGELLAN_EMU) $(MAGELLAN_TEST)
export NSBSP_MAGELLAN_EMU := $(MAGELLAN_EMU)
export NSBSP_MAGELLAN_SCENARIO := $(MAGELLAN_SCENARIO)
# magellan_random_flood's seed: empty is a fresh one each boot (the check prints it).
MAGELLAN_FLOOD_SEED ?=
export NSBSP_MAGELLAN_FLOOD_SEED := $(MAGELLAN_FLOOD_SEED)
ifeq ($(MAGELLAN),)
# Started in the background of the shell that then becomes QEMU (exec):
# the emulator leaves with QEMU (QMP/pty closed, or PR_SET_PDEATHSIG).
MAGELLAN_QEMU_DEPS := $(MAGELLAN_EMU)
MAGELLAN_QEMU_START = $(MAGELLAN_EMU) --qmp $(OUT)/qemu/magellan.qmp \
	--demo 10 --scenario $(MAGELLAN_SCENARIO) --log $(OUT)/qemu/magellan.log &
MAGELLAN_RUN_ARGS = --qmp $(OUT)/qemu/magellan.qmp
else
MAGELLAN_RUN_ARGS = --magellan $(MAGELLAN)
endif
QEMU_RUN_ARGS += $(MAGELLAN_RUN_ARGS)
qemu: $(MAGELLAN_QEMU_DEPS)
# ---- magellan (SpaceMouse) end ----------------------------------------------

# ---- QEMU ------------------------------------------------------------------
# ---- carl9170: CARL9170=VID:PID or BUS/ADDR passes a real stick through ----
CARL9170 ?=
QEMU_RUN_ARGS += $(if $(CARL9170),--carl9170 $(CARL9170))
# ---- end carl9170 ----
qemu: all $(if $(filter uboot,$(BOOT)),image)
	$(Q)mkdir -p $(OUT)/qemu
	$(Q)$(MAGELLAN_QEMU_START) exec sh $(TOP)/qemu/run.sh --mode $(BOOT) --kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB) $(RUN_ARGS) $(QEMU_RUN_ARGS)

# Host-side checks: tools/host-checks/NN-<name>.sh, same conventions as the
# on-target ones (common/run-checks --host), results in host.ktap.
# A host check that needs something built adds it to HOST_CHECK_DEPS.
HOST_CHECKS := $(wildcard $(TOP)/tools/host-checks/[0-9]*.sh)
HOST_CHECK_DEPS ?=

# The host checks and every boot mode run side by side, CHECK_JOBS at a time;
# the sub-make's -j does the scheduling. By default all at once: each QEMU is
# one TCG thread that spends much of a boot waiting (USB and serial
# handshakes, timers), so four pieces on two cores finish sooner than two.
CHECK_JOBS ?= $(words host $(MODES))
# The verdict (tools/ktap-summary.sh) holds each file against the cases the
# check files declare for its mode: given exactly the files it must find.
SUMMARY = sh $(TOP)/tools/ktap-summary.sh --checks $(TOP)/rootfs/checks \
	--host-checks $(TOP)/tools/host-checks
CHECK_FILES = host=$(RESULTS)/host.ktap $(foreach m,$(MODES),$(m)=$(RESULTS)/$(m).ktap)

# make check's exit status tells a failed check (1) from a failed rig (2:
# no boot, a timeout, missing results), as tuxrun and KCIDB tell FAIL from
# ERROR. GNU make exits 2 on any failed recipe, so a plain `make check`
# runs the suite in a sub-make while this file is read, then ends with the
# summary's status: 1 through make's question mode (the phony goal "needs
# remaking"), 2 through $$(error); the summary's line stays the last but
# for that error. The suite's output goes where this make's output goes
# (its standard output, /proc/PID/fd/1, else standard error).
ifeq ($(MAKECMDGOALS)$(NSBSP_CHECK_INNER),check)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
CHECK_STATUS := $(shell rm -f $(RESULTS)/status; \
	if (: >> /proc/$$PPID/fd/1) 2> /dev/null; then o=/proc/$$PPID/fd/1; else o=/dev/stderr; fi; \
	NSBSP_CHECK_INNER=1 $(MAKE) --no-print-directory $(MAKEOVERRIDES) check >> "$$o" 2>&1; \
	cat $(RESULTS)/status 2> /dev/null)
ifeq ($(CHECK_STATUS),1)
MAKEFLAGS += -q
else ifeq ($(CHECK_STATUS),2)
$(error make check: the rig failed (ERROR lines above))
else ifneq ($(CHECK_STATUS),0)
$(error make check: the build failed before the checks ran)
endif
endif
check: ; @:
else
check: all $(HOST_CHECK_DEPS) $(if $(filter uboot,$(MODES)),image)
	$(Q)mkdir -p $(RESULTS)
	$(Q)rm -f $(RESULTS)/*.ktap $(RESULTS)/status
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) $(if $(HOST_CHECKS),check-host) \
		$(addprefix check-mode-,$(MODES))
	$(Q)st=0; $(SUMMARY) $(CHECK_FILES) || st=$$?; echo $$st > $(RESULTS)/status; \
		[ -n "$(NSBSP_CHECK_INNER)" ] || exit $$st
endif

# One piece of make check each; their failures are in the KTAP, so they
# never stop the others: the summary decides.
check-host:
	$(Q)echo "  HOST    checks (results in $(RESULTS)/host.ktap)"
	$(Q)rc=0; TOP=$(TOP) OUT=$(OUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) BOARD_DTB=$(BOARD_DTB) \
		sh $(TOP)/common/run-checks --host $(TOP)/tools/host-checks \
		> $(RESULTS)/host.ktap 2>&1 || rc=$$?; \
		[ $$rc -eq 0 ] || echo "  ERROR   host: run-checks exited $$rc"
	$(Q)echo "  RESULT  host: $$(grep -c '^ok ' $(RESULTS)/host.ktap) ok, $$(grep -c '^not ok ' $(RESULTS)/host.ktap) not ok"

check-mode-%:
	$(Q)sh $(TOP)/qemu/harness.sh --mode $* --timeout $(TIMEOUT) --out $(RESULTS) \
		--kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB) $(RUN_ARGS) || true

N ?= 50
soak: all $(if $(filter uboot,$(MODES)),image)
	$(Q)sh $(TOP)/tools/soak.sh --checks $(TOP)/rootfs/checks $(N) $(OUT)/soak "$(MODES)" -- --timeout $(TIMEOUT) \
		--kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB) $(RUN_ARGS)

bench: deps
	$(Q)TOP=$(TOP) OUT=$(OUT) KOUT=$(KOUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) \
		BOARD_DTB=$(BOARD_DTB) RUN_ARGS="$(RUN_ARGS)" MODES="$(MODES)" MAKE="$(MAKE)" sh $(TOP)/tools/bench.sh

clean:
	rm -rf $(OUT)/build $(OUT)/dt $(OUT)/images $(OUT)/rootfs $(OUT)/results

distclean:
	rm -rf $(OUT)
