#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: image_reproducible host
# inputs: $TOP/Makefile $TOP/mk $TOP/tools/*.* $TOP/board $TOP/dts $TOP/rootfs $TOP/common $TOP/kernel-patches
# inputs: $NSBSP_KOUT/.config $KIMAGE $INITRAMFS $OUT/images/nsbsp$NSBSP_IMG_VARIANT.itb
# inputs: $OUT/images/sdcard$NSBSP_IMG_VARIANT.img $OUT/images/sdcard$NSBSP_IMG_VARIANT.img.bmap
# inputs: $NSBSP_FIT_KEY $NSBSP_FIT_CERT /usr/bin/mkimage /usr/bin/genimage
#
# image_reproducible: a second build of the same sources, in another
# folder, later, under another host name, umask, time zone and locale and
# with a clean environment, gives the same kernel Image, initramfs, FIT,
# sdcard.img and block map, byte for byte (tools/reproducible.sh
# --relink: the cheap part; the kernel's objects are relinked, not
# compiled: make reproducible compiles them too). A difference names the
# first file that differs (and diffoscope's account of it, where
# installed).
# Its inputs are what the build reads (the tracked build files, the FIT
# key, the image tools) and the first build's products: while none of
# them changed since a pass, make check reuses that pass; a change to any
# builds the second time again.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

case $1 in
image_reproducible)
	work=$OUT/reproducible-check$NSBSP_IMG_VARIANT
	rc=0
	KOUT=$NSBSP_KOUT FIT_KEY=$NSBSP_FIT_KEY FIT_CERT=$NSBSP_FIT_CERT JOBS=1 \
		BUILD_VARS=$NSBSP_BUILD_VARS IMG_VARIANT=$NSBSP_IMG_VARIANT \
		sh "$TOP/tools/reproducible.sh" --relink "$TOP" "$work" || rc=$?
	case $rc in
	0) rm -rf "$work" ;;
	1) fail "the second build's bytes differ (above; it is in $work)" ;;
	*) fail "the second build did not complete (above; $work/build.log)" ;;
	esac
	;;
*)
	fail "reproducible.sh: unknown case $1"
	;;
esac
