#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Download Debian arm64 packages (with no dependency resolution) into
# DIR/debs and unpack each into DIR/root, without touching the host's dpkg
# configuration: apt runs with its own state and cache folders under DIR
# and APT::Architectures=arm64, reading the host's sources lists.
#
# usage: fetch-debs.sh DIR PACKAGE...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR PACKAGE..." >&2; exit 1; }
dir=$1
shift
mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/debs" "$dir/root"
dir=$(cd "$dir" && pwd)

apt_arm64() {
	apt-get -q -o APT::Architecture=arm64 -o APT::Architectures=arm64 \
		-o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache" \
		-o Dir::State::Status=/dev/null -o APT::Sandbox::User=root "$@"
}

if [ ! -f "$dir/lists/.updated" ]; then
	echo "  APT     fetching Debian's arm64 package lists into $dir (about a minute)"
	# A line per list fetched, so that a slow mirror shows where it is.
	{ apt_arm64 update 2>&1; echo "exit $?"; } | tee "$dir/update.log" |
		sed -n 's/^Get:\([0-9]*\) [^ ]* \([^ ]*\) \(.*\)/  APT     list \1: \2 \3/p'
	tail -n 1 "$dir/update.log" | grep -qx 'exit 0' || {
		cat "$dir/update.log" >&2
		echo "Error: apt-get update for arm64 failed (log above)" >&2
		exit 1
	}
	: > "$dir/lists/.updated"
fi

for p in "$@"; do
	deb=$(find "$dir/debs" \( -name "${p}_*_arm64.deb" -o -name "${p}_*_all.deb" \) | sort | tail -n 1)
	if [ -z "$deb" ]; then
		echo "  APT     download $p (arm64)"
		(cd "$dir/debs" && apt_arm64 download "$p" > /dev/null) || {
			echo "Error: could not download the arm64 package $p" >&2
			exit 1
		}
		deb=$(find "$dir/debs" \( -name "${p}_*_arm64.deb" -o -name "${p}_*_all.deb" \) | sort | tail -n 1)
	fi
	dpkg-deb -x "$deb" "$dir/root"
done
