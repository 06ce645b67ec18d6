#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# case: nonstring_plugin_corpus host
# case: nonstring_clang_corpus host
# inputs: $TOP/tools/nonstring-corpus $TOP/tools/nonstring-findings.awk $TOP/tools/host-checks/lib/nonstring.sh
# inputs: $(command -v "${NSBSP_KCC%% *}") $(command -v "${NSBSP_NONSTRING_CLANG%% *}")
# inputs: $("${NSBSP_KCC%% *}" -print-prog-name=cc1 2> /dev/null) $("${NSBSP_KCC%% *}" -print-prog-name=as 2> /dev/null)
# inputs: $(echo "$NSBSP_NONSTRING_FLAGS" | sed -n 's/.*-fplugin=\([^ ]*\).*/\1/p')
#
# GCC 15's -Wunterminated-string-initialization on the checkers' corpus
# (tools/nonstring-corpus/, docs/nonstring.md): the plugin that stands in
# for it on GCC < 15 (tools/nonstring-plugin.cc), and clang 21 and later,
# which have it. The inputs are the corpus and the compilers (driver,
# cc1, assembler; the plugin): the cases compile nothing else.
# nonstring_plugin_corpus: every file of tools/nonstring-corpus/ compiled
#   with the kernel's compiler and its checker (the plugin, or the
#   compiler's own warning: GCC 15, clang >= 21) gets exactly the findings
#   its markers name, no others, and none of them is an error under -Werror.
# nonstring_clang_corpus: the same with clang-22 (NSBSP_NONSTRING_CLANG),
#   whatever compiler builds the kernel.
# Environment from the Makefile: NSBSP_KCC, NSBSP_NONSTRING_KIND,
# NSBSP_NONSTRING_FLAGS, NSBSP_NONSTRING_SKIP, NSBSP_NONSTRING_CLANG,
# NSBSP_NONSTRING_BUILTIN_FLAGS.
# shellcheck source=../../common/check.sh
. "$NSBSP_COMMON/check.sh"
# shellcheck source=lib/nonstring.sh
. "$TOP/tools/host-checks/lib/nonstring.sh"
tag='[-Wunterminated-string-initialization]'

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
*) fail "nonstring-corpus.sh: unknown case $1" ;;
esac
