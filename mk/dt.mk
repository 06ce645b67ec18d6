# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Device trees. The dt mode's DTB is QEMU virt's own DT (dumped by QEMU
# with the machine options the board boots with) plus the overlays of
# dts/; each board in the FIT gets its base DTB plus the overlays of dts/,
# where dts/BOARD/NAME.dtso (or dts/rpi/NAME.dtso, what the Pis share)
# replaces dts/NAME.dtso, and those folders' other overlays on top. Under firmware (U-Boot) QEMU virt is a slightly
# different machine (no GPIO block), so its FIT DTB starts from that dump.

DT := $(OUT)/dt
BOARD_DTB := $(DT)/nsbsp-virt.dtb
VIRT_DTB := $(DT)/nsbsp-virt-uboot.dtb
RPI_BOARDS := rpi3 rpi4
RPI3_DTB_SRC := broadcom/bcm2837-rpi-3-b.dtb
RPI4_DTB_SRC := broadcom/bcm2711-rpi-4-b.dtb
RPI3_DTB := $(DT)/nsbsp-rpi3.dtb
RPI4_DTB := $(DT)/nsbsp-rpi4.dtb
HOST_PKGS += device-tree-compiler qemu-system-arm
# The board DTBs' folder, for the dt_driver_coverage_* host checks.
export NSBSP_DT := $(DT)
ALL += $(BOARD_DTB)
CLEAN_DIRS += $(DT)

# board_overlays DIR...: the .dtbo files of a board whose own folders of
# dts/ are DIR... (first wins), in name order.
board_overlays = $(foreach o,$(sort $(notdir $(wildcard $(TOP)/dts/*.dtso $(foreach d,$(1),$(TOP)/dts/$(d)/*.dtso)))),\
	$(firstword $(foreach d,$(1),$(if $(wildcard $(TOP)/dts/$(d)/$(o)),$(DT)/$(d)/$(o:.dtso=.dtbo))) $(DT)/$(o:.dtso=.dtbo)))
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

# The Pis' DTBs from the kernel tree, with symbols (-@) so that overlays
# can use their labels. Asked of kbuild after each kernel build (KSTAMP:
# the tree changed), which decides whether they are out of date; touched
# after, since kbuild leaves a current one alone and it would stay older
# than KSTAMP, asked again by every make.
$(KOUT)/arch/arm64/boot/dts/broadcom/%.dtb: $(KSTAMP)
	$(Q)$(KMAKE) -s DTC_FLAGS_$*=-@ broadcom/$*.dtb
	$(Q)touch $@

$(RPI3_DTB): $(KOUT)/arch/arm64/boot/dts/$(RPI3_DTB_SRC) $(call board_overlays,rpi3 rpi)
	$(Q)$(call fdt_apply,$<,$(filter %.dtbo,$^))

$(RPI4_DTB): $(KOUT)/arch/arm64/boot/dts/$(RPI4_DTB_SRC) $(call board_overlays,rpi4 rpi)
	$(Q)$(call fdt_apply,$<,$(filter %.dtbo,$^))

# What boot_dt, boot_rpi3 and uboot_boot compare the live device tree
# with: each board's compatible and model, by FIT configuration name.
ROOTFS_FILES += $(foreach b,virt rpi3 rpi4,$(DT)/board/$(b)=/etc/nsbsp/board/$(b))
ROOTFS_DEPS += $(foreach b,virt rpi3 rpi4,$(DT)/board/$(b))
$(DT)/board/virt: $(BOARD_DTB)
$(DT)/board/rpi3: $(RPI3_DTB)
$(DT)/board/rpi4: $(RPI4_DTB)
$(DT)/board/%:
	$(Q)mkdir -p $(@D)
	$(Q){ echo "compatible=$$(fdtget $< / compatible)"; echo "model=$$(fdtget $< / model)"; } > $@.tmp && mv $@.tmp $@

dtb: $(BOARD_DTB)

.PHONY: dtb
