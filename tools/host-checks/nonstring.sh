#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: nonstring_plugin_corpus host
# case: nonstring_clang_corpus host
# case: nonstring_board_clean host
# case: nonstring_unpatched_finds_seeds host
# case: nonstring_matches_clang host
#
# GCC 15's -Wunterminated-string-initialization: the plugin that stands in
# for it on GCC < 15 (tools/nonstring-plugin.cc), and clang 21 and later,
# which have it (docs/nonstring.md).
# nonstring_plugin_corpus: every file of tools/nonstring-corpus/ compiled
#   with the kernel's compiler and its checker (the plugin, or the
#   compiler's own warning: GCC 15, clang >= 21) gets exactly the findings
#   its markers name, no others, and none of them is an error under -Werror.
# nonstring_clang_corpus: the same with clang-22 (NONSTRING_CLANG), whatever
#   compiler builds the kernel.
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
tag='[-Wunterminated-string-initialization]'

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

# corpus KIND COMPILER FLAGS: KIND gcc wants the "ns: warn [N]" markers,
# clang those too, but "ns: clang N (reason)" where a documented rule of
# clang's differs. A literal from a macro counts where it is spelled
# (GCC's place; clang's last "expanded from macro" note).
corpus() {
	kind=$1 cc=$2 flags=$3
	# clang warns when a designator overrides an earlier one (the corpus
	# does, on purpose); the kernel turns that off for clang too
	# (scripts/Makefile.extrawarn).
	[ "$kind" != clang ] || flags="$flags -Wno-initializer-overrides"
	work=$OUT/nonstring-corpus/$kind
	rm -rf "$work"
	mkdir -p "$work"
	bad=0
	for c in "$TOP"/tools/nonstring-corpus/*.c; do
		name=${c##*/}
		extra=$(sed -n 's|.*ns: cflags \([^*]*\)\*/.*|\1|p' "$c")
		# shellcheck disable=SC2086 # flags are words
		if ! $cc -std=gnu11 -Werror $flags $extra -c "$c" -o "$work/$name.o" \
			2> "$work/$name.err"; then
			echo "$name: the compiler failed:"
			cat "$work/$name.err"
			bad=1
			continue
		fi
		# Expected and found findings per line: "LINE COUNT".
		awk -v kind="$kind" '
		/ns: clang [0-9]+/ && kind == "clang" {
			match($0, /ns: clang [0-9]+/)
			n = substr($0, RSTART + 10, RLENGTH - 10) + 0
			if (n) print NR, n
			next
		}
		/ns: warn/ {
			n = 1
			if (match($0, /ns: warn [0-9]+/)) n = substr($0, RSTART + 9, RLENGTH - 9) + 0
			print NR, n
		}' "$c" > "$work/$name.want"
		awk -v site=spelling -f "$TOP/tools/nonstring-findings.awk" "$work/$name.err" |
			grep -F -- "$c:" | cut -d: -f2 | sort -n | uniq -c |
			awk '{ print $2, $1 }' > "$work/$name.got"
		if grep -F -- '[-Wc++-compat]' "$work/$name.err"; then
			echo "$name: a -Wc++-compat diagnostic leaked out of the plugin"
			bad=1
		fi
		if grep -n 'ns: clang' "$c" | grep -v -e 'ns: clang [0-9]* (llvm PR 143487' -e 'ns: clang [0-9]* (range designator'; then
			echo "$name: a clang difference that is not one of the documented ones (docs/nonstring.md)"
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
	[ $bad -eq 0 ] || fail "the corpus does not get the findings it marks ($cc)"
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
nonstring_plugin_corpus)
	flags=$(check_flags) || exit $?
	corpus "$NSBSP_NONSTRING_KIND" "$NSBSP_KCC" "$flags"
	;;
nonstring_clang_corpus)
	# shellcheck disable=SC2086 # the compiler and its --target
	command -v ${NSBSP_NONSTRING_CLANG%% *} > /dev/null ||
		fail "no ${NSBSP_NONSTRING_CLANG%% *} (make nonstring-unpatched installs it)"
	corpus clang "$NSBSP_NONSTRING_CLANG" "$NSBSP_NONSTRING_BUILTIN_FLAGS"
	;;
nonstring_board_clean) board_clean ;;
nonstring_unpatched_finds_seeds) unpatched ;;
nonstring_matches_clang) matches ;;
*) fail "nonstring.sh: unknown case $1" ;;
esac
