#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Write the SD card image to a removable disk, then read the disk back and
# compare checksums. Refuses (exit 1, nothing written) when DEV is missing,
# not a block device, a partition, smaller than the image, mounted, swap,
# holding the running system, or not removable (FORCE=1 allows the last).
# Only the image's own bytes are written: the rest of the disk is left as
# it was.
#
# usage: flash.sh IMAGE DEV            write, sync, read back, compare
#        flash.sh --verify IMAGE DEV   only read back and compare
# Environment: FORCE=1 (a disk that is not removable), and for the tests
# NSBSP_MOUNTS / NSBSP_SWAPS (default /proc/self/mounts, /proc/swaps).
set -eu

die() {
	echo "Error: $*" >&2
	exit 1
}

verify_only=
if [ "${1-}" = --verify ]; then
	verify_only=1
	shift
fi
[ $# -eq 2 ] || die "usage: $0 [--verify] IMAGE DEV"
image=$1 dev=$2
mounts=${NSBSP_MOUNTS:-/proc/self/mounts}
swaps=${NSBSP_SWAPS:-/proc/swaps}

[ -r "$image" ] || die "$image: no image (run make image)"
[ -n "$dev" ] || die "no device: make flash DEV=/dev/sdX (lsblk lists the disks)"
[ -e "$dev" ] || die "$dev does not exist (lsblk lists the disks)"
[ -b "$dev" ] || die "$dev is not a block device"

# The kernel's name of the disk, and of its partitions.
name=$(basename "$(readlink -f "$dev")")
sys=/sys/class/block/$name
[ -d "$sys" ] || die "$dev: no $sys, cannot tell what this device is"
[ ! -e "$sys/partition" ] || die "$dev is a partition: give the whole disk (e.g. /dev/sdb, not /dev/sdb1)"
parts=$name
for p in "$sys"/"$name"*; do
	[ -e "$p/partition" ] && parts="$parts $(basename "$p")"
done
ours() {
	b=$(basename "$(readlink -f "$1" 2>/dev/null || echo "$1")")
	for p in $parts; do [ "$b" = "$p" ] && return 0; done
	return 1
}

size=$(wc -c < "$image")
dev_size=$(($(cat "$sys/size") * 512))
[ "$size" -le "$dev_size" ] || die "$dev holds $dev_size bytes, the image needs $size"

# Mounted, swap, or the running system: never, FORCE or not.
while read -r src mnt _; do
	case $src in /dev/*) ;; *) continue ;; esac
	ours "$src" || continue
	case $mnt in
	/ | /boot | /boot/* | /usr | /var | /home) die "$dev holds the running system ($src on $mnt)" ;;
	*) die "$dev is mounted ($src on $mnt): unmount it first" ;;
	esac
done < "$mounts"
while read -r src _; do
	case $src in /dev/*) ours "$src" && die "$dev is in use as swap ($src)" ;; esac
done < "$swaps"
# The root file system's own disk, even when the mount table names it
# differently (by label, via device mapper...).
root_dev=$(stat -c '%Hd:%Ld' / 2>/dev/null || true)
if [ -n "$root_dev" ] && [ -e "/sys/dev/block/$root_dev" ]; then
	root=$(basename "$(readlink -f "/sys/dev/block/$root_dev")")
	for p in $parts; do [ "$p" = "$root" ] && die "$dev holds the running system (/ is on $root)"; done
fi

removable=$(cat "$sys/removable" 2>/dev/null || echo 0)
case $(readlink -f "$sys") in */usb*) removable=1 ;; esac
[ "$(cat "$sys/device/type" 2>/dev/null || true)" = SD ] && removable=1
if [ "$removable" != 1 ] && [ "${FORCE-}" != 1 ]; then
	die "$dev is not a removable disk (an internal disk?); if you are sure, FORCE=1"
fi

sum() {
	sha256sum | cut -d ' ' -f 1
}

if [ -z "$verify_only" ]; then
	model=$(cat "$sys/device/model" 2>/dev/null || echo "$name")
	echo "  FLASH   $image -> $dev ($(echo "$model" | sed 's/ *$//'), $((dev_size / 1048576)) MiB)"
	# The image's bytes only; conv=fsync flushes them to the card.
	dd if="$image" of="$dev" bs=4M conv=fsync,notrunc status=progress
	sync
fi
want=$(sum < "$image")
echo "  VERIFY  reading $size bytes back from $dev"
# Read past the page cache, from the device itself (when it allows it).
if [ $((size % 512)) -eq 0 ] && dd if="$dev" of=/dev/null bs=512 count=1 iflag=direct 2> /dev/null; then
	got=$(dd if="$dev" bs=4M iflag=direct,count_bytes count="$size" status=none | sum)
else
	got=$(dd if="$dev" bs=4M iflag=count_bytes count="$size" status=none | sum)
fi
[ "$got" = "$want" ] || die "read-back of $dev differs from $image (sha256 $got, want $want): the card is faulty, full or was removed"
echo "  OK      $dev matches $image (sha256 $want)"
