# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The acpi boot mode: the same kernel through UEFI (EDK2's QEMU_EFI.fd),
# with QEMU's ACPI tables and no DT from us, and its own initrd: the
# board's tables (board/acpi/*.asl, compiled by iasl) in a table-upgrade
# cpio, followed by the initramfs (tools/acpi-initrd.sh). Kernel options:
# board/linux/acpi.config (fixtures: board/linux/fixtures/acpi.config);
# checks: rootfs/checks/60-acpi.sh, rootfs/fixtures/checks/61-acpi-eval.sh.

ACPI_ASL := $(sort $(wildcard $(TOP)/board/acpi/*.asl))
ACPI_INITRD := $(IMAGES)/initramfs-acpi$(OUT_VARIANT).cpio
HOST_PKGS += qemu-efi-aarch64 acpica-tools
ALL += $(ACPI_INITRD)
RUN_ARGS += --acpi-initrd $(ACPI_INITRD)
CLEAN_DIRS += $(OUT)/acpi $(OUT)/acpi-*

# The checks that evaluate ACPI objects themselves (61-acpi-eval.sh) use
# the kernel's AML debugger: its core is built in (CONFIG_ACPI_DEBUGGER,
# board/linux/acpi.config), its debugfs file is the fixture module acpi_dbg
# (board/linux/fixtures/acpi.config), and its client, the kernel tree's
# tools/power/acpi/tools/acpidbg, is a fixture too: built static for the
# target from the patched tree with the tree's own makefile (which copies
# only include/acpi for it), from scratch as that copy is made once, and
# put on the fixture disk. include/acpi/actbl.h has carried the kernel's
# __nonstring since patch 0003; the tools define no such macro.
ACPIDBG_OUT := $(OUT)/acpidbg
ACPIDBG := $(ACPIDBG_OUT)/tools/power/acpi/acpidbg
CLEAN_DIRS += $(ACPIDBG_OUT)

FIXTURE_FILES += $(ACPIDBG)=/usr/bin/acpidbg
FIXTURE_DEPS += $(ACPIDBG)

$(ACPIDBG): $(KSRC)/.nsbsp/applied | deps
	$(Q)rm -rf $(ACPIDBG_OUT) && mkdir -p $(ACPIDBG_OUT)
	$(Q)CFLAGS=-D__nonstring= LDFLAGS=-static $(MAKE) -s --no-print-directory -C $(KSRC)/tools/power/acpi \
		O=$(ACPIDBG_OUT) LLVM= CROSS_COMPILE=$(CROSS_COMPILE) CC=$(TARGET_CC) STRIP=$(CROSS_COMPILE)strip \
		DEBUG=false V=1 acpidbg > $(ACPIDBG_OUT)/build.log 2>&1 || { cat $(ACPIDBG_OUT)/build.log >&2; exit 1; }
	@echo "  ACPIDBG $(notdir $@) (tools/power/acpi, static, $(TARGET_CC))"

$(ACPI_INITRD): $(INITRAMFS) $(ACPI_ASL) $(TOP)/tools/acpi-initrd.sh | deps
	$(Q)sh $(TOP)/tools/acpi-initrd.sh $@ $(OUT)/acpi$(OUT_VARIANT) $(INITRAMFS) $(ACPI_ASL)
