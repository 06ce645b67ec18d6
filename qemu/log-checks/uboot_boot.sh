#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The console's half of uboot_boot (rootfs/checks/80-uboot.sh): in the
# boot log, in this order, U-Boot
#   - ran the image's boot script (distro boot: "Found U-Boot script"),
#   - loaded the kernel from the FIT in a named configuration,
#   - verified that configuration's RSA signature with the FIT's key
#     ("sha256,rsa2048:KEY+ OK"; the key name is the .its's key-name-hint),
#   - checked the kernel's hash and started it;
# and the kernel's command line names the same configuration
# (nsbsp.fit_config=), so the kernel that ran is the one U-Boot verified.
#
# usage: uboot_boot.sh LOG   (exit 0 pass, 1 fail; the reason last)
set -eu
log=$1
its=$(dirname "$0")/../../board/image/nsbsp.its

fail() {
	echo "$*"
	exit 1
}
# Line number of the first line matching ERE $1 after line $2. The ERE goes
# through the environment: awk -v would process its backslashes first (gawk
# turns "\." into ".", mawk keeps it), so "nsbsp\+" would match "nsbsp" only.
after() {
	re="$1" awk -v from="$2" 'NR > from && $0 ~ ENVIRON["re"] { print NR; exit }' "$log"
}

key=$(sed -n 's/^[[:space:]]*key-name-hint = "\([^"]*\)";.*/\1/p' "$its" | sort -u)
if [ -z "$key" ] || [ "$(echo "$key" | wc -l)" -ne 1 ]; then
	fail "cannot tell the FIT's one signing key from $its"
fi

# U-Boot's first console line: its banner; on the Pi 3 in QEMU the
# banner goes nowhere (U-Boot's mini-UART driver starts only once the pins
# are the UART's, which the Pi firmware, absent in QEMU, would have set),
# and its driver model's summary is the first line that reaches the UART.
n=$(after '^U-Boot [0-9]|^Core: +[0-9]+ devices' 0)
[ -n "$n" ] || fail "no U-Boot banner: U-Boot did not run"
n=$(after '^Found U-Boot script /boot.scr' "$n")
[ -n "$n" ] || fail "U-Boot's distro boot did not find /boot.scr"
n=$(after '^## Loading kernel from FIT Image at ' "$n")
[ -n "$n" ] || fail "U-Boot did not load a kernel from a FIT"
sed -n "${n}p" "$log"
config=$(awk -v from="$n" 'NR > from && /Using .* configuration/ { print; exit }' "$log" |
	sed -n "s/.*Using '\([^']*\)' configuration.*/\1/p")
[ -n "$config" ] || fail "U-Boot did not name the FIT configuration"
echo "U-Boot used FIT configuration '$config'"
n=$(after "Verifying Hash Integrity \\.\\.\\. sha256,rsa2048:$key\\+ OK" "$n")
[ -n "$n" ] || fail "U-Boot did not verify the configuration's signature with key '$key'"
sed -n "${n}p" "$log" | sed 's/^ *//'
# The configuration's kernel image node, as the .its names it.
kernel=$(awk -v c="$config" '
	/^[[:space:]]*configurations[[:space:]]*\{/ { in_c = 1 }
	in_c && $1 == c && $2 == "{" { in_n = 1 }
	in_n && $1 == "kernel" { gsub(/[";]/, "", $3); print $3; exit }' "$its")
[ -n "$kernel" ] || fail "$its has no configuration '$config' with a kernel"
n=$(after "Trying '$kernel' kernel subimage" "$n")
[ -n "$n" ] || fail "U-Boot did not take the kernel of configuration '$config' ($kernel)"
n=$(after 'Verifying Hash Integrity \.\.\. sha256\+ OK' "$n")
[ -n "$n" ] || fail "U-Boot did not check the kernel's hash"
n=$(after '^Starting kernel \.\.\.' "$n")
[ -n "$n" ] || fail "U-Boot did not start the kernel"
n=$(after 'Kernel command line: ' "$n")
[ -n "$n" ] || fail "no kernel command line in the log after U-Boot started the kernel"
line=$(sed -n "${n}p" "$log")
echo "${line#*] }"
case " ${line#*Kernel command line: } " in
*" nsbsp.fit_config=$config "*) ;;
*) fail "the kernel's command line does not name FIT configuration '$config'" ;;
esac
