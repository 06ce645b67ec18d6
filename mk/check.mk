# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Booting the board: `make qemu` (interactive), `make check` (every mode of
# MODES with the on-target checks, beside the host checks, and the summary),
# `make soak` (make check's boots N times). qemu/run.sh holds the QEMU
# command line; qemu/harness.sh boots one mode with the checks;
# tools/ktap-summary.sh gives the verdict.

RESULTS := $(OUT)/results$(if $(LLVM),/$(TC))$(if $(SANITIZE),/sanitize)
# The sanitizer kernel runs several times slower under TCG: TIMEOUT bounds a
# whole boot, CASE_TIMEOUT each on-target case (run-checks' nsbsp.timeout).
TIMEOUT ?= $(if $(SANITIZE),1500,120)
CASE_TIMEOUT ?= $(if $(SANITIZE),600,60)
# A host case's bound: image_reproducible's second build takes minutes.
HOST_CASE_TIMEOUT ?= 600
# Boots and host checks make check runs at once: by default all of them,
# the sub-make's -j scheduling them. Each QEMU is one TCG thread that spends
# much of a boot waiting (USB and serial handshakes, timers), so four
# pieces on two cores finish sooner than two.
CHECK_JOBS ?= $(words host $(MODES))
# The pieces of make check from the longest to the shortest (the boot
# modes and "host"): each runs CHECK_NICE steps of niceness below the one
# before it. On a host with fewer cores than pieces the longest then runs
# as if nearly alone, and each shorter one takes what the longer ones
# leave; shared evenly, the longest would finish last, by the most.
# The first one's QEMU also preempts the others' (qemu/run.sh --sched).
# A piece not listed runs at the lowest priority; CHECK_ORDER= shares evenly.
CHECK_ORDER ?= dt rpi3 acpi uboot host
CHECK_NICE ?= 2
N ?= 50
# Host checks that declare their inputs are not run again while those are
# unchanged since they passed (common/run-checks); CHECK_CACHE=0 runs all.
CHECK_CACHE ?= 1
CHECK_CACHE_DIR := $(RESULTS)/cache
CHECK_DIRS := $(TOP)/rootfs/checks $(TOP)/rootfs/fixtures/checks
HOST_CHECK_DIR := $(TOP)/tools/host-checks
HOST_PKGS += time lava-common
CLEAN_DIRS += $(OUT)/results $(OUT)/qemu $(OUT)/soak $(OUT)/bench $(OUT)/host \
	$(OUT)/harness-selftest $(OUT)/image-selftest $(OUT)/ktap-selftest $(OUT)/work-product
# What a boot needs besides the images (host-side emulators).
BOOT_DEPS += all $(if $(filter uboot rpi3,$(MODES) $(BOOT)),image)
BOOT_ARGS = --kernel $(KIMAGE) --initrd $(INITRAMFS) --dtb $(BOARD_DTB) $(RUN_ARGS)

qemu: $$(BOOT_DEPS)
	$(Q)mkdir -p $(OUT)/qemu
	$(Q)exec sh $(TOP)/qemu/run.sh --mode $(BOOT) --qmp $(OUT)/qemu/qemu.qmp $(BOOT_ARGS) $(QEMU_RUN_ARGS)

# The verdict holds each file against the cases the check files declare for
# its mode: given exactly the files it must find.
SUMMARY = sh $(TOP)/tools/ktap-summary.sh $(addprefix --checks ,$(CHECK_DIRS)) --host-checks $(HOST_CHECK_DIR)
CHECK_FILES = host=$(RESULTS)/host.ktap $(foreach m,$(MODES),$(m)=$(RESULTS)/$(m).ktap)

# make check's exit status tells a failed check (1) from a failed rig (2:
# no boot, a timeout, missing results), as tuxrun and KCIDB tell FAIL from
# ERROR. GNU make exits 2 on any failed recipe, so a plain `make check`
# runs the suite in a sub-make while this file is read, then ends with the
# summary's status: 1 through make's question mode (the phony goal "needs
# remaking"), 2 through $$(error); the summary's line stays the last but
# for that error. The suite's output goes where this make's output goes
# (its standard output, /proc/PID/fd/1, else standard error).
ifeq ($(MAKECMDGOALS)$(NSBSP_CHECK_INNER),check)
ifeq ($(findstring n,$(firstword -$(MAKEFLAGS))),)
CHECK_STATUS := $(shell rm -f $(RESULTS)/status; \
	if (: >> /proc/$$PPID/fd/1) 2> /dev/null; then o=/proc/$$PPID/fd/1; else o=/dev/stderr; fi; \
	NSBSP_CHECK_INNER=1 $(MAKE) --no-print-directory $(MAKEOVERRIDES) check >> "$$o" 2>&1; \
	cat $(RESULTS)/status 2> /dev/null)
