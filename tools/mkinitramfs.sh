#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The product initramfs: stage its files (tools/stage.sh specs, given by
# the mk/ files of each concern) and pack them with the kernel's own
# usr/gen_initramfs.sh. The output is replaced only when its bytes change,
# so that nothing downstream rebuilds for nothing; nothing is done at all
# when no input is newer than the last run (STAGING.specs).
#
# usage: mkinitramfs.sh OUT STAGING KSRC KOUT SPEC...
set -eu
[ $# -ge 4 ] || { echo "usage: $0 OUT STAGING KSRC KOUT SPEC..." >&2; exit 1; }
out=$1 staging=$2 ksrc=$3 kout=$4
shift 4
here=$(dirname "$0")
specs=$staging.specs
if [ -f "$out" ] && sh "$here/stage.sh" --unchanged "$specs" "$0=/" "$kout/usr/gen_init_cpio=/" "$@"; then
	exit 0
fi
# Written before staging: an input changed while this runs is newer.
mkdir -p "$(dirname "$staging")"
printf '%s\n' "$0=/" "$kout/usr/gen_init_cpio=/" "$@" > "$specs.new"
rm -f "$specs"

rm -rf "$staging" "$staging.origins"
mkdir -p "$staging"
# Where each file came from: $staging.origins (for make legal-info).
sh "$here/stage.sh" --origins "$staging.origins" "$staging" "$@"

# Device nodes a non-root build cannot create in the staging folder.
cat > "$staging.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
LIST
# Fixed timestamps, and modes that do not depend on the builder's umask
# (a checkout's files are 0664 under umask 0002): the same content gives
# the same bytes.
chmod -R u+rw,go-w,go+rX "$staging"
find "$staging" -exec touch -h -d @0 {} +
tmp=$out.tmp
(cd "$kout" && KBUILD_BUILD_TIMESTAMP=@0 sh "$ksrc/usr/gen_initramfs.sh" -o "$tmp" -u "$(id -u)" -g "$(id -g)" \
	"$staging.list" "$staging")
if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
	echo "  INITRAMFS $(basename "$out") ($(($(wc -c < "$out") / 1024)) KiB)"
fi
mv "$specs.new" "$specs"
