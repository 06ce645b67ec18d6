#!/bin/sh
# case: harness_qemu_hang host
# case: harness_guest_panic host
# case: harness_check_hang host
#
# The test rig tested: each fault gives a named failure within its timeout
# and leaves no process behind.
# harness_qemu_hang: a QEMU that never boots nor exits is stopped at the
#   harness timeout, reported as a timeout.
# harness_guest_panic: a guest that panics (no init) is reported with the
#   panic, not as a pass, and QEMU exits at once (-no-reboot, panic=-1).
# harness_check_hang: a check that never ends is stopped at the runner's
#   per-case timeout and reported by its name; the boot itself is clean.
# shellcheck source=../../rootfs/checks/lib.sh
. "$TOP/rootfs/checks/lib.sh"

work=$OUT/harness-selftest/$1
rm -rf "$work"
mkdir -p "$work"
boot() {
	sh "$TOP/qemu/harness.sh" --mode dt --out "$work" "$@" --kernel "$KIMAGE" \
		--initrd "$INITRAMFS" --dtb "$BOARD_DTB" > "$work/harness.out" 2>&1
}
# No process may outlive the harness (QEMU or a stand-in for it).
leftovers() {
	pgrep -af "$1" | grep -v pgrep || true
}
elapsed() {
	awk -v a="$1" -v b="$(date +%s)" 'BEGIN { print b - a }'
}

case $1 in
harness_qemu_hang)
	fake=$work/qemu-that-hangs
	# A child process too: the harness must stop the whole process group.
	printf '#!/bin/sh\necho "pretending to be QEMU"\nsleep 3601\n' > "$fake"
	chmod +x "$fake"
	start=$(date +%s)
	QEMU=$fake boot --timeout 3 && fail "the harness passed a QEMU that hung"
	cat "$work/harness.out"
	t=$(elapsed "$start")
	[ "$t" -le 15 ] || fail "the harness took ${t}s for a 3s timeout"
	grep -q '^not ok .* harness_verdict # timeout' "$work/dt.ktap" || fail "the failure is not named a timeout"
	left=$(leftovers "$fake|sleep 3601")
	[ -z "$left" ] || fail "left behind: $left"
	;;
harness_guest_panic)
	start=$(date +%s)
	boot --timeout 60 --append "rdinit=/no/such/init" && fail "the harness passed a guest that panicked"
	cat "$work/harness.out"
	t=$(elapsed "$start")
	[ "$t" -le 30 ] || fail "a panicking guest took ${t}s to be reported"
	grep -q '^not ok .* harness_verdict # .*Kernel panic' "$work/dt.ktap" || fail "the failure does not name the panic"
	left=$(leftovers "$work/dt")
	[ -z "$left" ] || fail "left behind: $left"
	;;
harness_check_hang)
	boot --timeout 60 --append "nsbsp.select=selftest_hang nsbsp.timeout=2"
	cat "$work/harness.out"
	grep -q '^not ok 1 selftest_hang # check timed out after 2s$' "$work/dt.ktap" ||
		fail "the hanging check was not reported as timed out by name"
	grep -q '^ok 2 harness_verdict$' "$work/dt.ktap" || fail "the boot around the hanging check was not clean"
	;;
*)
	fail "20-harness.sh: unknown case $1"
	;;
esac
