#!/bin/sh
# case: selftest_hang -
#
# Cases that test the test rig itself; no boot mode selects them (mode "-"),
# the harness's own checks pick them by name (nsbsp.select=).
# selftest_hang: a check that never ends; the runner must stop it at its
# timeout and report it by name.
case $1 in
selftest_hang)
	echo "hanging on purpose"
	while :; do sleep 1; done
	;;
*)
	echo "99-selftest.sh: unknown case $1"
	exit 1
	;;
esac
