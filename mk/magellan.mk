# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Magellan / SpaceMouse on a UART (drivers/input/joystick/magellan.c through
# serport; board/linux/magellan.config). The product has magellan-attach
# (what inputattach --magellan does) and magellan-monitor; the host plays
# the device: qemu/magellan-emu (qemu/devices/magellan.sh starts it, from
# the scenario of common/magellan/), and in a test boot the on-target check
# (rootfs/fixtures/checks/40-magellan.sh with magellan-check) asks it for
# each packet over the control port, a fixture
# (board/linux/fixtures/magellan.config).
#   MAGELLAN=/dev/ttyUSB0   make qemu: a real SpaceMouse on that port
#   MAGELLAN_FLOOD_SEED=N   make check: magellan_random_flood's seed (default fresh)

MAGELLAN ?=
MAGELLAN_FLOOD_SEED ?=
MAGELLAN_SCENARIO := $(TOP)/common/magellan/magellan.scenario
MAGELLAN_MODEL := $(addprefix $(TOP)/common/magellan/,magellan.c magellan.h scenario.c scenario.h control.h)
HOST_PROGS += magellan-emu magellan-test
magellan-emu_SRCS := $(TOP)/qemu/magellan-emu.c $(MAGELLAN_MODEL) $(TOP)/common/log.c $(TOP)/common/log.h
magellan-test_SRCS := $(TOP)/qemu/magellan-test.c $(MAGELLAN_MODEL) $(TOP)/common/expect.h
magellan-emu_CFLAGS := -I$(TOP)/common/magellan -I$(TOP)/common
magellan-test_CFLAGS := -I$(TOP)/common/magellan -I$(TOP)/common
TARGET_PROGS += magellan-attach
magellan-attach_SRCS := $(TOP)/rootfs/tools/magellan-attach.c
FIXTURE_PROGS += magellan-check
magellan-check_SRCS := $(TOP)/rootfs/fixtures/tools/magellan-check.c $(MAGELLAN_MODEL)
magellan-check_CFLAGS := -I$(TOP)/common/magellan
FIXTURE_FILES += $(MAGELLAN_SCENARIO)=/usr/lib/nsbsp/checks/magellan.scenario
HOST_CHECK_DEPS += $(HOST_BIN)/magellan-emu $(HOST_BIN)/magellan-test
BOOT_DEPS += $(HOST_BIN)/magellan-emu
RUN_ARGS += $(if $(MAGELLAN),--magellan $(MAGELLAN))
# What qemu/devices/magellan.sh needs (harness and make qemu).
export NSBSP_MAGELLAN_EMU := $(HOST_BIN)/magellan-emu
export NSBSP_MAGELLAN_SCENARIO := $(MAGELLAN_SCENARIO)
export NSBSP_MAGELLAN_FLOOD_SEED := $(MAGELLAN_FLOOD_SEED)
