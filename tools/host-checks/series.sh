#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: series_checkpatch host
# inputs: $TOP/kernel-patches $OUT/linux/scripts/checkpatch.pl $OUT/linux/scripts/spelling.txt $OUT/linux/scripts/const_structs.checkpatch
#
# Host checks of the kernel patch series. series_checkpatch: every patch of
# kernel-patches/series passes the kernel's scripts/checkpatch.pl with no
# ERROR (the remaining WARNINGs are explained in each patch's notes).
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"

case $1 in
series_checkpatch)
	# CHECKPATCH: another checkpatch.pl (the one of the extracted tree by default).
	checkpatch=${CHECKPATCH:-$OUT/linux/scripts/checkpatch.pl}
	[ -x "$checkpatch" ] || fail "no $checkpatch (make linux-tree)"
	bad=0
	patches=$(sed -e 's/#.*//' "$TOP/kernel-patches/series")
	for p in $patches; do
		rc=0
		out=$("$checkpatch" --no-tree "$TOP/kernel-patches/$p" 2>&1) || rc=$?
		# checkpatch exits 0 (clean) or 1 (errors or warnings) after its
		# "total:" line; anything else, or no such line, means it did not
		# get through the patch: that is no pass.
		total=$(echo "$out" | sed -n 's/^total: \([0-9]*\) errors, \([0-9]*\) warnings.*/\1 \2/p')
		if [ "$rc" -gt 1 ] || [ -z "$total" ]; then
			echo "$out" | tail -n 5
			echo "$p: checkpatch did not finish (exit $rc, no 'total:' line)"
			bad=1
			continue
		fi
		# shellcheck disable=SC2086 # two numbers
		set -- $total
		echo "$p: $1 errors, $2 warnings"
		if [ "$1" -gt 0 ]; then
			echo "$out" | grep -A3 '^ERROR'
			bad=1
		fi
	done
	[ $bad -eq 0 ] || fail "checkpatch reports errors, or did not check every patch"
	;;
*)
	fail "series.sh: unknown case $1"
	;;
esac
