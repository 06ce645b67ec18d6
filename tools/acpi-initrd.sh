#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The initrd of the acpi boot mode: the board's ACPI tables (board/acpi/*.asl,
# compiled with iasl) in an uncompressed cpio under kernel/firmware/acpi/,
# where the kernel's initrd table upgrade (CONFIG_ACPI_TABLE_UPGRADE) looks
# for them, followed by the normal initramfs. The kernel unpacks both
# archives, so the checks find the very bytes it was given in
# /kernel/firmware/acpi/, and what to expect of them in /etc/nsbsp/acpi.expect.
#
# The expectations come from "nsbsp: WHAT ARGS" comment lines in the ASL:
#   upgrade accept|reject  ->  "upgrade FILE.aml accept|reject"
#   wrong-type PATH        ->  "wrong-type PATH TYPES", TYPES being what
#                              acpihelp (Debian's ACPICA, not our kernel)
#                              says the predefined name must return
#   eval-wrong-type PATH   ->  "eval-wrong-type PATH TYPES", the same for an
#                              object the check evaluates itself
#   repair PATH RAW EXP    ->  "repair PATH SCOPE.RAW SCOPE.EXP", RAW and EXP
#                              being siblings of PATH (in its SCOPE)
# An unknown keyword is an error.
# The output is replaced only when its bytes change.
#
# usage: acpi-initrd.sh OUT WORKDIR INITRAMFS ASL...
set -eu
[ $# -ge 4 ] || { echo "usage: $0 OUT WORKDIR INITRAMFS ASL..." >&2; exit 1; }
out=$1 work=$2 initramfs=$3
shift 3

rm -rf "$work"
tables=$work/root/kernel/firmware/acpi
mkdir -p "$tables" "$work/root/etc/nsbsp"
expect=$work/root/etc/nsbsp/acpi.expect
: > "$expect"
for asl in "$@"; do
	name=$(basename "$asl" .asl)
	# -we: a warning is an error; the tables are ours, they compile clean.
	if ! iasl -vs -we -p "$tables/$name" "$asl" > "$work/$name.iasl.log" 2>&1; then
		cat "$work/$name.iasl.log" >&2
		echo "Error: iasl could not compile $asl" >&2
		exit 1
	fi
	echo "  IASL    $(basename "$asl") -> $name.aml ($(wc -c < "$tables/$name.aml") bytes)"
	sed -n 's|^[ /*]*nsbsp: *||p' "$asl" | while read -r what arg; do
		case $what in
		upgrade)
			case $arg in
			accept | reject) echo "upgrade $name.aml $arg" ;;
			*) echo "Error: $asl: 'nsbsp: upgrade' wants accept or reject, not '$arg'" >&2; exit 1 ;;
			esac
			;;
		wrong-type | eval-wrong-type)
			seg=${arg##*.}
			types=$(acpihelp -p "$seg" | sed -n 's/^ *Return value types: *//p')
			[ -n "$types" ] || { echo "Error: $asl: acpihelp knows no return type for '$seg' ($arg)" >&2; exit 1; }
			echo "$what $arg $types"
			;;
		repair)
			# shellcheck disable=SC2086 # three words: PATH RAW EXP
			set -- $arg
			case $#:${2-}:${3-} in
			3:[A-Z_][A-Z0-9_][A-Z0-9_][A-Z0-9_]:[A-Z_][A-Z0-9_][A-Z0-9_][A-Z0-9_]) ;;
			*) echo "Error: $asl: 'nsbsp: repair' wants PATH RAW EXPECTED (RAW, EXPECTED: names beside PATH), not '$arg'" >&2; exit 1 ;;
			esac
			acpihelp -p "${1##*.}" | grep -q 'Return value types:' ||
				{ echo "Error: $asl: '${1##*.}' ($1) is not a predefined name acpihelp knows" >&2; exit 1; }
			echo "repair $1 ${1%.*}.$2 ${1%.*}.$3"
			;;
		*)
			echo "Error: $asl: unknown 'nsbsp: $what' line" >&2
			exit 1
			;;
		esac
	done >> "$expect"
done

# Names without "./": the kernel matches the path prefix kernel/firmware/acpi/.
find "$work/root" -exec touch -h -d @0 {} +
tmp=$out.tmp
(cd "$work/root" && find kernel etc | LC_ALL=C sort |
	cpio --quiet -o -H newc --reproducible -R 0:0) > "$tmp"
cat "$initramfs" >> "$tmp"
if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
	echo "  INITRAMFS $(basename "$out") = ACPI tables + $(basename "$initramfs")"
fi
