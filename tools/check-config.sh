#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Fail, naming each option, if a value asked for in a config fragment did
# not survive olddefconfig/allnoconfig (a missing dependency, a typo, an
# option that does not exist in this kernel). Fragments are merged in the
# order given and a later one overrides an earlier one (merge_config.sh
# says so in its log), so for each option the last fragment that names it
# is the one that must be honoured.
#
# usage: check-config.sh DOTCONFIG FRAGMENT...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DOTCONFIG FRAGMENT..." >&2; exit 1; }
config=$1
shift
# "CONFIG_X=v" and "# CONFIG_X is not set" lines; the last request of each
# option: "SYMBOL VALUE FRAGMENT".
awk '
	/^CONFIG_[A-Za-z0-9_]*=/ { i = index($0, "="); want[substr($0, 1, i - 1)] = substr($0, i + 1); from[substr($0, 1, i - 1)] = FILENAME; next }
	/^# CONFIG_[A-Za-z0-9_]* is not set$/ { want[$2] = "n"; from[$2] = FILENAME }
	END { for (s in want) print s, want[s], from[s] }' "$@" | sort > "$config.want"
bad=0
while read -r sym want frag; do
	got=$(sed -n -e "s/^$sym=\(.*\)$/\1/p" -e "s/^# $sym is not set$/n/p" "$config")
	[ -n "$got" ] || got=n
	if [ "$got" != "$want" ]; then
		echo "Error: $frag asks for $sym=$want, but $config has $sym=$got (check its dependencies)" >&2
		bad=1
	fi
done < "$config.want"
rm -f "$config.want"
exit $bad
