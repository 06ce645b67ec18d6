#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# Boot the board once in one mode with the checks enabled, save the console
# to OUT/MODE.log and the KTAP to OUT/MODE.ktap. The KTAP ends with the
# harness's own case, harness_verdict, which fails with a named reason on
# a kernel splat anywhere in the log (even if every check passed), and
# with "# ERROR reason" when the rig failed: a timeout, QEMU or the
# firmware never came up, missing or incomplete results, a kernel log dump
# that does not reach back to the first boot line, a host-side emulator
# that failed. Whether every case is there is the summary's to say
# (tools/ktap-summary.sh). Each device's host-side fixture is started
# before QEMU and stopped after it (NAME_start, NAME_stop of
# qemu/devices/NAME.sh).
#
# usage: harness.sh --mode MODE --timeout SECONDS --out DIR [run.sh options]
# Exit status: 0 when harness_verdict passed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NSBSP_COMMON=$here/../common
# shellcheck source=../common/ktap.sh
. "$NSBSP_COMMON/ktap.sh"
# shellcheck source=../common/klog.sh
. "$NSBSP_COMMON/klog.sh"
die() {
	echo "Error: $*" >&2
	exit 1
}

mode=dt timeout_s=120 out=
while [ $# -gt 0 ]; do
	case $1 in
	--mode) mode=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) break ;;
	esac
done
[ -n "$out" ] || die "usage: $0 --mode MODE --timeout S --out DIR [run.sh options]"
mkdir -p "$out"
log=$out/$mode.log
ktap=$out/$mode.ktap
raw=$out/$mode.raw

# The devices' host-side fixtures; harness_error collects what went wrong.
harness_run_args='' harness_error=''
# shellcheck source=./devices.sh
. "$here/devices.sh"
stop_devices() {
	for d in $devices; do
		if command -v "${d}_stop" > /dev/null; then "${d}_stop"; fi
	done
}
trap stop_devices EXIT
for d in $devices; do
	if command -v "${d}_start" > /dev/null; then "${d}_start" "$out" "$mode"; fi
done

echo "  BOOT    $mode (checks; timeout ${timeout_s}s, console in $log)"
start=$(date +%s%N)
rc=0
# run.sh execs QEMU, so timeout signals QEMU itself: nothing is left behind.
# shellcheck disable=SC2086 # harness_run_args: one option per word
timeout -k 5 "$timeout_s" sh "$here/run.sh" --check --mode "$mode" $harness_run_args "$@" \
	< /dev/null > "$raw" 2>&1 || rc=$?
end=$(date +%s%N)
tr -d '\r' < "$raw" > "$log"
rm -f "$raw"
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')

# section BEGIN END: the console lines between two marker lines.
section() {
	awk -v b="$1" -v e="$2" '$0 == e { on = 0 } on; $0 == b { on = 1 }' "$log"
}
section "$KTAP_BEGIN" "$KTAP_END" > "$ktap.guest"

# error: the rig failed (ERROR); reason: the kernel did (a failure).
error='' reason=''
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	error="timeout: QEMU still running after ${timeout_s}s"
elif ! grep -q "Linux version" "$log"; then
	error="did not boot: QEMU or the firmware never started a kernel (QEMU exit $rc)"
elif ! grep -qx "$KTAP_BEGIN" "$log"; then
	error="missing results: the checks never started"
elif ! grep -qx "$KTAP_END" "$log"; then
	error="incomplete results: the checks did not finish"
elif ! grep -qx "$DMESG_END" "$log"; then
	error="incomplete kernel log: no end of the dmesg dump"
elif ! section "$DMESG_BEGIN" "$DMESG_END" | head -n 1 | grep -q "] $KLOG_FIRST"; then
	error="incomplete kernel log: the dmesg dump does not start with the first boot line (the log buffer wrapped around)"
fi
# The whole console: the kernel's own lines before the checks lowered the
# log level, the results, and the complete kernel log dumped after them.
splat=$(splats < "$log" | head -n 3)
if [ -n "$splat" ]; then
	reason="kernel splat in the log: $(echo "$splat" | head -n 1)"
fi

# The console's half of a target case (qemu/log-checks/CASE.sh LOG), for
# what only the console saw (the firmware's lines before the kernel): a
# case the guest passed stays "ok" only if that passes too; its output
# becomes the case's diagnostics either way.
for lc in "$here"/log-checks/*.sh; do
	[ -f "$lc" ] || continue
	name=$(basename "$lc" .sh)
	grep -q "^ok [0-9]* $name\$" "$ktap.guest" || continue
	verdict=ok
	sh "$lc" "$log" > "$ktap.lc" 2>&1 || verdict="not ok"
	awk -v name="$name" -v verdict="$verdict" -v lc="$ktap.lc" '
		$0 ~ "^ok [0-9]+ " name "$" {
			while ((getline l < lc) > 0) { print "# console: " l; last = l }
			if (verdict == "ok") print
			else print "not " $1 " " $2 " " $3 " # console: " last
			next
		}
		{ print }' "$ktap.guest" > "$ktap.tmp"
	mv "$ktap.tmp" "$ktap.guest"
	rm -f "$ktap.lc"
done

trap - EXIT
stop_devices
[ -z "$harness_error" ] || error="${error:+$error; }$harness_error"

planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$ktap.guest" | head -n 1)
[ -n "$planned" ] || planned=0
{
	echo "KTAP version 1"
	echo "# mode $mode: QEMU ran ${secs}s, exit $rc"
	echo "1..$((planned + 1))"
	grep -v -e '^KTAP version' -e '^1\.\.[0-9]*$' "$ktap.guest" || true
	if [ -n "$splat" ]; then echo "$splat" | sed 's/^/# /'; fi
	if [ -n "$error" ]; then
		echo "not ok $((planned + 1)) harness_verdict # ERROR $error${reason:+; $reason}"
	elif [ -n "$reason" ]; then
		echo "not ok $((planned + 1)) harness_verdict # $reason"
	else
		echo "ok $((planned + 1)) harness_verdict"
	fi
} > "$ktap"
rm -f "$ktap.guest"
why=$error${error:+${reason:+; }}$reason
echo "  RESULT  $mode: $(grep -c '^ok ' "$ktap") ok, $(grep -c '^not ok ' "$ktap") not ok (${secs}s)${why:+ - $why}"
[ -z "$why" ]
