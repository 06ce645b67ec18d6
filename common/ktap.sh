# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh disable=SC2034 # the constants are for those who source it
# KTAP conventions of nonstring-bsp, shared by the check runner (on the
# target and on the host), the host harness, the summary and soak. Sourced;
# plain POSIX sh and awk, so busybox and the host's dash/mawk alike run it.

# The target prints its results between these console lines, then its
# kernel log between the other two.
KTAP_BEGIN='==== nsbsp ktap begin ===='
KTAP_END='==== nsbsp ktap end ===='
DMESG_BEGIN='==== nsbsp dmesg begin ===='
DMESG_END='==== nsbsp dmesg end ===='

# The modes a check's header may name: the boot modes, then those of
# KTAP_HOST_MODES, runs on the host: "host" (make check's host checks) and
# "lava" (make lava: the LAVA dispatcher's runs, too long for make check).
# In a header, "*" stands for every boot mode (no host mode) and "-" for
# none (the case runs only when it is asked for by name).
KTAP_MODES='dt acpi uboot rpi3 rpi4 host lava'
KTAP_HOST_MODES='host lava'

# Besides its KTAP line, each case's verdict in the words of a lab's log
# parser, a KTAP diagnostic "# nsbsp-result: NAME pass|fail|skip" (KTAP's
# "ok" does not tell a skip from a pass): the LAVA jobs' monitor
# (board/lava/parts/test.yaml) makes one result of each.
KTAP_RESULT='# nsbsp-result:'

# ktap_cases MODE FILE...: the cases the check files declare for MODE, in
# file order, "NAME FILE" a line; MODE "" lists every case. A check
# declares its cases in header lines
#   # case: NAME MODE[,MODE...]
# A header that does not parse, or a name declared twice, gives a line
# "! FILE:LINE: reason" instead: the caller reports it as an error, so a
# mistyped header can never drop a case silently.
ktap_cases() {
	_mode=$1
	shift
	awk -v mode="$_mode" -v modes="$KTAP_MODES" -v hostmodes="$KTAP_HOST_MODES" '
	BEGIN {
		n = split(modes, m, " "); for (i = 1; i <= n; i++) known[m[i]] = 1
		n = split(hostmodes, m, " "); for (i = 1; i <= n; i++) onhost[m[i]] = 1
	}
	/^# case:/ {
		ok = NF == 4 && $2 == "case:" && $3 ~ /^[a-z0-9_]+$/
		if (ok && $4 != "*" && $4 != "-") {
			k = split($4, w, ",")
			for (i = 1; i <= k; i++)
				if (!(w[i] in known))
					ok = 0
		}
		if (!ok) {
			printf "! %s:%d: unparseable case header \"%s\" (wanted \"# case: NAME MODE[,MODE...]\", NAME of a-z 0-9 _, MODE one of %s, or * or -)\n", FILENAME, FNR, $0, modes
			next
		}
		if ($3 in where) {
			printf "! %s:%d: case %s is declared twice (first in %s)\n", FILENAME, FNR, $3, where[$3]
			next
		}
		where[$3] = FILENAME
		if (mode == "" || index("," $4 ",", "," mode ",") || ($4 == "*" && !(mode in onhost)))
			print $3, FILENAME
	}' "$@"
}
