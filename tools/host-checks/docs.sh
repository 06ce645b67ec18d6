#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: docs_case_tables host
# inputs: $TOP/docs $TOP/rootfs/checks $TOP/rootfs/fixtures/checks $TOP/tools/host-checks
#
# docs_case_tables: the case tables of docs/*.md cannot drift from the
# checks. Every case a check file declares (rootfs/checks/,
# rootfs/fixtures/checks/, tools/host-checks/; the same header parser as
# the runner, common/ktap.sh), and the harness's harness_verdict, has
# exactly one row in a case table of docs/ (a table headed "| case |",
# rows "| `NAME` | ..."); every such row names a case that exists.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=../../common/ktap.sh
. "$NSBSP_COMMON/ktap.sh"
set -u

case $1 in
docs_case_tables)
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	ktap_cases "" "$TOP"/rootfs/checks/*.sh "$TOP"/rootfs/fixtures/checks/*.sh "$TOP"/tools/host-checks/*.sh \
		> "$work/declared"
	if grep '^!' "$work/declared"; then
		fail "a check header does not parse"
	fi
	{ awk '{ print $1 }' "$work/declared"; echo harness_verdict; } | sort > "$work/cases"
	# The rows of the case tables (a table whose header is "| case | ...").
	for f in "$TOP"/docs/*.md; do
		awk -v f="${f##*/}" '
			/^\| case \|/ { on = 1; next }
			!/^\|/ { on = 0 }
			on && match($0, /^\| `[a-z0-9_]+`/) { print substr($0, 4, RLENGTH - 4), f }' "$f"
	done > "$work/rows"
	bad=0
	while read -r c; do
		n=$(awk -v c="$c" '$1 == c' "$work/rows" | wc -l)
		where=$(awk -v c="$c" '$1 == c { printf " %s", $2 }' "$work/rows")
		case $n in
		1) ;;
		0) echo "$c: declared, but in no table of docs/"; bad=1 ;;
		*) echo "$c: in $n rows of docs/:$where"; bad=1 ;;
		esac
	done < "$work/cases"
	while read -r c f; do
		grep -qx "$c" "$work/cases" || { echo "$f: a row for $c, which no check declares"; bad=1; }
	done < "$work/rows"
	[ $bad -eq 0 ] || fail "the case tables of docs/ and the checks disagree"
	echo "$(wc -l < "$work/cases") cases, each in one row of docs/"
	;;
*)
	fail "docs.sh: unknown case $1"
	;;
esac
