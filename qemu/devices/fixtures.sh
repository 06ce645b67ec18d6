# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# The fixture disk of a test boot (out/images/fixtures.img, mk/fixtures.mk):
# what the board needs to be tested but must not ship with (the emulated I2C
# bus, dummy_hcd and raw_gadget with the AR9170 model, KUnit, the checks'
# control port, the checks that need them), read-only as a virtio disk (a
# USB stick on the Pi 3, which has no virtio), and nsbsp.fixtures=1, on
# which the board mounts it and starts them
# (rootfs/skeleton/etc/init.d/S05fixtures). (Sourced by run.sh.)
fixtures_img=''

fixtures_usage() {
	echo "  --fixtures FILE  attach the fixture disk FILE (read-only) and have the board use it"
}

fixtures_option() {
	case $1 in
	--fixtures) fixtures_img=$2 ;;
	*) return 1 ;;
	esac
	case $2 in *,*) die "$2: QEMU options cannot take a path with a comma" ;; esac
}

fixtures_qemu() {
	[ -n "$fixtures_img" ] || return 0
	[ -r "$fixtures_img" ] || die "$fixtures_img: not readable (run make first)"
	karg nsbsp.fixtures=1
	qarg -drive "file=$fixtures_img,if=none,format=raw,readonly=on,id=nsbsp-fixtures"
	case ${mode-} in
	rpi3) qarg -device usb-storage,drive=nsbsp-fixtures ;;
	*) qarg -device virtio-blk-device,drive=nsbsp-fixtures ;;
	esac
}
