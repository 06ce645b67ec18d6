#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: boot_dt dt,uboot
#
# Boot checks. boot_dt: the kernel booted with the board's device tree: the
# live DT's compatible and model are the ones the build wrote into
# /etc/nsbsp (taken with fdtget from the board DTB, dts/nsbsp-board.dtso).
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

case $1 in
boot_dt)
	[ -d /proc/device-tree ] || fail "no device tree: /proc/device-tree is missing"
	want_compat=$(cat /etc/nsbsp/board-compatible) || fail "no /etc/nsbsp/board-compatible"
	want_model=$(cat /etc/nsbsp/board-model) || fail "no /etc/nsbsp/board-model"
	got_compat=$(tr '\0' ' ' < /proc/device-tree/compatible | sed 's/ *$//')
	got_model=$(tr -d '\0' < /proc/device-tree/model)
	echo "compatible: $got_compat"
	echo "model: $got_model"
	[ "$got_compat" = "$want_compat" ] || fail "compatible is not the board's ($want_compat)"
	[ "$got_model" = "$want_model" ] || fail "model is not the board's ($want_model)"
	klog_has "Machine model: $want_model" || fail "the kernel did not log 'Machine model: $want_model'"
	;;
*)
	fail "boot.sh: unknown case $1"
	;;
esac
