#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Make the folder QEMU exports to the board over virtio-9p for the
# cachefiles checks: a few files of known content (text made by seq, so the
# same on every machine), in sizes from one page to several hundred, and
# their SHA256SUMS, with which the board checks what it reads through the
# cache. The folder is replaced as a whole, never left half made.
#
# usage: cachefiles-share.sh DIR
set -eu
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 1; }
dir=$1
tmp=$dir.tmp
trap 'rm -rf "$tmp"' EXIT

rm -rf "$tmp"
mkdir -p "$tmp"
echo "nonstring-bsp: a file read through 9p with cache=fscache" > "$tmp/small.txt"
seq 1 20000 > "$tmp/medium.txt"
seq 1 300000 > "$tmp/large.txt"
(cd "$tmp" && sha256sum small.txt medium.txt large.txt > SHA256SUMS)
rm -rf "$dir"
mv "$tmp" "$dir"
echo "  SHARE   $(basename "$dir") ($(du -sk "$dir" | cut -f1) KiB)"
