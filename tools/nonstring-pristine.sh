#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Prepare the unpatched counterpart of the board build for the
# nonstring_unpatched_finds_seeds check: DIR/src is the kernel tree with
# the series taken out (a tree of symbolic links to TREE, where every file
# the series touches is its pristine copy from TREE/.nsbsp/orig), and
# DIR/objects lists the seed objects to compile there: the board's objects
# built from a file with a seed declaration (tools/nonstring-seeds.sh), or
# in that file's folder and depending on it (a header); DIR/compiled lists
# the files with a seed declaration that gave objects, DIR/deps what those
# objects include.
#
# usage: nonstring-pristine.sh TREE KOUT PATCHDIR DIR
set -eu
[ $# -eq 4 ] || { echo "usage: $0 TREE KOUT PATCHDIR DIR" >&2; exit 1; }
tree=$1 kout=$2 pdir=$3 dir=$4
state=$tree/.nsbsp
[ -f "$state/files" ] || { echo "Error: $tree is not a patched tree (make linux-tree)" >&2; exit 1; }

if [ ! -f "$dir/src/Makefile" ] || ! cmp -s "$state/files" "$dir/src.files"; then
	echo "  PRISTINE $dir/src (links to $tree, the series taken out)"
	rm -rf "$dir/src" "$dir/src.files"
	mkdir -p "$dir"
	cp -as "$tree" "$dir/src"
	rm -rf "$dir/src/.nsbsp"
	cp "$state/files" "$dir/src.files"
fi
# The originals, checked every time (a patch may have been edited); an
# unchanged one is left alone so that kbuild does not rebuild its users.
while read -r f; do
	if [ -e "$state/orig/$f" ]; then
		[ ! -L "$dir/src/$f" ] && cmp -s "$state/orig/$f" "$dir/src/$f" && continue
		rm -f "$dir/src/$f"
		cp "$state/orig/$f" "$dir/src/$f"	# new time: kbuild rebuilds its users
	else
		rm -f "$dir/src/$f"
	fi
done < "$state/files"

# Files with a seed declaration.
sh "$(dirname "$0")/nonstring-seeds.sh" "$pdir" | cut -d: -f1 | sort -u > "$dir/files"

: > "$dir/objects.new"
: > "$dir/compiled.new"
while read -r f; do
	case $f in
	*.c)
		o=${f%.c}.o
		[ -f "$kout/$o" ] || continue
		echo "$o" >> "$dir/objects.new"
		echo "$f" >> "$dir/compiled.new"
		;;
	*)
		# Objects of the header's folder that include it.
		d=$(dirname "$f")
		[ -d "$kout/$d" ] || continue
		for c in "$kout/$d"/.*.o.cmd; do
			[ -f "$c" ] || continue
			grep -q "/$f \\\\\$" "$c" || continue
			o=${c#"$kout/"}
			o=$(dirname "$o")/$(basename "$o" .cmd | sed 's/^\.//')
			echo "$o" >> "$dir/objects.new"
			echo "$f" >> "$dir/compiled.new"
		done
		;;
	esac
done < "$dir/files"
sort -u "$dir/objects.new" > "$dir/objects"
sort -u "$dir/compiled.new" > "$dir/compiled"
relsrc=$(realpath --relative-to="$kout" "$tree")
while read -r o; do
	c=$kout/$(dirname "$o")/.$(basename "$o").cmd
	sed -n -e "s|^ *$relsrc/\([^ ]*\) \\\\\$|\1|p" -e "s|^ *$tree/\([^ ]*\) \\\\\$|\1|p" "$c"
done < "$dir/objects" | sort -u > "$dir/deps"
rm -f "$dir/objects.new" "$dir/compiled.new"
echo "  PRISTINE $(wc -l < "$dir/objects") seed objects, from $(wc -l < "$dir/files") annotated files"
