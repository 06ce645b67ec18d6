#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: magellan_encoder host
# case: magellan_lifecycle host
# inputs: $TOP/qemu $TOP/common/magellan $TOP/tools/host-checks/lib $HOST_BIN /usr/bin/qemu-system-aarch64
#
# Host checks of the Magellan / SpaceMouse emulator (qemu/magellan-emu).
# magellan_encoder: the protocol model's unit test (qemu/magellan-test.c):
#   packets against hand-computed bytes (the all-nibbles case included), the
#   driver's acceptance rules, the init string, junk that stays junk, the
#   seeded flood (same bytes in any chunks, ends with '\r', nothing of it a
#   packet the driver takes), and
#   the scenario file (common/magellan/magellan.scenario) parses.
# magellan_lifecycle: no emulator outlives its boot. qemu/harness.sh is run
#   with a paused QEMU (-S, a dummy kernel) and ended four ways: its timeout,
#   QEMU killed, the harness itself killed (SIGKILL), QEMU failing to start.
#   Every process it started must be gone within a bound each time.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=./lib/procs.sh
. "$TOP/tools/host-checks/lib/procs.sh"

scenario=$TOP/common/magellan/magellan.scenario

# Everything the harness starts carries this tag (lib/procs.sh).
tag=magellan-lifecycle-$$

# Start the harness on a paused QEMU in the background; wait until the
# emulator found QEMU's ptys (or $2 = nowait). Sets harness; writes the
# tagged processes ("pid comm") to $tmp/procs.
start() {
	rm -rf "$tmp/out"
	NSBSP_PROCTAG=$tag sh "$TOP/qemu/harness.sh" --mode dt --timeout "$1" --out "$tmp/out" \
		--kernel "$tmp/Image" --initrd "$tmp/initrd" --dtb "$tmp/dtb" -- $qemu_extra \
		> "$tmp/harness.out" 2>&1 &
	harness=$!
	i=0
	until [ "${2-}" = nowait ] || grep -q '^ready ' "$tmp/out/dt.magellan.status" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 200 ] || { cat "$tmp/harness.out"; fail "the emulator did not find QEMU's ptys in 20 s"; }
		sleep 0.1
	done
	procs_tagged "$tag" > "$tmp/procs"
	echo "$3: harness $harness started$(tr '\n' ',' < "$tmp/procs" | sed 's/,$//;s/^/ /')"
}

case $1 in
magellan_encoder)
	test=$HOST_BIN/magellan-test
	[ -x "$test" ] || fail "no $test (make check builds it)"
	"$test" "$scenario" || fail "the protocol model's unit test failed"
	;;
magellan_lifecycle)
	emu=$HOST_BIN/magellan-emu
	[ -x "$emu" ] || fail "no $emu (make check builds it)"
	command -v qemu-system-aarch64 > /dev/null || fail "no qemu-system-aarch64"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	head -c 4096 /dev/zero > "$tmp/Image"
	: > "$tmp/initrd"
	sh "$TOP/qemu/run.sh" --dumpdtb "$tmp/dtb" > /dev/null 2>&1 || fail "QEMU cannot dump its DT"
	export NSBSP_MAGELLAN_EMU="$emu" NSBSP_MAGELLAN_SCENARIO="$scenario"
	qemu_extra=-S

	start 3 wait "timeout"
	grep -q ' magellan-emu$' "$tmp/procs" || fail "no magellan-emu among the harness's processes"
	grep -q 'qemu-system' "$tmp/procs" || fail "no QEMU among the harness's processes"
	wait "$harness" || true
	procs_gone "$tag" 10 || fail "after the harness's timeout: left behind"
	grep -q '^exit ' "$tmp/out/dt.magellan.status" || fail "the emulator did not report its exit"
	echo "  all gone; emulator: $(grep '^exit ' "$tmp/out/dt.magellan.status")"

	start 60 wait "QEMU killed"
	qemu=$(awk '$2 ~ /qemu-system/ { print $1 }' "$tmp/procs")
	[ -n "$qemu" ] || fail "no QEMU among the harness's processes"
	kill -9 "$qemu"
	procs_gone "$tag" 10 || fail "after kill -9 of QEMU: left behind"
	wait "$harness" || true
	echo "  all gone; emulator: $(grep '^exit ' "$tmp/out/dt.magellan.status")"

	start 3 wait "harness killed"
	kill -9 "$harness"
	emu_pid=$(awk '$2 ~ /magellan-emu/ { print $1 }' "$tmp/procs")
	[ -n "$emu_pid" ] || fail "no magellan-emu among the harness's processes"
	i=0
	while kill -0 "$emu_pid" 2> /dev/null; do
		i=$((i + 1))
		[ $i -le 20 ] || fail "after kill -9 of the harness: the emulator stayed for 2 s"
		sleep 0.1
	done
	procs_gone "$tag" 15 || fail "after kill -9 of the harness: left behind"
	echo "  all gone (the emulator at once, QEMU at the harness's timeout)"

	qemu_extra=-no-such-option
	start 30 nowait "QEMU fails"
	wait "$harness" || true
	left=$(procs_tagged "$tag")
	[ -z "$left" ] || fail "QEMU failed to start, but the harness left: $left"
	echo "  all gone: $(grep -o 'magellan-emu[^;]*' "$tmp/out/dt.ktap" | head -n 1)"
	;;
*)
	fail "magellan-emu.sh: unknown case $1"
	;;
esac
