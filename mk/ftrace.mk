# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# ftrace: the .ustring event filter (kernel-patches/0005;
# board/linux/ftrace.config), checked on the board by the kernel's own
# ftracetest from the patched tree (rootfs/checks/20-ftrace.sh).
ROOTFS_FILES += $(KSRC)/tools/testing/selftests/ftrace/.=/usr/lib/nsbsp/ftrace/
