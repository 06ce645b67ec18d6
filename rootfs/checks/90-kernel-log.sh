#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: kernel_log_clean *
#
# kernel_log_clean: the whole kernel log since boot has no splat: no BUG,
# WARNING, Oops, KASAN, UBSAN, KFENCE or lockdep report, no call trace
# (common/splat.ere, the patterns the host harness uses too). It runs last
# in every boot mode, after every other case, so that a splat anywhere in
# the run fails it; on a real board or in a lab, where no host reads the
# console, this is the verdict on the kernel's log. The log must still
# start with the kernel's first line: a buffer that wrapped around
# (CONFIG_LOG_BUF_SHIFT too small) would hide what was overwritten.
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

case $1 in
kernel_log_clean)
	klog > /tmp/kernel-log
	first=$(head -n 1 /tmp/kernel-log)
	case $first in
	"$KLOG_FIRST"*) ;;
	*) fail "the kernel log does not start at boot (its first line: '$first'): the log buffer wrapped around" ;;
	esac
	found=$(splats < /tmp/kernel-log)
	lines=$(wc -l < /tmp/kernel-log)
	if [ -n "$found" ]; then
		echo "$found" | head -n 20
		fail "$(echo "$found" | wc -l) splat lines in the kernel log ($lines lines since boot)"
	fi
	echo "$lines lines since boot ($(wc -c < /tmp/kernel-log) bytes), no splat"
	;;
*)
	fail "90-kernel-log.sh: unknown case $1"
	;;
esac
