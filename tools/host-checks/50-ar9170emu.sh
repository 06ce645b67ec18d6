#!/bin/sh
# case: ar9170emu_unit host
#
# Host unit test of the AR9170 USB stub's model (rootfs/tools/ar9170emu):
# built with the host compiler against fake raw_gadget I/O
# (tools/host-checks/ar9170emu-test.c) and run with the shipped config.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

case $1 in
ar9170emu_unit)
	src=$TOP/rootfs/tools/ar9170emu
	bin=$OUT/host-tests/ar9170emu-test
	mkdir -p "$(dirname "$bin")"
	gcc -std=c11 -O2 -Wall -Wextra -Werror -D_GNU_SOURCE -pthread -I"$src" -o "$bin" \
		"$TOP/tools/host-checks/ar9170emu-test.c" "$src/config.c" "$src/device.c" ||
		fail "the unit test does not build"
	"$bin" "$TOP/rootfs/skeleton/etc/ar9170emu.conf" 2>&1 || fail "the unit test failed"
	;;
*)
	fail "50-ar9170emu.sh: unknown case $1"
	;;
esac
