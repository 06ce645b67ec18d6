#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: nonstring_plugin_corpus host
# case: nonstring_board_clean host
# case: nonstring_unpatched_finds_seeds host
#
# GCC 15's -Wunterminated-string-initialization, checked without GCC 15
# (tools/nonstring-plugin.cc, docs/nonstring.md).
# nonstring_plugin_corpus: every file of tools/nonstring-corpus/ compiled
#   with the kernel's compiler and the plugin (or GCC 15's own warning)
#   gets exactly the findings its "ns: warn" markers name, no others, and
#   none of them is an error under -Werror.
# nonstring_board_clean: the board kernel, series applied, has no finding
#   (each one is listed with the declaration where __nonstring belongs).
# nonstring_unpatched_finds_seeds: the seed objects compiled from the
#   pristine linux-source-6.1 with the board config (make nonstring-unpatched)
#   report every declaration the series marks (tools/nonstring-seeds.sh) in
#   a file the board compiles (a .c it builds, or a header that objects of
#   the header's own folder include).
# Environment from the Makefile: NSBSP_KCC, NSBSP_KOUT, NSBSP_KSRC,
# NSBSP_NONSTRING_SO, NSBSP_NONSTRING_SKIP, NSBSP_UNPATCHED.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
tag='[-Wunterminated-string-initialization]'

# The compiler flags that turn the check on, or skip with the reason.
check_flags() {
	if [ -z "$NSBSP_NONSTRING_SKIP" ]; then
		[ -f "$NSBSP_NONSTRING_SO" ] || fail "no plugin $NSBSP_NONSTRING_SO (make nonstring-plugin)"
		echo "-fplugin=$NSBSP_NONSTRING_SO -DNONSTRING_PLUGIN=1"
		return
	fi
	case $NSBSP_NONSTRING_SKIP in
	*"GCC "*": it has"*) echo "-Wunterminated-string-initialization" ;;
	*) skip "$NSBSP_NONSTRING_SKIP" ;;
	esac
}

corpus() {
	flags=$(check_flags) || exit $?
	work=$OUT/nonstring-corpus
	rm -rf "$work"
	mkdir -p "$work"
	bad=0
	for c in "$TOP"/tools/nonstring-corpus/*.c; do
		name=${c##*/}
		extra=$(sed -n 's|.*ns: cflags \([^*]*\)\*/.*|\1|p' "$c")
		# shellcheck disable=SC2086 # flags are words
		if ! $NSBSP_KCC -std=gnu11 -Werror $flags $extra -c "$c" -o "$work/$name.o" \
			2> "$work/$name.err"; then
			echo "$name: the compiler failed:"
			cat "$work/$name.err"
			bad=1
			continue
		fi
		# Expected and found findings per line: "LINE COUNT".
		awk '/ns: warn/ { n = 1; if (match($0, /ns: warn [0-9]+/)) n = substr($0, RSTART + 9, RLENGTH - 9) + 0; print NR, n }' \
			"$c" > "$work/$name.want"
		grep -F -- "$tag" "$work/$name.err" | grep -F -- "$c:" | cut -d: -f2 | sort -n | uniq -c |
			awk '{ print $2, $1 }' > "$work/$name.got"
		if grep -F -- '[-Wc++-compat]' "$work/$name.err"; then
			echo "$name: a -Wc++-compat diagnostic leaked out of the plugin"
			bad=1
		fi
		if ! diff "$work/$name.want" "$work/$name.got" > "$work/$name.diff"; then
			echo "$name: findings differ from the markers (< wanted LINE COUNT, > found):"
			cat "$work/$name.diff"
			grep -F -- "$tag" "$work/$name.err"
			bad=1
		else
			echo "$name: $(wc -l < "$work/$name.want") marked lines, $(grep -cF -- "$tag" "$work/$name.err") findings, as marked"
		fi
	done
	[ $bad -eq 0 ] || fail "the corpus does not get the findings it marks"
}

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

unpatched() {
	check_flags > /dev/null || exit $?
	dir=$NSBSP_UNPATCHED
	[ -f "$dir/objects" ] || skip "no unpatched build in $dir (make nonstring-unpatched)"
	report=$(sh "$TOP/tools/nonstring-report.sh" "$dir/build" "$dir/src")
	echo "$report" > "$dir/report"
	echo "$(echo "$report" | grep -c .) findings in $(wc -l < "$dir/objects") seed objects of the pristine tree"
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

case $1 in
nonstring_plugin_corpus) corpus ;;
nonstring_board_clean) board_clean ;;
nonstring_unpatched_finds_seeds) unpatched ;;
*) fail "nonstring.sh: unknown case $1" ;;
esac
