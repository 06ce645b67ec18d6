# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The flashable image, out/images/sdcard.img (board/image/genimage.cfg): one
# FAT partition with the signed FIT (board/image/nsbsp.its: the kernel, the
# product initramfs, a DTB and a configuration per board) and boot.scr
# (board/image/boot.cmd), which U-Boot's distro boot finds; for the
# Raspberry Pis also config.txt, their U-Boot (mk/uboot.mk) and the DTBs
# the Pi firmware hands it, which hold the FIT's public key. The uboot boot
# mode boots exactly this image in QEMU virt through Debian's U-Boot, the
# rpi3 mode on QEMU raspi3b through the Pi's; make flash
# writes it to a card with bmaptool, through its block map
# (sdcard.img.bmap): only the blocks that hold data, each range checked.
# The same commit gives the same bytes (SOURCE_DATE_EPOCH, fixed volume ID
# and disk signature; make reproducible, docs/image.md).
#   FIT_KEY=.. FIT_CERT=..   sign with this RSA key and certificate (PEM);
#                            default: a development key made in out/keys/
#   DEV=/dev/sdX [FORCE=1]   make flash: the card (FORCE: not removable)

HOST_PKGS += genimage dosfstools mtools u-boot-tools u-boot-qemu openssl bmap-tools
IMG_VARIANT := $(OUT_VARIANT)
SDCARD_IMG := $(IMAGES)/sdcard$(IMG_VARIANT).img
SDCARD_BMAP := $(SDCARD_IMG).bmap
# Where each file of the boot partition comes from ("NAME<TAB>SOURCE",
# for make legal-info); SDCARD_FILES: SOURCE=NAME, genimage.cfg names them.
SDCARD_ORIGINS := $(IMAGES)/sdcard$(IMG_VARIANT).origins
SDCARD_FILES = $(FIT)=nsbsp.itb $(BOOT_SCR)=boot.scr $(TOP)/board/image/boot.cmd=boot.cmd \
	$(TOP)/board/image/config.txt=config.txt $(UBOOT_RPI_BIN)=u-boot.bin \
	$(foreach b,$(RPI_BOARDS),$(UBOOT_DTB_$(b))=$(notdir $(RPI$(b:rpi%=%)_DTB_SRC)))
FIT := $(IMAGES)/nsbsp$(IMG_VARIANT).itb
FIT_STAGE := $(IMAGES)/fit$(IMG_VARIANT)
BOOT_SCR := $(IMAGES)/boot.scr
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
# The DTBs the Pi firmware loads from the card for U-Boot (config.txt's
# device_tree): the kernel's, with the public key; beside the kernel's
# output, whose they are.
UBOOT_DTB_rpi3 := $(KOUT)/nsbsp-fit-key/$(notdir $(RPI3_DTB_SRC))
UBOOT_DTB_rpi4 := $(KOUT)/nsbsp-fit-key/$(notdir $(RPI4_DTB_SRC))
# The FIT's header size (mkimage -p), which boot.scr reads first.
FIT_HEADER := $(shell sed -n 's/^setenv nsbsp_fit_header //p' $(TOP)/board/image/boot.cmd)
RUN_ARGS += --image $(SDCARD_IMG) --uboot-bin $(UBOOT_BIN) --uboot-dtb $(UBOOT_DTB) \
	--rpi-uboot-bin $(UBOOT_RPI_BIN) --rpi3-uboot-dtb $(UBOOT_DTB_rpi3)
HOST_CHECK_DEPS += image
# What the host checks read of this build's image (another compiler's or
# the sanitizer's has other names).
export NSBSP_SDCARD := $(SDCARD_IMG)
export NSBSP_UBOOT_DTB := $(UBOOT_DTB)
export NSBSP_FIT_STAGE := $(FIT_STAGE)
export NSBSP_FIT := $(FIT)
export NSBSP_BOOT_SCR := $(BOOT_SCR)

# What records SOURCE_DATE_EPOCH (boot.scr's and the FIT's timestamps, the
# FAT's file times) is made again when it changes, as after a new commit.
SDE_STAMP := $(IMAGES)/source-date-epoch
$(SDE_STAMP): FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(SOURCE_DATE_EPOCH)" | cmp -s - $@ || echo "$(SOURCE_DATE_EPOCH)" > $@

