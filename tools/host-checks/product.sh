#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: product_has_no_fixtures host
# inputs: $NSBSP_SDCARD $NSBSP_KOUT/.config $NSBSP_KOUT/System.map $NSBSP_KOUT/modules.builtin
# inputs: $NSBSP_KOUT/modules.order $FIXTURE_STAGING $TOP/board/linux/fixtures $TOP/kernel-patches
# inputs: /usr/bin/dumpimage /usr/bin/mcopy /usr/bin/cpio
#
# product_has_no_fixtures: what sdcard.img carries holds no test fixture
# (those are on the fixture disk, mk/fixtures.mk). Read from the FIT of the
# image itself:
# - its kernel is the build's Image, so the build's .config, System.map and
#   modules.builtin speak for it; every option of board/linux/fixtures/
#   (=m there) is a module or off, none built in; no module of a fixture
#   option is listed in modules.builtin; no global symbol that a fixture
#   module defines is a global of System.map (the product kernel is
#   monolithic: every module is a fixture; a static name like state_show
#   says nothing, many files have one);
# - its initramfs holds no kernel module and no file of the fixture disk,
#   by path or by content.
# Each finding is named.
# The inputs: the image (its FIT), what the build says of its kernel, the
# fixture disk's files (its modules among them, the same code as the
# build's .ko files the symbols are read from) and the fixture options;
# the kernel's Makefiles, mapping options to modules, change only with
# the series.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

