#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Make sure the Debian packages named on the command line are installed.
# As root, install the missing ones with apt; otherwise stop and name them.
#
# usage: deps.sh PACKAGE...
set -eu

# One dpkg-query for all (a make with nothing to do runs this too).
installed=" $(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "$@" 2> /dev/null | sed -n 's/^ii *//p' | tr '\n' ' ' || true) "
missing=
for p in "$@"; do
	case $installed in
	*" $p "*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" != 0 ]; then
	echo "Error: these Debian packages are missing:$missing" >&2
	echo "Install them with: sudo apt-get install$missing" >&2
	exit 1
fi

echo "  APT     installing$missing (a minute or more on a fresh machine)"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet: apt would only say it knows
# none of the packages. Lists that are out of date (a package moved on
# in -security) show as a failed install, which is tried once more after
# an update; only that second attempt's errors are shown.
lists=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -print -quit 2> /dev/null || true)
# shellcheck disable=SC2086 # word splitting of the package list is wanted
if [ -z "$lists" ] || ! apt-get install -y -q --no-install-recommends $missing > /dev/null 2>&1; then
	echo "  APT     updating the package lists first"
	apt-get update -q > /dev/null
	apt-get install -y -q --no-install-recommends $missing > /dev/null
fi
