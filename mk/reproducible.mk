# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Reproducible builds (docs/image.md): the same commit gives the same
# bytes wherever, whenever and by whomever it is built. make reproducible
# builds the commit a second time in another folder (tools/reproducible.sh:
# a clone that extracts and compiles the kernel itself, its objects from
# ccache, under another host name, umask, time zone and locale) and
# compares Image, initramfs, FIT, sdcard.img and its block map with this
# build's. make check's image_reproducible does the cheap part: the second
# build relinks a copy of this build's kernel objects (the version string)
# and builds everything after the kernel anew.

REPRO := $(OUT)/reproducible
CLEAN_DIRS += $(REPRO) $(OUT)/reproducible-check*
HOST_PKGS += git
export NSBSP_FIT_KEY := $(abspath $(FIT_KEY))
export NSBSP_FIT_CERT := $(abspath $(FIT_CERT))
# Another compiler's or the sanitizer's build is built the same way again.
export NSBSP_BUILD_VARS := $(strip $(if $(LLVM),LLVM=$(LLVM)) $(if $(SANITIZE),SANITIZE=$(SANITIZE)))
export NSBSP_IMG_VARIANT := $(IMG_VARIANT)

reproducible: image
	$(Q)KOUT=$(KOUT) FIT_KEY=$(abspath $(FIT_KEY)) FIT_CERT=$(abspath $(FIT_CERT)) JOBS=$(JOBS) \
		BUILD_VARS="$(NSBSP_BUILD_VARS)" IMG_VARIANT=$(IMG_VARIANT) \
		sh $(TOP)/tools/reproducible.sh $(TOP) $(REPRO)

.PHONY: reproducible
