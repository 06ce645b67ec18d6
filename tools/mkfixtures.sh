#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The fixture disk of a test boot: stage its files (tools/stage.sh specs
# from the mk/ files of each device) and make an ext4 image of them,
# labelled nsbsp-fixtures, with mke2fs -d (nothing is mounted on the host).
# Without a journal: the board mounts it read-only. The output is replaced
# only when its files change; nothing is done at all when no input is
# newer than the last run (STAGING.specs).
#
# usage: mkfixtures.sh OUT STAGING SPEC...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OUT STAGING SPEC..." >&2; exit 1; }
out=$1 staging=$2
shift 2
here=$(dirname "$0")
specs=$staging.specs
if [ -f "$out" ] && sh "$here/stage.sh" --unchanged "$specs" "$0=/" "$@"; then
	exit 0
fi
# Written before staging: an input changed while this runs is newer.
printf '%s\n' "$0=/" "$@" > "$specs.new"
rm -f "$specs"

rm -rf "$staging"
mkdir -p "$staging"
sh "$here/stage.sh" "$staging" "$@"
find "$staging" -exec touch -h -d @0 {} +
# What the image holds, to tell whether it must be made again.
sums=$(cd "$staging" && find . -type f -exec sha256sum {} + | LC_ALL=C sort -k 2 | sha256sum | cut -d' ' -f1)
if [ -f "$out" ] && [ "$(cat "$out.sum" 2> /dev/null)" = "$sums" ]; then
	mv "$specs.new" "$specs"
	exit 0
fi
# Room for the files, their inodes and a third to spare.
kib=$(du -sk "$staging" | cut -f1)
tmp=$out.tmp
rm -f "$tmp"
truncate -s "$(((kib * 4 / 3 + 4096) / 1024 + 1))M" "$tmp"
mke2fs -q -F -t ext4 -O ^has_journal -b 4096 -L nsbsp-fixtures -E root_owner=0:0 -d "$staging" "$tmp"
mv "$tmp" "$out"
echo "$sums" > "$out.sum"
echo "  FIXTURES $(basename "$out") ($(($(wc -c < "$out") / 1048576)) MiB, $(find "$staging" -type f | wc -l) files)"
mv "$specs.new" "$specs"
