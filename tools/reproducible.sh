#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Build the same sources a second time, in another folder, later, under
# another host name, umask, time zone and locale and with a clean
# environment, and compare the products with the first build's byte for
# byte: the kernel Image, the initramfs, the FIT, sdcard.img and its block
# map. The first file that differs is named, with diffoscope's account of
# the difference where diffoscope is installed.
#
# The second build is a clone of TOP's commit with TOP's uncommitted
# changes copied over; it is given TOP's downloads (the .debs and apt
# lists: inputs, not products), TOP's FIT key, and the machine's ccache.
#
# usage: reproducible.sh [--relink] TOP WORK
#   TOP       the checkout whose out/ holds the first build (make image)
#   WORK      the second build's folder (emptied first)
#   --relink  the cheap second build (make check): the kernel objects are
#             not compiled again; a copy of the first build's kernel
#             folder is relinked (the version string: time, user, host,
#             build number) and everything after the kernel is built anew.
#             Without it the second build extracts and compiles the kernel
#             itself (objects from ccache).
# Environment: FIT_KEY, FIT_CERT (default: TOP's development key), KOUT
#   (TOP's kernel build folder), JOBS (default 2), BUILD_VARS (the first
#   build's make variables, given to the second: LLVM=-22 SANITIZE=1) and
#   IMG_VARIANT (the suffix they give the images' names: -clang-22).
# Exit: 0 the same bytes, 1 a file differs (named), 2 the second build failed.
set -eu

relink=
if [ "${1-}" = --relink ]; then
	relink=1
	shift
