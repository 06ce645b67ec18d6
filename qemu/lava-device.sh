#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The QEMU of the LAVA devices of board/lava/devices/: the boot command of
# nsbsp-qemu (LAVA's qemu boot method) and the serial connection of
# nsbsp-qemu-uboot (LAVA's u-boot boot method). It boots the board through
# qemu/run.sh, the one QEMU command line, and starts and stops the
# devices' host-side fixtures of a check boot as the harness does
# (NAME_start, NAME_stop of qemu/devices/NAME.sh), so a LAVA job gets the
# machine `make check` boots:
#   - LAVA's QEMU-style image arguments (the job's image_arg: -kernel FILE,
#     -initrd FILE, -dtb FILE, -append ARGS) become run.sh's --kernel,
#     --initrd, --dtb and --append; nsbsp.check=1 among the -append words
#     becomes run.sh's --check (which adds it back), as does --check;
#   - a check boot gets the devices' fixtures (the Magellan emulator with
#     the checks' control port), their files and logs in the state folder;
#   - every disk is written to a throw-away overlay (QEMU's -snapshot): no
#     job changes the device's cache disk or the flashed SD card image;
#   - --power: QEMU starts powered off (-S) with a QMP socket,
#     STATE/power.qmp, for the device's power commands (qemu/qmp-power.py).
# Every other option is run.sh's (--mode, --image, --fixtures, ...).
#
# usage: lava-device.sh --state DIR [--magellan-emu FILE --magellan-scenario FILE]
#                       [--power] [run.sh option]... [-kernel FILE] [-initrd FILE]
#                       [-dtb FILE] [-append ARGS]
#   --state DIR              the device's own folder: QMP sockets, fixtures' logs
#   --magellan-emu FILE      the Magellan emulator (out/host/magellan-emu)
#   --magellan-scenario FILE its scenario (common/magellan/magellan.scenario)
#   --power                  start powered off; qmp-power.py DIR/power.qmp on
# Exit status: QEMU's; 1 when a fixture failed (its reason on standard error).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	sed -n '21,27s/^# \{0,1\}//p' "$0" >&2
	exit 1
}

state='' power='' check='' mode=dt append=''
# The device dictionary names the emulator (a worker's environment has
# none of the Makefile's).
NSBSP_MAGELLAN_EMU='' NSBSP_MAGELLAN_SCENARIO=''
# Our options are taken out, the rest is kept in order for run.sh.
need() {
	[ "$n" -ge 2 ] || { echo "Error: $1 needs an argument" >&2; usage; }
}
n=$#
while [ "$n" -gt 0 ]; do
	case $1 in
	--state) need "$1"; state=$2; shift 2; n=$((n - 2)) ;;
	--magellan-emu) need "$1"; NSBSP_MAGELLAN_EMU=$2; shift 2; n=$((n - 2)) ;;
	--magellan-scenario) need "$1"; NSBSP_MAGELLAN_SCENARIO=$2; shift 2; n=$((n - 2)) ;;
	--power) power=1; shift; n=$((n - 1)) ;;
	--check) check=1; shift; n=$((n - 1)) ;;
	--mode) need "$1"; mode=$2; set -- "$@" "$1" "$2"; shift 2; n=$((n - 2)) ;;
	-append)
		need "$1"
		set -f
		for w in $2; do
			case $w in
			nsbsp.check=1) check=1 ;;
			*) append=${append:+$append }$w ;;
			esac
		done
		set +f
		shift 2
		n=$((n - 2))
		;;
	-kernel | -initrd | -dtb) need "$1"; set -- "$@" "-$1" "$2"; shift 2; n=$((n - 2)) ;;
	--) echo "Error: no QEMU arguments of its own: the command line is qemu/run.sh's" >&2; exit 1 ;;
	-h | --help) usage ;;
	*) set -- "$@" "$1"; shift; n=$((n - 1)) ;;
	esac
done
[ -n "$state" ] || { echo "Error: --state DIR is needed" >&2; usage; }
case $state in *,*) echo "Error: $state: QEMU options cannot take a path with a comma" >&2; exit 1 ;; esac
mkdir -p "$state"
# A device that cannot give the checks their fixtures does not boot: LAVA
# ends the job Incomplete, where the harness would say ERROR.
if [ -n "$NSBSP_MAGELLAN_EMU" ]; then
	[ -x "$NSBSP_MAGELLAN_EMU" ] || { echo "Error: $NSBSP_MAGELLAN_EMU: not executable (make)" >&2; exit 1; }
	[ -r "$NSBSP_MAGELLAN_SCENARIO" ] || { echo "Error: --magellan-scenario '$NSBSP_MAGELLAN_SCENARIO': not readable" >&2; exit 1; }
fi
export NSBSP_MAGELLAN_EMU NSBSP_MAGELLAN_SCENARIO
# The fixtures' own files (the emulator's QMP socket folder) go in the
# state folder too: what a job leaves running can be found by its path.
TMPDIR=$state
export TMPDIR

# The devices' host-side fixtures of a check boot, as qemu/harness.sh
# starts them; harness_error collects what went wrong.
harness_run_args='' harness_error=''
# shellcheck source=./devices.sh
. "$here/devices.sh"
if [ -n "$check" ]; then
	for d in $devices; do
		if command -v "${d}_start" > /dev/null; then "${d}_start" "$state" "$mode"; fi
	done
fi

# shellcheck disable=SC2086 # harness_run_args: one option per word
set -- $harness_run_args "$@" ${check:+--check} ${append:+--append "$append"} -- -snapshot
if [ -n "$power" ]; then
	rm -f "$state/power.qmp"
	set -- "$@" -S -qmp "unix:$state/power.qmp,server=on,wait=off"
fi
# The whole boot command, in the job log (LAVA shows this console).
echo "nsbsp: $here/run.sh $*" >&2

# QEMU runs as a child, so the fixtures are stopped after it; its console
# is this one (an asynchronous command's standard input would be /dev/null).
# LAVA ends a job by signalling this shell: QEMU is ended with it.
exec 3<&0
sh "$here/run.sh" "$@" <&3 3<&- &
qemu_pid=$!
exec 3<&-
trap 'kill "$qemu_pid" 2> /dev/null || true' HUP INT TERM
rc=0
while kill -0 "$qemu_pid" 2> /dev/null; do
	rc=0
	wait "$qemu_pid" || rc=$?
done
for d in $devices; do
	if command -v "${d}_stop" > /dev/null; then "${d}_stop"; fi
done
if [ -n "$harness_error" ]; then
	echo "nsbsp: fixture failed: $harness_error" >&2
	exit 1
fi
exit "$rc"
