# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# U-Boot boot script of nonstring-bsp (mkimage -T script makes boot.scr).
# U-Boot's standard distro boot finds it in the boot partition and runs it
# with devtype, devnum and distro_bootpart set.
#
# nsbsp_config    the FIT configuration to boot (virt, rpi3, rpi4). Unset:
#                 the one for this U-Boot's board (board, fdtfile); on any
#                 other board the script stops, naming nsbsp_config.
# nsbsp_bootargs  more kernel command line, e.g. "nsbsp.check=1" to run
#                 the on-target checks and power off (the test harness and
#                 the LAVA job set it; the image is the same either way).

if test -z "${nsbsp_config}"; then
	if test "${board}" = "qemu-arm"; then
		setenv nsbsp_config virt
	elif test "${fdtfile}" = "broadcom/bcm2837-rpi-3-b.dtb"; then
		setenv nsbsp_config rpi3
	elif test "${fdtfile}" = "broadcom/bcm2711-rpi-4-b.dtb"; then
		setenv nsbsp_config rpi4
	fi
fi

# The FIT's header: its images' data come after it (mkimage -E -p with
# this size, mk/image.mk reads it from here).
setenv nsbsp_fit_header 0x10000

if test -z "${nsbsp_config}"; then
	echo "nsbsp: no FIT configuration for this board (board '${board}', fdtfile '${fdtfile}'):"
	echo "nsbsp: set nsbsp_config to virt, rpi3 or rpi4 (setenv nsbsp_config rpi3; saveenv)"
else
	# The checks' boot mode (common/run-checks): QEMU virt through U-Boot
	# is "uboot", a Pi is its board.
	if test "${nsbsp_config}" = virt; then
		setenv nsbsp_mode uboot
	else
		setenv nsbsp_mode ${nsbsp_config}
	fi
	# Console: the DTB's stdout-path (no console= needed on any board).
	setenv bootargs "panic=-1 nsbsp.mode=${nsbsp_mode} nsbsp.fit_config=${nsbsp_config} ${nsbsp_bootargs}"
	# The FIT goes where the initramfs would, clear of the kernel at the
	# start of RAM and of the DTB at fdt_addr_r. Only its header and the
	# configuration's images are read, each to where it is in the file.
	setenv nsbsp_fit ${ramdisk_addr_r}
	echo "nsbsp: loading FIT configuration ${nsbsp_config} of nsbsp.itb from ${devtype} ${devnum}:${distro_bootpart}"
	load ${devtype} ${devnum}:${distro_bootpart} ${nsbsp_fit} nsbsp.itb ${nsbsp_fit_header} 0
	fdt addr ${nsbsp_fit}
	for nsbsp_kind in kernel fdt ramdisk; do
		fdt get value nsbsp_image /configurations/${nsbsp_config} ${nsbsp_kind}
		fdt get value nsbsp_pos /images/${nsbsp_image} data-position
		fdt get value nsbsp_size /images/${nsbsp_image} data-size
		setexpr nsbsp_at ${nsbsp_fit} + ${nsbsp_pos}
		echo "nsbsp: ${nsbsp_image}: ${nsbsp_size} bytes at ${nsbsp_pos}"
		load ${devtype} ${devnum}:${distro_bootpart} ${nsbsp_at} nsbsp.itb ${nsbsp_size} ${nsbsp_pos}
	done
	bootm ${nsbsp_fit}#${nsbsp_config}
	echo "nsbsp: bootm returned: the FIT was refused or is broken"
fi
