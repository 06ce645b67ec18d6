# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Speed figures (tools/bench.sh): each the median, min and max of several
# runs, into out/bench.json and out/bench.md (the README's table).
#   RUNS=5 COLD_RUNS=1   runs per figure (a cold build takes minutes)
#   BASELINE=REV         that revision's warm make check too, run for run
#   LAVA=1               make lava's jobs beside the harness's boots
#   FRESH=1              make check on a fresh Debian 12 chroot (debootstrap)
#   FIGURES="noop check" the groups to measure (default all: cold noop
#                        edit boot check); the image sizes are always there
BASELINE ?=
FIGURES ?=
LAVA ?=
FRESH ?=
HOST_PKGS += $(if $(filter 1,$(FRESH)),debootstrap)

bench: $$(BOOT_DEPS) deps
	$(Q)TOP=$(TOP) OUT=$(OUT) KOUT=$(KOUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) MODES="$(MODES)" MAKE="$(MAKE)" \
		BASELINE=$(BASELINE) LAVA=$(LAVA) FRESH=$(FRESH) FIGURES="$(FIGURES)" \
		BOOT_ARGS="$(BOOT_ARGS) --append nsbsp.timeout=$(CASE_TIMEOUT)" sh $(TOP)/tools/bench.sh

.PHONY: bench

# The README's figures table is out/bench.md as make bench last wrote it.
bench-readme:
	$(Q)sh $(TOP)/tools/bench-readme.sh $(OUT)/bench.md $(TOP)/README.md

.PHONY: bench-readme
