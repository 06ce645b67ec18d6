# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# U-Boot for the Raspberry Pi (arm64) that boots the BSP's signed FIT:
# Debian's own U-Boot (the source package u-boot of this Debian release,
# Debian's patches applied, fetched by tools/fetch-source.sh into out/src/)
# built for rpi_arm64_defconfig, the configuration of Debian's u-boot-rpi,
# plus board/uboot/rpi_arm64.config (FIT, its signatures and what boot.scr
# uses: Debian builds u-boot-rpi without FIT). Out of tree in
# out/uboot/rpi_arm64/, with ccache; the version string's date is
# SOURCE_DATE_EPOCH's, so the same commit gives the same u-boot.bin.

# Debian's u-boot needs these to build (debian/control's Build-Depends,
# those rpi_arm64 uses): the host tools link libssl (mkimage's signing),
# Kconfig needs bison and flex, apt-get source needs dpkg-dev.
HOST_PKGS += dpkg-dev bison flex libssl-dev
UBOOT_SRC_DIR := $(OUT)/src
# fetch-source.sh writes the name of the unpacked folder into its stamp.
UBOOT_SRC_STAMP := $(UBOOT_SRC_DIR)/.u-boot.unpacked
UBOOT_RPI_SRC = $(UBOOT_SRC_DIR)/$(file < $(UBOOT_SRC_STAMP))
UBOOT_RPI_BUILD := $(OUT)/uboot/rpi_arm64
UBOOT_RPI_BIN := $(UBOOT_RPI_BUILD)/u-boot.bin
UBOOT_RPI_FRAGMENT := $(TOP)/board/uboot/rpi_arm64.config
CLEAN_DIRS += $(OUT)/uboot
UBOOT_MAKE = $(MAKE) -s -C $(UBOOT_RPI_SRC) O=$(UBOOT_RPI_BUILD) CROSS_COMPILE=$(CROSS_COMPILE) \
	CC="$(strip $(CCACHE) $(CROSS_COMPILE)gcc)"

$(UBOOT_SRC_STAMP): $(TOP)/tools/fetch-source.sh | deps
	$(Q)sh $(TOP)/tools/fetch-source.sh $(UBOOT_SRC_DIR) u-boot
	$(Q)touch $@

# The version string says whose build it is, as Debian's does
# (CONFIG_LOCALVERSION="+dfsg-<Debian revision>"), and that it is the
# BSP's rebuild with the fragment. Not named localversion*: U-Boot's
# setlocalversion appends the contents of such files in the build folder.
$(UBOOT_RPI_BUILD)/debian-version.config: $(UBOOT_SRC_STAMP)
	$(Q)mkdir -p $(@D)
	$(Q)v=$$(dpkg-parsechangelog -l $(UBOOT_RPI_SRC)/debian/changelog -S Version) && \
		echo "CONFIG_LOCALVERSION=\"+$${v#*+}+nsbsp\"" > $@

# rpi_arm64_defconfig and the fragments merged, olddefconfig fills in the
# rest; every option the fragment asks for must be in the result as asked.
$(UBOOT_RPI_BUILD)/.config: $(UBOOT_SRC_STAMP) $(UBOOT_RPI_FRAGMENT) $(UBOOT_RPI_BUILD)/debian-version.config \
		$(TOP)/tools/check-config.sh
	@echo "  CONFIG  U-Boot rpi_arm64_defconfig + $(notdir $(UBOOT_RPI_FRAGMENT))"
	$(Q)cd $(UBOOT_RPI_BUILD) && $(UBOOT_RPI_SRC)/scripts/kconfig/merge_config.sh -m -O $(UBOOT_RPI_BUILD) \
		$(UBOOT_RPI_SRC)/configs/rpi_arm64_defconfig $(UBOOT_RPI_FRAGMENT) \
		$(UBOOT_RPI_BUILD)/debian-version.config > merge.log
	$(Q)$(UBOOT_MAKE) olddefconfig
	$(Q)sh $(TOP)/tools/check-config.sh $@ $(UBOOT_RPI_FRAGMENT) $(UBOOT_RPI_BUILD)/debian-version.config

# U-Boot's make decides what to rebuild, but its pass over the tree costs
# seconds: it is skipped when u-boot.bin is newer than every file of the
# source tree, the configuration and SOURCE_DATE_EPOCH's stamp (a new
# commit: a new date in the version string).
$(UBOOT_RPI_BIN): $(UBOOT_RPI_BUILD)/.config $$(SDE_STAMP) FORCE
	$(Q)if [ -f $@ ] && [ -z "$$(find $(UBOOT_RPI_SRC) $(UBOOT_RPI_BUILD)/.config $(SDE_STAMP) \
		-newer $@ -print -quit)" ]; then :; else \
		echo "  UBOOT   $(patsubst $(TOP)/%,%,$@) (Debian's $(notdir $(UBOOT_RPI_SRC)), -j$(JOBS))" && \
		$(UBOOT_MAKE) -j$(JOBS) all && touch $@; fi

uboot-rpi: $(UBOOT_RPI_BIN)

.PHONY: uboot-rpi
