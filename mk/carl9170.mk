# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# carl9170 (AR9170) USB WiFi (drivers/net/wireless/ath/carl9170/;
# board/linux/carl9170.config). The product has the real firmware of
# Debian's firmware-linux-free and iw with its libraries; a test boot gets
# the stub from the fixture disk: dummy_hcd + raw_gadget
# (board/linux/fixtures/carl9170.config), the AR9170 model carl9170-emu
# (rootfs/fixtures/tools/carl9170-emu/, its identity in
# rootfs/fixtures/skeleton/etc/carl9170-emu.conf) plugged in by carl9170-stub,
# and the damaged firmware set of tools/carl9170-badfw.c. The checks:
# rootfs/checks/50-carl9170.sh; the model's unit test: host case
# ar9170emu_unit (tools/host-checks/carl9170-emu.sh).
#   CARL9170=VID:PID|BUS/ADDR   make qemu: pass a real stick through instead

CARL9170 ?=
TARGET_DEBS += firmware-linux-free iw libnl-3-200 libnl-genl-3-200 libc6
CARL9170_LIBS := ld-linux-aarch64.so.1 libc.so.6 libnl-3.so.200 libnl-genl-3.so.200
ROOTFS_FILES += $(DEBS)/root/lib/firmware/carl9170-1.fw=/lib/firmware/carl9170-1.fw \
	$(DEBS)/root/sbin/iw=/usr/sbin/iw \
	$(foreach l,$(CARL9170_LIBS),$(DEBS)/root/lib/aarch64-linux-gnu/$(l)=/lib/aarch64-linux-gnu/$(l)) \
	link:aarch64-linux-gnu/ld-linux-aarch64.so.1=/lib/ld-linux-aarch64.so.1
FIXTURE_PROGS += carl9170-emu
carl9170-emu_SRCS := $(wildcard $(TOP)/rootfs/fixtures/tools/carl9170-emu/*.[ch]) $(TOP)/common/log.c $(TOP)/common/log.h
carl9170-emu_CFLAGS := -pthread -I$(TOP)/common
HOST_PROGS += carl9170-badfw carl9170-emu-test
carl9170-badfw_SRCS := $(TOP)/tools/carl9170-badfw.c
carl9170-emu-test_SRCS := $(TOP)/tools/host-checks/carl9170-emu-test.c $(TOP)/common/expect.h \
	$(addprefix $(TOP)/rootfs/fixtures/tools/carl9170-emu/,carl9170-emu.h config.c device.c)
carl9170-emu-test_CFLAGS := -pthread -I$(TOP)/rootfs/fixtures/tools/carl9170-emu -I$(TOP)/common
HOST_CHECK_DEPS += $(HOST_BIN)/carl9170-emu-test
# The damaged copies of the real firmware, and the line the driver must
# log for each (expect), made by the host tool from the real file.
CARL9170_BADFW := $(OUT)/carl9170-badfw
FIXTURE_FILES += $(CARL9170_BADFW)/.=/lib/firmware/nsbsp-carl9170/
FIXTURE_DEPS += $(CARL9170_BADFW)/expect
CLEAN_DIRS += $(CARL9170_BADFW)
$(CARL9170_BADFW)/expect: $(HOST_BIN)/carl9170-badfw $(DEBS_STAMP)
	$(Q)rm -rf $(@D) && mkdir -p $(@D)
	$(Q)$(HOST_BIN)/carl9170-badfw $(DEBS)/root/lib/firmware/carl9170-1.fw $(@D)
QEMU_RUN_ARGS += $(if $(CARL9170),--carl9170 $(CARL9170))
