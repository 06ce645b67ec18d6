#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# SPDX-FileCopyrightText: The nonstring-bsp authors
# The verdict of `make compilers` on one compiler's kernel build: no
# object printed a warning or an error (tools/nonstring-cc.sh keeps each
# object's compiler messages in X.o.stderr), nor did the last link and
# modpost (KOUT/link.log), -Werror=attributes was on, the compiler's own
# -Wunterminated-string-initialization was on where it has one (GCC >= 15,
# clang >= 21: patch 0004), and CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING
# is y exactly when this compiler takes the nonstring attribute on an
# array of char arrays without a word (GCC >= 15.1 and clang >= 21; not
# GCC <= 14, not clang 16).
#
# usage: compiler-verdict.sh KOUT COMPILER [COMPILER-FLAGS]
set -eu
[ $# -ge 2 ] || { echo "usage: $0 KOUT COMPILER [FLAGS]" >&2; exit 1; }
kout=$1 cc=$2 flags=${3-}
name=$(basename "$kout")
bad=0

objs=$(find "$kout" -name '*.o' | wc -l)
noisy=$(find "$kout" -name '*.o.stderr' | sort)
if [ -n "$noisy" ]; then
	for f in $noisy; do
		echo "  WARN    ${f#"$kout/"}:"
		grep -E 'warning:|error:' "$f" | sed 's/^/          /'
	done
	echo "Error: $name: $(echo "$noisy" | wc -l) of $objs objects printed diagnostics" >&2
	bad=1
fi

if [ -f "$kout/link.log" ] && grep -q -i 'warning' "$kout/link.log"; then
	echo "  WARN    the link and modpost (link.log):"
	grep -i 'warning' "$kout/link.log" | sed 's/^/          /'
	echo "Error: $name: the link or modpost printed warnings" >&2
	bad=1
fi

grep -q -- '-Werror=attributes' "$kout/init/.main.o.cmd" ||
	{ echo "Error: $name: -Werror=attributes was not in the compile flags" >&2; bad=1; }

probe=$(mktemp)
trap 'rm -f "$probe" "$probe.o"' EXIT
# shellcheck disable=SC2086 # flags are words
if $cc $flags -Werror -Wunterminated-string-initialization -x c /dev/null -c -o "$probe.o" 2> /dev/null; then
	real=on
	grep -q -- ' -Wunterminated-string-initialization ' "$kout/init/.main.o.cmd" ||
		{ echo "Error: $name: $cc has -Wunterminated-string-initialization, but it was not on" >&2; bad=1; }
else
	real="not in $cc"
fi
# shellcheck disable=SC2086 # flags are words
echo 'char tag[][4] __attribute__((__nonstring__)) = { "ab" };' |
	$cc $flags -Wall -Wextra -x c - -c -o "$probe.o" > "$probe" 2>&1 || true
if [ -s "$probe" ]; then want=n; else want=y; fi
got=$(sed -n 's/^CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING=//p' "$kout/.config")
got=${got:-n}
if [ "$got" != "$want" ]; then
	echo "Error: $name: CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING=$got, but $cc says:" >&2
	cat "$probe" >&2
	bad=1
fi
[ "$bad" -eq 0 ] || exit 1
echo "  OK      $name: $objs objects, no warning, -Werror=attributes on," \
	"-Wunterminated-string-initialization $real, CONFIG_CC_HAS_MULTIDIMENSIONAL_NONSTRING=$got"
