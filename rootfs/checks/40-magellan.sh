#!/bin/sh
# case: magellan_probe dt,acpi,uboot
# case: magellan_decode dt,acpi,uboot
# case: magellan_buttons dt,acpi,uboot
# case: magellan_garbage dt,acpi,uboot
# case: magellan_random_flood dt
#
# Magellan / SpaceMouse on the board's second serial port (a PCI 16550,
# QEMU pci-serial), played by the host emulator qemu/magellan-emu from
# magellan.scenario (beside this script), which holds every expected value.
# Each case attaches the line with magellan-attach (as inputattach does),
# works on a fresh input device and detaches again. magellan-check asks the
# emulator for each packet over a virtio console port named magellan-ctl
# once the input device exists (serport drops earlier bytes) and compares
# what evdev reports with the scenario.
#   magellan_probe    the attach sends the init string the emulator accepts;
#                     the input device has the scenario's name, axes, range
#                     and buttons
#   magellan_decode   every 'd' packet of section decode: ABS_X..ABS_RZ equal
#                     the scenario's values, in order
#   magellan_buttons  every 'k' packet of section buttons: the right presses
#                     and releases
#   magellan_garbage  section garbage: >= 10,000 junk bytes interleaved with
#                     packets; each packet still decodes, no kernel splat
#   magellan_random_flood  section flood: the emulator writes the scenario's
#                     'flood N' random bytes (seeded, the seed printed here;
#                     make check MAGELLAN_FLOOD_SEED=S repeats them) as fast
#                     as the line takes them, then the section's packets,
#                     which must decode exactly; every byte the emulator
#                     wrote must have reached the UART (its rx counter), none
#                     lost to an overrun; no kernel splat
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"
scenario=$(dirname "$0")/magellan.scenario
junk_min=10000	# bytes of junk the issue asks for in magellan_garbage

# The tty of QEMU's pci-serial (Red Hat 1b36:0002), the SpaceMouse port.
magellan_tty() {
	for dev in /sys/bus/pci/devices/*; do
		[ "$(cat "$dev/vendor" "$dev/device" 2>/dev/null | tr '\n' :)" = 0x1b36:0x0002: ] || continue
		for tty in "$dev"/tty/*; do
			[ -e "$tty" ] && echo "/dev/${tty##*/}" && return 0
		done
	done
	return 1
}

# The virtio console port through which the host emulator takes requests.
magellan_ctl() {
	for port in /sys/class/virtio-ports/*; do
		[ "$(cat "$port/name" 2>/dev/null)" = magellan-ctl ] && echo "/dev/${port##*/}" && return 0
	done
	return 1
}

# The scenario's value of KEYWORD (the rest of its line).
scenario_value() {
	sed -n "s/^$1 \{1,\}//p" "$scenario" | sed 's/ *#.*//'
}

holder=
detach() {
	[ -n "$holder" ] || return 0
	kill "$holder" 2>/dev/null || true
	holder=
}
trap detach EXIT

