# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# Waiting for asynchronous work, with a bound (sourced by the on-target
# checks and the fixtures' tools): poll a condition, never a fixed delay.

# nap SECONDS: pause without starting a process. The sleep of a poll loop
# is a fork and an exec every turn, under QEMU dearer than most conditions
# it polls, and paid for as long as the wait lasts; busybox sh's read -t,
# on a FIFO that nobody writes to, times out instead, fractions of a
# second too. A shell whose read has no -t (it complains at once) sleeps.
nap() {
	if [ -z "${nap_how-}" ]; then
		nap_how=process
		if _f=$(mktemp -u "${TMPDIR:-/tmp}/nap.XXXXXX") && mkfifo "$_f"; then
			exec 8<> "$_f"
			rm -f "$_f"
			# shellcheck disable=SC3045 # read -t: busybox sh's, tried here
			_e=$(read -r -t 0.01 _ 2>&1 <&8 || :)
			[ -n "$_e" ] || nap_how=fifo
		fi
	fi
	if [ "$nap_how" = fifo ]; then
		# shellcheck disable=SC3045
		read -r -t "$1" _ <&8 || :
	else
		sleep "$1"
	fi
}

# Uptime in hundredths of a second, in _cs (/proc/uptime has two decimals;
# "1" in front keeps a fraction like 08 from reading as octal).
uptime_cs() {
	read -r _up _ < /proc/uptime
	_cs=$((${_up%.*} * 100 + 1${_up#*.} - 100))
}

# poll PAUSE SECONDS CMD...: run CMD every PAUSE seconds until it succeeds;
# fail once SECONDS (whole seconds) have passed without.
poll() {
	_pause=$1
	uptime_cs
	_end=$((_cs + $2 * 100))
	shift 2
	until "$@"; do
		uptime_cs
		[ "$_cs" -lt "$_end" ] || return 1
		nap "$_pause"
	done
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s, at most SECONDS.
wait_for() {
	poll 0.1 "$@"
}
