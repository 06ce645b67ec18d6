#!/bin/sh
# case: series_checkpatch host
#
# Host checks of the kernel patch series. series_checkpatch: every patch of
# kernel-patches/series passes the kernel's scripts/checkpatch.pl with no
# ERROR (the remaining WARNINGs are explained in each patch's notes).
# shellcheck source=../../rootfs/checks/lib.sh
. "$TOP/rootfs/checks/lib.sh"

case $1 in
series_checkpatch)
	checkpatch=$OUT/linux/scripts/checkpatch.pl
	[ -x "$checkpatch" ] || fail "no $checkpatch (make linux-tree)"
	bad=0
	patches=$(sed -e 's/#.*//' "$TOP/kernel-patches/series")
	for p in $patches; do
		out=$("$checkpatch" --no-tree -q "$TOP/kernel-patches/$p" 2>&1) || true
		errors=$(echo "$out" | grep -c '^ERROR' || true)
		warnings=$(echo "$out" | grep -c '^WARNING' || true)
		echo "$p: $errors errors, $warnings warnings"
		if [ "$errors" -gt 0 ]; then
			echo "$out" | grep -A3 '^ERROR'
			bad=1
		fi
	done
	[ $bad -eq 0 ] || fail "checkpatch reports errors"
	;;
*)
	fail "10-series.sh: unknown case $1"
	;;
esac
