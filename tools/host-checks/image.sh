#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: uboot_tamper_refused host
# case: flash_refuses host
# case: flash_verify host
# inputs: $TOP/tools/flash.sh $TOP/qemu $NSBSP_SDCARD $NSBSP_SDCARD.bmap $NSBSP_UBOOT_DTB
# inputs: $NSBSP_FIT_STAGE $NSBSP_FIT $NSBSP_BOOT_SCR /usr/lib/u-boot/qemu_arm64/u-boot.bin
# inputs: /usr/bin/qemu-system-aarch64 /usr/bin/mkimage /usr/bin/dumpimage /usr/bin/openssl
# inputs: /usr/bin/bmaptool /sbin/fsck.fat /usr/bin/mcopy /sbin/losetup
#
# Host checks of the SD card image (make image) and make flash.
# uboot_tamper_refused: U-Boot (uboot mode, the real key in its DT) refuses
#   a copy of sdcard.img with one byte of the kernel changed in the FIT; and
#   refuses the same changed kernel in a FIT re-hashed and signed with
#   another key. Neither starts a kernel.
# flash_refuses: tools/flash.sh refuses, writing nothing, a missing DEV, a
#   plain file, a mounted disk, a disk holding the running system, a disk
#   that is not removable (without FORCE=1) and one smaller than the image.
# flash_verify: make flash's way (tools/flash.sh: bmaptool copy with
#   sdcard.img.bmap) onto a loop device first filled with non-zero bytes:
#   flash.sh's read-back holds every mapped range against the block map's
#   own SHA-256; the card's FAT is clean (fsck.fat -n), its nsbsp.itb and
#   boot.scr are byte for byte the built ones, U-Boot boots it in the uboot
#   mode up to the product's /init, and the bytes after the image are left
#   alone. Bytes written against the image's size are reported. One byte
#   changed on the card in a mapped range fails the read-back, naming it.
# Only loop devices over files in out/ are ever written, never a disk.
# The inputs: the image and what the cases run (flash.sh, the QEMU
# launch, U-Boot, the image and disk tools).
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

# The image of this build, the DT QEMU hands its U-Boot, the FIT's staged
# files (from the Makefile: another compiler's or the sanitizer's have
# other names; NSBSP_FIT, NSBSP_BOOT_SCR: what the card must hold).
sdcard=$NSBSP_SDCARD
uboot_dtb=$NSBSP_UBOOT_DTB
fit_stage=$NSBSP_FIT_STAGE
flash=$TOP/tools/flash.sh
work=$OUT/image-selftest/$1
rm -rf "$work"
mkdir -p "$work"
[ -r "$sdcard" ] || fail "no $sdcard (make image)"
# A disk with room for the image and 16 MiB after it (to see them kept).
disk_mib=$((($(wc -c < "$sdcard") + 1048575) / 1048576 + 16))

cleanup() {
	if [ -f "$work/loops" ]; then
		while read -r l; do losetup -d "$l" || echo "could not detach $l"; done < "$work/loops"
	fi
	rm -rf "$work"
}
trap cleanup EXIT
# A loop device over a new file of $1 MiB filled with a pattern.
new_loop() {
	yes nsbsp-untouched | head -c "$(($1 * 1048576))" > "$work/disk$1.bin"
	l=$(losetup -f --show "$work/disk$1.bin") || skip "no loop device available (losetup)"
	echo "$l" >> "$work/loops"
	echo "$l"
}
devsum() {
	sha256sum < "$1" | cut -d ' ' -f 1
}

# uboot_until IMAGE LOG [ERE]: boot IMAGE through U-Boot, stop once U-Boot
# started a kernel (or the console shows ERE) or gave up on boot.scr (or
# after 90 s).
uboot_until() {
	sh "$TOP/qemu/run.sh" --mode uboot --image "$1" --uboot-dtb "$uboot_dtb" \
		< /dev/null > "$2" 2>&1 &
	qemu=$!
	until=${3:-^Starting kernel}
	i=0
	while [ $i -lt 900 ] && kill -0 "$qemu" 2> /dev/null; do
		grep -q -E -e "$until" -e 'SCRIPT FAILED' "$2" && break
		sleep 0.1
		i=$((i + 1))
	done
	kill "$qemu" 2> /dev/null || true
	wait "$qemu" || true
	tr -d '\r' < "$2" > "$2.txt" && mv "$2.txt" "$2"
}
# The boot partition's offset, from the MBR's first entry.
part_offset() {
	echo $(($(od -An -tu4 -j454 -N4 "$1") * 512))
}
# put_fit IMAGE FIT: replace nsbsp.itb in IMAGE's boot partition.
put_fit() {
	mcopy -o -i "$1@@$(part_offset "$1")" "$2" ::nsbsp.itb
}
refused() {
	log=$1
	sed -n '/Loading kernel from FIT/,/SCRIPT FAILED/p' "$log" | grep -E 'Verifying|Bad|error|ERROR|Failed|failed|SCRIPT'
	! grep -q '^Starting kernel' "$log" || fail "U-Boot started the kernel of $2"
	grep -q 'SCRIPT FAILED' "$log" || fail "U-Boot did not give up on boot.scr for $2 (see $log)"
}

