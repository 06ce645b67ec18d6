#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: nonstring_board_clean host
# case: nonstring_unpatched_finds_seeds host
# case: nonstring_matches_clang host
#
# GCC 15's -Wunterminated-string-initialization on the kernel (docs/nonstring.md;
# the checkers on their corpus: nonstring-corpus.sh).
# nonstring_board_clean: the board kernel, series applied, has no finding
#   (each one is listed with the declaration where __nonstring belongs).
# nonstring_unpatched_finds_seeds: the seed objects compiled from the
#   pristine linux-source-6.1 with the board config by the GCC checker
#   (make nonstring-unpatched) report every declaration the series marks
#   (tools/nonstring-seeds.sh) in a file the board compiles (a .c it
#   builds, or a header that objects of the header's own folder include).
# nonstring_matches_clang: on that pristine tree, the objects that depend
#   on what the series changes (every object where a finding can differ
#   from the patched build's none), compiled by the GCC checker and by
#   clang-22, give findings at the same (file, line) use sites; the only
#   differences accepted are listed (tools/nonstring-compare.sh).
# Environment from the Makefile: NSBSP_KCC, NSBSP_KOUT, NSBSP_KSRC,
# NSBSP_NONSTRING_KIND, NSBSP_NONSTRING_FLAGS, NSBSP_NONSTRING_SKIP,
# NSBSP_NONSTRING_CLANG, NSBSP_NONSTRING_BUILTIN_FLAGS, NSBSP_UNPATCHED_GCC,
# NSBSP_UNPATCHED_CLANG.
# No "# inputs:" line (common/run-checks): the cases read the board build
# and both unpatched builds, hundreds of MiB that would take longer to hash
# than the cases take to run (seconds), so they always run.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=lib/nonstring.sh
. "$TOP/tools/host-checks/lib/nonstring.sh"

board_clean() {
	check_flags > /dev/null || exit $?
	[ -f "$KIMAGE" ] || fail "no kernel $KIMAGE (make kernel)"
	report=$(sh "$TOP/tools/nonstring-report.sh" "$NSBSP_KOUT" "$NSBSP_KSRC") || fail "no report"
	objs=$(find "$NSBSP_KOUT" -name '*.o' ! -name '*.mod.o' | wc -l)
	if [ -n "$report" ]; then
		echo "$report"
		fail "$(echo "$report" | wc -l) findings in the board build (source: declaration: message)"
	fi
	echo "no finding in $objs objects of $NSBSP_KOUT"
}

# unpatched_dir DIR: the folder of one side of make nonstring-unpatched,
# or skip when that side has no checker.
unpatched_dir() {
	[ -f "$1/checker" ] || fail "no unpatched build in $1 (make nonstring-unpatched)"
	case $(cat "$1/checker") in
	none:*) skip "$(sed 's/^none: //' "$1/checker")" ;;
	esac
	[ -f "$1/objects" ] || fail "no object list in $1 (make nonstring-unpatched)"
}

unpatched() {
	dir=$NSBSP_UNPATCHED_GCC
	unpatched_dir "$dir"
	report=$(sh "$TOP/tools/nonstring-report.sh" "$dir/build" "$dir/src")
	echo "$report" > "$dir/report"
	echo "$(echo "$report" | grep -c .) findings in $(wc -l < "$dir/objects") objects of the pristine tree ($(cat "$dir/checker"))"
	missing=0 checked=0
	for d in $(sh "$TOP/tools/nonstring-seeds.sh" "$TOP/kernel-patches"); do
		f=${d%:*}
		# Only what the board compiles: a seed .c file built by the
		# board, or a header that objects of its own folder include
		# (tools/nonstring-pristine.sh).
		grep -qx "$f" "$dir/compiled" || { echo "$d: not compiled by the board"; continue; }
		checked=$((checked + 1))
		if echo "$report" | grep -qF ": $d: "; then
			echo "$d: reported: $(echo "$report" | grep -cF ": $d: ") findings"
		else
			echo "$d: NOT reported"
			missing=$((missing + 1))
		fi
	done
	[ "$checked" -gt 0 ] || fail "no seed declaration in the board build"
	[ "$missing" -eq 0 ] || fail "$missing of $checked seed declarations not reported"
}

matches() {
	unpatched_dir "$NSBSP_UNPATCHED_GCC"
	unpatched_dir "$NSBSP_UNPATCHED_CLANG"
	sh "$TOP/tools/nonstring-compare.sh" "$NSBSP_UNPATCHED_GCC" "$NSBSP_UNPATCHED_CLANG" ||
		fail "the GCC checker and clang disagree on the tree without the series (listed above)"
}

case $1 in
nonstring_board_clean) board_clean ;;
nonstring_unpatched_finds_seeds) unpatched ;;
nonstring_matches_clang) matches ;;
*) fail "nonstring.sh: unknown case $1" ;;
esac
