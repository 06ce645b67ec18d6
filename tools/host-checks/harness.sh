#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: harness_qemu_hang host
# case: harness_guest_panic host
# case: harness_check_hang host
# inputs: $TOP/qemu $TOP/tools/host-checks/lib $HOST_BIN $KIMAGE $INITRAMFS $BOARD_DTB $FIXTURES /usr/bin/qemu-system-aarch64
#
# The test rig tested: each fault gives a named failure within its timeout
# and leaves no process behind.
# harness_qemu_hang: a QEMU that never boots nor exits is stopped at the
#   harness timeout, reported as a timeout.
# harness_guest_panic: a guest that panics (no init) is reported with the
#   panic, not as a pass, and QEMU exits at once (-no-reboot, panic=-1).
# harness_check_hang: a check that never ends is stopped at the runner's
#   per-case timeout and reported by its name; the boot itself is clean.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=./lib/procs.sh
. "$TOP/tools/host-checks/lib/procs.sh"

work=$OUT/harness-selftest/$1
rm -rf "$work"
mkdir -p "$work"
# Everything the harness starts carries this tag (lib/procs.sh).
tag=harness-selftest-$$
boot() {
	NSBSP_PROCTAG=$tag sh "$TOP/qemu/harness.sh" --mode dt --out "$work" "$@" --kernel "$KIMAGE" \
		--initrd "$INITRAMFS" --dtb "$BOARD_DTB" --fixtures "$FIXTURES" > "$work/harness.out" 2>&1
}
# must_fail MAX_SECONDS VERDICT_ERE BOOT_OPTION...: the boot fails within
# MAX_SECONDS, its harness_verdict matches, no process it started is left.
must_fail() {
	max=$1 verdict=$2
	shift 2
	start=$(date +%s)
	boot "$@" && fail "the harness passed it"
	cat "$work/harness.out"
	t=$(($(date +%s) - start))
	[ "$t" -le "$max" ] || fail "it took ${t}s to be reported (at most ${max}s)"
	grep -Eq "^not ok .* harness_verdict # $verdict" "$work/dt.ktap" || fail "the failure is not named '$verdict'"
	left=$(procs_tagged "$tag")
	[ -z "$left" ] || fail "left behind: $left"
}

case $1 in
harness_qemu_hang)
	fake=$work/qemu-that-hangs
	# A child process too: the harness must stop the whole process group.
	printf '#!/bin/sh\necho "pretending to be QEMU"\nsleep 3601\n' > "$fake"
	chmod +x "$fake"
	export QEMU="$fake"
	must_fail 15 'ERROR timeout' --timeout 3
	;;
harness_guest_panic)
	must_fail 30 '.*Kernel panic' --timeout 60 --append "rdinit=/no/such/init"
	;;
harness_check_hang)
	boot --timeout 60 --append "nsbsp.select=selftest_hang nsbsp.timeout=2"
	cat "$work/harness.out"
	grep -q '^not ok 1 selftest_hang # TIMEOUT check timed out after 2s$' "$work/dt.ktap" ||
		fail "the hanging check was not reported as timed out by name"
	grep -q '^ok 2 harness_verdict$' "$work/dt.ktap" || fail "the boot around the hanging check was not clean"
	;;
*)
	fail "harness.sh: unknown case $1"
	;;
esac
