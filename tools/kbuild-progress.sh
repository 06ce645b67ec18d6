#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Run a kernel build and say how far it is while it runs: every 10 s, when
# the count moved, one line "objects compiled of the total", and for a
# first build the time left at the rate so far (a machine's speed is its
# own: a figure fixed here would be wrong on the next one). The total is
# what the last complete build in the same folder had (KOUT/.nsbsp-objects),
# or, for a first build, what kbuild plans: a dry run in the background,
# once the build's prepare step has generated what kbuild's makefiles need
# (before that a dry run sees a fraction of the tree). A planned total is
# an estimate (module glue objects come on top), so a first build shows
# at most 99% until it ends. A build that finishes within 10 s prints
# nothing.
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
first=
if [ -z "$total" ]; then
	first=1
	echo "  KERNEL  first build in $kout (every object: many minutes, the time left below)"
	# What kbuild would compile: its dry run names each object once.
	# asm-offsets.h is the last thing prepare writes before the descent.
	(
		while [ ! -f "$kout/include/generated/asm-offsets.h" ]; do
			sleep 2
		done
		nice "$@" -n 2> /dev/null | grep -c -- ' -c -o ' > "$kout/.nsbsp-planned.tmp" || true
		mv "$kout/.nsbsp-planned.tmp" "$kout/.nsbsp-planned"
	) &
	planner=$!
fi
stop() {
	kill "$progress" 2> /dev/null || true
	[ -z "${planner:-}" ] || kill "$planner" 2> /dev/null || true
}
start=$(date +%s)
(
	last=0
	while sleep 10; do
		[ -n "$total" ] || total=$(cat "$kout/.nsbsp-planned" 2> /dev/null || true)
		n=$(objects)
		[ "$n" -ne "$last" ] || continue
		last=$n
		if [ -n "$total" ] && [ "$total" -gt 0 ]; then
			if [ "$n" -lt "$total" ]; then
				left=
				[ -z "$first" ] || left=", about $((($(date +%s) - start) * (total - n) / n / 60 + 1)) min left"
				echo "  KERNEL  $n of $total objects compiled ($((n * 100 / total))%$left)"
			else
				echo "  KERNEL  $n objects compiled (99%)"
			fi
		else
			echo "  KERNEL  $n objects compiled"
		fi
	done
) &
progress=$!
trap stop EXIT
rc=0
"$@" || rc=$?
stop
if [ "$rc" -eq 0 ]; then
	all=$(find "$kout" -name '*.o' | wc -l)
	echo "$all" > "$count"
fi
exit "$rc"