case $1 in
product_has_no_fixtures)
	kout=$NSBSP_KOUT
	fit=$OUT/work-product/nsbsp.itb
	work=$OUT/work-product
	rm -rf "$work"
	mkdir -p "$work"
	sdcard=$NSBSP_SDCARD
	[ -r "$sdcard" ] || fail "no $sdcard (make image)"
	off=$(($(od -An -tu4 -j454 -N4 "$sdcard") * 512))
	mcopy -n -i "$sdcard@@$off" ::nsbsp.itb "$fit" || fail "no nsbsp.itb in $sdcard"
	# The FIT's images by name ("Image N (NAME)" in dumpimage -l).
	dumpimage -l "$fit" > "$work/list" || fail "dumpimage cannot read $fit"
	index() {
		sed -n "s/^ Image \([0-9]*\) ($1)\$/\1/p" "$work/list"
	}
	bad=0
	finding() {
		echo "FIXTURE IN THE PRODUCT: $*"
		bad=$((bad + 1))
	}

	# gunzip_maybe FILE: FILE unpacked in place if gzip made it.
	gunzip_maybe() {
		if [ "$(head -c 2 "$1" | od -An -tx1 | tr -d ' ')" = 1f8b ]; then
			gzip -dc < "$1" > "$1.raw" && mv "$1.raw" "$1"
		fi
	}
	# The kernels (one per RAM map): each the build's, whose files then
	# speak for it.
	ks=$(index 'kernel-[a-z0-9]*')
	[ -n "$ks" ] || fail "no kernel image node in $fit"
	for k in $ks; do
		dumpimage -T flat_dt -p "$k" -o "$work/kernel" "$fit" > /dev/null || fail "cannot take kernel $k out of $fit"
		gunzip_maybe "$work/kernel"
		cmp -s "$work/kernel" "$kout/arch/arm64/boot/Image" ||
			fail "the FIT's kernel (image $k) is not $kout/arch/arm64/boot/Image: make image again"
	done
	echo "kernel: the FIT's $(echo "$ks" | wc -l) kernel images are $kout/arch/arm64/boot/Image"
	for frag in "$TOP"/board/linux/fixtures/*.config; do
		sed -n 's/^\(CONFIG_[A-Za-z0-9_]*\)=m$/\1/p' "$frag" | while read -r sym; do
			if grep -qx "$sym=y" "$kout/.config"; then
				echo "$sym=y"
			fi
			# The module(s) the option builds, from kbuild's own Makefiles.
			grep -rhoE --include=Makefile --include=Kbuild "obj-\\\$\\($sym\\)[[:space:]]*[+:]?=[[:space:]]*[A-Za-z0-9_-]+\\.o" \
				"$NSBSP_KSRC/drivers" "$NSBSP_KSRC/fs" "$NSBSP_KSRC/lib" 2> /dev/null |
				sed 's/.*=[[:space:]]*//; s/\.o$//' | while read -r mod; do
					echo "module $mod"
				done
		done
	done | sort -u > "$work/fixture-options"
	while read -r what name; do
		case $what in
		CONFIG_*) finding "$what: a fixture option (board/linux/fixtures/) is built into the kernel" ;;
		module)
			if grep -q "/$name\.ko\$" "$kout/modules.builtin"; then
				finding "$name: built into the kernel ($(grep "/$name\.ko\$" "$kout/modules.builtin"))"
			fi
			;;
		esac
	done < "$work/fixture-options"
	n=$(grep -c '^module ' "$work/fixture-options" || true)
	[ "$n" -gt 0 ] || fail "no fixture module found for the options of board/linux/fixtures/"
	# Symbols of the fixture modules (functions and data they define) in
	# the product kernel's System.map.
	awk '$2 ~ /^[TDBR]$/ { print $3 }' "$kout/System.map" | sort -u > "$work/product-symbols"
	nmods=$(wc -l < "$kout/modules.order")
	while read -r ko; do
		"${CROSS_COMPILE:-aarch64-linux-gnu-}nm" --defined-only "$kout/$ko" 2> /dev/null |
			awk '$2 ~ /^[TDBR]$/ && $3 !~ /^(__UNIQUE_ID|__initcall|__exitcall|__ksym|__kstrtab|__kcrctab|__crc_|__mod_|__this_module|init_module|cleanup_module)/ { print $3 }'
	done < "$kout/modules.order" | sort -u > "$work/fixture-symbols"
	comm -12 "$work/product-symbols" "$work/fixture-symbols" > "$work/both"
	while read -r sym; do
		finding "symbol $sym of a fixture module is in the kernel (System.map)"
	done < "$work/both"
	echo "kernel: $n fixture modules of board/linux/fixtures/, $nmods modules built, $(wc -l < "$work/fixture-symbols") global symbols of theirs, none in System.map unless named above"

	# The initramfs: no module, no file of the fixture disk.
	r=$(index initramfs)
	[ -n "$r" ] || fail "no initramfs image node in $fit"
	dumpimage -T flat_dt -p "$r" -o "$work/initramfs.cpio" "$fit" > /dev/null || fail "cannot take the initramfs out of $fit"
	gunzip_maybe "$work/initramfs.cpio"
	mkdir -p "$work/root"
	(cd "$work/root" && cpio -id --quiet < "$work/initramfs.cpio") 2> /dev/null || fail "cannot unpack the FIT's initramfs"
	staging=$FIXTURE_STAGING
	[ -d "$staging" ] || fail "no fixture staging folder $staging (make fixtures)"
	(cd "$staging" && find . -type f -exec sha256sum {} +) | sort -k 2 > "$work/fixture-files"
	(cd "$work/root" && find . -type f -exec sha256sum {} +) | sort -k 2 > "$work/product-files"
	awk '{ print $2 }' "$work/fixture-files" > "$work/fixture-paths"
	awk '{ print $2 }' "$work/product-files" | grep -Fxf "$work/fixture-paths" | while read -r f; do
		echo "path ${f#.}"
	done > "$work/same"
	# (an empty file says nothing)
	awk '$1 != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" { print $1 }' \
		"$work/fixture-files" | sort -u > "$work/fixture-sums"
	awk 'NR == FNR { f[$1] = 1; next } $1 in f { print "content " $2 }' "$work/fixture-sums" "$work/product-files" >> "$work/same"
	(cd "$work/root" && find . -name '*.ko' -o -path './lib/modules/*' -prune) | sed 's/^/module /' >> "$work/same"
	sort -u "$work/same" | while read -r how f; do
		echo "FIXTURE IN THE PRODUCT: initramfs: ${f#.} (same $how as a file of the fixture disk)"
	done > "$work/initramfs-findings"
	cat "$work/initramfs-findings"
	bad=$((bad + $(wc -l < "$work/initramfs-findings")))
	echo "initramfs: $(wc -l < "$work/product-files") files, the fixture disk $(wc -l < "$work/fixture-files"): none shared unless named above"
	[ "$bad" -eq 0 ] || fail "$bad fixture findings in the product (named above)"
	;;
*)
	fail "product.sh: unknown case $1"
	;;
esac
