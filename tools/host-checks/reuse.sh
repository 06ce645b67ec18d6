#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: reuse_lint host
# inputs: $(git -C "$TOP" ls-files -co --exclude-standard 2> /dev/null | sed "s|^|$TOP/|" | grep . || echo "$TOP")
# inputs: /usr/bin/reuse /usr/lib/python3/dist-packages/reuse
#
# Host check of the repository's licence information (docs/legal.md). It
# reads every file of the repository that git does not ignore, as reuse
# does (without git: every file under $TOP).
# reuse_lint: every file of the repository has a licence and a copyright
#   notice (SPDX headers, .reuse/dep5) and every licence its text in
#   LICENSES/: `reuse lint` (Debian's reuse), REUSE Specification 3.0.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
set -u

case $1 in
reuse_lint)
	command -v reuse > /dev/null || fail "no reuse (Debian package reuse)"
	rc=0
	reuse --root "$TOP" lint > "$OUT/reuse-lint.txt" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		sed -n '1,/^# SUMMARY/p' "$OUT/reuse-lint.txt" | grep -v '^$' | head -n 40
		tail -n 12 "$OUT/reuse-lint.txt"
		fail "reuse lint: the repository does not follow the REUSE specification (above)"
	fi
	tail -n 4 "$OUT/reuse-lint.txt" | grep -E 'Files with|compliant'
	;;
*)
	fail "reuse.sh: unknown case $1"
	;;
esac
