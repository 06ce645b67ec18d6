# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The fixture disk of a test boot, out/images/fixtures.img: everything the
# board needs to be tested but must not ship with. Every kernel module (the
# product kernel is monolithic: each =m, board/linux/fixtures/*.config, is
# a fixture), the fixtures' start scripts and files
# (rootfs/fixtures/skeleton/), the checks that need them
# (rootfs/fixtures/checks/), the fixture tools (FIXTURE_PROGS) and what the
# devices add (FIXTURE_FILES). An ext4 image (tools/mkfixtures.sh) that the
# test boots attach read-only (qemu/devices/fixtures.sh); the product
# initramfs mounts it only when the kernel command line has
# nsbsp.fixtures=1 (rootfs/skeleton/etc/init.d/S05fixtures).

FIXTURES := $(IMAGES)/fixtures$(OUT_VARIANT).img
FIXTURE_FILES += $(TOP)/rootfs/fixtures/skeleton/.=/ \
	$(ROOTFS)/modules/lib/modules/.=/lib/modules/ \
	$(foreach f,$(wildcard $(TOP)/rootfs/fixtures/checks/*.sh),$(f)=/usr/lib/nsbsp/checks/$(notdir $(f))) \
	$(foreach p,$(FIXTURE_PROGS),$(TARGET_BIN)/$(p)=/usr/bin/$(p))
ALL += $(FIXTURES)
RUN_ARGS += --fixtures $(FIXTURES)

# Made on every run from what kbuild installs (without its links to the
# build and source trees); replaced only when a file changed.
# The kernel's modules, installed again after each kernel build.
$(ROOTFS)/modules.stamp: $(KSTAMP)
	$(Q)rm -rf $(ROOTFS)/modules
	$(Q)$(KMAKE) -s INSTALL_MOD_PATH=$(ROOTFS)/modules modules_install > /dev/null
	$(Q)mkdir -p $(ROOTFS)/modules/lib/modules
	$(Q)rm -f $(ROOTFS)/modules/lib/modules/*/build $(ROOTFS)/modules/lib/modules/*/source
	$(Q)touch $@

# mkfixtures.sh knows whether any of FIXTURE_FILES changed (FORCE: they
# are folders and files of every device, not make's prerequisites).
$(FIXTURES): $(ROOTFS)/modules.stamp $$(addprefix $(TARGET_BIN)/,$$(FIXTURE_PROGS)) $$(FIXTURE_DEPS) FORCE | deps
	$(Q)sh $(TOP)/tools/mkfixtures.sh $@ $(ROOTFS)/fixtures $(FIXTURE_FILES)

fixtures: $(FIXTURES)

.PHONY: fixtures