# Attach the line; sets ev (the event node) and holder (its pid).
attach() {
	out=$(magellan-attach --background "$tty") || fail "magellan-attach --background $tty failed"
	ev=${out% *} holder=${out#* }
	echo "attached $tty: $ev ($(cat "/sys/class/input/${ev##*/}/device/name"))"
}

# Detach and wait (bounded) for the input device to go away.
detach_and_check() {
	detach
	i=0
	while [ -e "/sys/class/input/${ev##*/}" ]; do
		i=$((i + 1))
		[ $i -le 100 ] || fail "the input device ${ev##*/} is still there 10 s after detaching"
		sleep 0.1
	done
	echo "detached: ${ev##*/} removed"
}

tty=$(magellan_tty) || fail "no pci-serial (1b36:0002) tty: is QEMU started with qemu/run.sh and CONFIG_SERIAL_8250_PCI=y?"
ctl=$(magellan_ctl) || fail "no virtio port named magellan-ctl: the harness starts QEMU with --magellan-control"
[ -r "$scenario" ] || fail "no $scenario"

# Play section $1 on the attached line; its output is in /tmp/magellan.out.
play_section() {
	magellan-check play "$scenario" "$1" "$ev" "$ctl" > /tmp/magellan.out
	rc=$?
	cat /tmp/magellan.out
	[ $rc -eq 0 ] || fail "section $1: the input layer did not report what the scenario says"
}

play() {
	attach
	play_section "$1"
	detach_and_check
}

# The number after "NAME=" in line $2.
field() {
	echo " $2" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}

# No kernel splat since the case began (its klog_mark).
no_splat() {
	splat=$(klog_since | splats | head -n 3)
	[ -z "$splat" ] || fail "kernel splat: $splat"
}

case $1 in
magellan_probe)
	before=$(magellan-check status "$ctl") || fail "$before"
	attach
	after=$(magellan-check status "$ctl") || fail "$after"
	echo "emulator: $after"
	n0=$(echo "$before" | sed -n 's/.* inits=\([0-9]*\) .*/\1/p')
	n1=$(echo "$after" | sed -n 's/.* inits=\([0-9]*\) .*/\1/p')
	[ "$n1" = $((n0 + 1)) ] || fail "the emulator did not accept one init string from the attach (inits $n0 -> $n1)"
	caps=$(magellan-check caps "$ev") || fail "$caps"
	echo "$caps"
	for key in name axes buttons; do
		want=$(scenario_value "$key")
		got=$(echo "$caps" | sed -n "s/^$key //p")
		[ "$got" = "$want" ] || fail "$key: the input device has '$got', the scenario says '$want'"
	done
	range=$(scenario_value range)
	for axis in $(scenario_value axes); do
		got=$(echo "$caps" | sed -n "s/^range $axis //p")
		[ "$got" = "$range" ] || fail "range of $axis: '$got', the scenario says '$range'"
	done
	detach_and_check
	;;
magellan_decode)
	play decode
	;;
magellan_buttons)
	play buttons
	;;
magellan_garbage)
	klog_mark "$1"
	play garbage
	junk=$(sed -n 's/.*; junk \([0-9]*\) bytes$/\1/p' /tmp/magellan.out)
	[ "${junk:-0}" -ge $junk_min ] || fail "only ${junk:-0} junk bytes were sent (at least $junk_min wanted)"
	no_splat
	;;
magellan_random_flood)
	klog_mark "$1"
	flood=$(sed -n '/^section flood/,/^section /s/^flood \([0-9]*\).*/\1/p' "$scenario")
	[ -n "$flood" ] || fail "$scenario: no 'flood N' line in section flood"
	attach
	st0=$(magellan-check status "$ctl") || fail "$st0"
	ic0=$(magellan-check icount "$tty") || fail "$ic0"
	echo "flood seed $(field flood_seed "$st0") (make check MAGELLAN_FLOOD_SEED=$(field flood_seed "$st0") repeats this flood)"
	play_section flood
	# The last packet was reported, so every byte before its '\r' is in.
	st1=$(magellan-check status "$ctl") || fail "$st1"
	ic1=$(magellan-check icount "$tty") || fail "$ic1"
	junk=$(sed -n 's/.*; junk \([0-9]*\) bytes$/\1/p' /tmp/magellan.out)
	[ "${junk:-0}" = "$flood" ] || fail "the emulator sent ${junk:-0} flood bytes, the scenario says $flood"
	written=$(($(field written "$st1") - $(field written "$st0")))
	echo "emulator wrote $written bytes; UART $tty before: $ic0; after: $ic1"
	for c in overrun buf_overrun; do
		[ "$(field $c "$ic1")" = "$(field $c "$ic0")" ] ||
			fail "$tty lost bytes: $c $(field $c "$ic0") -> $(field $c "$ic1")"
	done
	rx=$(($(field rx "$ic1") - $(field rx "$ic0")))
	[ "$rx" = "$written" ] || fail "$tty received $rx bytes, the emulator wrote $written"
	echo "$tty received all $rx bytes ($flood of them the flood, FNV-1a $(echo " $st1" | sed -n 's/.* flood_fnv=\([0-9a-f]*\).*/\1/p'))"
	no_splat
	detach_and_check
	;;
*)
	fail "40-magellan.sh: unknown case $1"
	;;
esac
