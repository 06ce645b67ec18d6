#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Put make bench's table (OUT/bench.md) into the README between its two
# markers, so that the figures users read are the ones bench printed.
# make bench itself writes no tracked file: this is a separate step.
#
# usage: bench-readme.sh BENCH_MD README
set -eu
[ $# -eq 2 ] || { echo "usage: $0 BENCH_MD README" >&2; exit 2; }
table=$1 readme=$2
begin='<!-- bench.md: make bench, then make bench-readme -->'
end='<!-- end of bench.md -->'
[ -s "$table" ] || { echo "Error: no $table: run make bench first" >&2; exit 1; }
for m in "$begin" "$end"; do
	[ "$(grep -cxF -e "$m" "$readme")" -eq 1 ] ||
		{ echo "Error: $readme needs the line '$m' exactly once" >&2; exit 1; }
done
[ "$(grep -nxF -e "$begin" "$readme" | cut -d: -f1)" -lt "$(grep -nxF -e "$end" "$readme" | cut -d: -f1)" ] ||
	{ echo "Error: in $readme the end marker comes before the begin marker" >&2; exit 1; }
tmp=$readme.tmp
awk -v begin="$begin" -v end="$end" -v table="$table" '
	$0 == begin { print; while ((getline l < table) > 0) print l; skip = 1; next }
	$0 == end { skip = 0 }
	!skip' "$readme" > "$tmp"
mv "$tmp" "$readme"
echo "  README  $readme: the table of $table"
