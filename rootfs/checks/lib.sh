# shellcheck shell=sh
# Helpers for the check scripts (sourced). A check prints diagnostics on
# stdout and exits 0 (pass), 1 (fail) or 4 (skip, reason on the last line).
fail() {
	echo "$*"
	exit 1
}

skip() {
	echo "$*"
	exit 4
}

# The kernel log (dmesg) without timestamps.
klog() {
	dmesg | sed 's/^\[[^]]*\] //'
}

# Succeed if the kernel logged exactly this line (a fixed string).
klog_has() {
	klog | grep -Fqx -- "$1"
}
