# The acpi boot mode: the same kernel through UEFI (EDK2's QEMU_EFI.fd),
# with QEMU's ACPI tables and no DT from us, and its own initrd: the
# board's tables (board/acpi/*.asl, compiled by iasl) in a table-upgrade
# cpio, followed by the initramfs (tools/acpi-initrd.sh). Kernel options:
# board/linux/acpi.config; checks: rootfs/checks/60-acpi.sh.

ACPI_ASL := $(sort $(wildcard $(TOP)/board/acpi/*.asl))
ACPI_INITRD := $(IMAGES)/initramfs-acpi$(if $(SANITIZE),-sanitize).cpio
HOST_PKGS += qemu-efi-aarch64 acpica-tools
ALL += $(ACPI_INITRD)
RUN_ARGS += --acpi-initrd $(ACPI_INITRD)
CLEAN_DIRS += $(OUT)/acpi $(OUT)/acpi-sanitize

$(ACPI_INITRD): $(INITRAMFS) $(ACPI_ASL) $(TOP)/tools/acpi-initrd.sh | deps
	$(Q)sh $(TOP)/tools/acpi-initrd.sh $@ $(OUT)/acpi$(if $(SANITIZE),-sanitize) $(INITRAMFS) $(ACPI_ASL)
