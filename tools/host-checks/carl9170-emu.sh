#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: ar9170emu_unit host
# inputs: $HOST_BIN/carl9170-emu-test $TOP/rootfs/fixtures/skeleton/etc/carl9170-emu.conf
#
# ar9170emu_unit: the host unit test of the carl9170 stub's AR9170 model
# (rootfs/fixtures/tools/carl9170-emu), tools/host-checks/carl9170-emu-test.c
# built against fake raw_gadget I/O (mk/carl9170.mk), run with the shipped
# config: reset values, upload checks, boot framing, command edge cases and
# the faults.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

case $1 in
ar9170emu_unit)
	bin=$HOST_BIN/carl9170-emu-test
	[ -x "$bin" ] || fail "no $bin (make check builds it)"
	"$bin" "$TOP/rootfs/fixtures/skeleton/etc/carl9170-emu.conf" 2>&1 || fail "the unit test failed"
	;;
*)
	fail "carl9170-emu.sh: unknown case $1"
	;;
esac
