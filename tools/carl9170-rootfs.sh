#!/bin/sh
# carl9170 part of the initramfs, from the unpacked Debian arm64 packages:
# - /lib/firmware/carl9170-1.fw, the real firmware of firmware-linux-free;
# - /lib/firmware/nsbsp-carl9170/NAME/carl9170-1.fw, damaged copies made by
#   tools/carl9170-badfw.c, and .../expect, the driver's error line for each
#   (bad-magic, its "OTAR" magic damaged, is carl9170_bad_fw's; the set is
#   carl9170_bad_fw_set's: the checks point firmware_class.path there);
# - /usr/sbin/iw with the shared libraries it needs (iw, libnl-3-200,
#   libnl-genl-3-200, libc6 with the dynamic loader).
#
# usage: carl9170-rootfs.sh DEB_ROOT STAGING
set -eu
[ $# -eq 2 ] || { echo "usage: $0 DEB_ROOT STAGING" >&2; exit 1; }
debroot=$1 staging=$2
fw=$debroot/lib/firmware/carl9170-1.fw
[ -r "$fw" ] || { echo "Error: $fw missing (firmware-linux-free in TARGET_DEBS?)" >&2; exit 1; }

mkdir -p "$staging/lib/firmware/nsbsp-carl9170" "$staging/usr/sbin" \
	"$staging/lib/aarch64-linux-gnu"
cp "$fw" "$staging/lib/firmware/carl9170-1.fw"

# The damaged copies and what the driver must say about each
# (tools/carl9170-badfw.c, built with the host compiler).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -std=c11 -O2 -Wall -Wextra -o "$tmp/carl9170-badfw" "$(dirname "$0")/carl9170-badfw.c"
"$tmp/carl9170-badfw" "$fw" "$staging/lib/firmware/nsbsp-carl9170"

cp "$debroot/sbin/iw" "$staging/usr/sbin/iw"
for lib in ld-linux-aarch64.so.1 libc.so.6 libnl-3.so.200 libnl-genl-3.so.200; do
	[ -e "$debroot/lib/aarch64-linux-gnu/$lib" ] || { echo "Error: $lib missing in $debroot" >&2; exit 1; }
	cp -L "$debroot/lib/aarch64-linux-gnu/$lib" "$staging/lib/aarch64-linux-gnu/$lib"
done
# The loader path compiled into arm64 programs.
ln -sf aarch64-linux-gnu/ld-linux-aarch64.so.1 "$staging/lib/ld-linux-aarch64.so.1"
