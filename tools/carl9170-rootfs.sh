#!/bin/sh
# carl9170 part of the initramfs, from the unpacked Debian arm64 packages:
# - /lib/firmware/carl9170-1.fw, the real firmware of firmware-linux-free;
# - /lib/firmware/nsbsp-carl9170/bad-magic/carl9170-1.fw, the same file with
#   its "OTAR" descriptor magic damaged (the carl9170_bad_fw case points
#   firmware_class.path there);
# - /usr/sbin/iw with the shared libraries it needs (iw, libnl-3-200,
#   libnl-genl-3-200, libc6 with the dynamic loader).
#
# usage: carl9170-rootfs.sh DEB_ROOT STAGING
set -eu
[ $# -eq 2 ] || { echo "usage: $0 DEB_ROOT STAGING" >&2; exit 1; }
debroot=$1 staging=$2
fw=$debroot/lib/firmware/carl9170-1.fw
[ -r "$fw" ] || { echo "Error: $fw missing (firmware-linux-free in TARGET_DEBS?)" >&2; exit 1; }

mkdir -p "$staging/lib/firmware/nsbsp-carl9170/bad-magic" "$staging/usr/sbin" \
	"$staging/lib/aarch64-linux-gnu"
cp "$fw" "$staging/lib/firmware/carl9170-1.fw"

# The driver scans for the first "OTAR"; there must be exactly one to damage.
offsets=$(grep -obUa OTAR "$fw" | cut -d: -f1)
[ "$(echo "$offsets" | wc -w)" -eq 1 ] || {
	echo "Error: $fw: expected exactly one OTAR magic, found offsets: $offsets" >&2
	exit 1
}
bad=$staging/lib/firmware/nsbsp-carl9170/bad-magic/carl9170-1.fw
cp "$fw" "$bad"
printf X | dd of="$bad" bs=1 seek=$((offsets + 3)) conv=notrunc status=none
if grep -qa OTAR "$bad"; then
	echo "Error: $bad still has an OTAR magic" >&2
	exit 1
fi

cp "$debroot/sbin/iw" "$staging/usr/sbin/iw"
for lib in ld-linux-aarch64.so.1 libc.so.6 libnl-3.so.200 libnl-genl-3.so.200; do
	[ -e "$debroot/lib/aarch64-linux-gnu/$lib" ] || { echo "Error: $lib missing in $debroot" >&2; exit 1; }
	cp -L "$debroot/lib/aarch64-linux-gnu/$lib" "$staging/lib/aarch64-linux-gnu/$lib"
done
# The loader path compiled into arm64 programs.
ln -sf aarch64-linux-gnu/ld-linux-aarch64.so.1 "$staging/lib/ld-linux-aarch64.so.1"
