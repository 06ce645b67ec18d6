# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Speed figures (tools/bench.sh): each the median, min and max of several
# runs, into out/bench.json and out/bench.md (the README's table).
#   RUNS=5 COLD_RUNS=1   runs per figure (a cold build takes minutes)

bench: $$(BOOT_DEPS)
	$(Q)TOP=$(TOP) OUT=$(OUT) KOUT=$(KOUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) MODES="$(MODES)" MAKE="$(MAKE)" \
		BOOT_ARGS="$(BOOT_ARGS) --append nsbsp.timeout=$(CASE_TIMEOUT)" sh $(TOP)/tools/bench.sh

.PHONY: bench
