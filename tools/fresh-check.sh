#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Time `make check` on a fresh Debian 12 machine: a chroot made with
# Debian's debootstrap (the minimal system, plus make and git: what the
# README assumes a user has), this machine's apt sources, a clone of the
# checkout's HEAD, and nothing else: no apt cache, no ccache, no out/.
# What make check installs, downloads and builds there is what a new user
# waits for. The minimal system is made once and kept as a tarball; each
# run starts from a new copy of it.
#
# usage: fresh-check.sh WORKDIR
# Prints "fresh_check SECONDS STATUS" last (STATUS: make check's exit
# status); the run's output is in WORKDIR/check.log, each line after the
# seconds since the start. Needs root (chroot, bind mounts) and
# debootstrap.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 WORKDIR" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "Error: $0 needs root (debootstrap, chroot, mount)" >&2; exit 1; }
command -v debootstrap > /dev/null || { echo "Error: no debootstrap (apt-get install debootstrap)" >&2; exit 1; }
top=$(cd "$(dirname "$0")/.." && pwd)
work=$1
base=$work/base.tar
root=$work/root
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$work"

mounted=
cleanup() {
	for m in $mounted; do
		umount -l "$root/$m" 2> /dev/null || true
	done
}
trap cleanup EXIT INT TERM

if [ ! -f "$base" ]; then
	echo "  FRESH   debootstrap bookworm (once; kept in $base)"
	rm -rf "$work/base"
	debootstrap --variant=minbase --include=make,git,ca-certificates bookworm "$work/base" "$mirror" \
		> "$work/debootstrap.log" 2>&1 || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
	# The sources and settings of this machine's apt: the same archives.
	rm -f "$work/base/etc/apt/sources.list"
	cp /etc/apt/sources.list.d/*.sources "$work/base/etc/apt/sources.list.d/" 2> /dev/null || true
	cp /etc/apt/sources.list "$work/base/etc/apt/" 2> /dev/null || true
	rm -rf "$work/base/var/cache/apt/archives"/*.deb "$work/base/var/lib/apt/lists"/*_Packages
	tar -C "$work/base" -cf "$base.tmp" .
	mv "$base.tmp" "$base"
	rm -rf "$work/base"
fi

rm -rf "$root"
mkdir -p "$root"
tar -C "$root" -xf "$base"
cp /etc/resolv.conf "$root/etc/resolv.conf"
git clone -q --no-local "$top" "$root/src"
git -C "$root/src" checkout -q "$(git -C "$top" rev-parse HEAD)"
for m in proc sys dev dev/pts; do
	mount --bind "/$m" "$root/$m"
	mounted="$m $mounted"
done

echo "  FRESH   make check in a fresh chroot ($root), output in $work/check.log"
# Each line of the log starts with the seconds since make check started:
# where a fresh machine's time goes (apt, the kernel, U-Boot, the boots,
# the unpatched builds). A date(1) per line: a few hundred lines in half
# an hour (mawk reads a pipe in blocks, so its clock would be late).
t0=$(date +%s)
rm -f "$work/status"
{
	env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
		chroot "$root" /bin/sh -c 'cd /src && exec make check' < /dev/null 2>&1 || echo $? > "$work/status"
} | while IFS= read -r line || [ -n "$line" ]; do
	printf '%5d %s\n' $(($(date +%s) - t0)) "$line"
done > "$work/check.log"
t=$(($(date +%s) - t0))
st=$(cat "$work/status" 2> /dev/null || echo 0)
tail -n 1 "$work/check.log"
echo "fresh_check $t $st"
