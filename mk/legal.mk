# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Licence compliance of sdcard.img (docs/legal.md), as Buildroot's
# legal-info: tools/legal-info.py reads the image as built, and the build's
# records of where each of its files came from, into out/legal-info/:
# manifest.csv (a line per component: name, version, licence, licence
# files, Debian source package, where the source is), files.csv (every
# file of the image and its component), the licence texts, and
# sbom.spdx.json (SPDX 2.3, checked against the official JSON schema in
# board/legal/). make legal-info adds sources/: the repository's own
# sources, the kernel's tarball with the series and configuration, and
# the Debian source packages of the .debs (apt-get source with its own
# state in out/legal-apt/, kept between runs).
#   board/legal/licences   the licence of a Debian package whose copyright
#                          file is not machine-readable

LEGAL := $(OUT)/legal-info$(IMG_VARIANT)
LEGAL_APT := $(OUT)/legal-apt
LEGAL_SCHEMA := $(TOP)/board/legal/spdx-schema-2.3.json
HOST_PKGS += reuse python3-jsonschema mtools u-boot-tools dpkg-dev
CLEAN_DIRS += $(LEGAL) $(OUT)/legal-selftest
HOST_CHECK_DEPS += sbom
export NSBSP_LEGAL := $(LEGAL)
export NSBSP_LEGAL_SCHEMA := $(LEGAL_SCHEMA)

comma := ,
LEGAL_ARGS = --out $(LEGAL) --top $(TOP) --build-out $(OUT) \
	--sdcard $(SDCARD_IMG) --sdcard-origins $(SDCARD_ORIGINS) \
	--origins $(ROOTFS)/staging.origins --fit-stage $(FIT_STAGE) \
	--debs $(DEBS) --ksrc $(KSRC) --kout $(KOUT) --ktarball $(KTARBALL) --kpatches $(KPATCHES) \
	--target-bin $(TARGET_BIN) --target-cc $(TARGET_CC) \
	$(foreach p,$(TARGET_PROGS),--prog $(p)=$(subst $(space),$(comma),$(strip $($(p)_SRCS)))) \
	--licences $(TOP)/board/legal/licences --schema $(LEGAL_SCHEMA) --sde $(SOURCE_DATE_EPOCH) \
	--uboot $(UBOOT_RPI_SRC)=$(UBOOT_RPI_BUILD)

# The SBOM is made anew (a few seconds of CPU, in every make check) unless
# the stamp holds the same command line and nothing it reads is newer: the
# image and the records of where its files came from, the kernel build
# (its stamp), the kernel tarball, the .debs, and every file of the
# repository (reuse reads their licence headers).
SBOM_STAMP := $(LEGAL)/.sbom-built
SBOM_INPUTS = $(SDCARD_IMG) $(SDCARD_ORIGINS) $(ROOTFS)/staging.origins $(FIT_STAGE) \
	$(KSTAMP) $(KTARBALL) $(DEBS) $(UBOOT_RPI_BUILD)/u-boot.bin
sbom_current = [ -f $(LEGAL)/sbom.spdx.json ] && $(call kbuild_current,$(LEGAL_ARGS),$(SBOM_STAMP),$(SBOM_INPUTS)) && \
	[ -z "$$(find $(TOP) \( -path $(OUT) -o -path $(TOP)/.git \) -prune -o -newer $(SBOM_STAMP) -print -quit)" ]
sbom: $(SDCARD_IMG) | deps
	$(Q)if $(sbom_current); then echo "  LEGAL   $(LEGAL)/ current (nothing it reads changed)"; else \
		rm -f $(SBOM_STAMP) && python3 $(TOP)/tools/legal-info.py $(LEGAL_ARGS) && \
		echo '$(LEGAL_ARGS)' > $(SBOM_STAMP); fi

legal-info: $(SDCARD_IMG) | deps
	$(Q)rm -f $(SBOM_STAMP)
	$(Q)python3 $(TOP)/tools/legal-info.py $(LEGAL_ARGS) --sources --apt-state $(LEGAL_APT)
	@echo "  LEGAL   $(LEGAL)/ (manifest.csv, sbom.spdx.json, licences/, sources/)"

.PHONY: sbom legal-info
