# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Device trees. The dt mode's DTB is QEMU virt's own DT (dumped by QEMU
# with the machine options the board boots with) plus the overlays of
# dts/; each board in the FIT gets its base DTB plus the overlays of dts/,
# where dts/BOARD/NAME.dtso replaces dts/NAME.dtso, and dts/BOARD/'s other
# overlays on top. Under firmware (U-Boot) QEMU virt is a slightly
# different machine (no GPIO block), so its FIT DTB starts from that dump.

DT := $(OUT)/dt
BOARD_DTB := $(DT)/nsbsp-virt.dtb
VIRT_DTB := $(DT)/nsbsp-virt-uboot.dtb
RPI4_DTB_SRC := broadcom/bcm2711-rpi-4-b.dtb
RPI4_DTB := $(DT)/nsbsp-rpi4.dtb
HOST_PKGS += device-tree-compiler qemu-system-arm
# The board DTBs' folder, for the dt_driver_coverage_* host checks.
export NSBSP_DT := $(DT)
ALL += $(BOARD_DTB)
CLEAN_DIRS += $(DT)

# board_overlays BOARD: the .dtbo files of that board, in dts/ order.
board_overlays = $(foreach o,$(sort $(notdir $(wildcard $(TOP)/dts/*.dtso $(TOP)/dts/$(1)/*.dtso))),\
	$(if $(wildcard $(TOP)/dts/$(1)/$(o)),$(DT)/$(1)/$(o:.dtso=.dtbo),$(DT)/$(o:.dtso=.dtbo)))
# fdt_apply BASE OVERLAY...: the recipe that applies overlays to a base DTB.
fdt_apply = echo "  DTB     $(notdir $@) = $(notdir $(1)) + $(notdir $(2))" && \
	mkdir -p $(@D) && fdtoverlay -i $(1) -o $@ $(2)

$(DT)/%.dtbo: $(TOP)/dts/%.dtso | deps
	$(Q)mkdir -p $(@D)
	$(Q)dtc -q -@ -I dts -O dtb -o $@ $<

# QEMU's own DT of the machine as each mode boots it (run.sh --dumpdtb).
$(DT)/qemu-virt-%.dtb: $(TOP)/qemu/run.sh | deps
	$(Q)mkdir -p $(@D)
	$(Q)sh $(TOP)/qemu/run.sh --mode $* --dumpdtb $@

$(BOARD_DTB): $(DT)/qemu-virt-dt.dtb $(call board_overlays,virt)
	$(Q)$(call fdt_apply,$<,$(filter %.dtbo,$^))

# QEMU's dump has random /chosen seeds (rng-seed, kaslr-seed) that QEMU
# renews whenever it loads a DTB itself; baked into the FIT they would
# give every board the same "random" seed, and every build other bytes.
# fdtput -d leaves the deleted bytes in the blob: dtc writes it anew.
$(VIRT_DTB): $(DT)/qemu-virt-uboot.dtb $(call board_overlays,virt)
	$(Q)$(call fdt_apply,$<,$(filter %.dtbo,$^))
	$(Q)for p in rng-seed kaslr-seed; do \
		if fdtget $@ /chosen $$p > /dev/null 2>&1; then fdtput -d $@ /chosen $$p; fi; done
	$(Q)dtc -q -I dtb -O dtb -o $@.tmp $@ && mv $@.tmp $@

# The Pi's DTB from the kernel tree, with symbols (-@) so that overlays can
# use its labels. Asked of kbuild after each kernel build (KSTAMP: the tree
# changed), which decides whether it is out of date.
$(KOUT)/arch/arm64/boot/dts/$(RPI4_DTB_SRC): $(KSTAMP)
	$(Q)$(KMAKE) -s DTC_FLAGS_$(basename $(notdir $(RPI4_DTB_SRC)))=-@ $(RPI4_DTB_SRC)

$(RPI4_DTB): $(KOUT)/arch/arm64/boot/dts/$(RPI4_DTB_SRC) $(call board_overlays,rpi4)
	$(Q)$(call fdt_apply,$<,$(filter %.dtbo,$^))

# What boot_dt and uboot_boot compare the live device tree with.
ROOTFS_FILES += $(DT)/board-compatible=/etc/nsbsp/board-compatible $(DT)/board-model=/etc/nsbsp/board-model
ROOTFS_DEPS += $(DT)/board-model
$(DT)/board-model: $(BOARD_DTB)
	$(Q)fdtget $< / compatible > $(DT)/board-compatible
	$(Q)fdtget $< / model > $@

dtb: $(BOARD_DTB)

.PHONY: dtb
