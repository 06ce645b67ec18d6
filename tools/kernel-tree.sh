#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Extract Debian's linux-source tarball once and keep it patched with
# kernel-patches/series, exactly.
#
# usage: kernel-tree.sh TARBALL TREE PATCHDIR
#
# Re-applying is incremental and never leaves a half-patched tree: the
# series is applied to copies of the original files in a scratch folder,
# and only the files whose result differs are written into TREE, so an
# edited patch rebuilds only what it touches. The original of every file
# a patch ever touched is kept under TREE/.nsbsp/orig (a missing original
# is recorded as such), so removing a patch restores its files.
set -eu

[ $# -eq 3 ] || { echo "usage: $0 TARBALL TREE PATCHDIR" >&2; exit 1; }
tarball=$1 tree=$2 pdir=$3
state=$tree/.nsbsp
series=$pdir/series

if [ ! -f "$state/extracted" ]; then
	[ -r "$tarball" ] || { echo "Error: $tarball: not readable (apt-get install linux-source-6.1)" >&2; exit 1; }
	echo "  EXTRACT $tarball (about 10 s)"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -xJf "$tarball" -C "$tree.tmp" --strip-components=1
	mkdir -p "$tree.tmp/.nsbsp/orig"
	# make wrote the series' id before this ran: kept, else the next make
	# would write it again, newer than the tree, and patch and configure
	# again with nothing changed.
	[ ! -f "$state/series.id" ] || cp -p "$state/series.id" "$tree.tmp/.nsbsp/"
	: > "$tree.tmp/.nsbsp/extracted"
	rm -rf "$tree"
	mv "$tree.tmp" "$tree"
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# Patches named by the series, in order; comments and blank lines skipped.
patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$series")
for p in $patches; do
	[ -f "$pdir/$p" ] || { echo "Error: $series names $p, which does not exist" >&2; exit 1; }
done

# Files touched now, and files touched by the series last applied.
for p in $patches; do
	sed -n -e 's,^+++ b/\([^[:space:]]*\).*,\1,p' -e 's,^--- a/\([^[:space:]]*\).*,\1,p' "$pdir/$p"
done > "$scratch/files.new"
cat "$scratch/files.new" "$state/files" 2>/dev/null | sort -u > "$scratch/files"

# Save the original of any file not seen before.
while read -r f; do
	o=$state/orig/$f
	[ -e "$o" ] || [ -e "$o.absent" ] || {
		mkdir -p "$(dirname "$o")"
		if [ -e "$tree/$f" ]; then cp -p "$tree/$f" "$o"; else : > "$o.absent"; fi
	}
done < "$scratch/files"

# Apply the whole series to pristine copies.
mkdir "$scratch/t"
while read -r f; do
	[ -e "$state/orig/$f" ] || continue
	mkdir -p "$scratch/t/$(dirname "$f")"
	cp -p "$state/orig/$f" "$scratch/t/$f"
done < "$scratch/files"
for p in $patches; do
	if ! patch -d "$scratch/t" -p1 -s -f --no-backup-if-mismatch < "$pdir/$p" > "$scratch/log" 2>&1; then
		echo "Error: $p does not apply to $tarball:" >&2
		cat "$scratch/log" >&2
		echo "The tree in $tree was left as it was." >&2
		exit 1
	fi
done

# Write only what changed; remove files that no patch creates any more.
n=0
while read -r f; do
	if [ -e "$scratch/t/$f" ]; then
		cmp -s "$scratch/t/$f" "$tree/$f" 2>/dev/null && continue
		mkdir -p "$(dirname "$tree/$f")"
		cp "$scratch/t/$f" "$tree/$f"
	else
		[ -e "$tree/$f" ] || continue
		rm -f "$tree/$f"
	fi
	echo "  PATCHED $f"
	n=$((n + 1))
done < "$scratch/files"
sort -u "$scratch/files.new" > "$state/files"
echo "  SERIES  $(echo "$patches" | wc -w) patches applied, $n files updated"
