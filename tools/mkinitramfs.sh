#!/bin/sh
# Assemble the initramfs staging folder and pack it with the kernel's own
# usr/gen_initramfs.sh. The output is replaced only when its bytes change,
# so that nothing downstream rebuilds for nothing.
#
# usage: mkinitramfs.sh OUT STAGING ROOTFS_SRC DEB_ROOT TOOLS MODULES KSRC KOUT BOARD_DTB
set -eu
[ $# -eq 9 ] || { echo "usage: $0 OUT STAGING ROOTFS_SRC DEB_ROOT TOOLS MODULES KSRC KOUT BOARD_DTB" >&2; exit 1; }
out=$1 staging=$2 src=$3 debroot=$4 tools=$5 modules=$6 ksrc=$7 kout=$8 dtb=$9

rm -rf "$staging"
mkdir -p "$staging/bin" "$staging/usr/bin" "$staging/usr/lib/nsbsp" "$staging/etc/nsbsp"
cp -R "$src/skeleton/." "$staging/"
cp "$debroot/bin/busybox" "$staging/bin/busybox"
cp -R "$src/checks" "$staging/usr/lib/nsbsp/checks"
# The definitions the checks share with the host (runner, KTAP, kernel log).
cp -R "$src/../common" "$staging/usr/lib/nsbsp/common"
ln -s ../lib/nsbsp/common/run-checks "$staging/usr/bin/run-checks"
[ -d "$tools" ] && cp -R "$tools/." "$staging/usr/bin/"
[ -d "$modules/lib" ] && cp -R "$modules/lib" "$staging/"
# The kernel's own ftracetest, from the patched tree.
cp -R "$ksrc/tools/testing/selftests/ftrace" "$staging/usr/lib/nsbsp/ftrace"
# ---- carl9170: firmware (+ damaged variants), iw and its libraries ----
sh "$(dirname "$0")/carl9170-rootfs.sh" "$debroot" "$staging"
# ---- end carl9170 ----
# What boot_dt compares the live device tree with.
fdtget "$dtb" / compatible > "$staging/etc/nsbsp/board-compatible"
fdtget "$dtb" / model > "$staging/etc/nsbsp/board-model"

# Device nodes a non-root build cannot create in the staging folder.
cat > "$staging.list" <<LIST
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
LIST
# Fixed timestamps: the same content gives the same bytes.
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
