#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Download a Debian source package and unpack it with its Debian patches
# applied (apt-get source, which runs dpkg-source -x) into DIR/PKG-VERSION,
# without touching the host's apt configuration: apt runs with its own
# state, lists and cache under DIR/.apt, reading deb-src entries made from
# the host's sources (deb822 .sources and one-line .list files alike).
# A second run finds DIR/.PKG.unpacked and does nothing; the stamp names
# the unpacked folder.
#
# usage: fetch-source.sh DIR SRCPKG
set -eu
[ $# -eq 2 ] || { echo "usage: $0 DIR SRCPKG" >&2; exit 1; }
pkg=$2
mkdir -p "$1"
dir=$(cd "$1" && pwd)
stamp=$dir/.$pkg.unpacked

if [ -f "$stamp" ] && [ -d "$dir/$(cat "$stamp")" ]; then
	exit 0
fi
command -v dpkg-source > /dev/null || {
	echo "Error: dpkg-source is missing: apt-get source needs dpkg-dev (apt-get install dpkg-dev)" >&2
	exit 1
}

apt=$dir/.apt
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d" "$apt/download"

# deb-src twins of the host's enabled deb entries. deb822 stanzas keep
# every field (URIs, Suites, Components, Signed-By) and get Types: deb-src;
# one-line entries get deb-src for deb.
: > "$apt/sources.list"
rm -f "$apt/sources.list.d/"*.sources
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] || continue
	sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$apt/sources.list"
done
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk '
	function flush() {
		if (n && types ~ /(^|[ \t])deb([ \t]|$)/ && tolower(enabled) != "no") {
			print "Types: deb-src"
			for (i = 1; i <= n; i++) print lines[i]
			print ""
		}
		n = 0; types = ""; enabled = "yes"
	}
	BEGIN { n = 0; enabled = "yes" }
	/^[[:space:]]*$/ { flush(); next }
	/^#/ { next }
	/^Types:/ { types = $0; sub(/^Types:/, "", types); next }
	/^Enabled:/ { enabled = $2 }
	{ lines[++n] = $0 }
	END { flush() }' "$f" > "$apt/sources.list.d/$(basename "$f")"
done
if ! grep -qs '^deb-src' "$apt/sources.list" && ! grep -qs '^Types: deb-src' "$apt/sources.list.d/"*.sources; then
	echo "Error: no Debian sources found in /etc/apt/sources.list or /etc/apt/sources.list.d/ to make deb-src entries of" >&2
	exit 1
fi

apt_src() {
	apt-get -q -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache" \
		-o Dir::Etc::SourceList="$apt/sources.list" \
		-o Dir::Etc::SourceParts="$apt/sources.list.d" \
		-o Dir::State::Status=/dev/null -o APT::Sandbox::User=root "$@"
}

if [ ! -f "$apt/lists/.updated" ]; then
	echo "  APT     fetching Debian's source package lists into $apt"
	apt_src update > "$apt/update.log" 2>&1 || {
		cat "$apt/update.log" >&2
		echo "Error: apt-get update of the deb-src lists failed (log above)" >&2
		exit 1
	}
	: > "$apt/lists/.updated"
fi

# Into a fresh folder of its own, so that the unpacked tree is the only
# folder there, whatever its name (PKG-UPSTREAMVERSION).
echo "  APT     source $pkg (download, unpack, Debian patches)"
rm -rf "$apt/download" && mkdir -p "$apt/download"
(cd "$apt/download" && apt_src source "$pkg") > "$apt/source.log" 2>&1 || {
	cat "$apt/source.log" >&2
	echo "Error: apt-get source $pkg failed (log above)" >&2
	exit 1
}
tree=
for d in "$apt/download/$pkg"-*/; do
	[ -d "$d" ] || continue
	[ -z "$tree" ] || { echo "Error: apt-get source $pkg unpacked more than one folder" >&2; exit 1; }
	tree=$(basename "$d")
done
[ -n "$tree" ] || { echo "Error: apt-get source $pkg unpacked no $pkg-* folder (log: $apt/source.log)" >&2; exit 1; }
rm -rf "${dir:?}/$tree"
mv "$apt/download/$tree" "$dir/$tree"
# The .dsc and the archives stay in the download folder, for the record.
echo "$tree" > "$stamp"
echo "  APT     $pkg $(dpkg-parsechangelog -l "$dir/$tree/debian/changelog" -S Version) in $dir/$tree"
