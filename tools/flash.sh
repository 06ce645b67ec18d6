#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Write the SD card image to a removable disk with bmaptool, through the
# image's block map (IMAGE.bmap, bmaptool create): only the blocks that
# hold data are written, the FAT's unused clusters are not. Then read every
# mapped range back from the disk and compare it with the block map's
# SHA-256 of that range. Refuses (exit 1, nothing written) when DEV is
# missing, not a block device, a partition, smaller than the image,
# mounted, swap, holding the running system, or not removable (FORCE=1
# allows the last), or when there is no block map. Nothing outside the
# image's mapped blocks is written: the rest of the disk is left as it was.
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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

[ -r "$image" ] || die "$image: no image (run make image)"
bmap=$image.bmap
[ -r "$bmap" ] || die "$bmap: no block map (run make image)"
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

# The block map (bmaptool's format 2.0): block size, mapped blocks, and a
# "SHA256 FIRST LAST" line per range.
bmap_field() {
	sed -n "s/.*<$1> *\([0-9]*\) *<\/$1>.*/\1/p" "$bmap"
}
bs=$(bmap_field BlockSize)
mapped=$(bmap_field MappedBlocksCount)
[ "$(bmap_field ImageSize)" = "$size" ] || die "$bmap is not the block map of $image (image size $(bmap_field ImageSize), not $size): run make image"
sed -n 's/.*<Range chksum="\([0-9a-f]*\)"> *\([0-9]*\)-*\([0-9]*\) *<\/Range>.*/\1 \2 \3/p' "$bmap" > "$tmp/ranges"
if [ -z "$bs" ] || [ -z "$mapped" ] || [ ! -s "$tmp/ranges" ]; then
	die "$bmap: not a block map bmaptool wrote"
fi
written=$((mapped * bs))
[ "$written" -le "$size" ] || written=$size

if [ -z "$verify_only" ]; then
	model=$(cat "$sys/device/model" 2>/dev/null || echo "$name")
	echo "  FLASH   $image -> $dev ($(echo "$model" | sed 's/ *$//'), $((dev_size / 1048576)) MiB)"
	# bmaptool checks the block map's own checksum and each range of the
	# image as it reads it, writes the mapped blocks and syncs.
	bmaptool copy --bmap "$bmap" "$image" "$dev" || die "bmaptool could not write $dev"
	sync
	echo "  WROTE   $written of the image's $size bytes ($((written * 100 / size))%: the mapped blocks)"
fi
echo "  VERIFY  reading the $(wc -l < "$tmp/ranges") mapped ranges ($written bytes) back from $dev"
# Read past the page cache, from the device itself (when it allows it).
direct=
if [ $((bs % 512)) -eq 0 ] && dd if="$dev" of=/dev/null bs=512 count=1 iflag=direct 2> /dev/null; then
	direct=iflag=direct
fi
bad=0
while read -r want first last; do
	[ -n "$last" ] || last=$first
	# shellcheck disable=SC2086 # $direct is one word or none
	got=$(dd if="$dev" bs="$bs" skip="$first" count=$((last - first + 1)) $direct status=none | sha256sum | cut -d ' ' -f 1)
	if [ "$got" != "$want" ]; then
		echo "  BAD     blocks $first-$last of $dev (sha256 $got, the block map says $want)" >&2
		bad=$((bad + 1))
	fi
done < "$tmp/ranges"
[ $bad -eq 0 ] || die "read-back of $dev differs from $image in $bad of $(wc -l < "$tmp/ranges") ranges: the card is faulty, full or was removed"
echo "  OK      $dev matches $image in every mapped range ($(wc -l < "$tmp/ranges") ranges, the block map's SHA-256)"