ifeq ($(CHECK_STATUS),1)
MAKEFLAGS += -q
else ifeq ($(CHECK_STATUS),2)
$(error make check: the rig failed (ERROR lines above))
else ifneq ($(CHECK_STATUS),0)
$(error make check: the build failed before the checks ran)
endif
endif
check: ; @:
else
check: $$(BOOT_DEPS)
	$(Q)mkdir -p $(RESULTS)
	$(Q)rm -f $(RESULTS)/*.ktap $(RESULTS)/status
	$(Q)$(MAKE) --no-print-directory -j$(CHECK_JOBS) check-host $(addprefix check-mode-,$(MODES))
	$(Q)st=0; $(SUMMARY) $(CHECK_FILES) || st=$$?; echo $$st > $(RESULTS)/status; \
		[ -n "$(NSBSP_CHECK_INNER)" ] || exit $$st
endif

# One piece of make check each; their failures are in the KTAP, so they
# never stop the others: the summary decides. The boots start once the
# images are there; what only the host checks read is made beside them, at
# the host checks' priority.
# check_place PIECE: its place in CHECK_ORDER (1 for the first), as many x.
check_place = $(call check_place_in,$(1),$(CHECK_ORDER),x)
check_place_in = $(if $(filter $(1),$(firstword $(2))),$(3),$(if $(2),$(call check_place_in,$(1),$(wordlist 2,$(words $(2)),$(2)),$(3) x),$(3)))
check_niceness = $(if $(CHECK_ORDER),$(shell expr $(words $(call check_place,$(1))) \* $(CHECK_NICE) - $(CHECK_NICE)),0)
nice_unless = nice -n $(call check_niceness,$(1))
# check_sched PIECE: its QEMU's host scheduling policy (qemu/run.sh --sched).
check_sched = $(if $(filter $(1),$(firstword $(CHECK_ORDER))),other,batch)
check-host:
	$(Q)$(call nice_unless,host) $(MAKE) --no-print-directory host-check-deps
	$(Q)echo "  HOST    checks (results in $(RESULTS)/host.ktap)"
	$(Q)rc=0; NSBSP_CHECK_TIMEOUT=$(HOST_CASE_TIMEOUT) TOP=$(TOP) OUT=$(OUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) BOARD_DTB=$(BOARD_DTB) \
		FIXTURES=$(FIXTURES) FIXTURE_STAGING=$(ROOTFS)/fixtures HOST_BIN=$(HOST_BIN) \
		$(if $(filter 1,$(CHECK_CACHE)),NSBSP_CHECK_CACHE=$(CHECK_CACHE_DIR)) \
		$(call nice_unless,host) sh $(TOP)/common/run-checks --host $(HOST_CHECK_DIR) > $(RESULTS)/host.ktap 2>&1 || rc=$$?; \
		[ $$rc -eq 0 ] || echo "  ERROR   host: run-checks exited $$rc"
	$(Q)echo "  RESULT  host: $$(grep -c '^ok ' $(RESULTS)/host.ktap) ok, $$(grep -c '^not ok ' $(RESULTS)/host.ktap) not ok$$(n=$$(grep -c '^# cached: ' $(RESULTS)/host.ktap); [ $$n -eq 0 ] || echo " ($$n of the passes cached: inputs unchanged)")"

check-mode-%:
	$(Q)$(call nice_unless,$*) sh $(TOP)/qemu/harness.sh --mode $* --timeout $(TIMEOUT) --out $(RESULTS) \
		--sched $(call check_sched,$*) $(BOOT_ARGS) --append nsbsp.timeout=$(CASE_TIMEOUT) || true

soak: $$(BOOT_DEPS)
	$(Q)sh $(TOP)/tools/soak.sh $(addprefix --checks ,$(CHECK_DIRS)) \
		$(foreach m,$(MODES),--nice $(m)=$(call check_niceness,$(m)) --sched $(m)=$(call check_sched,$(m))) \
		$(N) $(OUT)/soak "$(MODES)" -- \
		--timeout $(TIMEOUT) $(BOOT_ARGS) --append nsbsp.timeout=$(CASE_TIMEOUT)

host-check-deps: $$(HOST_CHECK_DEPS) ; @:

.PHONY: qemu check check-host host-check-deps soak