$(KEYS)/nsbsp-dev.key: | deps
	@echo "  KEY     $@ (development key: never use it for a product)"
	$(Q)mkdir -p $(@D)
	$(Q)(umask 077 && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out $@.tmp 2> /dev/null) && mv $@.tmp $@

$(KEYS)/nsbsp-dev.crt: $(KEYS)/nsbsp-dev.key
	$(Q)openssl req -batch -new -x509 -days 3650 -key $< -out $@ \
		-subj "/CN=nonstring-bsp development key (not for production)"

# Which key signs: another FIT_KEY/FIT_CERT re-signs, even an older one.
$(IMAGES)/fit-key$(IMG_VARIANT).list: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo "$(abspath $(FIT_KEY)) $(abspath $(FIT_CERT))" | cmp -s - $@ || echo "$(abspath $(FIT_KEY)) $(abspath $(FIT_CERT))" > $@

# The FIT's compressed payloads; gzip -n: no name, no time in them (the
# kernel's as kbuild's own Image.gz target makes it, beside the Image).
$(KIMAGE).gz: $(KIMAGE)
	$(Q)gzip -n -9 -c $< > $@.tmp && mv $@.tmp $@
$(INITRAMFS).gz: $(INITRAMFS)
	$(Q)gzip -n -9 -c $< > $@.tmp && mv $@.tmp $@

# mkimage signs every configuration and writes the public key into a copy
# of each U-Boot's DT (-K, -r: required): QEMU virt's, and the Pis' (the
# kernel's DTBs, which the Pi firmware hands U-Boot); one mkimage run per
# DT, each giving the same FIT. The .its names the files of FIT_STAGE,
# links to the build output. -E -p: the images' data after a header of
# FIT_HEADER bytes. Deterministic: SOURCE_DATE_EPOCH.
FIT_UBOOT_DTBS := $(DT)/qemu-virt-uboot.dtb=$(UBOOT_DTB) \
	$(foreach b,$(RPI_BOARDS),$(KOUT)/arch/arm64/boot/dts/$(RPI$(b:rpi%=%)_DTB_SRC)=$(UBOOT_DTB_$(b)))
$(UBOOT_DTB) $(foreach b,$(RPI_BOARDS),$(UBOOT_DTB_$(b))): $(FIT) ;
$(FIT): $(TOP)/board/image/nsbsp.its $(KIMAGE) $(KIMAGE).gz $(INITRAMFS).gz \
		$(VIRT_DTB) $(RPI3_DTB) $(RPI4_DTB) $(foreach f,$(FIT_UBOOT_DTBS),$(firstword $(subst =, ,$(f)))) \
		$(TOP)/board/image/boot.cmd $(FIT_KEY) $(FIT_CERT) $(IMAGES)/fit-key$(IMG_VARIANT).list $(SDE_STAMP)
	@echo "  FIT     $(notdir $@) (signed with $(FIT_KEY))"
	$(Q)[ "$$(openssl pkey -in $(FIT_KEY) -pubout 2> /dev/null)" = "$$(openssl x509 -in $(FIT_CERT) -noout -pubkey 2> /dev/null)" ] || \
		{ echo "Error: FIT_CERT=$(FIT_CERT) is not the certificate of FIT_KEY=$(FIT_KEY)" >&2; exit 1; }
	$(Q)rm -rf $(FIT_STAGE) && mkdir -p $(FIT_STAGE)/keys
	$(Q)ln -s $(KIMAGE) $(FIT_STAGE)/Image
	$(Q)ln -s $(KIMAGE).gz $(FIT_STAGE)/Image.gz
	$(Q)ln -s $(INITRAMFS).gz $(FIT_STAGE)/initramfs.cpio.gz
	$(Q)ln -s $(VIRT_DTB) $(FIT_STAGE)/nsbsp-virt.dtb
	$(Q)$(foreach b,$(RPI_BOARDS),ln -s $(RPI$(b:rpi%=%)_DTB) $(FIT_STAGE)/nsbsp-$(b).dtb &&) :
	$(Q)ln -s $(abspath $(FIT_KEY)) $(FIT_STAGE)/keys/nsbsp.key
	$(Q)ln -s $(abspath $(FIT_CERT)) $(FIT_STAGE)/keys/nsbsp.crt
	$(Q)cp $(TOP)/board/image/nsbsp.its $(FIT_STAGE)/
	$(Q)cd $(FIT_STAGE) && for f in $(FIT_UBOOT_DTBS); do \
		cp "$${f%%=*}" u-boot.dtb && rm -f nsbsp.itb && \
		SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) mkimage -f nsbsp.its -E -p $(FIT_HEADER) -k keys \
			-K u-boot.dtb -r nsbsp.itb > mkimage.log 2>&1 || { cat mkimage.log >&2; exit 1; }; \
		if [ -f first.itb ]; then cmp -s first.itb nsbsp.itb || \
			{ echo "Error: mkimage gave another FIT for $${f#*=}" >&2; exit 1; }; \
		else mv nsbsp.itb first.itb; fi; \
		mkdir -p "$$(dirname "$${f#*=}")" && mv u-boot.dtb "$${f#*=}"; done
	$(Q)mv $(FIT_STAGE)/first.itb $@

$(BOOT_SCR): $(TOP)/board/image/boot.cmd $(SDE_STAMP) | deps
	$(Q)mkdir -p $(@D)
	$(Q)SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) mkimage -q -A arm64 -O linux -T script -C none \
		-n "nonstring-bsp boot script" -d $< $@ > /dev/null

