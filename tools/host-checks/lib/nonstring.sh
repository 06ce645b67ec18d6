# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# shellcheck shell=sh
# What both nonstring host checks need (sourced by nonstring.sh and
# nonstring-corpus.sh, after common/check.sh). Environment from the
# Makefile (mk/nonstring.mk).

# The kernel compiler's checker flags, or skip with the reason.
check_flags() {
	[ -n "$NSBSP_NONSTRING_FLAGS" ] || skip "$NSBSP_NONSTRING_SKIP"
	case $NSBSP_NONSTRING_FLAGS in
	*-fplugin=*)
		so=${NSBSP_NONSTRING_FLAGS#*-fplugin=}
		so=${so%% *}
		[ -f "$so" ] || fail "no plugin $so (make nonstring-plugin)"
		;;
	esac
	echo "$NSBSP_NONSTRING_FLAGS"
}
