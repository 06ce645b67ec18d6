#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: boot_dt dt,uboot
# case: boot_rpi3 rpi3
#
# Boot checks. Each board's compatible and model are in
# /etc/nsbsp/board/CONFIG (CONFIG: its FIT configuration; taken with fdtget
# from the board DTBs of the build, dts/).
# boot_dt: the kernel booted with the board's device tree: the live DT's
#   compatible and model are QEMU virt's board's (dts/nsbsp-board.dtso).
# boot_rpi3: the kernel booted on a Raspberry Pi 3 B through U-Boot's
#   verified FIT, configuration rpi3 (uboot_boot checks the verification):
#   the live DT is the rpi3 board's (bcm2837-rpi-3-b.dtb + dts/rpi3/), and
#   the SoC drivers the board cannot run without are bound to their nodes:
#   the firmware mailbox, the SD card controller, the console UART
#   (mini-UART) and the watchdog, which also powers the board off.
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

# board_is CONFIG: the live DT is that board's, and the kernel said so.
board_is() {
	[ -d /proc/device-tree ] || fail "no device tree: /proc/device-tree is missing"
	want=/etc/nsbsp/board/$1
	want_compat=$(sed -n 's/^compatible=//p' "$want") || fail "no $want"
	want_model=$(sed -n 's/^model=//p' "$want")
	[ -n "$want_model" ] || fail "no model in $want"
	got_compat=$(tr '\0' ' ' < /proc/device-tree/compatible | sed 's/ *$//')
	got_model=$(tr -d '\0' < /proc/device-tree/model)
	echo "compatible: $got_compat"
	echo "model: $got_model"
	[ "$got_compat" = "$want_compat" ] || fail "compatible is not the $1 board's ($want_compat)"
	[ "$got_model" = "$want_model" ] || fail "model is not the $1 board's ($want_model)"
	klog_has "Machine model: $want_model" || fail "the kernel did not log 'Machine model: $want_model'"
}

# bound WHAT COMPATIBLE: the platform device of the DT node with that
# compatible has a driver.
bound() {
	for dev in /sys/bus/platform/devices/*; do
		[ -r "$dev/of_node/compatible" ] || continue
		tr '\0' '\n' < "$dev/of_node/compatible" | grep -qx -- "$2" || continue
		[ -e "$dev/driver" ] || fail "$1 ${dev##*/}: no driver bound"
		echo "$1 ${dev##*/}: $(basename "$(readlink "$dev/driver")")"
		return 0
	done
	fail "$1: no device with compatible $2"
}

case $1 in
boot_dt)
	board_is virt
	;;
boot_rpi3)
	board_is rpi3
	read -r cmdline < /proc/cmdline
	case " $cmdline " in
	*" nsbsp.fit_config=rpi3 "*) ;;
	*) fail "not booted through the FIT's rpi3 configuration (command line: $cmdline)" ;;
	esac
	[ -r /proc/device-tree/chosen/u-boot,version ] || fail "no /chosen/u-boot,version: U-Boot did not start this kernel"
	echo "U-Boot: $(tr -d '\0' < /proc/device-tree/chosen/u-boot,version)"
	bound "firmware mailbox" brcm,bcm2835-mbox
	bound "SD card controller" brcm,bcm2835-sdhost
	bound "console UART" brcm,bcm2835-aux-uart
	# The watchdog is a function of the power manager's node (an MFD):
	# its own platform device has no DT node of its own.
	bound "power manager" brcm,bcm2835-pm
	wdt=
	for d in /sys/bus/platform/drivers/bcm2835-wdt/*; do
		# A bound device is a link there, as is the driver's module.
		[ -L "$d" ] && [ "${d##*/}" != module ] && { wdt=${d##*/}; break; }
	done
	[ -n "$wdt" ] || fail "watchdog: no device bound to bcm2835-wdt"
	echo "watchdog $wdt: bcm2835-wdt"
	[ -c /dev/watchdog0 ] || fail "watchdog: no /dev/watchdog0"
	;;
*)
	fail "10-boot.sh: unknown case $1"
	;;
esac
