# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The kernel: Debian's linux-source-6.1, extracted once into out/linux and
# kept equal to kernel-patches/series (tools/kernel-tree.sh), configured as
# allnoconfig + the fragments of board/linux/ (merge_config.sh), built out
# of tree for arm64 into out/build/linux-<compiler>[-sanitize]/.

KTARBALL ?= /usr/src/linux-source-6.1.tar.xz
KSRC := $(OUT)/linux
KPATCHES ?= $(TOP)/kernel-patches
VARIANT := $(TC)$(if $(SANITIZE),-sanitize)
# The suffix of everything else a build makes from its kernel (initramfs,
# fixture disk, sdcard.img, results): none for the default compiler, so
# that another compiler's or the sanitizer's build never mixes with it
# (out/images/sdcard-clang-22.img, out/rootfs-sanitize/).
OUT_VARIANT := $(if $(LLVM),-$(TC))$(if $(SANITIZE),-sanitize)
KOUT ?= $(OUT)/build/linux-$(VARIANT)
KIMAGE := $(KOUT)/arch/arm64/boot/Image
# The fixtures' options (board/linux/fixtures/, all =m) come first, so that
# a board fragment that asks for one of them built in wins and
# product_has_no_fixtures names it.
FRAGMENTS ?= $(sort $(wildcard $(TOP)/board/linux/fixtures/*.config)) \
	$(sort $(wildcard $(TOP)/board/linux/*.config)) \
	$(if $(SANITIZE),$(sort $(wildcard $(TOP)/board/linux/sanitize/*.config)))
HOST_PKGS += make gcc libc6-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross bc bison flex \
	libssl-dev libelf-dev cpio xz-utils kmod python3 linux-source-6.1 ccache patch
KMAKE = $(MAKE) -j$(JOBS) -C $(KSRC) O=$(KOUT) ARCH=arm64 CROSS_COMPILE=$(CROSS_COMPILE) \
	$(if $(LLVM),LLVM=$(LLVM)) CC="$(strip $(NONSTRING_CC) $(CCACHE) $(KCC))" \
	HOSTCC="$(strip $(CCACHE) $(HOSTCC))" KCFLAGS="$(strip $(KCFLAGS) $(KPATH_MAP))"

# The same commit gives the same Image (Buildroot's linux.mk, Yocto's
# kernel.bbclass): the version string's time is SOURCE_DATE_EPOCH's, its
# build number, user and host are fixed, not the builder's. Paths: kbuild
# maps the source tree out of __FILE__ itself (-fmacro-prefix-map), and
# ccache hands the compiler paths relative to the checkout; the only other
# way a path gets into an object is debug information, so with
# CONFIG_DEBUG_INFO the source tree and the build folder are mapped too
# (without it the flags would only change every object's cache key).
export KBUILD_BUILD_TIMESTAMP := $(shell LC_ALL=C date -u -d @$(SOURCE_DATE_EPOCH))
export KBUILD_BUILD_USER := nsbsp
export KBUILD_BUILD_HOST := nonstring-bsp
export KBUILD_BUILD_VERSION := 1
KPATH_MAP = $(if $(filter y,$(shell sed -n 's/^CONFIG_DEBUG_INFO=//p' $(KOUT)/.config 2> /dev/null)),\
	-ffile-prefix-map=$(KSRC)/= -fdebug-prefix-map=$(KOUT)=.)
ALL += kernel
CLEAN_DIRS += $(OUT)/build

# Which series the tree has: another KPATCHES (make bench's copy), or
# patches older than the stamp, still apply it again.
$(KSRC)/.nsbsp/series.id: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)id="$(KPATCHES) $$(cat $(KPATCHES)/series $(KPATCHES)/*.patch | cksum)"; \
		[ "$$id" = "$$(cat $@ 2> /dev/null)" ] || echo "$$id" > $@

$(KSRC)/.nsbsp/applied: $(KSRC)/.nsbsp/series.id $(KPATCHES)/series $(wildcard $(KPATCHES)/*.patch) \
		$(TOP)/tools/kernel-tree.sh | deps
	$(Q)sh $(TOP)/tools/kernel-tree.sh $(KTARBALL) $(KSRC) $(KPATCHES)
	$(Q)touch $@

linux-tree: $(KSRC)/.nsbsp/applied

# .config.nsbsp is what the fragments produced; a .config edited since (by
# menuconfig) is never overwritten: save it or remove it first. The list of
# fragments is a prerequisite too: removing one reconfigures.
$(KOUT)/fragments.list: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(FRAGMENTS)" | cmp -s - $@ || echo "$(FRAGMENTS)" > $@

$(KOUT)/.config: $(FRAGMENTS) $(KOUT)/fragments.list $(KSRC)/.nsbsp/applied $(TOP)/tools/check-config.sh
	$(Q)mkdir -p $(KOUT)
	$(Q)if [ -f $@ ] && [ -f $@.nsbsp ] && ! cmp -s $@ $@.nsbsp; then \
		echo "Error: $@ was edited (menuconfig?) and the fragments changed." >&2; \
		echo "Run 'make linux-update-config' to keep the edits, or remove $@." >&2; \
		exit 1; fi
	@echo "  CONFIG  allnoconfig + $(words $(FRAGMENTS)) fragments of board/linux/"
	$(Q)cd $(KOUT) && $(KSRC)/scripts/kconfig/merge_config.sh -m -O $(KOUT) $(FRAGMENTS) > merge.log
	$(Q)mv $@ $(KOUT)/board.fragment
	$(Q)$(KMAKE) -s KCONFIG_ALLCONFIG=$(KOUT)/board.fragment allnoconfig
	$(Q)sh $(TOP)/tools/check-config.sh $@ $(FRAGMENTS)
	$(Q)cp $@ $@.nsbsp

# kbuild decides what to rebuild; tools/kbuild-progress.sh says how far a
# long build is, a line every few seconds. kbuild's pass over the whole
# tree costs seconds even when nothing changed, so it is skipped when
# nothing it reads changed since it last succeeded: KSTAMP holds that
# build's make command line, compiler version and version string's time,
# user, host and build number (a new commit's SOURCE_DATE_EPOCH relinks),
# and no file of the tree (a patch applied, a file edited in out/linux),
# the configuration or KERNEL_DEPS (the nonstring plugin) is newer.
# KSTAMP is newer after every build, so what is made from the kernel's
# output depends on it (not on the phony kernel) and is made again only then.
KSTAMP := $(KOUT)/.nsbsp-built
# $(call kbuild_current,ID,STAMP,FILES): a shell test, true while STAMP
# holds ID and no file of FILES (folders: any file in them) is newer; a
# missing file is never current. mk/nonstring.mk's builds use it too.
kbuild_current = [ '$(1)' = "$$(cat $(2) 2> /dev/null)" ] && \
	[ -z "$$(find $(3) -newer $(2) -print -quit 2>&1)" ]
KBUILD_ID = $(KMAKE) Image modules; $(shell $(KCC) --version 2> /dev/null | head -n 1); \
	$(KBUILD_BUILD_TIMESTAMP), $(KBUILD_BUILD_USER)@$(KBUILD_BUILD_HOST), build $(KBUILD_BUILD_VERSION)
kernel: $(KSTAMP)
$(KIMAGE): $(KSTAMP) ;
$(KSTAMP): $(KOUT)/.config $$(KERNEL_DEPS) FORCE
	$(if $(NONSTRING_SKIP),@echo "  NONSTRING check skipped: $(NONSTRING_SKIP)")
	$(Q)if [ -f $(KIMAGE) ] && $(call kbuild_current,$(KBUILD_ID),$(KSTAMP),$(KSRC) $(KOUT)/.config $(KERNEL_DEPS)); then :; else \
		rm -f $(KSTAMP); \
		sh $(TOP)/tools/kbuild-progress.sh $(KOUT) $(KMAKE) -s Image modules && \
		echo '$(KBUILD_ID)' > $(KSTAMP); fi
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

.PHONY: kernel linux-tree linux-menuconfig linux-update-config
