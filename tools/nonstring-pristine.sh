#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Prepare an unpatched counterpart of the board build (make
# nonstring-unpatched): DIR/src is the kernel tree with the series taken
# out (a tree of symbolic links to TREE, where every file the series
# touches is its pristine copy from TREE/.nsbsp/orig), and DIR/objects
# lists the board objects to compile there: every object of KOUT whose
# dependencies (its .cmd file) include a file the series changes, other
# than include/linux/compiler_types.h. Only those can be compiled from
# different input without the series: the series adds nothing to
# compiler_types.h but macros (__nonstring_array) that only the files it
# changes use, and the options it adds to Kconfig are only read there too.
# So, with the patched board build clean, they are the only objects where
# a compiler can report a finding on the unpatched tree.
# DIR/files lists the files with a seed declaration (tools/nonstring-seeds.sh),
# DIR/compiled those of them the board compiles (a .c it builds, or a header
# that objects of the header's folder include), DIR/deps what the seed
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
sort -u "$dir/objects.new" > "$dir/seed-objects"
sort -u "$dir/compiled.new" > "$dir/compiled"
relsrc=$(realpath --relative-to="$kout" "$tree")
while read -r o; do
	c=$kout/$(dirname "$o")/.$(basename "$o").cmd
	sed -n -e "s|^ *$relsrc/\([^ ]*\) \\\\\$|\1|p" -e "s|^ *$tree/\([^ ]*\) \\\\\$|\1|p" "$c"
done < "$dir/seed-objects" | sort -u > "$dir/deps"

# Every object that depends on a file the series changes: its .cmd file
# names it as a dependency line or as its source, as kbuild writes them
# (relative to the build folder, or absolute).
grep -v -x -e include/linux/compiler_types.h "$state/files" | while read -r f; do
	printf ' %s \\\n %s \\\n:= %s\n' "$relsrc/$f" "$tree/$f" "$relsrc/$f"
done > "$dir/changed.pat"
# An object whose source the series added (a new driver) has none there.
find "$kout" -name '.*.o.cmd' ! -name '.*.mod.o.cmd' -exec grep -l -F -f "$dir/changed.pat" {} + |
	while read -r c; do
		src=$(sed -n -e "s|^source_.* := $relsrc/||p" -e "s|^source_.* := $tree/||p" "$c")
		[ -z "$src" ] || [ -e "$dir/src/$src" ] || continue
		o=${c#"$kout/"}
		echo "$(dirname "$o")/$(basename "$o" .cmd | sed 's/^\.//')"
	done > "$dir/objects.new"
cat "$dir/seed-objects" >> "$dir/objects.new"
sort -u "$dir/objects.new" > "$dir/objects"
rm -f "$dir/objects.new" "$dir/compiled.new" "$dir/changed.pat"
echo "  PRISTINE $(wc -l < "$dir/objects") objects depend on what the series changes;" \
	"$(wc -l < "$dir/seed-objects") seed objects, from $(wc -l < "$dir/files") annotated files"
