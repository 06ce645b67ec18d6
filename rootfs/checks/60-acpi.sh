#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: acpi_header_sigs acpi
# case: acpi_table_upgrade acpi
# case: acpi_sig_reject acpi
# case: acpi_hid_repair acpi
# case: acpi_predefined_check acpi
#
# ACPI checks (acpi boot mode): each proves that one byte table which
# kernel-patches/0003 marks __nonstring still finds what it should.
# The tables under test come with the initrd: /kernel/firmware/acpi/*.aml
# (board/acpi/*.asl, compiled by iasl) are the very bytes the kernel was
# given, /etc/nsbsp/acpi.expect says what the build expects of them
# (tools/acpi-initrd.sh writes it from the ASL's "nsbsp:" lines).
#
# acpi_header_sigs       acpi_table_header.signature: every table the kernel
#                        listed at boot ("ACPI: SIG 0x... LEN") is in
#                        /sys/firmware/acpi/tables under its signature, and
#                        the table's own first 4 bytes and length agree;
#                        the tables arm64 ACPI requires are there
# acpi_table_upgrade     table_sigs: each table the build marked "accept" was
#                        found in the initrd, installed, and is in sysfs
#                        byte for byte
# acpi_sig_reject        table_sigs: each table marked "reject" was refused
#                        for its signature and is nowhere in sysfs
# acpi_hid_repair        acpi_repair_info: the _HID "*lower" string of our
#                        SSDT became the upper-case ID without '*'
# acpi_predefined_check  acpi_name_info: ACPICA logged the wrong return type
#                        of each "wrong-type" object, naming the object and
#                        the type acpihelp says it must return
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

tables=/sys/firmware/acpi/tables
aml=/kernel/firmware/acpi
expect=/etc/nsbsp/acpi.expect
# The tables arm64 Linux requires (Documentation/arm64/arm-acpi.rst).
required_sigs="FACP DSDT APIC GTDT"

# The 4-byte signature of a table file.
table_sig() {
	head -c 4 "$1"
}

# The length field of a table's header (bytes 4-7, little-endian).
table_len() {
	od -An -tu4 -j4 -N4 "$1" | tr -d ' '
}

# Bytes OFFSET..OFFSET+COUNT-1 of a table as a string, NULs dropped.
table_str() {
	dd if="$1" bs=1 skip="$2" count="$3" 2> /dev/null | tr -d '\0'
}

# "SIG LENGTH" for every table the kernel listed from the header at boot
# (tbprint.c: "ACPI: %-4.4s 0x%8.8X%8.8X %06X ..."), RSDP aside.
logged_tables() {
	klog | sed -n 's/^ACPI: \([^ ]\{4\}\) 0x[0-9A-F]\{16\} \([0-9A-F]\{6,\}\)\( (.*)\)\{0,1\}$/\1 \2/p' |
		grep -v '^RSDP '
}

# The sysfs file of SIG whose bytes equal FILE (SIG, SIG1, SIG2... when the
# signature has several instances), or nothing.
sysfs_table_equal() {
	for t in "$tables/$1" "$tables/$1"[0-9]*; do
		[ -f "$t" ] && cmp -s "$t" "$2" && { echo "$t"; return 0; }
	done
	return 1
}

[ -r "$expect" ] || fail "no $expect: the acpi mode boots with out/images/initramfs-acpi.cpio"

case $1 in
acpi_header_sigs)
	[ -d "$tables" ] || fail "no $tables: the kernel found no ACPI tables"
	logged_tables > /tmp/acpi-logged
	[ -s /tmp/acpi-logged ] || fail "the kernel logged no ACPI table list"
	n=0
	while read -r sig len; do
		case $sig in
		XSDT | RSDT) continue ;; # the root tables are not in sysfs
		esac
		found=
		for t in "$tables/$sig" "$tables/$sig"[0-9]*; do
			[ -f "$t" ] || continue
			[ "$(table_sig "$t")" = "$sig" ] || continue
			flen=$(printf '%06X' "$(wc -c < "$t")")
			[ "$flen" = "$len" ] && found=$t
		done
		[ -n "$found" ] || fail "$sig (length 0x$len) is in the kernel's table list, but no table in $tables has that signature in its bytes and that length"
		echo "$sig: ${found#"$tables"/}, 0x$len bytes, signature bytes '$(table_sig "$found")'"
		n=$((n + 1))
	done < /tmp/acpi-logged
	# And the other way round: every table in sysfs is named by its bytes.
	for t in "$tables"/*; do
		[ -f "$t" ] || continue
		name=${t##*/}
		sig=$(table_sig "$t")
		case $name in
		"$sig" | "$sig"[0-9]*) ;;
		*) fail "$t: its signature bytes are '$sig'" ;;
		esac
		[ "$(table_len "$t")" = "$(wc -c < "$t")" ] ||
			fail "$t: header length $(table_len "$t") but $(wc -c < "$t") bytes"
		# FACS has no standard header; its length field is still there.
		grep -q "^$sig " /tmp/acpi-logged || fail "$name is in $tables but not in the kernel's table list"
	done
	for sig in $required_sigs; do
		grep -q "^$sig " /tmp/acpi-logged || fail "$sig, which arm64 ACPI requires, is not in the kernel's table list"
	done
	echo "$n tables listed, all in sysfs under their own signature"
	;;
