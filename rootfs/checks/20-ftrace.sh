#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: ftrace_ustring_selftest dt,acpi,uboot,rpi3,rpi4
# case: ftrace_ustring_repro dt,acpi,uboot,rpi3,rpi4
#
# ftrace checks for the .ustring event filter (kernel-patches/0005).
# shellcheck source=../../common/check.sh
. "${NSBSP_COMMON:=/usr/lib/nsbsp/common}/check.sh"
# shellcheck source=../../common/klog.sh
. "$NSBSP_COMMON/klog.sh"

tracing=/sys/kernel/tracing
openat=$tracing/events/syscalls/sys_enter_openat
ftracetest_dir=/usr/lib/nsbsp/ftrace

case $1 in
ftrace_ustring_selftest)
	# The kernel's own ftracetest from the patched tree runs the ported
	# test; only PASS counts (UNSUPPORTED or UNRESOLVED is a failure).
	cd "$ftracetest_dir" || fail "ftracetest is not installed in $ftracetest_dir"
	./ftracetest -v test.d/filter/event-filter-ustring.tc > /tmp/ftracetest.out 2>&1
	rc=$?
	# -v shows a failing test's log; leave out its shell trace lines.
	grep -v '^+' /tmp/ftracetest.out
	count() { sed -n "s/^# of $1: *\([0-9]*\).*/\1/p" /tmp/ftracetest.out; }
	[ "$(count passed)" = 1 ] || fail "ftracetest: the test did not pass"
	for r in failed unresolved untested unsupported xfailed; do
		[ "$(count "$r")" = 0 ] || fail "ftracetest: $r is not 0"
	done
	[ $rc -eq 0 ] || fail "ftracetest exited with $rc"
	;;
ftrace_ustring_repro)
	# The seed's manual steps: filter openat on a user-space filename.
	[ -d "$openat" ] || fail "no $openat (CONFIG_FTRACE_SYSCALLS)"
	echo 0 > "$tracing/tracing_on"
	echo > "$tracing/trace"
	echo 'filename.ustring ~ "/proc*"' > "$openat/filter" || fail "the kernel refused the .ustring filter"
	echo 1 > "$openat/enable"
	echo 1 > "$tracing/tracing_on"
	# shellcheck disable=SC2016 # $$ is the inner shell's pid, kept by exec
	sh -c 'echo $$ > /tmp/hit.pid; exec cat /proc/self/maps' > /dev/null
	# shellcheck disable=SC2016
	sh -c 'echo $$ > /tmp/miss.pid; exec cat /etc/profile' > /dev/null
	echo 0 > "$tracing/tracing_on"
	echo 0 > "$openat/enable"
	echo 0 > "$openat/filter"
	hit=$(cat /tmp/hit.pid)
	miss=$(cat /tmp/miss.pid)
	grep sys_openat "$tracing/trace" > /tmp/openat.trace
	cat /tmp/openat.trace
	grep -Eq -- "-$hit +\[" /tmp/openat.trace || fail "the openat of /proc/self/maps (pid $hit) was not traced"
	! grep -Eq -- "-$miss +\[" /tmp/openat.trace || fail "the openat of /etc/profile (pid $miss) passed the filter"
	;;
*)
	fail "ftrace.sh: unknown case $1"
	;;
esac
