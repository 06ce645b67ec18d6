# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# Processes a host check started, found by a tag in their environment
# (sourced by the host checks that test the rig). Every process inherits
# the environment it was started with, so whatever the harness starts
# (QEMU, an emulator, a child of either) carries NSBSP_PROCTAG, however it
# is named and whoever its parent is now.
#
#   NSBSP_PROCTAG=$tag sh harness.sh ...     # start something, tagged
#   procs_tagged "$tag"                      # "pid comm" of each still running
#   procs_gone "$tag" SECONDS                # wait (bounded) until none runs

procs_tagged() {
	# One grep over every environment (NUL-separated entries).
	grep -lzx "NSBSP_PROCTAG=$1" /proc/[0-9]*/environ 2> /dev/null | while read -r e; do
		p=${e%/environ}
		p=${p#/proc/}
		[ "$p" != $$ ] || continue
		# A zombie has ended; only its parent has not reaped it yet.
		st=$(sed -n 's/^State:[[:space:]]*\(.\).*/\1/p' "/proc/$p/status" 2> /dev/null) || continue
		case $st in "" | Z) continue ;; esac
		echo "$p $(cat "/proc/$p/comm" 2> /dev/null)"
	done
}

# Fails (status 1) naming what is left when SECONDS pass first.
procs_gone() {
	_i=0
	while :; do
		_left=$(procs_tagged "$1" | tr '\n' ' ')
		[ -n "$_left" ] || return 0
		_i=$((_i + 1))
		[ $_i -le $(($2 * 10)) ] || { echo "still running after $2 s: $_left"; return 1; }
		sleep 0.1
	done
}
