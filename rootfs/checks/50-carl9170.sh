#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: carl9170_fw_magic dt,acpi,uboot,rpi3
# case: carl9170_fw_upload dt,acpi,uboot,rpi3
# case: carl9170_wlan0 dt,acpi,uboot,rpi3
# case: carl9170_ifup dt,acpi,uboot,rpi3
# case: carl9170_scan dt,acpi,uboot,rpi3
# case: carl9170_bad_fw dt,acpi,uboot,rpi3
# case: carl9170_bad_fw_set dt
# case: carl9170_disconnect_upload dt
# case: carl9170_disconnect_cmd dt
# case: carl9170_garbled_resp dt
#
# carl9170 (AR9170 USB WiFi) with the real carl9170-1.fw. In a test boot
# the stick is the USB stub (dummy_hcd + raw_gadget + carl9170-emu, test
# fixtures plugged in by the fixture disk's S50carl9170-stub with
# carl9170-stub); on a board, or with a stick passed through, the cases
# that need the stub skip and the others check the real stick. Every
# expected value is read from the firmware file or from the stub's config
# /etc/carl9170-emu.conf, never written here.
# carl9170_fw_magic   the driver found the descriptors behind otus_magic: its
#                     "driver   API" line and "firmware API: <release> <date>"
#                     with release and date read from the file's MOTD
# carl9170_fw_upload  the stub received exactly the upload part of the file
#                     (after miniboot_size bytes): byte count and sha256
# carl9170_wlan0      a phy and wlan0 of carl9170, MAC = the stub's EEPROM MAC
# carl9170_ifup       ip link set wlan0 up works, wlan0 is UP
# carl9170_scan       iw dev wlan0 scan lists the stub's BSS: BSSID, SSID, freq
# carl9170_bad_fw     firmware with a damaged magic: "unsupported firmware.",
#                     nothing uploaded, no splat; then the good one works again
# carl9170_bad_fw_set every damaged image of tools/carl9170-badfw.c, bound
#                     in turn on the plugged stub: the driver's own error line
#                     for it (its expect file), nothing uploaded, no wlan0;
#                     then the good firmware works again
# carl9170_disconnect_upload  the stub unplugs itself at the 2nd firmware
#                     chunk: "firmware upload failed", no wlan0; replug works
# carl9170_disconnect_cmd  with wlan0 up, the stub unplugs at the next
#                     command: wlan0 goes away; replug works
# carl9170_garbled_resp  with wlan0 up, the stub answers 3 commands short,
#                     oversized and garbled: the driver's own complaints for
#                     each; replug works
# Every case also wants no kernel splat since it started.
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"
# shellcheck source=../../common/poll.sh
. "$NSBSP_COMMON/poll.sh"

fw=/lib/firmware/carl9170-1.fw
badfw_dir=/lib/firmware/nsbsp-carl9170/bad-magic
conf=/etc/carl9170-emu.conf
state=/run/carl9170-emu
fwpath=/sys/module/firmware_class/parameters/path
fwsets=/lib/firmware/nsbsp-carl9170
drv=/sys/bus/usb/drivers/carl9170

# A value of the stub's config file.
conf_get() {
	sed -n "s/^$1=//p" "$conf"
}

# A real stick instead of the stub (make qemu CARL9170=..., or the board).
real_stick() {
	grep -qw nsbsp.carl9170=host /proc/cmdline
}

# Why the stub is not there, if it is not: a real stick passed through, or
# a board booted without its test fixtures (a product), has none. In a
# test boot it must be there: these cases then fail without it.
no_stub() {
	if real_stick; then
		echo "a real stick is passed through: the stub is not plugged"
	elif ! grep -qw nsbsp.fixtures=1 /proc/cmdline; then
		echo "no AR9170 stub: the board booted without its test fixtures (nsbsp.fixtures=1)"
	else
		return 1
	fi
}

