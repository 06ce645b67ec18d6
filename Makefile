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
# __nonstring_array the plugin's nonstring_array attribute (patch 0006).
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
MODES ?= dt
RESULTS := $(OUT)/results$(if $(SANITIZE),/sanitize)
TIMEOUT ?= 120

Q := @
ifneq ($(V),)
Q :=
endif

.PHONY: FORCE all kernel dtb initramfs deps qemu check help clean distclean \
	linux-menuconfig linux-update-config linux-tree bench soak \
	nonstring-plugin nonstring-report nonstring-unpatched compilers compiler-verdict

# help: two aligned columns, grouped (see `make help`).
help:
	@echo 'nonstring-bsp: arm64 BSP on Debian linux-source-6.1, checked in QEMU'
	@echo
	@echo 'Main:'
	@echo '  all (default)          - kernel Image, board DTB and initramfs'
	@echo '  qemu                   - boot the emulated board, shell on the console (Ctrl-a x quits)'
	@echo '  check                  - boot each mode ($(MODES)), run the on-target checks, summary'
	@echo
	@echo 'Pieces:'
	@echo '  kernel                 - patched kernel Image (out/build/linux-<cc>/)'
	@echo '  dtb                    - QEMU virt DTB + dts/ overlays ($(notdir $(BOARD_DTB)))'
	@echo '  initramfs              - busybox initramfs with the checks (out/images/)'
	@echo '  linux-tree             - extract linux-source-6.1 and apply kernel-patches/series'
	@echo '  deps                   - install the Debian packages the build needs (as root)'
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
	@echo '  TIMEOUT=120            - seconds a boot may take before the harness stops it'
	@echo '  SANITIZE=1             - second kernel with KASAN, UBSAN, KFENCE, lockdep (own out/ folders)'
	@echo '  JOBS=N                 - parallel kernel build jobs (default: nproc)'
	@echo '  RUNS=5 COLD_RUNS=1     - runs per figure for make bench (cold builds take minutes)'
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
	$(Q)rm -rf $(DEBS)/root
	$(Q)sh $(TOP)/tools/fetch-debs.sh $(DEBS) $(TARGET_DEBS)
	$(Q)touch $@

.SECONDEXPANSION:
$(ROOTFS)/tools/%: $$(wildcard $(TOP)/rootfs/tools/%.c $(TOP)/rootfs/tools/%/*.c $(TOP)/rootfs/tools/%/*.h) | deps
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

# ---- QEMU ------------------------------------------------------------------
qemu: all
	$(Q)sh $(TOP)/qemu/run.sh --kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB)

# Host-side checks: tools/host-checks/NN-<name>.sh, same conventions as the
# on-target ones (rootfs/checks/run-checks --host), results in host.ktap.
# A host check that needs something built adds it to HOST_CHECK_DEPS.
HOST_CHECKS := $(wildcard $(TOP)/tools/host-checks/[0-9]*.sh)
HOST_CHECK_DEPS ?=

check: all $(HOST_CHECK_DEPS)
	$(Q)mkdir -p $(RESULTS)
	$(Q)rm -f $(RESULTS)/*.ktap
	$(Q)if [ -n "$(HOST_CHECKS)" ]; then \
		echo "  HOST    checks (results in $(RESULTS)/host.ktap)"; \
		TOP=$(TOP) OUT=$(OUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) BOARD_DTB=$(BOARD_DTB) \
		sh $(TOP)/rootfs/checks/run-checks --host $(TOP)/tools/host-checks \
			> $(RESULTS)/host.ktap 2>&1 || true; fi
	$(Q)for m in $(MODES); do \
		sh $(TOP)/qemu/harness.sh --mode $$m --timeout $(TIMEOUT) --out $(RESULTS) \
			--kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB) || true; \
	done
	$(Q)sh $(TOP)/tools/ktap-summary.sh $(RESULTS)/*.ktap

N ?= 50
soak: all
	$(Q)sh $(TOP)/tools/soak.sh $(N) $(OUT)/soak "$(MODES)" -- --timeout $(TIMEOUT) \
		--kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB)

bench: deps
	$(Q)TOP=$(TOP) OUT=$(OUT) KOUT=$(KOUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) \
		BOARD_DTB=$(BOARD_DTB) MODES="$(MODES)" MAKE="$(MAKE)" sh $(TOP)/tools/bench.sh

clean:
	rm -rf $(OUT)/build $(OUT)/dt $(OUT)/images $(OUT)/rootfs $(OUT)/results

distclean:
	rm -rf $(OUT)