fi
[ $# -eq 2 ] || { echo "usage: $0 [--relink] TOP WORK" >&2; exit 2; }
top=$(cd "$1" && pwd)
work=$2
kout=${KOUT:-}
key=${FIT_KEY:-$top/out/keys/nsbsp-dev.key}
cert=${FIT_CERT:-$top/out/keys/nsbsp-dev.crt}
[ -n "$kout" ] || kout=$(find "$top/out/build" -mindepth 3 -maxdepth 3 -path '*/arch/arm64' -prune -print 2> /dev/null |
	sed 's,/arch/arm64$,,' | head -n 1)
if [ -z "$kout" ] || [ ! -f "$kout/arch/arm64/boot/Image" ]; then
	echo "Error: no kernel build in $top/out (make image)" >&2
	exit 2
fi
v=${IMG_VARIANT-}
[ -f "$top/out/images/sdcard$v.img" ] || { echo "Error: no $top/out/images/sdcard$v.img (make image)" >&2; exit 2; }

rm -rf "$work"
# The second checkout and build under umask 0002 (a checkout's files are
# then 0664), in a folder of another name and depth than TOP's: a mode or
# a path in a product shows.
umask 0002
src=$work/elsewhere/nsbsp-second-build
mkdir -p "$work/elsewhere"
work=$(cd "$work" && pwd)
src=$work/elsewhere/nsbsp-second-build
git clone -q --shared --no-checkout "$top" "$src"
git -C "$src" fetch -q "$top" HEAD
git -C "$src" checkout -q --detach FETCH_HEAD
# The work tree as it is: changed, deleted and new files (not ignored).
git -C "$top" diff --name-only HEAD > "$work/changed"
git -C "$top" ls-files --others --exclude-standard >> "$work/changed"
n=0
while read -r f; do
	n=$((n + 1))
	if [ -e "$top/$f" ]; then
		mkdir -p "$(dirname "$src/$f")"
		cp -p "$top/$f" "$src/$f"
	else
		rm -f "$src/$f"
	fi
done < "$work/changed"
echo "second build: $src ($(git -C "$src" rev-parse --short HEAD)$([ $n -eq 0 ] || echo ", $n uncommitted files copied"))"

# Downloads are inputs: the .debs and apt's lists.
mkdir -p "$src/out/debs"
for d in debs lists; do
	[ ! -d "$top/out/debs/$d" ] || cp -a "$top/out/debs/$d" "$src/out/debs/"
done

# shellcheck disable=SC2086 # make's variables, words
set -- FIT_KEY="$key" FIT_CERT="$cert" JOBS="${JOBS:-2}" ${BUILD_VARS-}
image=${kout#"$top"/}/arch/arm64/boot/Image
if [ -n "$relink" ]; then
	# The first build's kernel folder, copied, without what the link
	# makes: kbuild relinks, with the second build's time, user and
	# host. Compiling commands stay the same as the first build's (same
	# source tree, same compiler wrapper), so no object is compiled.
	# Kbuild wrote the tree's path relative to the kernel folder
	# (../../linux) into its .cmd files, and modpost follows it: the copy
	# sits as deep below a link to the tree as the first build's folder
	# sits below the tree, whatever WORK is.
	ksrc=$top/out/linux
	rel=$(realpath --relative-to="$kout" "$ksrc")
	up=${rel%"${rel##*../}"} name=${rel##*../}
	case $up:$name in
	../*:[!/]*) ;;
	*) echo "Error: $ksrc is not beside an ancestor of $kout" >&2; exit 2 ;;
	esac
	kcopy=$work/relink/$(echo "${up#../}" | sed 's,\.\./,d/,g')kernel
	mkdir -p "$(dirname "$kcopy")"
	ln -s "$ksrc" "$work/relink/$name"
	nice -n 15 cp -a "$kout" "$kcopy"
	rm -f "$kcopy/vmlinux" "$kcopy/vmlinux.o" "$kcopy/arch/arm64/boot/Image" "$kcopy/.version" \
		"$kcopy/include/generated/compile.h" "$kcopy/include/generated/utsversion.h" \
		"$kcopy"/init/version*.o
	set -- "$@" KOUT="$kcopy" KSRC="$ksrc" KPATCHES="$top/kernel-patches" \
		NONSTRING_CC="sh $top/tools/nonstring-cc.sh" -o "$ksrc/.nsbsp/applied" -o "$kcopy/nonstring-plugin.so"
	second_image=$kcopy/arch/arm64/boot/Image
else
	second_image=$src/$image
fi

# Another host name (a UTS namespace, as root), umask, time zone, locale
# (the Makefile pins LC_ALL=C for what it runs: this catches what escapes
# it); nothing of the first build's environment. At low priority: make check
# runs it beside the boots, whose time is bounded.
uts='' host=$(hostname)
if unshare --uts true 2> /dev/null; then
	uts=1 host=nsbsp-elsewhere
fi
echo "second build: make image, host name $host, umask 0002, TZ=Pacific/Kiritimati, LC_ALL=C.UTF-8"
rc=0
(
	if [ -n "$uts" ]; then
		exec env -i PATH="$PATH" HOME="${HOME:-/root}" TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 \
			nice -n 15 unshare --uts sh -c 'hostname nsbsp-elsewhere && exec "$@"' sh make -C "$src" kernel image "$@"
	fi
	exec env -i PATH="$PATH" HOME="${HOME:-/root}" TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 nice -n 15 make -C "$src" kernel image "$@"
) > "$work/build.log" 2>&1 || rc=$?
if [ $rc -ne 0 ]; then
	tail -n 20 "$work/build.log"
	echo "Error: the second build failed (log: $work/build.log)" >&2
	exit 2
fi
grep -E '^  (KERNEL|IMAGE|FIT|INITRAMFS|BMAP)' "$work/build.log" | sed 's/^  /second build: /' | tail -n 8

compare() {
	what=$1 first=$2 second=$3
	[ -f "$second" ] || { echo "DIFFERS: $what: the second build made no $second"; return 1; }
	if cmp -s "$first" "$second"; then
		echo "same: $what ($(wc -c < "$first") bytes, sha256 $(sha256sum < "$first" | cut -c 1-16))"
		return 0
	fi
	# cmp -l: one line per differing byte, its offset (from 1) first; the
	# offset in cmp's own message is "byte N" or "char N" by locale.
	cmp -l "$first" "$second" > "$work/cmp" 2> /dev/null || true
	echo "DIFFERS: $what: $first and $second ($(wc -l < "$work/cmp") bytes differ, first at byte $(awk '{ print $1; exit }' "$work/cmp"))"
	if command -v diffoscope > /dev/null; then
		echo "diffoscope:"
		timeout 300 diffoscope --no-progress --max-diff-block-lines 10 --text - "$first" "$second" 2>&1 | head -n 60 || true
	fi
	return 1
}
compare "kernel Image" "$kout/arch/arm64/boot/Image" "$second_image" &&
	compare initramfs "$top/out/images/initramfs$v.cpio" "$src/out/images/initramfs$v.cpio" &&
	compare FIT "$top/out/images/nsbsp$v.itb" "$src/out/images/nsbsp$v.itb" &&
	compare sdcard.img "$top/out/images/sdcard$v.img" "$src/out/images/sdcard$v.img" &&
	compare sdcard.img.bmap "$top/out/images/sdcard$v.img.bmap" "$src/out/images/sdcard$v.img.bmap" || exit 1