case $1 in
uboot_tamper_refused)
	command -v mcopy > /dev/null || fail "no mcopy (mtools)"
	off=$(part_offset "$sdcard")
	mcopy -n -i "$sdcard@@$off" ::nsbsp.itb "$work/nsbsp.itb" || fail "no nsbsp.itb in $sdcard"
	dumpimage -T flat_dt -p 0 -o "$work/kernel" "$work/nsbsp.itb" > /dev/null || fail "no kernel image in the FIT"
	# One byte in the middle of the virt configuration's kernel, image 0
	# of board/image/nsbsp.its, found in the FIT by its first 4 KiB (its
	# first copy: kernel-virt comes before the other boards' kernels).
	python3 - "$work/nsbsp.itb" "$work/kernel" "$work/bad.itb" "$work/bad-kernel" <<'PY' || fail "cannot change the kernel in the FIT"
import sys
fit = bytearray(open(sys.argv[1], 'rb').read())
kernel = bytearray(open(sys.argv[2], 'rb').read())
at = fit.find(kernel[:4096])
assert at >= 0, "kernel not found"
fit[at + len(kernel) // 2] ^= 0x01
kernel[len(kernel) // 2] ^= 0x01
open(sys.argv[3], 'wb').write(fit)
open(sys.argv[4], 'wb').write(kernel)
print("changed byte %d of the FIT (byte %d of the kernel)" % (at + len(kernel) // 2, len(kernel) // 2))
PY
	[ "$(cmp -l "$work/nsbsp.itb" "$work/bad.itb" | wc -l)" -eq 1 ] || fail "the tampered FIT differs in more than one byte"
	cp "$sdcard" "$work/bad.img"
	put_fit "$work/bad.img" "$work/bad.itb"
	uboot_until "$work/bad.img" "$work/bad.log"
	echo "--- one byte of the kernel changed:"
	refused "$work/bad.log" "the image with one kernel byte changed"
	grep -q "Bad hash value for 'hash' hash node in 'kernel-virt' image node" "$work/bad.log" ||
		fail "U-Boot did not name the kernel's bad hash"

	# The same kernel, re-hashed and signed, but not with the key U-Boot has.
	stage=$work/fit
	mkdir -p "$stage/keys"
	# Every file the .its names, the kernel of QEMU virt changed.
	for f in "$fit_stage"/*; do
		case ${f##*/} in Image | keys | *.itb | *.log) continue ;; esac
		ln -s "$(readlink -f "$f")" "$stage/${f##*/}"
	done
	ln -s "$work/bad-kernel" "$stage/Image"
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$stage/keys/nsbsp.key" 2> /dev/null
	# Laid out as make image does (boot.scr reads the header first).
	header=$(sed -n 's/^setenv nsbsp_fit_header //p' "$TOP/board/image/boot.cmd")
	(cd "$stage" && mkimage -f nsbsp.its -E -p "$header" -k keys resigned.itb > mkimage.log 2>&1) ||
		fail "mkimage: $(tail -n 1 "$stage/mkimage.log")"
	cp "$sdcard" "$work/resigned.img"
	put_fit "$work/resigned.img" "$stage/resigned.itb"
	uboot_until "$work/resigned.img" "$work/resigned.log"
	echo "--- the changed kernel, re-hashed and signed with another key:"
	refused "$work/resigned.log" "the image signed with another key"
	grep -q "Failed to verify required signature" "$work/resigned.log" ||
		fail "U-Boot did not name the failed signature"
	;;
flash_refuses)
	loop=$(new_loop "$disk_mib")
	before=$(devsum "$loop")
	# try WHAT EXPECTED_ERE [ENV...] -- ARGS: flash.sh must fail, say so.
	try() {
		what=$1 want=$2
		shift 2
		rc=0
		env "$@" sh "$flash" "$sdcard" "$dev" > "$work/out" 2>&1 || rc=$?
		echo "$what: $(tail -n 1 "$work/out")"
		[ $rc -ne 0 ] || fail "flash.sh accepted $what"
		grep -Eq "^Error: .*$want" "$work/out" || fail "flash.sh did not say why it refused $what ('$want')"
	}
	dev='' try "no DEV" "no device"
	dev=/dev/nsbsp-no-such-disk try "a missing device" "does not exist"
	: > "$work/plain.img"
	dev=$work/plain.img try "a plain file" "not a block device"
	dev=$loop
	printf '%s /media/card vfat rw 0 0\n' "$loop" > "$work/mounts"
	try "a mounted disk" "is mounted .* on /media/card" NSBSP_MOUNTS="$work/mounts"
	printf '%s / ext4 rw 0 0\n' "$loop" > "$work/mounts"
	try "the running system's disk" "holds the running system" NSBSP_MOUNTS="$work/mounts"
	printf 'Filename Type Size Used Priority\n%s partition 1 0 -2\n' "$loop" > "$work/swaps"
	try "a swap disk" "in use as swap" NSBSP_SWAPS="$work/swaps"
	try "a disk that is not removable" "not a removable disk" FORCE=
	small=$(new_loop 8)
	dev=$small try "a disk smaller than the image" "the image needs" FORCE=1
	[ "$(devsum "$loop")" = "$before" ] || fail "a refused flash changed the device"
	# make flash without DEV stops before building anything (DEV= and no
	# MAKEFLAGS: never a DEV given to the outer make).
	rc=0
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" flash DEV= > "$work/out" 2>&1 || rc=$?
	echo "make flash: $(tail -n 1 "$work/out")"
	[ $rc -ne 0 ] || fail "make flash without DEV went ahead"
	grep -q 'make flash needs DEV=' "$work/out" || fail "make flash without DEV did not say why it stopped"
	;;
flash_verify)
	command -v bmaptool > /dev/null || fail "no bmaptool (bmap-tools)"
	[ -r "$sdcard.bmap" ] || fail "no $sdcard.bmap (make image)"
	loop=$(new_loop "$disk_mib")
	size=$(wc -c < "$sdcard")
	tail_sum() { tail -c "+$((size + 1))" "$1" | sha256sum; }
	tail_before=$(tail_sum "$loop")
	FORCE=1 sh "$flash" "$sdcard" "$loop" > "$work/out" 2>&1 || { cat "$work/out"; fail "flashing a loop device failed"; }
	grep -E '^  (FLASH|WROTE|VERIFY|OK)' "$work/out"
	grep -q "^  OK .* matches .* every mapped range" "$work/out" || fail "flash.sh did not report the read-back"
	# The card as the board sees it: its FAT partition.
	off=$(part_offset "$sdcard")
	psize=$(($(od -An -tu4 -j458 -N4 "$sdcard") * 512))
	dd if="$loop" of="$work/part.img" bs=1M iflag=skip_bytes,count_bytes skip="$off" count="$psize" status=none
	fsck.fat -n "$work/part.img" > "$work/fsck.log" 2>&1 || { cat "$work/fsck.log"; fail "fsck.fat -n finds errors in the card's FAT"; }
	echo "fsck.fat -n: $(tail -n 1 "$work/fsck.log")"
	for f in nsbsp.itb="$NSBSP_FIT" boot.scr="$NSBSP_BOOT_SCR"; do
		built=${f#*=} f=${f%%=*}
		mcopy -n -i "$work/part.img" "::$f" "$work/card-$f" || fail "no $f on the card"
		cmp -s "$work/card-$f" "$built" || fail "the card's $f is not $built"
	done
	echo "nsbsp.itb and boot.scr on the card: byte for byte the built ones"
	[ "$(tail_sum "$loop")" = "$tail_before" ] || fail "flash.sh changed bytes after the image"
	# U-Boot boots the card up to the product's init.
	uboot_until "$loop" "$work/boot.log" 'Run /init as init process'
	grep -q 'sha256,rsa2048:nsbsp+ OK' "$work/boot.log" || fail "U-Boot did not verify the FIT's signature on the card (see $work/boot.log)"
	grep -q 'Run /init as init process' "$work/boot.log" || { tail -n 20 "$work/boot.log"; fail "the flashed card did not boot to /init in the uboot mode"; }
	echo "the card boots: U-Boot verified the FIT (sha256,rsa2048:nsbsp+ OK), the kernel ran /init"
	# One byte changed on the card in a mapped range: the read-back says so.
	range=$(sed -n 's/.*<Range chksum="[0-9a-f]*"> *\([0-9]*\)-\([0-9]*\) *<\/Range>.*/\1 \2/p' "$sdcard.bmap" |
		awk '$2 - $1 > n { n = $2 - $1; r = $0 } END { print r }')
	[ -n "$range" ] || fail "no range of several blocks in the block map"
	bs=$(sed -n 's/.*<BlockSize> *\([0-9]*\) *<\/BlockSize>.*/\1/p' "$sdcard.bmap")
	at=$(echo "$range" | awk -v bs="$bs" '{ printf "%d", ($1 + $2) / 2 * bs + 17 }')
	old=$(dd if="$loop" bs=1 skip="$at" count=1 status=none | od -An -tu1 | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the octal escape of the new byte
	printf "\\$(printf '%03o' $(((old + 1) % 256)))" | dd of="$loop" bs=1 seek="$at" conv=notrunc,fsync status=none
	rc=0
	FORCE=1 sh "$flash" --verify "$sdcard" "$loop" > "$work/out" 2>&1 || rc=$?
	echo "byte $at changed: $(grep BAD "$work/out" | head -n 1)"
	[ $rc -ne 0 ] || fail "a corrupted read-back passed"
	grep -q "^Error: read-back of .* differs .* in 1 of" "$work/out" || fail "the corrupted read-back was not named"
	;;
*)
	fail "image.sh: unknown case $1"
	;;
esac
