# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh disable=SC2034 # the constants are for those who source it
# The kernel log, for checks (sourced). NSBSP_COMMON is this folder
# (the check runner sets it; /usr/lib/nsbsp/common on the target).
: "${NSBSP_COMMON:=/usr/lib/nsbsp/common}"

# The first line the kernel logs (arm64's boot CPU, before "Linux version"):
# a log that does not start with it has lost its beginning.
KLOG_FIRST='Booting Linux on physical CPU '

# The kernel log without timestamps.
klog() {
	dmesg | sed 's/^\[[^]]*\] //'
}

# The kernel logged exactly this line (a fixed string).
klog_has() {
	klog | grep -Fqx -- "$1"
}

# klog_mark WHAT...: write a marker line into the kernel log, unique to
# this shell and moment; klog_since prints what the kernel logged after it,
# so that a line or a splat is attributed to the case that caused it.
klog_mark() {
	klog_marker="nsbsp: $* $$ $(cut -d ' ' -f 1 /proc/uptime)"
	echo "$klog_marker" > /dev/kmsg
}

klog_since() {
	klog | awk -v m="${klog_marker:?klog_mark first}" 'found; $0 == m { found = 1 }'
}

# The lines of standard input that are kernel splats: BUG, WARNING, Oops,
# sanitizer and lockdep reports, panics (splat.ere, the one list of them).
splats() {
	grep -E -f "$NSBSP_COMMON/splat.ere" || true
}