acpi_table_upgrade)
	n=0 others='' nothers=0
	while read -r what f verdict; do
		[ "$what $verdict" = "upgrade accept" ] || continue
		t=$aml/$f
		[ -r "$t" ] || fail "no $t in the initrd"
		sig=$(table_sig "$t")
		found="$sig ACPI table found in initrd [kernel/firmware/acpi/$f][0x$(printf '%x' "$(wc -c < "$t")")]"
		klog_has "ACPI: $found" || fail "the kernel did not log '$found'"
		echo "log: $found"
		inst=$(printf 'Table Upgrade: install [%s-%6.6s-%8.8s]' "$sig" "$(table_str "$t" 10 6)" "$(table_str "$t" 16 8)")
		klog_has "ACPI: $inst" || fail "the kernel did not log '$inst'"
		echo "log: $inst"
		s=$(sysfs_table_equal "$sig" "$t") || fail "no table in $tables/$sig* equals $f"
		echo "sysfs: $s equals $f"
		n=$((n + 1))
		[ "$sig" = SSDT ] || case "$others " in *" $sig "*) ;; *) others="$others $sig" nothers=$((nothers + 1)) ;; esac
	done < "$expect"
	[ "$n" -gt 0 ] || fail "$expect names no table to accept"
	# table_sigs is a list: more than its SSDT entry must work.
	[ "$nothers" -ge 2 ] || fail "$expect names tables of$others but SSDT: want two signatures at least"
	echo "accepted signatures besides SSDT:$others"
	;;
acpi_sig_reject)
	n=0
	while read -r what f verdict; do
		[ "$what $verdict" = "upgrade reject" ] || continue
		t=$aml/$f
		[ -r "$t" ] || fail "no $t in the initrd"
		sig=$(table_sig "$t")
		refused="ACPI OVERRIDE: Unknown signature [kernel/firmware/acpi/$f]"
		klog_has "ACPI: $refused" || fail "the kernel did not log '$refused'"
		echo "log: $refused"
		if klog | grep -Fq "[kernel/firmware/acpi/$f]["; then
			fail "the kernel took $f ($sig) from the initrd"
		fi
		for s in "$tables/$sig" "$tables/$sig"[0-9]*; do
			[ -e "$s" ] && fail "$s exists: the $sig table was installed"
		done
		echo "$sig: not in $tables"
		n=$((n + 1))
	done < "$expect"
	[ "$n" -gt 0 ] || fail "$expect names no table to reject"
	;;
acpi_hid_repair)
	# The raw _HID is the string with a leading '*' in our tables' bytes;
	# the repair (nsrepair2.c) drops the '*' and upper-cases the rest.
	raw=$(strings "$aml"/*.aml | grep '^\*' | head -n 1)
	[ -n "$raw" ] || fail "no '*' string in $aml/*.aml to be repaired"
	want=$(echo "${raw#\*}" | tr '[:lower:]' '[:upper:]')
	echo "_HID in the table: '$raw', repaired: '$want'"
	dev=/sys/bus/acpi/devices/$want:00
	if [ ! -d "$dev" ]; then
		# Name what is there instead (the unrepaired ID, typically).
		near=$(cd /sys/bus/acpi/devices && for d in *; do echo "$d"; done | grep -i -F "${want}" | tr '\n' ' ')
		fail "no $dev (devices with that ID in any case: ${near:-none})"
	fi
	got=$(cat "$dev/hid")
	[ "$got" = "$want" ] || fail "$dev/hid is '$got'"
	echo "$dev: hid $got, path $(cat "$dev/path")"
	;;
acpi_predefined_check)
	n=0
	while read -r what path types; do
		[ "$what" = wrong-type ] || continue
		msg="ACPI Warning: $path: Return type mismatch - found "
		line=$(klog | grep -F -- "$msg" | head -n 1)
		[ -n "$line" ] || fail "ACPICA did not log '$msg...' for $path"
		echo "log: $line"
		case $line in
		*", expected $types ("*) ;;
		*) fail "the log does not give $types (what acpihelp says ${path##*.} returns) as the expected type" ;;
		esac
		n=$((n + 1))
	done < "$expect"
	[ "$n" -gt 0 ] || fail "$expect names no wrong-type object"
	;;
*)
	fail "60-acpi.sh: unknown case $1"
	;;
esac