# FAT records its files' times in local time: genimage runs in UTC, so the
# time zone of the build is not in the image.
$(SDCARD_IMG): $(TOP)/board/image/genimage.cfg $(foreach f,$(SDCARD_FILES),$(firstword $(subst =, ,$(f)))) $(SDE_STAMP)
	$(Q)rm -rf $(IMAGES)/genimage && mkdir -p $(IMAGES)/genimage/in $(IMAGES)/genimage/root
	$(Q)for f in $(SDCARD_FILES); do cp "$${f%%=*}" "$(IMAGES)/genimage/in/$${f#*=}" && \
		printf '/%s\t%s\n' "$${f#*=}" "$${f%%=*}"; done > $(SDCARD_ORIGINS)
	$(Q)touch -d @$(SOURCE_DATE_EPOCH) $(IMAGES)/genimage/in/*
	$(Q)TZ=UTC SOURCE_DATE_EPOCH=$(SOURCE_DATE_EPOCH) genimage --config $< --inputpath $(IMAGES)/genimage/in \
		--rootpath $(IMAGES)/genimage/root --tmppath $(IMAGES)/genimage/tmp \
		--outputpath $(IMAGES)/genimage/out > $(IMAGES)/genimage/log 2>&1 || \
		{ cat $(IMAGES)/genimage/log >&2; exit 1; }
	$(Q)mv $(IMAGES)/genimage/out/sdcard.img $@
	$(Q)rm -rf $(IMAGES)/genimage
	@echo "  IMAGE   $@ ($$(($$(wc -c < $@) / 1048576)) MiB)"

# The block map of the image's holes as genimage left them: the FAT's
# unused clusters are never written. Never dig holes into it: a zeroed
# FAT is data the card must get.
$(SDCARD_BMAP): $(SDCARD_IMG)
	$(Q)bmaptool -q create -o $@.tmp $< && mv $@.tmp $@
	@echo "  BMAP    $(notdir $@) ($$(sed -n 's,^ *<MappedBlocksCount> *\([0-9]*\) *</.*,\1,p' $@) of $$(sed -n 's,^ *<BlocksCount> *\([0-9]*\) *</.*,\1,p' $@) blocks mapped)"

image: $(SDCARD_IMG) $(SDCARD_BMAP)

# make flash DEV=/dev/sdX [FORCE=1]: tools/flash.sh refuses anything but a
# removable, unmounted disk that does not hold this system.
ifneq ($(filter flash,$(MAKECMDGOALS)),)
ifeq ($(DEV),)
$(error make flash needs DEV=/dev/sdX (the SD card or eMMC to overwrite; lsblk lists them))
endif
endif
flash: $(SDCARD_IMG) $(SDCARD_BMAP)
	$(Q)FORCE=$(FORCE) sh $(TOP)/tools/flash.sh $(SDCARD_IMG) $(DEV)

.PHONY: image flash
