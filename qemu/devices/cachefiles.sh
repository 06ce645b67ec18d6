# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# cachefiles: the 9p share the board caches with fscache, and the ext4 disk
# it caches on. virtio-mmio devices, which QEMU describes in its DT and in
# its ACPI DSDT alike, so every QEMU virt boot mode has them; the Pi 3
# (raspi3b) has neither virtio nor a network, so it gets neither (its
# cachefiles cases skip, saying so). A check boot writes the
# cache disk to a throw-away overlay, so checks never change it; `make
# qemu` keeps what it cached. (Sourced by run.sh: see its header.)
cachefiles_share='' cachefiles_disk=''

cachefiles_usage() {
	echo "  --cachefiles-share DIR   export DIR over virtio-9p (mount tag nsbsp-share)"
	echo "  --cachefiles-disk FILE   attach FILE (the ext4 cache disk) as virtio-blk"
}

cachefiles_option() {
	case $1 in
	--cachefiles-share) cachefiles_share=$2 ;;
	--cachefiles-disk) cachefiles_disk=$2 ;;
	*) return 1 ;;
	esac
	case $2 in *,*) die "$2: QEMU options cannot take a path with a comma" ;; esac
}

cachefiles_qemu() {
	[ "${mode-}" != rpi3 ] || return 0
	if [ -n "$cachefiles_share" ]; then
		[ -d "$cachefiles_share" ] || die "$cachefiles_share: not a folder (run make first)"
		qarg -fsdev "local,id=nsbsp-share,path=$cachefiles_share,security_model=none,readonly=on" \
			-device virtio-9p-device,fsdev=nsbsp-share,mount_tag=nsbsp-share
	fi
	if [ -n "$cachefiles_disk" ]; then
		[ -r "$cachefiles_disk" ] || die "$cachefiles_disk: not readable (run make first)"
		qarg -drive "file=$cachefiles_disk,if=none,format=raw,id=nsbsp-cache${check:+,snapshot=on}" \
			-device virtio-blk-device,drive=nsbsp-cache
	fi
}
