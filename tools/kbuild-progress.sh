#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Run a kernel build and say how far it is while it runs: every 10 s, when
# the count moved, one line "objects compiled of the total". The total is
# what the last complete build in the same folder had (KOUT/.nsbsp-objects),
# or, for a first build, what kbuild plans (a dry run, counted once in the
# background). A build that finishes within 10 s prints nothing.
#
# usage: kbuild-progress.sh KOUT MAKE-COMMAND...
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KOUT MAKE-COMMAND..." >&2; exit 1; }
kout=$1
shift
count=$kout/.nsbsp-objects
mkdir -p "$kout"
: > "$kout/.nsbsp-build-start"

objects() {
	find "$kout" -name '*.o' -newer "$kout/.nsbsp-build-start" 2> /dev/null | wc -l
}

total=$(cat "$count" 2> /dev/null || true)
if [ -z "$total" ]; then
	echo "  KERNEL  first build in $kout (about 7 minutes on 2 cores)"
	# What kbuild would compile: its dry run names each object once.
	(nice "$@" -n 2> /dev/null | grep -c -- ' -c -o ' > "$kout/.nsbsp-planned" || true) &
fi
(
	last=0
	while sleep 10; do
		[ -n "$total" ] || total=$(cat "$kout/.nsbsp-planned" 2> /dev/null || true)
		n=$(objects)
		[ "$n" -ne "$last" ] || continue
		last=$n
		if [ -n "$total" ] && [ "$total" -gt 0 ]; then
			echo "  KERNEL  $n of $total objects compiled ($((n * 100 / total))%)"
		else
			echo "  KERNEL  $n objects compiled"
		fi
	done
) &
progress=$!
trap 'kill "$progress" 2> /dev/null || true' EXIT
rc=0
"$@" || rc=$?
kill "$progress" 2> /dev/null || true
if [ "$rc" -eq 0 ]; then
	all=$(find "$kout" -name '*.o' | wc -l)
	echo "$all" > "$count"
fi
exit "$rc"
