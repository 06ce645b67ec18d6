# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# LAVA: the board's tests in LAVA's own dispatcher (docs/lava.md). make lava
# runs the jobs of board/lava/ that need no lab (qemu-dt.yaml,
# qemu-uboot.yaml) with Debian's lava-run, offline (no server, no network),
# on the device types of board/lava/devices/, and holds their results
# against the harness's: the host case lava_run_qemu
# (tools/host-checks/lava-run.sh), of mode lava so that make check leaves
# it out, judged by the summary like make check's. KTAP in
# out/results/lava.ktap; jobs, devices and logs in out/lava/work/.
# Debian's lava-dispatcher (about 150 packages) is installed by make lava
# only, never by make deps (lava-common, for lava_job_schema, is in
# HOST_PKGS).
#   LAVA_TIMEOUT=900   seconds the whole case may take (each boot in it: TIMEOUT)

LAVA_PKGS := lava-dispatcher
LAVA_TIMEOUT ?= 900
CLEAN_DIRS += $(OUT)/lava

lava: $$(BOOT_DEPS) image
	$(if $(OUT_VARIANT),$(error make lava: not with SANITIZE=1 or LLVM= (its devices boot the default build of out/images/)))
	$(Q)sh $(TOP)/tools/deps.sh $(LAVA_PKGS)
	$(Q)mkdir -p $(RESULTS) $(OUT)/lava
	$(Q)echo "  LAVA    lava_run_qemu (results in $(RESULTS)/lava.ktap, jobs and logs in $(OUT)/lava/work/)"
	$(Q)rc=0; TOP=$(TOP) OUT=$(OUT) KIMAGE=$(KIMAGE) INITRAMFS=$(INITRAMFS) BOARD_DTB=$(BOARD_DTB) \
		NSBSP_RUN_ARGS='$(RUN_ARGS)' NSBSP_LAVA_TIMEOUT=$(TIMEOUT) NSBSP_CHECK_TIMEOUT=$(LAVA_TIMEOUT) \
		sh $(TOP)/common/run-checks --host $(HOST_CHECK_DIR) --mode lava > $(RESULTS)/lava.ktap 2>&1 || rc=$$?; \
		[ $$rc -eq 0 ] || echo "  ERROR   lava: run-checks exited $$rc"
	$(Q)grep -v -e '^KTAP version' -e '^1\.\.' $(RESULTS)/lava.ktap || true
	$(Q)$(SUMMARY) lava=$(RESULTS)/lava.ktap

.PHONY: lava
