# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# Magellan / SpaceMouse: the board's second serial port, played by the host
# emulator qemu/magellan-emu (or a real SpaceMouse with --magellan DEV).
# QEMU virt has one non-secure PL011, the console, so the board gets a PCI
# 16550 (pci-serial, 1b36:0002, driver 8250_pci; the same in every virt
# boot mode); the Pi 3 uses its PL011, freed from Bluetooth
# (dts/rpi3/magellan.dtso), QEMU raspi3b's first serial port. Its host end
# is a pty that the emulator finds through QMP (chardev "magellan"). A
# check boot adds the checks' control port (chardev "magellan-ctl"),
# through which the guest asks the emulator for each packet: a virtio
# console port named magellan-ctl, or on the Pi 3, which has no virtio,
# QEMU's USB serial adapter.
#
# Sourced by run.sh (options, QEMU arguments, the emulator of an
# interactive boot) and by qemu/harness.sh (the emulator of a check boot:
# magellan_start, magellan_stop). The emulator reports on its standard
# output, one line each: "ready ..." once it found QEMU's ptys, "exit
# REASON" when it leaves (qemu/magellan-emu.c).
# Environment (the Makefile's): NSBSP_MAGELLAN_EMU, NSBSP_MAGELLAN_SCENARIO,
# NSBSP_MAGELLAN_FLOOD_SEED (make check MAGELLAN_FLOOD_SEED=N).
magellan_dev=''

magellan_usage() {
	echo "  --magellan DEV   the SpaceMouse port's host end is serial device DEV"
	echo "                   (default: a pty, chardev \"magellan\", for qemu/magellan-emu)"
}

magellan_option() {
	case $1 in
	--magellan) magellan_dev=$2 ;;
	*) return 1 ;;
	esac
}

magellan_qemu() {
	if [ -n "$magellan_dev" ]; then
		if [ ! -c "$magellan_dev" ] || [ ! -r "$magellan_dev" ] || [ ! -w "$magellan_dev" ]; then
			die "$magellan_dev: not a serial device this user can read and write"
		fi
		qarg -chardev "serial,id=magellan,path=$magellan_dev"
	else
		qarg -chardev pty,id=magellan
	fi
	if [ "${mode-}" = rpi3 ]; then
		# shellcheck disable=SC2034 # run.sh's: the Pi 3's first UART
		rpi_serial0=chardev:magellan
		[ -z "$check" ] || qarg -chardev pty,id=magellan-ctl -device usb-serial,chardev=magellan-ctl
		return 0
	fi
	qarg -device pci-serial,chardev=magellan
	if [ -n "$check" ]; then
		qarg -device virtio-serial-pci -chardev pty,id=magellan-ctl \
			-device virtserialport,chardev=magellan-ctl,name=magellan-ctl
	fi
}

# make qemu: the emulator plays the scenario in a loop (10 packets a
# second), in the background of the shell that becomes QEMU (exec): it
# leaves with QEMU (QMP or pty closed, or PR_SET_PDEATHSIG).
magellan_demo() {
	if [ -n "$magellan_dev" ] || [ -z "$qmp" ] || [ -z "${NSBSP_MAGELLAN_EMU-}" ]; then
		return 0
	fi
	"$NSBSP_MAGELLAN_EMU" --qmp "$qmp" --demo 10 --scenario "$NSBSP_MAGELLAN_SCENARIO" \
		--log "$(dirname "$qmp")/magellan.log" < /dev/null > /dev/null &
}

# magellan_start DIR MODE: start the emulator for a check boot; its log is
# DIR/MODE.magellan.log, its status lines DIR/MODE.magellan.status. Adds
# the run.sh options QEMU needs to harness_run_args.
magellan_pid='' magellan_tmp=''
magellan_start() {
	[ -n "${NSBSP_MAGELLAN_EMU-}" ] || return 0
	magellan_log=$1/$2.magellan.log magellan_status=$1/$2.magellan.status
	magellan_tmp=$(mktemp -d)
	: > "$magellan_status"
	"$NSBSP_MAGELLAN_EMU" --qmp "$magellan_tmp/qmp" --control --scenario "$NSBSP_MAGELLAN_SCENARIO" \
		${NSBSP_MAGELLAN_FLOOD_SEED:+--flood-seed "$NSBSP_MAGELLAN_FLOOD_SEED"} \
		< /dev/null > "$magellan_status" 2> "$magellan_log" &
	magellan_pid=$!
	harness_run_args="$harness_run_args --qmp $magellan_tmp/qmp"
}

# magellan_stop: after QEMU ended, the emulator must leave by itself, at
# once; what went wrong goes to harness_error.
magellan_stop() {
	[ -n "$magellan_pid" ] || return 0
	why=
	if ! grep -q '^ready ' "$magellan_status"; then
		# Still waiting for QEMU's QMP socket (with a bound): QEMU never got there.
		kill "$magellan_pid" 2> /dev/null || true
		why="magellan-emu never reached QEMU's QMP socket (killed)"
	fi
	i=0
	while kill -0 "$magellan_pid" 2> /dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$magellan_pid" 2> /dev/null; then
		why="magellan-emu still running 5 s after QEMU ended (killed; see $magellan_log)"
		kill "$magellan_pid" 2> /dev/null || true
	fi
	rc=0
	wait "$magellan_pid" || rc=$?
	[ "$rc" -eq 0 ] || why=${why:-"magellan-emu failed (exit $rc): $(tail -n 1 "$magellan_log")"}
	[ -z "$why" ] || harness_error="${harness_error:+$harness_error; }$why"
	magellan_pid=''
	rm -rf "$magellan_tmp"
}
