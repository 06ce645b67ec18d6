#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The seed declarations of the series: for every patch, the - line of each
# change that adds __nonstring or __nonstring_array to a declaration, or
# drops an array's size so that the compiler makes room for the NUL, as
# FILE:LINE in the pristine file. The nonstring_unpatched_finds_seeds check
# wants each one the board compiles reported by the unpatched build.
#
# usage: nonstring-seeds.sh PATCHDIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 PATCHDIR" >&2; exit 1; }
pdir=$1
sed -e 's/#.*//' "$pdir/series" | while read -r p; do
	[ -n "$p" ] || continue
	awk '
	/^--- a\// { file = substr($2, 3); next }
	/^\+\+\+ / { next }
	/^@@ / { split($2, a, ","); line = -a[1] - 1; nd = 0; ni = 0; next }
	/^ / { line++; nd = 0; ni = 0; next }
	/^-/ {
		line++
		if (ni) { nd = 0; ni = 0 }
		del[++nd] = $0; at[nd] = line
		next
	}
	/^\+/ {
		if (++ni > nd) next
		old = del[ni]
		if (($0 ~ /__nonstring/ && old !~ /__nonstring/) ||
		    (old ~ /\[[^]]+\] *=/ && $0 ~ /\[\] *=/))
			print file ":" at[ni]
	}' "$pdir/$p"
done | sort -u
