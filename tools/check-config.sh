#!/bin/sh
# Fail, naming each option, if a value asked for in a config fragment did
# not survive olddefconfig/allnoconfig (a missing dependency, a typo, an
# option that does not exist in this kernel).
#
# usage: check-config.sh DOTCONFIG FRAGMENT...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DOTCONFIG FRAGMENT..." >&2; exit 1; }
config=$1
shift
bad=0
for frag in "$@"; do
	# "CONFIG_X=v" and "# CONFIG_X is not set" lines, in file order.
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
		-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$frag" |
	while read -r sym want; do
		got=$(sed -n -e "s/^$sym=\(.*\)$/\1/p" -e "s/^# $sym is not set$/n/p" "$config")
		[ -n "$got" ] || got=n
		if [ "$got" != "$want" ]; then
			echo "Error: $frag asks for $sym=$want, but the kernel config has $sym=$got (check its dependencies)" >&2
			echo x
		fi
	done
done > "$config.check"
[ -s "$config.check" ] && bad=1
rm -f "$config.check"
exit $bad
