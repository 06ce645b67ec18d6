# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# How a check reports (sourced by on-target and host checks alike): it
# prints diagnostics on stdout and exits 0 (pass), 1 (fail, the reason
# last) or 4 (skip, the reason on its last line); the runner turns that
# into one KTAP result.
fail() {
	echo "$*"
	exit 1
}

skip() {
	echo "$*"
	exit 4
}
