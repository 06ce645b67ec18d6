# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# carl9170: a real AR9170 stick passed through to the board instead of the
# stub (the AR9170 model on dummy_hcd + raw_gadget, a fixture that the
# board plugs in itself): qemu-xhci and a usb-host device, and the kernel
# argument nsbsp.carl9170=host that keeps the stub unplugged. (Sourced by
# run.sh: see its header.)
carl9170_dev=''

carl9170_usage() {
	echo "  --carl9170 DEV   pass a real AR9170 stick through (VID:PID, or BUS/ADDR of the"
	echo "                   host's lsusb) on qemu-xhci, instead of the stub"
}

carl9170_option() {
	case $1 in
	--carl9170) carl9170_dev=$2 ;;
	*) return 1 ;;
	esac
}

carl9170_qemu() {
	[ -n "$carl9170_dev" ] || return 0
	case $carl9170_dev in
	[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]:[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F])
		usbhost="vendorid=0x${carl9170_dev%:*},productid=0x${carl9170_dev#*:}" ;;
	[0-9]*/[0-9]*)
		usbhost="hostbus=${carl9170_dev%/*},hostaddr=${carl9170_dev#*/}" ;;
	*) die "--carl9170 '$carl9170_dev': want VID:PID (0cf3:9170) or BUS/ADDR (3/7)" ;;
	esac
	[ "${mode-}" != rpi3 ] || die "--carl9170: passing a stick through needs QEMU virt's PCI xHCI (modes dt, acpi, uboot)"
	karg nsbsp.carl9170=host
	qarg -device qemu-xhci,id=xhci -device "usb-host,bus=xhci.0,$usbhost"
}