# Offsets and numbers of the firmware's descriptors (fwdesc.h): the OTAR
# descriptor (first "OTAR" in the file, as carl9170_find_fw_desc scans),
# its miniboot_size, and the MOTD descriptor of the chain with its date.
# The file goes to awk as one hex string, searched with index(): a byte
# array of the whole file costs the emulated board a second a case.
fw_info() {
	od -An -v -tx1 "$1" | tr -d ' \n' | awk '
	{ s = $0; n = length(s) / 2 }
	function b(o) { return index("0123456789abcdef", substr(s, 2 * o + 1, 1)) * 16 + index("0123456789abcdef", substr(s, 2 * o + 2, 1)) - 17 }
	function le16(o) { return b(o) + 256 * b(o + 1) }
	function le32(o) { return le16(o) + 65536 * le16(o + 2) }
	function magic(o, m) { return substr(s, 2 * o + 1, 8) == m }
	END {
		# the first OTAR at a byte boundary (an odd position of the string)
		for (from = 1; (i = index(substr(s, from), "4f544152")) > 0; from += i)
			if ((from + i - 1) % 2 == 1)
				break
		if (i == 0)
			exit 1
		o = (from + i - 2) / 2
		if (o + 32 > n)
			exit 1
		printf "otar=%d miniboot=%d", o, le16(o + 22)
		for (d = o; d + 8 <= n; d += l) {
			l = le16(d + 4)
			if (l < 8)
				exit 1
			if (magic(d, "4d4f5444")) {	# MOTD: fw_year_month_day at +8, release[20] at +36
				t = le32(d + 8)
				printf " motd=%d date=2%03d-%02d-%02d", d, int(t / 372) + 10, int(t / 31) % 12 + 1, t % 31 + 1
			}
			if (magic(d, "4c415354"))	# LAST
				break
		}
		printf "\n"
	}'
}

