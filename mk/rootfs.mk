# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The product initramfs: what sdcard.img boots on a real board, and every
# boot mode in QEMU. busybox (Debian's busybox-static, arm64) with its own
# init (rootfs/skeleton/etc/inittab), the checks that run on real hardware
# (rootfs/checks/, with the runner and definitions of common/), the
# product's target tools (TARGET_PROGS) and what each concern adds to
# ROOTFS_FILES (tools/stage.sh specs). No test fixture: those are on the
# fixture disk (mk/fixtures.mk).

ROOTFS := $(OUT)/rootfs$(OUT_VARIANT)
INITRAMFS := $(IMAGES)/initramfs$(OUT_VARIANT).cpio
TARGET_DEBS += busybox-static
ALL += $(INITRAMFS)
CLEAN_DIRS += $(OUT)/rootfs $(OUT)/rootfs-* $(OUT)/images $(OUT)/target

# The common definitions a product check needs on the board.
NSBSP_LIB := /usr/lib/nsbsp
ROOTFS_FILES += $(TOP)/rootfs/skeleton/.=/ \
	$(DEBS)/root/bin/busybox=/bin/busybox link:busybox=/bin/sh link:bin/busybox=/init \
	$(foreach f,check.sh klog.sh ktap.sh poll.sh splat.ere run-checks,$(TOP)/common/$(f)=$(NSBSP_LIB)/common/$(f)) \
	link:../lib/nsbsp/common/run-checks=/usr/bin/run-checks \
	$(foreach f,$(wildcard $(TOP)/rootfs/checks/*.sh),$(f)=$(NSBSP_LIB)/checks/$(notdir $(f))) \
	$(foreach p,$(TARGET_PROGS),$(TARGET_BIN)/$(p)=/usr/bin/$(p))

# The arm64 packages (TARGET_DEBS, from every concern), fetched and unpacked
# again when the list changes.
$(DEBS)/packages.list: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(sort $(TARGET_DEBS))" | cmp -s - $@ || echo "$(sort $(TARGET_DEBS))" > $@

$(DEBS_STAMP): $(DEBS)/packages.list $(TOP)/tools/fetch-debs.sh | deps
	$(Q)rm -rf $(DEBS)/root
	$(Q)sh $(TOP)/tools/fetch-debs.sh $(DEBS) $(TARGET_DEBS)
	$(Q)touch $@

# Staged on every run (kbuild and the concerns decide what is current); the
# file is only replaced when its content changed.
$(INITRAMFS): $(KSTAMP) $(DEBS_STAMP) $$(addprefix $(TARGET_BIN)/,$$(TARGET_PROGS)) $$(ROOTFS_DEPS) FORCE
	$(Q)mkdir -p $(@D)
	$(Q)sh $(TOP)/tools/mkinitramfs.sh $@ $(ROOTFS)/staging $(KSRC) $(KOUT) $(ROOTFS_FILES)

initramfs: $(INITRAMFS)

.PHONY: initramfs
