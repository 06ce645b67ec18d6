# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# The board's devices, each a module of its own: sources every
# qemu/devices/NAME.sh and lists their names in $devices. A device file
# defines NAME_usage, NAME_option OPTION VALUE (0 when it took the
# option), NAME_qemu (its QEMU and kernel arguments, with qarg and karg),
# and optionally NAME_demo (a host-side emulator of an interactive boot),
# NAME_start DIR MODE and NAME_stop (that of a check boot, for the harness).
devices=
for _f in "$(dirname "$0")"/devices/*.sh; do
	# shellcheck source=/dev/null # each device's plumbing
	. "$_f"
	_n=${_f##*/}
	devices="$devices ${_n%.sh}"
done