# A NAME=VALUE field of fw_info's output ($info).
info_get() {
	echo "$info" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# The kernel log has a line matching the extended regex (since the
# case's klog_mark).
klog_has_re() {
	klog | grep -Eq -- "$1"
}

klog_since_has() {
	klog_since | grep -Eq -- "$1"
}

wlan0_up() {
	[ -e /sys/class/net/wlan0/phy80211 ]
}

wlan0_gone() {
	[ ! -e /sys/class/net/wlan0 ]
}

# The stub's interface on dummy_hcd's port (N-1:1.0).
stub_intf() {
	for d in /sys/devices/platform/dummy_hcd.0/usb*/*-1/*-1:1.0; do
		[ -e "$d" ] && { basename "$d"; return 0; }
	done
	return 1
}

unplugged() {
	! carl9170-stub status && ! stub_intf > /dev/null
}

# Every 20 ms, at most $1 seconds: the bad firmware set binds once per
# image and each verdict takes a fraction of a second.
wait_fast() {
	poll 0.02 "$@"
}

# The driver is done with interface $1: it gave it back (a refused firmware)
# or registered wlan0 (an accepted one).
verdict() {
	[ ! -e "/sys/bus/usb/devices/$1/driver" ] || wlan0_up
}

no_splat() {
	s=$(klog_since | splats)
	[ -z "$s" ] || fail "kernel splat since '$klog_marker': $s"
}

# Unplug, plug in the stub without a fault and wait for wlan0.
replug_good() {
	carl9170-stub stop || fail "could not unplug the stub"
	wait_for 10 unplugged || fail "the stub's USB device did not go away"
	carl9170-stub start
	wait_for 30 wlan0_up || fail "no wlan0 after plugging the stub in again"
	echo "plugged in again: wlan0 $(cat /sys/class/net/wlan0/address)"
}

# Plug the stub in with fault $1 armed later; wait until wlan0 is up.
plug_faulty_up() {
	carl9170-stub stop || fail "could not unplug the stub"
	wait_for 10 unplugged || fail "the stub's USB device did not go away"
	carl9170-stub start -f "$1"
	wait_for 30 wlan0_up || fail "no wlan0 with the stub of fault $1 (not armed yet)"
	ip link set wlan0 up || fail "ip link set wlan0 up failed"
}

case $1 in
carl9170_fw_magic)
	[ -r "$fw" ] || fail "no $fw in the initramfs"
	info=$(fw_info "$fw") || fail "$fw: no OTAR descriptor chain with a MOTD (fw_info failed)"
	otar=$(info_get otar) motd=$(info_get motd) date=$(info_get date)
	[ -n "$motd" ] || fail "$fw has no MOTD descriptor"
	release=$(dd if="$fw" bs=1 skip=$((motd + 36)) count=20 2> /dev/null | tr -d '\000')
	want="firmware API: $release $date"
	echo "from $fw: OTAR at $otar, MOTD at $motd -> expecting '$want'"
	wait_for 30 klog_has_re ': (firmware API: |unsupported firmware|damaged firmware|failed to parse firmware)' ||
		fail "no carl9170 firmware line in the kernel log within 30 s"
	klog | grep -E ': (driver   API|firmware API): ' || true
	klog | grep -Eq ': driver   API: [^ ]+ 2[0-9]{3}-[0-9]{2}-[0-9]{2} \[[0-9]+-[0-9]+\]$' ||
		fail "no 'driver   API:' line: the driver did not find the OTAR descriptor chain"
	klog | grep -Fq ": $want" || fail "no '$want' line"
	;;
carl9170_fw_upload)
	why=$(no_stub) && skip "$why: the upload is not observable"
	info=$(fw_info "$fw") || fail "$fw: no OTAR descriptor"
	miniboot=$(info_get miniboot)
	want_bytes=$(($(wc -c < "$fw") - miniboot))
	want_sum=$(tail -c "$want_bytes" "$fw" | sha256sum | cut -d' ' -f1)
	echo "upload part of $fw: $want_bytes bytes after miniboot_size $miniboot, sha256 $want_sum"
	if ! wait_for 30 test -f "$state/upload.bin"; then
		# The console shows only warnings during the checks: what the
		# driver said of the stick tells a lost chunk from a hung probe.
		klog | grep -E 'carl9170([ :]|$)|usb [0-9]+-[0-9.]+: ' | tail -n 8
		# and the stub's side (CLOCK_MONOTONIC, the kernel log's time
		# base here): a chunk that reached it late tells a slow stub
		# from a lost chunk
		tail -n 8 "$state/log" 2> /dev/null | sed 's/^/stub: /'
		fail "the stub received no complete upload ($state/upload.bin) within 30 s"
	fi
	got_bytes=$(wc -c < "$state/upload.bin")
	got_sum=$(sha256sum < "$state/upload.bin" | cut -d' ' -f1)
	echo "the stub received: $got_bytes bytes, sha256 $got_sum"
	[ "$got_bytes" -eq "$want_bytes" ] || fail "byte count differs"
	[ "$got_sum" = "$want_sum" ] || fail "checksum differs"
	;;
carl9170_wlan0)
	wait_for 30 wlan0_up || fail "no wlan0 with a phy within 30 s"
	driver=$(basename "$(readlink /sys/class/net/wlan0/device/driver)")
	phy=$(cat /sys/class/net/wlan0/phy80211/name)
	mac=$(cat /sys/class/net/wlan0/address)
	echo "wlan0: $phy, driver $driver, MAC $mac"
	[ "$driver" = carl9170 ] || fail "wlan0 is not carl9170's"
	why=$(no_stub) && skip "$why: wlan0 and its driver checked, the MAC is the stick's own"
	want=$(conf_get mac)
	[ "$mac" = "$want" ] || fail "wlan0's MAC is not the stub's EEPROM MAC $want"
	;;
carl9170_ifup)
	wait_for 30 wlan0_up || fail "no wlan0 within 30 s"
	ip link set wlan0 up || fail "ip link set wlan0 up failed"
	flags=$(cat /sys/class/net/wlan0/flags)
	ip link show wlan0
	[ $((flags & 1)) -eq 1 ] || fail "wlan0 is not UP (flags $flags)"
	;;
carl9170_scan)
	wait_for 30 wlan0_up || fail "no wlan0 within 30 s"
	ip link set wlan0 up || fail "ip link set wlan0 up failed"
	if why=$(no_stub); then
		iw dev wlan0 scan || fail "iw dev wlan0 scan failed"
		skip "$why: the scan ran, but which BSS it must find is not known"
	fi
	bssid=$(conf_get bssid)
	ssid=$(conf_get ssid)
	channel=$(conf_get channel)
	freq=$((2407 + 5 * channel))
	echo "expecting BSS $bssid '$ssid' on channel $channel ($freq MHz)"
	# a scan may be refused while another runs (EBUSY): a few tries
	found=
	for try in 1 2 3; do
		out=$(iw dev wlan0 scan 2>&1) || { echo "try $try: $out"; continue; }
		block=$(echo "$out" | awk -v b="$bssid" '/^BSS / { on = (substr($2, 1, 17) == b) } on')
		echo "try $try: $(echo "$out" | grep -c '^BSS ') BSS found"
		[ -n "$block" ] && { found=1; break; }
	done
	[ -n "$found" ] || fail "iw dev wlan0 scan did not list $bssid"
	echo "$block" | grep -E '^BSS |freq:|SSID:|DS Parameter set'
	echo "$block" | awk -v f="$freq" '$1 == "freq:" && $2 + 0 == f { ok = 1 } END { exit !ok }' ||
		fail "$bssid is not on $freq MHz"
	echo "$block" | grep -Fqx "	SSID: $ssid" || fail "$bssid does not carry SSID '$ssid'"
	;;
carl9170_bad_fw)
	why=$(no_stub) && skip "$why"
	[ -r "$badfw_dir/carl9170-1.fw" ] || fail "no damaged firmware in $badfw_dir"
	[ -w "$fwpath" ] || fail "no $fwpath (firmware_class.path)"
	old=$(cat "$fwpath")
	carl9170-stub stop || fail "could not unplug the stub"
	klog_mark carl9170_bad_fw
	printf '%s' "$badfw_dir" > "$fwpath"
	carl9170-stub start
	wait_for 30 klog_since_has 'unsupported firmware\.$|firmware API: |firmware upload failed'
	printf '%s' "${old:-/lib/firmware}" > "$fwpath"
	log=$(klog_since)
	echo "$log" | grep -E 'carl9170|usb [0-9]+-1: (firmware|unsupported|damaged|driver)' || true
	echo "$log" | grep -Eq ': unsupported firmware\.$' ||
		fail "the driver did not refuse the damaged firmware with 'unsupported firmware.'"
	echo "$log" | grep -Eq 'API: ' && fail "the driver parsed the damaged firmware"
	# nothing uploaded: the stub saw no firmware request at all
	[ -e "$state/upload.bin" ] && fail "the stub received an upload"
	grep -q 'FW DL' "$state/log" && fail "the stub saw firmware download requests: $(grep 'FW DL' "$state/log")"
	splat=$(echo "$log" | splats)
	[ -z "$splat" ] || fail "kernel splat after the damaged firmware: $splat"
	[ -e /sys/class/net/wlan0 ] && fail "a wlan0 exists with the damaged firmware"
	echo "refused, nothing uploaded; plugging in again with the good firmware"
	carl9170-stub stop || fail "could not unplug the stub"
	carl9170-stub start
	wait_for 30 wlan0_up || fail "no wlan0 again with the good firmware within 30 s"
	wait_for 10 test -f "$state/upload.bin" || fail "the stub got no upload of the good firmware"
	echo "recovered: wlan0 $(cat /sys/class/net/wlan0/address), $(wc -c < "$state/upload.bin") bytes uploaded"
	;;
carl9170_bad_fw_set)
	why=$(no_stub) && skip "$why"
	[ -r "$fwsets/expect" ] || fail "no $fwsets/expect in the initramfs"
	total=$(wc -l < "$fwsets/expect")
	[ "$total" -ge 20 ] || fail "only $total damaged images in $fwsets/expect"
	wait_for 30 wlan0_up || fail "no wlan0 before the set"
	intf=$(stub_intf) || fail "no stub interface on dummy_hcd"
	old=$(cat "$fwpath")
	klog_mark carl9170_bad_fw_set
	# the interface stays plugged: unbind once, then bind once per image
	echo "$intf" > "$drv/unbind" || fail "could not unbind $intf"
	wait_for 10 wlan0_gone || fail "wlan0 stayed after unbinding"
	echo "$total images, each bound to $intf"
	dl=$(grep -c 'FW DL' "$state/log" || true)
	tab=$(printf '\t')
	# the loop only binds (shell builtins): the kernel log is read once,
	# afterwards, and split at the per-image markers
	while IFS=$tab read -r name want; do
		echo "nsbsp: carl9170_bad_fw_set image $name" > /dev/kmsg
		printf '%s' "$fwsets/$name" > "$fwpath"
		echo "$intf" > "$drv/bind" || echo "$name: bind failed"
		wait_fast 10 verdict "$intf" || echo "$name: no verdict in 10 s"
		wlan0_gone || { echo "$name: FAIL: wlan0 exists"; echo "$intf" > "$drv/unbind"; }
	done < "$fwsets/expect"
	[ "$(grep -c 'FW DL' "$state/log" || true)" = "$dl" ] ||
		fail "the stub got firmware download requests during the set: $(grep 'FW DL' "$state/log" | tail -3)"
	verdicts=$(klog_since | awk -F '\t' -v expect="$fwsets/expect" '
	BEGIN { while ((getline l < expect) > 0) { split(l, f, "\t"); want[f[1]] = f[2]; order[n++] = f[1] } }
	/^nsbsp: carl9170_bad_fw_set image / { cur = $0; sub(/.* image /, "", cur); next }
	cur != "" && /^usb [0-9]+-1: / {
		m = $0; sub(/^usb [0-9]+-1: /, "", m)
		if (m ~ /^(driver   API|firmware API|reset high-speed|firmware: direct-loading)/) next
		said[cur] = said[cur] m "|"
		if (m == want[cur]) ok[cur] = 1
	}
	END {
		for (i = 0; i < n; i++) {
			k = order[i]
			printf "%s: %s%s\n", k, ok[k] ? "" : "FAIL: no \"" want[k] "\"; driver said: ", said[k]
			if (!ok[k]) bad++
		}
		print "bad=" bad + 0
	}')
	echo "$verdicts" | grep -v '^bad='
	bad=$(echo "$verdicts" | sed -n 's/^bad=//p')
	printf '%s' "${old:-/lib/firmware}" > "$fwpath"
	echo "$intf" > "$drv/bind" || fail "could not bind $intf with the good firmware"
	wait_for 30 wlan0_up || fail "no wlan0 again with the good firmware"
	no_splat
	[ "$bad" = 0 ] || fail "$bad of $total damaged images were not refused as expected"
	echo "all $total refused with their own line; good firmware: wlan0 $(cat /sys/class/net/wlan0/address)"
	;;
carl9170_disconnect_upload)
	why=$(no_stub) && skip "$why"
	carl9170-stub stop || fail "could not unplug the stub"
	wait_for 10 unplugged || fail "the stub's USB device did not go away"
	klog_mark carl9170_disconnect_upload
	carl9170-stub start -f disconnect-upload
	wait_for 15 klog_since_has 'firmware upload failed \(-[0-9]+\)\.$' ||
		fail "no 'firmware upload failed' line within 15 s"
	wait_for 10 unplugged || fail "the USB device is still there"
	klog_since | grep -E 'usb [0-9]+-1: (firmware|USB disconnect)|carl9170' || true
	grep 'fault disconnect-upload' "$state/log" || fail "the stub did not inject the disconnect"
	wlan0_gone || fail "a wlan0 exists after the failed upload"
	no_splat
	replug_good
	;;
carl9170_disconnect_cmd | carl9170_garbled_resp)
	why=$(no_stub) && skip "$why"
	fault=disconnect-cmd
	[ "$1" = carl9170_garbled_resp ] && fault=garbled-resp
	plug_faulty_up "$fault"
	klog_mark "$1"
	# every line the driver has to say reaches the log (net_ratelimit off)
	cost=$(cat /proc/sys/net/core/message_cost)
	echo 0 > /proc/sys/net/core/message_cost
	carl9170-stub arm || fail "could not arm the fault"
	# a command exchange: the scan tunes the radio channel by channel
	iw dev wlan0 scan > /dev/null 2>&1 &
	scan=$!
	if [ "$fault" = disconnect-cmd ]; then
		wait_for 15 wlan0_gone || fail "wlan0 is still there 15 s after the disconnect was armed"
		wait_for 10 unplugged || fail "the USB device is still there"
		klog_since | grep -E 'usb [0-9]+-1: |ieee80211 phy[0-9]+: ' | uniq | head -8
		klog_since_has '(usb [0-9]+-1|ieee80211 phy[0-9]+): .* failed \(-[0-9]+\)' ||
			fail "no error line of the driver about the command in flight"
		grep 'fault disconnect-cmd' "$state/log" || fail "the stub did not inject the disconnect"
		klog_since_has 'usb [0-9]+-1: USB disconnect' || fail "no USB disconnect in the kernel log"
	else
		wait_for 15 klog_since_has ': received invalid command response:got -?[0-9]+, instead of [0-9]+$' ||
			fail "the driver did not complain about a short/oversized response within 15 s"
		wait_for 15 klog_since_has ': malformed firmware trap:$' ||
			fail "the driver did not complain about the garbled response within 15 s"
		grep 'fault garbled-resp' "$state/log" || fail "the stub did not inject the responses"
		[ "$(grep -c 'fault garbled-resp' "$state/log")" -eq 3 ] || fail "the stub did not garble 3 responses"
		klog_since | grep -E 'usb [0-9]+-1: |ieee80211 phy[0-9]+: ' | grep -v 'rsp:\|cmd:\|rxcmd:' || true
		# unplugging while mac80211 restarts the hardware makes it WARN
		# ("Hardware became unavailable during restart"): let the
		# driver's recovery finish first (ip link takes the RTNL lock the
		# restart holds), then take the interface down
		wait_for 15 klog_since_has 'Hardware restart was requested' ||
			fail "the driver did not restart the device after the bad responses"
		ip link set wlan0 down || fail "ip link set wlan0 down failed after the recovery"
	fi
	echo "$cost" > /proc/sys/net/core/message_cost
	no_splat
	replug_good
	# an iw whose device vanished may wait for its scan results forever
	kill "$scan" 2> /dev/null || true
	wait "$scan" || true
	;;
*)
	fail "50-carl9170.sh: unknown case $1"
	;;
esac
