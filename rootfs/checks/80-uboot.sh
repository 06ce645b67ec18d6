#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: uboot_boot uboot,rpi3,rpi4
#
# uboot_boot: the kernel was started by U-Boot from the image's FIT
# (board/image/nsbsp.its, booted by board/image/boot.cmd). This is the
# kernel's half: U-Boot fixed up the device tree (/chosen/u-boot,version),
# handed over the initramfs (/chosen/linux,initrd-*), and boot.scr put the
# FIT configuration's name on the command line (nsbsp.fit_config=). The
# console's half (U-Boot found boot.scr, loaded that configuration,
# verified its signature, started the kernel) is
# qemu/log-checks/uboot_boot.sh, run by the host harness on the log: the
# case passes only if both do.
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

chosen=/proc/device-tree/chosen

case $1 in
uboot_boot)
	read -r cmdline < /proc/cmdline
	echo "kernel command line: $cmdline"
	config=
	for arg in $cmdline; do
		case $arg in nsbsp.fit_config=*) config=${arg#nsbsp.fit_config=} ;; esac
	done
	[ -n "$config" ] || fail "no nsbsp.fit_config= on the command line: boot.scr did not start this kernel"
	echo "FIT configuration: $config"
	[ -r "$chosen/u-boot,version" ] || fail "no $chosen/u-boot,version: U-Boot did not hand over this device tree"
	echo "U-Boot: $(tr -d '\0' < "$chosen/u-boot,version")"
	[ -r "$chosen/linux,initrd-start" ] || fail "no $chosen/linux,initrd-start: the initramfs did not come from U-Boot"
	# The configuration's DTB is its board's: its model is what the
	# build derived from it (the same as boot_dt and boot_rpi3 check).
	want_model=$(sed -n 's/^model=//p' "/etc/nsbsp/board/$config") || fail "no /etc/nsbsp/board/$config"
	got_model=$(tr -d '\0' < /proc/device-tree/model)
	[ "$got_model" = "$want_model" ] || fail "model '$got_model' is not the board's ($want_model)"
	echo "device tree: $got_model"
	;;
*)
	fail "80-uboot.sh: unknown case $1"
	;;
esac
