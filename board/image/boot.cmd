# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# U-Boot boot script of nonstring-bsp (mkimage -T script makes boot.scr).
# U-Boot's standard distro boot finds it in the boot partition and runs it
# with devtype, devnum and distro_bootpart set.
#
# nsbsp_config    the FIT configuration to boot (virt, rpi4). Unset: the
#                 one for this U-Boot's board; unknown board: the FIT's
#                 best match for U-Boot's own device tree.
# nsbsp_bootargs  more kernel command line, e.g. "nsbsp.check=1" to run
#                 the on-target checks and power off (the test harness and
#                 the LAVA job set it; the image is the same either way).

if test -z "${nsbsp_config}"; then
	if test "${board}" = "qemu-arm"; then
		setenv nsbsp_config virt
	elif test "${fdtfile}" = "broadcom/bcm2711-rpi-4-b.dtb"; then
		setenv nsbsp_config rpi4
	fi
fi

# Console: the DTB's stdout-path (no console= needed on any board).
setenv bootargs "panic=-1 nsbsp.mode=uboot nsbsp.fit_config=${nsbsp_config} ${nsbsp_bootargs}"

# The FIT goes where the initramfs would, clear of the kernel at the
# start of RAM and of the DTB at fdt_addr_r.
setenv nsbsp_fit ${ramdisk_addr_r}
echo "nsbsp: loading nsbsp.itb from ${devtype} ${devnum}:${distro_bootpart}, FIT configuration ${nsbsp_config}"
load ${devtype} ${devnum}:${distro_bootpart} ${nsbsp_fit} nsbsp.itb
if test -n "${nsbsp_config}"; then
	bootm ${nsbsp_fit}#${nsbsp_config}
else
	bootm ${nsbsp_fit}
fi
echo "nsbsp: bootm returned: the FIT was refused or is broken"
