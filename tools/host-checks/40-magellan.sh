#!/bin/sh
# case: magellan_encoder host
# case: magellan_lifecycle host
#
# Host checks of the Magellan / SpaceMouse emulator (qemu/magellan-emu).
# magellan_encoder: the protocol model's unit test (qemu/magellan-test.c):
#   packets against hand-computed bytes (the all-nibbles case included), the
#   driver's acceptance rules, the init string, junk that stays junk, the
#   seeded flood (same bytes in any chunks, ends with '\r', nothing of it a
#   packet the driver takes), and
#   the scenario file (rootfs/checks/magellan.scenario) parses.
# magellan_lifecycle: no emulator outlives its boot. qemu/harness.sh is run
#   with a paused QEMU (-S, a dummy kernel) and ended four ways: its timeout,
#   QEMU killed, the harness itself killed (SIGKILL), QEMU failing to start.
#   Every process it started must be gone within a bound each time.
# shellcheck source=../../rootfs/checks/lib.sh
. "$TOP/rootfs/checks/lib.sh"

scenario=$TOP/rootfs/checks/magellan.scenario

# All descendants of pid $1 ("pid comm" lines), from /proc.
descendants() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v root="$1" '
		{ pid = $1; comm = $2; ppid = $4; parent[pid] = ppid; name[pid] = comm }
		END {
			for (p in parent) {
				q = p
				while (q in parent && q != root && q > 1) q = parent[q]
				if (q == root && p != root) print p, name[p]
			}
		}'
}

# Wait (bounded: $2 s) until none of the "pid comm" lines in file $1 runs.
all_gone() {
	i=0
	while :; do
		left=
		while read -r pid comm; do
			kill -0 "$pid" 2>/dev/null && left="$left $pid$comm"
		done < "$1"
		[ -n "$left" ] || return 0
		i=$((i + 1))
		[ $i -le $(($2 * 10)) ] || { echo "still running after $2 s:$left"; return 1; }
		sleep 0.1
	done
}

# Start the harness on a paused QEMU in the background; wait until the
# emulator found QEMU's ptys (or $2 = nowait). Sets harness, snapshot.
start() {
	rm -rf "$tmp/out"
	sh "$TOP/qemu/harness.sh" --mode dt --timeout "$1" --out "$tmp/out" \
		--kernel "$tmp/Image" --initrd "$tmp/initrd" --dtb "$tmp/dtb" -- $qemu_extra \
		> "$tmp/harness.out" 2>&1 &
	harness=$!
	i=0
	until [ "${2-}" = nowait ] || grep -q 'SpaceMouse on' "$tmp/out/dt.magellan.log" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le 200 ] || { cat "$tmp/harness.out"; fail "the emulator did not find QEMU's ptys in 20 s"; }
		sleep 0.1
	done
	descendants "$harness" > "$tmp/procs"
	echo "$3: harness $harness started$(tr '\n' ',' < "$tmp/procs" | sed 's/,$//;s/^/ /')"
}

case $1 in
magellan_encoder)
	test=$OUT/host/magellan-test
	[ -x "$test" ] || fail "no $test (make check builds it)"
	"$test" "$scenario" || fail "the protocol model's unit test failed"
	;;
magellan_lifecycle)
	emu=$OUT/host/magellan-emu
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
	grep -q 'emu' "$tmp/procs" || fail "no magellan-emu among the harness's processes"
	wait "$harness" || true
	all_gone "$tmp/procs" 10 || fail "after the harness's timeout: left behind"
	grep -q 'leaving' "$tmp/out/dt.magellan.log" || fail "the emulator did not log its exit"
	echo "  all gone; emulator: $(grep leaving "$tmp/out/dt.magellan.log")"

	start 60 wait "QEMU killed"
	qemu=$(awk '$2 ~ /qemu-system/ { print $1 }' "$tmp/procs")
	[ -n "$qemu" ] || fail "no QEMU among the harness's processes"
	kill -9 "$qemu"
	all_gone "$tmp/procs" 10 || fail "after kill -9 of QEMU: left behind"
	wait "$harness" || true
	echo "  all gone; emulator: $(grep leaving "$tmp/out/dt.magellan.log")"

	start 3 wait "harness killed"
	kill -9 "$harness"
	emu_pid=$(awk '$2 ~ /magellan-emu/ { print $1 }' "$tmp/procs")
	echo "$emu_pid magellan-emu" > "$tmp/emu"
	all_gone "$tmp/emu" 2 || fail "after kill -9 of the harness: the emulator stayed"
	all_gone "$tmp/procs" 15 || fail "after kill -9 of the harness: left behind"
	echo "  all gone (the emulator at once, QEMU at the harness's timeout)"

	qemu_extra=-no-such-option
	start 30 nowait "QEMU fails"
	wait "$harness" || true
	descendants "$harness" > "$tmp/procs"
	[ ! -s "$tmp/procs" ] || fail "QEMU failed to start, but left: $(cat "$tmp/procs")"
	echo "  all gone: $(grep -o 'magellan-emu[^;]*' "$tmp/out/dt.ktap" | head -n 1)"
	;;
*)
	fail "40-magellan.sh: unknown case $1"
	;;
esac
